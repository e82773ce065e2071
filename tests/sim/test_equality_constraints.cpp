// Equality constraints of rigid worlds in joint coordinates (model/rigid/equality.hpp): welds,
// couplings and tendons against closed forms, and their rows' c terms against finite differences.
#include <gtest/gtest.h>

#include <cmath>

#include "moreau/contact/rigid_world_system.hpp"
#include "../model/joint_world_parts.hpp"
#include "moreau/sim/simulation.hpp"

using namespace moreau;
using moreau::test::block;
using moreau::test::hinge;

namespace {

SimulationResult run(std::shared_ptr<RigidWorld> world, double t_end, double dt,
                     double projection_tolerance = 1e-8) {
  const RigidWorldSystem sys(std::move(world), CollisionSettings{.margin = 0.02});
  SimulationSettings st;
  st.integrator = Integrator::time_stepping;
  st.t_end = t_end;
  st.time_stepping.dt = dt;
  st.time_stepping.contacts.projection_tolerance = projection_tolerance;
  return simulate(sys, st);
}

Index column(const SimulationResult& r, const std::string& name) {
  for (size_t i = 0; i < r.position_names.size(); ++i)
    if (r.position_names[i] == name) return static_cast<Index>(i);
  return -1;
}

// c = J̇ v of every constraint row at (q, v), against (J(q ⊕ εv) − J(q ⊕ −εv)) v / 2ε.
void expect_rate_terms_match_finite_differences(const RigidWorldSystem& sys, const Vector& q,
                                                const Vector& v, double tol) {
  const ContactState s = sys.contact_state(q, v, 0.0);
  const double eps = 1e-6;
  const ContactState sp = sys.contact_state(sys.integrate(q, v, eps), v, 0.0);
  const ContactState sm = sys.contact_state(sys.integrate(q, v, -eps), v, 0.0);
  ASSERT_EQ(sp.size(), s.size());
  ASSERT_EQ(sm.size(), s.size());
  for (Index i = 0; i < s.size(); ++i) {
    const double fd = (sp.constraints[i].normal - sm.constraints[i].normal).dot(v) / (2 * eps);
    EXPECT_NEAR(s.constraints[i].normal_bias, fd, tol) << s.constraints[i].name;
  }
}

}  // namespace

// A pendulum (hinge at the world) carries a second body held to it by a weld (an MJCF <equality
// weld>, a closure joint), released at 60°: the weld is a cycle-closing row, and the projection
// holds both bodies together to 1e-9 m and rad over 1 s of swinging.
TEST(EqualityConstraints, WeldHoldsTwoBodiesTogether) {
  auto w = std::make_shared<RigidWorld>(3);
  const Quaternion tilt(Eigen::AngleAxisd(M_PI / 3, Vector3::UnitY()));
  const Vector3 down = tilt * Vector3(0, 0, -1);
  RigidBody rod = block("rod", 0.5 * down, 1.0, Vector3(0.02, 0.02, 0.001));
  rod.pose.orientation = tilt;
  RigidBody bob = block("bob", 1.0 * down, 2.0, Vector3(0.01, 0.01, 0.01));
  bob.pose.orientation = tilt;
  w->add_body(rod);
  w->add_body(bob);
  w->add_joint(hinge(0, -1, Vector3(0, 0, 0.5), Vector3::Zero(), Vector3::UnitY(), "pivot"));
  Joint weld;
  weld.name = "weld";
  weld.kind = JointKind::fixed;
  weld.closure = true;
  weld.body_a = 1;
  weld.body_b = 0;
  weld.anchor_a = Vector3::Zero();
  weld.anchor_b = Vector3(0, 0, -0.5);
  w->add_joint(weld);
  const RigidWorldSystem sys(w, CollisionSettings{});
  ASSERT_EQ(sys.forest()->closure_joints.size(), 1u);  // the weld stays a row
  const SimulationResult r = run(w, 1.0, 1e-3, 1e-10);
  ASSERT_EQ(r.status, SimulationStatus::completed);
  double worst = 0.0;
  const Vector v0 = Vector::Zero(w->velocity_size());
  for (const Vector& q : r.q)
    worst = std::max(worst, w->joint_rows(q.head(w->position_size()), v0, 1).residual.norm());
  EXPECT_LT(worst, 1e-9);
  // and the pair swings: released at x = −0.43 m, it is past the vertical after 1 s (half a period)
  const Index rod_x = column(r, "rod.x");
  EXPECT_NEAR(r.q.front()[rod_x], -0.5 * std::sin(M_PI / 3), 1e-12);
  EXPECT_GT(r.q.back()[rod_x], 0.3);
}

