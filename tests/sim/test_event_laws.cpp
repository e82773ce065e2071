// The event-driven simulator resolves impacts with each contact's law (ContactConstraint::law:
// newton, poisson, moreau; sim/impact_law.hpp). Each expected value is derived by hand in the
// comment above its test (Brogliato 2014 §3 for the laws).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/model/callback_system.hpp"
#include "moreau/sim/impact_law.hpp"
#include "moreau/sim/simulation.hpp"
#include "rigid_worlds.hpp"

namespace moreau {
namespace {

constexpr double kG = 9.81;  // m/s²

// A system with the laws of its constraints replaced (index i gets laws[i]).
class WithLaws : public LagrangianSystem {
 public:
  WithLaws(std::shared_ptr<const LagrangianSystem> base, std::vector<ImpactLaw> laws)
      : base_(std::move(base)), laws_(std::move(laws)) {}
  std::string name() const override { return base_->name(); }
  int dimension() const override { return base_->dimension(); }
  Index velocity_size() const override { return base_->velocity_size(); }
  double potential_energy(const Vector& q) const override { return base_->potential_energy(q); }
  ContactState contact_state(const Vector& q, const Vector& v, double t) const override {
    ContactState s = base_->contact_state(q, v, t);
    for (std::size_t i = 0; i < laws_.size() && i < s.constraints.size(); ++i)
      s.constraints[i].law = laws_[i];
    return s;
  }

 private:
  std::shared_ptr<const LagrangianSystem> base_;
  std::vector<ImpactLaw> laws_;
};

// Planar disk (r = 0.1 m, 1 kg) above the static floor y = 0 of a RigidWorld, centre at height
// y0, with the material (μ, e, law) of the scene format (the law travels through
// RigidWorldSystem into ContactConstraint::law). q = (x, y, θ).
std::shared_ptr<RigidWorldSystem> ball_world(ImpactLaw law, double e, double mu = 0.0,
                                             double y0 = 1.0) {
  ContactMaterial mat;
  mat.mu = mu;
  mat.restitution = e;
  mat.law = law;
  auto w = test::world_with_floor(2, mat);
  RigidBody ball;
  ball.name = "ball";
  ball.mass = 1.0;
  ball.inertia = Matrix3::Identity() * (0.5 * 0.1 * 0.1);
  ball.pose.position = Vector3(0.0, y0, 0.0);
  Shape disk;
  disk.kind = ShapeKind::sphere;
  disk.radius = 0.1;
  ball.shapes.push_back(disk);
  w->add_body(ball);
  // Event-driven: every feature pair, as the command line builds it
  // (io/scene/simulation_setup.hpp).
  return std::make_shared<RigidWorldSystem>(w, CollisionSettings{.margin = INFINITY}, "ball");
}

// Three unit-mass balls of radius 0.1 m on a line, no gravity, q = (x_0, x_1, x_2); contact i
// between balls i and i+1 (gap x_{i+1} − x_i − 0.2, ∇h_i = e_{i+1} − e_i) with restitution e[i].
std::shared_ptr<CallbackSystem> chain3(const std::vector<double>& e) {
  auto s = std::make_shared<CallbackSystem>(
      "chain", 2, 3, [](const Vector&) { return Matrix(Matrix::Identity(3, 3)); },
      [](const Vector&, const Vector&, double) { return Vector(Vector::Zero(3)); });
  for (int i = 0; i < 2; ++i) {
    CallbackConstraint c;
    c.name = "ball" + std::to_string(i) + "/ball" + std::to_string(i + 1);
    c.restitution = e[i];
    c.kinematics = [i](const Vector& q, const Vector&) {
      ConstraintKinematics k;
      k.gap = q[i + 1] - q[i] - 0.2;
      k.normal = Vector::Zero(3);
      k.normal[i] = -1.0;
      k.normal[i + 1] = 1.0;
      k.tangent = Matrix::Zero(3, 1);
      return k;
    };
    s->add_constraint(c);
  }
  return s;
}

std::vector<std::size_t> impact_events(const SimulationResult& r) {
  std::vector<std::size_t> k;
  for (std::size_t j = 0; j < r.events.size(); ++j)
    if (r.events[j].kind == EventKind::impact) k.push_back(j);
  return k;
}

// Apex heights of the ball after each impact: in free flight y + v_y²/(2g) is constant; taken at
// the first record after each impact.
std::vector<double> apexes(const SimulationResult& r) {
  std::vector<double> ti;
  for (std::size_t k : impact_events(r)) ti.push_back(r.events[k].t);
  std::vector<double> out;
  for (std::size_t k = 0; k + 1 < ti.size(); ++k)
    for (Index j = 0; j < r.records(); ++j)
      if (r.t[j] > ti[k] && r.t[j] < ti[k + 1]) {
        out.push_back(r.q[j][1] + r.v[j][1] * r.v[j][1] / (2 * kG));
        break;
      }
  return out;
}

std::string thrown_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no std::invalid_argument)";
}

