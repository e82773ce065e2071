// The all-sticking problem (Brogliato, Kövecses & Acary 2020: problem (9), §2–§5, the examples,
// the algorithm of §4.2; docs/math/all_sticking.md). [RT] marks a regression case; [derived] a
// number computed independently of the paper (e.g. by a direct KKT solve).
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <stdexcept>

#include "builders.hpp"
#include "moreau/analysis/all_sticking.hpp"

using namespace moreau;
using test::kG;

TEST(AllSticking, Ex1Ex4StaticsNeedsNullSpaceSearch) {
  // [RT][derived] m = 1, l = 1, L = 2, F = (F_x, mg, 0) on the left, F_x = 2, q̇ = 0, θ = 0:
  // λ_n = ((mg − (l/L)F_x)/2, (mg + (l/L)F_x)/2) = (4.405, 5.405); only λ_t1 + λ_t2 = F_x is fixed
  // (null space of dimension 1). Min-norm λ_t = (1, 1) needs μ ≥ 1/4.405 = 0.22701, but the true
  // threshold is μ ≥ F_x/(mg) = 0.20387 (λ_t split in proportion to λ_n).
  auto st = test::rocking_block(1, 1, 2, 0, 0, Vector3(2, kG, 0), 0.21, 0.21);
  auto r = all_sticking(st);
  EXPECT_EQ(r.status, AllStickingStatus::sticking) << r.message;
  EXPECT_NEAR(r.lambda_n[0], 4.405, 1e-9);
  EXPECT_NEAR(r.lambda_n[1], 5.405, 1e-9);
  EXPECT_NEAR(r.lambda_t(0, 0) + r.lambda_t(0, 1), 2.0, 1e-9);
  EXPECT_LE(std::abs(r.lambda_t(0, 0)), 0.21 * r.lambda_n[0] + 1e-9);
  EXPECT_LE(std::abs(r.lambda_t(0, 1)), 0.21 * r.lambda_n[1] + 1e-9);
  EXPECT_EQ(r.null_basis.cols(), 1);
  EXPECT_NEAR(r.lambda_min_norm[1], 1.0, 1e-9);  // stacked [λ_n1, λ_t1, λ_n2, λ_t2]
  EXPECT_NEAR(r.lambda_min_norm[3], 1.0, 1e-9);
  EXPECT_TRUE(r.unique_acceleration);
  EXPECT_LT(r.qddot.norm(), 1e-9);
  // Ex. 1 [RT]: J_tu = [(1,0,l/2),(1,0,l/2)] has rank 1 (Assumption 1 fails); ker M = {0}.
  EXPECT_EQ(r.prop1.rank_J, 1);
  EXPECT_EQ(r.prop1.columns, 2);
  EXPECT_FALSE(r.prop1.full_column_rank);
  EXPECT_TRUE(r.prop1.kernel_condition);
  // Just above / below the threshold 2/9.81 = 0.203874.
  st = test::rocking_block(1, 1, 2, 0, 0, Vector3(2, kG, 0), 0.2040, 0.2040);
  EXPECT_EQ(all_sticking(st).status, AllStickingStatus::sticking);
  st = test::rocking_block(1, 1, 2, 0, 0, Vector3(2, kG, 0), 0.2037, 0.2037);
  r = all_sticking(st);
  EXPECT_EQ(r.status, AllStickingStatus::friction_infeasible);
  // Tipping: |F_x| = 25 > (L/l)mg = 19.62 ⇒ λ_n1 = (mg − F_x/2)/2 < 0, so corner A1 detaches and
  // the block pivots about A2 (which sticks for a large μ).
  st = test::rocking_block(1, 1, 2, 0, 0, Vector3(25, kG, 0), 3.0, 3.0);
  r = all_sticking(st);
  EXPECT_EQ(r.status, AllStickingStatus::sticking_with_detachment) << r.message;
  ASSERT_EQ(r.detaching.size(), 1u);
  EXPECT_EQ(r.detaching[0], 0);
  EXPECT_GT(r.a_n[0], 0.0);
  EXPECT_GT(r.lambda_n[1], 0.0);
}

