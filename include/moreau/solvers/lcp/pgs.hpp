#pragma once
// Projected Gauss–Seidel / successive over-relaxation for LCP(M, q) (needs M_ii > 0):
//   z_i ← max(0, z_i − ω (M_i· z + q_i)/M_ii)
#include "moreau/problems/lcp.hpp"

namespace moreau {

// Settings of projected Gauss–Seidel for LCPs (ω, tolerance, iterations).
struct LcpPgsSettings {
  double tolerance = 1e-10;    // on lcp_residual
  int max_iterations = 10000;  // sweeps
  double relaxation = 1.0;     // ω ∈ (0, 2); 1 = Gauss–Seidel
};

// Solves LCP(M, q) by projected Gauss–Seidel / SOR (above) from the guess.
LcpResult solve_lcp_pgs(const Lcp& problem, const LcpPgsSettings& settings = {},
                        const Vector& guess = Vector());

}  // namespace moreau
