// Contact modes at the acceleration level (Brogliato, Kövecses & Acary 2020 (5); the modes of the
// unilateral-contact notes; Drake's softening and stabilization; docs/math/contact_modes.md).
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "builders.hpp"
#include "moreau/analysis/contact_modes.hpp"
#include "moreau/analysis/painleve.hpp"

using namespace moreau;
using test::kG;

namespace {
// Particle of mass m on a rough line y ≥ 0 (2D): q = (x, y), applied force (f_x, f_y) ⇒ F = (−f_x,
// mg − f_y).
ContactState particle(double m, double mu, double fx, double fy, double vx = 0.0) {
  ContactState s =
      test::make_state(2, m * Matrix::Identity(2, 2), Vector2(-fx, m * kG - fy), Vector2(vx, 0));
  Matrix t(2, 1);
  t << 1, 0;
  s.constraints.push_back(
      test::make_constraint("floor", ConstraintKind::unilateral, mu, Vector2(0, 1), t));
  return s;
}

// Same solution sets (order-free) from the LCP route and the enumeration route.
void expect_same_sets(const ContactModeAnalysis& a, const ContactModeAnalysis& b) {
  ASSERT_EQ(a.solutions.size(), b.solutions.size());
  for (const auto& sa : a.solutions) {
    bool found = false;
    for (const auto& sb : b.solutions) {
      bool same = (sa.qddot - sb.qddot).cwiseAbs().maxCoeff() <
                  1e-7 * std::max(1.0, sa.qddot.cwiseAbs().maxCoeff());
      for (size_t j = 0; same && j < sa.contacts.size(); ++j) {
        same = std::abs(sa.contacts[j].lambda_n - sb.contacts[j].lambda_n) <
                   1e-7 * std::max(1.0, std::abs(sa.contacts[j].lambda_n)) &&
               sa.contacts[j].mode == sb.contacts[j].mode;
      }
      found = found || same;
    }
    EXPECT_TRUE(found);
  }
}
}  // namespace

TEST(ContactModes, ParticleStickSlipSeparate) {
  const double m = 2.0, mu = 0.5;
  // |f_x| = 5 ≤ μmg = 9.81: stick, λ_n = mg, λ_t = −f_x (m ẍ − f_x = λ_t with ẍ = 0).
  auto r = contact_modes(particle(m, mu, 5.0, 0.0));
  ASSERT_TRUE(r.unique());
  auto e = r.solutions[0].contacts[0];
  EXPECT_EQ(e.mode, ContactMode::stick);
  EXPECT_NEAR(e.lambda_n, m * kG, 1e-9);
  EXPECT_NEAR(e.lambda_t[0], -5.0, 1e-9);
  // f_x = 15 > 9.81: slip in +x, λ_t = −μmg, ẍ = (15 − 9.81)/2.
  r = contact_modes(particle(m, mu, 15.0, 0.0));
  ASSERT_TRUE(r.unique());
  e = r.solutions[0].contacts[0];
  EXPECT_EQ(e.mode, ContactMode::slip);
  EXPECT_NEAR(e.direction[0], 1.0, 1e-12);
  EXPECT_NEAR(e.lambda_t[0], -mu * m * kG, 1e-9);
  EXPECT_NEAR(r.solutions[0].qddot[0], (15.0 - mu * m * kG) / m, 1e-9);
  // f_x = −15: slip in −x.
  r = contact_modes(particle(m, mu, -15.0, 0.0));
  ASSERT_TRUE(r.unique());
  EXPECT_NEAR(r.solutions[0].contacts[0].direction[0], -1.0, 1e-12);
  // Pull up with f_y = 30 > mg: separate, ÿ = (30 − 19.62)/2.
  r = contact_modes(particle(m, mu, 3.0, 30.0));
  ASSERT_TRUE(r.unique());
  EXPECT_EQ(r.solutions[0].contacts[0].mode, ContactMode::separate);
  EXPECT_NEAR(r.solutions[0].qddot[1], (30.0 - m * kG) / m, 1e-9);
  // Already sliding (v_x = 1): λ_t = −μλ_n, ẍ = −μg.
  r = contact_modes(particle(m, mu, 0.0, 0.0, 1.0));
  ASSERT_TRUE(r.unique());
  EXPECT_TRUE(r.solutions[0].contacts[0].already_sliding);
  EXPECT_NEAR(r.solutions[0].qddot[0], -mu * kG, 1e-9);
  ASSERT_EQ(r.sliding.size(), 1u);
}

