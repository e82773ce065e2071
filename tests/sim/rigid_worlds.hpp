#pragma once
// RigidWorld building blocks shared by the simulator tests.
#include <memory>
#include <string>

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

// A body named `name` carrying one box of the given half extents (m), with mass (kg) and inertia
// about its centre (kg·m²), at the origin and at rest.
inline RigidBody box_body(std::string name, double mass, const Vector3& half_extents,
                          const Matrix3& inertia) {
  RigidBody b;
  b.name = std::move(name);
  b.mass = mass;
  b.inertia = inertia;
  Shape box;
  box.kind = ShapeKind::box;
  box.half_extents = half_extents;
  b.shapes.push_back(box);
  return b;
}

}  // namespace moreau::test
