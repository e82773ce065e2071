// moreau::Simulator (sim/simulator.hpp): a step at a time with held inputs, against closed forms,
// and its model functions against each other.
#include <gtest/gtest.h>

#include <cmath>

#include "../model/joint_world_parts.hpp"
#include "moreau/sim/simulator.hpp"
#include "rigid_worlds.hpp"

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

namespace {

// A rotor (I = 0.2 kg·m²) on a hinge about z without gravity, driven by one actuator.
std::shared_ptr<RigidWorld> driven_rotor(const Actuator& a) {
  auto w = std::make_shared<RigidWorld>(3);
  w->set_gravity(Vector3::Zero());
  w->add_body(block("rotor", Vector3::Zero(), 1.0, Vector3(0.1, 0.1, 0.2)));
  w->add_joint(hinge(0, -1, Vector3::Zero(), Vector3::Zero(), Vector3::UnitZ(), "axle"));
  w->add_actuator(a);
  return w;
}

// A 1 kg mass at r = 0.5 m from a hinge about y, horizontal at s = 0, held by a position servo
// (kp, kv) aiming at s = 0: gravity's torque about y is m g r cos s.
std::shared_ptr<RigidWorld> servo_arm(double kp, double kv) {
  auto w = std::make_shared<RigidWorld>(3);
  w->add_body(block("arm", Vector3(0.5, 0, 0), 1.0, Vector3(1e-4, 1e-4, 1e-4)));
  w->add_joint(hinge(0, -1, Vector3(-0.5, 0, 0), Vector3::Zero(), Vector3::UnitY(), "shoulder"));
  w->add_actuator(Actuator{.name = "servo", .joint = 0, .gain = kp, .bias = {0, -kp, -kv}});
  return w;
}

}  // namespace

// A motor with gear 2 and ctrl 0.15 gives τ = 0.3 N·m: θ = τt²/(2I), to round-off.
TEST(SimulatorActuators, AMotorTurnsItsJointAsTauTSquaredOverTwoI) {
  Simulator sim(driven_rotor(Actuator{.name = "m", .joint = 0, .gear = 2.0}), CollisionSettings{},
                stepping(1e-3));
  ASSERT_EQ(sim.nu(), 1);
  EXPECT_EQ(sim.actuator_names()[0], "m");
  sim.ctrl()[0] = 0.15;
  sim.step(500);
  EXPECT_NEAR(sim.q()[0], 0.3 * 0.25 / (2 * 0.2), 1e-12);
  EXPECT_NEAR(sim.actuator_forces()[0], 0.15, 1e-15);
}

// ctrlrange clamps the control (ctrl 5 acts as 0.1) and forcerange saturates the force: a motor
// of gain 1 at ctrl 3 with forcerange [−0.5, 0.5] pushes with 0.5.
TEST(SimulatorActuators, CtrlRangeClampsAndForceRangeSaturates) {
  Simulator clamped(driven_rotor(Actuator{
                        .joint = 0, .ctrl_limited = true, .ctrl_lower = -0.1, .ctrl_upper = 0.1}),
                    CollisionSettings{}, stepping(1e-3));
  clamped.ctrl()[0] = 5.0;
  clamped.step(1000);
  EXPECT_NEAR(clamped.q()[0], 0.1 / (2 * 0.2), 1e-12);
  Simulator saturated(
      driven_rotor(
          Actuator{.joint = 0, .force_limited = true, .force_lower = -0.5, .force_upper = 0.5}),
      CollisionSettings{}, stepping(1e-3));
  saturated.ctrl()[0] = 3.0;
  saturated.step(1000);
  EXPECT_NEAR(saturated.q()[0], 0.5 / (2 * 0.2), 1e-12);
  EXPECT_NEAR(saturated.actuator_forces()[0], 0.5, 1e-15);
}

// A PD servo (kp = 200 N·m/rad, kv = 20) holding the arm against gravity settles where
// kp s = m g r cos s (solved here by fixed-point iteration): the steady error is the load torque
// over kp. With gravity compensation (qfrc = the load torque at the target) the error is zero.
TEST(SimulatorActuators, APdServosSteadyErrorIsTheLoadOverKp) {
  const double kp = 200.0, load = 1.0 * 9.81 * 0.5;
  double s_star = 0.0;
  for (int k = 0; k < 100; ++k) s_star = load * std::cos(s_star) / kp;
  Simulator sim(servo_arm(kp, 20.0), CollisionSettings{}, stepping(1e-3));
  sim.step(4000);
  EXPECT_NEAR(sim.q()[0], s_star, 1e-8);
  EXPECT_NEAR(sim.v()[0], 0.0, 1e-8);
  sim.reset();
  const Vector zero = Vector::Zero(1);
  sim.qfrc_applied() = sim.inverse_dynamics(sim.q(), zero, zero);  // compensation at the target
  sim.step(4000);
  EXPECT_NEAR(sim.q()[0], 0.0, 1e-9);
}

