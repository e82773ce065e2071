// Kinetic quasi-velocities (Brogliato 2014 §2; regression cases R3, R13, R14 of
// docs/references.md; the ball chain's corrected t_q and N of docs/math/models.md).
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>

#include "builders.hpp"
#include "moreau/analysis/kinetic_quasi_velocities.hpp"
#include "moreau/linalg/matrix_class.hpp"

using namespace moreau;

namespace {
// Chain of balls on a line: h_i = q_{i+1} − q_i − 2R, ∇h_i = e_{i+1} − e_i (Brogliato 2014 §2.3.1).
Matrix chain_W(int n) {
  Matrix W = Matrix::Zero(n, n - 1);
  for (int i = 0; i + 1 < n; ++i) {
    W(i, i) = -1;
    W(i + 1, i) = 1;
  }
  return W;
}
}  // namespace

TEST(KineticQuasiVelocities, R3ChainMasses123) {
  // R3: masses (1, 2, 3): N_12 = −sqrt(m₁m₃/((m₁+m₂)(m₂+m₃))) = −sqrt(3/15) = −sqrt(1/5) =
  // −0.4472136. ρ_i = sqrt(1/m_i + 1/m_{i+1}): ρ₁ = sqrt(1.5), ρ₂ = sqrt(5/6).
  const Matrix M = Vector3(1, 2, 3).asDiagonal();
  const auto k = kinetic_quasi_velocities(M, chain_W(3));
  EXPECT_NEAR(k.N(0, 1), -std::sqrt(0.2), 1e-12);
  EXPECT_NEAR(k.rho[0], std::sqrt(1.5), 1e-14);
  EXPECT_NEAR(k.rho[1], std::sqrt(5.0 / 6.0), 1e-14);
  EXPECT_NEAR(k.N(0, 0), 1.0, 1e-14);
  // θ_12 = π − acos(N_12) < π/2 since N_12 < 0 (acute wedge).
  EXPECT_NEAR(k.angles(0, 1), std::numbers::pi - std::acos(-std::sqrt(0.2)), 1e-12);
  EXPECT_LT(k.angles(0, 1), std::numbers::pi / 2);
  // [fix] t_q ∝ (1,1,1), M-unit: t = (1,1,1)/sqrt(Σm) = (1,1,1)/√6, so q̇_tan = Σ m_i q̇_i / √6
  // (total momentum / sqrt(total mass)).
  ASSERT_EQ(k.t_q.cols(), 1);
  const Vector qd = Vector3(0.3, -1.2, 2.0);
  const Vector v = k.to_quasi(qd);
  const double momentum = 1 * 0.3 + 2 * -1.2 + 3 * 2.0;
  EXPECT_NEAR(std::abs(v[2]), momentum / std::sqrt(6.0), 1e-12);
  // q̇_norm,i = ∇h_iᵀ q̇ / ρ_i.
  EXPECT_NEAR(v[0], (qd[1] - qd[0]) / k.rho[0], 1e-12);
  EXPECT_NEAR(v[1], (qd[2] - qd[1]) / k.rho[1], 1e-12);
}

TEST(KineticQuasiVelocities, ThreeEqualBallsGAndR13Bounds) {
  // R1 data (matrix part only): 3 unit balls, G = N = [[1, −½],[−½, 1]], G⁻¹ = (4/3)[[1, ½],[½,
  // 1]].
  const auto k = kinetic_quasi_velocities(Matrix::Identity(3, 3), chain_W(3));
  EXPECT_NEAR(k.G(0, 1), -0.5, 1e-14);
  EXPECT_NEAR(k.D_n(0, 0), 4.0 / 3.0, 1e-13);
  EXPECT_NEAR(k.D_n(0, 1), 2.0 / 3.0, 1e-13);
  // R13 [derived]: P6 bound sqrt(λ_min(G)/λ_max(G)) = sqrt(0.5/1.5) = 1/√3 = 0.57735;
  // Frobenius P7 bound 1/sqrt(‖G⁻¹‖_F ‖G‖_F) = 1/sqrt((4/3)·2.5) = 0.547723.
  Eigen::SelfAdjointEigenSolver<Matrix> es(k.G);
  EXPECT_NEAR(std::sqrt(es.eigenvalues()[0] / es.eigenvalues()[1]), 0.57735, 1e-5);
  EXPECT_NEAR(1.0 / std::sqrt(k.D_n.norm() * k.G.norm()), 0.547723, 1e-6);
}

