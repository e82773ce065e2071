#pragma once
// Lemke's complementary pivoting method for LCP(M, q) with lexicographic anti-cycling
// (Cottle, Pang & Stone, The Linear Complementarity Problem, §4.4 and §4.9).
// Ray termination is reported as Status::ray_termination (no solution found by the method:
// for copositive-plus M this proves infeasibility).
#include "moreau/problems/lcp.hpp"

namespace moreau {

// Settings of solve_lemke (pivot limit, tolerances).
struct LemkeSettings {
  int max_pivots = 0;              // 0 → 100·(n+1) pivots
  double pivot_tolerance = 1e-12;  // |pivot| below this counts as zero
  double tolerance = 1e-10;        // residual accepted as a solution at termination
  // true: lexicographic minimum ratio test (no cycling). false: ties broken by the lowest row
  // index, the textbook rule that can cycle on degenerate problems (kept for tests/teaching).
  bool lexicographic = true;
};

// Solves LCP(M, q) by Lemke's method (above).
LcpResult solve_lemke(const Lcp& problem, const LemkeSettings& settings = {});

}  // namespace moreau
