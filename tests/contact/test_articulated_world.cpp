// A RigidWorld with joints as a system in joint coordinates (contact/rigid_world_system.hpp
// §Joint coordinates): sizes and names, the recorded columns, closure rows of a cycle, joint limits
// as unit rows, and the mapped rows' kinematics (gap rates and c terms) against finite differences.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <optional>

#include "../model/fd_check.hpp"
#include "../model/joint_world_parts.hpp"
#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/model/velocity_level.hpp"

using namespace moreau;
using moreau::test::hinge;

namespace {

RigidBody link(const std::string& name, const Vector3& p, double half_length = 0.2) {
  RigidBody b;
  b.name = name;
  b.mass = 1.5;
  b.inertia = Vector3(0.02, 0.05, 0.05).asDiagonal();
  b.pose = Pose{p, Quaternion::Identity()};
  b.shapes.push_back(make_box(Vector3(half_length, 0.04, 0.04)));
  return b;
}

// A static floor: the plane z = height.
RigidBody floor_at(double height) {
  RigidBody floor;
  floor.name = "floor";
  floor.is_static = true;
  floor.pose.position = Vector3(0, 0, height);
  floor.shapes.push_back(make_plane(Vector3::UnitZ()));
  return floor;
}

// A double pendulum of two links along x hung from the world at the origin, over a floor, with a
// limited elbow and a loose box.
std::shared_ptr<RigidWorld> pendulum_world() {
  auto w = std::make_shared<RigidWorld>(3);
  w->add_body(floor_at(-0.5));
  w->add_body(link("upper", Vector3(0.2, 0, 0)));
  w->add_body(link("lower", Vector3(0.6, 0, 0)));
  RigidBody box = link("box", Vector3(2, 0, -0.45));
  w->add_body(box);
  w->add_joint(hinge(1, -1, Vector3(-0.2, 0, 0), Vector3::Zero(), Vector3::UnitY()));
  Joint elbow = hinge(2, 1, Vector3(-0.2, 0, 0), Vector3(0.2, 0, 0), Vector3::UnitY());
  elbow.name = "elbow";
  elbow.limited = true;
  elbow.lower = -0.5;
  elbow.upper = 0.05;
  w->add_joint(elbow);
  return w;
}

}  // namespace

// The state is the forest's: 1 + 1 hinge angles and the box's 7 + 6; the run records every
// body's pose and velocity under their names, then the two hinge angles and rates.
TEST(ArticulatedWorld, JointCoordinatesAndRecordedColumns) {
  const RigidWorldSystem sys(pendulum_world(), CollisionSettings{.margin = 0.1});
  ASSERT_TRUE(sys.articulated());
  EXPECT_EQ(sys.position_size(), 2 + 7);
  EXPECT_EQ(sys.velocity_size(), 2 + 6);
  const auto names = sys.recorded_position_names();
  ASSERT_EQ(static_cast<Index>(names.size()), 3 * 7 + 2);
  EXPECT_EQ(names[0], "upper.x");
  EXPECT_EQ(names[21], "joint0.q");
  EXPECT_EQ(names[22], "elbow.q");
  EXPECT_EQ(sys.recorded_velocity_names()[18 + 1], "elbow.v");
  // rotate the shoulder by 0.3 rad about y: the upper link's centre follows the circle
  Vector q = sys.initial_q;
  q[0] = 0.3;
  const Vector rec = sys.recorded_positions(q);
  EXPECT_NEAR(rec[0], 0.2 * std::cos(0.3), 1e-14);
  EXPECT_NEAR(rec[2], -0.2 * std::sin(0.3), 1e-14);  // +y rotation takes +x towards −z
  EXPECT_NEAR(rec[21], 0.3, 0.0);
  EXPECT_EQ(recorded_position_size(sys.world()), rec.size());
}

// recorded_state walks the forest once for what the four calls give one by one (each its own walk:
// T from the twists, V from the poses, the columns from the maximal view).
TEST(ArticulatedWorld, RecordedStateIsTheFourRecords) {
  const RigidWorldSystem sys(pendulum_world(), CollisionSettings{.margin = 0.1});
  Vector q = sys.initial_q, v = Vector::LinSpaced(sys.velocity_size(), -1.0, 2.0);
  q[0] = 0.3, q[1] = -0.2;
  const RecordedState r = sys.recorded_state(q, v);
  EXPECT_EQ(r.q, sys.recorded_positions(q));
  EXPECT_EQ(r.v, sys.recorded_velocities(q, v));
  EXPECT_NEAR(r.kinetic, sys.kinetic_energy(q, v), 1e-14 * r.kinetic);
  EXPECT_NEAR(r.kinetic, 0.5 * v.dot(sys.contact_state(q, v, 0.0).M * v), 1e-12 * r.kinetic);
  EXPECT_NEAR(r.potential, sys.potential_energy(q), 1e-14 * (1 + std::abs(r.potential)));
}

