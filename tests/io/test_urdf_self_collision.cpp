// Self-collision of URDF robots by convention (docs/urdf.md §Self-collision): links adjacent in
// the tree never collide (after fixed joints are merged, a link without geometry passing its
// adjacency on), a welded base is a link of its own, other self-pairs only with
// --self-collision, and an SRDF's <disable_collisions> pairs never. The expected pairs are
// worked out by hand from the tree below.
#include <gtest/gtest.h>
#include <fmt/format.h>

#include "support/scratch_directory.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/io/import/load_scene.hpp"

namespace moreau {
namespace {
namespace fs = std::filesystem;

// base (welded) ─joint1─ link1 ═fixed═ flange ─joint2─ hip (no geometry) ─joint3─ thigh ─joint4─
// tip; every link with geometry a 0.1 m cube. After merging, the bodies with shapes are base,
// link1 (with flange), thigh and tip. Adjacent: link1–base, thigh–link1 (through the hip),
// tip–thigh.
const char* kRobot = R"(<robot name="chain">
  <link name="base">
    <inertial><mass value="2"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <link name="link1">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <link name="flange"><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <link name="hip">
    <inertial><mass value="0.5"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
  <link name="thigh">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <link name="tip">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
  <joint name="joint1" type="revolute"><parent link="base"/><child link="link1"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="10" velocity="1"/></joint>
  <joint name="weld" type="fixed"><parent link="link1"/><child link="flange"/><origin xyz="0 0 0.1"/></joint>
  <joint name="joint2" type="continuous"><parent link="flange"/><child link="hip"/>
    <origin xyz="0 0 0.1"/><axis xyz="0 0 1"/></joint>
  <joint name="joint3" type="continuous"><parent link="hip"/><child link="thigh"/>
    <origin xyz="0 0 0"/><axis xyz="1 0 0"/></joint>
  <joint name="joint4" type="continuous"><parent link="thigh"/><child link="tip"/>
    <origin xyz="0 0 0.1"/><axis xyz="1 0 0"/></joint>
</robot>)";

const char* kSrdf = R"(<robot name="chain">
  <disable_collisions link1="tip" link2="base" reason="Never"/>
  <disable_collisions link1="tip" link2="nowhere" reason="Never"/>
</robot>)";

struct Files {
  fs::path dir = moreau::testing::scratch_directory("moreau_urdf_self_collision");
  std::string urdf = (dir / "chain.urdf").string(), srdf = (dir / "chain.srdf").string();
  Files() {
    fs::create_directories(dir);
    std::ofstream(urdf) << kRobot;
    std::ofstream(srdf) << kSrdf;
  }
  ~Files() { fs::remove_all(dir); }
};

// The body pairs detection reports at the start with every gap within 10 m, "A|B" sorted.
std::set<std::string> pairs(const Scene& s) {
  const RigidWorldSystem sys(s.world, s.collision);
  CollisionSettings cs = s.collision;
  cs.margin = 10.0;
  cs.joint_limits = false;  // limits are rows on coordinates, not collisions
  std::set<std::string> out;
  for (const Contact& c : detect_contacts(*s.world, sys.maximal_positions(sys.initial_q), cs)) {
    std::string a = s.world->body(c.body_a).name, b = s.world->body(c.body_b).name;
    if (b < a) std::swap(a, b);
    out.insert(a + "|" + b);
  }
  return out;
}

TEST(UrdfSelfCollision, AWeldedBaseIsALinkOfItsOwn) {
  Files f;
  ModelImportOptions o;
  o.ground = true;
  const Scene s = load_scene(f.urdf, o);
  ASSERT_EQ(s.world->body(1).name, "base");
  EXPECT_TRUE(s.world->body(1).is_static);
  EXPECT_EQ(s.world->body(0).shapes.size(), 1u);  // the world holds the ground only
  EXPECT_FALSE(s.collision.self_collision);
  // no self-pair; every moving link meets the ground (the base, static, does not)
  EXPECT_EQ(pairs(s), (std::set<std::string>{"link1|world", "thigh|world", "tip|world"}));
}