TEST(ContactModes, PainleveRodIndeterminateAndInconsistent) {
  // Rod of Brogliato 2014 §2.3.3 (θ = atan 2, μ = 2 > μ_c = 4/3, σ = −1): α < 0. With β < 0 (fast
  // rotation) both slip (λ_n = β/α > 0) and separation are consistent ⇒ exactly two solutions; with
  // β > 0 none.
  const double th = std::atan(2.0), s = std::sin(th);
  const double thdot = std::sqrt(2 * kG / s);
  ContactModeSettings cs;
  auto st = test::painleve_rod(1, 1, th, thdot, -1.0, 2.0);
  auto r = contact_modes(st, cs);
  ASSERT_EQ(r.solutions.size(), 2u);
  const auto p = painleve_single(st, 0);
  EXPECT_EQ(p.kind, PainleveCase::indeterminate);
  bool saw_slip = false, saw_sep = false;
  for (const auto& sol : r.solutions) {
    if (sol.contacts[0].mode == ContactMode::slip) {
      saw_slip = true;
      EXPECT_NEAR(sol.contacts[0].lambda_n, p.lambda_n, 1e-8 * std::abs(p.lambda_n));
    }
    if (sol.contacts[0].mode == ContactMode::separate) saw_sep = true;
  }
  EXPECT_TRUE(saw_slip && saw_sep);
  expect_same_sets(r, contact_modes_by_enumeration(st, cs));
  // Inconsistent: θ̇ = 0 (β = g > 0).
  st = test::painleve_rod(1, 1, th, 0.0, -1.0, 2.0);
  r = contact_modes(st, cs);
  EXPECT_FALSE(r.exists());
  EXPECT_EQ(r.status, Status::infeasible);
  EXPECT_FALSE(contact_modes_by_enumeration(st, cs).exists());
  // Slip case (μ = 0.5): unique, λ_n = β/α.
  st = test::painleve_rod(1, 1, th, 0.0, -1.0, 0.5);
  r = contact_modes(st, cs);
  ASSERT_TRUE(r.unique());
  EXPECT_NEAR(r.solutions[0].contacts[0].lambda_n, painleve_single(st, 0).lambda_n, 1e-9);
}

TEST(ContactModes, RockingBlockLcpMatchesEnumerationAndClosedForms) {
  // Rocking block of Brogliato, Kövecses & Acary 2020 §3: frictionless (μ = 0) mode LCP has matrix
  // D_nn = J_nuᵀM⁻¹J_nu with D_nn,11 = 1/m + (l sθ + L cθ)²/(4I_G),
  // D_nn,12 = 1/m + (l²s² − L²c²)/(4I_G), and under gravity
  // q = −J_nuᵀM⁻¹F + c_nu = (−g + ½θ̇²(l cθ − L sθ), −g + ½θ̇²(l cθ + L sθ)).
  const double m = 1.5, l = 1.0, L = 2.0, th = 0.2, thd = 0.7;
  const double s = std::sin(th), c = std::cos(th), IG = m * (l * l + L * L) / 12;
  ContactModeSettings cs;
  cs.velocity_tolerance = 10.0;  // both corners treated as closed for the matrix check
  auto st = test::rocking_block(m, l, L, th, thd, Vector3(0, m * kG, 0), 0.0, 0.0);
  auto r = contact_modes(st, cs);
  ASSERT_EQ(r.lcp.M.rows(), 2);
  EXPECT_NEAR(r.lcp.M(0, 0), 1 / m + std::pow(l * s + L * c, 2) / (4 * IG), 1e-12);
  EXPECT_NEAR(r.lcp.M(0, 1), 1 / m + (l * l * s * s - L * L * c * c) / (4 * IG), 1e-12);
  EXPECT_NEAR(r.lcp.M(1, 1), 1 / m + std::pow(l * s - L * c, 2) / (4 * IG), 1e-12);
  EXPECT_NEAR(r.lcp.q[0], -kG + 0.5 * thd * thd * (l * c - L * s), 1e-12);
  EXPECT_NEAR(r.lcp.q[1], -kG + 0.5 * thd * thd * (l * c + L * s), 1e-12);
  // Cross-check: LCP route = enumeration route over a sweep of horizontal pushes and frictions
  // (block resting flat, θ = 0, both corners sticking candidates).
  for (double fx : {0.0, 3.0, 8.0, 14.0, 25.0})
    for (double mu : {0.2, 0.6, 1.5}) {
      auto flat = test::rocking_block(1.0, 1.0, 2.0, 0.0, 0.0, Vector3(-fx, kG, 0), mu, mu);
      auto a = contact_modes(flat);
      auto b = contact_modes_by_enumeration(flat);
      SCOPED_TRACE(testing::Message() << "fx = " << fx << " mu = " << mu);
      EXPECT_TRUE(a.exists());
      expect_same_sets(a, b);
    }
}

