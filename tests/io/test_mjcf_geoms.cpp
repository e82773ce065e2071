// MJCF ellipsoid geoms and inline meshes (vertex, face) against values worked out by hand: an
// ellipsoid's mass, inertia and resting height, a tetrahedron's mass and centre from its volume.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/io/import/mjcf.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau {
namespace {

std::string error_of(const std::string& xml) {
  try {
    parse_mjcf_text(xml, "m.xml", ".");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// An ellipsoid of radii (0.1, 0.2, 0.3) and density 1000: m = 1000 · 4/3 π abc, I = m/5 (b² + c²,
// a² + c², a² + b²). Dropped from z = 0.5 (turned 90° about x: its c axis along y, so its lowest
// point is b = 0.2 below its centre) it comes to rest at z = 0.2 on the plane.
TEST(MjcfGeoms, EllipsoidMassInertiaAndRest) {
  const Scene s = parse_mjcf_text(R"(<mujoco><option timestep="0.001"/><worldbody>
    <geom type="plane" size="5 5 0.1"/>
    <body name="egg" pos="0 0 0.5" euler="90 0 0"><freejoint/>
      <geom type="ellipsoid" size="0.1 0.2 0.3"/></body></worldbody></mujoco>)",
                                  "egg.xml", ".");
  const RigidBody& egg = s.world->body(1);
  const double m = 1000 * 4.0 / 3.0 * M_PI * 0.1 * 0.2 * 0.3;
  EXPECT_NEAR(egg.mass, m, 1e-9 * m);
  EXPECT_NEAR(egg.inertia(0, 0), m / 5 * (0.04 + 0.09), 1e-12);
  EXPECT_NEAR(egg.inertia(1, 1), m / 5 * (0.01 + 0.09), 1e-12);
  EXPECT_NEAR(egg.inertia(2, 2), m / 5 * (0.01 + 0.04), 1e-12);
  Simulator sim(s.world, s.collision, s.settings);
  sim.step(1500);
  const std::vector<std::string> names = sim.coordinate_names();
  const Index z = std::find(names.begin(), names.end(), "egg.z") - names.begin();
  EXPECT_NEAR(sim.q()[z], 0.2, 1e-6);
  EXPECT_LT(sim.v().norm(), 1e-6);
  EXPECT_EQ(error_of(R"(<mujoco><worldbody><body><freejoint/><geom type="ellipsoid" size="0.1 0.2"/>
    </body></worldbody></mujoco>)")
                    .find("a ellipsoid needs 3 size numbers") != std::string::npos,
            true);
}

// The unit tetrahedron (0,0,0), (1,0,0), (0,1,0), (0,0,1) scaled by 0.1: volume 1/6 · 10⁻³, centre
// (0.025, 0.025, 0.025); the same from its faces and from the hull of its vertices.
TEST(MjcfGeoms, InlineMeshFromVerticesAndFaces) {
  for (const char* faces : {"", R"( face="0 2 1  0 1 3  0 3 2  1 2 3")"}) {
    const std::string xml = std::string(R"(<mujoco><asset>
      <mesh name="tet" scale="0.1 0.1 0.1" vertex="0 0 0  1 0 0  0 1 0  0 0 1")") +
                            faces + R"(/></asset>
      <worldbody><body name="tet" pos="0 0 1"><freejoint/><geom type="mesh" mesh="tet"/></body>
      </worldbody></mujoco>)";
    const Scene s = parse_mjcf_text(xml, "tet.xml", ".");
    const RigidBody& b = s.world->body(1);
    EXPECT_NEAR(b.mass, 1000.0 / 6.0 * 1e-3, 1e-12) << faces;
    EXPECT_LT((b.pose.position - Vector3(0.025, 0.025, 1.025)).norm(), 1e-12) << faces;
    ASSERT_EQ(b.shapes.size(), 1u);
    EXPECT_EQ(b.shapes[0].vertices.size(), 4u);
  }
  EXPECT_NE(
      error_of(R"(<mujoco><asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 0 0 1" face="0 1 7"/>
    </asset></mujoco>)")
          .find("<mesh face=\"0 1 7\">: 7 is not the index of one of its 4 vertices"),
      std::string::npos);
  EXPECT_NE(error_of(R"(<mujoco><asset><mesh name="m" vertex="0 0 0 1 0 0 0 1 0 2 0 0"/>
    </asset></mujoco>)")
                .find("the vertices span no volume"),
            std::string::npos);
}

}  // namespace
}  // namespace moreau
