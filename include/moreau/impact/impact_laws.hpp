#pragma once
// Rigid impact laws of a Lagrangian system at one configuration (Brogliato 2014 §3): the pre-impact
// velocity q̇⁻ of a ContactState goes in; the post-impact velocity q̇⁺, the impulses and a status
// come out. Every constraint of the state is taken as an active unilateral contact (gap 0);
// bilateral constraints are refused. Notation (docs/math/impact.md):
//   W = [∇h_1 … ∇h_m] (n×m), H_T = [H_t,1 … H_t,m] (n×(d−1)m), u_n = Wᵀq̇, u_t = H_Tᵀq̇,
//   Delassus W_nn = WᵀM⁻¹W; kinetic metric (analysis/kinetic_quasi_velocities.hpp):
//   ρ_i, n_q = M⁻¹W diag(1/ρ), G = N, q̇_norm = diag(1/ρ) u_n, p̄ = diag(ρ) p_n.
// Impulses: M(q̇⁺ − q̇⁻) = W p_n + H_T p_t.
#include <string>
#include <vector>

#include "moreau/model/contact_state.hpp"
#include "moreau/impact/impact_status.hpp"

namespace moreau {

// Outcome of an impact law: status, post-impact velocity and impulses.
struct ImpactResult {
  std::string law;  // name of the law that produced it (the SPEC's "law")
  ImpactStatus status = ImpactStatus::not_converged;  // resolved, no_impact, or why not
  std::string message;                                // why a status is not `resolved`, or empty
  Vector v_post;                                      // q̇⁺, n
  Vector normal_impulse;                              // p_n, m, N·s
  Vector tangential_impulse;           // p_t, (d−1)m, N·s (zero for frictionless laws)
  Vector normal_velocity_before;       // u_n⁻ = Wᵀq̇⁻, m, m/s
  Vector normal_velocity_after;        // u_n⁺, m
  Vector tangential_velocity_before;   // u_t⁻ = H_Tᵀq̇⁻, (d−1)m
  Vector tangential_velocity_after;    // u_t⁺
  double kinetic_energy_before = 0.0;  // ½ q̇⁻ᵀMq̇⁻, J
  double kinetic_energy_after = 0.0;   // J
  double residual = 0.0;  // complementarity residual (LCP / frictional) or range-check residual
  int solutions = 1;      // frictional mode enumeration: number of solutions found
};

// Newton's law contact by contact (Remark 5: E_nn = diag(e_i)), applied to the approaching
// contacts A = {i : u_n,i⁻ < 0} as equalities u_n,A⁺ = −e_A u_n,A⁻ (the sign heuristic):
//   W_AA p_A = −(1 + e_A) u_n,A⁻.  Status inadmissible when some p_i < 0 or a contact outside A
// ends with u_n,i⁺ < 0 (the heuristic fails when some N_ij < 0, although Brogliato 2014 §3.1.1
// reads the support set from the signs; counter-example in docs/math/impact.md).
ImpactResult newton_impact(const ContactState& state);

// Moreau's law (43) as an LCP in the kinetic metric, E = diag(e_i) (e_i all equal gives (43)):
//   0 ≤ p̄ ⊥ G p̄ + (I + E) q̇_norm⁻ ≥ 0,   q̇⁺ = q̇⁻ + n_q p̄,   p_n = diag(1/ρ) p̄.
// G is SPD, so the solution is unique (Lemke, checked by the LCP residual).
ImpactResult moreau_impact(const ContactState& state);

// Poisson's law in two phases: compression 0 ≤ p_c ⊥ u_c = u_n⁻ + W_nn p_c ≥ 0, then restitution
//   0 ≤ z ⊥ u_n⁺ = u_c + W_nn (E p_c + z) ≥ 0 with the restitution impulse p_r = E p_c + z.
ImpactResult poisson_impact(const ContactState& state);

// The generalized kinematic law (41)–(42) in kinetic quasi-velocities v = ΞMq̇:
//   v⁺ = −𝓔 v⁻,  q̇⁺ = Ξᵀ D v⁺,
// with 𝓔 (n×n) = [[E_nn, E_nt], [E_tn, E_tt]]. Impulses are recovered by least squares from
// M(q̇⁺ − q̇⁻) = W p_n + H_T p_t (H_T only when `with_friction`); the relative residual is the range
// check (56). Status inadmissible when the range check fails (> 1e-9), p_n < 0 or u_n⁺ < 0.
ImpactResult restitution_matrix_impact(const ContactState& state, const Matrix& E,
                                       bool with_friction = false);
// 𝓔 = diag(E_nn, −I) (frictionless: q̇_tan continuous, E_tn = 0, E_nt = 0).
Matrix frictionless_restitution_matrix(const Matrix& E_nn, Index dofs);

// How the frictional impact law finds its solution: chosen by size, by enumeration of
// the contact modes, or as a complementarity problem.
enum class FrictionalImpactMethod { automatic, enumeration, complementarity };

// Settings of the frictional impact law.
struct FrictionalImpactSettings {
  FrictionalImpactMethod method =
      FrictionalImpactMethod::automatic;  // enumeration if planar, m ≤ 6
  Vector e_t;                             // tangential restitution per contact, m (empty = 0)
  double tolerance = 1e-10;               // complementarity residual accepted
  // Frictional-contact solver (registry name) of the complementarity method.
  std::string solver = "auto";
};

// Frictional impact (67)–(69): Newton normal restitution and Coulomb's law at the impulse level
// with tangential restitution, in local variables ũ = u⁺ + E u⁻ (E = diag(e_n, e_t)):
//   ũ = W_loc r + (I + E) u⁻,  W_loc = [W H_T]ᵀ M⁻¹ [W H_T],
//   0 ≤ r_n ⊥ ũ_n ≥ 0,   r_t ∈ −μ r_n Sgn(ũ_t)   (per contact; ũ_t = u_t⁺ + e_t u_t⁻).
// Planar contacts (one tangent) with m ≤ 6: enumeration of the 4^m modes (separate, stick,
// slip ±), all solutions counted (`solutions`); otherwise the frictional-contact solver registry.
ImpactResult frictional_impact(const ContactState& state,
                               const FrictionalImpactSettings& settings = {});

// Single contact closed form (the particle on a rough line of Brogliato 2014 §3.2.4, whose printed
// formula drops the prefactor P; docs/math/impact.md), for a contact whose normal and tangential
// directions are decoupled (W_loc = diag(w_n, w_t I)):
//   P = μ (w_t/w_n)(1 + e_n)|u_n⁻|,   u_t⁺ = u_t⁻ − P·proj_ball((1 + e_t) u_t⁻ / P)
// (u_t scalar or 2-vector; P = 0 → u_t⁺ = u_t⁻). Requires u_n⁻ ≤ 0.
Vector single_contact_frictional_closed_form(const Vector& u_t, double u_n, double mu, double e_n,
                                             double e_t, double w_ratio = 1.0);

}  // namespace moreau