// A step's state carries the record of its (q, v) (the loop records the state a step ends at,
// which the next step detects at): the same numbers as recorded_state's own walk (T to round-off:
// the step's state sums it from RNEA's products I_b V_b, recorded_state from the twists); a
// contact state carries none.
TEST(ArticulatedWorld, StepStateCarriesTheRecordOfItsState) {
  const RigidWorldSystem sys(pendulum_world(), CollisionSettings{.margin = 0.1});
  Vector q = sys.initial_q, v = Vector::LinSpaced(sys.velocity_size(), -1.0, 2.0);
  q[0] = 0.3, q[1] = -0.2;
  const ContactState s = sys.step_state(q, v, 0.0, 1e-3, 1e-6);
  ASSERT_TRUE(s.recorded.has_value());
  const RecordedState r = sys.recorded_state(q, v);
  EXPECT_EQ(s.recorded->q, r.q);
  EXPECT_EQ(s.recorded->v, r.v);
  EXPECT_NEAR(s.recorded->kinetic, r.kinetic, 1e-14 * r.kinetic);
  EXPECT_EQ(s.recorded->potential, r.potential);
  EXPECT_FALSE(sys.contact_state(q, v, 0.0).recorded.has_value());
}

// The contact layer hands the record of its last detection over once, and only at the (q, v) it
// detected at: a second take, or a take at another state, finds none (the loop then asks the
// system).
TEST(ArticulatedWorld, TheLayerHandsItsRecordOverOnce) {
  const RigidWorldSystem sys(pendulum_world(), CollisionSettings{.margin = 0.1});
  Vector q = sys.initial_q, v = Vector::LinSpaced(sys.velocity_size(), -1.0, 2.0);
  q[0] = 0.3, q[1] = -0.2;
  StepContactSettings settings;
  settings.max_step = 1e-3;
  const std::unique_ptr<StepContacts> layer = sys.step_contacts(settings, ContactSolverSettings{});
  double penetration = 0.0;
  layer->detect(q, v, 0.0, penetration);
  const Vector other = v + Vector::Constant(v.size(), 1e-3);
  EXPECT_FALSE(layer->take_detected_record(q, other).has_value());
  const std::optional<RecordedState> taken = layer->take_detected_record(q, v);
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->q, sys.recorded_positions(q));
  EXPECT_EQ(taken->v, sys.recorded_velocities(q, v));
  EXPECT_FALSE(layer->take_detected_record(q, v).has_value());
  layer->detect(q, v, 0.0, penetration);  // a new detection carries a new record
  EXPECT_TRUE(layer->take_detected_record(q, v).has_value());
}

// mass_then_forces gives, from one walk of the forest, the M of mass_and_forces at q and then F at
// the velocity its callback chooses from M (which may change M in place, as the midpoint free
// flight adds its implicit terms): the same M and F as mass_and_forces at that velocity.
TEST(ArticulatedWorld, MassThenForcesIsMassAndForcesFromOneWalk) {
  const RigidWorldSystem sys(pendulum_world(), CollisionSettings{.margin = 0.1});
  Vector q = sys.initial_q;
  q[0] = 0.3, q[1] = -0.2;
  const Vector v = Vector::LinSpaced(sys.velocity_size(), -1.0, 2.0);
  Matrix M_ref, M, M_seen;
  Vector F_ref, F;
  sys.mass_and_forces(q, v, 0.0, M_ref, F_ref);
  sys.mass_then_forces(
      q, 0.0, M,
      [&](Matrix& M_at_q) -> const Vector& {
        M_seen = M_at_q;
        M_at_q.diagonal().array() += 1.0;
        return v;
      },
      F);
  EXPECT_LT((M_seen - M_ref).norm(), 1e-14 * M_ref.norm());
  EXPECT_LT((M - M_ref - Matrix::Identity(M.rows(), M.cols())).norm(), 1e-14 * M_ref.norm());
  EXPECT_LT((F - F_ref).norm(), 1e-14 * (1 + F_ref.norm()));
}