// Stiff gains at dt = 1 ms: kp = 1e5 N·m/rad on 1.25e-4 kg·m² (ω = 2.8e4 rad/s, ωh = 28, far
// beyond an explicit step's limit of 2) are integrated linearly implicitly (θ = ½, the
// trapezoidal rule: the fast mode alternates in sign and shrinks by (1 − 5)/(1 + 5) a step). The
// error never exceeds its start of 0.2 rad and the finger settles at the target.
TEST(SimulatorActuators, StiffGainsStayStableAtOneMillisecond) {
  auto w = std::make_shared<RigidWorld>(3);
  w->set_gravity(Vector3::Zero());
  w->add_body(block("finger", Vector3::Zero(), 0.01, Vector3(1e-4, 1e-4, 1.25e-4)));
  w->add_joint(hinge(0, -1, Vector3::Zero(), Vector3::Zero(), Vector3::UnitZ(), "knuckle"));
  w->add_actuator(Actuator{.joint = 0, .gain = 1e5, .bias = {0, -1e5, -10.0}});
  Simulator sim(w, CollisionSettings{}, stepping(1e-3));
  sim.ctrl()[0] = 0.2;  // target 0.2 rad
  double largest = 0.0;
  for (int k = 0; k < 500; ++k) {
    sim.step();
    largest = std::max(largest, std::abs(sim.q()[0] - 0.2));
  }
  EXPECT_LE(largest, 0.2);
  EXPECT_NEAR(sim.q()[0], 0.2, 1e-9);
}

// A step that diverges throws, and the simulator keeps the last finite state, the steps before it
// taken: a torque of 1e308 N·m drives v past the largest double after about 180 steps; the state
// kept is finite, with v beyond 1e300. After a reset it steps again.
TEST(Simulator, ADivergedStepThrowsAndKeepsTheLastState) {
  Simulator sim(driven_rotor(Actuator{.joint = 0}), CollisionSettings{}, stepping(1e-3));
  sim.step(5);
  sim.qfrc_applied()[0] = 1e308;
  EXPECT_THROW(sim.step(1000), std::runtime_error);
  EXPECT_TRUE(sim.q().allFinite() && sim.v().allFinite());
  EXPECT_GT(sim.v()[0], 1e300);
  EXPECT_GE(sim.t(), 5e-3 - 1e-15);
  EXPECT_LT(sim.t(), 0.5);
  sim.reset();
  sim.step();
  EXPECT_NEAR(sim.t(), 1e-3, 1e-15);
}

TEST(SimulatorActuators, AnActuatorOnACycleClosingJointIsRefused) {
  auto w = std::make_shared<RigidWorld>(3);
  w->add_body(block("crank", Vector3(0, 0, 0.5), 1.0, Vector3(0.01, 0.01, 0.01)));
  w->add_body(block("rocker", Vector3(1, 0, 0.5), 1.0, Vector3(0.01, 0.01, 0.01)));
  w->add_body(block("coupler", Vector3(0.5, 0, 1), 1.0, Vector3(0.01, 0.01, 0.01)));
  w->add_joint(hinge(0, -1, Vector3(0, 0, -0.5), Vector3::Zero(), Vector3::UnitY(), "j0"));
  w->add_joint(hinge(1, -1, Vector3(0, 0, -0.5), Vector3(1, 0, 0), Vector3::UnitY(), "j1"));
  w->add_joint(hinge(2, 0, Vector3(-0.5, 0, 0), Vector3(0, 0, 0.5), Vector3::UnitY(), "j2"));
  w->add_joint(hinge(2, 1, Vector3(0.5, 0, 0), Vector3(0, 0, 0.5), Vector3::UnitY(), "j3"));
  w->add_actuator(Actuator{.name = "drive", .joint = 3});
  try {
    Simulator sim(w, CollisionSettings{}, stepping(1e-3));
    FAIL() << "expected a refusal";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("actuator 'drive': joint 'j3' closes a cycle"),
              std::string::npos)
        << e.what();
  }
}