TEST(AllSticking, Ex2PivotingCornerMatchesDerivedNumbers) {
  // [RT][derived] Ex. 2: m = 2, l = 1, L = 0.5, θ = 0.2, θ̇ = 0.3, F = (1, 2·9.81, 0) left side,
  // only A2 closed: J_nu = (0, 1, c_n), J_tu = (1, 0, c_t), c_n = (l/2)sθ − (L/2)cθ =
  // −0.1456819791, c_t = (l/2)cθ + (L/2)sθ = 0.5397006216; c_nu = θ̇²c_t, c_tu = −θ̇²c_n. Expected:
  // λ_n = 18.71219318, λ_t = 3.976990756, q̈ = (1.488495378, −0.4539034099, −2.782295769), sticking
  // iff μ ≥ |λ_t|/λ_n = 0.2125347210.
  const double m = 2, l = 1, L = 0.5, th = 0.2, thd = 0.3;
  const double cn = 0.5 * l * std::sin(th) - 0.5 * L * std::cos(th);
  const double ct = 0.5 * l * std::cos(th) + 0.5 * L * std::sin(th);
  EXPECT_NEAR(cn, -0.1456819791, 1e-10);
  EXPECT_NEAR(ct, 0.5397006216, 1e-10);
  auto make = [&](double mu) {
    ContactState st =
        test::make_state(2, Vector3(m, m, m * (l * l + L * L) / 12).asDiagonal(),
                         Vector3(1.0, 2 * 9.81, 0), Vector3(-ct * thd, -cn * thd, thd));
    Matrix t(3, 1);
    t << 1, 0, ct;
    st.constraints.push_back(test::make_constraint("A2", ConstraintKind::unilateral, mu,
                                                   Vector3(0, 1, cn), t, thd * thd * ct,
                                                   Vector::Constant(1, -thd * thd * cn)));
    return st;
  };
  auto r = all_sticking(make(0.2126));
  ASSERT_EQ(r.status, AllStickingStatus::sticking) << r.message;
  EXPECT_NEAR(r.lambda_n[0], 18.71219318, 1e-7);
  EXPECT_NEAR(r.lambda_t(0, 0), 3.976990756, 1e-7);
  EXPECT_NEAR(r.qddot[0], 1.488495378, 1e-8);
  EXPECT_NEAR(r.qddot[1], -0.4539034099, 1e-8);
  EXPECT_NEAR(r.qddot[2], -2.782295769, 1e-8);
  EXPECT_TRUE(r.prop1.kkt_invertible);
  EXPECT_EQ(all_sticking(make(0.2124)).status, AllStickingStatus::friction_infeasible);
  // At μ = 0.2125347210·(1 + 1e-9) the force sits on the cone's edge.
  r = all_sticking(make(0.2125347210 * (1 + 1e-9)));
  ASSERT_EQ(r.status, AllStickingStatus::sticking);
  ASSERT_EQ(r.at_cone_edge.size(), 1u);
  // Cross-check: direct KKT solve (M invertible, one independent contact).
  const auto k = all_sticking_kkt(make(0.3), {0});
  EXPECT_LT((k.qddot - r.qddot).norm(), 1e-9);
  EXPECT_NEAR(k.lambda[0], 18.71219318, 1e-7);
}

TEST(AllSticking, Ex6TwoFingersWithBilateralGuide) {
  // [RT][fix] Ex. 6: q = (x, y, x₁, x₂), unit masses, h_nb = x − a (frictionless bilateral),
  // h_nu1 = x − x₁ − L, h_nu2 = x₂ − x − L, H_tu = (0,1,0,0) for both, F = (0, mg, F₁, F₂).
  // λ_n1 = −F₁, λ_n2 = F₂, λ_nb = F₁ + F₂; λ_t1 + λ_t2 = mg; all-sticking iff μ₁|F₁| + μ₂|F₂| ≥ mg.
  auto make = [](double F1, double F2, double mu1, double mu2) {
    ContactState st = test::make_state(2, Matrix::Identity(4, 4), Eigen::Vector4d(0, kG, F1, F2));
    Matrix t(4, 1);
    t << 0, 1, 0, 0;
    st.constraints.push_back(test::make_constraint("guide", ConstraintKind::bilateral, 0,
                                                   Eigen::Vector4d(1, 0, 0, 0), t));
    st.constraints.push_back(test::make_constraint("finger1", ConstraintKind::unilateral, mu1,
                                                   Eigen::Vector4d(1, 0, -1, 0), t));
    st.constraints.push_back(test::make_constraint("finger2", ConstraintKind::unilateral, mu2,
                                                   Eigen::Vector4d(-1, 0, 0, 1), t));
    return st;
  };
  auto r = all_sticking(make(-5, 3, 0.8, 0.9));  // 6.7 < 9.81
  EXPECT_EQ(r.status, AllStickingStatus::friction_infeasible);
  r = all_sticking(make(-5, 3, 1.2, 1.5));  // 10.5 ≥ 9.81
  ASSERT_EQ(r.status, AllStickingStatus::sticking) << r.message;
  EXPECT_NEAR(r.lambda_n[0], -2.0, 1e-9);
  EXPECT_NEAR(r.lambda_n[1], 5.0, 1e-9);
  EXPECT_NEAR(r.lambda_n[2], 3.0, 1e-9);
  EXPECT_NEAR(r.lambda_t(0, 1) + r.lambda_t(0, 2), kG, 1e-9);
  // F₁ > 0, F₂ < 0: both fingers pull away, so neither normal force can be positive.
  r = all_sticking(make(5, -3, 1.2, 1.5));
  EXPECT_EQ(r.status, AllStickingStatus::sticking_with_detachment);
  EXPECT_EQ(r.detaching.size(), 2u);
}