// A step's state without its record (step_state's with_record false, for a run that keeps no
// states) is the same state to the bit, record left out, both for a pendulum in free flight (no
// maximal coordinates formed at all then) and for one whose lower link touches a floor (mapped
// contact rows); with the record, T and V are the pendulum's energies from the body poses.
TEST(ArticulatedWorld, AStepStateWithoutItsRecordIsTheSameState) {
  for (const bool floor : {false, true}) {
    auto w = std::make_shared<RigidWorld>(3);
    w->add_body(link("upper", Vector3(0.2, 0, 0)));
    w->add_body(link("lower", Vector3(0.6, 0, 0)));
    w->add_joint(hinge(0, -1, Vector3(-0.2, 0, 0), Vector3::Zero(), Vector3::UnitY()));
    w->add_joint(hinge(1, 0, Vector3(-0.2, 0, 0), Vector3(0.2, 0, 0), Vector3::UnitY()));
    if (floor) w->add_body(floor_at(-0.04));  // touching the links' lower faces
    const RigidWorldSystem sys(w, CollisionSettings{.margin = 0.02});
    Vector v(2);
    v << 0.7, -1.1;
    const ContactState with = sys.step_state(sys.initial_q, v, 0.0, 1e-3, 1e-6);
    const ContactState without = sys.step_state(sys.initial_q, v, 0.0, 1e-3, 1e-6, false);
    ASSERT_TRUE(with.recorded.has_value());
    EXPECT_FALSE(without.recorded.has_value());
    EXPECT_TRUE(with.F == without.F) << floor;
    EXPECT_TRUE(with.M == without.M) << floor;
    ASSERT_EQ(with.constraints.size(), without.constraints.size());
    EXPECT_EQ(!with.constraints.empty(), floor);
    for (size_t i = 0; i < with.constraints.size(); ++i) {
      EXPECT_TRUE(with.constraints[i].normal == without.constraints[i].normal);
      EXPECT_EQ(with.constraints[i].gap, without.constraints[i].gap);
    }
    // T = ½ vᵀ M v from CRBA's M, V = Σ m g z_G of the poses recorded
    const Matrix M = sys.contact_state(sys.initial_q, v, 0.0).M;
    EXPECT_NEAR(with.recorded->kinetic, 0.5 * v.dot(M * v), 1e-12 * v.dot(M * v));
    const RecordedState ref = sys.recorded_state(sys.initial_q, v);
    EXPECT_NEAR(with.recorded->potential, ref.potential, 1e-12 * (1 + std::abs(ref.potential)));
    EXPECT_TRUE(with.recorded->q == ref.q);
  }
}

// A step's state leaves M out only when nothing but the free flight reads it: a hanging double
// pendulum without limits, contacts or joint friction; contact_state keeps M, and so does the
// step state once a joint has dry friction.
TEST(ArticulatedWorld, StepStateLeavesMOutOnlyForAFreeFlight) {
  auto make = [](double frictionloss) {
    auto w = std::make_shared<RigidWorld>(3);
    w->add_body(link("upper", Vector3(0.2, 0, 0)));
    w->add_body(link("lower", Vector3(0.6, 0, 0)));
    w->add_joint(hinge(0, -1, Vector3(-0.2, 0, 0), Vector3::Zero(), Vector3::UnitY()));
    Joint elbow = hinge(1, 0, Vector3(-0.2, 0, 0), Vector3(0.2, 0, 0), Vector3::UnitY());
    elbow.frictionloss = frictionloss;
    w->add_joint(elbow);
    return w;
  };
  const RigidWorldSystem free_flight(make(0.0), CollisionSettings{});
  const Vector v = Vector::Constant(free_flight.velocity_size(), 0.5);
  const ContactState s = free_flight.step_state(free_flight.initial_q, v, 0.0, 1e-3, 1e-6);
  ASSERT_TRUE(s.constraints.empty());
  EXPECT_EQ(s.M.size(), 0);
  EXPECT_EQ(s.F.size(), free_flight.velocity_size());
  EXPECT_EQ(free_flight.contact_state(free_flight.initial_q, v, 0.0).M.rows(), 2);
  const RigidWorldSystem with_friction(make(0.3), CollisionSettings{});
  EXPECT_EQ(with_friction.step_state(with_friction.initial_q, v, 0.0, 1e-3, 1e-6).M.rows(), 2);
}

