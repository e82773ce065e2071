// Event-driven Painlevé policy (case 3 → tangential impact or stop) and per-contact Baumgarte
// stabilization. Answers derived in the comments.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/sim/simulation.hpp"
#include "systems.hpp"
#include "rigid_worlds.hpp"

namespace moreau {
namespace {

using test::kG;

// Uniform rod of tests/sim/systems.hpp (m = 1, half-length ℓ = 0.5, I_c = mℓ²/3 = 1/12), tip on
// the floor at θ = 0.8 rad from the vertical, μ = 2, at rest except Ẋ = 1 m/s: the tip slides
// with u_t = 1 (σ = +1), u_n = 0. With M⁻¹ = diag(1, 1, 12), ∇h = (0, 1, ℓs), H_t = (1, 0, ℓc):
//   W_nn = 1 + 3s², W_nt = 3sc, W_tt = 1 + 3c², det W = 4;
//   α = W_nn − μσW_nt = 1 + 3s² − 6sc = −0.455 < 0,  β = g − ℓcθ̇² = g > 0  → Painlevé case 3
// (Painlevé's table, docs/math/painleve.md: neither slip nor separation is consistent).
struct RodCase3 {
  double theta = 0.8, mu = 2.0, ell = 0.5;
  double s = std::sin(theta), c = std::cos(theta);
  double Wnn = 1 + 3 * s * s, Wnt = 3 * s * c, Wtt = 1 + 3 * c * c, det = Wnn * Wtt - Wnt * Wnt;
  Vector q0() const { return Vector3(0.0, ell * c, theta); }
  Vector v0() const { return Vector3(1.0, 0.0, 0.0); }
};

// Policy "tangential_impact": the impulsive transition ends in sticking, u⁺ = 0, so the impulse is
// P = −W⁻¹u⁻ = −W⁻¹(0, 1) = (W_nt, −W_nn)/det = (0.3748, −0.6360) N·s, inside the cone
// (|P_t|/P_n = W_nn/W_nt = 1.70 < μ = 2; for one contact this always holds in case 3, since
// α = W_nn − μσW_nt < 0 ⟺ μ > W_nn/(σW_nt)), and v⁺ = v⁻ + M⁻¹(∇h P_n + H_t P_t). The kinetic
// energy drops by ½u⁻ᵀW⁻¹u⁻ = ½ W_nn/det = 0.318 J. Afterwards the rod pivots on its stuck tip: at
// rest the pivot needs |λ_t|/λ_n = ¾sc/(1 − ¾s²) = 0.61 < μ, so it keeps sticking.
TEST(EventPainleve, Case3TangentialImpactSticksTheTip) {
  const RodCase3 k;
  auto rod = test::rod_on_floor(k.mu);
  SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 0.05};
  ASSERT_EQ(st.event_driven.painleve_policy, PainlevePolicy::tangential_impact);  // the default
  const auto r = simulate(*rod, st, k.q0(), k.v0());
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  ASSERT_FALSE(r.events.empty());
  const auto& ev = r.events.front();
  EXPECT_EQ(ev.kind, EventKind::painleve);
  EXPECT_EQ(ev.contact, 0);
  EXPECT_DOUBLE_EQ(ev.t, 0.0);
  EXPECT_NE(ev.detail.find("case 3"), std::string::npos) << ev.detail;
  EXPECT_NE(ev.detail.find("tangential impact"), std::string::npos) << ev.detail;

  const double Pn = k.Wnt / k.det, Pt = -k.Wnn / k.det;
  ASSERT_LT(std::abs(Pt), k.mu * Pn);
  const Vector3 vplus(1.0 + Pt, Pn, 12.0 * k.ell * (k.s * Pn + k.c * Pt));
  // Records: the state before the jump, then after it (both at t = 0).
  ASSERT_GE(r.records(), 2);
  EXPECT_DOUBLE_EQ(r.t[0], 0.0);
  EXPECT_DOUBLE_EQ(r.t[1], 0.0);
  EXPECT_LT((r.v[0] - k.v0()).norm(), 1e-12);
  EXPECT_LT((r.v[1] - vplus).norm(), 1e-8) << r.v[1].transpose();
  EXPECT_NEAR(r.kinetic[1] - r.kinetic[0], -0.5 * k.Wnn / k.det, 1e-8);
  // Tip velocity after: zero.
  EXPECT_NEAR(r.v[1][1] + k.ell * k.s * r.v[1][2], 0.0, 1e-9);
  EXPECT_NEAR(r.v[1][0] + k.ell * k.c * r.v[1][2], 0.0, 1e-9);
  // Then it sticks for the rest of the run.
  ASSERT_FALSE(r.contacts.empty());
  for (const auto& cr : r.contacts) EXPECT_EQ(cr.mode, ContactMode::stick) << "t = " << cr.t;
  EXPECT_LT(r.max_penetration, 1e-8);
  EXPECT_LT(r.max_energy_gain, 1e-8);
}

// Policy "stop": the same state stops the run with status painleve, and the event names the
// contact (index 0).
TEST(EventPainleve, Case3StopPolicyStopsAndNamesTheContact) {
  const RodCase3 k;
  auto rod = test::rod_on_floor(k.mu);
  SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 0.05};
  st.event_driven.painleve_policy = PainlevePolicy::stop;
  const auto r = simulate(*rod, st, k.q0(), k.v0());
  EXPECT_EQ(r.status, SimulationStatus::painleve);
  ASSERT_EQ(r.events.size(), 1u);
  EXPECT_EQ(r.events[0].kind, EventKind::painleve);
  EXPECT_EQ(r.events[0].contact, 0);
  EXPECT_NE(r.events[0].detail.find("case 3"), std::string::npos);
  EXPECT_LT((r.v.back() - k.v0()).norm(), 1e-15);  // no jump applied
}

