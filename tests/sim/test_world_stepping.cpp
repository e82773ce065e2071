// Moreau–Jean time stepping on a RigidWorld (through RigidWorldSystem): a resting stack of cubes.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "moreau/contact/collision/rigid_world_system.hpp"
#include "moreau/sim/simulation.hpp"
#include "rigid_worlds.hpp"

namespace moreau {
namespace {

// Five 0.2 m cubes (1 kg) stacked exactly on a plane, μ = 0.8: the exact solution is rest, so
// the top cube must not move (drift bounded by the projection tolerance and the solver's), no
// penetration beyond the projection tolerance, and no energy gained.
TEST(TimeSteppingWorld, BoxStackStaysAtRest) {
  ContactMaterial mat;
  mat.mu = 0.8;
  auto w = test::world_with_floor(3, mat);
  for (int i = 0; i < 5; ++i) {
    RigidBody b;
    b.name = "box" + std::to_string(i);
    b.mass = 1.0;
    b.inertia = Matrix3::Identity() * (0.2 * 0.2 / 6.0);
    b.pose.position = Vector3(0, 0, 0.1 + 0.2 * i);
    Shape s;
    s.kind = ShapeKind::box;
    s.half_extents = Vector3::Constant(0.1);
    b.shapes.push_back(s);
    w->add_body(b);
  }
  RigidWorldSystem sys(w, CollisionSettings{.margin = 0.02}, "box_stack");
  SimulationSettings st{
      .integrator = Integrator::time_stepping, .t_end = 0.2, .time_stepping = {.dt = 1e-3}};
  st.solver.tolerance = 1e-9;
  const auto r = simulate(sys, st);
  ASSERT_GT(r.records(), 2);
  const Vector3 p0 = r.q.front().segment<3>(4 * 7), p1 = r.q.back().segment<3>(4 * 7);
  EXPECT_LE((p1 - p0).norm(), 1e-5);
  EXPECT_LE(r.max_penetration, 1e-5);
  EXPECT_LE(r.max_energy_gain, 1e-4);
  EXPECT_LE(r.v.back().cwiseAbs().maxCoeff(), 1e-3);
}

}  // namespace
}  // namespace moreau