// step_state leaves out exactly the shape contacts and joint bounds with g + reach·min(u_n, 0) >
// margin, u_n taken from the full contact_state's mapped rows (∇hᵀv in joint coordinates), and
// keeps every constraint that a step may activate as contact_state has it. The box, 1 cm above the
// floor, falls at 20 m/s: kept with a reach of 0.5 ms, left out with 0.25 ms and at rest. The
// elbow, 0.05 rad below its upper bound, turns towards it at 120 rad/s (kept with 0.5 ms: 0.05 −
// 0.06 < 0), away from it, or not at all (left out).
TEST(ArticulatedWorld, StepStateLeavesOutOnlyContactsNoStepActivates) {
  const RigidWorldSystem sys(pendulum_world(), CollisionSettings{.margin = 1.0});
  Vector q = sys.initial_q, v = Vector::Zero(sys.velocity_size());
  const Index box_vz = 2 + 2;
  const double margin = 1e-6;
  struct Case {
    double speed, reach, elbow, elbow_rate;
  };
  for (const Case& k : {Case{20.0, 0.5e-3, 0.05, 0.0}, Case{20.0, 0.25e-3, 0.05, 0.0},
                        Case{0.0, 0.5e-3, 0.05, 0.0}, Case{0.0, 0.5e-3, 0.0, 120.0},
                        Case{0.0, 0.5e-3, 0.0, -120.0}, Case{0.0, 0.5e-3, 0.0, 0.0}}) {
    const double speed = k.speed, reach = k.reach;
    q[1] = k.elbow;  // 0.05: at the upper bound
    v[1] = k.elbow_rate;
    v[box_vz] = -speed;
    const ContactState full = sys.contact_state(q, v, 0.0);
    const ContactState step = sys.step_state(q, v, 0.0, reach, margin);
    size_t kept = 0, left_out = 0;
    for (const ContactConstraint& c : full.constraints) {
      const auto it = std::find_if(step.constraints.begin(), step.constraints.end(),
                                   [&](const ContactConstraint& x) { return x.name == c.name; });
      const bool activates = c.kind == ConstraintKind::bilateral || c.gap <= margin ||
                             c.gap + reach * std::min(c.normal.dot(v), 0.0) <= margin;
      EXPECT_EQ(it != step.constraints.end(), activates)
          << c.name << " at " << speed << " m/s, elbow at " << k.elbow_rate << " rad/s";
      if (it == step.constraints.end()) {
        ++left_out;
        continue;
      }
      ++kept;
      EXPECT_EQ(it->gap, c.gap);
      EXPECT_EQ(it->normal, c.normal);
      EXPECT_EQ(it->tangent, c.tangent);
    }
    EXPECT_EQ(kept, step.constraints.size());
    EXPECT_GT(left_out, 0u);  // the links over the floor, 0.4 m and more away
    const bool box_kept =
        std::any_of(step.constraints.begin(), step.constraints.end(),
                    [&](const ContactConstraint& c) { return c.name.rfind("box/", 0) == 0; });
    EXPECT_EQ(box_kept, speed > 0.0 && reach > 0.4e-3) << speed << " m/s, reach " << reach;
    const bool bound_kept =
        std::any_of(step.constraints.begin(), step.constraints.end(),
                    [&](const ContactConstraint& c) { return c.name == "elbow/upper"; });
    EXPECT_EQ(bound_kept, k.elbow == 0.05 || k.elbow_rate > 100.0) << k.elbow_rate << " rad/s";
  }
}

// At the elbow's upper limit the detection reports "elbow/upper"; mapped to joint coordinates its
// normal is ρ (= 1 m) times the unit row of the elbow's rate, with sign −1 (gap = ρ(upper − s)).
TEST(ArticulatedWorld, JointLimitIsAUnitRowOnItsCoordinate) {
  const RigidWorldSystem sys(pendulum_world(), CollisionSettings{.margin = 0.1});
  Vector q = sys.initial_q;
  q[1] = 0.04;  // 0.01 rad below the upper limit
  const ContactState s = sys.contact_state(q, Vector::Zero(sys.velocity_size()), 0.0);
  const ContactConstraint* upper = nullptr;
  for (const auto& c : s.constraints)
    if (c.name == "elbow/upper") upper = &c;
  ASSERT_NE(upper, nullptr);
  EXPECT_NEAR(upper->gap, 0.01, 1e-12);
  Vector expected = Vector::Zero(sys.velocity_size());
  expected[1] = -1.0;
  EXPECT_LT((upper->normal - expected).norm(), 1e-12);
}

// The mapped rows (contacts of the links and the box on the floor, the limit) have gap rates
// ∇hᵀv and c terms that match finite differences along the motion.
TEST(ArticulatedWorld, MappedRowsMatchFiniteDifferences) {
  auto w = pendulum_world();
  const RigidWorldSystem sys(w, CollisionSettings{.margin = 1.0});
  Vector q = sys.initial_q, v = Vector::LinSpaced(sys.velocity_size(), -0.7, 0.9);
  q[0] = 0.9;  // the links hang towards the floor
  q[1] = 0.03;
  const ContactState s = sys.contact_state(q, v, 0.0);
  ASSERT_GE(s.size(), 3);
  test::expect_kinematics_match_fd(sys, q, v, 1e-5);
}

