// Island sleeping of the body-block layer (StepContactSettings::sleep, docs/simulation.md
// §Sleeping): a resting island falls asleep (its velocities exactly zero), a contact with an
// awake body wakes it, and a sleeping stack keeps its pose.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/sim/simulation.hpp"
#include "rigid_worlds.hpp"

namespace moreau {
namespace {

// A 0.2 m cube (1 kg) resting exactly on the floor at x = 0, and a sphere (ρ = 5 cm, 0.5 kg)
// rolling without slip towards it along x at V = 2 m/s (ω_y = V/ρ): with no rolling resistance it
// keeps V, so it reaches the cube's face x = −0.1 when its centre is at x = −0.15, at
// t = (−0.15 − x₀)/V = 0.6 s from x₀ = −1.35 m. μ = 0.3 everywhere, e = 0.
std::shared_ptr<RigidWorld> box_and_rolling_sphere() {
  ContactMaterial mat;
  mat.mu = 0.3;
  auto w = test::world_with_floor(3, mat);
  RigidBody box =
      test::box_body("box", 1.0, Vector3::Constant(0.1), Matrix3::Identity() * (0.2 * 0.2 / 6.0));
  box.pose.position = Vector3(0, 0, 0.1);
  w->add_body(box);
  RigidBody ball;
  ball.name = "ball";
  ball.mass = 0.5;
  ball.inertia = Matrix3::Identity() * (0.4 * 0.5 * 0.05 * 0.05);
  ball.shapes.push_back(make_sphere(0.05));
  ball.pose.position = Vector3(-1.35, 0, 0.05);
  ball.linear_velocity = Vector3(2.0, 0, 0);
  ball.angular_velocity = Vector3(0, 2.0 / 0.05, 0);
  w->add_body(ball);
  return w;
}

SimulationResult run(bool sleep, double t_end) {
  RigidWorldSystem sys(box_and_rolling_sphere(), CollisionSettings{.margin = 0.02}, "roll");
  SimulationSettings st{
      .integrator = Integrator::time_stepping, .t_end = t_end, .time_stepping = {.dt = 1e-3}};
  st.time_stepping.contacts.sleep = sleep;
  return simulate(sys, st);
}

// The box's velocity (body 0 of the dynamic bodies: v entries 0…5) at record k.
Vector box_velocity(const SimulationResult& r, size_t k) { return r.v[k].head<6>(); }

TEST(Sleeping, ARestingBoxSleepsAndARollingSphereWakesIt) {
  const SimulationResult on = run(true, 1.0), off = run(false, 1.0);
  ASSERT_EQ(on.status, SimulationStatus::completed) << on.message;
  ASSERT_EQ(on.t.size(), off.t.size());
  bool moved_after = false;
  for (size_t k = 0; k < on.t.size(); ++k) {
    const double t = on.t[k];
    // asleep once quiet for sleep_time = 0.25 s, until the sphere comes within the detection
    // margin (2 cm, 10 ms before it touches at 0.6 s): the detected contact wakes the box at 0.59 s
    if (t > 0.26 && t < 0.589) EXPECT_TRUE(box_velocity(on, k).isZero(0.0)) << "t = " << t;
    // awake: without sleeping the box is at rest too, to the solver's tolerance
    if (t < 0.595) EXPECT_LE(box_velocity(off, k).norm(), 1e-6) << "t = " << t;
    if (t > 0.65 && box_velocity(on, k)[0] > 0.05) moved_after = true;
  }
  EXPECT_TRUE(moved_after) << "the sphere's hit did not wake the box";
  // the sleeping run follows the awake one: the box is pushed along x by the same amount
  const double dx_on = on.q.back()[0], dx_off = off.q.back()[0];
  EXPECT_GT(dx_off, 1e-3);
  EXPECT_NEAR(dx_on, dx_off, 1e-6 + 1e-3 * dx_off);
}

// Five cubes stacked exactly: the stack falls asleep as one island and stays where it is, with
// zero velocity, no drift of the top cube and no penetration.
TEST(Sleeping, AStackSleepsInPlace) {
  RigidWorldSystem sys(test::box_stack(), CollisionSettings{.margin = 0.02}, "stack");
  SimulationSettings st{
      .integrator = Integrator::time_stepping, .t_end = 0.6, .time_stepping = {.dt = 1e-3}};
  st.time_stepping.contacts.sleep = true;
  const SimulationResult r = simulate(sys, st);
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  EXPECT_TRUE(r.v.back().isZero(0.0));
  EXPECT_LE((r.q.back().segment<3>(4 * 7) - r.q.front().segment<3>(4 * 7)).norm(), 1e-6);
  EXPECT_LE(r.max_penetration, 1e-6);
}

}  // namespace
}  // namespace moreau
