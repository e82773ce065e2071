// The start pose made valid (contact/rigid_world_system.hpp §Start pose): joints whose zero lies
// outside their range, keyframes outside it, and overlaps resolved, ignored or refused, each
// against positions worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "moreau/io/import/mjcf.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau {
namespace {

// A ball of radius 0.1 on a free joint whose centre starts at height z above the plane z = 0,
// optionally rising at 2 m/s (the keyframe "up").
std::string ball_model(double z) {
  return fmt::format(R"(<mujoco>
  <option timestep="0.001"/>
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1"/>
    <body name="ball" pos="0 0 {}">
      <freejoint/>
      <geom type="sphere" size="0.1" mass="1"/>
    </body>
  </worldbody>
  <keyframe><key name="up" qpos="0 0 {} 1 0 0 0" qvel="0 0 2 0 0 0"/></keyframe>
</mujoco>)",
                     z, z);
}

Index index_of(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  EXPECT_NE(it, names.end()) << name;
  return it - names.begin();
}

bool notes_contain(const LagrangianSystem& sys, const std::string& text) {
  for (const std::string& n : sys.start_notes())
    if (n.find(text) != std::string::npos) return true;
  return false;
}

// The projection min ½ΔvᵀMΔv s.t. g + J_n Δv ≥ 0 of a ball 0.05 m into the floor is the
// translation Δz = 0.05 (J_n = e_z): the centre ends at 0.1 (to the projection's ½·1e-8 aim).
TEST(StartPose, ResolveLiftsABallOutOfTheFloor) {
  const Scene s = parse_mjcf_text(ball_model(0.05), "ball.xml", ".");
  const RigidWorldSystem sys(s.world, s.collision);
  const std::vector<std::string> names = sys.position_names();
  EXPECT_NEAR(sys.initial_q[index_of(names, "ball.z")], 0.1, 1e-7);
  EXPECT_EQ(sys.initial_q[index_of(names, "ball.x")], 0.0);
  EXPECT_TRUE(notes_contain(sys, "'ball' and 'world' by 0.05 m")) << sys.start_notes().front();
  // the run lists the note among its warnings and starts at rest on the floor
  SimulationSettings st = s.settings;
  st.t_end = 0.01;
  const SimulationResult r = simulate(sys, st);
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings.front().find("separated by a position projection"), std::string::npos);
  EXPECT_NEAR(r.q.back()[index_of(names, "ball.z")], 0.1, 1e-6);
}

// MuJoCo's dominos.xml case: a box 0.31 mm into the floor rises by 0.31 mm, nothing else moves.
TEST(StartPose, ResolveLiftsABoxStartingSlightlyInTheFloor) {
  const Scene s = parse_mjcf_text(R"(<mujoco><worldbody><geom type="plane" size="5 5 0.1"/>
    <body name="domino" pos="0.3 0 0.09969"><freejoint/>
      <geom type="box" size="0.01 0.05 0.1" mass="0.1"/></body></worldbody></mujoco>)",
                                  "domino.xml", ".");
  const RigidWorldSystem sys(s.world, s.collision);
  const std::vector<std::string> names = sys.position_names();
  EXPECT_NEAR(sys.initial_q[index_of(names, "domino.z")], 0.1, 1e-7);
  EXPECT_NEAR(sys.initial_q[index_of(names, "domino.x")], 0.3, 1e-12);
  EXPECT_NEAR(sys.initial_q[index_of(names, "domino.qw")], 1.0, 1e-12);
  EXPECT_TRUE(notes_contain(sys, "'domino' and 'world' by 0.00031 m"));
}