// A loop: a four-bar linkage (ground, crank, coupler, rocker). The walk takes the world's two
// joints first (crank and rocker hang from the world), then the crank–coupler joint; the
// coupler–rocker joint closes the cycle and stays as its maximal rows, mapped. They hold at the
// initial state and along the parallelogram's motion, and their gap rates match finite
// differences.
TEST(ArticulatedWorld, AJointThatClosesACycleBecomesRows) {
  auto w = std::make_shared<RigidWorld>(3);
  w->add_body(link("crank", Vector3(0, 0, 0.2), 0.1));  // short boxes: the links never touch
  w->add_body(link("coupler", Vector3(0.2, 0, 0.4), 0.1));
  w->add_body(link("rocker", Vector3(0.4, 0, 0.2), 0.1));
  w->add_joint(hinge(0, -1, Vector3(0, 0, -0.2), Vector3::Zero(), Vector3::UnitY()));
  w->add_joint(hinge(1, 0, Vector3(-0.2, 0, 0), Vector3(0, 0, 0.2), Vector3::UnitY()));
  w->add_joint(hinge(2, 1, Vector3(0, 0, 0.2), Vector3(0.2, 0, 0), Vector3::UnitY()));
  w->add_joint(hinge(2, -1, Vector3(0, 0, -0.2), Vector3(0.4, 0, 0), Vector3::UnitY()));
  const RigidWorldSystem sys(w, CollisionSettings{.margin = 0.0});
  ASSERT_EQ(sys.forest()->closure_joints, std::vector<Index>{2});
  EXPECT_EQ(sys.velocity_size(), 3);
  const ContactState s = sys.contact_state(sys.initial_q, sys.initial_v, 0.0);
  ASSERT_EQ(s.size(), 5);  // the closing revolute joint's 5 rows
  for (const auto& c : s.constraints) EXPECT_LT(std::abs(c.gap), 1e-14) << c.name;
  Vector q = sys.initial_q, v(3);
  q << 0.2, -0.2, 0.2;  // crank, coupler (relative), rocker: the parallelogram moved on
  v << 1.0, -1.0, 1.0;
  for (const auto& c : sys.contact_state(q, v, 0.0).constraints)
    EXPECT_LT(std::abs(c.gap), 1e-12) << c.name;
  test::expect_kinematics_match_fd(sys, q, v, 1e-5);
}

// A ball joint's cone limit near its bound: the row −u on ω and c = −½ cot(θ/2)‖ω⊥‖², against
// finite differences of the gap and of the row along the motion.
TEST(ArticulatedWorld, BallConeLimitRowAndRateMatchFiniteDifferences) {
  auto w = std::make_shared<RigidWorld>(3);
  w->add_body(link("bob", Vector3(0, 0, -0.3)));
  Joint ball = hinge(0, -1, Vector3(0, 0, 0.3), Vector3::Zero(), Vector3::UnitZ());
  ball.kind = JointKind::ball;
  ball.name = "ball";
  ball.limited = true;
  ball.upper = 0.3;
  w->add_joint(ball);
  const RigidWorldSystem sys(w, CollisionSettings{.margin = 0.0});
  Vector q(4), v(3);
  const Vector3 axis = Vector3(1, 2, 0.5).normalized();
  const Quaternion r(Eigen::AngleAxisd(0.25, axis));
  q << r.w(), r.x(), r.y(), r.z();
  v << 0.8, -1.1, 0.6;
  const ContactState s = sys.contact_state(q, v, 0.0);
  ASSERT_EQ(s.size(), 1);
  EXPECT_EQ(s.constraints[0].name, "ball/upper");
  EXPECT_NEAR(s.constraints[0].gap, 0.05, 1e-14);
  EXPECT_LT((s.constraints[0].normal + axis).norm(), 1e-14);
  test::expect_kinematics_match_fd(sys, q, v, 1e-6);
}

// Two revolute joints between the same two bodies are one chain (a universal joint): the second
// acts in the frame the first leaves, so the link turns by R_x(q₁) R_y(q₂) about the common anchor;
// each has its own coordinate, column and limit.
TEST(ArticulatedWorld, JointsBetweenTheSameBodiesFormAChain) {
  auto w = std::make_shared<RigidWorld>(3);
  w->add_body(link("arm", Vector3(0.2, 0, 0)));
  Joint first = hinge(0, -1, Vector3(-0.2, 0, 0), Vector3::Zero(), Vector3::UnitX());
  first.name = "roll";
  Joint second = first;
  second.name = "pitch";
  second.axis_a = Vector3::UnitY();
  second.limited = true;
  second.lower = -0.1;
  second.upper = 0.1;
  w->add_joint(first);
  w->add_joint(second);
  const RigidWorldSystem sys(w, CollisionSettings{.margin = 0.0});
  ASSERT_EQ(sys.velocity_size(), 2);
  EXPECT_EQ(sys.position_names(), (std::vector<std::string>{"roll.q", "pitch.q"}));
  Vector q(2);
  q << 0.7, 0.08;
  const Vector qm = sys.maximal_positions(q);
  const Matrix3 R =
      (Eigen::AngleAxisd(0.7, Vector3::UnitX()) * Eigen::AngleAxisd(0.08, Vector3::UnitY()))
          .toRotationMatrix();
  const Vector3 centre = R * Vector3(0.2, 0, 0);  // the anchor stays at the origin
  EXPECT_LT((qm.head<3>() - centre).norm(), 1e-14);
  const ContactState s = sys.contact_state(q, Vector::Zero(2), 0.0);
  ASSERT_EQ(s.size(), 1);
  EXPECT_EQ(s.constraints[0].name, "pitch/upper");
  EXPECT_NEAR(s.constraints[0].gap, 0.02, 1e-14);
}