TEST(ContactModes, BaumgarteAndSoftening) {
  // Particle (m = 2) resting with gap g = −1e-4 (penetration), Baumgarte β = 10:
  // w = ÿ + β²g = 0 ⇒ ÿ = 0.01 ⇒ λ_n = m(g₀ + 0.01). Softening γ = 0.05: ÿ + γλ = 0 with
  // ÿ = (λ − mg₀)/m ⇒ λ = mg₀/(1 + mγ).
  const double m = 2.0;
  ContactModeSettings cs;
  cs.gap_tolerance = 1e-3;
  auto st = particle(m, 0.5, 0.0, 0.0);
  st.constraints[0].gap = -1e-4;
  st.constraints[0].baumgarte_beta = 10.0;
  auto r = contact_modes(st, cs);
  ASSERT_TRUE(r.unique());
  EXPECT_NEAR(r.solutions[0].contacts[0].lambda_n, m * (kG + 0.01), 1e-9);
  st = particle(m, 0.5, 0.0, 0.0);
  st.constraints[0].gamma = 0.05;
  r = contact_modes(st, cs);
  ASSERT_TRUE(r.unique());
  EXPECT_NEAR(r.solutions[0].contacts[0].lambda_n, m * kG / (1 + m * 0.05), 1e-9);
  EXPECT_NEAR(contact_modes_by_enumeration(st, cs).solutions.at(0).contacts[0].lambda_n,
              m * kG / (1 + m * 0.05), 1e-9);
}

TEST(ContactModes, BilateralPendulumWithFloor) {
  // Constrained pendulum of Brogliato 2014 §2.3.7 at θ = 0.5 (m = 1.7, l = 0.9): A on x = 0
  // (bilateral, frictionless), B on y ≥ 0 (frictionless). At rest under gravity the normal force at
  // B is positive; q̈ must satisfy both constraint rows: ∇h₁ᵀq̈ = 0 and ∇h₂ᵀq̈ = 0 (c = 0 at rest).
  const double m = 1.7, l = 0.9, th = 0.5, s = std::sin(th), c = std::cos(th);
  ContactState st =
      test::make_state(2, Vector3(m, m, m * l * l / 12).asDiagonal(), Vector3(0, m * kG, 0));
  Matrix tA(3, 1), tB(3, 1);
  tA << 0, 1, 0.5 * l * s;
  tB << 1, 0, -0.5 * l * c;
  st.constraints.push_back(
      test::make_constraint("A", ConstraintKind::bilateral, 0, Vector3(1, 0, -0.5 * l * c), tA));
  st.constraints.push_back(
      test::make_constraint("B", ConstraintKind::unilateral, 0, Vector3(0, 1, 0.5 * l * s), tB));
  const auto r = contact_modes(st);
  ASSERT_TRUE(r.unique());
  const auto& sol = r.solutions[0];
  EXPECT_NEAR(st.constraints[0].normal.dot(sol.qddot), 0.0, 1e-10);
  EXPECT_NEAR(st.constraints[1].normal.dot(sol.qddot), 0.0, 1e-10);
  // Residual of M q̈ + F = Σ ∇h λ.
  const Vector res = st.M * sol.qddot + st.F - st.constraints[0].normal * sol.contacts[0].lambda_n -
                     st.constraints[1].normal * sol.contacts[1].lambda_n;
  EXPECT_LT(res.norm(), 1e-9);
  EXPECT_GT(sol.contacts[1].lambda_n, 0.0);
  expect_same_sets(r, contact_modes_by_enumeration(st));
  // Friction on a bilateral constraint is refused.
  st.constraints[0].mu = 0.3;
  EXPECT_THROW(contact_modes(st), std::invalid_argument);
}

