// Tests of the linalg layer: pseudo-inverse / rank / null space, matrix classes, LP, cone
// feasibility.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>

#include "moreau/linalg/cone_feasibility.hpp"
#include "moreau/linalg/linear_program.hpp"
#include "moreau/linalg/matrix_class.hpp"
#include "moreau/linalg/pseudo_inverse.hpp"
#include "moreau/linalg/small_lu.hpp"

#include <Eigen/LU>

using namespace moreau;

TEST(PseudoInverse, RankNullSpaceAndPenroseConditions) {
  // A = [[1,2,3],[2,4,6],[1,0,1]]: row 2 = 2·row 1, so rank 2; ker A is spanned by (1, 1, −1)
  // (1+2−3 = 0, 2+4−6 = 0, 1+0−1 = 0).
  Matrix A(3, 3);
  A << 1, 2, 3, 2, 4, 6, 1, 0, 1;
  EXPECT_EQ(numerical_rank(A), 2);
  const Matrix K = null_space(A);
  ASSERT_EQ(K.cols(), 1);
  const Vector k = K.col(0) / K(0, 0);
  EXPECT_NEAR(k[1], 1.0, 1e-12);
  EXPECT_NEAR(k[2], -1.0, 1e-12);
  const Matrix P = pseudo_inverse(A);
  // The four Penrose conditions characterise A† uniquely.
  EXPECT_LT((A * P * A - A).norm(), 1e-12);
  EXPECT_LT((P * A * P - P).norm(), 1e-12);
  EXPECT_LT((A * P - (A * P).transpose()).norm(), 1e-12);
  EXPECT_LT((P * A - (P * A).transpose()).norm(), 1e-12);
  // b = A·(1,1,1) = (6,12,2) is in the range; (1,0,0) is not (rows 1 and 2 force b₂ = 2b₁).
  EXPECT_TRUE(in_range(A, Vector3(6, 12, 2)));
  EXPECT_FALSE(in_range(A, Vector3(1, 0, 0)));
  EXPECT_EQ(range_space(A).cols(), 2);
  EXPECT_THROW(numerical_rank(A, 2.0), std::invalid_argument);
  Matrix bad = A;
  bad(0, 0) = std::nan("");
  EXPECT_THROW(pseudo_inverse(bad), std::invalid_argument);
}

TEST(MatrixClass, PositiveDefiniteAndSemidefinite) {
  Matrix A(2, 2);
  A << 2, -1, -1, 2;  // eigenvalues 1, 3
  EXPECT_TRUE(is_positive_definite(A));
  EXPECT_NEAR(min_symmetric_eigenvalue(A), 1.0, 1e-14);
  Matrix S(2, 2);
  S << 1, 1, 1, 1;  // eigenvalues 0, 2
  EXPECT_FALSE(is_positive_definite(S));
  EXPECT_TRUE(is_positive_semidefinite(S));
  // Non-symmetric: [[1, 4],[−4, 1]] has symmetric part I, so xᵀAx = ‖x‖² > 0.
  Matrix N(2, 2);
  N << 1, 4, -4, 1;
  EXPECT_TRUE(is_positive_definite(N));
  EXPECT_THROW(min_symmetric_eigenvalue(Matrix(2, 3)), std::invalid_argument);
}

TEST(MatrixClass, PMatrixExact) {
  // [[1, 2],[0, 1]]: minors 1, 1, det 1 ⇒ P-matrix although not PD (symmetric part has det 1−1 =
  // 0... λ = 0, 2).
  Matrix A(2, 2);
  A << 1, 2, 0, 1;
  EXPECT_TRUE(is_p_matrix(A));
  EXPECT_FALSE(is_positive_definite(A));
  // Disk-in-corner sliding matrix of Brogliato 2014 Example 6 (case R9): D = [[1, −μ₂ξ₂],
  // [−μ₁ξ₁, 1]], det = 1 −
  // μ₁μ₂ξ₁ξ₂.
  Matrix D(2, 2);
  D << 1, -1.5, -0.8, 1;  // μ₁ξ₁ = 0.8, μ₂ξ₂ = 1.5: det = 1 − 1.2 = −0.2 < 0 ⇒ not P
  const auto t = p_matrix_test(D);
  EXPECT_FALSE(t.is_p_matrix);
  EXPECT_NEAR(t.min_principal_minor, -0.2, 1e-14);
  EXPECT_EQ(t.worst_subset.size(), 2u);
  EXPECT_THROW(p_matrix_test(Matrix::Identity(17, 17)), std::invalid_argument);
}

