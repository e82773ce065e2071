#pragma once
// Velocity-level (time-stepping) contact problem data for the active constraints of a
// ContactState (Drake's ConstraintVelProblemData, docs/references.md):
//   M (v⁺ − v*) = N r_n + T r_t,   v* = v + h M⁻¹(−F)   (pre-impulse velocity, step h),
//   u_n = Nᵀ v⁺ + kN,  0 ≤ u_n + γ r_n ⊥ r_n ≥ 0 (unilateral), u_n = 0 (bilateral), Coulomb on
//   (r_n, r_t),
// with the stabilization bias kN_i = β_i g_i (β_i = the constraint's baumgarte_beta read as a rate,
// 1/s; g_i the gap) and the softening γ_i.
// The local form (FCLIB/Siconos, normal first per contact): W = Hᵀ M⁻¹ H + diag(γ on normals),
// q = Hᵀ v* + w with H = [∇h_1 H_t,1 ∇h_2 …] and w = (kN_1, 0, …).
#include <vector>

#include "moreau/contact/acceleration_problem.hpp"
#include "moreau/problems/friction_contact.hpp"

namespace moreau {

// Velocity-level (impulse) contact problem of a ContactState.
struct VelocityProblem {
  int dimension = 2;            // d, 2 or 3 (d − 1 tangents per contact)
  double step = 0.0;            // h, s
  std::vector<Index> active;    // k indices into state.constraints
  std::vector<bool> bilateral;  // k
  Matrix M;                     // n×n
  Vector v;                     // n, current velocity
  Vector v_free;                // n, v* = v + h M⁻¹(−F)
  Matrix N;                     // n×k
  Matrix T;                     // n×(d−1)k
  Matrix H;                     // n×dk, per contact [∇h_i, H_t,i] (normal first)
  Vector mu;                    // k
  Vector gamma;                 // k
  Vector kN;                    // k, m/s
  Vector restitution;           // k
  Matrix W;                     // dk×dk local Delassus Hᵀ M⁻¹ H (+ γ on the normal diagonal)
  Vector q;                     // dk local free velocity Hᵀ v* + w
  bool mass_positive_definite = true;  // false ⇒ M⁺ (pseudo-inverse) was used for M⁻¹
};

// step h ≥ 0 (h = 0: impact problem with v* = v). Throws on bad input.
VelocityProblem build_velocity_problem(const ContactState& state, double step,
                                       const ActiveSetSettings& settings = {});

// The local FrictionContactProblem (W, q, μ) of the UNILATERAL active contacts; throws
// std::invalid_argument if an active constraint is bilateral (not representable there).
FrictionContactProblem to_friction_contact_problem(const VelocityProblem& problem);

}  // namespace moreau