TEST(KineticQuasiVelocities, InverseMapAndEnergySplitRandom) {
  // Property: v = ΞMq̇ and q̇ = ΞᵀDv are inverse ([derived] fix: the paper drops D), and
  // T = ½q̇ᵀMq̇ = T_norm + T_tan; t_qᵀ W = 0 and t_qᵀ M t_q = I.
  std::mt19937 gen(3);
  std::normal_distribution<double> g;
  for (int trial = 0; trial < 10; ++trial) {
    const int n = 5;
    Matrix A = Matrix::NullaryExpr(n, n, [&]() { return g(gen); });
    const Matrix M = A * A.transpose() + Matrix::Identity(n, n);
    const Matrix W = Matrix::NullaryExpr(n, 2, [&]() { return g(gen); });
    const auto k = kinetic_quasi_velocities(M, W, trial % 2);
    const Vector qd = Vector::NullaryExpr(n, [&]() { return g(gen); });
    EXPECT_LT((k.from_quasi(k.to_quasi(qd)) - qd).norm(), 1e-10 * qd.norm());
    const auto e = k.energy(qd);
    EXPECT_NEAR(e.total, e.normal + e.tangential, 1e-10 * e.total);
    EXPECT_LT((k.t_q.transpose() * W).norm(), 1e-10);
    EXPECT_LT((k.t_q.transpose() * M * k.t_q - Matrix::Identity(n - 2, n - 2)).norm(), 1e-10);
    EXPECT_LT((k.n_q.transpose() * M * k.n_q - k.N).norm(), 1e-10);
  }
}

