// Painlevé analysis (unilateral-contact notes (4.15)–(4.17); Brogliato 2014 (26), (87), Props 12–14
// and regression cases R5–R9 of docs/references.md).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include "builders.hpp"
#include "moreau/analysis/painleve.hpp"

using namespace moreau;
using test::kG;

namespace {
// Sliding pencil: α = [I_c + mℓ²(sin²θ − σμ sinθ cosθ)]/(m I_c) (the notes print mℓ² for the
// denominator; docs/math/painleve.md), β = g − ℓθ̇² cosθ.
double pencil_alpha(double m, double l, double Ic, double th, int sigma, double mu) {
  const double s = std::sin(th), c = std::cos(th);
  return (Ic + m * l * l * (s * s - sigma * mu * s * c)) / (m * Ic);
}
}  // namespace

TEST(Painleve, PencilAlphaBetaMatchCorrectedFormula) {
  const double m = 1.3, l = 0.7, Ic = m * l * l / 3;
  for (int sigma : {1, -1})
    for (double th : {0.3, 0.9, 1.3}) {
      const auto st = test::pencil(m, l, Ic, th, 0.8, 0.6, sigma * 0.5);
      const auto r = painleve_single(st, 0);
      EXPECT_EQ(r.sigma, sigma);
      EXPECT_NEAR(r.alpha, pencil_alpha(m, l, Ic, th, sigma, 0.6), 1e-12);
      EXPECT_NEAR(r.beta, kG - l * 0.8 * 0.8 * std::cos(th), 1e-12);
      EXPECT_NEAR(r.free_normal_acceleration, -r.beta, 1e-15);
    }
}

TEST(Painleve, PencilMinimumCriticalFriction) {
  // α = 0 ⇔ μ = (I_c + mℓ² sin²θ)/(mℓ² sinθ cosθ) for σ = +1; its minimum over θ ∈ (0, π/2) is
  // μ_min = sqrt(((2I_c + mℓ²)/(mℓ²))² − 1): uniform rod (I_c = mℓ²/3) → sqrt(25/9 − 1) = 4/3;
  // end masses (I_c = mℓ²) → sqrt(9 − 1) = √8.
  const double m = 2.0, l = 0.5;
  for (auto [Ic, expected] :
       {std::pair{m * l * l / 3, 4.0 / 3.0}, std::pair{m * l * l, std::sqrt(8.0)}}) {
    auto mu_c = [&](double th) {
      const double s = std::sin(th), c = std::cos(th);
      Matrix M(3, 3);
      M << m, 0, -m * l * c, 0, m, -m * l * s, -m * l * c, -m * l * s, Ic + m * l * l;
      return critical_friction(M, Vector3(0, 1, 0), Vector3(1, 0, 0), 1);
    };
    const auto r = minimize_scalar(mu_c, 1e-3, std::numbers::pi / 2 - 1e-3);
    EXPECT_NEAR(r.value, expected, 1e-6);
    // At the minimiser the analytic μ_c agrees as well.
    const double s = std::sin(r.x), c = std::cos(r.x);
    EXPECT_NEAR((Ic + m * l * l * s * s) / (m * l * l * s * c), expected, 1e-6);
  }
  // σ = −1 never reaches α = 0 for θ ∈ (0, π/2): μ_c = +inf.
  const auto st = test::pencil(1, 1, 1.0 / 3, 0.5, 0, 0.5, -1.0);
  EXPECT_TRUE(std::isinf(painleve_single(st, 0).mu_critical));
}

