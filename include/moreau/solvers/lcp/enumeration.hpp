#pragma once
// Full enumeration of the 2ⁿ complementary index sets of LCP(M, q): for each set α, solve
// M_αα z_α = −q_α, keep z if z ≥ 0 and w = M z + q ≥ 0. Returns EVERY solution found (isolated
// ones; for a singular M_αα the least-squares solution is tried), used to detect non-uniqueness.
#include <vector>

#include "moreau/problems/lcp.hpp"

namespace moreau {

// Settings of enumerate_lcp.
struct LcpEnumerationSettings {
  int max_size = 20;               // refuse larger n (2ⁿ sets) with std::invalid_argument
  double tolerance = 1e-10;        // feasibility tolerance on z ≥ 0, w ≥ 0 (relative)
  double dedupe_tolerance = 1e-8;  // solutions closer than this·max(1, ‖z‖∞) (∞-norm) are one
};

// Every solution found by enumerate_lcp.
struct LcpEnumerationResult : SolverReport {
  std::vector<Vector> solutions;  // every distinct solution z (status infeasible when empty)
  // residual = smallest lcp_residual among the solutions; iterations = index sets tried (2ⁿ).
};

// Every solution of LCP(M, q) found by the enumeration above.
LcpEnumerationResult enumerate_lcp(const Lcp& problem, const LcpEnumerationSettings& settings = {});

}  // namespace moreau
