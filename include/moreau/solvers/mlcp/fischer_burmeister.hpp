#pragma once
// Least-squares semismooth Newton method on the Fischer–Burmeister reformulation of the MLCP
// of moreau/problems/mlcp.hpp (A u + C v + a = 0, w = D u + B v + b, 0 ≤ v ⊥ w ≥ 0):
//   F(u, v) = [ A u + C v + a ;  φ(vᵢ, wᵢ) ],  φ(a, b) = a + b − √(a² + b²),
// Newton steps d = −J⁺F (minimum-norm least squares, so a singular A or J is allowed) with an
// Armijo line search on ½‖F‖². Used by solve_mlcp_direct when pivoting does not reach the
// tolerance (singular A) and available on its own.
#include "moreau/problems/mlcp.hpp"

namespace moreau {

// Settings of the Fischer–Burmeister Newton MLCP solver.
struct MlcpNewtonSettings {
  double tolerance = 1e-12;  // on mlcp_residual
  int max_iterations = 200;  // Newton iterations before status max_iterations
  double armijo = 1e-4;      // sufficient decrease constant σ ∈ (0, ½)
  double backtrack = 0.5;    // step reduction factor β ∈ (0, 1)
  int max_backtracks = 50;   // line-search steps before numerical_failure
  double descent_rho = 1e-8;  // Newton step used when ∇Ψᵀd ≤ −rho·‖d‖^power, else −∇Ψ
  double descent_power = 2.1;  // power of the test above
};

// guess_u (n) and guess_v (m): empty for zeros.
MlcpResult solve_mlcp_fischer_burmeister(const Mlcp& problem,
                                         const MlcpNewtonSettings& settings = {},
                                         const Vector& guess_u = Vector(),
                                         const Vector& guess_v = Vector());

}  // namespace moreau
