#pragma once
// Projected Gauss–Seidel for the MLCP of moreau/problems/mlcp.hpp
// (A u + C v + a = 0, w = D u + B v + b, 0 ≤ v ⊥ w ≥ 0) with the equality block solved
// exactly at every update: u(v) = −A⁻¹(C v + a), and with S = B − D A⁻¹C, s = b − D A⁻¹a
//   vᵢ ← max(0, vᵢ − ω (S_i· v + sᵢ)/S_ii)   (i = 1..m, Gauss–Seidel order).
// Needs S_ii > 0; converges for symmetric positive definite S. If some S_ii ≤ 0 but all
// B_ii > 0, falls back to Siconos' sweep (u solved once per sweep, then frozen over the v pass). A
// singular: u = −A⁺(C v + a) (minimum-norm least squares) and the equality holds only if
// consistent.
#include "moreau/problems/mlcp.hpp"

namespace moreau {

// Settings of projected Gauss–Seidel for MLCPs.
struct MlcpPgsSettings {
  double tolerance = 1e-10;    // on mlcp_residual
  int max_iterations = 10000;  // sweeps
  double relaxation = 1.0;     // ω ∈ (0, 2)
};

// guess_v: m entries (clamped to ≥ 0) or empty for v = 0; u follows from v in the first sweep.
MlcpResult solve_mlcp_pgs(const Mlcp& problem, const MlcpPgsSettings& settings = {},
                          const Vector& guess_v = Vector());

}  // namespace moreau
