// A tree of file bodies → RigidWorld (body_tree.hpp).
#include "body_tree.hpp"

#include "moreau/common/error.hpp"

namespace moreau::import {

void MassSum::add(double mass, const Vector3& c, const Matrix3& Ic) {
  m += mass;
  first += mass * c;
  inertia_origin += Ic + mass * (c.squaredNorm() * Matrix3::Identity() - c * c.transpose());
}

Vector3 MassSum::com() const { return m > 0 ? Vector3(first / m) : Vector3::Zero(); }

Matrix3 MassSum::inertia_about_com() const {
  const Vector3 c = com();
  return inertia_origin - m * (c.squaredNorm() * Matrix3::Identity() - c * c.transpose());
}

std::shared_ptr<RigidWorld> build_world(const std::vector<TreeBody>& bodies, const Vector3& gravity,
                                        bool inertia_from_geoms, std::vector<Index>* moreau_body,
                                        bool allow_massless) {
  auto world = std::make_shared<RigidWorld>(3);
  world->set_gravity(gravity);
  const size_t n = bodies.size();
  // owner: the body whose moreau body carries body i (itself when it has a joint)
  std::vector<size_t> owner(n, 0);
  std::vector<MassSum> mass(n);
  std::vector<std::vector<TreeGeom>> geoms(n);
  std::vector<std::vector<Visual>> visuals(n);
  for (size_t i = 0; i < n; ++i) {
    const TreeBody& b = bodies[i];
    owner[i] = i == 0 || b.moves() || b.own_static ? i : owner[static_cast<size_t>(b.parent)];
    const Pose& of = bodies[owner[i]].frame;
    // this body's frame in its owner's: T = F_owner⁻¹ ∘ F_body
    const Quaternion qo = of.orientation.conjugate();
    const Pose T{qo * (b.frame.position - of.position), (qo * b.frame.orientation).normalized()};
    const Matrix3 R = T.rotation();
    const bool use_inertial = b.has_inertial && !inertia_from_geoms;
    MassSum own = use_inertial ? b.inertial : MassSum{};
    for (TreeGeom g : b.geoms) {
      if (g.is_plane && owner[i] != 0 && !bodies[owner[i]].own_static)
        throw_invalid("{}: a plane belongs to a body welded to the world", g.where);
      if (!use_inertial && !g.is_plane) own.add(g.mass, g.com, g.inertia);
      g.shape.offset = T.compose(g.shape.offset);
      geoms[owner[i]].push_back(std::move(g));
    }
    for (Visual v : b.visuals) {
      v.shape.offset = T.compose(v.shape.offset);
      visuals[owner[i]].push_back(std::move(v));
    }
    mass[owner[i]].add(own.m, T.apply(own.com()), R * own.inertia_about_com() * R.transpose());
  }
  std::vector<Index> index(n, -1);
  std::vector<Vector3> com(n, Vector3::Zero());
  for (size_t i = 0; i < n; ++i) {
    if (owner[i] != i) continue;
    const TreeBody& b = bodies[i];
    RigidBody rb;
    rb.name = i == 0 ? "world" : b.name;
    rb.is_static = i == 0 || b.own_static;
    if (!rb.is_static && !(mass[i].m > 0) && allow_massless && !b.is_free()) {
      rb.massless = true;  // a dummy link in a chain (the system checks that M stays definite)
      rb.mass = 0.0;
      rb.inertia = Matrix3::Zero();
    } else if (!rb.is_static) {
      if (!(mass[i].m > 0))
        throw_invalid("{}: no mass: give it an inertial or geometry with mass or density", b.where);
      com[i] = mass[i].com();
      rb.mass = mass[i].m;
      const Matrix3 I = mass[i].inertia_about_com();
      rb.inertia = 0.5 * (I + I.transpose());
    }
    rb.pose = Pose{b.frame.apply(com[i]), b.frame.orientation};
    for (TreeGeom& g : geoms[i]) {
      g.shape.offset.position -= com[i];
      rb.shapes.push_back(std::move(g.shape));
    }
    for (Visual& v : visuals[i]) {
      v.shape.offset.position -= com[i];
      rb.visuals.push_back(std::move(v));
    }
    try {
      index[i] = world->add_body(std::move(rb));
    } catch (const std::invalid_argument& err) {
      throw_invalid("{}: {}", b.where, err.what());
    }
  }
  for (size_t i = 1; i < n; ++i) {
    const TreeBody& b = bodies[i];
    if (!b.moves() || b.is_free()) continue;
    for (const TreeJointSpec& spec : b.joints) {
      if (spec.kind == TreeJoint::free)
        throw_invalid("{}: a free joint must be the body's only joint", b.where);
      Joint j;
      j.name = spec.name;
      j.kind = spec.kind == TreeJoint::revolute    ? JointKind::revolute
               : spec.kind == TreeJoint::prismatic ? JointKind::prismatic
                                                   : JointKind::ball;
      j.body_a = index[i];
      j.body_b = index[owner[static_cast<size_t>(b.parent)]];
      j.anchor_a = spec.pos - com[i];
      const Pose pb = world->body(j.body_b).pose;
      j.anchor_b = pb.orientation.conjugate() * (b.frame.apply(spec.pos) - pb.position);
      j.axis_a = spec.axis.normalized();
      j.limited = spec.limited;
      j.lower = spec.lower;
      j.upper = spec.upper;
      j.stiffness = spec.stiffness;
      j.reference = spec.reference;
      j.damping = spec.damping;
      j.armature = spec.armature;
      j.frictionloss = spec.frictionloss;
      try {
        world->add_joint(j);
      } catch (const std::invalid_argument& err) {
        throw_invalid("{}: joint: {}", b.where, err.what());
      }
    }
  }
  if (moreau_body) {
    moreau_body->resize(n);
    for (size_t i = 0; i < n; ++i) (*moreau_body)[i] = index[owner[i]];
  }
  return world;
}

}  // namespace moreau::import
