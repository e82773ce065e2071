// The event-driven mode choice on top of analysis::contact_modes, its only mode enumeration (planar
// and spatial systems, with and without joints): the chosen mode agrees with the analysis layer,
// and the selection rules give the analytic motion of multi-contact systems (answers derived in
// the comments).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "moreau/analysis/contact_modes.hpp"
#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/sim/simulation.hpp"
#include "systems.hpp"
#include "rigid_worlds.hpp"

namespace moreau {
namespace {

using test::kG;

// Event-driven run of one box on the floor of a d-dimensional world with friction μ, from the
// box's pose and velocity, until t_end.
SimulationResult box_on_floor(int d, double mu, const RigidBody& box, double t_end) {
  ContactMaterial mat;
  mat.mu = mu;
  auto w = test::world_with_floor(d, mat);
  w->add_body(box);
  RigidWorldSystem sys(w, CollisionSettings{.margin = INFINITY}, box.name);
  SimulationSettings st{.integrator = Integrator::event_driven, .t_end = t_end};
  return simulate(sys, st);
}

// Particle at rest on a 30° incline: it slides when μ < tan 30° = 0.577 (μ = 0.5) and sticks
// otherwise (μ = 0.7). The event-driven run's first mode must be that, and the one mode
// analysis::contact_modes finds at the initial state.
TEST(EventModes, InitialModeIsTheContactModesSolution) {
  const double alpha = M_PI / 6;
  for (double mu : {0.5, 0.7}) {
    auto sys = test::particle_on_incline(alpha, mu);
    const Vector q0 = Vector2::Zero(), v0 = Vector2::Zero();
    const ContactModeAnalysis an = contact_modes(sys->contact_state(q0, v0, 0.0));
    ASSERT_TRUE(an.unique()) << mu;
    const std::string expected = mu < std::tan(alpha) ? "slip" : "stick";
    EXPECT_EQ(to_string(an.solutions.front().contacts.front().mode), expected) << mu;
    SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 0.05};
    const auto r = simulate(*sys, st, q0, v0);
    ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
    ASSERT_FALSE(r.contacts.empty());
    EXPECT_EQ(to_string(r.contacts.front().mode), expected) << mu;
  }
}

// Planar box (2·0.2 m wide, 2·0.1 m high, 1 kg) resting flat on the floor, pushed to v_x = 1 m/s,
// μ = 0.5: both bottom corners slide, the box decelerates at μg (ΣF_x = −μ(λ₁ + λ₂) = −μmg; it
// does not tip since μ·0.1 < 0.2), stops at t* = v/(μg) = 0.20387 s after x* = v²/(2μg)
// = 0.10194 m, and both corners go slip → stick there (two closed resting contacts: the mode LCP
// of contact_modes with 8 variables and non-unique multipliers). Then it stays at rest.
TEST(EventModes, SlidingBoxStopsAtTheAnalyticTimeOnBothCorners) {
  RigidBody box = test::box_body("box", 1.0, Vector3(0.2, 0.1, 0.1),
                                 Matrix3::Identity() * ((0.4 * 0.4 + 0.2 * 0.2) / 12.0));
  box.pose.position = Vector3(0.0, 0.1, 0.0);
  box.linear_velocity = Vector3(1.0, 0.0, 0.0);
  const auto r = box_on_floor(2, 0.5, box, 0.4);
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  const double t_stop = 1.0 / (0.5 * kG), x_stop = 1.0 / (2 * 0.5 * kG);
  int stops = 0;
  for (const auto& e : r.events) {
    if (e.kind != EventKind::slip_to_stick) continue;
    ++stops;
    EXPECT_NEAR(e.t, t_stop, 1e-8);
  }
  EXPECT_EQ(stops, 2);
  for (const auto& e : r.events)
    EXPECT_TRUE(e.kind == EventKind::slip_to_stick) << to_string(e.kind) << " at " << e.t;
  EXPECT_NEAR(r.q.back()[0], x_stop, 1e-8);
  EXPECT_NEAR(r.q.back()[1], 0.1, 1e-8);
  EXPECT_LE(r.v.back().cwiseAbs().maxCoeff(), 1e-8);
}

// Spatial cube (0.2 m, 1 kg) resting flat on the floor on its four bottom corners, pushed to
// v = (0.5, 0.2, 0) m/s, μ = 0.8: it slides without tipping (about the leading edge, friction's
// moment μmg·0.1 = 0.78 N·m is below gravity's mg·0.1 = 0.98 N·m), decelerates at μg along −v/‖v‖,
// stops at t* = ‖v‖/(μg) = 0.068618 s at x* = v·‖v‖/(2μg). The corners are redundant contacts:
// separating one of them or sliding it is the same motion (α = S_ii > 0), which is no Painlevé
// case 4.
TEST(EventModes, SpatialCubeStopsAtTheAnalyticTimeWithoutPainleve) {
  RigidBody cube = test::box_body("cube", 1.0, Vector3(0.1, 0.1, 0.1),
                                  Matrix3::Identity() * (2 * 0.2 * 0.2 / 12.0));
  cube.pose.position = Vector3(0.0, 0.0, 0.1);
  cube.linear_velocity = Vector3(0.5, 0.2, 0.0);
  const auto r = box_on_floor(3, 0.8, cube, 0.15);
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  const double speed = std::hypot(0.5, 0.2), t_stop = speed / (0.8 * kG);
  const double travel = speed * speed / (2 * 0.8 * kG);
  int stops = 0;
  for (const auto& e : r.events) {
    EXPECT_NE(e.kind, EventKind::painleve) << e.detail;
    EXPECT_NEAR(e.t, t_stop, 1e-8) << to_string(e.kind);
    if (e.kind == EventKind::slip_to_stick) ++stops;
  }
  EXPECT_GE(stops, 3);
  EXPECT_NEAR(r.q.back()[0], travel * 0.5 / speed, 1e-8);
  EXPECT_NEAR(r.q.back()[1], travel * 0.2 / speed, 1e-8);
  EXPECT_NEAR(r.q.back()[2], 0.1, 1e-8);
  EXPECT_LE(r.v.back().cwiseAbs().maxCoeff(), 1e-8);
}

// Two particles (m₁ = 1, m₂ = 2 kg) on a floor with μ = 0.4, joined by a rigid rod (bilateral
// x₂ − x₁ = L) and pushed by F = 3 N on particle 1, moving at v₀ = 1 m/s. Both contacts slide:
// (m₁ + m₂) ẍ = F − μ(m₁ + m₂)g, so the pair decelerates at μg − F/(m₁ + m₂) = 2.924 m/s² and
// stops at t* = v₀/(μg − F/M) = 0.34200 s; since F < μMg = 11.77 N both contacts then stick and
// the pair stays at rest. The mode choice is contact_modes' LCP with the rod eliminated by its
// Schur complement.
TEST(EventModes, JointedParticlesStopAtTheAnalyticTime) {
  const double m1 = 1.0, m2 = 2.0, M = m1 + m2, mu = 0.4, F = 3.0, L = 0.5, v0 = 1.0;
  auto sys = std::make_shared<CallbackSystem>(
      "jointed_particles", 2, 4,
      [=](const Vector&) { return Matrix(Eigen::Vector4d(m1, m1, m2, m2).asDiagonal()); },
      [=](const Vector&, const Vector&, double) {
        return Vector(Eigen::Vector4d(-F, m1 * kG, 0, m2 * kG));
      });
  for (int k = 0; k < 2; ++k) {
    CallbackConstraint c;
    c.name = "floor/" + std::to_string(k);
    c.mu = mu;
    c.kinematics = [k](const Vector& q, const Vector&) {
      ConstraintKinematics kin;
      kin.gap = q[2 * k + 1];
      kin.normal = Eigen::Vector4d::Unit(2 * k + 1);
      kin.tangent = Eigen::Vector4d::Unit(2 * k);
      return kin;
    };
    sys->add_constraint(c);
  }
  CallbackConstraint rod;
  rod.name = "joint:rod";
  rod.kind = ConstraintKind::bilateral;
  rod.kinematics = [L](const Vector& q, const Vector&) {
    ConstraintKinematics kin;
    kin.gap = q[2] - q[0] - L;
    kin.normal = Eigen::Vector4d(-1, 0, 1, 0);
    return kin;
  };
  sys->add_constraint(rod);
  SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 0.6};
  const auto r = simulate(*sys, st, Eigen::Vector4d(0, 0, L, 0), Eigen::Vector4d(v0, 0, v0, 0));
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  const double decel = mu * kG - F / M, t_stop = v0 / decel, x_stop = v0 * v0 / (2 * decel);
  int stops = 0;
  for (const auto& e : r.events) {
    EXPECT_EQ(e.kind, EventKind::slip_to_stick) << to_string(e.kind) << " at " << e.t;
    EXPECT_NEAR(e.t, t_stop, 1e-8);
    ++stops;
  }
  EXPECT_EQ(stops, 2);
  EXPECT_NEAR(r.q.back()[0], x_stop, 1e-8);
  EXPECT_NEAR(r.q.back()[2], L + x_stop, 1e-8);
  EXPECT_LE(r.v.back().cwiseAbs().maxCoeff(), 1e-8);
}

}  // namespace
}  // namespace moreau