TEST(AllSticking, Ex6VariantFreeFingersMatchesDerivedFormulas) {
  // [RT] variant: q = (x, y, x₁, y₁, x₂, y₂), unit masses, F = (0, g, F₁x, F₁y, F₂x, F₂y),
  // H_t1 = (0,1,0,−1,0,0), H_t2 = (0,1,0,0,0,−1): ÿ = −(g + F₁y + F₂y)/3,
  // λ_t1 = (g − 2F₁y + F₂y)/3, λ_t2 = (g + F₁y − 2F₂y)/3.
  for (auto [F1x, F1y, F2x, F2y, ydd, lt1, lt2] :
       {std::tuple{-5.0, 0.5, 3.0, 0.5, -3.603333, 3.103333, 3.103333},
        std::tuple{-5.0, 0.5, 3.0, -1.0, -3.103333, 2.603333, 4.103333}}) {
    Vector F(6);
    F << 0, kG, F1x, F1y, F2x, F2y;
    ContactState st = test::make_state(2, Matrix::Identity(6, 6), F);
    Matrix tb(6, 1), t1(6, 1), t2(6, 1);
    tb << 0, 1, 0, 0, 0, 0;
    t1 << 0, 1, 0, -1, 0, 0;
    t2 << 0, 1, 0, 0, 0, -1;
    Vector nb(6), n1(6), n2(6);
    nb << 1, 0, 0, 0, 0, 0;
    n1 << 1, 0, -1, 0, 0, 0;
    n2 << -1, 0, 0, 0, 1, 0;
    st.constraints.push_back(test::make_constraint("guide", ConstraintKind::bilateral, 0, nb, tb));
    st.constraints.push_back(test::make_constraint("f1", ConstraintKind::unilateral, 2.0, n1, t1));
    st.constraints.push_back(test::make_constraint("f2", ConstraintKind::unilateral, 2.0, n2, t2));
    const auto r = all_sticking(st);
    ASSERT_EQ(r.status, AllStickingStatus::sticking) << r.message;
    EXPECT_NEAR(r.qddot[1], ydd, 1e-6);
    EXPECT_NEAR(r.lambda_t(0, 1), lt1, 1e-6);
    EXPECT_NEAR(r.lambda_t(0, 2), lt2, 1e-6);
    EXPECT_NEAR(r.lambda_n[1], -F1x, 1e-9);
    EXPECT_NEAR(r.lambda_n[2], F2x, 1e-9);
    EXPECT_TRUE(r.unique_acceleration);
  }
}

