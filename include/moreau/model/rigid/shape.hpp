#pragma once
// Collision shapes attached to rigid bodies (docs/scene-format.md §Shapes).
//
// Each shape is given in its body's frame through `offset` (a pose relative to the body frame).
// Local geometry, before the offset:
//   sphere   centre at the origin, radius r                        (2D: disk)
//   box      centred, half extents (a, b, c) along x, y, z         (2D: rectangle a × b)
//   capsule  segment from (−h, 0, 0) to (h, 0, 0) swept by radius r (2D: rod / rounded segment;
//            r = 0 is a thin rod, whose end points still collide)
//   cylinder axis along z, from z = −h to z = h, radius r         (3D only)
//   ellipsoid centred, semi-axes (a, b, c) = half_extents along x, y, z (3D only)
//   plane    the half-space { x : n·x ≤ d } with n = normal, d = offset_distance, BEFORE the
//            pose `offset` is applied; the body is solid below the plane (ground, walls)
//   convex   convex hull of `vertices` (body frame, m), plus an optional rounding radius r
//            (2D: a convex polygon, vertices with z = 0)
// The sphere, capsule, box and convex shapes share one description used by the narrow phase:
// a convex polytope "core" (1, 2, 8 or n points) swept by a radius (0 for box and convex).
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "moreau/model/rigid/pose.hpp"

namespace moreau {

// Kind of a collision shape.
enum class ShapeKind { sphere, box, capsule, cylinder, plane, convex, ellipsoid };

// "sphere", "box", ... (the names the scene format uses).
std::string to_string(ShapeKind kind);
// Inverse of to_string; throws std::invalid_argument for an unknown name.
ShapeKind shape_kind_from_string(const std::string& name);

// A collision shape of a body (kind, sizes, offset pose).
struct Shape {
  ShapeKind kind = ShapeKind::sphere;      // which of the fields below apply
  double radius = 0.0;                     // sphere, capsule, cylinder, convex rounding, m
  Vector3 half_extents = Vector3::Zero();  // box, ellipsoid (its semi-axes), m
  double half_length = 0.0;                // capsule (along x), cylinder (along z), m
  Vector3 normal = Vector3::UnitY();       // plane: outward unit normal (local)
  double offset_distance = 0.0;            // plane: n·x ≤ d, m
  std::vector<Vector3> vertices;           // convex: hull points, body frame, m
  Pose offset;                             // shape frame relative to the body frame
  std::string name;                        // optional, for contact names
  // Collision filter (MuJoCo's contype and conaffinity bitmasks, XML reference §geom): detection
  // pairs two shapes when (contype₁ & conaffinity₂) ≠ 0 or (contype₂ & conaffinity₁) ≠ 0.
  // Explicit contact pairs (contact_pair.hpp) are not filtered.
  std::uint32_t contype = 1;      // bitmask, default 1
  std::uint32_t conaffinity = 1;  // bitmask, default 1
  // The shape's own friction coefficient (MuJoCo's geom friction[0]), ≥ 0, or NaN for none. A
  // contact between two shapes that both have one takes the larger (MuJoCo's rule); one that
  // has one takes it; otherwise the body pair's material decides (world_contacts.cpp).
  double mu = std::numeric_limits<double>::quiet_NaN();
  // MuJoCo's geom priority: in a contact of two shapes of different priority, the higher one's
  // own μ decides (when it has one), else the larger of the two (world_contacts.cpp).
  int priority = 0;

  // Throws std::invalid_argument naming `where` (e.g. "bodies[2].shapes[0]") when a size is
  // not positive and finite, a normal is zero, or a convex shape has < 1 vertex (< 3 in 3D is
  // allowed: segments and triangles are valid convex cores).
  void validate(const std::string& where, int dimension) const;

