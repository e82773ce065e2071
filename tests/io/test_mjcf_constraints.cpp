// MJCF <tendon> and <equality> (io/import/mjcf_constraints.hpp): what each element becomes, the
// constraint holding in a run, and the errors that name the element.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/io/import/mjcf.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {
namespace {

// Two hinged arms side by side (joints a and b, ref 0.2 on b), a weight hanging from the world
// on a rope through two sites, a box connected to arm a's tip, and the given sections.
std::string model(const std::string& sections) {
  return R"(<mujoco>
  <compiler angle="radian"/>
  <worldbody>
    <site name="hook" pos="0 2 1"/>
    <body name="arm_a" pos="0 0 1">
      <joint name="a" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
      <site name="tip_a" pos="0.5 0 0"/>
    </body>
    <body name="arm_b" pos="0 1 1">
      <joint name="b" type="hinge" axis="0 1 0" ref="0.2"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05"/>
    </body>
    <body name="weight" pos="0 2 0.2">
      <freejoint/>
      <geom type="sphere" size="0.05"/>
      <site name="eye" pos="0 0 0.05"/>
    </body>
    <body name="box" pos="0.7 0 1">
      <freejoint/>
      <geom type="box" size="0.05 0.05 0.05"/>
    </body>
  </worldbody>
)" + sections +
         "</mujoco>";
}

