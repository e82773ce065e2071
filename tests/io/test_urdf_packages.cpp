// package:// URIs of URDF meshes (io/import/package_uri.hpp), resolved without ROS: through the
// folders given, ROS_PACKAGE_PATH, AMENT_PREFIX_PATH and the folders above the URDF, and the error
// that names the URI, the link and the folders searched. Each case builds its own small package.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "moreau/io/import/load_scene.hpp"

namespace moreau {
namespace {
namespace fs = std::filesystem;

// A tetrahedron with vertices at the origin and 0.1 m along each axis (ASCII STL).
const char* kTetrahedron = R"(solid tet
facet normal 0 0 -1
 outer loop
  vertex 0 0 0
  vertex 0 0.1 0
  vertex 0.1 0 0
 endloop
endfacet
facet normal 0 -1 0
 outer loop
  vertex 0 0 0
  vertex 0.1 0 0
  vertex 0 0 0.1
 endloop
endfacet
facet normal -1 0 0
 outer loop
  vertex 0 0 0
  vertex 0 0 0.1
  vertex 0 0.1 0
 endloop
endfacet
facet normal 1 1 1
 outer loop
  vertex 0.1 0 0
  vertex 0 0.1 0
  vertex 0 0 0.1
 endloop
endfacet
endsolid tet
)";

// One link with a mesh collision at `uri`, hanging from the world on a hinge.
std::string urdf(const std::string& uri) {
  return R"(<robot name="r">
  <link name="base"/>
  <link name="arm">
    <inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>
    <collision><origin xyz="0 0 -0.5"/><geometry><mesh filename=")" +
         uri + R"("/></geometry></collision>
  </link>
  <joint name="hinge" type="continuous"><parent link="base"/><child link="arm"/><axis xyz="0 1 0"/></joint>
</robot>)";
}

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

class UrdfPackages : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ =
        fs::temp_directory_path() /
        ("moreau_packages_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(root_);
    // a ROS workspace: ws/src/my_robot (package.xml names it) holding the mesh
    write(root_ / "ws/src/my_robot/package.xml",
          "<package format=\"3\"><name>my_robot</name><version>1.0.0</version></package>");
    write(root_ / "ws/src/my_robot/meshes/tet.stl", kTetrahedron);
    unsetenv("ROS_PACKAGE_PATH");
    unsetenv("AMENT_PREFIX_PATH");
  }
  void TearDown() override {
    unsetenv("ROS_PACKAGE_PATH");
    unsetenv("AMENT_PREFIX_PATH");
    fs::remove_all(root_);
  }
  // Loads `file` and returns the number of distinct points of its arm's collision mesh (4 when
  // the tetrahedron was found).
  static size_t arm_vertices(const fs::path& file, const ModelImportOptions& o = {}) {
    const Scene s = load_scene(file.string(), o);
    for (const RigidBody& b : s.world->bodies()) {
      if (b.name != "arm") continue;
      std::vector<Vector3> distinct;
      for (const Vector3& p : b.shapes.at(0).vertices)
        if (std::none_of(distinct.begin(), distinct.end(),
                         [&](const Vector3& d) { return (d - p).norm() < 1e-12; }))
          distinct.push_back(p);
      return distinct.size();
    }
    return 0;
  }
  fs::path root_;
};

// A URDF inside its own package loads with no flag: the folders above it hold package.xml. So
// does the bare file name from its own folder, and a file:// path relative to the file.
TEST_F(UrdfPackages, AUrdfInsideItsPackageFindsItWithNoFlag) {
  write(root_ / "ws/src/my_robot/urdf/r.urdf", urdf("package://my_robot/meshes/tet.stl"));
  EXPECT_EQ(arm_vertices(root_ / "ws/src/my_robot/urdf/r.urdf"), 4u);
  const fs::path cwd = fs::current_path();
  fs::current_path(root_ / "ws/src/my_robot/urdf");
  size_t found = 0;
  try {
    found = arm_vertices("r.urdf");
  } catch (...) {
  }
  fs::current_path(cwd);
  EXPECT_EQ(found, 4u);
  write(root_ / "ws/src/my_robot/urdf/relative.urdf", urdf("file://../meshes/tet.stl"));
  EXPECT_EQ(arm_vertices(root_ / "ws/src/my_robot/urdf/relative.urdf"), 4u);
}

// Elsewhere, the package is found through --package-dir (a folder of packages, or the root),
// ROS_PACKAGE_PATH, or AMENT_PREFIX_PATH's share/NAME; file:// is a path.
TEST_F(UrdfPackages, PackagesResolveThroughDirsAndTheEnvironment) {
  const fs::path file = root_ / "elsewhere/r.urdf";
  write(file, urdf("package://my_robot/meshes/tet.stl"));
  EXPECT_EQ(arm_vertices(file, {.package_dirs = {(root_ / "ws/src").string()}}), 4u);
  EXPECT_EQ(arm_vertices(file, {.package_dirs = {(root_ / "ws/src/my_robot").string()}}), 4u);
  setenv("ROS_PACKAGE_PATH", ("/nonexistent:" + (root_ / "ws/src").string()).c_str(), 1);
  EXPECT_EQ(arm_vertices(file), 4u);
  setenv("ROS_PACKAGE_PATH", (root_ / "ws").string().c_str(), 1);  // crawled: ws/src/my_robot
  EXPECT_EQ(arm_vertices(file), 4u);
  write(root_ / "ws/src/CATKIN_IGNORE", "");  // as rospack: not below an ignored folder
  EXPECT_THROW(arm_vertices(file), std::invalid_argument);
  fs::remove(root_ / "ws/src/CATKIN_IGNORE");
  unsetenv("ROS_PACKAGE_PATH");
  // ROS 2: an install prefix with share/my_robot, found by its folder's name (no package.xml)
  write(root_ / "install/share/my_robot/meshes/tet.stl", kTetrahedron);
  setenv("AMENT_PREFIX_PATH", (root_ / "install").string().c_str(), 1);
  EXPECT_EQ(arm_vertices(file), 4u);
  unsetenv("AMENT_PREFIX_PATH");
  const fs::path absolute = root_ / "file_uri.urdf";
  write(absolute, urdf("file://" + (root_ / "ws/src/my_robot/meshes/tet.stl").string()));
  EXPECT_EQ(arm_vertices(absolute), 4u);
}

// An unresolved package names the URI, the link and the folders searched.
TEST_F(UrdfPackages, AnUnresolvedPackageNamesTheUriTheLinkAndTheFolders) {
  const fs::path file = root_ / "elsewhere/r.urdf";
  write(file, urdf("package://other_robot/meshes/tet.stl"));
  try {
    load_scene(file.string(), {.package_dirs = {(root_ / "ws/src").string()}});
    FAIL() << "no throw";
  } catch (const std::invalid_argument& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("package://other_robot/meshes/tet.stl"), std::string::npos) << m;
    EXPECT_NE(m.find("link 'arm'"), std::string::npos) << m;
    EXPECT_NE(m.find("no package 'other_robot'"), std::string::npos) << m;
    EXPECT_NE(m.find("--package-dir " + (root_ / "ws/src").string()), std::string::npos) << m;
    EXPECT_NE(m.find((root_ / "elsewhere").string()), std::string::npos) << m;
  }
}

}  // namespace
}  // namespace moreau
