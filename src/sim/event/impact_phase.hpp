#pragma once
// Impact phase of the event-driven integrator (not public API): the velocity jumps at an event,
// through the impact layer's laws (impact/impact_laws.hpp) and the velocity-level problem
// (model/velocity_level.hpp).
#include <string>
#include <vector>

#include "moreau/sim/simulation.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"

namespace moreau::event {

struct ImpactContext {
  const LagrangianSystem& sys;
  const SimulationSettings& st;
  FrictionContactSettings fcs{};  // solver.tolerance, solver.max_iterations
  double eps_g = 0,
         tol_v = 0;  // contact tolerances: closed when g ≤ 10ε, approaching when u_n < −tol_v
};

// Impacts on every closed contact when one of them approaches, by the law the closed contacts
// share, applied through its row of the impact-law table (sim/impact_law.hpp; checked at the
// start, a mix in one impact is refused). Impacts slower than zeno_velocity are plastic (e := 0)
// for every law, per contact or per impact as the row says. Returns true if an
// impact was applied (v := v⁺, impacted[i] set and an "impact" event per approaching contact);
// a law that fails (not converged, singular) sets `failure` and returns false.
bool apply_impacts(const ImpactContext& ctx, double t, const Vector& q, Vector& v,
                   std::vector<bool>& impacted, SimulationResult& res, std::string& failure);

// Painlevé policy "tangential_impact" (docs/simulation.md §Painlevé): at a case-3 state of
// contact i (sliding, u_n = 0, no consistent mode) an impulsive transition at the velocity level
// with e = 0: contact i sticks, u_i⁺ = 0 (its d rows as equalities with free impulse P_i), the
// other closed contacts take part with e = 0 and Coulomb friction, joints with u_B⁺ = 0:
//   M(v⁺ − v⁻) = H_i P_i + H_U r + H_B p,  u_i⁺ = H_iᵀv⁺ = 0,  K_μ ∋ r ⊥ û_U ∈ K*_μ,  u_B⁺ = 0,
// accepted when P_i lies in its Coulomb cone (P_n > 0, ‖P_t‖ ≤ μP_n). For one contact this is
// P_i = −W_ii⁻¹ u_i⁻, the end of the Darboux–Keller impulsive phase of Génot & Brogliato
// (slip with dP_t = −μσ dP_n while α < 0 drives u_n < 0 and u_t to 0, then stick until u_n
// returns to 0, e = 0). For one contact P_i is always in the cone in case 3: |P_t|/P_n =
// W_nn/|W_nt| < μ ⟺ α = W_nn − μσW_nt < 0. With other contacts or joints it may not be; then
// the policy fails and the run stops with status painleve (the message says why).
// Energy: ΔT = −½ u_i⁻ᵀ W_ii⁻¹ u_i⁻ ≤ 0 for one contact.
// Returns true and sets v := v⁺ when accepted; `detail` describes the outcome either way.
bool tangential_impact(const ImpactContext& ctx, double t, const Vector& q, Vector& v, Index i,
                       std::string& detail);

}  // namespace moreau::event
