#pragma once
// A tree of bodies as model files describe them (MJCF bodies, URDF links): frames in the world,
// a chain of joints to the parent or none, geoms and inertials, turned into a RigidWorld (the
// shared back half of io/import/mjcf.hpp and io/import/urdf.hpp).
//
// A body with revolute, prismatic or ball joints becomes a moreau body linked to its parent's
// moreau body by them (several make a chain, model/rigid/joint.hpp §Chains); a free body has no
// joint; a body without a joint is welded to its parent: its
// geoms and mass join the parent's moreau body (body 0, the world, is the static body "world"),
// unless it is a static body of its own (TreeBody::own_static).
// A moreau body sits at its centre of mass with the orientation of its file frame F, its inertia
// the full sum of its parts (parallel axes), its shapes moved by −c.
#include <memory>
#include <string>
#include <vector>

#include "moreau/model/rigid/rigid_world.hpp"

namespace moreau::import {

// Mass, first moment and inertia about a frame's origin, summed over parts.
struct MassSum {
  double m = 0.0;                            // kg
  Vector3 first = Vector3::Zero();           // Σ m c, kg·m
  Matrix3 inertia_origin = Matrix3::Zero();  // Σ (I_c + m (‖c‖² I − c cᵀ)), kg·m²
  // Adds a part of mass m, centre c and inertia I_c about c (same axes).
  void add(double mass, const Vector3& c, const Matrix3& Ic);
  // The centre of mass (0 when massless).
  Vector3 com() const;
  // The inertia about the centre of mass.
  Matrix3 inertia_about_com() const;
};

// A geom in its body's frame F: the shape (offset relative to F) and its mass properties.
struct TreeGeom {
  Shape shape;                        // offset relative to F
  double mass = 0.0;                  // kg
  Vector3 com = Vector3::Zero();      // m, in F
  Matrix3 inertia = Matrix3::Zero();  // about com, F axes, kg·m²
  bool is_plane = false;              // a half-space: static bodies only, no mass
  std::string where;                  // "FILE:LINE: <geom>" for messages
  // A mesh geom's file and scale (MJCF), for its visual when it is one (mjcf.cpp); empty else.
  std::string mesh_file = {};
  Vector3 mesh_scale = Vector3::Ones();
};

// The kind of a joint of a body to its parent.
enum class TreeJoint { none, free, revolute, prismatic, ball };

// One joint of a body's chain to its parent (MJCF gives a body several), in the body's frame F.
struct TreeJointSpec {
  TreeJoint kind = TreeJoint::revolute;  // free, revolute, prismatic or ball
  std::string name = {};                 // empty: joint<k>
  Vector3 pos = Vector3::Zero();         // anchor in F, m
  Vector3 axis = Vector3::UnitZ();       // axis in F
  bool limited = false;                  // limits on the joint coordinate (joint.hpp)
  double lower = 0.0, upper = 0.0;       // rad or m
  double stiffness = 0.0;                // N·m/rad or N/m
  double reference = 0.0;                // the spring's rest coordinate, rad or m
  double damping = 0.0;                  // N·m·s/rad or N·s/m
  double armature = 0.0;                 // kg·m² or kg
  double frictionloss = 0.0;             // N·m or N
  double qpos0 = 0.0;                    // the file's coordinate at the model's pose (MJCF ref)
};

// One body of the tree (index 0 is the world).
struct TreeBody {
  std::string name;                   // the moreau body's name (empty: body<i>)
  std::string where;                  // "FILE:LINE: <body>" for messages
  int parent = -1;                    // index of the parent (−1 for the world)
  Pose frame;                         // F in the world
  std::vector<TreeJointSpec> joints;  // the chain to the parent (empty: welded)
  // A static body of its own rather than welded into its parent (a URDF robot's welded base:
  // a link that collides with the ground, named by its link, not "world"); needs no joints.
  bool own_static = false;
  // True when the body moves on its own (a free joint or a chain of joints).
  bool moves() const { return !joints.empty(); }
  // True when its one joint is free.
  bool is_free() const { return joints.size() == 1 && joints[0].kind == TreeJoint::free; }
  bool has_inertial = false;    // inertial given (else from the geoms)
  MassSum inertial;             // the given inertial, in F
  std::vector<TreeGeom> geoms;  // in F
  std::vector<Visual> visuals;  // in F (their shape.offset), what the viewer draws
};

// The RigidWorld of the tree. `inertia_from_geoms` ignores given inertials. `moreau_body`, when
// given, receives each tree body's moreau body index (a welded body's owner's). With
// `allow_massless`, a body on joints (not free) without mass is a massless link
// (RigidBody::massless). Throws std::invalid_argument naming the body (its `where`) for another
// moving body without mass or a plane on a moving body.
std::shared_ptr<RigidWorld> build_world(const std::vector<TreeBody>& bodies, const Vector3& gravity,
                                        bool inertia_from_geoms,
                                        std::vector<Index>* moreau_body = nullptr,
                                        bool allow_massless = false);

}  // namespace moreau::import
