#pragma once
// ADMM for the local frictional contact problem, 2D and 3D (Acary, Brémond & Huber 2018 §7;
// the FC ADMM of Siconos). With De Saxcé's correction s = [μ_i ‖u_{T,i}‖ e_n] frozen at each
// iteration, the problem is the convex QP  min ½ rᵀ W r + (q + s)ᵀ r  s.t. r ∈ K_μ, split as
// r = z, z ∈ K_μ (scaled dual ξ):
//   (W + ρ I) r = −(q + s) + ρ (z − ξ)
//   z = P_K(r + ξ)                       (per contact, closed form)
//   ξ ← ξ + r − z
//   s ← μ ‖u_T‖ e_n with u = W z + q
// Penalty ρ: starts at the mean diagonal of W; residual balancing (Boyd et al. 2011, §3.4.1:
// ρ ×/÷ 2 when the primal and dual residuals differ by more than 10×), each change
// refactorizes W + ρ I (sparse LDLᵀ, sparse LU when W is not symmetric). Nesterov-type
// acceleration with restart (Goldstein, O'Donoghue, Setzer & Baraniuk 2014) on (z, ξ).
// Stops when friction_contact_residual(z, W z + q) ≤ tolerance.
#include <limits>

#include "moreau/problems/friction_contact.hpp"

namespace moreau {

// Settings of solve_admm (tolerance on friction_contact_residual, iterations, penalty ρ).
struct AdmmSettings {
  double tolerance = 1e-8;     // on friction_contact_residual
  int max_iterations = 10000;  // ADMM iterations before status max_iterations
  double time_limit = std::numeric_limits<double>::infinity();  // s
  double rho = 0.0;           // initial penalty; 0 → mean diagonal of W
  bool adaptive_rho = false;  // residual balancing (every 5 iterations)
  bool acceleration = true;   // Nesterov extrapolation with restart
};

// Solves the local problem by the ADMM above (registry name "admm").
FrictionContactResult solve_admm(const FrictionContactProblem& problem,
                                 const AdmmSettings& settings = {}, const Vector& guess = Vector());

}  // namespace moreau
