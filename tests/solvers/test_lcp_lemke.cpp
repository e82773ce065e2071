// Lemke's method: analytic LCPs with the solutions derived in the comments.
#include <gtest/gtest.h>

#include "moreau/solvers/lcp/enumeration.hpp"
#include "moreau/solvers/lcp/lemke.hpp"

using namespace moreau;

namespace {
Matrix mat(std::initializer_list<std::initializer_list<double>> rows) {
  Matrix M(static_cast<Index>(rows.size()), static_cast<Index>(rows.begin()->size()));
  Index i = 0;
  for (const auto& r : rows) {
    Index j = 0;
    for (double v : r) M(i, j++) = v;
    ++i;
  }
  return M;
}
Vector vec(std::initializer_list<double> v) {
  Vector x(static_cast<Index>(v.size()));
  Index i = 0;
  for (double a : v) x[i++] = a;
  return x;
}
}  // namespace

TEST(LcpLemke, TrivialWhenQNonnegative) {
  // q ≥ 0: z = 0 gives w = q ≥ 0 and z ⊥ w, without a single pivot.
  const Lcp lcp{mat({{2, -1}, {-1, 2}}), vec({0.0, 3.0})};
  const LcpResult r = solve_lemke(lcp);
  EXPECT_EQ(r.status, Status::converged);
  EXPECT_EQ(r.iterations, 0);
  EXPECT_EQ(r.z, Vector::Zero(2));
  EXPECT_EQ(r.w, lcp.q);
}

TEST(LcpLemke, IdentityMatrix) {
  // M = I: z = max(0, −q) = (1, 0, 3), w = max(0, q) = (0, 2, 0).
  const Lcp lcp{Matrix::Identity(3, 3), vec({-1.0, 2.0, -3.0})};
  const LcpResult r = solve_lemke(lcp);
  ASSERT_EQ(r.status, Status::converged);
  EXPECT_NEAR((r.z - vec({1, 0, 3})).norm(), 0.0, 1e-14);
  EXPECT_NEAR((r.w - vec({0, 2, 0})).norm(), 0.0, 1e-14);
}

TEST(LcpLemke, CottlePangStoneExample447) {
  // CPS (2009) Example 4.4.7, the classic Lemke illustration (also siconos lcp_CPS_2.dat):
  //   M = [[0,−1,2],[2,0,−2],[−1,1,0]], q = (−3, 6, −1).
  // z = (0, 1, 3): w₁ = −1 + 6 − 3 = 2, w₂ = 0 − 6 + 6 = 0, w₃ = 1 + 0 − 1 = 0 → z ⊥ w ≥ 0.
  // Enumeration (below) shows it is the only solution, so Lemke must return it.
  const Lcp lcp{mat({{0, -1, 2}, {2, 0, -2}, {-1, 1, 0}}), vec({-3, 6, -1})};
  const LcpResult r = solve_lemke(lcp);
  ASSERT_EQ(r.status, Status::converged) << r.message;
  EXPECT_NEAR((r.z - vec({0, 1, 3})).norm(), 0.0, 1e-12);
  EXPECT_NEAR((r.w - vec({2, 0, 0})).norm(), 0.0, 1e-12);
  const auto all = enumerate_lcp(lcp);
  ASSERT_EQ(all.solutions.size(), 1u);
  EXPECT_NEAR((all.solutions[0] - vec({0, 1, 3})).norm(), 0.0, 1e-12);
}

TEST(LcpLemke, DegenerateKostrevaCyclesWithoutLexicographicRule) {
  // Kostreva (1979) / Murty (1988) degenerate example: M = [[1,2,0],[0,1,2],[2,0,1]],
  // q = (−1, −1, −1). All of q ties at the first pivot and the ratio tests keep tying.
  // M is a P-matrix (principal minors 1, 1, 1, 1, 1, 1 and det M = 1 + 2·4 = 9 > 0), so the
  // solution is unique; by the cyclic symmetry z₁ = z₂ = z₃ = t with 3t − 1 = 0 → t = 1/3, w = 0.
  // With ties broken by the lowest row index Lemke revisits an earlier (basis, entering
  // variable) pair within 8 pivots
  // (checked with an independent numpy implementation) and cycles for ever.
  const Lcp lcp{mat({{1, 2, 0}, {0, 1, 2}, {2, 0, 1}}), vec({-1, -1, -1})};
  const LcpResult lex = solve_lemke(lcp);
  ASSERT_EQ(lex.status, Status::converged) << lex.message;
  EXPECT_NEAR((lex.z - Vector::Constant(3, 1.0 / 3.0)).norm(), 0.0, 1e-14);
  EXPECT_LE(lex.iterations, 10);

  const LcpResult naive = solve_lemke(lcp, {.max_pivots = 60, .lexicographic = false});
  EXPECT_EQ(naive.status, Status::max_iterations);
  EXPECT_EQ(naive.iterations, 60);
}

