#pragma once
// Semismooth Newton on the Fischer–Burmeister reformulation of LCP(M, q):
//   Φ_i(z) = z_i + w_i − sqrt(z_i² + w_i²),  w = M z + q,  solve Φ(z) = 0
// with an Armijo line search on ½‖Φ‖² (De Luca, Facchinei & Kanzow 1996).
#include "moreau/problems/lcp.hpp"

namespace moreau {

// Settings of the Fischer–Burmeister Newton LCP solver.
struct LcpNewtonSettings {
  double tolerance = 1e-12;  // on lcp_residual
  int max_iterations = 200;  // Newton iterations before status max_iterations
  double armijo = 1e-4;      // sufficient decrease constant
  double backtrack = 0.5;    // step reduction factor
  int max_backtracks = 50;   // line-search steps before numerical_failure
  // Descent test of De Luca–Facchinei–Kanzow: the Newton step d is used when
  // ∇Ψᵀd ≤ −rho·‖d‖^power, otherwise the steepest-descent step −∇Ψ.
  double descent_rho = 1e-8;   // rho of the test above
  double descent_power = 2.1;  // power of the test above
};

// Solves LCP(M, q) by the semismooth Newton method above from the guess.
LcpResult solve_lcp_fischer_burmeister(const Lcp& problem, const LcpNewtonSettings& settings = {},
                                       const Vector& guess = Vector());

}  // namespace moreau