TEST(ContactModes, ThreeDimensionalParticle) {
  // Particle on the plane z ≥ 0 (3D): stick iff ‖f_t‖ ≤ μmg, otherwise slip along f_t/‖f_t‖ with
  // λ_t = −μmg f_t/‖f_t‖.
  const double m = 1.0, mu = 0.4;
  auto make = [&](double fx, double fy) {
    ContactState s = test::make_state(3, m * Matrix::Identity(3, 3), Vector3(-fx, -fy, m * kG));
    Matrix t(3, 2);
    t << 1, 0, 0, 1, 0, 0;
    s.constraints.push_back(
        test::make_constraint("floor", ConstraintKind::unilateral, mu, Vector3(0, 0, 1), t));
    return s;
  };
  auto r = contact_modes(make(2.0, 1.0));  // ‖f_t‖ = 2.236 < 3.924
  ASSERT_TRUE(r.unique());
  EXPECT_EQ(r.solutions[0].contacts[0].mode, ContactMode::stick);
  EXPECT_NEAR(r.solutions[0].contacts[0].lambda_t[0], -2.0, 1e-9);
  r = contact_modes(make(3.0, 4.0));  // ‖f_t‖ = 5 > 3.924: slip along (0.6, 0.8)
  ASSERT_TRUE(r.unique());
  const auto& e = r.solutions[0].contacts[0];
  EXPECT_EQ(e.mode, ContactMode::slip);
  EXPECT_NEAR(e.direction[0], 0.6, 1e-7);
  EXPECT_NEAR(e.direction[1], 0.8, 1e-7);
  EXPECT_NEAR(e.lambda_t[0], -mu * m * kG * 0.6, 1e-6);
  EXPECT_NEAR(r.solutions[0].qddot[1], (4.0 - mu * m * kG * 0.8) / m, 1e-6);
}

TEST(ContactModes, BadInput) {
  auto st = particle(1, 0.5, 0, 0);
  st.constraints[0].mu = -0.5;
  EXPECT_THROW(contact_modes(st), std::invalid_argument);
  st = particle(1, 0.5, 0, 0);
  st.M(0, 0) = std::nan("");
  EXPECT_THROW(contact_modes(st), std::invalid_argument);
  st = particle(1, 0.5, 0, 0);
  st.M(0, 1) = 0.2;
  EXPECT_THROW(contact_modes(st), std::invalid_argument);
  st = particle(1, 0.5, 0, 0);
  st.M(1, 1) = 0.0;  // singular M
  EXPECT_THROW(contact_modes(st), std::invalid_argument);
  st = particle(1, 0.5, 0, 0);
  st.F = Vector3(0, 0, 0);
  EXPECT_THROW(contact_modes(st), std::invalid_argument);
}

TEST(ContactModes, ThreeDimensionalParticleInCorner) {
  // Unit particle in the corner z ≥ 0 (floor), x ≥ 0 (wall); applied force (−f_w, f_y, −mg), i.e.
  // F = (f_w, −f_y, mg) on the left. Sticking (f_y small): q̈ = 0, but the multipliers are not
  // unique (the wall's vertical friction can carry part of the weight: λ_floor + λ_t,wall,z = mg).
  // Sliding (f_y > μ(mg + f_w)): both contacts slip along +y, z̈ = 0 makes the wall's slip purely
  // along y, so λ_floor = mg, λ_wall = f_w and ÿ = f_y − μ(mg + f_w).
  const double mu = 0.3, fw = 4.0;
  auto make = [&](double fy) {
    ContactState s = test::make_state(3, Matrix::Identity(3, 3), Vector3(fw, -fy, kG));
    Matrix tf(3, 2), tw(3, 2);
    tf << 1, 0, 0, 1, 0, 0;
    tw << 0, 0, 1, 0, 0, 1;
    s.constraints.push_back(
        test::make_constraint("floor", ConstraintKind::unilateral, mu, Vector3(0, 0, 1), tf));
    s.constraints.push_back(
        test::make_constraint("wall", ConstraintKind::unilateral, mu, Vector3(1, 0, 0), tw));
    return s;
  };
  const double limit = mu * (kG + fw);  // 4.143
  auto r = contact_modes(make(3.0));
  ASSERT_TRUE(r.unique());
  EXPECT_EQ(r.solutions[0].contacts[0].mode, ContactMode::stick);
  EXPECT_LT(r.solutions[0].qddot.norm(), 1e-9);
  EXPECT_FALSE(r.multipliers_unique);
  r = contact_modes(make(6.0));
  ASSERT_TRUE(r.unique());
  EXPECT_NEAR(r.solutions[0].qddot[1], 6.0 - limit, 1e-6);
  EXPECT_EQ(r.solutions[0].contacts[0].mode, ContactMode::slip);
  EXPECT_EQ(r.solutions[0].contacts[1].mode, ContactMode::slip);
  EXPECT_NEAR(r.solutions[0].contacts[0].direction[1], 1.0, 1e-6);  // floor tangents (x, y)
  EXPECT_NEAR(r.solutions[0].contacts[1].direction[0], 1.0, 1e-6);  // wall tangents (y, z)
  EXPECT_NEAR(r.solutions[0].contacts[0].lambda_n, kG, 1e-6);
  EXPECT_NEAR(r.solutions[0].contacts[1].lambda_n, fw, 1e-6);
  EXPECT_TRUE(r.multipliers_unique);
}
