#pragma once
// Dry joint friction in a velocity-level step (model-layer internal; docs/simulation.md §Dry
// joint friction). Each entry i of LagrangianSystem::dry_friction is the set-valued law
//   p_i ∈ −h f_i Sgn(v⁺_i)      (|p_i| ≤ h f_i; p_i = −h f_i sign(v⁺_i) when v⁺_i ≠ 0)
// on the generalized impulse p_i of its velocity, solved exactly with the step's contacts and
// bilateral rows by an active set over the entries' modes (Bertsekas, Nonlinear Programming §2.3,
// on the convex problem min ½ v⁺ᵀM̂v⁺ − … + Σ h f_i |v⁺_i|):
//   stick  v⁺_i = 0, a bilateral row e_iᵀ v⁺ = 0 whose impulse p_i must satisfy |p_i| ≤ h f_i;
//   slip σ p_i = −σ h f_i (σ = ±1, a known impulse added to v_free), and σ v⁺_i ≥ 0 must hold.
// Each pass solves the step with the current modes (solve_velocity_level), then moves every
// entry whose check fails: a stick whose impulse exceeds h f_i slips against it, a slip whose
// velocity turned against σ sticks. The modes that settle satisfy the law exactly; they start
// from the previous step's.
#include <string>
#include <vector>

#include "moreau/model/lagrangian_system.hpp"
#include "moreau/model/velocity_level.hpp"

namespace moreau::detail {

// The step's solution with dry friction; `modes` (0 stick, ±1 slip with σ) is read as the start
// and left as the settled modes. A pass budget of 4·|friction| + 10 exhausted sets the report's
// status to max_iterations with a message.
VelocityLevelSolution solve_with_dry_friction(const ContactState& s, const MassSolver& mass,
                                              const Vector& v_free, const VelocityLevelInput& in,
                                              const std::vector<DryFriction>& friction, double h,
                                              std::vector<int>& modes, const std::string& solver,
                                              const FrictionContactSettings& settings);

}  // namespace moreau::detail