TEST(LcpLemke, RayTerminationOnInfeasiblePsdProblem) {
  // M = [[1,−1],[−1,1]] is positive semidefinite, hence copositive-plus; q = (−1, −1).
  // w₁ + w₂ = (z₁ − z₂ − 1) + (−z₁ + z₂ − 1) = −2 < 0, so w ≥ 0 is impossible: infeasible.
  // For copositive-plus M Lemke ends on a secondary ray exactly when the LCP is infeasible
  // (CPS Theorem 4.4.13).
  const Lcp lcp{mat({{1, -1}, {-1, 1}}), vec({-1, -1})};
  const LcpResult r = solve_lemke(lcp);
  EXPECT_EQ(r.status, Status::ray_termination);
  EXPECT_FALSE(r.message.empty());
  EXPECT_GT(r.residual, 1e-3);
  EXPECT_EQ(enumerate_lcp(lcp).status, Status::infeasible);
}

TEST(LcpLemke, RayTerminationOneDimensional) {
  // M = −1, q = −1: w = −z − 1 < 0 for every z ≥ 0. After z₀ enters (z₀ = 1), z₁ enters and
  // z₀ = 1 + z₁ − w₁ grows without bound: the secondary ray.
  const Lcp lcp{Matrix::Constant(1, 1, -1.0), Vector::Constant(1, -1.0)};
  EXPECT_EQ(solve_lemke(lcp).status, Status::ray_termination);
}

TEST(LcpLemke, SeveralSolutionsReturnsOneOfThem) {
  // M = [[1,2],[2,1]], q = (−1,−1) has three solutions (1,0), (0,1), (1/3,1/3) (see the
  // enumeration test). Lemke returns one of them.
  const Lcp lcp{mat({{1, 2}, {2, 1}}), vec({-1, -1})};
  const LcpResult r = solve_lemke(lcp);
  ASSERT_EQ(r.status, Status::converged);
  const bool known = (r.z - vec({1, 0})).norm() < 1e-12 || (r.z - vec({0, 1})).norm() < 1e-12 ||
                     (r.z - vec({1.0 / 3, 1.0 / 3})).norm() < 1e-12;
  EXPECT_TRUE(known) << r.z.transpose();
}

TEST(LcpLemke, MurtyExponentialExampleIsSolved) {
  // Murty (1988) ch. 6: M upper triangular with 1 on the diagonal and 2 above (siconos
  // lcp_exp_murty.dat, stored column-major), q = −1. Back substitution from the last row:
  // z₆ = 1 (w₆ = 0), then row 5: z₅ + 2 − 1 = 0 would need z₅ = −1 < 0, so z₅ = 0 and w₅ = 1;
  // every earlier row already has 2·z₆ − 1 = 1 > 0 → z = (0,0,0,0,0,1), w = (1,1,1,1,1,0).
  Matrix M = Matrix::Identity(6, 6);
  for (Index i = 0; i < 6; ++i)
    for (Index j = i + 1; j < 6; ++j) M(i, j) = 2.0;
  const Lcp lcp{M, Vector::Constant(6, -1.0)};
  const LcpResult r = solve_lemke(lcp);
  ASSERT_EQ(r.status, Status::converged);
  Vector expected = Vector::Zero(6);
  expected[5] = 1.0;
  EXPECT_NEAR((r.z - expected).norm(), 0.0, 1e-14);
}

TEST(LcpLemke, RejectsBadInput) {
  EXPECT_THROW(solve_lemke(Lcp{Matrix::Identity(2, 2), Vector::Ones(3)}), std::invalid_argument);
  Matrix M = Matrix::Identity(2, 2);
  M(0, 1) = std::nan("");
  EXPECT_THROW(solve_lemke(Lcp{M, Vector::Ones(2)}), std::invalid_argument);
  EXPECT_THROW(solve_lemke(Lcp{Matrix::Identity(2, 2), Vector::Ones(2)}, {.max_pivots = -1}),
               std::invalid_argument);
}