std::string error_of(const std::string& xml) {
  try {
    parse_mjcf_text(xml, "model.xml");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

// Each element as MuJoCo's XML reference states it: the rope is a spatial tendon from the hook
// to the eye, 0.75 m at the model's pose, limited to 0.8 m; the fixed tendon a + 2b has MuJoCo's
// length at qpos0, 2 × ref(b) = 0.4; the joint equality b = 0.5 a and the connect and weld become
// couplings and closure joints.
TEST(MjcfConstraints, TendonsAndEqualitiesBecomeTheWorldsConstraints) {
  const Scene s = parse_mjcf_text(model(R"(
  <tendon>
    <spatial name="rope" limited="true" range="0 0.8"><site site="hook"/><site site="eye"/></spatial>
    <fixed name="pair"><joint joint="a" coef="1"/><joint joint="b" coef="2"/></fixed>
  </tendon>
  <equality>
    <joint name="half" joint1="b" joint2="a" polycoef="0 0.5 0 0 0"/>
    <connect name="tie" body1="box" body2="arm_a" anchor="-0.2 0 0"/>
    <weld body1="weight" active="false"/>
  </equality>)"),
                                  "model.xml");
  const RigidWorld& w = *s.world;
  ASSERT_EQ(w.tendons().size(), 2u);
  const Tendon& rope = w.tendons()[0];
  EXPECT_TRUE(rope.limited);
  EXPECT_EQ(rope.upper, 0.8);
  EXPECT_EQ(rope.path.size(), 2u);
  EXPECT_NEAR(w.tendons()[1].offset, 0.4, 1e-15);
  ASSERT_EQ(w.couplings().size(), 1u);
  EXPECT_EQ(w.couplings()[0].polycoef[1], 0.5);
  const Joint& tie = w.joints().back();
  EXPECT_TRUE(tie.closure);
  EXPECT_EQ(tie.kind, JointKind::ball);
  EXPECT_EQ(tie.name, "tie");
  // the anchor is a point of both bodies at the model's pose: 0.5 m along arm a, the box.s anchor
  const Pose pa = w.body(tie.body_a).pose, pb = w.body(tie.body_b).pose;
  EXPECT_LT((pa.apply(tie.anchor_a) - Vector3(0.5, 0, 1)).norm(), 1e-12);
  EXPECT_LT((pb.apply(tie.anchor_b) - Vector3(0.5, 0, 1)).norm(), 1e-12);
  bool warned_inactive = false;
  for (const std::string& m : s.warnings)
    warned_inactive |= m.find("inactive") != std::string::npos;
  EXPECT_TRUE(warned_inactive);
  const RigidWorldSystem sys(s.world, s.collision);
  EXPECT_NEAR(sys.tendon_length(sys.initial_q, 0), 0.75, 1e-12);
  EXPECT_NEAR(sys.tendon_length(sys.initial_q, 1), 0.4, 1e-12);
}

// In a run the rope holds the weight at 0.8 m (it falls 5 cm, then hangs), the joint equality
// keeps b = 0.5 a, and the connect keeps the box on arm a's tip.
TEST(MjcfConstraints, TheConstraintsHoldInARun) {
  const Scene s = parse_mjcf_text(model(R"(
  <tendon>
    <spatial name="rope" range="0 0.8"><site site="hook"/><site site="eye"/></spatial>
  </tendon>
  <equality>
    <joint joint1="b" joint2="a" polycoef="0 0.5 0 0 0"/>
    <connect body1="box" body2="arm_a" anchor="-0.2 0 0"/>
  </equality>)"),
                                  "model.xml");
  const RigidWorldSystem sys(s.world, s.collision);
  SimulationSettings st = s.settings;
  st.t_end = 1.0;
  const SimulationResult r = simulate(sys, st);
  ASSERT_EQ(r.status, SimulationStatus::completed);
  auto col = [&](const std::string& n) {
    for (size_t i = 0; i < r.position_names.size(); ++i)
      if (r.position_names[i] == n) return static_cast<Index>(i);
    ADD_FAILURE() << n;
    return Index{0};
  };
  const Vector& q = r.q.back();
  EXPECT_NEAR(q[col("weight.z")], 1.0 - 0.8 - 0.05, 1e-6);  // hook z − rope − eye offset
  EXPECT_NEAR(q[col("b.q")], 0.5 * q[col("a.q")], 1e-7);
  EXPECT_GT(std::abs(q[col("a.q")]), 0.5);  // arm a has swung down with the box
  // the box's anchor stays at arm a's tip, (0, 0, 1) + R_y(a) (0.5, 0, 0)
  const Pose box{
      Vector3(q[col("box.x")], q[col("box.y")], q[col("box.z")]),
      Quaternion(q[col("box.qw")], q[col("box.qx")], q[col("box.qy")], q[col("box.qz")])};
  const Vector3 tip =
      Vector3(0, 0, 1) + Eigen::AngleAxisd(q[col("a.q")], Vector3::UnitY()) * Vector3(0.5, 0, 0);
  EXPECT_LT((box.apply(Vector3(-0.2, 0, 0)) - tip).norm(), 1e-7);
}

// Errors name the file, line, element and attribute.
TEST(MjcfConstraints, ErrorsNameTheElement) {
  EXPECT_NE(error_of(model("<equality><joint joint1=\"nope\"/></equality>"))
                .find("<joint joint1=\"nope\">: no joint of that name"),
            std::string::npos);
  EXPECT_NE(error_of(model("<tendon><spatial><site site=\"hook\"/><geom geom=\"g\"/></spatial>"
                           "</tendon>"))
                .find("wrapping geoms and pulleys are not supported"),
            std::string::npos);
  EXPECT_NE(error_of(model("<tendon><spatial><site site=\"hook\"/></spatial></tendon>"))
                .find("needs at least 2 sites"),
            std::string::npos);
  EXPECT_NE(error_of(model("<equality><weld body1=\"box\" relpose=\"0 0 1 1 0 0 0\"/>"
                           "</equality>"))
                .find("relpose"),
            std::string::npos);
  EXPECT_NE(error_of(model("<equality><connect body1=\"box\"/></equality>"))
                .find("<connect> needs anchor"),
            std::string::npos);
}

}  // namespace moreau

namespace moreau {

// <actuator> as MuJoCo's XML reference states it: motor gain 1; position gain kp, bias −kp on
// the length (and −kp ref moved into b₀: MuJoCo's length is gear × qpos); velocity gain kv, bias
// −kv; general gainprm[0] and biasprm; gear's first entry; ranges with autolimits.
TEST(MjcfActuators, EachKindBecomesItsGainsAndBias) {
  const Scene s = parse_mjcf_text(model(R"(
  <actuator>
    <motor name="m" joint="a" gear="2" ctrlrange="-1 1"/>
    <position name="p" joint="b" kp="50" forcerange="-3 3"/>
    <velocity name="v" joint="a" kv="4"/>
    <general name="g" joint="b" gainprm="7" biastype="affine" biasprm="1 -2 -3"/>
  </actuator>)"),
                                  "model.xml");
  const auto& acts = s.world->actuators();
  ASSERT_EQ(acts.size(), 4u);
  EXPECT_EQ(acts[0].gear, 2.0);
  EXPECT_TRUE(acts[0].ctrl_limited);
  EXPECT_EQ(acts[0].ctrl_upper, 1.0);
  EXPECT_EQ(acts[1].gain, 50.0);
  EXPECT_EQ(acts[1].bias[1], -50.0);
  EXPECT_NEAR(acts[1].bias[0], -50.0 * 0.2, 1e-12);  // joint b has ref 0.2
  EXPECT_TRUE(acts[1].force_limited);
  EXPECT_EQ(acts[2].gain, 4.0);
  EXPECT_EQ(acts[2].bias[2], -4.0);
  EXPECT_EQ(acts[3].gain, 7.0);
  EXPECT_NEAR(acts[3].bias[0], 1.0 - 2.0 * 0.2, 1e-12);
  EXPECT_EQ(acts[3].bias[2], -3.0);
}

// What moreau cannot model is refused with the element and attribute.
TEST(MjcfActuators, UnsupportedActuatorsAreRefused) {
  auto err = [](const std::string& xml) { return error_of(model(xml)); };
  EXPECT_NE(err("<actuator><general joint=\"a\" dyntype=\"filter\"/></actuator>")
                .find("dyntype=\"filter\""),
            std::string::npos);
  EXPECT_NE(err("<actuator><motor tendon=\"t\"/></actuator>").find("tendon=\"t\""),
            std::string::npos);
  EXPECT_NE(err("<actuator><motor joint=\"nope\"/></actuator>").find("no joint of that name"),
            std::string::npos);
  EXPECT_NE(err("<actuator><muscle joint=\"a\"/></actuator>").find("<muscle>"), std::string::npos);
}

}  // namespace moreau
