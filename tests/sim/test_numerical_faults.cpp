// Numerical faults are reported, never passed on (issue 15 §4): a NaN or an infinity appearing
// in a run stops it at that step with status diverged, the time and the entry named, its records
// finite; energy gained beyond the integration tolerance is a warning.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "moreau/common/error.hpp"
#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/model/callback_system.hpp"
#include "moreau/sim/simulation.hpp"
#include "rigid_worlds.hpp"
#include "systems.hpp"

namespace moreau {
namespace {

// A ball falling onto the floor (q = y from 1 m, r = 0.1), whose force turns NaN at t ≥ 0.2 s
// (before the impact at t = √(2·0.9/g) = 0.43 s).
std::shared_ptr<CallbackSystem> ball_whose_force_fails() {
  auto s = std::make_shared<CallbackSystem>(
      "failing_ball", 2, 1, [](const Vector&) { return Matrix::Constant(1, 1, 1.0); },
      [](const Vector&, const Vector&, double t) {
        return Vector::Constant(1, t >= 0.2 ? std::numeric_limits<double>::quiet_NaN() : test::kG);
      });
  CallbackConstraint c;
  c.name = "floor/ball";
  c.kinematics = [](const Vector& q, const Vector&) {
    ConstraintKinematics k;
    k.gap = q[0] - 0.1;
    k.normal = Vector::Ones(1);
    k.tangent = Matrix::Zero(1, 1);
    return k;
  };
  s->add_constraint(c);
  s->set_names({"y"});
  s->initial_q = Vector::Constant(1, 1.0);
  s->initial_v = Vector::Zero(1);
  return s;
}

TEST(NumericalFaults, NaNStopsTheRunAsDivergedNamingTheEntry) {
  auto sys = ball_whose_force_fails();
  for (Integrator in : {Integrator::time_stepping, Integrator::event_driven}) {
    SCOPED_TRACE(to_string(in));
    SimulationSettings st{.integrator = in, .t_end = 1.0};
    const SimulationResult r = simulate(*sys, st);
    ASSERT_EQ(r.status, SimulationStatus::diverged) << r.message;
    EXPECT_NE(r.message.find("diverged at t = "), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("'y"), std::string::npos) << r.message;  // the entry, by name
    EXPECT_NE(r.message.find("nan"), std::string::npos) << r.message;
    // stopped right after 0.2 s (one time step, or the event driver's step), records finite
    EXPECT_LE(r.t.back(), 0.2 + 1e-12);
    EXPECT_GT(r.t.back(), 0.15);
    for (size_t k = 0; k < r.t.size(); ++k) {
      ASSERT_TRUE(std::isfinite(r.q[k][0]) && std::isfinite(r.v[k][0])) << k;
      ASSERT_TRUE(std::isfinite(r.kinetic[k] + r.potential[k])) << k;
    }
  }
}

// A ball on the floor pushed by a force the potential does not know (F = −2 N on the left side,
// i.e. +2 N upwards... against gravity 9.81 N: it stays down) versus a frictionless particle
// sped up by a force missing from its potential: the second gains ½ m (a t)² = 2 J over 1 s at
// a = 2 m/s² and gets the warning, the first none.
TEST(NumericalFaults, EnergyGainedBeyondTheToleranceIsAWarning) {
  auto pushed = std::make_shared<CallbackSystem>(
      "pushed", 2, 1, [](const Vector&) { return Matrix::Constant(1, 1, 1.0); },
      [](const Vector&, const Vector&, double) { return Vector::Constant(1, -2.0); });
  pushed->set_names({"x"});
  pushed->initial_q = Vector::Zero(1);
  pushed->initial_v = Vector::Zero(1);
  SimulationSettings st{.integrator = Integrator::time_stepping, .t_end = 1.0};
  const SimulationResult r = simulate(*pushed, st);
  EXPECT_NEAR(r.max_energy_gain, 2.0, 1e-9);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("energy gained 2 J"), std::string::npos) << r.warnings[0];

  auto ball = test::bouncing_ball(0.5);
  ball->initial_q = Vector::Constant(1, 0.5);
  ball->initial_v = Vector::Zero(1);
  const SimulationResult b = simulate(*ball, st);
  EXPECT_EQ(b.status, SimulationStatus::completed);
  EXPECT_TRUE(b.warnings.empty()) << b.warnings.front();
}

// Found by fuzz_simulate (fuzz/corpus/simulate/regression-nan-in-step-problem.json): a box hit at
// 10⁶ m/s with h = 10 ms spun up, its gyroscopic term (explicit in Moreau–Jean) doubled the spin
// every step, and the overflow first showed in a step's contact problem, whose check threw
// std::invalid_argument out of simulate (the program called it bad input, exit 2). It now ends
// the run as diverged at that step, every record finite. Since the projection takes every
// detected contact as a row (contact/rigid_step_contacts.cpp), 10⁶ m/s leaves the boxes apart and
// the run completes; at 10¹⁰⁰ m/s the same scene still overflows within a few steps.
TEST(NumericalFaults, OverflowInAStepProblemEndsTheRunAsDiverged) {
  ContactMaterial mat;
  auto w = test::world_with_floor(3, mat);
  RigidBody a = test::box_body("a", 1.0, Vector3(1.5, 0.5, 0.5),
                               Vector3(1.0 / 6, 5.0 / 6, 5.0 / 6).asDiagonal().toDenseMatrix());
  a.pose.position = Vector3(0, 0, 0.5);
  w->add_body(a);
  RigidBody b = test::box_body("b", 1.0, Vector3(0.5, 0.5, 0.5), Matrix3::Identity() * (1.0 / 6));
  b.pose.position = Vector3(0, 0, 1.6);
  b.linear_velocity = Vector3(0, 0, -1e100);
  w->add_body(b);
  RigidWorldSystem sys(w, CollisionSettings{.margin = 0.02}, "fast_box");
  SimulationSettings st{
      .integrator = Integrator::time_stepping, .t_end = 0.3, .time_stepping = {.dt = 0.01}};
  SimulationResult r;
  ASSERT_NO_THROW(r = simulate(sys, st));
  ASSERT_EQ(r.status, SimulationStatus::diverged) << r.message;
  EXPECT_EQ(r.message.rfind("diverged at t = ", 0), 0u) << r.message;
  EXPECT_LT(r.t.back(), 0.3);
  for (Index k = 0; k < r.records(); ++k) {
    ASSERT_TRUE(all_finite(r.q[k]) && all_finite(r.v[k])) << k;
    ASSERT_TRUE(std::isfinite(r.kinetic[k] + r.potential[k])) << k;
  }
}

}  // namespace
// A rigid world whose contacts come and go (finite margin) given to the event-driven integrator:
// its modes are per constraint of the start, so the run stops with an error naming both counts
// (it looped on out-of-range modes before) instead of integrating with the wrong constraints.
TEST(NumericalFaults, EventDrivenRefusesAConstraintSetThatChanges) {
  ContactMaterial mat;
  mat.restitution = 0.5;
  auto w = test::world_with_floor(3, mat);
  // r = 0.05 m at 0.55 m: its contact appears 0.02 m above the floor
  w->add_body(test::sphere_body("ball", 0.1, 0.05, Vector3(0.0, 0.0, 0.55)));
  RigidWorldSystem sys(w, CollisionSettings{.margin = 0.02}, "ball");
  SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 0.9};
  try {
    simulate(sys, st);
    FAIL() << "the event-driven run accepted a changing constraint set";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("had 0 at the start and has 1 at t = 0.3"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace moreau
