#pragma once
// Parts of the small jointed worlds the tests build: an upright block and a hinge.
#include <string>

#include "moreau/model/rigid/rigid_world.hpp"

namespace moreau::test {

// A body of mass m with a diagonal inertia, upright at p, without shapes.
inline RigidBody block(const std::string& name, const Vector3& p, double mass,
                       const Vector3& inertia) {
  RigidBody b;
  b.name = name;
  b.mass = mass;
  b.inertia = inertia.asDiagonal();
  b.pose = Pose{p, Quaternion::Identity()};
  return b;
}

// A revolute joint of body a on body b (−1: the world) about `axis` (a's frame).
inline Joint hinge(Index a, Index b, const Vector3& anchor_a, const Vector3& anchor_b,
                   const Vector3& axis, const std::string& name = "") {
  Joint j;
  j.name = name;
  j.kind = JointKind::revolute;
  j.body_a = a;
  j.body_b = b;
  j.anchor_a = anchor_a;
  j.anchor_b = anchor_b;
  j.axis_a = axis;
  return j;
}

}  // namespace moreau::test
