// URDF files as they are published (docs/urdf.md): <gazebo> and <transmission> ignored with one
// warning each, attributes and elements urdfdom reads past warned once, an inertia breaking the
// triangle inequality refused naming the link, or evened by --balance-inertia.
#include <gtest/gtest.h>

#include "support/scratch_directory.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {
namespace {
namespace fs = std::filesystem;

// A pendulum link with inertia diag(ixx, iyy, izz) and the extra XML given.
std::string write_urdf(const std::string& inertia, const std::string& extra) {
  const fs::path path = moreau::testing::scratch_directory("moreau_urdf_files") / "r.urdf";
  std::ofstream(path) << R"(<robot name="r">
  <link name="base"/>
  <link name="arm"><inertial><origin xyz="0 0 -0.5"/><mass value="1"/>)"
                      << inertia << R"(</inertial></link>
  <joint name="hinge" type="continuous"><parent link="base"/><child link="arm"/>
    <axis xyz="0 1 0"/><dynamics damping="0.1" D="1" mu_coulomb="0"/></joint>
)" << extra << "</robot>\n";
  return path.string();
}

size_t count_containing(const std::vector<std::string>& lines, const std::string& text) {
  size_t n = 0;
  for (const std::string& l : lines) n += l.find(text) != std::string::npos;
  return n;
}

TEST(UrdfFiles, GazeboTransmissionAndUnknownAttributesAreWarnedOnce) {
  const std::string path =
      write_urdf(R"(<inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/>)",
                 R"(<gazebo reference="arm"><mu1>0.5</mu1></gazebo><gazebo/>
  <transmission name="t"><type>x</type></transmission><transmission name="u"/>
  <sensor name="s"/>)");
  const Scene s = load_scene(path, {});
  EXPECT_EQ(count_containing(s.warnings, "<gazebo> ignored"), 1u);
  EXPECT_EQ(count_containing(s.warnings, "<transmission> ignored"), 1u);
  EXPECT_EQ(count_containing(s.warnings, ":5: <dynamics D> ignored: not a URDF attribute"), 1u);
  EXPECT_EQ(count_containing(s.warnings, "<dynamics mu_coulomb> ignored"), 1u);
  EXPECT_EQ(count_containing(s.warnings, "<sensor> ignored: not an element of URDF's <robot>"), 1u);
  EXPECT_EQ(s.world->joints().at(0).damping, 0.1);  // the known attribute is read
  fs::remove_all(fs::path(path).parent_path());
}

// Principal moments 1, 1, 3 kg·m²: 1 + 1 < 3 is refused naming the link; balanced, each is
// (1 + 1 + 3)/3 = 5/3.
TEST(UrdfFiles, InertiaTriangleInequality) {
  const std::string path =
      write_urdf(R"(<inertia ixx="1" iyy="1" izz="3" ixy="0" ixz="0" iyz="0"/>)", "");
  try {
    load_scene(path, {});
    FAIL() << "an impossible inertia was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("link 'arm': <inertia> breaks the triangle inequality: "
                                         "its principal moments 1 + 1 < 3 kg·m²"),
              std::string::npos)
        << e.what();
  }
  ModelImportOptions o;
  o.balance_inertia = true;
  const Scene s = load_scene(path, o);
  ASSERT_EQ(s.world->body(2).name, "arm");
  EXPECT_LT((s.world->body(2).inertia - Matrix3::Identity() * 5.0 / 3.0).norm(), 1e-12);
  fs::remove_all(fs::path(path).parent_path());
}

}  // namespace
}  // namespace moreau

namespace moreau {
namespace {

// base ─j1 (about y)─ dummy (no inertial) ─j2 (about x)─ arm (1 kg at 0.5 m below the axes,
// I_c = 0.01 kg·m²): a universal joint through a massless link. Released at j1 = 0.3 rad, the
// first step's velocity is h q̈ with q̈ = −m g l sin q / (I_c + m l²) (j2 feels no torque).
TEST(UrdfFiles, AMasslessLinkBetweenJointsIsAccepted) {
  const fs::path path = moreau::testing::scratch_directory("moreau_urdf_massless") / "u.urdf";
  auto write = [&](const std::string& tail_link) {
    std::ofstream(path) << R"(<robot name="u"><link name="base"/><link name="dummy"/>
  <link name="arm">)" << tail_link
                        << R"(</link>
  <joint name="j1" type="continuous"><parent link="base"/><child link="dummy"/><axis xyz="0 1 0"/></joint>
  <joint name="j2" type="continuous"><parent link="dummy"/><child link="arm"/><axis xyz="1 0 0"/></joint>
</robot>)";
  };
  write(R"(<inertial><origin xyz="0 0 -0.5"/><mass value="1"/>
    <inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial>)");
  ModelImportOptions o;
  o.joints = {{"j1", 0.3}};
  Scene s = load_scene(path.string(), o);
  EXPECT_TRUE(s.world->body(2).massless);
  SimulationSettings st = s.settings;
  st.t_end = 1e-3;
  const RigidWorldSystem sys(s.world, s.collision);
  const SimulationResult r = simulate(sys, st);
  const auto at = [&](const std::string& n) {
    return std::find(r.velocity_names.begin(), r.velocity_names.end(), n) -
           r.velocity_names.begin();
  };
  const double qdd = -1.0 * 9.81 * 0.5 * std::sin(0.3) / (0.01 + 1.0 * 0.25);
  EXPECT_NEAR(r.v.back()[at("j1.v")], 1e-3 * qdd, 1e-3 * std::abs(1e-3 * qdd));
  EXPECT_NEAR(r.v.back()[at("j2.v")], 0.0, 1e-12);
  // the same chain with the mass gone from its end: M is singular, and the error says where
  write("");
  s = load_scene(path.string(), {});
  try {
    RigidWorldSystem bad(s.world, s.collision);
    FAIL() << "a chain without mass was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("mass matrix is singular at velocity"), std::string::npos)
        << e.what();
  }
  fs::remove_all(path.parent_path());
}

}  // namespace
}  // namespace moreau
