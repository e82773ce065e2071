#pragma once
// Free rigid bodies in 3D touching each other or the fixed ground at isolated points: the data
// of an impact problem (Jia 2010 (1) and the examples of §3) and its generalized form for the
// rigid impact laws (Brogliato 2014 §3).
//
// The bodies are the library's one rigid-body model, RigidBody (model/rigid/rigid_body.hpp), and
// the quantities below come from their RigidWorld (impact_world): centre
// of mass pose.position, orientation pose.orientation, inertia about the centre of mass in BODY
// axes (world axes when the orientation is the identity, as an impact SPEC gives it), velocity
// linear_velocity and angular_velocity (world axes); shapes are not used.
// Generalized velocity of body b: (V_b, ω_b) (6 entries, world axes), mass matrix
// M_b = diag(m_b I₃, Q_b) with Q_b = R I_body Rᵀ the inertia tensor in world axes.
// Contact i joins body A (first name) and body B (second name, or the fixed "ground"); its unit
// normal n̂_i points from B into A. The relative contact-point velocity is
//   v_c,i = (V_A + ω_A × (p_i − c_A)) − (V_B + ω_B × (p_i − c_B)) = J_i v   (J_i: 3×6·nb)
// and an impulse I_i (world axes) acts on A as +I_i and on B as −I_i, so Δv = M⁻¹ J_iᵀ I_i.
// v_c,i·n̂_i < 0 means the contact approaches.
#include <string>
#include <vector>

#include "moreau/common/types.hpp"
#include "moreau/model/contact_state.hpp"
#include "moreau/model/rigid/rigid_world.hpp"

namespace moreau {

// The reserved body name of the fixed ground (BodyContact::body_b, body_index() gives −1).
inline constexpr const char* kGroundName = "ground";

// One contact between two bodies of an impact scene (point, normal, μ, e).
struct BodyContact {
  std::string body_a;                 // the body the normal points into
  std::string body_b = kGroundName;   // the other body, or "ground" (fixed)
  Vector3 point = Vector3::Zero();    // contact point, m
  Vector3 normal = Vector3::UnitZ();  // from B into A, normalized by validate_scene
  double mu = 0.0;                    // Coulomb coefficient, ≥ 0
  double e = 0.0;             // normal restitution ∈ [0, 1] (energetic for the compliant law)
  double e_t = 0.0;           // tangential restitution ∈ [−1, 1] (rigid frictional law)
  double eta0_squared = 1.0;  // η0² = k0/k⊥ (compliant law), > 0
  double stiffness = 1.0;     // relative normal stiffness k0 (compliant, several contacts), > 0
};

// Bodies and contacts of a rigid-body impact (the input of the impact laws).
struct RigidBodyScene {
  std::vector<RigidBody> bodies;      // the moving bodies (the ground is not one of them)
  std::vector<BodyContact> contacts;  // the contacts, each between two bodies or body and ground

  // Number of bodies nb (the generalized velocity has 6·nb entries).
  Index body_count() const { return static_cast<Index>(bodies.size()); }
  // Index of a body by name, −1 for "ground"; throws std::invalid_argument for an unknown name.
  Index body_index(const std::string& name) const;
};

// η0² of a circular punch on an elastic half-space (Johnson 1985, used by Jia 2010 §2):
// (2 − ν)/(2 − 2ν).
// Throws unless ν ∈ [0, 0.5].
double eta0_squared_from_poisson(double poisson_ratio);

// Throws std::invalid_argument naming the field and value: no bodies, duplicate or reserved
// names, static bodies, RigidBody::validate (mass ≤ 0, non-symmetric or non-positive-definite
// inertia, non-unit orientation), non-finite velocities, unknown
// body names, a contact between a body and itself, a normal of (near) zero length, μ < 0,
// e ∉ [0,1], e_t ∉ [−1,1], η0² ≤ 0, stiffness ≤ 0. Returns the scene with unit normals.
RigidBodyScene validate_scene(const RigidBodyScene& scene);

// The bodies as a spatial RigidWorld without gravity, in the scene's order: the state the impact
// quantities below are computed from (q = initial_positions(), v = initial_velocities()).
// Throws std::invalid_argument naming bodies[i] and the field (RigidBody::validate).
RigidWorld impact_world(const RigidBodyScene& scene);

// Generalized quantities of the scene (6·nb): M (block diagonal), v = (V_1, ω_1, V_2, ω_2, …).
Matrix scene_mass_matrix(const RigidBodyScene& scene);
// Generalized velocity of the scene (6·nb): v = (V_1, ω_1, V_2, ω_2, …).
Vector scene_velocity(const RigidBodyScene& scene);
// Inverse mass matrix, block diagonal (exact block inverses).
Matrix scene_inverse_mass_matrix(const RigidBodyScene& scene);
// J_i (3 × 6·nb): relative contact-point velocity of contact i, world axes.
Matrix contact_jacobian(const RigidBodyScene& scene, Index contact);
// The compliant impact's own frame (n̂, û, ŵ) of contact i (Jia 2010's convention, used only by
// compliant_impact): û points AGAINST the initial tangential contact velocity, or along the world
// axis least aligned with n̂ when that velocity vanishes; ŵ = n̂ × û. The rigid laws use the one
// convention of model/contact_frame.hpp (scene_contact_state).
Matrix3 slip_contact_frame(const RigidBodyScene& scene, Index contact);
// Kinetic energy Σ ½ m V² + ½ ωᵀ Q ω, J.
double scene_kinetic_energy(const RigidBodyScene& scene);
// Copy of the scene with the generalized velocity v (6·nb) written back into the bodies.
RigidBodyScene with_velocity(const RigidBodyScene& scene, const Vector& v);

// The scene as a ContactState (dimension 3) for the rigid impact laws: M, v, and per contact
// ∇h = J_iᵀ n̂, H_t = J_iᵀ [û ŵ], μ, e (gap 0: every contact is active).
ContactState scene_contact_state(const RigidBodyScene& scene);

}  // namespace moreau
