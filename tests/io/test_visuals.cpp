// Visuals (model/rigid/visual.hpp): what the viewer draws of a body. A URDF <visual> is read
// with its mesh file resolved, its origin and its material's colour, and follows its link when
// fixed joints merge links; scenes read and write them (a relative mesh path taken from the
// scene's folder); an STL mesh has no colour of its own (COLLADA's: test_mesh_file_collada.cpp).
// Each expected pose is worked out by hand from the file's numbers.
#include <gtest/gtest.h>

#include "support/scratch_directory.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "moreau/io/import/load_scene.hpp"
#include "moreau/io/mesh/mesh_file.hpp"
#include "moreau/io/json/rigid_world_json.hpp"
#include "moreau/io/scene/scene.hpp"

namespace moreau {
namespace {
namespace fs = std::filesystem;

// A folder of its own with a tetrahedron in ASCII STL (vertices (0,0,0), (1,0,0), (0,1,0),
// (0,0,1)).
class Visuals : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = moreau::testing::scratch_directory("moreau_visuals");
    fs::create_directories(root_ / "meshes");
    std::ofstream(root_ / "meshes/tetra.stl") << R"(solid t
facet normal 0 0 -1
outer loop
vertex 0 0 0
vertex 0 1 0
vertex 1 0 0
endloop
endfacet
facet normal 0 -1 0
outer loop
vertex 0 0 0
vertex 1 0 0
vertex 0 0 1
endloop
endfacet
facet normal -1 0 0
outer loop
vertex 0 0 0
vertex 0 0 1
vertex 0 1 0
endloop
endfacet
facet normal 1 1 1
outer loop
vertex 1 0 0
vertex 0 1 0
vertex 0 0 1
endloop
endfacet
endsolid t
)";
  }
  void TearDown() override { fs::remove_all(root_); }
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(root_ / name) << text;
    return (root_ / name).string();
  }
  fs::path root_;
};

// The arm's centre of mass is at (0.5, 0, 0) of its link frame, which sits at (0, 0, 1): the
// body frame is the centre of mass, so a visual at the link's (0.5, 0, 0.1) is at (0, 0, 0.1) of
// the body. The tool link hangs on a fixed joint at (1, 0, 0) of the arm turned 90° about z:
// its box at the tool's (0.2, 0, 0) is at the arm link's (1, 0.2, 0), the body's (0.5, 0.2, 0).
TEST_F(Visuals, UrdfVisualsAreReadAndFollowMergedLinks) {
  const std::string path = write("arm.urdf", R"(<robot name="r">
  <material name="steel"><color rgba="0.5 0.6 0.7 1"/></material>
  <link name="base"/>
  <link name="arm">
    <inertial><origin xyz="0.5 0 0"/><mass value="1"/>
      <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><origin xyz="0.5 0 0.1"/>
      <geometry><mesh filename="meshes/tetra.stl" scale="2 2 2"/></geometry>
      <material name="steel"/></visual>
  </link>
  <joint name="hinge" type="continuous"><parent link="base"/><child link="arm"/>
    <origin xyz="0 0 1"/><axis xyz="0 1 0"/></joint>
  <link name="tool">
    <visual><origin xyz="0.2 0 0"/><geometry><box size="0.1 0.2 0.3"/></geometry>
      <material name="red"><color rgba="1 0 0 0.5"/></material></visual>
  </link>
  <joint name="weld" type="fixed"><parent link="arm"/><child link="tool"/>
    <origin xyz="1 0 0" rpy="0 0 1.5707963267948966"/></joint>
</robot>
)");
  const Scene s = load_scene(path, {});
  const RigidBody& arm = s.world->body(s.world->find_body("arm"));
  ASSERT_EQ(arm.visuals.size(), 2u);
  const Visual& mesh = arm.visuals[0];
  EXPECT_EQ(mesh.mesh, (root_ / "meshes/tetra.stl").lexically_normal().string());
  EXPECT_EQ(mesh.scale, Vector3(2, 2, 2));
  EXPECT_LT((mesh.shape.offset.position - Vector3(0, 0, 0.1)).norm(), 1e-12);
  for (int k = 0; k < 4; ++k)  // urdfdom reads floats
    EXPECT_NEAR(mesh.rgba[static_cast<size_t>(k)], (std::array{0.5, 0.6, 0.7, 1.0})[k], 1e-7);
  const Visual& box = arm.visuals[1];
  EXPECT_TRUE(box.mesh.empty());
  EXPECT_EQ(box.shape.kind, ShapeKind::box);
  EXPECT_LT((box.shape.half_extents - Vector3(0.05, 0.1, 0.15)).norm(), 1e-12);
  EXPECT_LT((box.shape.offset.position - Vector3(0.5, 0.2, 0)).norm(), 1e-12);
  // the box's x axis is the tool's, turned onto the arm's y
  EXPECT_LT((box.shape.offset.orientation * Vector3::UnitX() - Vector3::UnitY()).norm(), 1e-12);
  EXPECT_EQ(box.rgba[3], 0.5);
  EXPECT_TRUE(arm.shapes.empty());  // visuals never collide
}