TEST(Painleve, R6RodCriticalFrictionAndLcpScalar) {
  // R6: rod (I = ml²/3) at θ = 0.7, μ = 0.5: D = 1 + 3μξ sθcθ/(1 + 3c²θ) = 1.268276 (ξ = +1) or
  // 0.731724 (ξ = −1); μ_c(0.7) = (1 + 3c²)/(3 s c) = 1.86375; min over θ = 4/3 at θ = atan 2.
  // Single-contact link: D = α/ρ² and b = −β/ρ.
  const double m = 1.5, l = 0.8;
  for (int xi : {1, -1}) {
    // σ = sgn v_t; with ∇hᵀM⁻¹H_T = −3sc/m < 0, α = a − σμb = a + 3σμ sc/m, so Brogliato's ξ = σ.
    const auto st2 = test::painleve_rod(m, l, 0.7, 0.0, xi * 0.3, 0.5);
    const auto r = painleve_single(st2, 0);
    const auto& c = st2.constraints[0];
    const Matrix W = c.normal;
    const Matrix H = c.tangent;
    const auto lcp = sliding_contact_lcp(st2.M, st2.F, W, 0, H, Vector::Constant(1, c.normal_bias),
                                         Vector::Constant(1, 0.5), Vector::Constant(1, xi));
    EXPECT_NEAR(lcp.D(0, 0), xi > 0 ? 1.268276 : 0.731724, 1e-6);
    const double rho = lcp.rho[0];
    EXPECT_NEAR(lcp.D(0, 0), r.alpha / (rho * rho), 1e-12);
    EXPECT_NEAR(lcp.b[0], -r.beta / rho, 1e-12);
    const auto cls = classify_sliding_lcp(lcp, Vector::Constant(1, 0.5), Vector::Constant(1, xi));
    EXPECT_NEAR(cls.p12_mu_critical, 1.86375, 1e-5);
    EXPECT_TRUE(cls.p_matrix);
  }
  const Matrix M = Vector3(m, m, m * l * l / 3).asDiagonal();
  auto mu_c = [&](double th) {
    return critical_friction(M, Vector3(0, 1, -l * std::cos(th)), Vector3(1, 0, l * std::sin(th)),
                             -1);
  };
  EXPECT_NEAR(mu_c(0.7), 1.86375, 1e-5);
  const auto best = minimize_scalar(mu_c, 0.01, std::numbers::pi / 2 - 0.01);
  EXPECT_NEAR(best.value, 4.0 / 3.0, 1e-9);
  EXPECT_NEAR(best.x, std::atan(2.0), 1e-5);
  // Same through ContactStates.
  const auto viaState = minimize_critical_friction(
      [&](double th) { return test::painleve_rod(m, l, th, 0.0, -1.0, 0.5); }, 0, -1, 0.01,
      std::numbers::pi / 2 - 0.01);
  EXPECT_NEAR(viaState.value, 4.0 / 3.0, 1e-9);
}