TEST(MatrixClass, CopositivityExact) {
  // [[1, −1],[−1, 1]]: xᵀAx = (x₁ − x₂)² ≥ 0, zero at x = (1,1) ⇒ copositive, not strictly.
  Matrix A(2, 2);
  A << 1, -1, -1, 1;
  auto t = copositivity_test(A);
  EXPECT_TRUE(t.copositive);
  EXPECT_FALSE(t.strictly_copositive);
  ASSERT_EQ(t.witness.size(), 2);
  EXPECT_NEAR(t.witness.dot(A * t.witness), 0.0, 1e-12);
  // 2×2 criterion (Brogliato 2014 Remark 6, signs corrected): a11, a22 ≥ 0 and
  // a12 + √(a11 a22) ≥ 0. a12 = −1.5:
  // −1.5 + 1 < 0 ⇒ not copositive; witness x = (1,1)/2 gives ¼(1 − 3 + 1) < 0.
  Matrix B(2, 2);
  B << 1, -1.5, -1.5, 1;
  t = copositivity_test(B);
  EXPECT_FALSE(t.copositive);
  EXPECT_LT(t.witness.dot(B * t.witness), 0.0);
  EXPECT_GE(t.witness.minCoeff(), 0.0);
  // Horn matrix: copositive, not PSD (classic example, Hall & Newman 1963).
  Matrix H(5, 5);
  H << 1, -1, 1, 1, -1, -1, 1, -1, 1, 1, 1, -1, 1, -1, 1, 1, 1, -1, 1, -1, -1, 1, 1, -1, 1;
  t = copositivity_test(H);
  EXPECT_TRUE(t.copositive);
  EXPECT_FALSE(t.strictly_copositive);  // x = (1,1,0,0,0): 1 − 2 + 1 = 0
  EXPECT_FALSE(is_positive_semidefinite(H));
  // Entrywise nonnegative ⇒ copositive; with positive diagonal ⇒ strictly.
  Matrix P(3, 3);
  P << 1, 2, 0, 2, 1, 3, 0, 3, 2;
  t = copositivity_test(P);
  EXPECT_TRUE(t.copositive && t.strictly_copositive);
  // Property: random symmetric matrices — a negative witness is always genuine, and a
  // copositive verdict is never contradicted by 2000 random nonnegative vectors.
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1, 1), up(0, 1);
  for (int trial = 0; trial < 30; ++trial) {
    Matrix R = Matrix::NullaryExpr(4, 4, [&]() { return u(gen); });
    R = 0.5 * (R + R.transpose());
    R.diagonal() = R.diagonal().cwiseAbs();
    const auto c = copositivity_test(R);
    if (!c.copositive) {
      EXPECT_LT(c.witness.dot(R * c.witness), 0.0);
    } else {
      for (int s = 0; s < 2000; ++s) {
        Vector x = Vector::NullaryExpr(4, [&]() { return up(gen); });
        EXPECT_GE(x.dot(R * x), -1e-12);
      }
    }
  }
}

TEST(LinearProgram, TextbookOptimumAndStatuses) {
  // max 3x + 5y s.t. x ≤ 4, 2y ≤ 12, 3x + 2y ≤ 18, x, y ≥ 0 (Hillier–Lieberman): optimum (2,
  // 6), 36.
  LinearProgram lp;
  lp.c = Vector2(-3, -5);
  lp.A_ub.resize(3, 2);
  lp.A_ub << 1, 0, 0, 2, 3, 2;
  lp.b_ub = Vector3(4, 12, 18);
  auto r = solve_linear_program(lp);
  ASSERT_EQ(r.status, LpStatus::optimal);
  EXPECT_NEAR(r.x[0], 2.0, 1e-10);
  EXPECT_NEAR(r.x[1], 6.0, 1e-10);
  EXPECT_NEAR(r.objective, -36.0, 1e-9);
  // Free variable and an equality: min x + y s.t. x − y = 1, x ≥ −2, y free. On the line
  // (x, y) = (t, t − 1) the objective is 2t − 1, smallest at t = −2: x = −2, y = −3, objective −5.
  LinearProgram lp2;
  lp2.c = Vector2(1, 1);
  lp2.A_eq.resize(1, 2);
  lp2.A_eq << 1, -1;
  lp2.b_eq = Vector::Constant(1, 1.0);
  lp2.lower = Vector2(-2, -std::numeric_limits<double>::infinity());
  r = solve_linear_program(lp2);
  ASSERT_EQ(r.status, LpStatus::optimal);
  EXPECT_NEAR(r.x[0], -2.0, 1e-10);
  EXPECT_NEAR(r.x[1], -3.0, 1e-10);
  // Infeasible: x ≥ 0, x ≤ −1.
  LinearProgram lp3;
  lp3.c = Vector::Constant(1, 1.0);
  lp3.A_ub = Matrix::Constant(1, 1, 1.0);
  lp3.b_ub = Vector::Constant(1, -1.0);
  EXPECT_EQ(solve_linear_program(lp3).status, LpStatus::infeasible);
  // Unbounded: min −x, x ≥ 0.
  LinearProgram lp4;
  lp4.c = Vector::Constant(1, -1.0);
  EXPECT_EQ(solve_linear_program(lp4).status, LpStatus::unbounded);
  // Bad sizes.
  LinearProgram bad = lp;
  bad.b_ub = Vector2(1, 2);
  EXPECT_THROW(solve_linear_program(bad), std::invalid_argument);
}

