#pragma once
// ADMM on the global frictional contact problem (Siconos gfc3d ADMM; Acary, Brémond & Huber
// 2018 §7), without condensing M: with De Saxcé's s = [μ ‖u_T‖ e_n] frozen per iteration,
//   min_v ½ vᵀ M v − fᵀ v   s.t.  ξ = Hᵀ v + w + s ∈ K*_μ,
// with multiplier r and penalty ρ:
//   (M + ρ H Hᵀ) v = f + H r − ρ H (w + s − ξ)
//   ξ = P_{K*}(Hᵀ v + w + s − r/ρ),      P_{K*}(y) = y + P_K(−y)  (Moreau decomposition)
//   r ← r − ρ (Hᵀ v + w + s − ξ),        s ← μ ‖u_T‖ e_n,  u = Hᵀ v + w
// At a fixed point M v = H r + f, r ∈ K, ξ = û ∈ K*, r ⊥ û. M + ρ H Hᵀ is factorized once
// (sparse LDLᵀ; it is SPD when M is). ρ = mean diag(M) / mean diag(H Hᵀ).
// Stops when global_friction_contact_residual(v, r) ≤ tolerance.
#include <limits>

#include "moreau/problems/friction_contact.hpp"

namespace moreau {

// Settings of solve_global_admm.
struct GlobalAdmmSettings {
  double tolerance = 1e-8;     // on global_friction_contact_residual
  int max_iterations = 10000;  // ADMM iterations before status max_iterations
  double time_limit = std::numeric_limits<double>::infinity();  // s
  double rho = 0.0;                                             // penalty; 0 → automatic
};

// Solves the global problem by the ADMM above; the result holds r, u and v.
FrictionContactResult solve_global_admm(const GlobalFrictionContactProblem& problem,
                                        const GlobalAdmmSettings& settings = {},
                                        const Vector& guess_r = Vector());

}  // namespace moreau