// ignore: the ball starts 0.05 m into the floor rising at 2 m/s. While it overlaps the floor it
// flies freely (z(t) = 0.05 + 2t − g t²/2, not lifted to 0.1); once clear of it, the floor is a
// contact again: it lands and rests on it at z = 0.1 instead of falling through.
TEST(StartPose, IgnoreTakesNoContactUntilThePairSeparates) {
  Scene s = parse_mjcf_text(ball_model(0.05), "ball.xml", ".");
  ModelImportOptions up;
  up.keyframe = "up";
  apply_initial_state_options(s, up);
  s.collision.initial_overlap = InitialOverlap::ignore;
  Simulator sim(s.world, s.collision, s.settings);
  const Index z = index_of(sim.coordinate_names(), "ball.z");
  EXPECT_EQ(sim.q()[z], 0.05);
  EXPECT_TRUE(notes_contain(sim.system(), "take no contact until they first separate"));
  sim.step(20);
  const double t = 0.02, g = 9.81;
  EXPECT_NEAR(sim.q()[z], 0.05 + 2 * t - 0.5 * g * t * t, 1e-4);
  sim.step(980);  // 1 s: up 0.2 m, down onto the floor, at rest
  EXPECT_NEAR(sim.q()[z], 0.1, 1e-5);
  // reset() starts the run again at the overlapping pose: ignored again until it separates
  sim.reset();
  sim.step(20);
  EXPECT_NEAR(sim.q()[z], 0.05 + 2 * t - 0.5 * g * t * t, 1e-4);
}

// A ball on a slide along x cannot leave the floor it overlaps: the projection clears nothing, so
// the pair falls back to ignore and the pose is kept.
TEST(StartPose, ResolveFallsBackToIgnoreWhenItCannotClear) {
  const Scene s = parse_mjcf_text(R"(<mujoco><worldbody><geom type="plane" size="5 5 0.1"/>
    <body name="ball" pos="0 0 0.05"><joint name="rail" type="slide" axis="1 0 0"/>
      <geom type="sphere" size="0.1" mass="1"/></body></worldbody></mujoco>)",
                                  "rail.xml", ".");
  const RigidWorldSystem sys(s.world, s.collision);
  EXPECT_EQ(sys.initial_q[0], 0.0);
  EXPECT_TRUE(notes_contain(sys, "the projection could not clear 'ball' and 'world' by 0.05 m"));
  EXPECT_TRUE(sys.contacts(sys.initial_q).empty());
}

TEST(StartPose, RefuseNamesThePairAndTheDepth) {
  Scene s = parse_mjcf_text(ball_model(0.05), "ball.xml", ".");
  s.collision.initial_overlap = InitialOverlap::refuse;
  try {
    RigidWorldSystem sys(s.world, s.collision);
    FAIL() << "an overlapping start was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bodies 'ball' and 'world' interpenetrate (gap = -0.05 m"),
              std::string::npos)
        << e.what();
  }
}

// A hinge limited to [0.5, 1] rad starts at 0.5 (its zero is outside); a keyframe at 2 rad is
// clamped to 1; refuse refuses the keyframe, naming the joint and its limits.
TEST(StartPose, JointsStartInsideTheirRange) {
  const char* model = R"(<mujoco><compiler angle="radian"/><option gravity="0 0 0"/><worldbody>
    <body name="arm"><joint name="elbow" type="hinge" axis="0 1 0" range="0.5 1" limited="true"/>
      <geom type="capsule" fromto="0 0 0 0.5 0 0" size="0.05" mass="1"/></body></worldbody>
    <keyframe><key name="far" qpos="2"/></keyframe></mujoco>)";
  const Scene s = parse_mjcf_text(model, "arm.xml", ".");
  const RigidWorldSystem sys(s.world, s.collision);
  const Index q = index_of(sys.position_names(), "elbow.q");
  EXPECT_EQ(sys.initial_q[q], 0.5);
  EXPECT_TRUE(notes_contain(sys, "joint 'elbow': its zero pose lies outside its range [0.5, 1]"));
  EXPECT_EQ(sys.keyframe_state(*s.world->find_keyframe("far")).q[q], 2.0);  // as given
  Scene k = parse_mjcf_text(model, "arm.xml", ".");
  ModelImportOptions far;
  far.keyframe = "far";
  apply_initial_state_options(k, far);
  const RigidWorldSystem clamped(k.world, k.collision);
  EXPECT_EQ(clamped.initial_q[q], 1.0);
  EXPECT_TRUE(notes_contain(clamped, "joint 'elbow' starts at 2, outside its range [0.5, 1]"));
  k.collision.initial_overlap = InitialOverlap::refuse;
  EXPECT_THROW(
      {
        try {
          RigidWorldSystem refused(k.world, k.collision);
        } catch (const std::invalid_argument& e) {
          EXPECT_NE(std::string(e.what()).find("joint 'elbow' starts at s = 2, outside its limits"),
                    std::string::npos)
              << e.what();
          throw;
        }
      },
      std::invalid_argument);
}

}  // namespace
}  // namespace moreau
