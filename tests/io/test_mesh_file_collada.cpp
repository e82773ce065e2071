// COLLADA meshes (io/import/mesh_file.hpp): the nodes' transforms, <unit meter> and <up_axis>
// applied, one part per placed mesh; each vertex against the file's numbers transformed by hand.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "moreau/io/import/mesh_file.hpp"

namespace moreau {
namespace {
namespace fs = std::filesystem;

// A triangle (0,0,0), (1,0,0), (0,1,0) placed by two nodes: `first` with the matrix given (row
// major, as COLLADA writes it), `second` with none; the file's unit and up axis as given.
std::string collada(const std::string& meter, const std::string& up, const std::string& matrix) {
  return fmt::format(R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="u" meter="{}"/><up_axis>{}</up_axis></asset>
  <library_geometries>
    <geometry id="tri" name="tri"><mesh>
      <source id="tri-pos"><float_array id="tri-arr" count="9">0 0 0 1 0 0 0 1 0</float_array>
        <technique_common><accessor source="#tri-arr" count="3" stride="3">
          <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
        </accessor></technique_common></source>
      <vertices id="tri-vtx"><input semantic="POSITION" source="#tri-pos"/></vertices>
      <triangles count="1"><input semantic="VERTEX" source="#tri-vtx" offset="0"/><p>0 1 2</p></triangles>
    </mesh></geometry>
  </library_geometries>
  <library_visual_scenes>
    <visual_scene id="scene">
      <node id="first" name="first"><matrix>{}</matrix><instance_geometry url="#tri"/></node>
      <node id="second" name="second"><instance_geometry url="#tri"/></node>
    </visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#scene"/></scene>
</COLLADA>
)",
                     meter, up, matrix);
}

TriangleMesh load(const std::string& text, const Vector3& scale = Vector3::Ones()) {
  const fs::path path = fs::temp_directory_path() / "moreau_collada_test.dae";
  std::ofstream(path) << text;
  TriangleMesh m = load_mesh_file(path.string(), scale);
  fs::remove(path);
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

}  // namespace
}  // namespace moreau