// A planar world: the loose rod keeps its columns "rod.x", "rod.y", "rod.theta" (and "rod.vx",
// "rod.vy", "rod.omega"); a hinge whose own name ends like a planar column keeps its ".q" and ".v".
TEST(ArticulatedWorld, PlanarRootsKeepTheLooseBodyNames) {
  auto w = std::make_shared<RigidWorld>(2);
  RigidBody rod;
  rod.name = "rod";
  rod.inertia(2, 2) = 0.1;
  rod.pose = planar_pose(0.0, 1.0, 0.0);
  w->add_body(rod);
  RigidBody bob = rod;
  bob.name = "bob";
  bob.pose = planar_pose(0.5, 1.0, 0.0);
  w->add_body(bob);
  Joint j;
  j.name = "bob.x";
  j.body_a = 1;
  j.body_b = 0;
  j.anchor_a = Vector3(-0.25, 0, 0);
  j.anchor_b = Vector3(0.25, 0, 0);
  w->add_joint(j);
  const RigidWorldSystem sys(w, CollisionSettings{});
  EXPECT_EQ(sys.position_names(),
            (std::vector<std::string>{"rod.x", "rod.y", "rod.theta", "bob.x.q"}));
  EXPECT_EQ(sys.velocity_names(),
            (std::vector<std::string>{"rod.vx", "rod.vy", "rod.omega", "bob.x.v"}));
}

// dynamics_derivatives of a world in joint coordinates (RNEA's derivatives, the loads, springs,
// dampers and actuators) against the central differences of mass_and_forces that any system has:
// a free torso carrying a sprung ball-jointed arm and a hinged, servo-driven forearm, with an
// applied force and an xfrc_applied wrench, at a random state.
TEST(ArticulatedWorld, DynamicsDerivativesMatchDifferencesOfMassAndForces) {
  auto w = std::make_shared<RigidWorld>(3);
  RigidBody torso = link("torso", Vector3(0, 0, 1));
  w->add_body(torso);
  w->add_body(link("arm", Vector3(0.4, 0, 1)));
  RigidBody forearm = link("forearm", Vector3(0.8, 0, 1));
  forearm.applied_force = Vector3(0.5, -2.0, 1.0);
  forearm.applied_torque = Vector3(0.1, 0.2, -0.3);
  w->add_body(forearm);
  Joint shoulder = hinge(1, 0, Vector3(-0.2, 0, 0), Vector3(0.2, 0, 0), Vector3::UnitZ());
  shoulder.kind = JointKind::ball;
  shoulder.stiffness = 3.0, shoulder.damping = 0.4;
  w->add_joint(shoulder);
  Joint elbow = hinge(2, 1, Vector3(-0.2, 0, 0), Vector3(0.2, 0, 0), Vector3(0, 1, 1).normalized());
  elbow.stiffness = 2.0, elbow.reference = 0.3, elbow.damping = 0.2, elbow.armature = 0.01;
  w->add_joint(elbow);
  Actuator servo;
  servo.joint = 1;
  servo.gear = 2.0;
  servo.gain = 20.0;
  servo.bias = {0.5, -20.0, -1.5};
  w->add_actuator(servo);
  RigidWorldSystem sys(w, CollisionSettings{.margin = 0.0});
  const Index n = sys.velocity_size();
  ASSERT_EQ(n, 6 + 3 + 1);
  Matrix xfrc = Matrix::Zero(3, 6);
  xfrc.row(1) << 1.0, 0.5, -0.7, 0.05, -0.1, 0.2;
  Vector ctrl(1);
  ctrl << 0.4;
  sys.set_inputs(Vector::LinSpaced(n, -0.5, 0.5), xfrc, ctrl);
  Vector dq(n), v(n), a(n);
  for (Index i = 0; i < n; ++i) {
    const double x = static_cast<double>(i);
    dq[i] = 0.6 * std::sin(1.3 * x + 0.2), v[i] = std::cos(0.7 * x), a[i] = std::sin(2.1 * x);
  }
  const Vector q = sys.integrate(sys.initial_q, dq, 1.0);
  Matrix exact_q, exact_v, fd_q, fd_v;
  sys.dynamics_derivatives(q, v, 0.0, a, 1e-6, 1e-3, exact_q, exact_v);
  sys.LagrangianSystem::dynamics_derivatives(q, v, 0.0, a, 1e-6, 1e-3, fd_q, fd_v);
  for (Index j = 0; j < n; ++j) {
    EXPECT_LT((exact_q.col(j) - fd_q.col(j)).norm(), 1e-7 * (1 + fd_q.col(j).norm()))
        << "∂/∂" << sys.velocity_names()[j];
    EXPECT_LT((exact_v.col(j) - fd_v.col(j)).norm(), 1e-7 * (1 + fd_v.col(j).norm()))
        << "∂/∂v of " << sys.velocity_names()[j];
  }
}