TEST(Painleve, FourCaseTableBothSigns) {
  // Rod of Brogliato 2014 §2.3.3 at θ = atan 2 (μ_c = 4/3 for σ = −1).
  // a = w_nᵀM⁻¹w_n = (1 + 3c²)/m, b = w_nᵀM⁻¹w_t = −3sc/m, α = a − σμb, β = g − l sinθ θ̇²
  // (w_nᵀM⁻¹F = g, c_n = l sθ θ̇²).
  const double m = 1.0, l = 1.0, th = std::atan(2.0), s = std::sin(th), c = std::cos(th);
  const double a = (1 + 3 * c * c) / m, b = -3 * s * c / m;
  const double thdot_sep = std::sqrt(2 * kG / (l * s));  // β = g − 2g = −g < 0
  struct Case {
    int sigma;
    double mu, thdot;
    PainleveCase expected;
  };
  const Case cases[] = {
      {+1, 0.5, 0.0, PainleveCase::slip},              // α = a + 0.5|b| > 0, β = g > 0
      {+1, 0.5, thdot_sep, PainleveCase::separation},  // β < 0
      {-1, 0.5, 0.0, PainleveCase::slip},              // α = a − 0.5|b| > 0 since 0.5 < 4/3
      {-1, 0.5, thdot_sep, PainleveCase::separation},
      {-1, 2.0, 0.0, PainleveCase::inconsistent},  // μ > μ_c ⇒ α < 0, β > 0
      {-1, 2.0, thdot_sep, PainleveCase::indeterminate},
      {+1, 2.0, 0.0, PainleveCase::slip},  // σ = +1 never Painlevé here
  };
  for (const auto& k : cases) {
    const auto st = test::painleve_rod(m, l, th, k.thdot, k.sigma * 1.0, k.mu);
    const auto r = painleve_single(st, 0);
    EXPECT_EQ(r.kind, k.expected) << "σ = " << k.sigma << " μ = " << k.mu << " got "
                                  << to_string(r.kind);
    EXPECT_NEAR(r.alpha, a - k.sigma * k.mu * b, 1e-12);
    EXPECT_NEAR(r.beta, kG - l * s * k.thdot * k.thdot, 1e-12);
    if (k.expected == PainleveCase::slip || k.expected == PainleveCase::indeterminate) {
      EXPECT_NEAR(r.lambda_n, r.beta / r.alpha, 1e-12);
    }
    if (k.sigma < 0) {
      EXPECT_NEAR(r.mu_critical, 4.0 / 3.0, 1e-12);
    } else {
      EXPECT_TRUE(std::isinf(r.mu_critical));
    }
  }
  // Borderline statuses: β = 0 (grazing), α = 0 with β > 0 (singular), β < 0 (separation), both
  // (degenerate).
  const double thdot_graze = std::sqrt(kG / (l * s));
  EXPECT_EQ(painleve_single(test::painleve_rod(m, l, th, thdot_graze, 1, 0.5), 0).kind,
            PainleveCase::grazing);
  const double muc = a / (-b);
  EXPECT_EQ(painleve_single(test::painleve_rod(m, l, th, 0.0, -1, muc), 0).kind,
            PainleveCase::singular);
  EXPECT_EQ(painleve_single(test::painleve_rod(m, l, th, thdot_sep, -1, muc), 0).kind,
            PainleveCase::separation);
  EXPECT_EQ(painleve_single(test::painleve_rod(m, l, th, thdot_graze, -1, muc), 0).kind,
            PainleveCase::degenerate);
}

TEST(Painleve, R7BoxOnIncline) {
  // R7: box with φ = 0.6, k = 0.5, l = 1, r = 0.4: a = l sinφ + r cosφ, ∇h = (0, 1, −a),
  // H_T = (1, 0, −l) [fix], M = diag(m, m, k²m): c = la/(k² + a²) = 0.851661, μ_c = 1.174176 (σ =
  // +1).
  const double m = 2.0, k = 0.5, l = 1.0, r = 0.4, phi = 0.6;
  const double a = l * std::sin(phi) + r * std::cos(phi);
  const Matrix M = Vector3(m, m, k * k * m).asDiagonal();
  EXPECT_NEAR(critical_friction(M, Vector3(0, 1, -a), Vector3(1, 0, -l), 1), 1.174176, 1e-6);
  EXPECT_NEAR(l * a / (k * k + a * a), 0.851661, 1e-6);
  EXPECT_TRUE(std::isinf(critical_friction(M, Vector3(0, 1, -a), Vector3(1, 0, -l), -1)));
}