TEST(AllSticking, SingularMassPencilSeparationAngle) {
  // Falling pencil, unilateral-contact notes (4.9)–(4.12), with α = mℓ²/(I_c + mℓ²) = 1 (I_c = 0:
  // M is singular, ker M = (ℓcθ, ℓsθ, 1)),
  // ω₀ → 0: θ̇² = 2gα(1 − cosθ)/ℓ and λ_n = mg[1 − α(sin²θ + 2cosθ(1 − cosθ))], which vanishes at
  // cosθ_s = 2/3 (θ_s = 48.19°). No-slip λ_t = mℓ(θ̇² sinθ − θ̈ cosθ) with θ̈ = g sinθ/ℓ (α = 1).
  const double m = 1.2, l = 0.6;
  auto lam = [&](double th) {
    const double z = std::cos(th);
    return m * kG * (1 - (std::sin(th) * std::sin(th) + 2 * z * (1 - z)));
  };
  for (double th : {0.3, 0.6, 0.8}) {
    const double thd = std::sqrt(2 * kG * (1 - std::cos(th)) / l);
    const auto st = test::pencil(m, l, 0.0, th, thd, 5.0);
    const auto r = all_sticking(st);
    ASSERT_EQ(r.status, AllStickingStatus::sticking) << r.message;
    EXPECT_NEAR(r.lambda_n[0], lam(th), 1e-8);
    EXPECT_NEAR(r.lambda_t(0, 0),
                m * l * (thd * thd * std::sin(th) - kG * std::sin(th) / l * std::cos(th)), 1e-8);
    EXPECT_TRUE(r.prop1.kernel_condition);  // ker M ∩ ker J_tᵀ = {0}
    EXPECT_TRUE(r.unique_acceleration);
    EXPECT_NEAR(r.qddot[2], kG * std::sin(th) / l, 1e-8);
  }
  // Separation angle: λ_n(θ_s) = 0 at θ_s = acos(2/3) = 48.1897°.
  const double ths = std::acos(2.0 / 3.0);
  EXPECT_NEAR(ths * 180 / M_PI, 48.1897, 1e-4);
  const double thd = std::sqrt(2 * kG * (1 - 2.0 / 3.0) / l);
  const auto k = all_sticking_kkt(test::pencil(m, l, 0.0, ths, thd, 5.0), {0});
  EXPECT_NEAR(k.lambda[0], 0.0, 1e-9);
  // Beyond θ_s the no-slip force would be negative: the tip detaches.
  const double th2 = ths + 0.05, thd2 = std::sqrt(2 * kG * (1 - std::cos(th2)) / l);
  const auto r2 = all_sticking(test::pencil(m, l, 0.0, th2, thd2, 5.0));
  // (with I_c = 0 the free flight q̈ is not unique: ker M = (ℓcθ, ℓsθ, 1) is free once the contact
  // opens).
  EXPECT_EQ(r2.status, AllStickingStatus::sticking_with_detachment) << r2.message;
  ASSERT_EQ(r2.detaching.size(), 1u);
  EXPECT_FALSE(r2.unique_acceleration);
  EXPECT_GE(r2.a_n[0], -1e-9);
  const auto k2 = all_sticking_kkt(test::pencil(m, l, 0.0, th2, thd2, 5.0), {0});
  EXPECT_LT(k2.lambda[0], 0.0);  // the no-slip force would pull
}

TEST(AllSticking, MatchesDirectKktRandom) {
  // Cross-check: M ≻ 0, independent constraints, large μ, data chosen so that every λ_n > 0 in the
  // KKT solution ⇒ all_sticking returns the same (unique) q̈ and λ.
  std::mt19937 gen(11);
  std::normal_distribution<double> g;
  int compared = 0;
  for (int trial = 0; trial < 40 && compared < 8; ++trial) {
    const int n = 6;
    Matrix A = Matrix::NullaryExpr(n, n, [&]() { return g(gen); });
    ContactState st = test::make_state(3, A * A.transpose() + Matrix::Identity(n, n),
                                       Vector::NullaryExpr(n, [&]() { return 3 * g(gen); }));
    for (int c = 0; c < 2; ++c)
      st.constraints.push_back(test::make_constraint(
          "c", ConstraintKind::unilateral, 50.0, Vector::NullaryExpr(n, [&]() { return g(gen); }),
          Matrix::NullaryExpr(n, 2, [&]() { return g(gen); }), g(gen), Vector2(g(gen), g(gen))));
    const auto k = all_sticking_kkt(st, {0, 1});
    if (!(k.lambda[0] > 0.1 && k.lambda[3] > 0.1)) continue;
    ASSERT_EQ(k.null_basis.cols(), 0);
    bool cone_ok = true;
    for (int c = 0; c < 2; ++c)
      cone_ok = cone_ok && k.lambda.segment(3 * c + 1, 2).norm() < 50.0 * k.lambda[3 * c];
    if (!cone_ok) continue;
    const auto r = all_sticking(st);
    ASSERT_EQ(r.status, AllStickingStatus::sticking);
    EXPECT_LT((r.qddot - k.qddot).norm(), 1e-8 * std::max(1.0, k.qddot.norm()));
    EXPECT_NEAR(r.lambda_n[0], k.lambda[0], 1e-8 * std::max(1.0, std::abs(k.lambda[0])));
    EXPECT_NEAR(r.lambda_t(1, 1), k.lambda[5], 1e-8 * std::max(1.0, std::abs(k.lambda[5])));
    ++compared;
  }
  EXPECT_GE(compared, 3);
}

TEST(AllSticking, ThreeDimensionalParticle) {
  // Particle on z ≥ 0 in 3D, F = (−f_x, −f_y, mg): sticking iff ‖f_t‖ ≤ μmg (exact disk).
  auto make = [](double mu) {
    ContactState st = test::make_state(3, Matrix::Identity(3, 3), Vector3(-3, -4, kG));
    Matrix t(3, 2);
    t << 1, 0, 0, 1, 0, 0;
    st.constraints.push_back(
        test::make_constraint("floor", ConstraintKind::unilateral, mu, Vector3(0, 0, 1), t));
    return st;
  };
  EXPECT_EQ(all_sticking(make(5.0 / kG + 1e-4)).status, AllStickingStatus::sticking);
  EXPECT_EQ(all_sticking(make(5.0 / kG - 1e-4)).status, AllStickingStatus::friction_infeasible);
}

