// MJCF <keyframe> (io/import/mjcf_keyframes.cpp): MuJoCo's qpos and qvel turned into moreau's
// coordinates by hand-derived formulas, a Simulator reset to a key, and the errors that name it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "moreau/io/import/mjcf.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau {
namespace {

// A box on a free joint whose only geom sits 0.1 m along the body's x (so the centre of mass is
// c = (0.1, 0, 0) in F), and a hinge about y with ref = 0.2 rad, driven by a position servo.
const char* kModel = R"(<mujoco>
  <compiler angle="radian"/>
  <option gravity="0 0 0"/>
  <worldbody>
    <body name="box" pos="0 0 1">
      <freejoint name="box_free"/>
      <geom type="box" size="0.05 0.05 0.05" pos="0.1 0 0" mass="1"/>
    </body>
    <body name="arm" pos="2 0 1">
      <joint name="elbow" type="hinge" axis="0 1 0" ref="0.2"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
  <actuator><position name="servo" joint="elbow" kp="10"/></actuator>
  <keyframe>
    <key name="turned" qpos="1 2 3 0.7071067811865476 0 0 0.7071067811865476 0.5"
         qvel="0.1 0 0 0 0 2 0.3" ctrl="0.25"/>
    <key qpos="0 0 1 1 0 0 0 0.2"/>
  </keyframe>
</mujoco>)";

// The key "turned" puts F at (1, 2, 3) turned 90° about z, so R c = (0, 0.1, 0) and the centre
// of mass is at (1, 2.1, 3); ω = 2 about F's z is 2 about the world's z, and the centre of mass
// moves at v_F + ω × R c = (0.1, 0, 0) + (0, 0, 2) × (0, 0.1, 0) = (−0.1, 0, 0); the hinge's
// coordinate is qpos − ref = 0.3 and its ctrl is kept.
TEST(MjcfKeyframes, QposAndQvelBecomeMoreausCoordinates) {
  const Scene s = parse_mjcf_text(kModel, "key.xml", ".");
  ASSERT_EQ(s.world->keyframes().size(), 2u);
  EXPECT_EQ(s.world->keyframes()[1].name, "key1");
  Simulator sim(s.world, s.collision, s.settings);
  const std::vector<std::string> qn = sim.coordinate_names(), vn = sim.velocity_names();
  auto at = [](const std::vector<std::string>& names, const std::string& n) {
    return std::find(names.begin(), names.end(), n) - names.begin();
  };
  sim.reset("turned");
  EXPECT_NEAR(sim.q()[at(qn, "box.x")], 1.0, 1e-12);
  EXPECT_NEAR(sim.q()[at(qn, "box.y")], 2.1, 1e-12);
  EXPECT_NEAR(sim.q()[at(qn, "box.z")], 3.0, 1e-12);
  EXPECT_NEAR(sim.q()[at(qn, "box.qw")], std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(sim.q()[at(qn, "box.qz")], std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(sim.q()[at(qn, "elbow.q")], 0.3, 1e-12);
  EXPECT_NEAR(sim.v()[at(vn, "box.vx")], -0.1, 1e-12);
  EXPECT_NEAR(sim.v()[at(vn, "box.vy")], 0.0, 1e-12);
  EXPECT_NEAR(sim.v()[at(vn, "box.wz")], 2.0, 1e-12);
  EXPECT_NEAR(sim.v()[at(vn, "elbow.v")], 0.3, 1e-12);
  EXPECT_NEAR(sim.ctrl()[0], 0.25, 0.0);
  // the forward kinematics of the reset state put the box's centre where the key says
  EXPECT_NEAR(sim.body_poses(sim.q())[sim.body_index("box")].position.y(), 2.1, 1e-12);
  // key1 is the model's own pose: the initial state
  sim.reset("key1");
  EXPECT_LE((sim.q() - sim.system().initial_q).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_EQ(sim.v().norm(), 0.0);
}

TEST(MjcfKeyframes, AnUnknownKeyframeOrBadKeyIsRefusedByName) {
  const Scene s = parse_mjcf_text(kModel, "key.xml", ".");
  Simulator sim(s.world, s.collision, s.settings);
  sim.step(3);
  const Vector q = sim.q();
  try {
    sim.reset("home");
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("no keyframe named 'home' (the model's: turned, key1)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(sim.q(), q);  // unchanged
  std::string bad = kModel;
  const std::string cut = "0.7071067811865476 0.5\"";  // qpos one entry short
  bad.replace(bad.find(cut), cut.size(), "0.5\"");
  try {
    parse_mjcf_text(bad, "key.xml", ".");
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("qpos"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("key.xml"), std::string::npos) << e.what();
  }
  std::string mocap = kModel;
  mocap.replace(mocap.find("<key qpos"), 9, "<key mpos=\"0 0 0\" qpos");
  EXPECT_THROW(parse_mjcf_text(mocap, "key.xml", "."), std::invalid_argument);
}

}  // namespace
}  // namespace moreau
