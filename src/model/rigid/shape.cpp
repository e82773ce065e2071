#include "moreau/model/rigid/shape.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <tuple>

#include "moreau/common/error.hpp"

namespace moreau {

std::string to_string(ShapeKind kind) {
  switch (kind) {
    case ShapeKind::sphere:
      return "sphere";
    case ShapeKind::box:
      return "box";
    case ShapeKind::capsule:
      return "capsule";
    case ShapeKind::cylinder:
      return "cylinder";
    case ShapeKind::plane:
      return "plane";
    case ShapeKind::convex:
      return "convex";
    case ShapeKind::ellipsoid:
      return "ellipsoid";
  }
  return "?";
}

ShapeKind shape_kind_from_string(const std::string& name) {
  if (name == "sphere" || name == "disk") return ShapeKind::sphere;
  if (name == "box") return ShapeKind::box;
  if (name == "capsule" || name == "rod") return ShapeKind::capsule;
  if (name == "cylinder") return ShapeKind::cylinder;
  if (name == "plane") return ShapeKind::plane;
  if (name == "convex") return ShapeKind::convex;
  if (name == "ellipsoid") return ShapeKind::ellipsoid;
  throw_invalid(
      "unknown shape type '{}' (expected sphere, disk, box, capsule, rod, cylinder, ellipsoid, "
      "plane, convex)",
      name);
}

void Shape::validate(const std::string& where, int dimension) const {
  auto positive = [&](double x, const char* field) {
    MOREAU_REQUIRE(std::isfinite(x) && x > 0.0, "{}.{} = {}: must be > 0 and finite", where, field,
                   x);
  };
  auto nonneg = [&](double x, const char* field) {
    MOREAU_REQUIRE(std::isfinite(x) && x >= 0.0, "{}.{} = {}: must be ≥ 0 and finite", where, field,
                   x);
  };
  MOREAU_REQUIRE(all_finite(offset.position) && all_finite(offset.orientation.coeffs()),
                 "{}: offset pose must be finite", where);
  MOREAU_REQUIRE(std::abs(offset.orientation.norm() - 1.0) < 1e-6,
                 "{}: offset orientation must be a unit quaternion", where);
  MOREAU_REQUIRE(std::isnan(mu) || (std::isfinite(mu) && mu >= 0.0),
                 "{}.mu = {}: must be ≥ 0 and finite", where, mu);
  switch (kind) {
    case ShapeKind::sphere:
      positive(radius, "radius");
      break;
    case ShapeKind::box:
      for (int k = 0; k < 3; ++k) positive(half_extents[k], "half_extents");
      break;
    case ShapeKind::capsule:
      nonneg(radius, "radius");
      positive(half_length, "half_length");
      break;
    case ShapeKind::cylinder:
      MOREAU_REQUIRE(dimension == 3,
                     "{}: cylinders are spatial shapes (use a box or capsule in 2D)", where);
      positive(radius, "radius");
      positive(half_length, "half_length");
      break;
    case ShapeKind::plane:
      MOREAU_REQUIRE(all_finite(normal) && normal.norm() > 1e-12,
                     "{}.normal = [{}]: must be a nonzero finite vector", where,
                     fmt::join(normal, ", "));
      MOREAU_REQUIRE(std::isfinite(offset_distance), "{}.offset = {}: must be finite", where,
                     offset_distance);
      MOREAU_REQUIRE(dimension == 3 || std::abs(normal.z()) < 1e-12,
                     "{}.normal must lie in the plane z = 0 in 2D", where);
      break;
    case ShapeKind::convex:
      nonneg(radius, "radius");
      MOREAU_REQUIRE(!vertices.empty(), "{}.vertices: a convex shape needs at least one vertex",
                     where);
      for (size_t i = 0; i < vertices.size(); ++i)
        MOREAU_REQUIRE(all_finite(vertices[i]), "{}.vertices[{}]: must be finite", where, i);
      break;
    case ShapeKind::ellipsoid:
      MOREAU_REQUIRE(dimension == 3, "{}: ellipsoids are spatial shapes (use a disk in 2D)", where);
      for (int k = 0; k < 3; ++k) positive(half_extents[k], "radii");
      break;
  }
}

std::size_t Shape::core_point_count() const {
  switch (kind) {
    case ShapeKind::sphere:
      return 1;
    case ShapeKind::capsule:
      return 2;
    case ShapeKind::box:
      return 8;
    case ShapeKind::convex:
      return vertices.size();
    default:
      return 0;
  }
}

// sphere: the centre; capsule: (∓h, 0, 0); box: the corner with sign bit i of k on axis i;
// convex: vertex k.
Vector3 Shape::core_point(std::size_t k) const {
  switch (kind) {
    case ShapeKind::capsule:
      return Vector3(k == 0 ? -half_length : half_length, 0, 0);
    case ShapeKind::box:
      return Vector3((k & 1 ? 1 : -1) * half_extents.x(), (k & 2 ? 1 : -1) * half_extents.y(),
                     (k & 4 ? 1 : -1) * half_extents.z());
    case ShapeKind::convex:
      return vertices[k];
    default:
      return Vector3::Zero();
  }
}

std::vector<Vector3> Shape::core_points() const {
  if (kind == ShapeKind::convex) return vertices;
  std::vector<Vector3> out(core_point_count());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = core_point(k);
  return out;
}

double Shape::core_radius() const {
  switch (kind) {
    case ShapeKind::sphere:
    case ShapeKind::capsule:
    case ShapeKind::convex:
      return radius;
    default:
      return 0.0;
  }
}

// Support of the shape in its own frame: core support + r d/‖d‖; the cylinder's is
// h sign(d_z) ẑ + r (d_x, d_y)/‖(d_x, d_y)‖.
Vector3 Shape::support(const Vector3& d) const {
  const double n = d.norm();
  const Vector3 u = n > 0 ? Vector3(d / n) : Vector3::UnitX();
  switch (kind) {
    case ShapeKind::sphere:
      return radius * u;
    case ShapeKind::capsule:
      return Vector3(d.x() >= 0 ? half_length : -half_length, 0, 0) + radius * u;
    case ShapeKind::box:
      return Vector3(d.x() >= 0 ? half_extents.x() : -half_extents.x(),
                     d.y() >= 0 ? half_extents.y() : -half_extents.y(),
                     d.z() >= 0 ? half_extents.z() : -half_extents.z());
    case ShapeKind::cylinder: {
      const double rxy = std::hypot(d.x(), d.y());
      Vector3 s(0, 0, d.z() >= 0 ? half_length : -half_length);
      if (rxy > 0) s += Vector3(radius * d.x() / rxy, radius * d.y() / rxy, 0);
      return s;
    }
    case ShapeKind::ellipsoid: {  // argmax over x = A u, ‖u‖ ≤ 1 of dᵀx: A² d / ‖A d‖
      const Vector3 Ad = half_extents.cwiseProduct(d);
      const double m = Ad.norm();
      return m > 0 ? Vector3(half_extents.cwiseProduct(Ad) / m)
                   : Vector3(half_extents.x(), 0.0, 0.0);
    }
    case ShapeKind::convex: {
      size_t best = 0;
      double bv = -INFINITY;
      for (size_t i = 0; i < vertices.size(); ++i) {
        const double s = vertices[i].dot(d);
        if (s > bv) bv = s, best = i;
      }
      return vertices[best] + radius * u;
    }
    case ShapeKind::plane:
      break;
  }
  throw std::logic_error("Shape::support: planes have no support point");
}

double Shape::bounding_radius() const {
  switch (kind) {
    case ShapeKind::sphere:
      return radius;
    case ShapeKind::capsule:
      return half_length + radius;
    case ShapeKind::box:
      return half_extents.norm();
    case ShapeKind::cylinder:
      return std::hypot(radius, half_length);
    case ShapeKind::ellipsoid:
      return half_extents.maxCoeff();
    case ShapeKind::convex: {
      if (has_vertex_bounds()) return vertex_radius + radius;
      double r = 0;
      for (const auto& v : vertices) r = std::max(r, v.norm());
      return r + radius;
    }
    case ShapeKind::plane:
      return INFINITY;
  }
  return INFINITY;
}

Shape make_sphere(double radius, const Pose& offset) {
  Shape s;
  s.kind = ShapeKind::sphere, s.radius = radius, s.offset = offset;
  return s;
}
Shape make_box(const Vector3& half_extents, const Pose& offset) {
  Shape s;
  s.kind = ShapeKind::box, s.half_extents = half_extents, s.offset = offset;
  return s;
}
Shape make_capsule(double radius, double half_length, const Pose& offset) {
  Shape s;
  s.kind = ShapeKind::capsule, s.radius = radius, s.half_length = half_length, s.offset = offset;
  return s;
}
Shape make_cylinder(double radius, double half_length, const Pose& offset) {
  Shape s;
  s.kind = ShapeKind::cylinder, s.radius = radius, s.half_length = half_length, s.offset = offset;
  return s;
}
Shape make_ellipsoid(const Vector3& semi_axes, const Pose& offset) {
  Shape s;
  s.kind = ShapeKind::ellipsoid, s.half_extents = semi_axes, s.offset = offset;
  return s;
}
Shape make_plane(const Vector3& normal, double offset_distance) {
  Shape s;
  s.kind = ShapeKind::plane;
  const double n = normal.norm();
  s.normal = n > 0 ? Vector3(normal / n) : normal;
  s.offset_distance = n > 0 ? offset_distance / n : offset_distance;
  return s;
}
// A vertex given twice is kept once, at its first place: a mesh file lists each triangle's corners
// (an STL file repeats every vertex about six times), and each copy would be one more contact
// point, and one more redundant row, wherever the hull touches.
void Shape::form_vertex_bounds() {
  if (kind != ShapeKind::convex || vertices.empty()) return;
  vertex_lower = vertex_upper = vertices.front();
  vertex_radius = 0.0;
  for (const Vector3& v : vertices) {
    vertex_lower = vertex_lower.cwiseMin(v);
    vertex_upper = vertex_upper.cwiseMax(v);
    vertex_radius = std::max(vertex_radius, v.norm());
  }
  bounded_vertices = vertices.size();
}

Shape make_convex(std::vector<Vector3> vertices, double radius, const Pose& offset) {
  std::vector<size_t> order(vertices.size());
  std::iota(order.begin(), order.end(), size_t{0});
  auto less = [&](size_t a, size_t b) {
    const Vector3 &x = vertices[a], &y = vertices[b];
    return std::tie(x[0], x[1], x[2], a) < std::tie(y[0], y[1], y[2], b);
  };
  std::sort(order.begin(), order.end(), less);
  std::vector<bool> keep(vertices.size(), true);
  for (size_t k = 1; k < order.size(); ++k)
    if (vertices[order[k]] == vertices[order[k - 1]]) keep[order[k]] = false;
  std::vector<Vector3> unique;
  unique.reserve(vertices.size());
  for (size_t i = 0; i < vertices.size(); ++i)
    if (keep[i]) unique.push_back(vertices[i]);
  vertices = std::move(unique);
  Shape s;
  s.kind = ShapeKind::convex, s.vertices = std::move(vertices), s.radius = radius,
  s.offset = offset;
  s.form_vertex_bounds();
  return s;
}

// Homogeneous solids (standard tables); the capsule splits its mass between the cylinder
// (volume π r² 2h) and the ball (4/3 π r³), with the parallel-axis shift of the hemispheres
// (centroid 3r/8 from the flat face).
Matrix3 shape_inertia(const Shape& s, double m, int dimension) {
  MOREAU_REQUIRE(s.kind != ShapeKind::plane, "shape_inertia: a plane has no finite inertia");
  Matrix3 I = Matrix3::Zero();
  const double r = s.radius, h = s.half_length;
  if (dimension == 2) {
    double izz = 0;
    switch (s.kind) {
      case ShapeKind::sphere:
        izz = 0.5 * m * r * r;
        break;
      case ShapeKind::box: {
        const double a = 2 * s.half_extents.x(), b = 2 * s.half_extents.y();
        izz = m * (a * a + b * b) / 12.0;
        break;
      }
      case ShapeKind::capsule: {
        // rectangle 2h × 2r plus a disk of radius r split at the two ends
        if (r == 0.0) {  // thin rod: m (2h)²/12
          izz = m * h * h / 3.0;
          break;
        }
        const double ar = 4 * h * r, ad = M_PI * r * r, mr = m * ar / (ar + ad), md = m - mr;
        izz = mr * (4 * h * h + 4 * r * r) / 12.0 + 0.5 * md * r * r;
        izz += md * (h * h + 2 * h * 4 * r / (3 * M_PI));  // half-disks, centroid 4r/3π
        break;
      }
      default: {
        Vector3 lo = Vector3::Constant(INFINITY), hi = -lo;
        for (const auto& v : s.vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
        const Vector3 e = hi - lo + Vector3::Constant(2 * s.radius);
        izz = m * (e.x() * e.x() + e.y() * e.y()) / 12.0;
      }
    }
    I(0, 0) = I(1, 1) = izz;  // unused in 2D, kept positive
    I(2, 2) = izz;
    return I;
  }
  switch (s.kind) {
    case ShapeKind::sphere:
      I.diagonal().setConstant(0.4 * m * r * r);
      break;
    case ShapeKind::box: {
      const Vector3 e = 2 * s.half_extents;
      I.diagonal() << m * (e.y() * e.y() + e.z() * e.z()) / 12,
          m * (e.x() * e.x() + e.z() * e.z()) / 12, m * (e.x() * e.x() + e.y() * e.y()) / 12;
      break;
    }
    case ShapeKind::cylinder:
      I.diagonal() << m * (3 * r * r + 4 * h * h) / 12, m * (3 * r * r + 4 * h * h) / 12,
          0.5 * m * r * r;
      break;
    case ShapeKind::ellipsoid: {
      const Vector3 e2 = s.half_extents.cwiseAbs2();
      I.diagonal() << m * (e2.y() + e2.z()) / 5, m * (e2.x() + e2.z()) / 5,
          m * (e2.x() + e2.y()) / 5;
      break;
    }
    case ShapeKind::capsule: {
      if (r == 0.0) {  // thin rod: no inertia about its axis (give one explicitly)
        I.diagonal() << 0.0, m * h * h / 3.0, m * h * h / 3.0;
        break;
      }
      const double vc = M_PI * r * r * 2 * h, vs = 4.0 / 3.0 * M_PI * r * r * r;
      const double mc = m * vc / (vc + vs), ms = m - mc;
      const double ax = 0.5 * mc * r * r + 0.4 * ms * r * r;  // about the segment axis (x)
      double tr = mc * (3 * r * r + 4 * h * h) / 12 + 0.4 * ms * r * r;
      tr += ms * (h * h + 0.75 * h * r);  // hemispheres shifted by h + 3r/8
      I.diagonal() << ax, tr, tr;
      break;
    }
    default: {
      Vector3 lo = Vector3::Constant(INFINITY), hi = -lo;
      for (const auto& v : s.vertices) lo = lo.cwiseMin(v), hi = hi.cwiseMax(v);
      const Vector3 e = hi - lo + Vector3::Constant(2 * s.radius);
      I.diagonal() << m * (e.y() * e.y() + e.z() * e.z()) / 12,
          m * (e.x() * e.x() + e.z() * e.z()) / 12, m * (e.x() * e.x() + e.y() * e.y()) / 12;
      for (int k = 0; k < 3; ++k) I(k, k) = std::max(I(k, k), 1e-12 * m);
    }
  }
  return I;
}

}  // namespace moreau