TEST(Painleve, R5RockingBlockLcpMatrix) {
  // R5 [derived]: rocking block, m = I_G = 1, l = 1, L = 1.5, μ = 0.3, θ = 0, mode ξ = −1 (both):
  // G + n_qᵀH_T[μ̄] = [[1.072, 0.352],[0.208, 0.928]], inverse [[1.006944,
  // −0.381944],[−0.225694, 1.163194]]. (ρ = 1.25, G_12 = (1 − 0.5625)/1.5625 = 0.28, n_qᵀH_T[μ̄] =
  // ±0.072.) With L = 3, μ = 0.5 the inverse is entrywise positive: [[1.038194,
  // 0.315972],[0.586806, 1.309028]].
  auto build = [](double L, double mu) {
    const double l = 1.0;
    Matrix W(3, 2), H(3, 2);
    W.col(0) = Vector3(0, 1, L / 2);
    W.col(1) = Vector3(0, 1, -L / 2);
    H.col(0) = Vector3(1, 0, l / 2);
    H.col(1) = Vector3(1, 0, l / 2);
    return sliding_contact_lcp(Matrix::Identity(3, 3), Vector3(0, 9.81, 0), W, 0, H, Vector2(0, 0),
                               Vector2(mu, mu), Vector2(-1, -1));
  };
  auto lcp = build(1.5, 0.3);
  Matrix expected(2, 2);
  expected << 1.072, 0.352, 0.208, 0.928;
  EXPECT_LT((lcp.D - expected).cwiseAbs().maxCoeff(), 1e-12);
  Matrix inv(2, 2);
  inv << 1.006944, -0.381944, -0.225694, 1.163194;
  EXPECT_LT((lcp.D.inverse() - inv).cwiseAbs().maxCoeff(), 1e-6);
  // PD iff μ < 4k/l = 4 (k = 1): true at μ = 0.3.
  EXPECT_TRUE(classify_sliding_lcp(lcp, Vector2(0.3, 0.3), Vector2(-1, -1)).positive_definite);
  lcp = build(3.0, 0.5);
  inv << 1.038194, 0.315972, 0.586806, 1.309028;
  EXPECT_LT((lcp.D.inverse() - inv).cwiseAbs().maxCoeff(), 1e-6);
  EXPECT_GT(lcp.D.inverse().minCoeff(), 0.0);
}