TEST(UrdfSelfCollision, SelfCollisionSkipsAdjacentLinks) {
  Files f;
  ModelImportOptions o;
  o.self_collision = true;
  const Scene s = load_scene(f.urdf, o);
  EXPECT_TRUE(s.collision.self_collision);
  EXPECT_EQ(pairs(s), (std::set<std::string>{"base|thigh", "base|tip", "link1|tip"}));
  o.srdf = f.srdf;
  const Scene with_srdf = load_scene(f.urdf, o);
  EXPECT_EQ(pairs(with_srdf), (std::set<std::string>{"base|thigh", "link1|tip"}));
  ASSERT_FALSE(with_srdf.warnings.empty());
  EXPECT_NE(with_srdf.warnings.back().find("has no link 'nowhere'"), std::string::npos)
      << with_srdf.warnings.back();
}

// A floating base is a moving link of the robot: without self-collision it meets the ground
// only; its articulation holds every link.
TEST(UrdfSelfCollision, FloatingBaseCollidesWithTheGroundOnly) {
  Files f;
  ModelImportOptions o;
  o.floating_base = true;
  o.ground = true;
  const Scene s = load_scene(f.urdf, o);
  EXPECT_EQ(pairs(s),
            (std::set<std::string>{"base|world", "link1|world", "thigh|world", "tip|world"}));
  const std::vector<Index> a = articulations(*s.world);
  EXPECT_EQ(a[0], -1);  // the world
  for (Index b = 2; b < s.world->body_count(); ++b) EXPECT_EQ(a[b], a[1]);
}

// A welded base with two branches, two 0.1 m cubes hinged to it side by side and touching: each
// branch is an articulation of its own (the base is static), yet without self-collision no two
// links meet, the base included; with it the two branches do (they are not adjacent).
TEST(UrdfSelfCollision, TheBranchesOfAWeldedBaseDoNotMeet) {
  const fs::path dir = moreau::testing::scratch_directory("moreau_urdf_branches");
  fs::create_directories(dir);
  const std::string urdf = (dir / "fork.urdf").string();
  const char* inertial =
      R"(<inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>)";
  const char* cube = R"(<collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>)";
  std::ofstream(urdf) << fmt::format(
      R"(<robot name="fork">
  <link name="base">{0}<collision><geometry><box size="0.3 0.1 0.05"/></geometry></collision></link>
  <link name="left">{0}{1}</link>
  <link name="right">{0}{1}</link>
  <joint name="j_left" type="continuous"><parent link="base"/><child link="left"/>
    <origin xyz="-0.05 0 0.2"/><axis xyz="1 0 0"/></joint>
  <joint name="j_right" type="continuous"><parent link="base"/><child link="right"/>
    <origin xyz="0.05 0 0.2"/><axis xyz="1 0 0"/></joint>
</robot>)",
      inertial, cube);
  const Scene plain = load_scene(urdf, ModelImportOptions{});
  EXPECT_TRUE(pairs(plain).empty());
  EXPECT_FALSE(shapes_may_touch(*plain.world, plain.collision));  // detection is skipped
  ModelImportOptions o;
  o.self_collision = true;
  EXPECT_EQ(pairs(load_scene(urdf, o)), (std::set<std::string>{"left|right"}));
  fs::remove_all(dir);
}

// articulations(): two pendulums hanging from one static ground are two articulations, and the
// ground belongs to neither; a static base jointed to one arm belongs to it.
TEST(UrdfSelfCollision, ArticulationsOfAWorld) {
  RigidWorld w(3);
  auto body = [&](const std::string& name, bool fixed) {
    RigidBody b;
    b.name = name;
    b.is_static = fixed;
    b.mass = 1.0;
    b.inertia = Matrix3::Identity();
    return w.add_body(b);
  };
  const Index ground = body("ground", true), p1 = body("p1", false), p2 = body("p2", false);
  const Index base = body("base", true), arm = body("arm", false), hand = body("hand", false);
  auto hinge = [&](Index a, Index b) {
    Joint j;
    j.kind = JointKind::revolute;
    j.body_a = a;
    j.body_b = b;
    w.add_joint(j);
  };
  hinge(p1, ground), hinge(p2, ground), hinge(arm, base), hinge(hand, arm);
  const std::vector<Index> a = articulations(w);
  EXPECT_EQ(a[ground], -1);
  EXPECT_NE(a[p1], -1);
  EXPECT_NE(a[p1], a[p2]);
  EXPECT_EQ(a[base], a[arm]);
  EXPECT_EQ(a[hand], a[arm]);
  EXPECT_NE(a[arm], a[p1]);
}

}  // namespace
}  // namespace moreau
