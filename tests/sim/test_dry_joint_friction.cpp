// Dry joint friction (frictionloss, docs/simulation.md §Dry joint friction): exact stick and slip
// against closed forms.
#include <gtest/gtest.h>

#include <cmath>

#include "../model/joint_world_parts.hpp"
#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/sim/simulation.hpp"

using namespace moreau;
using moreau::test::block;
using moreau::test::hinge;

namespace {

// A rotor of inertia I under the torque τ(t) = k t, with dry friction f on its one velocity.
class RampedRotor final : public LagrangianSystem {
 public:
  RampedRotor(double inertia, double k, double f) : I_(inertia), k_(k), f_(f) {
    initial_q = Vector::Zero(1);
    initial_v = Vector::Zero(1);
  }
  std::string name() const override { return "ramped_rotor"; }
  int dimension() const override { return 2; }
  Index velocity_size() const override { return 1; }
  ContactState contact_state(const Vector& q, const Vector& v, double t) const override {
    ContactState s;
    s.dimension = 2;
    s.t = t;
    s.q = q;
    s.v = v;
    s.M = Matrix::Constant(1, 1, I_);
    s.F = Vector::Constant(1, -k_ * t);  // F on the left: the torque k t drives
    return s;
  }
  std::vector<DryFriction> dry_friction() const override { return {{"axle", 0, f_}}; }

 private:
  double I_, k_, f_;
};

SimulationSettings stepping(double t_end, double dt) {
  SimulationSettings st;
  st.integrator = Integrator::time_stepping;
  st.t_end = t_end;
  st.time_stepping.dt = dt;
  return st;
}

}  // namespace

// τ = k t against f: the rotor holds exactly (v = 0, no creep) while k t < f, then turns with
// I ω̇ = k t − f, so ω(t) = k (t − t*)² / (2I) after t* = f/k. Here I = 0.5, k = 2, f = 1: t* = ½ s.
// Moreau–Jean takes the torque at the step's start, so the start is late by at most one step and
// ω at 1.5 s is within k h t / I of the closed form.
TEST(DryJointFriction, AHingeStartsToTurnWhenTheTorquePassesItsFriction) {
  const RampedRotor rotor(0.5, 2.0, 1.0);
  const double h = 1e-3;
  const SimulationResult r = simulate(rotor, stepping(1.5, h));
  ASSERT_EQ(r.status, SimulationStatus::completed);
  for (Index k = 0; k < r.records(); ++k) {
    const double t = r.t[k], w = r.v[k][0];
    if (t <= 0.5 - 2 * h) {
      EXPECT_EQ(w, 0.0) << "t = " << t;  // exactly still, not creeping
      EXPECT_EQ(r.q[k][0], 0.0) << "t = " << t;
    }
    if (t >= 0.5 + 2 * h) {
      EXPECT_GT(w, 0.0) << "t = " << t;
      EXPECT_NEAR(w, 2.0 * (t - 0.5) * (t - 0.5) / (2 * 0.5), 2.0 * h * t / 0.5) << "t = " << t;
    }
  }
}

// A rotor (I_zz = 0.2 kg·m² plus armature 0.1) spun at 3 rad/s on a hinge with frictionloss
// 0.45 N·m, no gravity: ω falls at f/I = 1.5 rad/s² exactly (every step removes h f / I), so
// ω(t) = 3 − 1.5 t, and it stops at t = 2 s and stays stopped: the friction then holds it.
TEST(DryJointFriction, ASpinningRotorStopsExactlyAndStays) {
  auto w = std::make_shared<RigidWorld>(3);
  w->set_gravity(Vector3::Zero());
  RigidBody rotor = block("rotor", Vector3::Zero(), 1.0, Vector3(0.2, 0.2, 0.2));
  rotor.angular_velocity = Vector3(0, 0, 3.0);
  w->add_body(rotor);
  Joint axle = hinge(0, -1, Vector3::Zero(), Vector3::Zero(), Vector3::UnitZ(), "axle");
  axle.armature = 0.1;
  axle.frictionloss = 0.45;
  w->add_joint(axle);
  const RigidWorldSystem sys(w, CollisionSettings{});
  ASSERT_EQ(sys.dry_friction().size(), 1u);
  const SimulationResult r = simulate(sys, stepping(3.0, 1e-3));
  ASSERT_EQ(r.status, SimulationStatus::completed);
  const Index c = static_cast<Index>(r.velocity_names.size()) - 1;
  ASSERT_EQ(r.velocity_names[c], "axle.v");
  for (Index k = 0; k < r.records(); ++k) {
    const double t = r.t[k];
    if (t <= 2.0 - 1e-3) EXPECT_NEAR(r.v[k][c], 3.0 - 1.5 * t, 1e-9) << "t = " << t;
    if (t >= 2.0 + 1e-3) EXPECT_EQ(r.v[k][c], 0.0) << "t = " << t;
  }
}

// A pendulum (1 kg at 0.5 m) held at 30° by its hinge's friction: gravity's torque there is
// m g r sin 30° = 2.45 N·m. With f = 3 N·m it holds exactly; with f = 2 N·m it swings down, and
// friction takes energy out of the swing.
TEST(DryJointFriction, FrictionHoldsAPendulumOnlyAboveGravitysTorque) {
  auto swing = [](double f) {
    auto w = std::make_shared<RigidWorld>(3);
    const Quaternion tilt(Eigen::AngleAxisd(M_PI / 6, Vector3::UnitY()));
    RigidBody bob = block("bob", tilt * Vector3(0, 0, -0.5), 1.0, Vector3(1e-3, 1e-3, 1e-3));
    bob.pose.orientation = tilt;
    w->add_body(bob);
    Joint pivot = hinge(0, -1, Vector3(0, 0, 0.5), Vector3::Zero(), Vector3::UnitY(), "pivot");
    pivot.frictionloss = f;
    w->add_joint(pivot);
    return simulate(RigidWorldSystem(w, CollisionSettings{}), stepping(1.0, 1e-3));
  };
  const SimulationResult held = swing(3.0);
  ASSERT_EQ(held.status, SimulationStatus::completed);
  for (const Vector& v : held.v) EXPECT_EQ(v[v.size() - 1], 0.0);
  const SimulationResult falls = swing(2.0);
  ASSERT_EQ(falls.status, SimulationStatus::completed);
  const Vector& q_end = falls.q.back();
  EXPECT_GT(std::abs(q_end[q_end.size() - 1]), 0.2);
  EXPECT_LT(falls.energy_final, falls.energy_initial - 0.1);
}

// The event-driven integrator does not simulate dry friction: it refuses, naming the joint.
TEST(DryJointFriction, EventDrivenRefusesFrictionloss) {
  const RampedRotor rotor(0.5, 2.0, 1.0);
  SimulationSettings st = stepping(1.0, 1e-3);
  st.integrator = Integrator::event_driven;
  try {
    simulate(rotor, st);
    FAIL() << "expected a refusal";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("joint 'axle' has frictionloss 1"), std::string::npos)
        << e.what();
  }
}
