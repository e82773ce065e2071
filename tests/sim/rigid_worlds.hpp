#pragma once
// RigidWorld building blocks shared by the simulator tests.
#include <memory>

#include "moreau/model/rigid/rigid_world.hpp"

namespace moreau::test {

// A world of dimension d with the default gravity (−9.81 along y planar, z spatial), the material
// `mat` for every pair, and a static body "floor" carrying the half-space y ≥ 0 (z ≥ 0 spatial).
inline std::shared_ptr<RigidWorld> world_with_floor(int d, const ContactMaterial& mat) {
  auto w = std::make_shared<RigidWorld>(d);
  w->set_default_material(mat);
  RigidBody ground;
  ground.name = "floor";
  ground.is_static = true;
  Shape plane;
  plane.kind = ShapeKind::plane;
  plane.normal = d == 2 ? Vector3::UnitY() : Vector3::UnitZ();
  ground.shapes.push_back(plane);
  w->add_body(ground);
  return w;
}

}  // namespace moreau::test
