// Free rigid bodies and point contacts (see rigid_bodies.hpp).
#include "moreau/impact/rigid_bodies.hpp"

#include "moreau/model/contact_frame.hpp"

#include <cmath>
#include <set>

#include <fmt/format.h>

#include "moreau/common/error.hpp"

namespace moreau {

Index RigidBodyScene::body_index(const std::string& name) const {
  if (name == kGroundName) return -1;
  for (Index b = 0; b < body_count(); ++b)
    if (bodies[static_cast<size_t>(b)].name == name) return b;
  throw_invalid("the contact names the body '{}', which is not among the bodies", name);
}

double eta0_squared_from_poisson(double nu) {
  MOREAU_REQUIRE(std::isfinite(nu) && nu >= 0.0 && nu <= 0.5,
                 "poisson_ratio must lie in [0, 0.5], got {}", nu);
  if (nu == 0.5) return 1.5;
  return (2.0 - nu) / (2.0 - 2.0 * nu);
}

RigidWorld impact_world(const RigidBodyScene& scene) {
  RigidWorld world(3);
  world.set_gravity(Vector3::Zero());
  for (const RigidBody& b : scene.bodies) world.add_body(b);
  return world;
}

RigidBodyScene validate_scene(const RigidBodyScene& scene) {
  MOREAU_REQUIRE(!scene.bodies.empty(), "the impact problem has no bodies");
  RigidBodyScene out = scene;
  std::set<std::string> names;
  for (size_t i = 0; i < scene.bodies.size(); ++i) {
    const RigidBody& b = scene.bodies[i];
    MOREAU_REQUIRE(!b.name.empty(), "every body needs a name");
    MOREAU_REQUIRE(b.name != kGroundName, "'{}' is reserved for the fixed ground", kGroundName);
    MOREAU_REQUIRE(names.insert(b.name).second, "the body name '{}' is used twice", b.name);
    MOREAU_REQUIRE(!b.is_static, "bodies[{}] ('{}'): impact bodies move; the fixed body is \"{}\"",
                   i, b.name, kGroundName);
  }
  // RigidBody::validate on every body (mass, inertia, finite state), naming bodies[i].field
  static_cast<void>(impact_world(scene));
  for (size_t i = 0; i < out.contacts.size(); ++i) {
    BodyContact& c = out.contacts[i];
    const Index a = scene.body_index(c.body_a);
    const Index b = scene.body_index(c.body_b);
    MOREAU_REQUIRE(a != b, "contact {}: its two bodies are the same ('{}')", i, c.body_a);
    MOREAU_REQUIRE(all_finite(c.point) && all_finite(c.normal),
                   "contact {}: point and normal must be finite", i);
    const double len = c.normal.norm();
    MOREAU_REQUIRE(len > 1e-12, "contact {}: the normal has zero length ({}, {}, {})", i,
                   c.normal.x(), c.normal.y(), c.normal.z());
    c.normal /= len;
    MOREAU_REQUIRE(std::isfinite(c.mu) && c.mu >= 0.0, "contact {}: mu must be ≥ 0, got {}", i,
                   c.mu);
    MOREAU_REQUIRE(std::isfinite(c.e) && c.e >= 0.0 && c.e <= 1.0,
                   "contact {}: e must lie in [0, 1], got {}", i, c.e);
    MOREAU_REQUIRE(std::isfinite(c.e_t) && c.e_t >= -1.0 && c.e_t <= 1.0,
                   "contact {}: e_t must lie in [-1, 1], got {}", i, c.e_t);
    MOREAU_REQUIRE(std::isfinite(c.eta0_squared) && c.eta0_squared > 0.0,
                   "contact {}: eta0_squared must be positive, got {}", i, c.eta0_squared);
    MOREAU_REQUIRE(std::isfinite(c.stiffness) && c.stiffness > 0.0,
                   "contact {}: stiffness must be positive, got {}", i, c.stiffness);
  }
  return out;
}

Matrix scene_mass_matrix(const RigidBodyScene& scene) {
  const RigidWorld world = impact_world(scene);
  return world.dense_mass_matrix(world.initial_positions());
}

// The world's 6×6 blocks blockdiag(m_b I₃, Q_b = R I_b Rᵀ), inverted exactly per 3×3 part:
// blockdiag(I₃/m_b, Q_b⁻¹).
Matrix scene_inverse_mass_matrix(const RigidBodyScene& scene) {
  const RigidWorld world = impact_world(scene);
  const std::vector<Matrix> blocks = world.mass_matrix_blocks(world.initial_positions());
  Matrix Minv = Matrix::Zero(6 * scene.body_count(), 6 * scene.body_count());
  for (Index b = 0; b < static_cast<Index>(blocks.size()); ++b) {
    const Matrix3 Q = blocks[static_cast<size_t>(b)].bottomRightCorner<3, 3>();
    Minv.block<3, 3>(6 * b, 6 * b) =
        Matrix3::Identity() / scene.bodies[static_cast<size_t>(b)].mass;
    Minv.block<3, 3>(6 * b + 3, 6 * b + 3) = Q.inverse();
  }
  return Minv;
}

Vector scene_velocity(const RigidBodyScene& scene) {
  return impact_world(scene).initial_velocities();
}

RigidBodyScene with_velocity(const RigidBodyScene& scene, const Vector& v) {
  MOREAU_REQUIRE(v.size() == 6 * scene.body_count(), "velocity has size {}, expected {}", v.size(),
                 6 * scene.body_count());
  RigidBodyScene out = scene;
  for (Index b = 0; b < scene.body_count(); ++b) {
    out.bodies[static_cast<size_t>(b)].linear_velocity = v.segment<3>(6 * b);
    out.bodies[static_cast<size_t>(b)].angular_velocity = v.segment<3>(6 * b + 3);
  }
  return out;
}

// v_c = V + ω × r = V − [r]× ω with r = p − c: the 3×6 block of a body is [I₃, −[r]×].
Matrix contact_jacobian(const RigidBodyScene& scene, Index i) {
  const BodyContact& c = scene.contacts[static_cast<size_t>(i)];
  Matrix J = Matrix::Zero(3, 6 * scene.body_count());
  const Index a = scene.body_index(c.body_a);
  const Index b = scene.body_index(c.body_b);
  for (const auto& [body, sign] : {std::pair{a, 1.0}, std::pair{b, -1.0}}) {
    if (body < 0) continue;
    const Vector3 r = c.point - scene.bodies[static_cast<size_t>(body)].pose.position;  // x − p
    J.block<3, 3>(0, 6 * body) = sign * Matrix3::Identity();
    J.block<3, 3>(0, 6 * body + 3) = -sign * skew(r);
  }
  return J;
}

Matrix3 slip_contact_frame(const RigidBodyScene& scene, Index i) {
  const BodyContact& c = scene.contacts[static_cast<size_t>(i)];
  const Vector3 n = c.normal.normalized();
  const Vector3 vc = contact_jacobian(scene, i) * scene_velocity(scene);
  Vector3 vt = vc - n * n.dot(vc);
  Vector3 u;
  if (vt.norm() > 1e-12 * std::max(1.0, vc.norm())) {
    u = -vt.normalized();
  } else {
    Index k;
    n.cwiseAbs().minCoeff(&k);
    Vector3 axis = Vector3::Zero();
    axis[k] = 1.0;
    u = (axis - n * n.dot(axis)).normalized();
  }
  Matrix3 F;
  F.col(0) = n;
  F.col(1) = u;
  F.col(2) = n.cross(u);
  return F;
}

double scene_kinetic_energy(const RigidBodyScene& scene) {
  const RigidWorld world = impact_world(scene);
  return world.kinetic_energy(world.initial_positions(), world.initial_velocities());
}

ContactState scene_contact_state(const RigidBodyScene& scene) {
  ContactState s;
  s.dimension = 3;
  const Index n = 6 * scene.body_count();
  s.q = Vector::Zero(n);
  s.v = scene_velocity(scene);
  s.M = scene_mass_matrix(scene);
  s.F = Vector::Zero(n);
  for (Index i = 0; i < static_cast<Index>(scene.contacts.size()); ++i) {
    const BodyContact& c = scene.contacts[static_cast<size_t>(i)];
    const Matrix J = contact_jacobian(scene, i);
    const Matrix3 F = contact_frame(c.normal, 3);  // model/contact_frame.hpp
    ContactConstraint k;
    k.name = c.body_a + "/" + c.body_b;
    k.mu = c.mu;
    k.restitution = c.e;
    k.normal = J.transpose() * F.col(0);
    k.tangent = J.transpose() * F.rightCols<2>();
    k.tangent_bias = Vector::Zero(2);
    s.constraints.push_back(std::move(k));
  }
  return s;
}

}  // namespace moreau
