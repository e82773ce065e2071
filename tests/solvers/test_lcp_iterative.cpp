// PGS/PSOR and Fischer–Burmeister Newton on analytic LCPs (solutions derived in the comments).
#include <gtest/gtest.h>

#include <cmath>

#include "moreau/solvers/lcp/fischer_burmeister.hpp"
#include "moreau/solvers/lcp/pgs.hpp"

using namespace moreau;

namespace {
// M = [[2,1],[1,2]] (SPD), q = (−5, −6): both w = 0 → 2z₁ + z₂ = 5, z₁ + 2z₂ = 6 → z = (4/3, 7/3).
Lcp deudeu() {
  Matrix M(2, 2);
  M << 2, 1, 1, 2;
  return Lcp{M, Vector2(-5, -6)};
}
// Same M, q = (1, −4): try z₁ = 0, w₂ = 0: 2z₂ = 4 → z₂ = 2, w₁ = 2 + 1 = 3 ≥ 0 → z = (0, 2), w =
// (3, 0).
Lcp one_active() {
  Matrix M(2, 2);
  M << 2, 1, 1, 2;
  return Lcp{M, Vector2(1, -4)};
}
}  // namespace

TEST(LcpPgs, SolvesSpdProblems) {
  for (const double omega : {1.0, 1.3, 0.7}) {
    const LcpResult r = solve_lcp_pgs(deudeu(), {.tolerance = 1e-12, .relaxation = omega});
    ASSERT_EQ(r.status, Status::converged) << "ω = " << omega;
    EXPECT_NEAR((r.z - Vector2(4.0 / 3, 7.0 / 3)).norm(), 0.0, 1e-10);
    EXPECT_LE(r.residual, 1e-12);
    EXPECT_EQ(r.residual_history.size(), static_cast<std::size_t>(r.iterations));
  }
  const LcpResult r = solve_lcp_pgs(one_active(), {.tolerance = 1e-12});
  ASSERT_EQ(r.status, Status::converged);
  EXPECT_NEAR((r.z - Vector2(0, 2)).norm(), 0.0, 1e-10);
  EXPECT_NEAR((r.w - Vector2(3, 0)).norm(), 0.0, 1e-10);
}

TEST(LcpPgs, WarmStartAtSolutionTakesNoSweep) {
  const LcpResult r = solve_lcp_pgs(deudeu(), {}, Vector2(4.0 / 3, 7.0 / 3));
  EXPECT_EQ(r.status, Status::converged);
  EXPECT_EQ(r.iterations, 0);
  // A warm start near the solution needs fewer sweeps than the cold start.
  const int cold = solve_lcp_pgs(deudeu(), {.tolerance = 1e-12}).iterations;
  const int warm = solve_lcp_pgs(deudeu(), {.tolerance = 1e-12}, Vector2(1.3, 2.3)).iterations;
  EXPECT_LT(warm, cold);
}

TEST(LcpPgs, ReportsNonConvergenceAndZeroDiagonal) {
  // One sweep is not enough on the coupled problem: status max_iterations, not an exception.
  const LcpResult r = solve_lcp_pgs(deudeu(), {.max_iterations = 1});
  EXPECT_EQ(r.status, Status::max_iterations);
  EXPECT_EQ(r.iterations, 1);
  // M₁₁ = 0: the Gauss–Seidel update divides by M_ii.
  Matrix M(2, 2);
  M << 0, 1, 1, 2;
  EXPECT_EQ(solve_lcp_pgs(Lcp{M, Vector2(-1, -1)}).status, Status::numerical_failure);
}

TEST(LcpPgs, RejectsBadInput) {
  EXPECT_THROW(solve_lcp_pgs(deudeu(), {.relaxation = 2.0}), std::invalid_argument);
  EXPECT_THROW(solve_lcp_pgs(deudeu(), {}, Vector3(1, 2, 3)), std::invalid_argument);
  EXPECT_THROW(solve_lcp_pgs(deudeu(), {}, Vector2(std::nan(""), 1)), std::invalid_argument);
  EXPECT_THROW(solve_lcp_pgs(Lcp{Matrix::Identity(2, 3), Vector2(1, 1)}), std::invalid_argument);
}