TEST(ConeFeasibility, NullSpaceSearchBeatsMinimumNorm2D) {
  // Two contacts with λ_n = (4.405, 5.405) and λ_t = (1, 1) + y(1, −1) (Brogliato, Kövecses &
  // Acary 2020 Ex. 1/4):
  // feasible iff ∃y: |1 + y| ≤ μ·4.405 and |1 − y| ≤ μ·5.405 ⇔ 2 ≤ μ(4.405 + 5.405) ⇔ μ ≥ 0.20387.
  Vector r0(4);
  r0 << 4.405, 1.0, 5.405, 1.0;
  Matrix B(4, 1);
  B << 0, 1, 0, -1;
  const double thr = 2.0 / 9.81;
  auto r = coulomb_cone_feasibility(2, r0, B, Vector2(thr + 1e-4, thr + 1e-4));
  EXPECT_EQ(r.status, ConeFeasibility::feasible);
  EXPECT_LE(std::abs(r.r[1]), (thr + 1e-4) * r.r[0] + 1e-9);
  EXPECT_LE(std::abs(r.r[3]), (thr + 1e-4) * r.r[2] + 1e-9);
  r = coulomb_cone_feasibility(2, r0, B, Vector2(thr - 1e-4, thr - 1e-4));
  EXPECT_EQ(r.status, ConeFeasibility::infeasible);
  EXPECT_LT(r.margin, 0.0);
  EXPECT_THROW(coulomb_cone_feasibility(2, r0, B, Vector2(-1, 1)), std::invalid_argument);
}

TEST(ConeFeasibility, ThreeDimensionalDisk) {
  // One contact, r = (1, 0.3, 0.4) + y(0, 1, 0): ‖r_t‖ ≥ 0.4 for every y (at y = −0.3), so
  // feasible iff μ ≥ 0.4 (exact disk; the polygons must resolve μ = 0.41 vs 0.39).
  Vector r0 = Vector3(1, 0.3, 0.4);
  Matrix B = Matrix::Zero(3, 1);
  B(1, 0) = 1;
  auto r = coulomb_cone_feasibility(3, r0, B, Vector::Constant(1, 0.41));
  EXPECT_EQ(r.status, ConeFeasibility::feasible);
  EXPECT_LE(r.r.tail(2).norm(), 0.41 * r.r[0] + 1e-9);
  r = coulomb_cone_feasibility(3, r0, B, Vector::Constant(1, 0.39));
  EXPECT_EQ(r.status, ConeFeasibility::infeasible);
}

// SmallLU (linalg/small_lu.hpp) solves as Eigen's PartialPivLU does, on random systems of the
// dense Newton route's sizes and on one whose first pivot is zero (the row swap is needed), and
// leaves non-finite entries for a singular matrix, which the Newton step then retries shifted.
TEST(SmallLU, SolvesAsEigensPartialPivotingDoes) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const Index n : {1, 3, 6, 24, 42, 100}) {
    Matrix A(n, n);
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < n; ++j) A(i, j) = u(rng);
    A.diagonal().array() += 0.1;
    if (n > 1) A(0, 0) = 0.0;  // the first step must swap rows
    Vector b(n);
    for (Index i = 0; i < n; ++i) b[i] = u(rng);
    SmallLU lu;
    lu.compute(A);
    const Vector x = lu.solve(b), y = Eigen::PartialPivLU<Matrix>(A).solve(b);
    EXPECT_LE((A * x - b).norm(), 1e-12 * (A.norm() * x.norm() + b.norm())) << n;
    EXPECT_LE((x - y).norm(), 1e-9 * y.norm()) << n;
  }
  Matrix S = Matrix::Ones(4, 4);  // rank 1
  SmallLU lu;
  lu.compute(S);
  EXPECT_FALSE(lu.solve(Vector::LinSpaced(4, 1.0, 2.0)).allFinite());
}