// The same for loose bodies (no joints): two spinning bodies of unequal inertia, turned away from
// their stored pose, with an applied torque and an xfrc_applied wrench; a planar body's rows are
// constant.
TEST(ArticulatedWorld, LooseBodyDynamicsDerivativesMatchDifferences) {
  for (const int dim : {3, 2}) {
    auto w = std::make_shared<RigidWorld>(dim);
    const double z = dim == 3 ? 1.0 : 0.0;
    RigidBody a = link("a", Vector3(0, 0, z));
    a.inertia << 0.03, 0.004, -0.002, 0.004, 0.05, 0.001, -0.002, 0.001, 0.07;
    a.applied_torque = dim == 3 ? Vector3(0.1, -0.2, 0.3) : Vector3(0, 0, 0.3);
    w->add_body(a);
    w->add_body(link("b", Vector3(1, 0, z)));
    RigidWorldSystem sys(w, CollisionSettings{.margin = 0.0});
    const Index n = sys.velocity_size();
    Matrix xfrc = Matrix::Zero(2, 6);
    xfrc.row(1) << 1.0, 0.5, -0.7, 0.05, -0.1, 0.2;
    sys.set_inputs(Vector(), xfrc);
    Vector dq(n), v(n), acc(n);
    for (Index i = 0; i < n; ++i) {
      const double x = static_cast<double>(i);
      dq[i] = 0.8 * std::sin(1.3 * x + 0.2), v[i] = 3 * std::cos(0.7 * x),
      acc[i] = std::sin(2.1 * x);
    }
    const Vector q = sys.integrate(sys.initial_q, dq, 1.0);
    Matrix exact_q, exact_v, fd_q, fd_v;
    sys.dynamics_derivatives(q, v, 0.0, acc, 1e-6, 1e-3, exact_q, exact_v);
    sys.LagrangianSystem::dynamics_derivatives(q, v, 0.0, acc, 1e-6, 1e-3, fd_q, fd_v);
    EXPECT_LT((exact_q - fd_q).norm(), 1e-7 * (1 + fd_q.norm())) << "dimension " << dim;
    EXPECT_LT((exact_v - fd_v).norm(), 1e-7 * (1 + fd_v.norm())) << "dimension " << dim;
    if (dim == 3) {
      EXPECT_GT(exact_q.norm(), 0.1);  // the turning inertia is felt
    }
  }
}

// The velocity-level problem of pendulum_world with the box resting on the floor on four corners
// (redundant: r is not unique, v⁺ is) while falling at 0.1 m/s, and the elbow turning into its
// upper bound at 1 rad/s: the state, v, and the closed constraints as unilateral rows (w = 0).
namespace {
struct BoxAndBound {
  Vector v;
  ContactState s;
  VelocityLevelInput in;
};
BoxAndBound box_and_bound(const RigidWorldSystem& sys) {
  Vector q = sys.initial_q, v = Vector::Zero(sys.velocity_size());
  q[1] = 0.05;       // the elbow at its upper bound
  q[2 + 2] = -0.46;  // the box's bottom face on the floor z = −0.5
  v[1] = 1.0;
  v[2 + 2] = -0.1;
  BoxAndBound out{v, sys.contact_state(q, v, 0.0), {}};
  for (Index i = 0; i < out.s.size(); ++i)
    if (out.s.constraints[i].gap <= 1e-6) out.in.unilateral.push_back(i);
  out.in.w_unilateral = Vector::Zero(3 * static_cast<Index>(out.in.unilateral.size()));
  return out;
}
}  // namespace

// The velocity-level problem of a jointed world, solved with W formed dense along the tree
// (W = Yᵀ D⁻¹ Y, M factorized as LᵀDL) and with W = Hᵀ (M⁻¹ H) through a sparse LDLᵀ of M
// (no tree given): the same v⁺. The box rests on the floor on four corners (redundant: r is not
// unique, v⁺ is) while falling at 0.1 m/s, and the elbow turns into its upper bound at 1 rad/s.
TEST(ArticulatedWorld, VelocityLevelSolveAlongTheTreeMatchesTheSparseRoute) {
  const RigidWorldSystem sys(pendulum_world(), CollisionSettings{.margin = 0.1});
  const BoxAndBound p = box_and_bound(sys);
  const Vector& v = p.v;
  const ContactState& s = p.s;
  VelocityLevelInput in = p.in;
  ASSERT_GE(in.unilateral.size(), 5u);  // four corners and the bound
  MassSolver tree, sparse;
  tree.factorize(s.M, sys.mass_tree());
  sparse.factorize(s.M, nullptr);
  ASSERT_TRUE(tree.along_tree());
  ASSERT_FALSE(sparse.along_tree());
  FrictionContactSettings settings;
  settings.tolerance = 1e-12;
  settings.max_iterations = 100000;
  const VelocityLevelSolution a = solve_velocity_level(s, tree, v, in, "nsgs", settings);
  const VelocityLevelSolution b = solve_velocity_level(s, sparse, v, in, "nsgs", settings);
  ASSERT_TRUE(a.report.converged());
  ASSERT_TRUE(b.report.converged());
  EXPECT_LT((a.v - b.v).norm(), 1e-9 * (1.0 + v.norm())) << a.v.transpose() << "\n"
                                                         << b.v.transpose();
  EXPECT_NEAR(a.v[1], 0.0, 1e-6);             // the bound stops the elbow's approach
  EXPECT_LT(a.v.segment<3>(2).norm(), 1e-6);  // the box sticks
  // softened contacts (ũ_n = u_n + c r_n): the compliance enters W's diagonal on both routes
  VelocityLevelInput soft = in;
  soft.compliance = Vector::Constant(static_cast<Index>(in.unilateral.size()), 0.05);
  const VelocityLevelSolution sa = solve_velocity_level(s, tree, v, soft, "nsgs", settings);
  const VelocityLevelSolution sb = solve_velocity_level(s, sparse, v, soft, "nsgs", settings);
  ASSERT_TRUE(sa.report.converged());
  ASSERT_TRUE(sb.report.converged());
  EXPECT_LT((sa.v - sb.v).norm(), 1e-9 * (1.0 + v.norm()));
  EXPECT_GT((sa.v - a.v).norm(), 1e-6);  // the softening changes the answer
}