TEST(LcpFischerBurmeister, SolvesAnalyticProblems) {
  const LcpResult r = solve_lcp_fischer_burmeister(deudeu());
  ASSERT_EQ(r.status, Status::converged) << r.message;
  EXPECT_NEAR((r.z - Vector2(4.0 / 3, 7.0 / 3)).norm(), 0.0, 1e-11);
  EXPECT_LE(r.iterations, 20);
  const LcpResult s = solve_lcp_fischer_burmeister(one_active());
  ASSERT_EQ(s.status, Status::converged) << s.message;
  EXPECT_NEAR((s.z - Vector2(0, 2)).norm(), 0.0, 1e-11);
}

TEST(LcpFischerBurmeister, NonSymmetricPMatrix) {
  // M = [[1,2,0],[0,1,2],[2,0,1]] (P-matrix, det 9; Kostreva's degenerate example), q = −1:
  // unique solution z = (1/3, 1/3, 1/3) (3t − 1 = 0 by the cyclic symmetry). PGS is not
  // guaranteed here (M not symmetric), the semismooth Newton method is.
  Matrix M(3, 3);
  M << 1, 2, 0, 0, 1, 2, 2, 0, 1;
  const LcpResult r = solve_lcp_fischer_burmeister(Lcp{M, Vector::Constant(3, -1.0)});
  ASSERT_EQ(r.status, Status::converged) << r.message;
  EXPECT_NEAR((r.z - Vector::Constant(3, 1.0 / 3)).norm(), 0.0, 1e-11);
}

TEST(LcpFischerBurmeister, DegenerateStartAtKink) {
  // M = I, q = 0: every z ≥ 0 with z ⊥ z ≥ 0 means z = 0. Starting at z = 0 gives
  // zᵢ = wᵢ = 0, the non-differentiable point of φ; the residual is already 0 there.
  // Starting from z = (1, 0): the second component sits on the kink (z₂ = w₂ = 0) and the
  // generalized-Jacobian element a = b = 1 − 1/√2 must keep J nonsingular: J = diag(1, 2 − √2).
  const Lcp lcp{Matrix::Identity(2, 2), Vector::Zero(2)};
  const LcpResult r0 = solve_lcp_fischer_burmeister(lcp);
  EXPECT_EQ(r0.status, Status::converged);
  EXPECT_EQ(r0.iterations, 0);
  // q = (0, −1): solution z = (0, 1), w = (0, 0): the first pair is degenerate (z₁ = w₁ = 0 at
  // the solution). From the guess z = (0, 0.5) the first component starts on the kink.
  const Lcp lcp2{Matrix::Identity(2, 2), Vector2(0, -1)};
  const LcpResult r = solve_lcp_fischer_burmeister(lcp2, {}, Vector2(0, 0.5));
  ASSERT_EQ(r.status, Status::converged) << r.message;
  EXPECT_NEAR((r.z - Vector2(0, 1)).norm(), 0.0, 1e-12);
}

TEST(LcpFischerBurmeister, WarmStartAndFailureStatus) {
  const LcpResult warm = solve_lcp_fischer_burmeister(deudeu(), {}, Vector2(4.0 / 3, 7.0 / 3));
  EXPECT_EQ(warm.status, Status::converged);
  EXPECT_LE(warm.iterations, 1);
  // Infeasible problem (w₁ + w₂ = −2 always): the method must end with a non-converged status.
  Matrix M(2, 2);
  M << 1, -1, -1, 1;
  const LcpResult bad =
      solve_lcp_fischer_burmeister(Lcp{M, Vector2(-1, -1)}, {.max_iterations = 50});
  EXPECT_NE(bad.status, Status::converged);
  EXPECT_GT(bad.residual, 1e-6);
  EXPECT_THROW(solve_lcp_fischer_burmeister(deudeu(), {.armijo = 0.7}), std::invalid_argument);
  EXPECT_THROW(solve_lcp_fischer_burmeister(deudeu(), {}, Vector3(0, 0, 0)), std::invalid_argument);
}