// Ball dropped with its centre at 1 m, r = 0.1, e = 0.8, μ = 0: one frictionless contact with a
// diagonal Delassus w = 1/m. Newton: u_n⁺ = −e u_n⁻. Poisson: compression p_c = −u_n⁻/w, total
// (1 + e) p_c, so u_n⁺ = u_n⁻ + w(1 + e)p_c = −e u_n⁻. Moreau (45): q̇⁺ = q̇⁻ − (1 + e) q̇⁻ = −e q̇⁻
// for the vertical motion. So every law gives the apex above the contact height 0.9·e^{2n}.
TEST(EventLaws, BallDroppedOnTheFloorBouncesToESquaredApexesForEveryLaw) {
  for (const ImpactLaw impact_law : {ImpactLaw::newton, ImpactLaw::poisson, ImpactLaw::moreau}) {
    const std::string law = to_string(impact_law);
    auto sys = ball_world(impact_law, 0.8);
    SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 2.2};
    const auto r = simulate(*sys, st);
    ASSERT_EQ(r.status, SimulationStatus::completed) << law << ": " << r.message;
    const auto ap = apexes(r);
    ASSERT_GE(ap.size(), 3u) << law;
    for (std::size_t n = 0; n < ap.size(); ++n)
      EXPECT_NEAR(ap[n], 0.1 + 0.9 * std::pow(0.8, 2.0 * (n + 1)), 1e-8)
          << law << " apex " << n + 1;
    const auto ev = impact_events(r);
    ASSERT_FALSE(ev.empty());
    EXPECT_NE(r.events[ev.front()].detail.find("law = " + law), std::string::npos)
        << r.events[ev.front()].detail;
    EXPECT_LE(r.max_energy_gain, 1e-8) << law;
  }
}

// Three unit balls, all touching at t = 0, q̇⁻ = (1, 0, 0.1), e = 0.5 on both contacts:
// u⁻ = (x₁' − x₀', x₂' − x₁') = (−1, 0.1) (contact 1 closed but separating),
// Delassus W = [[2, −1], [−1, 2]], W⁻¹ = ⅓[[2, 1], [1, 2]], impulses p act as (−p₀, p₀ − p₁, p₁).
// newton (velocity level, w = e·min(u⁻, 0) = (−0.5, 0)): 0 ≤ p ⊥ u⁻ + Wp + w ≥ 0; both active:
//   Wp = (1.5, −0.1) → p = (29/30, 13/30) ≥ 0, q̇⁺ = (1/30, 16/30, 16/30).
// poisson: compression Wp_c = (1, −0.1) → p_c = (0.19/0.3, 0.08/0.3) ≥ 0, u_c = 0; restitution
//   0 ≤ z ⊥ W(e p_c + z) ≥ 0: We p_c = (0.5, −0.05) → z = (0, 0.025); p = 1.5 p_c + z = (0.95,
//   0.425), q̇⁺ = (0.05, 0.525, 0.525).
// moreau (LCP 0 ≤ p ⊥ Wp + (1 + e)u⁻ ≥ 0, the kinetic metric scales both rows by 1/√2):
//   pass 1: Wp = (1.5, −0.15) → p = (0.95, 0.4) ≥ 0, u⁺ = (0.5, −0.05), q̇ = (0.05, 0.55, 0.5):
//   contact 1 now approaches (a contact separating before the impact may approach after it when
//   N_ij < 0, docs/math/impact.md), so the simulator applies the law again on the closed contacts:
//   pass 2: 0 ≤ p ⊥ Wp + 1.5·(0.5, −0.05) ≥ 0 → p = (0, 0.0375), q̇⁺ = (0.05, 0.5125, 0.5375),
//   u⁺ = (0.4625, 0.025) ≥ 0, done. Three laws, three different outcomes.
TEST(EventLaws, ThreeBallChainTakesEachLawsOutcome) {
  const Vector q0 = Vector3(-0.2, 0.0, 0.2);
  const Vector v0 = Vector3(1.0, 0.0, 0.1);
  struct Case {
    ImpactLaw law;
    Vector3 v;
    int impacts;
  };
  const std::vector<Case> cases = {{ImpactLaw::newton, Vector3(1.0 / 30, 16.0 / 30, 16.0 / 30), 1},
                                   {ImpactLaw::poisson, Vector3(0.05, 0.525, 0.525), 1},
                                   {ImpactLaw::moreau, Vector3(0.05, 0.5125, 0.5375), 2}};
  for (const auto& c : cases) {
    WithLaws sys(chain3({0.5, 0.5}), {c.law, c.law});
    SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 0.1};
    const auto r = simulate(sys, st, q0, v0);
    ASSERT_EQ(r.status, SimulationStatus::completed) << to_string(c.law) << ": " << r.message;
    // the state before the initial impact is recorded first, then the state after it (both t = 0)
    ASSERT_GE(r.records(), 2);
    EXPECT_LE((r.v.front() - v0).norm(), 1e-15)
        << to_string(c.law) << ": " << r.v.front().transpose();
    EXPECT_EQ(r.t[1], 0.0);
    EXPECT_LE((r.v[1] - c.v).norm(), 1e-9) << to_string(c.law) << ": " << r.v[1].transpose();
    EXPECT_LE((r.v.back() - c.v).norm(), 1e-9)
        << to_string(c.law) << ": " << r.v.back().transpose();
    EXPECT_EQ(static_cast<int>(impact_events(r).size()), c.impacts) << to_string(c.law);
  }
}

