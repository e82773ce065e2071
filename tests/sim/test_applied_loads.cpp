// Constant applied loads on rigid bodies (RigidBody::applied_force, applied_torque; scene keys
// "force" and "torque"), checked against Coulomb's law and Newton–Euler by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/sim/simulation.hpp"
#include "rigid_worlds.hpp"
#include "systems.hpp"

namespace moreau {
namespace {

using test::kG;

// A planar 0.4 × 0.2 m box (1 kg) resting flat on the floor, μ = 0.5, pushed along +x by F.
// Coulomb: below μmg = 4.905 N it stays at rest; above, it slides from rest with
// a = (F − μmg)/m, so x(t) = ½ a t² (both corners slide, no tipping: F·0.1 < mg·0.2).
SimulationResult pushed_box(double F, Integrator integrator, double t_end) {
  ContactMaterial mat;
  mat.mu = 0.5;
  auto w = test::world_with_floor(2, mat);
  RigidBody box = test::box_body("box", 1.0, Vector3(0.2, 0.1, 0.1),
                                 Matrix3::Identity() * ((0.4 * 0.4 + 0.2 * 0.2) / 12.0));
  box.pose.position = Vector3(0.0, 0.1, 0.0);
  box.applied_force = Vector3(F, 0.0, 0.0);
  w->add_body(box);
  RigidWorldSystem sys(w, CollisionSettings{.margin = INFINITY}, "pushed_box");
  SimulationSettings st{.integrator = integrator, .t_end = t_end};
  st.solver.tolerance = 1e-10;
  return simulate(sys, st);
}

TEST(AppliedLoads, PushedBoxSticksBelowAndSlidesAboveTheCoulombLimit) {
  for (Integrator in : {Integrator::event_driven, Integrator::time_stepping}) {
    const auto rest = pushed_box(3.0, in, 0.5);
    ASSERT_EQ(rest.status, SimulationStatus::completed) << rest.message;
    EXPECT_LE(std::abs(rest.q.back()[0]), 1e-9) << to_string(in);
    const auto slide = pushed_box(8.0, in, 0.5);
    ASSERT_EQ(slide.status, SimulationStatus::completed) << slide.message;
    const double a = 8.0 - 0.5 * kG, x = 0.5 * a * 0.25;  // m/s², m
    // event-driven: exact up to the integration tolerance; Moreau–Jean (θ = ½, dt = 1 ms): O(dt)
    const double tol = in == Integrator::event_driven ? 1e-8 : 2e-3;
    EXPECT_NEAR(slide.q.back()[0], x, tol) << to_string(in);
    EXPECT_NEAR(slide.v.back()[0], a * 0.5, in == Integrator::event_driven ? 1e-8 : 1e-9)
        << to_string(in);
  }
}

// A free spatial body without gravity under a constant torque τ = (0, 0, 0.3) N·m about its
// principal axis z (I_zz = 0.2): ω_z(t) = τ t / I_zz = 1.5 t; and a constant force f = (2, 0, 0) N
// on m = 4 kg: x(t) = ½ (f/m) t². At t = 1 s: ω_z = 1.5 rad/s, x = 0.25 m. (A system without any
// constraint: the event-driven mode choice used to crash on it, taking the max of an empty vector.)
TEST(AppliedLoads, FreeBodyFollowsNewtonEuler) {
  auto w = std::make_shared<RigidWorld>(3);
  w->set_gravity(Vector3::Zero());
  RigidBody b =
      test::box_body("b", 4.0, Vector3(0.1, 0.2, 0.3), Vector3(0.1, 0.15, 0.2).asDiagonal());
  b.applied_force = Vector3(2.0, 0.0, 0.0);
  b.applied_torque = Vector3(0.0, 0.0, 0.3);
  w->add_body(b);
  RigidWorldSystem sys(w, CollisionSettings{}, "free");
  const SimulationResult r =
      simulate(sys, SimulationSettings{.integrator = Integrator::event_driven, .t_end = 1.0});
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  EXPECT_NEAR(r.q.back()[0], 0.25, 1e-8);
  EXPECT_NEAR(r.v.back()[0], 0.5, 1e-8);
  EXPECT_NEAR(r.v.back()[5], 1.5, 1e-8);
}

// A system without any degree of freedom is refused with a sentence, not a crash (both
// integrators used to take the largest entry of an empty mass matrix).
TEST(SimulateInput, SystemWithoutDegreesOfFreedomIsRefused) {
  auto w = std::make_shared<RigidWorld>(2);
  RigidWorldSystem sys(w, CollisionSettings{}, "empty");
  for (Integrator in : {Integrator::event_driven, Integrator::time_stepping}) {
    try {
      simulate(sys, SimulationSettings{.integrator = in, .t_end = 0.1});
      FAIL() << "a system without degrees of freedom was simulated";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("no degree of freedom"), std::string::npos) << e.what();
    }
  }
}

// A system of the user's own that states contacts of dimension 4 is refused before a step: a
// contact record holds at most 2 tangential components (ContactRecord::r_t), and its state's
// q and v sizes differ, which kept ContactState::validate (and its dimension check) from running.
TEST(SimulateInput, ContactsOfAnotherDimensionAreRefused) {
  struct FourDimensional final : LagrangianSystem {
    std::string name() const override { return "four"; }
    int dimension() const override { return 4; }
    Index velocity_size() const override { return 1; }
    Index position_size() const override { return 2; }
    ContactState contact_state(const Vector& q, const Vector& v, double) const override {
      ContactState s;
      s.dimension = 4;
      s.q = q;
      s.v = v;
      s.M = Matrix::Identity(1, 1);
      s.F = Vector::Zero(1);
      return s;
    }
  } sys;
  for (Integrator in : {Integrator::event_driven, Integrator::time_stepping}) {
    try {
      simulate(sys, SimulationSettings{.integrator = in, .t_end = 0.1}, Vector::Zero(2),
               Vector::Zero(1));
      FAIL() << "a system with contacts of dimension 4 was simulated";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("contacts of dimension 4"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace moreau
