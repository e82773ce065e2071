// Joint limits (unilateral bounds on a joint coordinate, reported as frictionless contacts) and
// the ball joint, under Moreau–Jean time stepping.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "moreau/contact/collision/world_contacts.hpp"
#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/sim/simulation.hpp"
#include "rigid_worlds.hpp"

namespace moreau {
namespace {

constexpr double kG = 9.81;
constexpr double kHalf = 0.5;  // half length of the rods, m
constexpr double kMass = 1.0;  // kg

// A thin rod (1 m, 1 kg) whose end at x = 0 is pinned to the world by a revolute joint about y,
// lying along +x at the start (horizontal); gravity −z swings it down. Its angle about +y is
// positive downwards (rotating +x towards −z), so the limit [−1, upper] stops it.
std::shared_ptr<RigidWorld> limited_pendulum(double upper) {
  auto w = std::make_shared<RigidWorld>(3);
  // a thin rod of length 2·kHalf: I = m L²/12 about its centre across its axis
  const double I = kMass * 4 * kHalf * kHalf / 12.0;
  RigidBody rod =
      test::box_body("rod", kMass, Vector3(kHalf, 0.01, 0.01), Vector3(1e-4, I, I).asDiagonal());
  rod.pose.position = Vector3(kHalf, 0, 1);
  w->add_body(rod);
  Joint pin;
  pin.name = "pin";
  pin.kind = JointKind::revolute;
  pin.body_a = 0;
  pin.anchor_a = Vector3(-kHalf, 0, 0);
  pin.anchor_b = Vector3(0, 0, 1);
  pin.axis_a = Vector3::UnitY();
  pin.limited = true;
  pin.lower = -1.0;
  pin.upper = upper;
  w->add_joint(pin);
  return w;
}

SimulationResult run(std::shared_ptr<RigidWorld> w, double t_end, double dt = 1e-3) {
  RigidWorldSystem sys(std::move(w), CollisionSettings{}, "limits");
  SimulationSettings st{
      .integrator = Integrator::time_stepping, .t_end = t_end, .time_stepping = {.dt = dt}};
  st.solver.tolerance = 1e-10;
  return simulate(sys, st);
}

// The rod's angle from its pose: the rod's axis R e_x = (cos s, 0, −sin s).
double rod_angle(const RigidWorld& w, const Vector& q) {
  const Vector3 x = w.body_pose(q, 0).orientation * Vector3::UnitX();
  return std::atan2(-x.z(), x.x());
}

// A limited joint to the world is attached to a static body "world" (added), and its coordinate
// is the rotation angle about the axis.
TEST(JointLimits, CoordinateAndWorldBody) {
  auto w = limited_pendulum(0.5);
  ASSERT_EQ(w->body_count(), 2);
  EXPECT_EQ(w->body(1).name, "world");
  EXPECT_TRUE(w->body(1).is_static);
  Vector q = w->initial_positions();
  EXPECT_NEAR(w->joint_coordinate(q, 0), 0.0, 1e-15);
  // turn the rod by 0.3 rad about +y about its pin: the coordinate reads 0.3
  const Quaternion r(Eigen::AngleAxisd(0.3, Vector3::UnitY()));
  q.segment<3>(0) = Vector3(0, 0, 1) + r * Vector3(kHalf, 0, 0);
  q.segment<4>(3) << r.w(), r.x(), r.y(), r.z();
  EXPECT_NEAR(w->joint_coordinate(q, 0), 0.3, 1e-14);
  EXPECT_NEAR(rod_angle(*w, q), 0.3, 1e-14);
  // within the margin of the upper bound 0.5 → no; at 0.4995 → the upper limit contact, gap
  // 1 m × (0.5 − s), and its normal velocity is ρ·ṡ with the opposite sign
  const Quaternion r2(Eigen::AngleAxisd(0.4995, Vector3::UnitY()));
  q.segment<3>(0) = Vector3(0, 0, 1) + r2 * Vector3(kHalf, 0, 0);
  q.segment<4>(3) << r2.w(), r2.x(), r2.y(), r2.z();
  const auto contacts = detect_contacts(*w, q);
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts[0].name, "pin/upper");
  EXPECT_NEAR(contacts[0].gap, 0.0005, 1e-12);
  EXPECT_EQ(contact_name(*w, contacts[0]), "pin/upper");
  Vector v = Vector::Zero(6);
  v.segment<3>(3) = Vector3(0, 2.0, 0);  // ṡ = 2 rad/s about +y …
  v.segment<3>(0) = Vector3(0, 2.0, 0).cross(r2 * Vector3(kHalf, 0, 0));  // … about the pin
  const BodyPairRows rows = contact_rows(*w, q, v, contacts[0]);
  EXPECT_NEAR(rows.apply(v)[0], -2.0, 1e-12);  // u_n = −ρ ṡ: closing the upper gap
}

// Released horizontally, the rod reaches the limit s = 0.6 rad at the time of the free pendulum
// (quadrature of dt = ds/ṡ with ½ I_p ṡ² = m g L/2 sin s, I_p = m L²/3), stops there (inelastic
// limit) and stays: s never exceeds the limit by more than the solver's tolerance.
TEST(JointLimits, RevoluteLimitStopsAFallingRod) {
  const double limit = 0.6;
  auto w = limited_pendulum(limit);
  const auto r = run(w, 1.0);
  ASSERT_GT(r.records(), 10);
  // time to reach the limit, s = u², ds = 2u du, ṡ = sqrt(2 m g (L/2) sin s / I_p)
  const double L = 2 * kHalf, Ip = kMass * L * L / 3.0;
  double t_hit = 0.0;
  const int n = 20000;
  const double umax = std::sqrt(limit);
  for (int k = 0; k < n; ++k) {
    const double u = (k + 0.5) * umax / n;
    const double sdot = std::sqrt(2 * kMass * kG * (L / 2) * std::sin(u * u) / Ip);
    t_hit += 2 * u / sdot * (umax / n);
  }
  double first = NAN, worst = -1.0;
  for (Index k = 0; k < r.records(); ++k) {
    const double s = rod_angle(*w, r.q[k]);
    worst = std::max(worst, s);
    if (std::isnan(first) && s >= limit - 1e-6) first = r.t[k];
  }
  EXPECT_LE(worst, limit + 1e-6);
  EXPECT_NEAR(first, t_hit, 3e-3);  // three steps of 1 ms
  EXPECT_NEAR(rod_angle(*w, r.q.back()), limit, 1e-6);
  EXPECT_LT(r.v.back().norm(), 1e-6);
}

// A 1 kg block on a vertical slider (prismatic joint along z to the world) falls from 0 with a
// lower limit at −0.3 m: it falls freely (z = −g t²/2) until it reaches it, then rests there.
TEST(JointLimits, PrismaticLowerLimitHoldsAFallingBlock) {
  auto w = std::make_shared<RigidWorld>(3);
  w->add_body(test::box_body("block", 1.0, Vector3::Constant(0.1), Matrix3::Identity() * 0.01));
  Joint slider;
  slider.kind = JointKind::prismatic;
  slider.body_a = 0;
  slider.axis_a = Vector3::UnitZ();
  slider.limited = true;
  slider.lower = -0.3;
  slider.upper = INFINITY;
  w->add_joint(slider);
  const auto r = run(w, 0.5);
  const double t_hit = std::sqrt(2 * 0.3 / kG);
  for (Index k = 0; k < r.records(); ++k) {
    const double z = r.q[k][2];
    EXPECT_GE(z, -0.3 - 1e-9) << "t = " << r.t[k];
    if (r.t[k] < t_hit - 0.01) {
      EXPECT_NEAR(z, -0.5 * kG * r.t[k] * r.t[k], 5e-3);
    }
  }
  EXPECT_NEAR(r.q.back()[2], -0.3, 1e-7);  // at rest on the limit, to θ h v of the last impact
  EXPECT_NEAR(r.v.back()[2], 0.0, 1e-9);
}

// A spherical pendulum: a uniform 1 m rod (1 kg) hanging from a ball joint at its top end,
// started at 3 rad/s about −y. Free, it swings to the angle of ½ I_p ω² = m g (L/2)(1 − cos s),
// I_p = m L²/3 (s ≈ 0.805 rad), with its pivot held; a cone of half angle 0.4 rad stops it
// there (inelastic: it then falls back).
TEST(JointLimits, BallJointConeLimit) {
  const double w0 = 3.0, L = 1.0;
  for (const bool limited : {false, true}) {
    auto w = std::make_shared<RigidWorld>(3);
    RigidBody rod;
    rod.name = "rod";
    rod.mass = 1.0;
    rod.inertia = Vector3(L * L / 12, L * L / 12, 1e-3).asDiagonal();
    rod.pose.position = Vector3(0, 0, -L / 2);
    rod.angular_velocity = Vector3(0, -w0, 0);
    rod.linear_velocity = Vector3(0.5 * L * w0, 0, 0);  // ω × (p − pivot): the pivot at rest
    w->add_body(rod);
    Joint ball;
    ball.name = "ball";
    ball.kind = JointKind::ball;
    ball.body_a = 0;
    ball.anchor_a = Vector3(0, 0, L / 2);
    ball.limited = limited;
    ball.upper = 0.4;
    w->add_joint(ball);
    EXPECT_EQ(ball.rows(3), 3);
    const auto r = run(w, 1.0);
    double widest = 0.0, residual = 0.0;
    for (Index k = 0; k < r.records(); ++k) {
      const Vector3 axis = w->body_pose(r.q[k], 0).orientation * Vector3::UnitZ();
      widest = std::max(widest, std::acos(std::clamp(axis.z(), -1.0, 1.0)));
      residual = std::max(residual, w->joint_rows(r.q[k], r.v[k], 0).residual.norm());
    }
    const double free_swing = std::acos(1.0 - (L * L / 3) * w0 * w0 / (kG * L));
    if (limited) {
      // held to the post-stabilization's few outer projections (time_stepping.cpp)
      EXPECT_LE(widest, 0.4 + 1e-5);
      EXPECT_GE(widest, 0.4 - 1e-5);
    } else {
      EXPECT_NEAR(widest, free_swing, 5e-3);  // θ = ½ keeps the energy of this swing to O(h²)
    }
    EXPECT_LT(residual, 1e-5);
  }
}

}  // namespace
}  // namespace moreau