// Same chain, ball 0 arrives at t = 0.5 s (gap 0.5 m, speed 1 m/s) on balls 1, 2 at rest and
// touching; e = (0, 1). u⁻ = (−1, 0), so newton and moreau solve the same LCP
// 0 ≤ p ⊥ u⁻ + Wp ≥ 0 ((I + E)u⁻ = u⁻ and e·min(u⁻, 0) = (0, 0)): p = W⁻¹(1, 0) = (2/3, 1/3),
// q̇⁺ = (1/3, 1/3, 1/3). poisson: p_c = (2/3, 1/3), u_c = 0, We p_c = W(0, 1/3) = (−1/3, 2/3)
// → z = (1/6, 0) (row 2: 2/3 − 1/6 = 1/2 ≥ 0); p = p_c + E p_c + z = (5/6, 2/3),
// q̇⁺ = (1/6, 1/6, 2/3): the restitution impulse of contact 1 throws ball 2 off.
TEST(EventLaws, PoissonDiffersFromNewtonWhenRestitutionsDiffer) {
  const Vector q0 = Vector3(-0.7, 0.0, 0.2);
  const Vector v0 = Vector3(1.0, 0.0, 0.0);
  struct Case {
    ImpactLaw law;
    Vector3 v;
  };
  const std::vector<Case> cases = {{ImpactLaw::newton, Vector3(1.0 / 3, 1.0 / 3, 1.0 / 3)},
                                   {ImpactLaw::moreau, Vector3(1.0 / 3, 1.0 / 3, 1.0 / 3)},
                                   {ImpactLaw::poisson, Vector3(1.0 / 6, 1.0 / 6, 2.0 / 3)}};
  for (const auto& c : cases) {
    WithLaws sys(chain3({0.0, 1.0}), {c.law, c.law});
    SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 1.0};
    const auto r = simulate(sys, st, q0, v0);
    ASSERT_EQ(r.status, SimulationStatus::completed) << to_string(c.law) << ": " << r.message;
    const auto ev = impact_events(r);
    ASSERT_FALSE(ev.empty()) << to_string(c.law);
    EXPECT_NEAR(r.events[ev.front()].t, 0.5, 1e-9) << to_string(c.law);
    // (the impact instant is located to ~1e-9 m of gap: velocities to ~1e-8)
    EXPECT_LE((r.v.back() - c.v).norm(), 1e-8)
        << to_string(c.law) << ": " << r.v.back().transpose();
  }
}

