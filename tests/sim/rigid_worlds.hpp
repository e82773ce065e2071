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

// A solid sphere named `name`: mass m (kg), radius r (m), inertia ⅖ m r², centred at p, at rest.
inline RigidBody sphere_body(std::string name, double m, double r, const Vector3& p) {
  RigidBody b;
  b.name = std::move(name);
  b.mass = m;
  b.inertia = Matrix3::Identity() * (0.4 * m * r * r);
  b.pose.position = p;
  Shape s;
  s.kind = ShapeKind::sphere;
  s.radius = r;
  b.shapes.push_back(s);
  return b;
}

// Five 0.2 m cubes (1 kg) stacked exactly on the floor (z ≥ 0), μ = 0.8, as in the benchmark.
inline std::shared_ptr<RigidWorld> box_stack() {
  ContactMaterial mat;
  mat.mu = 0.8;
  auto w = world_with_floor(3, mat);
  for (int i = 0; i < 5; ++i) {
    RigidBody b = box_body("box" + std::to_string(i), 1.0, Vector3::Constant(0.1),
                           Matrix3::Identity() * (0.2 * 0.2 / 6.0));
    b.pose.position = Vector3(0, 0, 0.1 + 0.2 * i);
    w->add_body(b);
  }
  return w;
}

}  // namespace moreau::test