// The last step's contacts of five 1 kg cubes resting on a floor (dt = 1 ms): the floor's
// contacts lie on z = 0 inside the bottom cube's footprint, their normals are ±z, and their world
// impulses add up to the weight of the stack over the step, 5 · 9.81 · 1e-3 N·s upwards on the
// cubes; every contact names its two bodies.
TEST(Simulator, ContactsGiveBodiesPointsNormalsAndImpulses) {
  Simulator sim(test::box_stack(), CollisionSettings{}, stepping(1e-3));
  EXPECT_TRUE(sim.contacts().empty());
  sim.step(20);
  ASSERT_FALSE(sim.contacts().empty());
  Vector3 on_stack = Vector3::Zero();
  int floor_contacts = 0;
  for (const SimulatorContact& c : sim.contacts()) {
    ASSERT_FALSE(c.body_a.empty());
    ASSERT_FALSE(c.body_b.empty());
    EXPECT_NEAR(std::abs(c.normal.z()), 1.0, 1e-12) << c.name;
    EXPECT_NEAR(c.normal.norm(), 1.0, 1e-12);
    if (c.body_a != "floor" && c.body_b != "floor") continue;
    ++floor_contacts;
    EXPECT_NEAR(c.point.z(), 0.0, 1e-6) << c.name;
    EXPECT_LE(c.point.head<2>().cwiseAbs().maxCoeff(), 0.1 + 1e-9) << c.name;
    on_stack += c.body_a == "floor" ? Vector3(-c.impulse) : c.impulse;  // on the cube
    EXPECT_NEAR(c.impulse.dot(c.normal), c.r_n, 1e-15);
  }
  EXPECT_GE(floor_contacts, 3);
  EXPECT_NEAR(on_stack.z(), 5 * 9.81 * 1e-3, 1e-9);
  EXPECT_NEAR(on_stack.head<2>().norm(), 0.0, 1e-9);
}

// After a step fails, the last good step's contacts keep their names, also once a new run has
// started (step(0)) and numbered its contacts anew. Two spheres rest on the floor, "a" first in
// the run's numbering; "a" is lifted off (2 g upwards), then "b" (1 mg) is pressed into the floor
// by 1e308 N, whose free velocity overflows: the step fails, twice, and the state kept is the
// last good one, b resting. The last good step's one contact is b's, and so is its name after
// step(0) and in a recording started from there.
TEST(Simulator, AfterAFailedStepTheLastContactsKeepTheirNames) {
  auto w = test::world_with_floor(3, ContactMaterial{});
  w->add_body(test::sphere_body("a", 1.0, 0.1, Vector3(0, 0, 0.1)));
  w->add_body(test::sphere_body("b", 1e-6, 0.1, Vector3(1, 0, 0.1)));
  Simulator sim(w, CollisionSettings{}, stepping(1e-3));
  auto names = [&] {
    std::vector<std::string> out;
    for (const SimulatorContact& c : sim.contacts()) out.push_back(c.name);
    return out;
  };
  sim.step(1);
  ASSERT_EQ(sim.contacts().size(), 2u);
  const std::string b_name = sim.contacts()[1].name;
  EXPECT_EQ(sim.contacts()[1].body_a, "b");
  sim.qfrc_applied() = Vector::Zero(sim.nv());
  sim.qfrc_applied()[2] = 2 * 9.81;  // a's vertical force: twice its weight
  sim.step(200);                     // a is 0.2 m up and rising (contacts() not read here)
  const double t_good = sim.t();
  sim.qfrc_applied()[8] = -1e308;  // b's vertical force
  EXPECT_THROW(sim.step(1), std::runtime_error);
  EXPECT_EQ(sim.t(), t_good);
  EXPECT_THROW(sim.step(1), std::runtime_error);  // a second failure, from a new run
  sim.qfrc_applied()[8] = 0.0;
  sim.step(0);  // a new run from the kept state
  EXPECT_EQ(names(), std::vector<std::string>{b_name});
  sim.start_recording();
  const SimulationResult rec = sim.stop_recording();
  ASSERT_EQ(rec.contacts.size(), 1u);
  EXPECT_EQ(rec.contact_names.at(static_cast<size_t>(rec.contacts[0].contact)), b_name);
}