// Two rotors on hinges about z, without gravity, coupled as y = −2x (a mimic: rotor b turns
// twice as fast the other way); a torque τ = 0.3 N·m on rotor a. The coupling makes one dof of
// inertia I = I_a + 4 I_b, so x(t) = ½ (τ/I) t²; the ratio holds to the projection tolerance.
TEST(EqualityConstraints, MimicKeepsItsRatioAndMovesTheCombinedInertia) {
  auto w = std::make_shared<RigidWorld>(3);
  w->set_gravity(Vector3::Zero());
  RigidBody a = block("a", Vector3(-1, 0, 0), 1.0, Vector3(0.1, 0.1, 0.2));
  a.applied_torque = Vector3(0, 0, 0.3);
  w->add_body(a);
  w->add_body(block("b", Vector3(1, 0, 0), 1.0, Vector3(0.1, 0.1, 0.05)));
  w->add_joint(hinge(0, -1, Vector3::Zero(), Vector3(-1, 0, 0), Vector3::UnitZ(), "ja"));
  w->add_joint(hinge(1, -1, Vector3::Zero(), Vector3(1, 0, 0), Vector3::UnitZ(), "jb"));
  w->add_coupling(Coupling{.name = "mimic", .first = 1, .second = 0, .polycoef = {0, -2, 0, 0, 0}});
  const SimulationResult r = run(w, 1.0, 1e-3, 1e-10);
  ASSERT_EQ(r.status, SimulationStatus::completed);
  const Index xa = column(r, "ja.q"), xb = column(r, "jb.q");
  ASSERT_GE(xa, 0);
  ASSERT_GE(xb, 0);
  const double I = 0.2 + 4 * 0.05, t = r.t.back();
  EXPECT_NEAR(r.q.back()[xa], 0.5 * 0.3 / I * t * t, 1e-6);
  for (const Vector& q : r.q) EXPECT_NEAR(q[xb], -2.0 * q[xa], 1e-9);
}

// A 1 kg mass hangs on a rope (a spatial tendon from a fixed site to the mass, limited above at
// 1 m), released 0.05 m short of taut and 0.3 m to the side: it falls freely until the rope is
// taut, then swings on it. The length never exceeds 1 m by more than the projection tolerance, and
// at the end the mass hangs at the rope's length (taut: the rope holds it).
TEST(EqualityConstraints, RopeHoldsAMassAtItsLength) {
  auto w = std::make_shared<RigidWorld>(3);
  const double x0 = 0.3, z0 = -std::sqrt(0.95 * 0.95 - x0 * x0);
  w->add_body(block("mass", Vector3(x0, 0, z0), 1.0, Vector3(0.01, 0.01, 0.01)));
  Tendon rope;
  rope.name = "rope";
  rope.path = {TendonSite{-1, Vector3::Zero()}, TendonSite{0, Vector3::Zero()}};
  rope.limited = true;
  rope.lower = -INFINITY;
  rope.upper = 1.0;
  w->add_tendon(rope);
  const RigidWorldSystem sys(w, CollisionSettings{});
  EXPECT_NEAR(sys.tendon_length(sys.initial_q, 0), 0.95, 1e-12);
  // the fall before the rope is taut is free: z = z₀ − ½ g t² at t = 0.05 s
  const SimulationResult r = run(w, 3.0, 1e-3);
  ASSERT_EQ(r.status, SimulationStatus::completed);
  const Index z = column(r, "mass.z"), x = column(r, "mass.x");
  for (size_t k = 0; k < r.t.size(); ++k) {
    const double L = std::hypot(r.q[k][x], r.q[k][z]);
    EXPECT_LE(L, 1.0 + 1e-8) << "t = " << r.t[k];
    if (std::abs(r.t[k] - 0.05) < 1e-9) EXPECT_NEAR(r.q[k][z], z0 - 0.5 * 9.81 * 0.0025, 1e-3);
  }
  // taut at the end: it swings at the rope's length
  EXPECT_NEAR(std::hypot(r.q.back()[x], r.q.back()[z]), 1.0, 1e-6);
}

