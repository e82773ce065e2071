// Full enumeration of LCP solutions: analytic solution sets derived in the comments.
#include <gtest/gtest.h>

#include <algorithm>

#include "moreau/solvers/lcp/enumeration.hpp"

using namespace moreau;

namespace {
bool contains(const std::vector<Vector>& set, const Vector& z, double tol = 1e-12) {
  return std::any_of(set.begin(), set.end(), [&](const Vector& s) { return (s - z).norm() < tol; });
}
}  // namespace

TEST(LcpEnumeration, ThreeSolutions) {
  // M = [[1,2],[2,1]], q = (−1,−1). Index sets α (z_ᾱ = 0, w_α = 0):
  //   ∅: w = q < 0 ✗.   {1}: z₁ = 1, w₂ = 2·1 − 1 = 1 ≥ 0 ✓ → (1, 0).
  //   {2}: z₂ = 1, w₁ = 1 ≥ 0 ✓ → (0, 1).   {1,2}: z₁ + 2z₂ = 1, 2z₁ + z₂ = 1 → z = (1/3, 1/3) ✓.
  Matrix M(2, 2);
  M << 1, 2, 2, 1;
  const Lcp lcp{M, Vector::Constant(2, -1.0)};
  const LcpEnumerationResult r = enumerate_lcp(lcp);
  EXPECT_EQ(r.status, Status::converged);
  ASSERT_EQ(r.solutions.size(), 3u);
  EXPECT_TRUE(contains(r.solutions, Vector2(1, 0)));
  EXPECT_TRUE(contains(r.solutions, Vector2(0, 1)));
  EXPECT_TRUE(contains(r.solutions, Vector2(1.0 / 3, 1.0 / 3)));
  EXPECT_EQ(r.iterations, 4);
  EXPECT_LE(r.residual, 1e-14);
}

TEST(LcpEnumeration, UniqueForPMatrix) {
  // M = [[2,1],[1,2]] (SPD, a P-matrix) and q = (−5, −6) (siconos lcp_deudeu.dat): unique
  // solution with both w = 0: 2z₁ + z₂ = 5, z₁ + 2z₂ = 6 → z = (4/3, 7/3) > 0.
  Matrix M(2, 2);
  M << 2, 1, 1, 2;
  const LcpEnumerationResult r = enumerate_lcp(Lcp{M, Vector2(-5, -6)});
  ASSERT_EQ(r.solutions.size(), 1u);
  EXPECT_NEAR((r.solutions[0] - Vector2(4.0 / 3, 7.0 / 3)).norm(), 0.0, 1e-13);
}

TEST(LcpEnumeration, InfeasibleReportsStatus) {
  // M = [[1,−1],[−1,1]], q = (−1,−1): w₁ + w₂ = −2 for every z, so no w ≥ 0 exists.
  Matrix M(2, 2);
  M << 1, -1, -1, 1;
  const LcpEnumerationResult r = enumerate_lcp(Lcp{M, Vector2(-1, -1)});
  EXPECT_EQ(r.status, Status::infeasible);
  EXPECT_TRUE(r.solutions.empty());
  EXPECT_FALSE(r.message.empty());
}

TEST(LcpEnumeration, SingularBlockLeastSquares) {
  // CPS Remark 4.1.14 (siconos lcp_CPS_1.dat): M = [[1,1],[1,1]], q = (−1,−1). The solution set
  // is the segment z₁ + z₂ = 1, z ≥ 0 (then w = 0). Its end points come from α = {1} and {2};
  // α = {1,2} has the singular M_αα and the least-squares branch gives the minimum-norm point
  // (1/2, 1/2). Each of the three lies on the segment.
  const LcpEnumerationResult r = enumerate_lcp(Lcp{Matrix::Ones(2, 2), Vector2(-1, -1)});
  ASSERT_EQ(r.solutions.size(), 3u);
  EXPECT_TRUE(contains(r.solutions, Vector2(1, 0)));
  EXPECT_TRUE(contains(r.solutions, Vector2(0, 1)));
  EXPECT_TRUE(contains(r.solutions, Vector2(0.5, 0.5)));
}

TEST(LcpEnumeration, TrivialAndEmpty) {
  // q ≥ 0 with M = I: only z = 0 (any α ≠ ∅ gives z_α = −q_α ≤ 0, equal to 0 only where q = 0).
  const LcpEnumerationResult r = enumerate_lcp(Lcp{Matrix::Identity(3, 3), Vector3(1, 2, 3)});
  ASSERT_EQ(r.solutions.size(), 1u);
  EXPECT_EQ(r.solutions[0], Vector::Zero(3));
  const LcpEnumerationResult e = enumerate_lcp(Lcp{Matrix(0, 0), Vector(0)});
  EXPECT_EQ(e.status, Status::converged);
  EXPECT_EQ(e.solutions.size(), 1u);
}

TEST(LcpEnumeration, RefusesLargeProblemsAndBadInput) {
  const Lcp big{Matrix::Identity(21, 21), Vector::Ones(21)};
  EXPECT_THROW(enumerate_lcp(big), std::invalid_argument);
  EXPECT_NO_THROW(enumerate_lcp(Lcp{Matrix::Identity(5, 5), Vector::Ones(5)}, {.max_size = 5}));
  EXPECT_THROW(enumerate_lcp(Lcp{Matrix::Identity(6, 6), Vector::Ones(6)}, {.max_size = 5}),
               std::invalid_argument);
  EXPECT_THROW(enumerate_lcp(Lcp{Matrix::Identity(2, 2), Vector2(std::nan(""), 0.0)}),
               std::invalid_argument);
}