TEST(KineticQuasiVelocities, NormalTangentCouplingRodAndDiskInCorner) {
  // Rod on a plane (Brogliato 2014 §2.3.3): q = (x, y, θ), M = diag(m, m, I), I = ml²/3,
  // ∇h = (0, 1, −l cos θ), H_T = (1, 0, l sin θ). M⁻¹∇h = (0, 1/m, −3 cos θ/(ml)), so
  // ρ² = (1 + 3cos²θ)/m and n_qᵀH_T = −3 sin θ cos θ/(m ρ); c = n_qᵀH_T/ρ = −3sc/(1 + 3c²) makes
  // the sliding-LCP scalar 1 − ξμc, 1.268276 at θ = 0.7, μ = 0.5, ξ = +1 (case R6).
  const double m = 2.0, l = 0.6, th = 0.7, s = std::sin(th), c = std::cos(th);
  const Matrix M = Vector3(m, m, m * l * l / 3).asDiagonal();
  Matrix W(3, 1), HT(3, 1);
  W.col(0) = Vector3(0, 1, -l * c);
  HT.col(0) = Vector3(1, 0, l * s);
  const auto k = kinetic_quasi_velocities(M, W);
  const double rho = std::sqrt((1 + 3 * c * c) / m);
  const Matrix C = k.normal_tangent_coupling(HT);
  ASSERT_EQ(C.rows(), 1);
  ASSERT_EQ(C.cols(), 1);
  EXPECT_NEAR(C(0, 0), -3 * s * c / (m * rho), 1e-12);
  EXPECT_NEAR(1 - 0.5 * C(0, 0) / rho, 1.268276, 1e-6);

  // Disk in a corner (§2.3.6, the paper's frame): h₁ = y − R, h₂ = x − R, M = diag(m, m, I),
  // H_T = [[1, 0], [0, 1], [R, R]]. n_q,1 = (0, 1, 0)/√m, n_q,2 = (1, 0, 0)/√m, so
  // n_qᵀH_T = (1/√m)[[0, 1], [1, 0]] whatever R and I: each wall's friction drives the other
  // contact's normal quasi-velocity.
  const double md = 3.0, R = 0.4, I = 0.2;
  Matrix Wd(3, 2), Hd(3, 2);
  Wd << 0, 1, 1, 0, 0, 0;
  Hd << 1, 0, 0, 1, R, R;
  const auto kd = kinetic_quasi_velocities(Vector3(md, md, I).asDiagonal(), Wd);
  Matrix expected(2, 2);
  expected << 0, 1, 1, 0;
  EXPECT_LT((kd.normal_tangent_coupling(Hd) - expected / std::sqrt(md)).cwiseAbs().maxCoeff(),
            1e-14);
  // Disk on a plane (§2.3.5): the floor alone, H_T = (1, 0, R) is M⁻¹-orthogonal to
  // ∇h = (0, 1, 0): no coupling.
  const auto kp = kinetic_quasi_velocities(Vector3(md, md, I).asDiagonal(), Wd.leftCols(1));
  EXPECT_EQ(kp.normal_tangent_coupling(Vector3(1, 0, R)).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_THROW(kd.normal_tangent_coupling(Matrix::Ones(2, 2)), std::invalid_argument);
}

TEST(KineticQuasiVelocities, R14ConstrainedPendulum) {
  // Brogliato 2014 §2.3.7: bar of length l, M = diag(m, m, ml²/12); bilateral h₁ = x − (l/2) sinθ
  // (∇h₁ = (1, 0, −(l/2)cosθ)), unilateral h₂ = y − (l/2)cosθ (∇h₂ = (0, 1, (l/2) sinθ)).
  // N_12 = −3 sθ cθ / sqrt((1 + 3c²)(1 + 3s²)) and G = 1 − N_12² (Schur complement with N_bb = 1).
  const double m = 1.7, l = 0.9, th = 0.5, s = std::sin(th), c = std::cos(th);
  const Matrix M = Vector3(m, m, m * l * l / 12).asDiagonal();
  Matrix W(3, 2);
  W.col(0) = Vector3(1, 0, -0.5 * l * c);
  W.col(1) = Vector3(0, 1, 0.5 * l * s);
  const auto k = kinetic_quasi_velocities(M, W, 1);
  const double N12 = -3 * s * c / std::sqrt((1 + 3 * c * c) * (1 + 3 * s * s));
  EXPECT_NEAR(k.N(0, 1), N12, 1e-12);
  ASSERT_EQ(k.G.rows(), 1);
  EXPECT_NEAR(k.G(0, 0), 1 - N12 * N12, 1e-12);
  // [fix] t_q = sqrt(3/m)(cosθ/2, −sinθ/2, 1/l) up to sign.
  const Vector t_expected = std::sqrt(3 / m) * Vector3(c / 2, -s / 2, 1 / l);
  EXPECT_NEAR(std::abs(k.t_q.col(0).dot(t_expected)), t_expected.squaredNorm(), 1e-12);
  // Energy identity (16)–(17) with ∇h₁ᵀq̇ = 0 (q̇ of case R14: 0.197456 − 0.45 cos 0.5 · 0.5 ≈
  // 0): T = ½ q̇_norm,u² G⁻¹ + ½ q̇_tan².
  Vector qd = Vector3(0.5 * l * c * 0.5, -0.2, 0.5);  // exactly on ∇h₁ᵀq̇ = 0 (x-rate = 0.197456…)
  EXPECT_NEAR(qd[0], 0.197456, 1e-6);
  const Vector v = k.to_quasi(qd);
  EXPECT_NEAR(v[0], 0.0, 1e-14);
  const double T = 0.5 * qd.dot(M * qd);
  EXPECT_NEAR(T, 0.5 * v[1] * v[1] / k.G(0, 0) + 0.5 * v[2] * v[2], 1e-12);
}

TEST(KineticQuasiVelocities, FromContactStateBilateralFirstAndBadInput) {
  // A pendulum-like state listing the unilateral constraint first: the result must reorder.
  const double m = 1.7, l = 0.9, th = 0.5, s = std::sin(th), c = std::cos(th);
  ContactState st =
      test::make_state(2, Vector3(m, m, m * l * l / 12).asDiagonal(), Vector3(0, m * test::kG, 0));
  Matrix t2(3, 1), t1(3, 1);
  t2 << 1, 0, -0.5 * l * c;
  t1 << 0, 1, 0.5 * l * s;
  st.constraints.push_back(
      test::make_constraint("B", ConstraintKind::unilateral, 0, Vector3(0, 1, 0.5 * l * s), t2));
  st.constraints.push_back(
      test::make_constraint("A", ConstraintKind::bilateral, 0, Vector3(1, 0, -0.5 * l * c), t1));
  st.constraints.push_back(test::make_constraint("open", ConstraintKind::unilateral, 0,
                                                 Vector3(0, 1, 0), t2, 0, Vector(), 0.3));
  const auto k = kinetic_quasi_velocities(st);
  ASSERT_EQ(k.constraint_index.size(), 2u);  // the open contact (gap 0.3) is left out
  EXPECT_EQ(k.constraint_index[0], 1);
  EXPECT_EQ(k.constraint_index[1], 0);
  EXPECT_EQ(k.bilateral_count, 1);
  // Bad input: singular M, rank-deficient W, NaN, non-symmetric M.
  EXPECT_THROW(kinetic_quasi_velocities(Matrix::Zero(3, 3), chain_W(3)), std::invalid_argument);
  Matrix W = chain_W(3);
  W.col(1) = W.col(0);
  EXPECT_THROW(kinetic_quasi_velocities(Matrix::Identity(3, 3), W), std::invalid_argument);
  Matrix Mn = Matrix::Identity(3, 3);
  Mn(0, 1) = 0.5;
  EXPECT_THROW(kinetic_quasi_velocities(Mn, chain_W(3)), std::invalid_argument);
  Mn = Matrix::Identity(3, 3);
  Mn(2, 2) = std::nan("");
  EXPECT_THROW(kinetic_quasi_velocities(Mn, chain_W(3)), std::invalid_argument);
  EXPECT_THROW(kinetic_quasi_velocities(Matrix::Identity(3, 3), chain_W(3), 5),
               std::invalid_argument);
}

// No constraint at all (every contact open): no quasi-velocity of constraint type; the whole
// kinetic energy ½ q̇ᵀMq̇ is in the free part. (Found by fuzz_analysis_input: the empty solve
// touched null data under UBSan.)
TEST(KineticQuasiVelocities, NoConstraintLeavesAllEnergyFree) {
  const Matrix M = Vector3(2.0, 3.0, 0.5).asDiagonal();
  const auto k = kinetic_quasi_velocities(M, Matrix(3, 0));
  EXPECT_EQ(k.size(), 0);
  EXPECT_EQ(k.rho.size(), 0);
  EXPECT_EQ(k.N.rows(), 0);
  const Vector qdot = Vector3(1.0, -2.0, 4.0);
  const EnergySplit e = k.energy(qdot);
  const double expected = 0.5 * (2.0 * 1.0 + 3.0 * 4.0 + 0.5 * 16.0);  // ½ Σ M_ii q̇_i² = 11
  EXPECT_NEAR(e.total, expected, 1e-12);
  EXPECT_NEAR(e.normal, 0.0, 1e-15);
  EXPECT_NEAR(e.tangential, expected, 1e-12);
}

TEST(KineticQuasiVelocities, R12RemarkSixCopositivity) {
  // R12 [fix]: G = [[1, a],[a, 1]], E = diag(1, 0): A = G⁻¹ − EᵀG⁻¹E is not copositive for a = 0.5
  // (T_L = +1/6 > 0 at q̇⁻ = −(1, 0.5): ½ xᵀ(−A)x... the 2×2 test a12 + sqrt(a11 a22) < 0) and is
  // copositive for a = −0.5. Here G⁻¹ = [[1, −a],[−a, 1]]/(1 − a²), EᵀG⁻¹E = diag(1/(1−a²), 0),
  // so A = [[0, −a],[−a, 1]]/(1 − a²): a = 0.5 gives a12 = −2/3 < 0 = −sqrt(a11 a22) ⇒ not
  // copositive.
  for (double a : {0.5, -0.5}) {
    Matrix G(2, 2);
    G << 1, a, a, 1;
    const Matrix Gi = G.inverse();
    const Matrix E = Vector2(1, 0).asDiagonal();
    const Matrix A = Gi - E.transpose() * Gi * E;
    const auto t = copositivity_test(A);
    EXPECT_EQ(t.copositive, a < 0) << "a = " << a;
    if (a > 0) {
      // T_L = ½ q̇ᵀ(EᵀG⁻¹E − G⁻¹)q̇ at q̇ = −(1, 0.5): +1/6.
      const Vector qd = -Vector2(1, 0.5);
      EXPECT_NEAR(-0.5 * qd.dot(A * qd), 1.0 / 6.0, 1e-12);
    }
  }
}