// MJCF: a geom that collides with nothing (contype = conaffinity = 0) is also a visual; the
// body's centre of mass is the sphere's (the visual geoms weigh nothing here), so the mesh sits
// at its geom's pos (0, 0, 0.3) and the box at (0.2, 0, 0) of the body.
TEST_F(Visuals, MjcfGeomsThatCollideWithNothingAreVisuals) {
  const std::string path = write("model.xml", R"(<mujoco>
  <asset><mesh name="tetra" file="meshes/tetra.stl" scale="0.5 0.5 0.5"/></asset>
  <worldbody>
    <body name="ball" pos="0 0 1"><freejoint/>
      <geom type="sphere" size="0.1" mass="1"/>
      <geom type="mesh" mesh="tetra" pos="0 0 0.3" mass="0" contype="0" conaffinity="0"/>
      <geom type="box" size="0.05 0.05 0.05" pos="0.2 0 0" mass="0" contype="0" conaffinity="0"/>
    </body>
  </worldbody>
</mujoco>
)");
  const Scene s = load_scene(path, {});
  const RigidBody& ball = s.world->body(s.world->find_body("ball"));
  ASSERT_EQ(ball.visuals.size(), 2u);
  EXPECT_EQ(ball.visuals[0].mesh, (root_ / "meshes/tetra.stl").lexically_normal().string());
  EXPECT_EQ(ball.visuals[0].scale, Vector3(0.5, 0.5, 0.5));
  EXPECT_LT((ball.visuals[0].shape.offset.position - Vector3(0, 0, 0.3)).norm(), 1e-12);
  EXPECT_TRUE(ball.visuals[1].mesh.empty());
  EXPECT_EQ(ball.visuals[1].shape.kind, ShapeKind::box);
  EXPECT_LT((ball.visuals[1].shape.offset.position - Vector3(0.2, 0, 0)).norm(), 1e-12);
  EXPECT_EQ(ball.shapes.size(), 3u);  // the geoms stay shapes (their filters keep them apart)
}

// A visual mesh that is not there is a warning (the viewer draws the collision shapes): the
// simulation does not need it.
TEST_F(Visuals, AMissingVisualMeshIsAWarning) {
  const std::string path = write("lost.urdf", R"(<robot name="r">
  <link name="base"/>
  <link name="arm"><inertial><mass value="1"/>
      <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <visual><geometry><mesh filename="meshes/gone.dae"/></geometry></visual></link>
  <joint name="hinge" type="continuous"><parent link="base"/><child link="arm"/></joint>
</robot>
)");
  const Scene s = load_scene(path, {});
  EXPECT_TRUE(s.world->body(s.world->find_body("arm")).visuals.empty());
  bool warned = false;
  for (const std::string& w : s.warnings)
    warned |= w.find("gone.dae") != std::string::npos &&
              w.find("the viewer draws its collision shapes") != std::string::npos;
  EXPECT_TRUE(warned);
}