// Two equal blocks on vertical slides, joined by a fixed tendon L = −s₁ − s₂ limited at 0.1 m (a
// cable over a pulley between them): they fall freely together until L = 0.1, then the cable
// holds both, 0.05 m below their start.
TEST(EqualityConstraints, FixedTendonLimitCatchesTwoSlides) {
  auto w = std::make_shared<RigidWorld>(3);
  w->add_body(block("left", Vector3(-1, 0, 0), 1.0, Vector3(0.1, 0.1, 0.1)));
  w->add_body(block("right", Vector3(1, 0, 0), 1.0, Vector3(0.1, 0.1, 0.1)));
  for (Index i = 0; i < 2; ++i) {
    Joint j;
    j.name = i == 0 ? "sl" : "sr";
    j.kind = JointKind::prismatic;
    j.body_a = i;
    j.axis_a = Vector3::UnitZ();
    w->add_joint(j);
  }
  Tendon cable;
  cable.name = "cable";
  cable.joints = {TendonJoint{0, -1.0}, TendonJoint{1, -1.0}};
  cable.limited = true;
  cable.lower = -10;
  cable.upper = 0.1;
  w->add_tendon(cable);
  const SimulationResult r = run(w, 1.0, 1e-3);
  ASSERT_EQ(r.status, SimulationStatus::completed);
  EXPECT_NEAR(r.q.back()[column(r, "sl.q")], -0.05, 1e-7);
  EXPECT_NEAR(r.q.back()[column(r, "sr.q")], -0.05, 1e-7);
}

// The c terms of a spatial tendon across two moving bodies and of a quadratic coupling, against
// finite differences of their rows.
TEST(EqualityConstraints, TendonAndCouplingRateTermsMatchFiniteDifferences) {
  auto w = std::make_shared<RigidWorld>(3);
  RigidBody a = block("a", Vector3(0, 0, -0.5), 1.0, Vector3(0.1, 0.1, 0.1));
  a.angular_velocity = Vector3(0, 1.3, 0);
  a.linear_velocity = Vector3(-0.65, 0, 0);
  w->add_body(a);
  RigidBody b = block("b", Vector3(0.6, 0.2, -0.4), 1.0, Vector3(0.1, 0.2, 0.1));
  b.angular_velocity = Vector3(0.4, -0.7, 1.1);
  b.linear_velocity = Vector3(0.3, 0.1, -0.2);
  w->add_body(b);
  w->add_joint(hinge(0, -1, Vector3(0, 0, 0.5), Vector3::Zero(), Vector3::UnitY(), "swing"));
  Joint slide;
  slide.name = "slide";
  slide.kind = JointKind::prismatic;
  slide.body_a = 1;
  slide.body_b = 0;
  slide.anchor_b = Vector3(0.6, 0.2, 0.1);
  slide.axis_a = Vector3(1, 1, 0);
  w->add_joint(slide);
  Tendon t;
  t.name = "cord";
  t.path = {TendonSite{-1, Vector3(1, 1, 1)}, TendonSite{0, Vector3(0.1, 0, 0.05)},
            TendonSite{1, Vector3(0, 0.05, 0.1)}};
  w->add_tendon(t);
  w->add_coupling(Coupling{.name = "quad", .first = 1, .second = 0, .polycoef = {0, 0.5, 2, 1, 3}});
  w->add_coupling(Coupling{.name = "hold", .kind = CouplingKind::tendon, .first = 0});
  const RigidWorldSystem sys(w, CollisionSettings{});
  Vector q = sys.initial_q, v = sys.initial_v;
  v << 1.3, 0.7;
  q = sys.integrate(q, v, 0.2);
  const ContactState s = sys.contact_state(q, v, 0.0);
  ASSERT_EQ(s.size(), 2);  // the two couplings, in order
  EXPECT_EQ(s.constraints[0].name, "coupling:quad:0");
  EXPECT_EQ(s.constraints[1].name, "coupling:hold:0");
  expect_rate_terms_match_finite_differences(sys, q, v, 1e-6);
}
