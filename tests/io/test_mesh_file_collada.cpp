// COLLADA meshes (io/mesh/mesh_file.hpp): the nodes' transforms, <unit meter> and <up_axis>
// applied, one part per placed mesh; each vertex against the file's numbers transformed by hand.
#include <gtest/gtest.h>

#include "support/scratch_directory.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "moreau/io/mesh/mesh_file.hpp"

namespace moreau {
namespace {
namespace fs = std::filesystem;

// A triangle (0,0,0), (1,0,0), (0,1,0) placed by two nodes: `first` with the matrix given (row
// major, as COLLADA writes it), `second` with none; the file's unit and up axis as given; with
// `diffuse` ("r g b a"), painted with a material of that diffuse colour.
std::string collada(const std::string& meter, const std::string& up, const std::string& matrix,
                    const std::string& diffuse = "") {
  const std::string materials =
      diffuse.empty() ? ""
                      : fmt::format(R"(<library_effects><effect id="fx"><profile_COMMON>
    <technique sid="common"><lambert><diffuse><color>{}</color></diffuse></lambert></technique>
  </profile_COMMON></effect></library_effects>
  <library_materials><material id="paint"><instance_effect url="#fx"/></material></library_materials>)",
                                    diffuse);
  const std::string paint = diffuse.empty() ? "" : R"( material="paint")";
  const std::string bind = diffuse.empty() ? "" : R"(<bind_material><technique_common>
        <instance_material symbol="paint" target="#paint"/></technique_common></bind_material>)";
  return fmt::format(R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="u" meter="{}"/><up_axis>{}</up_axis></asset>
  {}
  <library_geometries>
    <geometry id="tri" name="tri"><mesh>
      <source id="tri-pos"><float_array id="tri-arr" count="9">0 0 0 1 0 0 0 1 0</float_array>
        <technique_common><accessor source="#tri-arr" count="3" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
        </accessor></technique_common></source>
      <vertices id="tri-vtx"><input semantic="POSITION" source="#tri-pos"/></vertices>
      <triangles count="1"{}><input semantic="VERTEX" source="#tri-vtx" offset="0"/><p>0 1 2</p></triangles>
    </mesh></geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="scene">
      <node id="first" name="first"><matrix>{}</matrix><instance_geometry url="#tri">{}</instance_geometry></node>
      <node id="second" name="second"><instance_geometry url="#tri">{}</instance_geometry></node>
    </visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
)",
                     meter, up, materials, paint, matrix, bind, bind);
}

TriangleMesh load(const std::string& text, const Vector3& scale = Vector3::Ones()) {
  const fs::path path = moreau::testing::scratch_directory("moreau_collada") / "mesh.dae";
  std::ofstream(path) << text;
  TriangleMesh m = load_mesh_file(path.string(), scale);
  fs::remove_all(path.parent_path());
  return m;
}

// Z up, metres: node `first` turns 90° about z and moves by (1, 2, 3): (x, y, z) → (−y + 1,
// x + 2, z + 3); node `second` places the triangle as written. Two parts.
TEST(MeshFileCollada, NodeTransformsPlaceEachMesh) {
  const TriangleMesh m = load(collada("1", "Z_UP", "0 -1 0 1  1 0 0 2  0 0 1 3  0 0 0 1"));
  ASSERT_EQ(m.part_starts.size(), 2u);
  ASSERT_EQ(m.vertices.size(), 6u);
  const std::vector<Vector3> first = m.part_vertices(0), second = m.part_vertices(1);
  EXPECT_LT((first[0] - Vector3(1, 2, 3)).norm(), 1e-6);
  EXPECT_LT((first[1] - Vector3(1, 3, 3)).norm(), 1e-6);
  EXPECT_LT((first[2] - Vector3(0, 2, 3)).norm(), 1e-6);
  EXPECT_LT((second[1] - Vector3(1, 0, 0)).norm(), 1e-6);
  EXPECT_LT((second[2] - Vector3(0, 1, 0)).norm(), 1e-6);
  EXPECT_EQ(m.triangles.size(), 2u);
}

// Millimetres (meter = 0.001), scaled by 2 along x: the node's translation 10 mm is 0.01 m.
TEST(MeshFileCollada, UnitAndScaleApply) {
  const TriangleMesh m =
      load(collada("0.001", "Z_UP", "1 0 0 10  0 1 0 0  0 0 1 0  0 0 0 1"), Vector3(2, 1, 1));
  const std::vector<Vector3> first = m.part_vertices(0);
  EXPECT_LT((first[0] - Vector3(0.02, 0, 0)).norm(), 1e-8);      // assimp keeps floats
  EXPECT_LT((first[1] - Vector3(0.022, 0, 0)).norm(), 1e-8);     // assimp keeps floats
  EXPECT_LT((first[2] - Vector3(0.02, 0.001, 0)).norm(), 1e-8);  // assimp keeps floats
}

// Y up: the file's y is the link's z, its z the link's −y (a right-handed turn).
TEST(MeshFileCollada, YUpTurnsOntoZ) {
  const TriangleMesh m = load(collada("1", "Y_UP", "1 0 0 0  0 1 0 0  0 0 1 0  0 0 0 1"));
  const std::vector<Vector3> second = m.part_vertices(1);
  EXPECT_LT((second[1] - Vector3(1, 0, 0)).norm(), 1e-6);
  EXPECT_LT((second[2] - Vector3(0, 0, 1)).norm(), 1e-6);
}

// A material's diffuse colour (0.2, 0.4, 0.6, 1) is its parts'; without one a part has none (NaN
// red), not the grey assimp gives such a file.
TEST(MeshFileCollada, PartsCarryTheirMaterialsColour) {
  const std::string identity = "1 0 0 0  0 1 0 0  0 0 1 0  0 0 0 1";
  const TriangleMesh painted = load(collada("1", "Z_UP", identity, "0.2 0.4 0.6 1"));
  ASSERT_EQ(painted.part_colors.size(), 2u);
  for (const auto& c : painted.part_colors) {
    EXPECT_NEAR(c[0], 0.2, 1e-6);
    EXPECT_NEAR(c[1], 0.4, 1e-6);
    EXPECT_NEAR(c[2], 0.6, 1e-6);
    EXPECT_NEAR(c[3], 1.0, 1e-6);
  }
  const TriangleMesh bare = load(collada("1", "Z_UP", identity));
  ASSERT_EQ(bare.part_colors.size(), 2u);
  EXPECT_TRUE(std::isnan(bare.part_colors[0][0]));
}

}  // namespace
}  // namespace moreau