  // The polytope core in the SHAPE frame: sphere {0}, capsule {(±h,0,0)}, box 8 corners,
  // convex its vertices. Empty for plane, cylinder and ellipsoid.
  std::vector<Vector3> core_points() const;
  // Their number (detection reads a shape's core on every pair it tests, without the list).
  std::size_t core_point_count() const;
  // The k-th of them, 0 ≤ k < core_point_count(), in the order of core_points().
  Vector3 core_point(std::size_t k) const;
  // Rounding radius swept around the core (sphere, capsule r; convex r; box 0).
  double core_radius() const;
  // True for shapes described by a core and a radius (sphere, capsule, box, convex).
  bool has_core() const {
    return kind != ShapeKind::plane && kind != ShapeKind::cylinder && kind != ShapeKind::ellipsoid;
  }

  // Support point in the SHAPE frame: argmax_{x ∈ shape} d·x (d need not be unit). Planes
  // have none (throws std::logic_error).
  Vector3 support(const Vector3& d) const;
  // Radius of a sphere about the shape origin that contains the shape (∞ for planes), m.
  double bounding_radius() const;

  // A convex shape's vertex bounds, formed by make_convex and RigidWorld::add_body (a mesh has
  // hundreds of vertices, and detection asked for its box, radius and lowest point on every
  // call): the componentwise least and greatest vertex and the largest |vertex|. They count only
  // while `bounded_vertices` equals the vertex count; a shape whose vertices are changed in place
  // afterwards must call form_vertex_bounds() again.
  Vector3 vertex_lower = Vector3::Zero();  // convex: min over vertices, shape frame, m
  Vector3 vertex_upper = Vector3::Zero();  // convex: max over vertices, shape frame, m
  double vertex_radius = 0.0;              // convex: max |vertex|, m
  std::size_t bounded_vertices = 0;        // the vertex count the bounds were formed for
  // Forms the bounds above from `vertices` (a convex shape; others are left as they are).
  void form_vertex_bounds();
  // Whether the bounds above hold for `vertices` (a convex shape with bounds formed for them).
  bool has_vertex_bounds() const {
    return kind == ShapeKind::convex && !vertices.empty() && bounded_vertices == vertices.size();
  }
};

// True when detection may pair shapes a and b: (contype_a & conaffinity_b) ≠ 0 or
// (contype_b & conaffinity_a) ≠ 0.
inline bool collision_filter_passes(const Shape& a, const Shape& b) {
  return (a.contype & b.conaffinity) != 0 || (b.contype & a.conaffinity) != 0;
}

// Factories (shape frame = body frame unless `offset` is given).
Shape make_sphere(double radius, const Pose& offset = {});
// Box of the given half extents (m).
Shape make_box(const Vector3& half_extents, const Pose& offset = {});
// Capsule: segment from (−h, 0, 0) to (h, 0, 0), h = half_length, swept by radius (m).
Shape make_capsule(double radius, double half_length, const Pose& offset = {});
// Cylinder of radius and half length, axis along the shape's z axis (m, 3D only).
Shape make_cylinder(double radius, double half_length, const Pose& offset = {});
// Ellipsoid of semi-axes (a, b, c) along the shape's x, y, z (m, 3D only).
Shape make_ellipsoid(const Vector3& semi_axes, const Pose& offset = {});
// Static half-space {x : nᵀx ≤ offset_distance} with outward unit normal n.
Shape make_plane(const Vector3& normal, double offset_distance = 0.0);
// Convex hull of the vertices (m, shape frame), optionally rounded by radius.
Shape make_convex(std::vector<Vector3> vertices, double radius = 0.0, const Pose& offset = {});

// Inertia of a homogeneous shape of mass m about its own centre, in the SHAPE frame, kg·m²:
//   sphere 2/5 m r² I (2D disk: I_zz = ½ m r²), box m/3 (b²+c², a²+c², a²+b²),
//   capsule and rod: a cylinder of length 2h plus two hemispheres, mass shared by volume
//   (2D: rectangle 2h × 2r plus a disk), cylinder m/12 (3r²+4h²) ×2, ½ m r² about z,
//   ellipsoid m/5 (b²+c², a²+c², a²+b²);
//   convex: the inertia of its vertices' bounding box (an approximation, documented).
// In 2D only entry (2,2) is meaningful. Throws for planes.
Matrix3 shape_inertia(const Shape& shape, double mass, int dimension);

}  // namespace moreau
