#pragma once
// A rigid body of a RigidWorld: mass properties, initial state and collision shapes.
//
// Generalized coordinates and velocities of one DYNAMIC body (static bodies have none):
//   planar  (dimension 2): q = (x, y, θ)                 v = (v_x, v_y, ω)            3 and 3
//   spatial (dimension 3): q = (p_x, p_y, p_z, w, x, y, z) v = (v_x, v_y, v_z, ω_x, ω_y, ω_z)
//                          (p the centre of mass, (w, x, y, z) the unit quaternion body → world,
//                           ω the angular velocity in WORLD axes)                   7 and 6
// The body frame is centred at the centre of mass; shapes are placed by their offset pose.
#include <string>
#include <vector>

#include "moreau/model/rigid/pose.hpp"
#include "moreau/model/rigid/shape.hpp"
#include "moreau/model/rigid/visual.hpp"

namespace moreau {

// A rigid body of a RigidWorld: mass, inertia, shapes, initial state.
struct RigidBody {
  std::string name;        // unique within a world
  bool is_static = false;  // infinite mass, fixed pose, no DOFs (ground, walls)
  // A link of a kinematic tree with no mass of its own (mass and inertia 0, a URDF's dummy link):
  // accepted when it hangs on joints and the tree's mass matrix stays positive definite (checked
  // when the system is built, naming the velocity that has no inertia).
  bool massless = false;
  double mass = 1.0;                           // kg, > 0 for dynamic bodies (0 when massless)
  Matrix3 inertia = Matrix3::Identity();       // about the centre of mass, BODY axes, kg·m²;
                                               // planar bodies use only inertia(2,2) = I_zz
  Pose pose;                                   // initial pose (planar: use planar_pose)
  Vector3 linear_velocity = Vector3::Zero();   // initial centre-of-mass velocity, world, m/s
  Vector3 angular_velocity = Vector3::Zero();  // initial ω, WORLD axes, rad/s (planar: z only)
  Vector3 applied_force = Vector3::Zero();     // constant force at the centre of mass, world, N
  Vector3 applied_torque = Vector3::Zero();    // constant torque, WORLD axes, N·m (planar: z only)
  std::vector<Shape> shapes;                   // collision geometry, may be empty
  std::vector<Visual> visuals;                 // what the viewer draws (empty: the shapes)

  // Throws std::invalid_argument naming `where` (e.g. "bodies[2]"): mass ≤ 0 or not finite,
  // inertia not symmetric positive definite (3D) or I_zz ≤ 0 (2D), non-unit quaternion
  // (|‖q‖ − 1| > 1e-6), planar body with z ≠ 0 or rotation not about z, non-finite or (planar)
  // out-of-plane applied loads, applied loads on a static body, bad shapes.
  // Static bodies skip the mass checks.
  void validate(const std::string& where, int dimension) const;
};

}  // namespace moreau
