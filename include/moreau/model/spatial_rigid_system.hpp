#pragma once
// Spatial rigid bodies with contacts (issue 3 "Models": rigid-body builders, spatial part).
//
// Each body has q_b = (p, φ): centre of mass p (m) and rotation vector φ (rad, R = exp([φ]×)),
// and v_b = (ṗ, ω) with ω the angular velocity in WORLD components (rad/s). So q̇ ≠ v:
// position_rate gives φ̇ = J_l(φ)⁻¹ ω, J_l the left Jacobian of SO(3), and q and v have the same
// size (6 per body), as ContactState requires. normalize_position wraps ‖φ‖ ≤ π.
// M = blockdiag(m I₃, R I_body Rᵀ); F (left side) = (−m g⃗ − f, ω × (I_w ω) − τ), g⃗ = (0, 0, −g)
// by default.
//
// Contacts (normal first, tangents t₁, t₂ from contact_frame_3d):
//   sphere (radius r ≥ 0; r = 0 is a point) on body B vs a world half-space {x : nᵀ(x − o) ≥ 0},
//   the eight corners of a box vs a half-space, sphere vs sphere.
// Columns are the relative velocity of the material points at the contact along n, t₁, t₂ (the
// Jacobian acting on v); c = d/dt(Jᵀ(q)) v exactly, per direction d:
// ḋᵀΔv + dᵀ(ω_B × (ẋ_B − ṗ_B) − ω_A × (ẋ_A − ṗ_A)), ẋ = velocity of the geometric contact point.
#include <string>
#include <vector>

#include "moreau/model/contact_frame.hpp"
#include "moreau/model/planar_rigid_system.hpp"  // ContactOptions

namespace moreau {

// Rotation vector helpers: R = exp([φ]×) and J_l(φ)⁻¹ (φ̇ = J_l⁻¹ ω for world-frame ω).
Matrix3 rotation_from_vector(const Vector3& phi);
// J_l(φ)⁻¹, which maps the world-frame angular velocity ω to φ̇.
Matrix3 left_jacobian_inverse(const Vector3& phi);

// A static plane of a SpatialRigidSystem (point, normal).
struct Plane3 {
  Vector3 point = Vector3::Zero();    // m
  Vector3 normal = Vector3::UnitZ();  // normalized by the builder
};

// Spatial rigid bodies as a LagrangianSystem (6 coordinates per body).
class SpatialRigidSystem : public LagrangianSystem {
 public:
  // A system without bodies; gravity g⃗ in m/s² (default (0, 0, −9.81): z up).
  explicit SpatialRigidSystem(std::string name = "spatial", Vector3 gravity = Vector3(0, 0, -9.81));

  // mass kg > 0, inertia (body frame, kg·m², symmetric PSD); returns the body index.
  Index add_body(const std::string& name, double mass, const Matrix3& inertia);
  // Applied force f (N) and torque τ (N·m), world axes, on a body; F gets −f and −τ.
  void set_applied_force(Index body, const Vector3& force, const Vector3& torque);

  // A sphere of `body` (radius ≥ 0, m; centre at local_center in the body frame) against the
  // world half-space `plane`.
  void add_sphere_plane(Index body, double radius, const Plane3& plane, ContactOptions o,
                        const Vector3& local_center = Vector3::Zero());
  // A point of `body` (body frame, m) against `plane` (a sphere of radius 0).
  void add_point_plane(Index body, const Vector3& local_point, const Plane3& plane,
                       ContactOptions o);
  // Corners (±a, ±b, ±c) of a box with half extents (a, b, c); names "<name>/corner(sx,sy,sz)".
  void add_box_plane(Index body, const Vector3& half_extents, const Plane3& plane,
                     ContactOptions o);
  // A sphere of body_a against a sphere of body_b (radii ≥ 0, m), centred at the centres of mass.
  void add_sphere_sphere(Index body_a, double radius_a, Index body_b, double radius_b,
                         ContactOptions o);

  std::string name() const override { return name_; }
  int dimension() const override { return 3; }
  Index velocity_size() const override { return 6 * static_cast<Index>(bodies_.size()); }
  // Per body "ball.x", "ball.y", "ball.z", "ball.phi_x", "ball.phi_y", "ball.phi_z".
  std::vector<std::string> position_names() const override;
  // Per body "ball.vx", "ball.vy", "ball.vz", "ball.wx", "ball.wy", "ball.wz".
  std::vector<std::string> velocity_names() const override;
  ContactState contact_state(const Vector& q, const Vector& v, double t) const override;
  Vector position_rate(const Vector& q, const Vector& v) const override;
  void normalize_position(Vector& q) const override;
  double potential_energy(const Vector& q) const override;  // −Σ m g⃗ · p_b

  // Number of bodies added.
  Index body_count() const { return static_cast<Index>(bodies_.size()); }

 private:
  struct Body {
    std::string name;
    double mass;
    Matrix3 inertia;
    Vector3 force, torque;
  };
  struct Contact {
    bool sphere_sphere = false;
    Index body_a = -1, body_b = 0;
    double radius_a = 0.0, radius_b = 0.0;
    Vector3 local = Vector3::Zero();
    Plane3 plane;
    ContactOptions options;
  };
  void check_body(Index b, const char* what) const;
  void add(Contact c);

  std::string name_;
  Vector3 gravity_;
  std::vector<Body> bodies_;
  std::vector<Contact> contacts_;
};

}  // namespace moreau
