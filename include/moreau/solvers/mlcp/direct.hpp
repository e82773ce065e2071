#pragma once
// Direct (pivoting) solution of the MLCP of moreau/problems/mlcp.hpp:
//   A u + C v + a = 0,   w = D u + B v + b,   0 ≤ v ⊥ w ≥ 0.
// A invertible (FullPivLU rank test): u = −A⁻¹(C v + a) is eliminated and Lemke solves the
// reduced LCP(B − D A⁻¹ C, b − D A⁻¹ a); u is recovered afterwards.
// A singular: the free variable is split, u = u⁺ − u⁻ (u± ≥ 0), and Lemke solves the
// equivalent LCP of size 2n + m
//   [ A  −A   C ] [u⁺]   [ a]
//   [−A   A  −C ] [u⁻] + [−a]  ⊥ (u⁺, u⁻, v) ≥ 0,
//   [ D  −D   B ] [v ]   [ b]
// whose first two rows force A u + C v + a = 0. See docs/math/lcp.md.
#include "moreau/problems/mlcp.hpp"

namespace moreau {

// Settings of the direct MLCP solver.
struct MlcpDirectSettings {
  double tolerance = 1e-10;     // on mlcp_residual: converged iff residual ≤ tolerance
  double rank_tolerance = 0.0;  // relative pivot threshold of the LU rank test of A; 0 → Eigen's
                                // default (n·ε)
  int max_pivots = 0;           // Lemke pivots, 0 → 100·(size + 1)
  double pivot_tolerance = 1e-12;  // Lemke: |pivot| below this counts as zero
};

// result.message names the path taken ("schur" or "split") and any failure; iterations are
// Lemke pivots.
MlcpResult solve_mlcp_direct(const Mlcp& problem, const MlcpDirectSettings& settings = {});

}  // namespace moreau