// A warm start that already solves the step is taken as it is, checked without forming W: the
// v⁺ and u of the solution it came from (the same problem solved by NSGS to 1e-12, with softened
// contacts and a restitution-like w), 0 iterations, and to the bit what the Newton route gives
// from that warm start after forming W; a guess that does not solve it, one of another size or
// not finite, a negative μ, or a factorization that is not along the tree (the dense route) is
// left to the solver.
TEST(ArticulatedWorld, AWarmStartThatSolvesTheStepIsTakenWithoutW) {
  const RigidWorldSystem sys(pendulum_world(), CollisionSettings{.margin = 0.1});
  const BoxAndBound p = box_and_bound(sys);
  const Vector& v = p.v;
  ContactState s = p.s;
  VelocityLevelInput in = p.in;
  const Index nu = static_cast<Index>(in.unilateral.size());
  ASSERT_GE(nu, 5);
  in.compliance = Vector::Constant(nu, 0.05);
  for (Index k = 0; k < nu; ++k) in.w_unilateral[3 * k] = 0.002 * static_cast<double>(k % 3);
  MassSolver tree, sparse;
  tree.factorize(s.M, sys.mass_tree());
  sparse.factorize(s.M, nullptr);
  FrictionContactSettings settings;
  settings.tolerance = 1e-12;
  settings.max_iterations = 100000;
  const VelocityLevelSolution solved = solve_velocity_level(s, tree, v, in, "nsgs", settings);
  ASSERT_TRUE(solved.report.converged());

  VelocityLevelInput warm = in;
  warm.guess = solved.r;
  const std::optional<VelocityLevelSolution> taken =
      warm_start_solution(s, tree, v, warm, 1e-8, "newton");
  ASSERT_TRUE(taken.has_value());
  EXPECT_EQ(taken->report.iterations, 0);
  EXPECT_TRUE(taken->report.converged());
  EXPECT_EQ(taken->report.solver, "newton");
  EXPECT_LE(taken->report.residual, 1e-8);
  EXPECT_EQ(taken->r, solved.r);
  EXPECT_LT((taken->v - solved.v).norm(), 1e-12 * (1.0 + v.norm()));
  EXPECT_LT((taken->u - solved.u).norm(), 1e-12 * (1.0 + solved.u.norm()));
  // the route it stands for: W formed, Newton from the same warm start, stopped at its check
  FrictionContactSettings newton;
  newton.tolerance = 1e-8;
  newton.keep_converged_guess = true;
  newton.newton_proximal = kRedundantContactsProximal;
  const VelocityLevelSolution route = solve_velocity_level(s, tree, v, warm, "newton", newton);
  EXPECT_EQ(route.report.iterations, 0);
  EXPECT_EQ(taken->r, route.r);
  EXPECT_EQ(taken->v, route.v);  // bit for bit
  EXPECT_EQ(taken->u, route.u);

  warm.guess = 0.5 * solved.r;  // half the impulses: the box falls through, the bound gives way
  EXPECT_FALSE(warm_start_solution(s, tree, v, warm, 1e-8, "newton").has_value());
  warm.guess = solved.r.head(3 * nu - 3);
  EXPECT_FALSE(warm_start_solution(s, tree, v, warm, 1e-8, "newton").has_value());
  warm.guess = solved.r;
  warm.guess[1] = NAN;
  EXPECT_FALSE(warm_start_solution(s, tree, v, warm, 1e-8, "newton").has_value());
  warm.guess = solved.r;
  EXPECT_FALSE(warm_start_solution(s, sparse, v, warm, 1e-8, "newton").has_value());
  warm.guess = Vector();
  EXPECT_FALSE(warm_start_solution(s, tree, v, warm, 1e-8, "newton").has_value());
  warm.guess = solved.r;
  s.constraints[in.unilateral[0]].mu = -0.1;
  EXPECT_FALSE(warm_start_solution(s, tree, v, warm, 1e-8, "newton").has_value());
}
