#pragma once
// A RigidWorld in joint coordinates: its joints as a spanning forest of kinematic trees
// (multibody_model.hpp), for the worlds scenes and importers build (docs/math/multibody.md
// §From a rigid world).
//
// - Static bodies are welded to the world (bodies without joints or dofs).
// - Joints are taken in a breadth-first walk from the world and the static bodies, then from each
//   dynamic body not reached (in body order), visiting each body's joints in file order. A joint
//   that reaches a body already in the forest closes a cycle: it is left out of the forest and
//   listed in closure_joints (a maximal-coordinate row between two bodies of the forest).
// - revolute → hinge (planar: about z), prismatic → slide, ball → ball (planar: hinge about z),
//   fixed → no joint (the child is welded to its parent). A joint walked from body_a to body_b
//   is turned around: its anchor is body_b's, and its axis is body_a's axis negated and seen from
//   body_b at the initial poses, so that its coordinate keeps its sign.
// - A dynamic body no joint reaches is the root of its own tree: a free joint named after it
//   (spatial), or the planar root slide "<body>.x" (axis x), slide "<body>.y" (axis y), hinge
//   "<body>.theta" (z), with q = (x, y, θ) of its pose (planar).
// - q = 0 is the initial pose of every hinge, slide and ball; a prismatic joint whose anchors do
//   not coincide initially has its limits shifted by the initial displacement s₀ (q = s − s₀).
// - v₀ is the projection of the bodies' initial velocities V_b on the joints' motions, in the
//   kinetic metric: M(q₀) v₀ = Σ_b J_bᵀ M_b V_b (the velocity a perfectly plastic impulse at the
//   joints would leave; V_b itself when it is consistent with the joints).
#include <vector>

#include "moreau/model/multibody/multibody_model.hpp"
#include "moreau/model/rigid/rigid_world.hpp"

namespace moreau {

// The forest of a RigidWorld and how its bodies and joints map onto it.
struct RigidWorldForest {
  MultibodyModel model;                // the trees, gravity included
  std::vector<Index> body_of;          // per body of the world: its body in `model`
  std::vector<Index> position_offset;  // per body of the world: RigidWorld::position_offset
  std::vector<Index> velocity_offset;  // per body of the world: RigidWorld::velocity_offset
  std::vector<Index> closure_joints;   // joints of the world left out of the forest (cycles)
  std::vector<Index> tree_joint;       // per body of `model`: the world's joint to its parent, −1
  std::vector<Index> joint_body;       // per joint of the world: the body of `model` whose chain
                                       // holds it, −1 for closure and fixed joints
  std::vector<bool> planar_root;       // per body of `model`: a planar root (x, y, θ) chain
  Vector q0;                           // initial q (nq)
  Vector v0;                           // initial v (nv), the projection of the file comment
};

// The forest of `world` (see the file comment).
RigidWorldForest rigid_world_forest(const RigidWorld& world);

}  // namespace moreau