// Per-contact Baumgarte: a ball resting on the floor with a drift g₀ = −5e-7 m (allowed at the
// start) is pulled back by g̈ + 2αġ + β²g = 0 with g(0) = g₀, ġ(0) = 0:
//   α = β (critical): g = g₀(1 + βt)e^{−βt};   α < β: g = g₀e^{−αt}(cos ωt + (α/ω) sin ωt),
//   ω = √(β² − α²). The contact's own α, β (> 0) override the settings' (10, 10); a 0 falls back
// to the settings, each parameter separately.
double drift_exact(double g0, double al, double be, double t) {
  if (std::abs(al - be) < 1e-12) return g0 * (1.0 + be * t) * std::exp(-be * t);
  const double w = std::sqrt(be * be - al * al);
  return g0 * std::exp(-al * t) * (std::cos(w * t) + al / w * std::sin(w * t));
}

TEST(EventBaumgarte, ContactOwnAlphaBetaOverrideTheSettings) {
  const double g0 = -5e-7, r0 = 0.1;
  struct Case {
    double ca, cb, ea, eb;
  };  // contact α, β; expected α, β
  for (const Case& cs :
       {Case{0, 0, 10, 10}, Case{40, 40, 40, 40}, Case{3, 0, 3, 10}, Case{0, 25, 10, 25}}) {
    auto s = std::make_shared<CallbackSystem>(
        "ball", 2, 1, [](const Vector&) { return Matrix::Constant(1, 1, 1.0); },
        [](const Vector&, const Vector&, double) { return Vector::Constant(1, kG); });
    CallbackConstraint c;
    c.name = "floor/ball";
    c.baumgarte_alpha = cs.ca;
    c.baumgarte_beta = cs.cb;
    c.kinematics = [r0](const Vector& q, const Vector&) {
      ConstraintKinematics k;
      k.gap = q[0] - r0;
      k.normal = Vector::Ones(1);
      k.tangent = Matrix::Zero(1, 1);
      return k;
    };
    s->add_constraint(c);
    SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 0.5};
    const auto r = simulate(*s, st, Vector::Constant(1, r0 + g0), Vector::Zero(1));
    ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
    ASSERT_GT(r.records(), 10);
    for (Index k = 0; k < r.records(); ++k)
      ASSERT_NEAR(r.q[k][0] - r0, drift_exact(g0, cs.ea, cs.eb, r.t[k]), 1e-3 * std::abs(g0))
          << "contact alpha " << cs.ca << " beta " << cs.cb << ", t = " << r.t[k];
  }
}

// The same through a rigid world: the contact material's alpha, beta reach the integrator
// (RigidWorldSystem fills ContactConstraint::baumgarte_alpha/beta from ContactMaterial).
TEST(EventBaumgarte, RigidWorldMaterialAlphaBetaAreUsed) {
  const double g0 = -5e-7, r0 = 0.1;
  ContactMaterial mat;
  mat.alpha = 30.0;
  mat.beta = 30.0;
  auto w = test::world_with_floor(2, mat);
  RigidBody ball;
  ball.name = "ball";
  ball.mass = 1.0;
  ball.inertia = Matrix3::Identity() * (0.5 * r0 * r0);
  ball.pose = planar_pose(0.0, r0 + g0, 0.0);
  ball.shapes.push_back(make_sphere(r0));
  w->add_body(ball);
  RigidWorldSystem sys(w, CollisionSettings{.margin = INFINITY}, "ball");
  SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 0.3};
  const auto r = simulate(sys, st);
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  for (Index k = 0; k < r.records(); ++k)
    ASSERT_NEAR(r.q[k][1] - r0, drift_exact(g0, 30.0, 30.0, r.t[k]), 1e-3 * std::abs(g0))
        << "t = " << r.t[k];
}

}  // namespace
}  // namespace moreau
