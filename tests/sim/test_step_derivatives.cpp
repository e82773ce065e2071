// step_derivatives (sim/step_derivatives.hpp) against central differences of Simulator::step in
// each contact mode: free flight, sticking, sliding, separating, an impact with restitution, a
// box flat on the floor (redundant contacts) and an arm in joint coordinates touching a table.
// The differences run with the solver at 1e-13, no warm start (every difference is a new run)
// and no projection, with δ = 1e-5: their own error, about tol/δ + δ², is below 1e-7. The index
// set's margin is 0.1 mm, beyond δ, so that the differences keep the step's contacts.
#include <gtest/gtest.h>

#include <cmath>

#include "../model/joint_world_parts.hpp"
#include "moreau/sim/simulator.hpp"
#include "rigid_worlds.hpp"

namespace moreau {
namespace {

SimulationSettings exact_steps() {
  SimulationSettings st;
  st.time_stepping.dt = 1e-3;
  st.time_stepping.projection = false;
  st.solver.tolerance = 1e-13;
  st.solver.max_iterations = 100000;
  // a contact joins the index set within 0.1 mm, so that the differences' δ (10 µm) does not
  // cross the activation boundary of a contact resting at gap 0 (the default margin is 1 µm)
  st.time_stepping.contacts.activation_margin = 1e-4;
  return st;
}

// The matrices of step_derivatives by central differences of one step of sim.
struct Differences {
  Matrix dv_dq, dv_dv, dv_dqfrc, dv_dctrl, dq_dq, dq_dv, dq_dqfrc, dq_dctrl;
};

Differences central_differences(Simulator& sim, double delta) {
  const Vector q0 = sim.q(), v0 = sim.v();
  const Vector f0 =
      sim.qfrc_applied().size() == sim.nv() ? sim.qfrc_applied() : Vector(Vector::Zero(sim.nv()));
  const Vector c0 = sim.ctrl().size() == sim.nu() ? sim.ctrl() : Vector(Vector::Zero(sim.nu()));
  const Index n = sim.nv(), nu = sim.nu();
  const RigidWorldSystem& sys = sim.system();
  // (q⁺ ⊖ q_ref, v⁺) of one step from (q, v) with qfrc f and ctrl c
  sim.set_state(q0, v0);
  sim.qfrc_applied() = f0;
  sim.ctrl() = c0;
  sim.step();
  const Vector q_ref = sim.q();
  auto step = [&](const Vector& q, const Vector& v, const Vector& f, Vector& dq, Vector& vn,
                  const Vector* c = nullptr) {
    sim.set_state(q, v);
    sim.qfrc_applied() = f;
    sim.ctrl() = c ? *c : c0;
    sim.step();
    dq = sys.difference(q_ref, sim.q());
    vn = sim.v();
  };
  Differences d;
  for (Matrix* m : {&d.dv_dq, &d.dv_dv, &d.dv_dqfrc, &d.dq_dq, &d.dq_dv, &d.dq_dqfrc})
    m->resize(n, n);
  for (Index j = 0; j < n; ++j) {
    const Vector e = Vector::Unit(n, j) * delta;
    Vector dqp, dqm, vp, vm;
    step(sys.integrate(q0, e, 1.0), v0, f0, dqp, vp);
    step(sys.integrate(q0, -e, 1.0), v0, f0, dqm, vm);
    d.dq_dq.col(j) = (dqp - dqm) / (2 * delta);
    d.dv_dq.col(j) = (vp - vm) / (2 * delta);
    step(q0, v0 + e, f0, dqp, vp);
    step(q0, v0 - e, f0, dqm, vm);
    d.dq_dv.col(j) = (dqp - dqm) / (2 * delta);
    d.dv_dv.col(j) = (vp - vm) / (2 * delta);
    step(q0, v0, f0 + e, dqp, vp);
    step(q0, v0, f0 - e, dqm, vm);
    d.dq_dqfrc.col(j) = (dqp - dqm) / (2 * delta);
    d.dv_dqfrc.col(j) = (vp - vm) / (2 * delta);
  }
  d.dv_dctrl.resize(n, nu);
  d.dq_dctrl.resize(n, nu);
  for (Index j = 0; j < nu; ++j) {
    const Vector cp = c0 + Vector::Unit(nu, j) * delta, cm = c0 - Vector::Unit(nu, j) * delta;
    Vector dqp, dqm, vp, vm;
    step(q0, v0, f0, dqp, vp, &cp);
    step(q0, v0, f0, dqm, vm, &cm);
    d.dq_dctrl.col(j) = (dqp - dqm) / (2 * delta);
    d.dv_dctrl.col(j) = (vp - vm) / (2 * delta);
  }
  sim.set_state(q0, v0);
  sim.qfrc_applied() = f0;
  sim.ctrl() = c0;
  return d;
}

// ‖A − B‖ / max(‖B‖, 1): the agreement the issue asks for (1e-6 relative).
double relative(const Matrix& A, const Matrix& B) {
  return (A - B).norm() / std::max(B.norm(), 1.0);
}

// The derivatives at the simulator's state against the differences, every matrix within 1e-6;
// returns them.
StepDerivatives check_against_differences(Simulator& sim) {
  const StepDerivatives d = sim.step_derivatives();
  const Differences fd = central_differences(sim, 1e-5);
  EXPECT_LT(relative(d.dv_dq, fd.dv_dq), 1e-6) << "dv_dq\n" << d.dv_dq << "\nfd\n" << fd.dv_dq;
  EXPECT_LT(relative(d.dv_dv, fd.dv_dv), 1e-6) << "dv_dv\n" << d.dv_dv << "\nfd\n" << fd.dv_dv;
  EXPECT_LT(relative(d.dv_dqfrc, fd.dv_dqfrc), 1e-6) << "dv_dqfrc\n"
                                                     << d.dv_dqfrc << "\nfd\n"
                                                     << fd.dv_dqfrc;
  if (sim.nu() > 0) {
    EXPECT_LT(relative(d.dv_dctrl, fd.dv_dctrl), 1e-6) << "dv_dctrl\n"
                                                       << d.dv_dctrl << "\nfd\n"
                                                       << fd.dv_dctrl;
    EXPECT_LT(relative(d.dq_dctrl, fd.dq_dctrl), 1e-6) << "dq_dctrl\n"
                                                       << d.dq_dctrl << "\nfd\n"
                                                       << fd.dq_dctrl;
  }
  EXPECT_LT(relative(d.dq_dq, fd.dq_dq), 1e-6) << "dq_dq\n" << d.dq_dq << "\nfd\n" << fd.dq_dq;
  EXPECT_LT(relative(d.dq_dv, fd.dq_dv), 1e-6) << "dq_dv\n" << d.dq_dv << "\nfd\n" << fd.dq_dv;
  EXPECT_LT(relative(d.dq_dqfrc, fd.dq_dqfrc), 1e-6) << "dq_dqfrc\n"
                                                     << d.dq_dqfrc << "\nfd\n"
                                                     << fd.dq_dqfrc;
  // the state and inputs are unchanged, and the step it describes is the one step() takes
  const Vector q0 = sim.q(), v0 = sim.v();
  sim.step();
  EXPECT_LT((sim.v() - d.v_next).norm(), 1e-9);
  EXPECT_LT(sim.system().difference(d.q_next, sim.q()).norm(), 1e-12);
  sim.set_state(q0, v0);
  return d;
}

// A 0.1 m sphere of 1 kg on the floor (μ = 0.5, e as given) at height z with velocity v.
std::unique_ptr<Simulator> sphere(double z, const Vector& v, double e = 0.0) {
  ContactMaterial mat;
  mat.mu = 0.5;
  mat.restitution = e;
  auto w = test::world_with_floor(3, mat);
  w->add_body(test::sphere_body("ball", 1.0, 0.1, Vector3(0, 0, z)));
  auto sim = std::make_unique<Simulator>(w, CollisionSettings{}, exact_steps());
  const Vector q = sim->q();
  sim->set_state(q, v);
  return sim;
}

Vector six(double a, double b, double c, double d, double e, double f) {
  Vector v(6);
  v << a, b, c, d, e, f;
  return v;
}

// In free flight a sphere (isotropic inertia: no gyroscopic term) keeps v + h g: ∂v⁺/∂v = I,
// ∂v⁺/∂q = 0, ∂v⁺/∂qfrc = h/m on the translations and h/I on the rotations.
TEST(StepDerivatives, FreeFlightIsTheIdentityPlusTheImpulseOfTheForce) {
  auto sp = sphere(1.0, six(1.0, 0.0, 2.0, 0.3, -0.2, 0.5));
  Simulator& sim = *sp;
  const StepDerivatives d = check_against_differences(sim);
  EXPECT_TRUE(d.contacts.empty());
  EXPECT_LT((d.dv_dv - Matrix::Identity(6, 6)).norm(), 1e-9);
  EXPECT_LT(d.dv_dq.norm(), 1e-9);
  const double I = 0.4 * 0.01;
  EXPECT_NEAR(d.dv_dqfrc(0, 0), 1e-3, 1e-12);
  EXPECT_NEAR(d.dv_dqfrc(3, 3), 1e-3 / I, 1e-9);
}

// At rest on the floor with a small horizontal push (1 N < μ m g) the sphere rolls: the contact
// sticks, and the push's effect on v⁺ is that of a rolling sphere, m_eff = m + I/r² = 1.4 m:
// ∂v_x⁺/∂f_x = h/(1.4 m).
TEST(StepDerivatives, StickingSphereRollsWithTheRollingMass) {
  auto sp = sphere(0.1, Vector::Zero(6));
  Simulator& sim = *sp;
  sim.qfrc_applied() = six(1.0, 0, 0, 0, 0, 0);
  const StepDerivatives d = check_against_differences(sim);
  ASSERT_EQ(d.contacts.size(), 1u);
  EXPECT_EQ(d.contacts[0].mode, ContactMode::stick);
  EXPECT_FALSE(d.contacts[0].degenerate);
  EXPECT_NEAR(d.dv_dqfrc(0, 0), 1e-3 / 1.4, 1e-12);
}

// Sliding at 2 m/s: the friction impulse is μ r_n, and r_n follows the normal velocity, so
// ∂v_x⁺/∂v_z⁻ = 0 here (plastic) and the tangential velocity loses μ g h per step.
TEST(StepDerivatives, SlidingSphereAgreesWithDifferences) {
  auto sp = sphere(0.1, six(2.0, 0.5, 0, 0, 0, 0));
  Simulator& sim = *sp;
  const StepDerivatives d = check_against_differences(sim);
  ASSERT_EQ(d.contacts.size(), 1u);
  EXPECT_EQ(d.contacts[0].mode, ContactMode::slip);
}

// Lifted off by an upward force larger than its weight, the contact of the index set opens:
// the step is free flight.
TEST(StepDerivatives, SeparatingContactIsFreeFlight) {
  auto sp = sphere(0.1, six(0.5, 0, 0, 0, 0, 0));
  Simulator& sim = *sp;
  sim.qfrc_applied() = six(0, 0, 20.0, 0, 0, 0);
  const StepDerivatives d = check_against_differences(sim);
  ASSERT_EQ(d.contacts.size(), 1u);
  EXPECT_EQ(d.contacts[0].mode, ContactMode::separate);
  EXPECT_LT((d.dv_dv - Matrix::Identity(6, 6)).norm(), 1e-9);
}

// An impact at −1 m/s with e = 0.5 (Newton restitution): u_n⁺ = −e u_n⁻, so ∂v_z⁺/∂v_z = −e.
TEST(StepDerivatives, ImpactWithRestitution) {
  auto sp = sphere(0.1 + 1e-4, six(0.3, 0, -1.0, 0, 0, 0), 0.5);
  Simulator& sim = *sp;
  const StepDerivatives d = check_against_differences(sim);
  ASSERT_EQ(d.contacts.size(), 1u);
  EXPECT_NE(d.contacts[0].mode, ContactMode::separate);
  EXPECT_NEAR(d.dv_dv(2, 2), -0.5, 1e-9);
}

// A 0.4 × 0.2 × 0.1 m box of 1 kg with its centre at height z above the floor (μ = 0.5, e as
// given), lying flat.
std::shared_ptr<RigidWorld> flat_box(double z, double e) {
  ContactMaterial mat;
  mat.mu = 0.5;
  mat.restitution = e;
  auto w = test::world_with_floor(3, mat);
  RigidBody b = test::box_body("box", 1.0, Vector3(0.2, 0.1, 0.05),
                               Matrix3(Vector3(0.0042, 0.0142, 0.0167).asDiagonal()));
  b.pose.position = Vector3(0, 0, z);
  w->add_body(b);
  return w;
}

// A box flat on the floor touches it at four corners: 12 rows on 6 velocities, the impulses not
// unique, the velocities are. Sticking under a small push, and sliding.
TEST(StepDerivatives, BoxFlatOnTheFloorSticksAndSlides) {
  Simulator sim(flat_box(0.05, 0.0), CollisionSettings{}, exact_steps());
  sim.qfrc_applied() = six(1.0, 0.5, 0, 0, 0, 0.1);
  StepDerivatives d = check_against_differences(sim);
  ASSERT_EQ(d.contacts.size(), 4u);
  for (const auto& c : d.contacts) EXPECT_EQ(c.mode, ContactMode::stick);
  // stuck: the push moves nothing
  EXPECT_LT(d.dv_dqfrc.norm(), 1e-9);

  // sliding without spin (a spinning box's friction torque depends on how the normal impulse is
  // shared between the corners, which the law leaves open: docs/gradients.md §Uniqueness)
  sim.qfrc_applied() = Vector::Zero(6);
  sim.set_state(sim.q(), six(1.0, 0.3, 0, 0, 0, 0));
  d = check_against_differences(sim);
  for (const auto& c : d.contacts) EXPECT_EQ(c.mode, ContactMode::slip);
}

// The same box in the other modes: tumbling in free flight (its gyroscopic torque ω × Iω makes
// ∂v⁺/∂v and ∂v⁺/∂q differ from the identity and zero), lifted off the floor by a force above its
// weight (separating), and landing flat at 1 m/s with e = 0.5 on its four corners (impact).
TEST(StepDerivatives, BoxInFreeFlightSeparatingAndLanding) {
  Simulator sim(flat_box(1.0, 0.5), CollisionSettings{}, exact_steps());
  const Vector q_air = sim.q();
  sim.set_state(q_air, six(0.5, 0, 1.0, 3.0, -2.0, 5.0));
  StepDerivatives d = check_against_differences(sim);
  EXPECT_TRUE(d.contacts.empty());
  EXPECT_GT((d.dv_dv - Matrix::Identity(6, 6)).norm(), 1e-3);  // the gyroscopic term acts

  Vector q_floor = q_air;
  q_floor[2] = 0.05;
  sim.set_state(q_floor, Vector::Zero(6));
  sim.qfrc_applied() = six(0, 0, 20.0, 0, 0, 0);
  d = check_against_differences(sim);
  ASSERT_EQ(d.contacts.size(), 4u);
  for (const auto& c : d.contacts) EXPECT_EQ(c.mode, ContactMode::separate);

  sim.qfrc_applied() = Vector::Zero(6);
  q_floor[2] = 0.05 + 1e-4;
  sim.set_state(q_floor, six(0.2, 0, -1.0, 0, 0, 0));
  d = check_against_differences(sim);
  ASSERT_EQ(d.contacts.size(), 4u);
  EXPECT_NEAR(d.dv_dv(2, 2), -0.5, 1e-9);  // u_n⁺ = −e u_n⁻
}

// Two 1 kg links on hinges about y (shoulder at (0, 0, 0.5), elbow at (0.2, 0, 0.5)), the lower
// link's 0.1 m ball end resting on the table at z = 0 (its centre at z = 0.1), over a floor of
// material mat; the elbow limited to [lower, upper] when limited.
std::shared_ptr<RigidWorld> arm_on_table(const ContactMaterial& mat, bool limited = false,
                                         double lower = 0.0, double upper = 0.0) {
  auto w = test::world_with_floor(3, mat);
  w->add_body(test::block("upper", Vector3(0.2, 0, 0.5), 1.0, Vector3(0.001, 0.02, 0.02)));
  RigidBody link = test::block("lower", Vector3(0.4, 0, 0.3), 1.0, Vector3(0.02, 0.02, 0.001));
  Shape ball;
  ball.kind = ShapeKind::sphere;
  ball.radius = 0.1;
  ball.offset.position = Vector3(0, 0, -0.2);  // the ball's centre at z = 0.1: on the table
  link.shapes.push_back(ball);
  w->add_body(link);
  w->add_joint(
      test::hinge(1, -1, Vector3(-0.2, 0, 0), Vector3(0, 0, 0.5), Vector3::UnitY(), "shoulder"));
  Joint elbow =
      test::hinge(2, 1, Vector3(0, 0, 0.2), Vector3(0.2, 0, 0), Vector3::UnitY(), "elbow");
  elbow.limited = limited, elbow.lower = lower, elbow.upper = upper;
  w->add_joint(elbow);
  return w;
}

// An arm in joint coordinates (two hinges about y, 1 kg links) whose lower link's ball end rests
// on a table (μ = 0.8, e = 0.5), a position servo (kp = 50 N·m/rad, kv = 5 N·m·s/rad: linearly
// implicit) on the shoulder and a motor on the elbow: the contact sticks at rest, slips when the
// elbow swings, opens when the servo lifts the arm, is absent above the table, and strikes it.
TEST(StepDerivatives, ArmInJointCoordinatesTouchingATable) {
  ContactMaterial mat;
  mat.mu = 0.8;
  mat.restitution = 0.5;
  auto w = arm_on_table(mat);
  Actuator servo;
  servo.joint = 0;
  servo.gain = 50.0;
  servo.bias = {0.0, -50.0, -5.0};
  w->add_actuator(servo);
  Actuator motor;
  motor.joint = 1;
  w->add_actuator(motor);
  Simulator sim(w, CollisionSettings{}, exact_steps());
  ASSERT_EQ(sim.nv(), 2);
  ASSERT_EQ(sim.nu(), 2);
  sim.ctrl() << 0.02, 0.3;
  StepDerivatives d = check_against_differences(sim);
  ASSERT_EQ(d.contacts.size(), 1u);
  EXPECT_EQ(d.contacts[0].mode, ContactMode::stick);

  sim.set_state(sim.q(), Vector2(0.0, 2.0));
  d = check_against_differences(sim);
  ASSERT_EQ(d.contacts.size(), 1u);
  EXPECT_EQ(d.contacts[0].mode, ContactMode::slip);

  // lifted off the table by the servo turned to −0.5 rad (25 N·m up at the shoulder): the
  // contact of the index set opens
  sim.set_state(sim.q(), Vector2::Zero());
  sim.ctrl() << -0.5, 0.0;
  d = check_against_differences(sim);
  ASSERT_EQ(d.contacts.size(), 1u);
  EXPECT_EQ(d.contacts[0].mode, ContactMode::separate);

  // swinging free above the table: no contact, the servo's gains in M̂
  Vector q = sim.q();
  q[1] = -0.5;
  sim.set_state(q, Vector2(1.0, -2.0));
  d = check_against_differences(sim);
  EXPECT_TRUE(d.contacts.empty());

  // the ball 0.1 mm above the table, the shoulder turning down at 2.5 rad/s: the ball strikes
  // at 1 m/s (an impact with restitution)
  q.setZero();
  q[0] = -2.5e-4;
  sim.set_state(q, Vector2(2.5, 0.0));
  sim.ctrl() << 0.0, 0.0;
  d = check_against_differences(sim);
  ASSERT_EQ(d.contacts.size(), 1u);
  EXPECT_NE(d.contacts[0].mode, ContactMode::separate);
  // the ball's vertical velocity is −0.4 m × the shoulder's (the elbow's moves it sideways), so
  // u_n⁺ = −e u_n⁻ gives v₀⁺ = −e v₀ = −1.25 rad/s and ∂v₀⁺/∂v₀ = −e, up to the shoulder's
  // 2.5e-4 rad (at which the elbow's rotation moves the ball vertically too)
  EXPECT_NEAR(d.v_next[0], -1.25, 1e-3);
  EXPECT_NEAR(d.dv_dv(0, 0), -0.5, 1e-3);
}

// Two spheres stacked off-centre on the floor (the upper one 25° from the top of the lower:
// contacts sphere–plane and sphere–sphere, whose normal turns as the centres move), resting
// (stick) and with the upper one sliding over the lower (slip); then a ball on a static bump.
TEST(StepDerivatives, SpheresOnSpheresAgreeWithDifferences) {
  ContactMaterial mat;
  mat.mu = 0.6;
  auto w = test::world_with_floor(3, mat);
  w->add_body(test::sphere_body("low", 2.0, 0.15, Vector3(0, 0, 0.15)));
  const double a = 25.0 * M_PI / 180.0;
  w->add_body(
      test::sphere_body("up", 1.0, 0.1, Vector3(0.25 * std::sin(a), 0, 0.15 + 0.25 * std::cos(a))));
  Simulator sim(w, CollisionSettings{}, exact_steps());
  StepDerivatives d = check_against_differences(sim);
  ASSERT_EQ(d.contacts.size(), 2u);
  Vector v = Vector::Zero(12);
  v.segment<3>(6) = Vector3(std::cos(a), 0.3, -std::sin(a));  // along the lower one's surface
  sim.set_state(sim.q(), v);
  d = check_against_differences(sim);
  ASSERT_EQ(d.contacts.size(), 2u);
  EXPECT_TRUE(d.contacts[0].mode == ContactMode::slip || d.contacts[1].mode == ContactMode::slip);

  auto bump = test::world_with_floor(3, mat);
  RigidBody hill = test::sphere_body("hill", 1.0, 0.3, Vector3(0, 0, -0.1));
  hill.is_static = true;
  bump->add_body(hill);
  const double b = 20.0 * M_PI / 180.0;
  bump->add_body(
      test::sphere_body("ball", 1.0, 0.1, Vector3(0.4 * std::sin(b), 0, -0.1 + 0.4 * std::cos(b))));
  Simulator on_bump(bump, CollisionSettings{}, exact_steps());
  Vector vb = Vector::Zero(6);
  vb.head<3>() = Vector3(0.5 * std::cos(b), 0.2, -0.5 * std::sin(b));
  vb.tail<3>() = Vector3(0.0, 3.0, 1.0);
  on_bump.set_state(on_bump.q(), vb);
  d = check_against_differences(on_bump);
  ASSERT_EQ(d.contacts.size(), 1u);
}

// An arm of two hinges resting on its elbow's limit (a constant unit row), with its ball end on a
// table: the limit and the contact in one index set.
TEST(StepDerivatives, ArmOnItsLimitAndATable) {
  ContactMaterial mat;
  mat.mu = 0.8;
  // the weight of the lower link turns the elbow towards +: it rests on its upper limit, 0
  auto w = arm_on_table(mat, true, -1.0, 0.0);
  Simulator sim(w, CollisionSettings{}, exact_steps());
  sim.set_state(sim.q(), Vector2(0.0, 0.5));
  const StepDerivatives d = check_against_differences(sim);
  ASSERT_EQ(d.contacts.size(), 2u);
}

// Planar worlds (y up): a disk sliding and spinning on the floor, a box sliding flat on it (two
// corners), and a disk resting off-centre on another disk that rests on the floor.
TEST(StepDerivatives, PlanarDisksAndABoxAgreeWithDifferences) {
  ContactMaterial mat;
  mat.mu = 0.4;
  auto disk = test::world_with_floor(2, mat);
  disk->add_body(test::sphere_body("disk", 1.0, 0.1, Vector3(0, 0.1, 0)));
  Simulator rolling(disk, CollisionSettings{}, exact_steps());
  rolling.set_state(rolling.q(), Vector3(1.0, 0.0, 3.0));
  StepDerivatives d = check_against_differences(rolling);
  ASSERT_EQ(d.contacts.size(), 1u);
  EXPECT_EQ(d.contacts[0].mode, ContactMode::slip);

  auto flat = test::world_with_floor(2, mat);
  flat->add_body(test::box_body("box", 1.0, Vector3(0.1, 0.05, 0.05), Matrix3::Identity() * 0.004));
  Simulator box(flat, CollisionSettings{}, exact_steps());
  Vector q = box.q();
  q[1] = 0.05;
  box.set_state(q, Vector3(0.5, 0.0, 0.0));
  d = check_against_differences(box);
  ASSERT_EQ(d.contacts.size(), 2u);

  auto stack = test::world_with_floor(2, mat);
  stack->add_body(test::sphere_body("low", 2.0, 0.15, Vector3(0, 0.15, 0)));
  const double a = 20.0 * M_PI / 180.0;
  stack->add_body(
      test::sphere_body("up", 1.0, 0.1, Vector3(0.25 * std::sin(a), 0.15 + 0.25 * std::cos(a), 0)));
  Simulator pile(stack, CollisionSettings{}, exact_steps());
  Vector v = Vector::Zero(6);
  v.segment<3>(3) = Vector3(std::cos(a), -std::sin(a), 1.0);
  pile.set_state(pile.q(), v);
  d = check_against_differences(pile);
  ASSERT_EQ(d.contacts.size(), 2u);
}

// `body` moving at v (ω = (1, −2, 0.5)) over a static body carrying shape `support`, above a
// floor, checked against differences; returns the derivatives.
StepDerivatives resting_on(const Shape& support, const RigidBody& body, const Vector3& v) {
  ContactMaterial mat;
  mat.mu = 0.5;
  auto w = test::world_with_floor(3, mat);
  RigidBody fixed;
  fixed.name = "support";
  fixed.is_static = true;
  fixed.shapes.push_back(support);
  w->add_body(fixed);
  w->add_body(body);
  Simulator sim(w, CollisionSettings{}, exact_steps());
  Vector vb = Vector::Zero(6);
  vb.head<3>() = v;
  vb.tail<3>() = Vector3(1.0, -2.0, 0.5);
  sim.set_state(sim.q(), vb);
  return check_against_differences(sim);
}

// A 0.1 m ball resting at `center` with velocity v over `support` (resting_on).
StepDerivatives ball_on(const Shape& support, const Vector3& center, const Vector3& v) {
  return resting_on(support, test::sphere_body("ball", 1.0, 0.1, center), v);
}

// A ball on a capsule (over its axis, where the nearest axis point slides, and over its end) and
// on a box (its top face, an edge, where the nearest edge point slides, and a corner): the
// normal turns with the ball's centre except on the face.
TEST(StepDerivatives, BallOnACapsuleAndABoxAgreesWithDifferences) {
  const Shape capsule = make_capsule(0.1, 0.3, Pose{Vector3(0, 0, 0.3), Quaternion::Identity()});
  const double a = 30.0 * M_PI / 180.0;
  EXPECT_EQ(ball_on(capsule, Vector3(0.1, 0.2 * std::sin(a), 0.3 + 0.2 * std::cos(a)),
                    Vector3(0.3, 0.5 * std::cos(a), -0.5 * std::sin(a)))
                .contacts.size(),
            1u);
  EXPECT_EQ(ball_on(capsule, Vector3(0.3 + 0.2 * std::sin(a), 0, 0.3 + 0.2 * std::cos(a)),
                    Vector3(0.4, 0.3, -0.1))
                .contacts.size(),
            1u);
  const Shape box =
      make_box(Vector3(0.2, 0.2, 0.1),
               Pose{Vector3(0, 0, 0.3), Quaternion(Eigen::AngleAxisd(0.3, Vector3(0, 0, 1)))});
  const Quaternion R = box.offset.orientation;
  const Vector3 top = box.offset.position;
  EXPECT_EQ(ball_on(box, top + R * Vector3(0.05, 0.02, 0.2), Vector3(0.5, 0.1, 0)).contacts.size(),
            1u);
  const double b = 35.0 * M_PI / 180.0;
  EXPECT_EQ(ball_on(box, top + R * Vector3(0.2 + 0.1 * std::sin(b), 0.05, 0.1 + 0.1 * std::cos(b)),
                    Vector3(0.2, 0.4, -0.1))
                .contacts.size(),
            1u);
  EXPECT_EQ(ball_on(box, top + R * (Vector3(0.2, 0.2, 0.1) + 0.1 * Vector3(1, 1, 1).normalized()),
                    Vector3(0.3, -0.2, 0.1))
                .contacts.size(),
            1u);
}

// A capsule lying across a static capsule (their axes skew, both nearest points sliding on them)
// and one whose end rests on its side.
TEST(StepDerivatives, CapsuleOnACapsuleAgreesWithDifferences) {
  const Shape lying = make_capsule(0.1, 0.3, Pose{Vector3(0, 0, 0.3), Quaternion::Identity()});
  RigidBody across;
  across.name = "across";
  across.mass = 1.0;
  across.inertia = Vector3(0.001, 0.02, 0.02).asDiagonal();
  across.pose =
      Pose{Vector3(0.05, 0.02, 0.45), Quaternion(Eigen::AngleAxisd(1.0, Vector3::UnitZ()))};
  across.shapes.push_back(make_capsule(0.05, 0.25));
  EXPECT_EQ(resting_on(lying, across, Vector3(0.3, 0.1, 0.0)).contacts.size(), 1u);
  // tilted 60° from the vertical over the lying one's side: its lower end on it
  RigidBody leaning = across;
  const double a = 30.0 * M_PI / 180.0;
  const Quaternion tilt(Eigen::AngleAxisd(a - M_PI / 2, Vector3::UnitY()));  // its −x end lowest
  const Vector3 end = Vector3(0.1, 0.15 * std::sin(0.4), 0.3 + 0.15 * std::cos(0.4));
  leaning.pose = Pose{end - tilt * Vector3(-0.25, 0, 0), tilt};
  EXPECT_EQ(resting_on(lying, leaning, Vector3(0.2, -0.3, 0.0)).contacts.size(), 1u);
}

}  // namespace
}  // namespace moreau