TEST(AllSticking, BadInput) {
  auto st = test::rocking_block(1, 1, 2, 0, 0, Vector3(2, kG, 0), 0.3, 0.3);
  st.constraints[0].mu = -1;
  EXPECT_THROW(all_sticking(st), std::invalid_argument);
  st = test::rocking_block(1, 1, 2, 0, 0, Vector3(2, kG, 0), 0.3, 0.3);
  st.M(0, 2) = 1.0;
  EXPECT_THROW(all_sticking(st), std::invalid_argument);
  st = test::rocking_block(1, 1, 2, 0, 0, Vector3(2, kG, 0), 0.3, 0.3);
  st.M(1, 1) = std::nan("");
  EXPECT_THROW(all_sticking(st), std::invalid_argument);
  st = test::rocking_block(1, 1, 2, 0, 0, Vector3(2, kG, 0), 0.3, 0.3);
  st.constraints[1].normal = Vector2(0, 1);
  EXPECT_THROW(all_sticking(st), std::invalid_argument);
  EXPECT_THROW(
      all_sticking_kkt(test::rocking_block(1, 1, 2, 0, 0, Vector3(2, kG, 0), 0.3, 0.3), {5}),
      std::invalid_argument);
}

TEST(AllSticking, FallingPencilSeparationAndFreeFlightSign) {
  // Unilateral-contact notes (4.12)–(4.14), ω₀ → 0: for mass parameter α = mℓ²/(I_c + mℓ²) ≥ 3/4
  // the no-slip λ_n = mg[1 − α(1 + 2z − 3z²)] (z = cosθ) first vanishes at
  // z_s = [1 + sqrt(4 − 3/α)]/3, where θ̇² = 2gα(1 − z_s)/ℓ. Just after separation
  // ÿ = −(M⁻¹F)_y = g[2αz_s(1 − z_s) − 1] < 0:
  //   α = 0.9 → −0.570034 g (θ_s = 52.7353°), α = 0.8 → −0.6 g (θ_s = 60°),
  //   α → 1 (I_c → 0) → −5g/9 at z_s = 2/3 (θ_s = 48.1897°).
  const double m = 1.0, l = 0.5;
  struct Case {
    double alpha, theta_deg, ydd_over_g, tol;
  };
  for (const Case& c : {Case{0.9, 52.7353, -0.570034, 1e-6}, Case{0.8, 60.0, -0.6, 1e-9},
                        Case{1.0 / (1.0 + 1e-9), 48.1897, -5.0 / 9.0, 1e-6}}) {
    const double Ic = m * l * l * (1 / c.alpha - 1);
    const double z = (1 + std::sqrt(4 - 3 / c.alpha)) / 3, th = std::acos(z);
    EXPECT_NEAR(th * 180 / M_PI, c.theta_deg, 1e-4);
    const double thd = std::sqrt(2 * kG * c.alpha * (1 - z) / l);
    const auto st = test::pencil(m, l, Ic, th, thd, 10.0);
    // No-slip normal force vanishes at θ_s …
    const auto k = all_sticking_kkt(st, {0});
    EXPECT_NEAR(k.lambda[0], 0.0, 1e-6);
    // … and the free flight that would follow penetrates the floor (ÿ < 0).
    const Vector qdd = -st.M.ldlt().solve(st.F);
    EXPECT_NEAR(qdd[1] / kG, c.ydd_over_g, c.tol);
    EXPECT_NEAR(qdd[1] / kG, 2 * c.alpha * z * (1 - z) - 1, 1e-6);
    EXPECT_LT(qdd[1], 0.0);
  }
}

TEST(AllSticking, NoClosedContactIsFreeMotion) {
  // Only an open contact (gap 0.2): nothing is considered, q̈ = −M⁻¹F, status sticking (vacuously).
  auto st = test::rocking_block(1, 1, 2, 0, 0, Vector3(2, kG, 0), 0.3, 0.3);
  st.constraints.pop_back();
  st.constraints[0].gap = 0.2;
  const auto r = all_sticking(st);
  EXPECT_EQ(r.status, AllStickingStatus::sticking);
  EXPECT_TRUE(r.constraints.empty());
  EXPECT_NEAR(r.qddot[0], -2.0, 1e-12);
  EXPECT_NEAR(r.qddot[1], -kG, 1e-12);
}
