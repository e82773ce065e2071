// The one Moreau–Jean loop driven a step at a time (sim/time_stepping.hpp, TimeSteppingRun):
// stepping it by hand gives simulate()'s run to the bit, in both schemes (its step policies), and
// the state between steps follows the free-fall and trapezoidal solutions derived here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/model/linear_system.hpp"
#include "moreau/sim/simulation.hpp"
#include "moreau/sim/time_stepping.hpp"
#include "rigid_worlds.hpp"

using namespace moreau;

namespace {

constexpr double kG = 9.81;  // m/s², the worlds' default gravity

// A ball (1 kg, r = 0.1 m) 0.3 m above the floor with e = 0.5: free fall, an impact at
// t = √(2·0.2/g) ≈ 0.202 s, a bounce.
RigidWorldSystem bouncing_ball() {
  ContactMaterial mat;
  mat.restitution = 0.5;
  auto w = test::world_with_floor(3, mat);
  w->add_body(test::sphere_body("ball", 1.0, 0.1, Vector3(0, 0, 0.3)));
  return RigidWorldSystem(w, CollisionSettings{.margin = 0.02}, "ball");
}

SimulationSettings stepping(TimeSteppingScheme scheme, double dt, double t_end) {
  SimulationSettings st;
  st.t_end = t_end;
  st.time_stepping.dt = dt;
  st.time_stepping.scheme = scheme;
  st.record_interval = 0.0;  // every step
  return st;
}

// The same run, step by step and in one call: every record, event and count equal.
void expect_same_run(const SimulationResult& a, const SimulationResult& b) {
  ASSERT_EQ(a.records(), b.records());
  for (Index k = 0; k < a.records(); ++k) {
    EXPECT_EQ(a.t[k], b.t[k]) << k;
    EXPECT_EQ(a.q[k], b.q[k]) << k;
    EXPECT_EQ(a.v[k], b.v[k]) << k;
  }
  ASSERT_EQ(a.contacts.size(), b.contacts.size());
  for (size_t k = 0; k < a.contacts.size(); ++k) {
    EXPECT_EQ(a.contacts[k].r_n, b.contacts[k].r_n) << k;
    EXPECT_EQ(a.contacts[k].gap, b.contacts[k].gap) << k;
  }
  ASSERT_EQ(a.events.size(), b.events.size());
  for (size_t k = 0; k < a.events.size(); ++k) EXPECT_EQ(a.events[k].t, b.events[k].t) << k;
  EXPECT_EQ(a.contact_names, b.contact_names);
  EXPECT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.message, b.message);
}

}  // namespace

// moreau's scheme on a rigid world (body-block layer): before the impact each step is
// v_{k+1} = v_k − g h, so v_z = −g k h; after it, the ball rises; driven by hand, the run is
// simulate()'s to the bit.
TEST(TimeSteppingRun, MoreauSchemeStepByStepIsTheWholeRun) {
  const RigidWorldSystem ball = bouncing_ball();
  const SimulationSettings st = stepping(TimeSteppingScheme::moreau, 1e-3, 0.4);
  TimeSteppingRun run(ball, st, ball.initial_q, ball.initial_v);
  EXPECT_EQ(run.steps_total(), 400);
  for (int k = 1; k <= 150; ++k) {  // 0.15 s: still falling (z = 0.3 − ½ g t² > 0.1)
    ASSERT_TRUE(run.step());
    EXPECT_NEAR(run.v()[2], -kG * k * 1e-3, 1e-12) << k;
    EXPECT_NEAR(run.t(), k * 1e-3, 1e-13) << k;
    EXPECT_EQ(run.result().q.back(), run.q());  // recorded every step
  }
  bool rose = false;
  while (run.step()) rose = rose || run.v()[2] > 0.5;
  EXPECT_TRUE(run.ended());
  EXPECT_FALSE(run.step());
  EXPECT_EQ(run.t(), 0.4);
  EXPECT_TRUE(rose);  // e = 0.5 of an impact at ≈ 1.98 m/s
  const SimulationResult by_hand = run.finish();
  EXPECT_EQ(by_hand.event_count(EventKind::impact), 1);
  expect_same_run(by_hand, simulate(ball, st));
}

// Siconos' scheme is a step policy of the same loop: its clock is t_k = k·h exactly, the
// trapezoidal rotation of m ẍ + k x = 0 (φ = 2 atan(ωh/2)) holds between steps, and driven by
// hand the run is simulate()'s to the bit.
TEST(TimeSteppingRun, SiconosSchemeStepByStepIsTheWholeRun) {
  LinearSystemData d;
  d.coordinates = {"x"};
  d.mass = Matrix::Constant(1, 1, 2.0);
  d.stiffness = Matrix::Constant(1, 1, 50.0);
  d.damping = Matrix::Zero(1, 1);
  const LinearSystem oscillator("oscillator", d);
  const double h = 0.05, w = 5.0;  // ω = √(50/2)
  SimulationSettings st = stepping(TimeSteppingScheme::siconos, h, 1.0);
  st.solver.name = "exact";
  TimeSteppingRun run(oscillator, st, Vector::Ones(1), Vector::Zero(1));
  const double phi = 2.0 * std::atan(w * h / 2.0);
  for (int k = 1; run.step(); ++k) {
    EXPECT_EQ(run.t(), k == 20 ? 1.0 : k * h) << k;
    EXPECT_NEAR(run.q()[0], std::cos(k * phi), 1e-12) << k;
  }
  expect_same_run(run.finish(), simulate(oscillator, st, Vector::Ones(1), Vector::Zero(1)));
}

// Both schemes on the same rigid world, through simulate(): the one loop with either policy
// gives a completed run whose impact comes at the free-fall time √(2·0.2/g) within a step.
TEST(TimeSteppingRun, BothSchemesFindTheImpactOfTheBall) {
  const RigidWorldSystem ball = bouncing_ball();
  const double t_impact = std::sqrt(2.0 * 0.2 / kG);
  for (const TimeSteppingScheme scheme :
       {TimeSteppingScheme::moreau, TimeSteppingScheme::siconos}) {
    const SimulationResult r = simulate(ball, stepping(scheme, 1e-3, 0.3));
    ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
    ASSERT_GE(r.event_count(EventKind::impact), 1) << static_cast<int>(scheme);
    const auto impact = std::find_if(r.events.begin(), r.events.end(),
                                     [](const auto& e) { return e.kind == EventKind::impact; });
    ASSERT_NE(impact, r.events.end());
    EXPECT_NEAR(impact->t, t_impact, 2e-3) << static_cast<int>(scheme);
  }
}
