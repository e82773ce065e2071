// moreau::Simulator (sim/simulator.hpp): a step at a time with held inputs, against closed forms,
// and its model functions against each other.
#include <gtest/gtest.h>

#include <cmath>

#include "../model/joint_world_parts.hpp"
#include "moreau/sim/simulator.hpp"

using namespace moreau;
using moreau::test::block;
using moreau::test::hinge;

namespace {

SimulationSettings stepping(double dt) {
  SimulationSettings st;
  st.integrator = Integrator::time_stepping;
  st.time_stepping.dt = dt;
  return st;
}

// A six-link arm on hinges about y, z, y, …, fixed base, released horizontal.
std::shared_ptr<RigidWorld> arm() {
  auto w = std::make_shared<RigidWorld>(3);
  for (int i = 0; i < 6; ++i) {
    w->add_body(block("link" + std::to_string(i), Vector3(0.1 + 0.2 * i, 0, 0), 1.0 - 0.1 * i,
                      Vector3(0.002, 0.01, 0.01)));
    w->add_joint(hinge(i, i - 1, Vector3(-0.1, 0, 0), i == 0 ? Vector3::Zero() : Vector3(0.1, 0, 0),
                       i % 2 ? Vector3::UnitZ() : Vector3::UnitY(), "q" + std::to_string(i)));
  }
  return w;
}

}  // namespace

// A torque τ = 0.3 N·m on a free hinge of inertia I = 0.2 kg·m² (no gravity): θ = τ t²/(2I). The
// step applies the force over the step and moves q by the mean of v and v⁺, so after k steps of h
// θ = τ (kh)²/(2I) to round-off.
TEST(Simulator, AHeldTorqueTurnsAHingeAsTauTSquaredOverTwoI) {
  auto w = std::make_shared<RigidWorld>(3);
  w->set_gravity(Vector3::Zero());
  w->add_body(block("rotor", Vector3::Zero(), 1.0, Vector3(0.1, 0.1, 0.2)));
  w->add_joint(hinge(0, -1, Vector3::Zero(), Vector3::Zero(), Vector3::UnitZ(), "axle"));
  Simulator sim(w, CollisionSettings{}, stepping(1e-3));
  ASSERT_EQ(sim.nv(), 1);
  EXPECT_EQ(sim.velocity_names()[0], "axle.v");
  sim.qfrc_applied()[0] = 0.3;
  sim.step(500);
  EXPECT_NEAR(sim.t(), 0.5, 1e-12);
  EXPECT_NEAR(sim.q()[0], 0.3 * 0.25 / (2 * 0.2), 1e-12);
  EXPECT_NEAR(sim.v()[0], 0.3 * 0.5 / 0.2, 1e-12);
  // inputs are held: 500 more steps continue the same parabola
  sim.step(500);
  EXPECT_NEAR(sim.q()[0], 0.3 * 1.0 / (2 * 0.2), 1e-11);
}

// Gravity compensation: qfrc = inverse_dynamics(q, 0, 0) holds the horizontal arm at rest; over
// 1000 steps no joint moves by more than 1e-9 rad (forward and inverse dynamics are one model).
// Without it, the arm falls.
TEST(Simulator, GravityCompensationHoldsAnArmAtRest) {
  Simulator sim(arm(), CollisionSettings{}, stepping(1e-3));
  const Vector q0 = sim.q(), zero = Vector::Zero(sim.nv());
  for (int k = 0; k < 1000; ++k) {
    sim.qfrc_applied() = sim.inverse_dynamics(sim.q(), zero, zero);
    sim.step();
  }
  EXPECT_LT((sim.q() - q0).cwiseAbs().maxCoeff(), 1e-9);
  sim.reset();
  sim.step(100);
  EXPECT_GT((sim.q() - q0).cwiseAbs().maxCoeff(), 1e-2);
}

// inverse_dynamics(q, v, a) − inverse_dynamics(q, v, 0) = M(q) a, and one step from (q, v) with
// qfrc = inverse_dynamics(q, v, a) changes v by h a to first order in h (the forward dynamics of
// the step): checked at h = 1e-4 to 1e-3 relative.
TEST(Simulator, MassMatrixInverseAndForwardDynamicsAgree) {
  Simulator sim(arm(), CollisionSettings{}, stepping(1e-4));
  Vector v(6), a(6);
  v << 0.3, -0.2, 0.5, 0.1, -0.4, 0.2;
  a << 1.0, -0.5, 0.25, 2.0, -1.0, 0.5;
  const Vector q = sim.q();
  const Matrix M = sim.mass_matrix(q);
  EXPECT_LT((M - M.transpose()).norm(), 1e-14);
  const Vector tau = sim.inverse_dynamics(q, v, a);
  EXPECT_LT((tau - sim.bias_forces(q, v) - M * a).norm(), 1e-12);
  sim.set_state(q, v);
  sim.qfrc_applied() = tau;
  sim.step();
  EXPECT_LT(((sim.v() - v) / 1e-4 - a).norm(), 1e-3 * a.norm());
}

// A wrench on a loose body (the body-block path): f = (2, 0, 1) N on 0.5 kg without gravity
// moves its centre by ½ (f/m) t².
TEST(Simulator, ABodyWrenchPushesALooseBody) {
  auto w = std::make_shared<RigidWorld>(3);
  w->set_gravity(Vector3::Zero());
  w->add_body(block("puck", Vector3::Zero(), 0.5, Vector3(0.01, 0.01, 0.01)));
  Simulator sim(w, CollisionSettings{}, stepping(1e-3));
  ASSERT_EQ(sim.body_names()[0], "puck");
  sim.xfrc_applied().row(0) << 2.0, 0.0, 1.0, 0.0, 0.0, 0.0;
  sim.step(1000);
  EXPECT_NEAR(sim.q()[0], 0.5 * 4.0 * 1.0, 1e-12);
  EXPECT_NEAR(sim.q()[2], 0.5 * 2.0 * 1.0, 1e-12);
}

// Bad inputs are refused when step() runs, naming the entry, and the state stays as it was.
TEST(Simulator, BadInputsAreRefusedAndTheStateIsKept) {
  Simulator sim(arm(), CollisionSettings{}, stepping(1e-3));
  sim.step(10);
  const Vector q = sim.q(), v = sim.v();
  const double t = sim.t();
  sim.qfrc_applied()[2] = std::nan("");
  try {
    sim.step();
    FAIL() << "expected a refusal";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("qfrc_applied[2] = nan"), std::string::npos) << e.what();
  }
  EXPECT_EQ(sim.q(), q);
  EXPECT_EQ(sim.v(), v);
  EXPECT_EQ(sim.t(), t);
  sim.qfrc_applied() = Vector::Zero(3);
  EXPECT_THROW(sim.step(), std::invalid_argument);
  EXPECT_THROW(sim.set_state(Vector::Zero(2), v), std::invalid_argument);
  sim.qfrc_applied() = Vector::Zero(6);
  sim.step();
  EXPECT_NEAR(sim.t(), t + 1e-3, 1e-12);
}