// A recording is what simulate() records for the same run: start_recording at t = 0, 100 steps,
// stop_recording gives 101 records whose states are simulate()'s to round-off, with the contact
// records' points and normals; the loop's own reading of q after each step is the record.
TEST(Simulator, ARecordingIsWhatSimulateRecords) {
  SimulationSettings st = stepping(1e-3);
  st.t_end = 0.1;
  auto world = test::box_stack();
  Simulator sim(world, CollisionSettings{}, st);
  sim.start_recording();
  std::vector<Vector> seen;
  for (int k = 0; k < 100; ++k) {
    sim.step();
    seen.push_back(sim.q());
  }
  const SimulationResult rec = sim.stop_recording();
  EXPECT_FALSE(sim.recording());
  ASSERT_EQ(rec.records(), 101);
  EXPECT_EQ(rec.steps, 100);
  EXPECT_NEAR(rec.t.back(), 0.1, 1e-12);
  for (int k = 0; k < 100; ++k) EXPECT_EQ(rec.q[k + 1], seen[k]);
  RigidWorldSystem sys(world, CollisionSettings{.margin = 0.02});
  const SimulationResult ref = simulate(sys, st);
  ASSERT_EQ(ref.records(), rec.records());
  for (Index k = 0; k < ref.records(); ++k)
    EXPECT_LE((ref.q[k] - rec.q[k]).cwiseAbs().maxCoeff(), 1e-12) << "record " << k;
  ASSERT_EQ(ref.contacts.size(), rec.contacts.size());
  for (size_t k = 0; k < rec.contacts.size(); ++k) {
    EXPECT_NEAR(rec.contacts[k].r_n, ref.contacts[k].r_n, 1e-12);
    EXPECT_TRUE(rec.contacts[k].point.allFinite());
    EXPECT_LE((rec.contacts[k].point - ref.contacts[k].point).norm(), 1e-12);
  }
}

// A Simulator that keeps no states leaves each step's record out (TimeSteppingRun::form_records),
// and steps the same: the six-link arm stepped 300 times, recording only from step 200 on, holds
// simulate()'s states to the bit and its energies at those times (the records formed with the
// steps' detections again once recording). simulate() runs to 0.4 s: its last step lands on
// t_end, a step of h to round-off.
TEST(Simulator, StepsWithoutRecordsAreTheSameSteps) {
  SimulationSettings st = stepping(1e-3);
  st.t_end = 0.3;
  Simulator sim(arm(), CollisionSettings{}, st);
  sim.step(200);
  sim.start_recording();
  sim.step(100);
  const SimulationResult rec = sim.stop_recording();
  RigidWorldSystem sys(arm(), CollisionSettings{.margin = 0.02});
  st.t_end = 0.4;
  const SimulationResult ref = simulate(sys, st);
  ASSERT_EQ(ref.records(), 401);
  ASSERT_EQ(rec.records(), 101);
  for (Index k = 0; k <= 100; ++k) {
    EXPECT_TRUE(rec.q[k] == ref.q[200 + k]) << "record " << k;
    EXPECT_TRUE(rec.v[k] == ref.v[200 + k]) << "record " << k;
    EXPECT_NEAR(rec.kinetic[k], ref.kinetic[200 + k], 1e-12) << "record " << k;
    EXPECT_NEAR(rec.potential[k], ref.potential[200 + k], 1e-12) << "record " << k;
  }
}

// Body Jacobians against finite differences of forward kinematics: for the six-link arm at a
// bent pose and a velocity v, J_b v is the rate of the centre of mass (p(q ⊕ εv) − p(q ⊖ εv))/2ε
// and of the orientation (the rotation vector of R(q ⊕ εv) R(q ⊖ εv)ᵀ over 2ε), to 1e-6.
TEST(Simulator, BodyJacobiansAreTheRatesOfForwardKinematics) {
  Simulator sim(arm(), CollisionSettings{}, stepping(1e-3));
  Vector q(6), v(6);
  q << 0.3, -0.5, 0.8, 0.2, -0.7, 0.4;
  v << 0.5, -0.3, 0.2, 0.7, -0.1, 0.6;
  const double eps = 1e-6;
  const auto plus = sim.body_poses(sim.system().integrate(q, v, eps));
  const auto minus = sim.body_poses(sim.system().integrate(q, v, -eps));
  for (Index b = 0; b < 6; ++b) {
    const Eigen::Matrix<double, 6, 1> Jv = sim.body_jacobian(q, b) * v;
    const Vector3 vG = (plus[b].position - minus[b].position) / (2 * eps);
    const Eigen::AngleAxisd turn(plus[b].orientation * minus[b].orientation.inverse());
    const Vector3 w = turn.angle() * turn.axis() / (2 * eps);
    EXPECT_LE((Jv.head<3>() - vG).norm(), 1e-6) << "body " << b;
    EXPECT_LE((Jv.tail<3>() - w).norm(), 1e-6) << "body " << b;
  }
  EXPECT_EQ(sim.body_index("link3"), 3);
  EXPECT_THROW(sim.body_index("nope"), std::invalid_argument);
}