// A scene's visuals: a mesh path relative to the scene file, a primitive with a colour; written
// back and read again they are the same.
TEST_F(Visuals, ScenesReadAndWriteVisuals) {
  const std::string path = write("scene.json", R"({
  "description": "a ball drawn as a tetrahedron and a box",
  "dimension": 3,
  "bodies": [{"name": "ball", "mass": 1, "position": [0, 0, 1],
              "shapes": [{"type": "sphere", "radius": 0.1}],
              "visuals": [{"mesh": "meshes/tetra.stl", "scale": [0.1, 0.1, 0.1],
                           "position": [0, 0, -0.05]},
                          {"type": "box", "half_extents": [0.1, 0.1, 0.1], "rgba": [1, 0, 0, 1]}]}]
})");
  const Scene s = load_scene(path, {});
  const RigidBody& ball = s.world->body(0);
  ASSERT_EQ(ball.visuals.size(), 2u);
  EXPECT_EQ(ball.visuals[0].mesh, (root_ / "meshes/tetra.stl").lexically_normal().string());
  EXPECT_EQ(ball.visuals[0].scale, Vector3(0.1, 0.1, 0.1));
  EXPECT_FALSE(ball.visuals[0].has_color());
  EXPECT_EQ(ball.visuals[1].rgba[0], 1.0);
  const RigidWorld again = rigid_world_from_json(rigid_world_to_json(*s.world));
  ASSERT_EQ(again.body(0).visuals.size(), 2u);
  EXPECT_EQ(again.body(0).visuals[0].mesh, ball.visuals[0].mesh);
  EXPECT_EQ(again.body(0).visuals[0].shape.offset.position, Vector3(0, 0, -0.05));
  EXPECT_EQ(again.body(0).visuals[1].shape.half_extents, Vector3(0.1, 0.1, 0.1));
  EXPECT_EQ(again.body(0).visuals[1].rgba, ball.visuals[1].rgba);
}

TEST_F(Visuals, BadVisualsAreNamed) {
  auto error = [&](const std::string& visual) {
    try {
      parse_scene_text(R"({"description": "d", "dimension": 3, "bodies": [{"mass": 1,
        "shapes": [{"type": "sphere", "radius": 0.1}], "visuals": [)" +
                       visual + "]}]}");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(error(R"({"type": "box", "half_extents": [1, 1, 1], "rgba": [2, 0, 0, 1]})")
                .find("bodies[0].visuals[0].rgba = [2, 0, 0, 1]: each must be in [0, 1]"),
            std::string::npos);
  EXPECT_NE(error(R"({"mesh": "a.stl", "scale": [1, 0, 1]})")
                .find("bodies[0].visuals[0].scale = [1, 0, 1]: must be positive"),
            std::string::npos);
  EXPECT_NE(error(R"({"type": "plane", "normal": [0, 0, 1]})")
                .find("bodies[0].visuals[0]: a plane cannot be a visual"),
            std::string::npos);
  EXPECT_NE(error(R"({"mesh": "a.stl", "colour": [1, 0, 0, 1]})").find("colour"),
            std::string::npos);
}

// An STL has no material: its part has no colour (the URDF's or the body's is used), not the
// grey assimp gives it.
TEST_F(Visuals, AnStlHasNoColourOfItsOwn) {
  const TriangleMesh stl = load_mesh_file((root_ / "meshes/tetra.stl").string());
  ASSERT_EQ(stl.part_colors.size(), 1u);
  EXPECT_TRUE(std::isnan(stl.part_colors[0][0]));
}

}  // namespace
}  // namespace moreau
