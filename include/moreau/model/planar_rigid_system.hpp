#pragma once
// Planar rigid bodies with contacts (issue 3 "Models": rigid-body builders, planar part).
//
// Each body has q_b = (x, y, θ) (centre of mass, m, and angle, rad) and v_b = q̇_b; M is
// blockdiag(m, m, I) per body, F (left side, contact_state.hpp convention) = −m g⃗ − f_applied on
// the translation and −τ_applied on the rotation (g⃗ = (0, −g) by default, so F_y = +m g).
//
// Contacts (each becomes one constraint, normal first, tangent t = (n_y, −n_x)):
//   point / disk on body B vs a half-plane {x : nᵀ(x − o) ≥ 0} of the world or of body A,
//   segment ends and box corners (as points) vs a half-plane, disk vs disk.
// The gap is h = nᵀ(p_B − o) − r (point: r = 0) or ‖c_B − c_A‖ − r_A − r_B (disks); the normal and
// tangent columns are the relative velocity of the two MATERIAL points at the contact along n and
// t, and the velocity-product terms are c = d/dt(Jᵀ(q)) q̇ evaluated exactly (digest 002 §B: g̈ =
// nᵀ(p̈_i − p̈_j) + 2ṅᵀ(ṗ_i − ṗ_j) + n̈ᵀ(p_i − p_j), written here per direction d ∈ {n, t} as ḋᵀΔv +
// dᵀ(ω_B k×(ẋ_B − ċ_B) − ω_A k×(ẋ_A − ċ_A)), x = contact point moving geometrically).
#include <string>
#include <vector>

#include "moreau/model/lagrangian_system.hpp"

namespace moreau {

// Per-contact data shared by every builder.
struct ContactOptions {
  std::string name;                                  // "" ⇒ generated
  ConstraintKind kind = ConstraintKind::unilateral;  // bilateral or unilateral
  double mu = 0.0;                                   // Coulomb coefficient
  double restitution = 0.0;                          // e ∈ [0, 1]
  bool reverse_tangent = false;  // planar only: use t = (−n_y, n_x) instead of (n_y, −n_x)
};

// Half-plane {x : nᵀ(x − point) ≥ 0}; body = −1 for the world, else point and normal are given in
// that body's frame. The normal is normalized by the builder.
struct Plane2 {
  Index body = -1;                     // −1: the world; else the body whose frame holds the plane
  Vector2 point = Vector2::Zero();     // m
  Vector2 normal = Vector2(0.0, 1.0);  // into the allowed side (normalized by the builder)
};

// Planar rigid bodies as a LagrangianSystem (3 coordinates per body).
class PlanarRigidSystem : public LagrangianSystem {
 public:
  // A system without bodies; gravity g⃗ in m/s² (default (0, −9.81): y up).
  explicit PlanarRigidSystem(std::string name = "planar", Vector2 gravity = Vector2(0.0, -9.81));

  // Adds a body (mass kg > 0, inertia about the centre kg·m² ≥ 0); returns its index.
  Index add_body(const std::string& name, double mass, double inertia);
  // Applied force (f_x, f_y, N) and torque τ (N·m) on a body; F gets −(f_x, f_y, τ).
  void set_applied_force(Index body, const Vector3& force_torque);

  // A point of `body` (body frame, m) against `plane` (a disk of radius 0).
  void add_point_plane(Index body, const Vector2& local_point, const Plane2& plane,
                       ContactOptions o);
  // A disk of `body` (radius ≥ 0, m; centre at local_center in the body frame) against `plane`.
  void add_disk_plane(Index body, double radius, const Plane2& plane, ContactOptions o,
                      const Vector2& local_center = Vector2::Zero());
  // Both ends (±half_length, 0) of a segment/rod along the body x axis; names "<name>/end-",
  // "/end+".
  void add_segment_plane(Index body, double half_length, const Plane2& plane, ContactOptions o);
  // The four corners (±width/2, ±height/2) of a box; names "<name>/corner(-,-)" etc., in the order
  // (+,−), (−,−), (+,+), (−,+) (bottom corners first).
  void add_box_plane(Index body, double width, double height, const Plane2& plane,
                     ContactOptions o);
  // A disk of body_a against a disk of body_b (radii ≥ 0, m), each centred at its centre of mass.
  void add_disk_disk(Index body_a, double radius_a, Index body_b, double radius_b,
                     ContactOptions o);

  std::string name() const override { return name_; }
  int dimension() const override { return 2; }
  Index velocity_size() const override { return 3 * static_cast<Index>(bodies_.size()); }
  // Per body "rod.x", "rod.y", "rod.theta" (rod: the body's name).
  std::vector<std::string> position_names() const override;
  // Per body "rod.x_dot", "rod.y_dot", "rod.theta_dot" (rod: the body's name).
  std::vector<std::string> velocity_names() const override;
  ContactState contact_state(const Vector& q, const Vector& v, double t) const override;
  double potential_energy(const Vector& q) const override;  // −Σ m g⃗ · c_b

  // Number of bodies added.
  Index body_count() const { return static_cast<Index>(bodies_.size()); }

 private:
  struct Body {
    std::string name;
    double mass;
    double inertia;
    Vector3 applied;
  };
  enum class Shape { point_plane, disk_disk };
  struct Contact {
    Shape shape;
    Index body_b = 0;  // point/disk body (point_plane) or second disk
    Vector2 local = Vector2::Zero();
    double radius_b = 0.0;
    Plane2 plane;       // point_plane
    Index body_a = -1;  // disk_disk first disk
    double radius_a = 0.0;
    ContactOptions options;
  };
  void check_body(Index b, const char* what) const;
  void add(Contact c);

  std::string name_;
  Vector2 gravity_;
  std::vector<Body> bodies_;
  std::vector<Contact> contacts_;
};

}  // namespace moreau