TEST(Painleve, R9DiskInCornerClassesAndBounds) {
  // Brogliato 2014 Example 6 (§4.2) / R9: disk q = (x, y, φ), M = diag(m, m, I), h₁ = y − R,
  // h₂ = x − R, H_T = [[1,0],[0,1],[R,R]]: D = [[1, −μ₂ξ₂],[−μ₁ξ₁, 1]], P-matrix iff μ₁μ₂ξ₁ξ₂ < 1.
  // P14: Frobenius ⇔ μ₁² + μ₂² < 1/4 (value √2·sqrt(μ₁²+μ₂²), bound 1/√2); spectral ⇔ max μ < 1.
  const double m = 2.0, I = 0.3, R = 0.5;
  Matrix W(3, 2), H(3, 2);
  W.col(0) = Vector3(0, 1, 0);
  W.col(1) = Vector3(1, 0, 0);
  H.col(0) = Vector3(1, 0, R);
  H.col(1) = Vector3(0, 1, R);
  const Matrix M = Vector3(m, m, I).asDiagonal();
  auto run = [&](Vector2 mu, Vector2 xi) {
    const auto lcp = sliding_contact_lcp(M, Vector3(0, m * kG, 0), W, 0, H, Vector2(0, 0), mu, xi);
    return std::pair{lcp, classify_sliding_lcp(lcp, mu, xi)};
  };
  auto [lcp, c] = run(Vector2(0.3, 0.3), Vector2(1, 1));
  Matrix D(2, 2);
  D << 1, -0.3, -0.3, 1;
  EXPECT_LT((lcp.D - D).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_TRUE(c.p_matrix && c.positive_definite && c.strictly_copositive);
  EXPECT_NEAR(c.p14_value_frobenius, std::sqrt(2.0) * std::sqrt(0.18), 1e-12);
  EXPECT_NEAR(c.p14_bound_frobenius, 1 / std::sqrt(2.0), 1e-12);
  EXPECT_GT(c.p14_margin_frobenius, 0.0);  // 0.18 < 0.25
  EXPECT_NEAR(c.p14_margin_spectral, 1.0 - 0.3, 1e-12);
  // P13: P = −0.3[[0,1],[1,0]] symmetric: D(ε) ≻ 0 for ε < 1/0.3.
  EXPECT_TRUE(c.p13_applicable);
  EXPECT_NEAR(c.p13_epsilon_star, 1 / 0.3, 1e-10);
  // μ = (0.4, 0.4): P14 Frobenius fails (0.32 > 0.25) although D is still PD: the bound is only
  // sufficient.
  std::tie(lcp, c) = run(Vector2(0.4, 0.4), Vector2(1, 1));
  EXPECT_LT(c.p14_margin_frobenius, 0.0);
  EXPECT_TRUE(c.positive_definite);
  // μ₁μ₂ξ₁ξ₂ = 0.8·1.5 = 1.2 > 1: not P; symmetric part off-diagonal −1.15 ⇒ not copositive.
  std::tie(lcp, c) = run(Vector2(0.8, 1.5), Vector2(1, 1));
  EXPECT_FALSE(c.p_matrix);
  EXPECT_NEAR(c.min_principal_minor, 1 - 1.2, 1e-12);
  EXPECT_FALSE(c.copositive);
  EXPECT_FALSE(c.p13_applicable);
  // ξ₁ξ₂ = −1: always P (det = 1 + μ₁μ₂).
  std::tie(lcp, c) = run(Vector2(0.8, 1.5), Vector2(1, -1));
  EXPECT_TRUE(c.p_matrix);
  // R8 [fix]: mode ξ = (−1, −1): (G + n_qᵀH_T[μ̄])⁻¹ = (1/(1−μ²))[[1, −μ],[−μ, 1]]; with m = 2,
  // μ = 0.2, e = (0.5, 0.2), ẋ⁻ = −1, ẏ⁻ = −2: a = (1+e₁)|ẏ⁻| = 3, b = (1+e₂)|ẋ⁻| = 1.2,
  // p̄_n = (√m/(1−μ²))(a − μb, b − μa) = (4.065864, 0.883883).
  std::tie(lcp, c) = run(Vector2(0.2, 0.2), Vector2(-1, -1));
  Matrix Dinv(2, 2);
  Dinv << 1, -0.2, -0.2, 1;
  Dinv /= 0.96;
  EXPECT_LT((lcp.D.inverse() - Dinv).cwiseAbs().maxCoeff(), 1e-12);
  const Vector2 qn(-2.0 / lcp.rho[0], -1.0 / lcp.rho[1]);  // q̇_norm = ∇hᵀq̇/ρ
  const Vector pbar = lcp.D.inverse() * (-(Vector2(1.5, 1.2).asDiagonal() * qn));
  EXPECT_NEAR(pbar[0], std::sqrt(2.0) / 0.96 * (3 - 0.2 * 1.2), 1e-12);
  EXPECT_NEAR(pbar[0], 4.065864, 1e-6);
  EXPECT_NEAR(pbar[1], 0.883883, 1e-6);
}

TEST(Painleve, BadInput) {
  const auto st = test::painleve_rod(1, 1, 0.5, 0, 1, 0.5);
  EXPECT_THROW(
      painleve_single(st.M, st.F, st.constraints[0].normal, st.constraints[0].normal, 0, -0.1, 1),
      std::invalid_argument);
  EXPECT_THROW(
      painleve_single(st.M, st.F, st.constraints[0].normal, st.constraints[0].normal, 0, 0.1, 0),
      std::invalid_argument);
  Matrix Mbad = st.M;
  Mbad(0, 1) = 0.3;
  EXPECT_THROW(
      painleve_single(Mbad, st.F, st.constraints[0].normal, st.constraints[0].normal, 0, 0.1, 1),
      std::invalid_argument);
  Mbad = st.M;
  Mbad(1, 1) = std::nan("");
  EXPECT_THROW(
      painleve_single(Mbad, st.F, st.constraints[0].normal, st.constraints[0].normal, 0, 0.1, 1),
      std::invalid_argument);
  EXPECT_THROW(painleve_single(st.M, Vector2(0, 1), st.constraints[0].normal,
                               st.constraints[0].normal, 0, 0.1, 1),
               std::invalid_argument);
  auto resting = test::painleve_rod(1, 1, 0.5, 0, 0, 0.5);  // v_t = 0: no sliding direction
  EXPECT_THROW(painleve_single(resting, 0), std::invalid_argument);
  EXPECT_NO_THROW(painleve_single(resting, 0, -1));
  auto negmu = st;
  negmu.constraints[0].mu = -1;
  EXPECT_THROW(painleve_single(negmu, 0), std::invalid_argument);
  EXPECT_THROW(minimize_scalar([](double) { return 0.0; }, 1, 0), std::invalid_argument);
}
