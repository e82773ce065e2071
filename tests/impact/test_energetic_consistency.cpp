// Energetic consistency tests of Brogliato 2014 §3 on the paper's examples (with the corrections
// of docs/math/impact.md).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "moreau/impact/energetic_consistency.hpp"

namespace moreau {
namespace {

Matrix G2(double a) {
  Matrix G(2, 2);
  G << 1, a, a, 1;
  return G;
}
Matrix diag2(double e1, double e2) {
  Matrix E = Matrix::Zero(2, 2);
  E(0, 0) = e1;
  E(1, 1) = e2;
  return E;
}

TEST(Copositivity, KnownMatrices) {
  Matrix A(2, 2);
  A << 1, -1, -1, 1;  // PSD, singular: copositive, not strictly, min 0 at (1,1)/√2
  CopositivityResult c = copositivity(A);
  EXPECT_TRUE(c.copositive);
  EXPECT_FALSE(c.strictly);
  EXPECT_NEAR(c.minimum, 0.0, 1e-14);
  A << 0, 1, 1, 0;  // nonnegative, indefinite: copositive (min 0 on the axes)
  EXPECT_TRUE(copositivity(A).copositive);
  A << 1, -2, -2, 1;  // x = (1,1)/√2 gives 1 − 2 = −1
  c = copositivity(A);
  EXPECT_FALSE(c.copositive);
  EXPECT_NEAR(c.minimum, -1.0, 1e-14);
  // Horn's matrix: copositive but not PSD and not a sum PSD + nonnegative.
  Matrix H(5, 5);
  H << 1, -1, 1, 1, -1, -1, 1, -1, 1, 1, 1, -1, 1, -1, 1, 1, 1, -1, 1, -1, -1, 1, 1, -1, 1;
  EXPECT_TRUE(copositivity(H).copositive);
  EXPECT_LT(Eigen::SelfAdjointEigenSolver<Matrix>(H).eigenvalues()(0), -0.5);
}

// R12 / Remark 6 [fix]: a = 0.5, E = diag(1, 0) is NOT consistent: T_L(−(1, 0.5)) = +1/6
// (A = G⁻¹ − EᵀG⁻¹E = [[0, −2/3], [−2/3, 4/3]], −½ qᵀAq with q = (1, ½) gives 1/6). Its minimum on
// the unit simplex face is λ_min(A) = (4/3 − √(32/9))/2 with eigenvector ∝ (1, √2 − 1).
// With a = −0.5 the same E is consistent.
TEST(EnergeticConsistency, R12RemarkSix) {
  const Matrix E = diag2(1.0, 0.0);
  EXPECT_NEAR(frictionless_energy_change(G2(0.5), E, Vector2(-1.0, -0.5)), 1.0 / 6.0, 1e-14);
  const ConsistencyReport r = frictionless_consistency(G2(0.5), E);
  EXPECT_FALSE(r.at("P2").holds);
  const double lmin = (4.0 / 3.0 - std::sqrt(32.0 / 9.0)) / 2.0;
  EXPECT_NEAR(r.at("P2").margin, lmin, 1e-12);
  EXPECT_NEAR(r.max_energy_gain, -0.5 * lmin, 1e-12);
  EXPECT_NEAR(r.worst_velocity[1] / r.worst_velocity[0], std::sqrt(2.0) - 1.0, 1e-10);
  EXPECT_TRUE(frictionless_consistency(G2(-0.5), E).at("P2").holds);
}

// Remark 6 [fix] closed form: G⁻¹ − EᵀG⁻¹E copositive ⇔ |e_i| ≤ 1 and
// a(e1e2 − 1) + √((1−e1²)(1−e2²)) ≥ 0 (random a, e away from the boundary).
TEST(EnergeticConsistency, RemarkSixClosedFormMatchesCopositivity) {
  std::mt19937 gen(5);
  std::uniform_real_distribution<double> A(-0.95, 0.95), Ue(0.0, 1.0);
  int checked = 0;
  for (int k = 0; k < 400; ++k) {
    const double a = A(gen), e1 = Ue(gen), e2 = Ue(gen);
    const double f = a * (e1 * e2 - 1.0) + std::sqrt((1 - e1 * e1) * (1 - e2 * e2));
    if (std::abs(f) < 1e-3) continue;
    EXPECT_EQ(frictionless_consistency(G2(a), diag2(e1, e2)).at("P2").holds, f >= 0.0)
        << a << " " << e1 << " " << e2;
    ++checked;
  }
  EXPECT_GT(checked, 300);
}

// R13 and Remark 6 [fix]: for the 3-ball G = [[1, −½], [−½, 1]] the P6 bound is
// √(λmin/λmax) = √(0.5/1.5) = 1/√3 and the Frobenius P7 bound √((1−a²)/(2(1+a²))) = 0.547723;
// spectral P7 √((1−|a|)/(1+|a|)) = 1/√3.
TEST(EnergeticConsistency, R13Bounds) {
  const ConsistencyReport r = frictionless_consistency(G2(-0.5), diag2(0.5, 0.5));
  EXPECT_NEAR(r.at("P6").bound, 1.0 / std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(r.at("P7_frobenius").bound, std::sqrt(0.75 / 2.5), 1e-12);
  EXPECT_NEAR(r.at("P7_frobenius").bound, 0.547723, 1e-6);
  EXPECT_NEAR(r.at("P7_spectral").bound, 1.0 / std::sqrt(3.0), 1e-12);
  EXPECT_TRUE(r.at("P6").holds);  // σ_max = 0.5 < 0.577
  EXPECT_NEAR(r.at("P6").margin, 1.0 / std::sqrt(3.0) - 0.5, 1e-12);
  EXPECT_FALSE(r.at("P7_frobenius").holds);  // ‖E‖_F = 0.7071 > 0.5477 (sufficient only)
  EXPECT_TRUE(r.at("P2").holds);
  // P5: E = eI makes G⁻¹E symmetric: consistent iff e ≤ 1.
  EXPECT_TRUE(r.at("P5").applicable);
  EXPECT_TRUE(r.at("P5").holds);
  EXPECT_FALSE(frictionless_consistency(G2(-0.5), diag2(1.2, 1.2)).at("P5").holds);
  EXPECT_FALSE(frictionless_consistency(G2(-0.5), diag2(0.3, 0.6)).at("P5").applicable);
  // P8: a ≤ 0 makes G⁻¹ ≥ 0, so E ≥ 0 ⇒ G⁻¹(I + E) ≥ 0.
  EXPECT_TRUE(r.at("P8_i").holds);
  EXPECT_TRUE(r.at("P8_ii").holds);
  // With a > 0 and a zero restitution, the kinetic test (ii) can fail: G⁻¹ has negative entries.
  EXPECT_FALSE(frictionless_consistency(G2(0.5), diag2(0.0, 0.0)).at("P8_ii").holds);
}

// Theorem 2 on the particle of R10 reduces to (84): (i) 1 − e_n > μ²(1 + e_n) and
// (ii) |ẏ⁻|/|ẋ⁻| ≥ 2μ/(1 − e_n − μ²(1 + e_n)). Here G = 1, n_qᵀH_T = 0, M̄ = 1 − e², K = μ²(1+e)².
// The exact T_L of the slip mode equals (85): −2.70816 for m = 1.3, e = .4, μ = .2, ẋ = 1, ẏ = −2.
TEST(EnergeticConsistency, TheoremTwoOnParticle) {
  const double m = 1.3, e = 0.4, mu = 0.2;
  Matrix M = m * Matrix::Identity(2, 2), W(2, 1), H(2, 1);
  W << 0, 1;
  H << 1, 0;
  const KineticQuasiVelocities k = kinetic_quasi_velocities(M, W);
  const Vector qdot = Vector2(1.0, -2.0);
  const Vector v = k.to_quasi(qdot);
  Matrix Enn(1, 1);
  Enn << e;
  const ConsistencyReport r =
      frictional_consistency(k, H, Vector::Constant(1, mu), Enn, v.head(1), v.tail(1));
  EXPECT_NEAR(r.at("Theorem2_i").bound, 1 - e * e, 1e-12);
  EXPECT_NEAR(r.at("Theorem2_i").value, mu * mu * (1 + e) * (1 + e), 1e-12);
  EXPECT_TRUE(r.at("Theorem2_i").holds);
  EXPECT_NEAR(r.at("Theorem2_ii").bound, 2 * mu / (1 - e - mu * mu * (1 + e)), 1e-12);
  EXPECT_NEAR(r.at("Theorem2_ii").value, 2.0, 1e-12);
  EXPECT_TRUE(r.at("Theorem2_ii").holds);
  EXPECT_NEAR(r.at("T_L").value, -2.70816, 1e-10);
  // Lemma 2 [fix] for G = 1: e(2 + e) < 1 ⇔ e < √2 − 1.
  EXPECT_TRUE(r.at("Lemma2").holds);
  Enn << 0.45;
  EXPECT_FALSE(frictional_consistency(k, H, Vector::Constant(1, mu), Enn, v.head(1), v.tail(1))
                   .at("Lemma2")
                   .holds);
}

// P9 and the exact test (64) for a full restitution matrix 𝓔 on the chain of three unit balls
// (Brogliato 2014 §2.3.1): ∇h₁ = (−1, 1, 0), ∇h₂ = (0, −1, 1), ρ_i = √2, N = [[1, −½], [−½, 1]]
// (eigenvalues ½, 3/2), t_q M-unit so D_t = 1: D = diag(N⁻¹, 1) has eigenvalues {2, 2/3, 1}.
// Norms: ‖D‖_σ = 2, ‖D⁻¹‖_σ = 3/2, so the spectral bound is 1/√3; ‖D‖_F = √(4 + 4/9 + 1) = 7/3,
// ‖D⁻¹‖_F = √(1/4 + 9/4 + 1) = √(7/2), so the Frobenius bound is 1/√((7/3)√(7/2)).
// 𝓔 = e I gives v⁺ = −e v⁻, T⁺ = e² T⁻, and D − 𝓔ᵀD𝓔 = (1 − e²)D with λ_min = (1 − e²)·2/3 for
// e < 1 and (1 − e²)·2 for e > 1.
TEST(EnergeticConsistency, RestitutionMatrixOnBallChain) {
  Matrix W(3, 2);
  W << -1, 0, 1, -1, 0, 1;
  const KineticQuasiVelocities k = kinetic_quasi_velocities(Matrix::Identity(3, 3), W);
  const double spectral_bound = 1.0 / std::sqrt(3.0);
  const double frobenius_bound = 1.0 / std::sqrt((7.0 / 3.0) * std::sqrt(3.5));

  ConsistencyReport r = restitution_matrix_consistency(k, 0.5 * Matrix::Identity(3, 3));
  EXPECT_NEAR(r.at("P9_spectral").value, 0.5, 1e-12);
  EXPECT_NEAR(r.at("P9_spectral").bound, spectral_bound, 1e-12);
  EXPECT_TRUE(r.at("P9_spectral").holds);
  EXPECT_NEAR(r.at("P9_frobenius").value, 0.5 * std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(r.at("P9_frobenius").bound, frobenius_bound, 1e-12);
  EXPECT_FALSE(r.at("P9_frobenius").holds);  // sufficient only: 0.866 > 0.479
  EXPECT_TRUE(r.at("PD").exact);
  EXPECT_TRUE(r.at("PD").holds);
  EXPECT_NEAR(r.at("PD").margin, 0.75 * 2.0 / 3.0, 1e-12);

  r = restitution_matrix_consistency(k, 1.2 * Matrix::Identity(3, 3));
  EXPECT_FALSE(r.at("P9_spectral").holds);
  EXPECT_FALSE(r.at("PD").holds);
  EXPECT_NEAR(r.at("PD").value, 0.44 * 2.0, 1e-12);

  // Frictionless law with E_nn = diag(1, 0), E_tt = −1 (q̇_tan kept): the tangential block of
  // D − 𝓔ᵀD𝓔 vanishes and the normal block is N⁻¹ − diag(1, 0) N⁻¹ diag(1, 0) =
  // (4/3)[[0, ½], [½, 1]], with eigenvalues (2/3)(1 ± √2): some v⁻ gains energy, by
  // λ_min = (2/3)(1 − √2) per unit ½‖v⁻‖²_D.
  Matrix E = Matrix::Zero(3, 3);
  E(0, 0) = 1.0;
  E(2, 2) = -1.0;
  r = restitution_matrix_consistency(k, E);
  EXPECT_FALSE(r.at("PD").holds);
  EXPECT_NEAR(r.at("PD").margin, (2.0 / 3.0) * (1.0 - std::sqrt(2.0)), 1e-12);
  EXPECT_THROW(restitution_matrix_consistency(k, Matrix::Identity(2, 2)), std::invalid_argument);
}

TEST(EnergeticConsistency, BadInput) {
  EXPECT_THROW(frictionless_consistency(G2(2.0), diag2(0.5, 0.5)),
               std::invalid_argument);  // not PD
  EXPECT_THROW(frictionless_consistency(G2(0.5), Matrix::Identity(3, 3)), std::invalid_argument);
  EXPECT_THROW(copositivity(Matrix::Zero(2, 3)), std::invalid_argument);
  EXPECT_THROW(frictionless_consistency(G2(0.1), diag2(0.1, 0.1)).at("nope"),
               std::invalid_argument);
}

}  // namespace
}  // namespace moreau
