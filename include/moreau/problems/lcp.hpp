#pragma once
// Linear complementarity problem LCP(M, q): find z with
//   w = M z + q,   0 ≤ z ⊥ w ≥ 0.
#include <string>

#include "moreau/common/status.hpp"
#include "moreau/common/types.hpp"

namespace moreau {

// Linear complementarity problem LCP(M, q): w = M z + q ≥ 0, z ≥ 0, zᵀw = 0.
struct Lcp {
  Matrix M;  // n×n
  Vector q;  // n

  // n, the problem size.
  Index size() const { return q.size(); }
  // Throws std::invalid_argument naming the offending sizes or entries (NaN/inf).
  void validate() const;
};

// Solution of an LCP with the solver report.
struct LcpResult : SolverReport {
  Vector z;  // n, the complementarity variable
  Vector w;  // n, w = M z + q
};

// The one LCP residual (natural map, scale-free):
//   ‖min(z, M z + q)‖₂ / max(‖q‖₂, ‖z‖₂, ‖M z + q‖₂)
// (no division below 1e-300; +∞ or NaN when z has a non-finite entry, never 0).
// It is 0 exactly at solutions; every LCP solver, test and benchmark reports this number.
double lcp_residual(const Lcp& problem, const Vector& z);

}  // namespace moreau