TEST(EventLaws, FrictionalContactWithAFrictionlessLawIsRefused) {
  auto sys = ball_world(ImpactLaw::poisson, 0.8, 0.3);
  SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 0.1};
  const std::string msg = thrown_message([&] { simulate(*sys, st); });
  EXPECT_NE(msg.find("poisson"), std::string::npos) << msg;
  EXPECT_NE(msg.find("mu = 0.3"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ball"), std::string::npos) << msg;
  // newton with friction is fine
  auto ok = ball_world(ImpactLaw::newton, 0.8, 0.3);
  EXPECT_NO_THROW(simulate(*ok, st));
}

// A pendulum-like joint row (bilateral x = 0) next to a floor contact with the moreau law.
TEST(EventLaws, FrictionlessLawNextToAJointIsRefused) {
  auto s = std::make_shared<CallbackSystem>(
      "slider", 2, 2, [](const Vector&) { return Matrix(Matrix::Identity(2, 2)); },
      [](const Vector&, const Vector&, double) { return Vector2(0.0, kG).eval(); });
  CallbackConstraint joint;
  joint.name = "joint:rail";
  joint.kind = ConstraintKind::bilateral;
  joint.kinematics = [](const Vector& q, const Vector&) {
    ConstraintKinematics k;
    k.gap = q[0];
    k.normal = Vector2(1.0, 0.0);
    k.tangent = Matrix::Zero(2, 1);
    return k;
  };
  s->add_constraint(joint);
  CallbackConstraint floor;
  floor.name = "floor/slider";
  floor.restitution = 0.5;
  floor.kinematics = [](const Vector& q, const Vector&) {
    ConstraintKinematics k;
    k.gap = q[1];
    k.normal = Vector2(0.0, 1.0);
    k.tangent = Matrix::Zero(2, 1);
    return k;
  };
  s->add_constraint(floor);
  WithLaws sys(s, {ImpactLaw::newton, ImpactLaw::moreau});
  SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 0.1};
  const std::string msg =
      thrown_message([&] { simulate(sys, st, Vector2(0.0, 1.0), Vector2::Zero()); });
  EXPECT_NE(msg.find("floor/slider"), std::string::npos) << msg;
  EXPECT_NE(msg.find("moreau"), std::string::npos) << msg;
  EXPECT_NE(msg.find("joint:rail"), std::string::npos) << msg;
}

// Contacts that impact together with different laws: the chain of the previous tests, all
// touching at t = 0 and ball 0 approaching.
TEST(EventLaws, DifferentLawsInOneImpactAreRefusedNamingBothContacts) {
  WithLaws sys(chain3({0.5, 0.5}), {ImpactLaw::newton, ImpactLaw::poisson});
  SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 0.1};
  const std::string msg =
      thrown_message([&] { simulate(sys, st, Vector3(-0.2, 0.0, 0.2), Vector3(1.0, 0.0, 0.0)); });
  EXPECT_NE(msg.find("ball0/ball1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("ball1/ball2"), std::string::npos) << msg;
  EXPECT_NE(msg.find("newton"), std::string::npos) << msg;
  EXPECT_NE(msg.find("poisson"), std::string::npos) << msg;
  // different laws on contacts that never impact together are fine: ball 2 far away
  EXPECT_NO_THROW(simulate(sys, st, Vector3(-0.2, 0.0, 5.0), Vector3(1.0, 0.0, 0.0)));
}

// The check the time-stepping integrator shares: only newton there.
TEST(EventLaws, CheckImpactLawsPerIntegrator) {
  auto sys = ball_world(ImpactLaw::poisson, 0.8, 0.0, 0.1);
  const ContactState s = sys->contact_state(sys->initial_q, sys->initial_v, 0.0);
  EXPECT_NO_THROW(check_impact_laws(s, Integrator::event_driven));
  const std::string msg = thrown_message([&] { check_impact_laws(s, Integrator::time_stepping); });
  EXPECT_NE(msg.find("time-stepping"), std::string::npos) << msg;
  EXPECT_NE(msg.find("poisson"), std::string::npos) << msg;
  auto nw = ball_world(ImpactLaw::newton, 0.8, 0.5, 0.1);
  EXPECT_NO_THROW(check_impact_laws(nw->contact_state(nw->initial_q, nw->initial_v, 0.0),
                                    Integrator::time_stepping));
  // the table has one row per law
  for (const ImpactLaw law : {ImpactLaw::newton, ImpactLaw::poisson, ImpactLaw::moreau})
    EXPECT_EQ(impact_law_rule(law).law, law);
  EXPECT_EQ(impact_law_rules().size(), 3u);
}

}  // namespace
}  // namespace moreau
