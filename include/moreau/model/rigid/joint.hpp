#pragma once
// Joints between two rigid bodies (or a body and the world), as bilateral constraints
// g(q) = 0 with velocity rows J v = 0 and velocity-product terms c = J̇ v (so that
// J v̇ + c = 0 on the acceleration level). Rows per joint:
//                 planar                               spatial
//   revolute      2: anchor coincidence (x, y)          5: anchor coincidence (3) + axis alignment
//   (2) prismatic     2: offset ⊥ axis (1) + rotation (1)   5: offset ⊥ axis (2) + rotation (3)
//   fixed         3: anchor (2) + rotation (1)          6: anchor (3) + rotation (3)
//   ball          2: anchor coincidence (x, y)          3: anchor coincidence (3)
// The revolute axis (3D) and the prismatic direction are `axis_a` in body a's frame. In 2D
// the revolute axis is always z and axis_a lies in the plane.
//
// Chains. Joints with the same body_a and body_b, one after another in the world's list, are one
// chain from b to a (MJCF gives a body several joints: three hinges make a hip): each acts in the
// frame the ones before it leave, its anchor and axis in a's frame at the initial poses. Chains
// exist only in joint coordinates (model/multibody/rigid_world_forest.hpp); their joint_rows are
// not defined.
//
// A joint with `closure` set is an equality constraint (equality.hpp): its rows always close a
// cycle, and it never joins a chain.
//
// Limits (MuJoCo's joint `range`, URDF's <limit>) are not rows of the joint: they are unilateral
// constraints lower ≤ s ≤ upper on the joint coordinate s (joint_coordinate below), which contact
// detection reports as frictionless contacts (contact/collision/world_contacts.hpp §Joint limits).
#include <string>

#include "moreau/model/rigid/pose.hpp"

namespace moreau {

// Kind of a joint between two bodies.
enum class JointKind { revolute, prismatic, fixed, ball };

// Name of a joint kind ("revolute", "prismatic", "fixed", "ball").
std::string to_string(JointKind kind);
JointKind joint_kind_from_string(const std::string& name);  // throws for unknown names

// A joint between two bodies of a RigidWorld (kind, anchors, axis).
struct Joint {
  std::string name;                      // empty: add_joint names it joint0, joint1, … by index
  JointKind kind = JointKind::revolute;  // revolute, prismatic or fixed (rows: table above)
  Index body_a = 0;                      // body index in the world (dynamic)
  Index body_b = -1;                     // body index, or −1 for the world frame
  Vector3 anchor_a = Vector3::Zero();    // anchor in body a's frame, m
  Vector3 anchor_b = Vector3::Zero();    // anchor in body b's frame (world frame if b = −1), m
  Vector3 axis_a = Vector3::UnitZ();     // unit axis in body a's frame (revolute 3D, prismatic)
  // Rotation of b relative to a held by fixed and prismatic joints, R_rel = R_aᵀ R_b; the world
  // sets it from the initial poses when the joint is added (add_joint).
  Quaternion relative_orientation = Quaternion::Identity();
  // Unilateral limits on the joint coordinate s: revolute, the rotation angle of a relative to b
  // about the axis (rad, 0 at the initial poses); prismatic, the displacement of a's anchor from
  // b's along the axis (m, 0 where they coincide); ball, the rotation angle of a relative to b
  // (rad, ≥ 0; only `upper` applies, a cone of half angle upper). lower ≤ upper; ±∞ for a
  // one-sided limit.
  bool limited = false;            // false: no limits
  double lower = 0.0;              // rad or m
  double upper = 0.0;              // rad or m
  double limit_restitution = 0.0;  // e ∈ [0, 1] of the limits' impacts (0: inelastic)
  // Passive forces on the joint coordinate (revolute, prismatic, ball; multibody_model.hpp):
  double stiffness = 0.0;     // K ≥ 0, N·m/rad or N/m: τ = −K (s − reference)
  double reference = 0.0;     // the spring's rest coordinate, rad or m
  double damping = 0.0;       // D ≥ 0, N·m·s/rad or N·s/m: τ = −D ṡ
  double armature = 0.0;      // ≥ 0, added to the joint's diagonal of M, kg·m² or kg
  double frictionloss = 0.0;  // dry friction bound f ≥ 0 on the joint force, N·m or N
  // An equality constraint (MJCF <equality connect> is a ball joint, <weld> a fixed one): always
  // rows closing a cycle, never a joint of the kinematic tree, never part of a chain.
  bool closure = false;

  // Number of constraint rows (table above).
  Index rows(int dimension) const;
};

}  // namespace moreau
