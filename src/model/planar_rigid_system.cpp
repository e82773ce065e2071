#include "moreau/model/planar_rigid_system.hpp"

#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/model/contact_frame.hpp"

namespace moreau {
namespace {

// k × a for the out-of-plane unit vector k: (−a_y, a_x).
Vector2 kcross(const Vector2& a) { return Vector2(-a.y(), a.x()); }
// Tangent of a normal: t = (n_y, −n_x) (floor n = (0, 1) ⇒ t = (1, 0)).
Matrix2 rot(double th) {
  Matrix2 R;
  R << std::cos(th), -std::sin(th), std::sin(th), std::cos(th);
  return R;
}

// Kinematic state of one side of a contact (a body or the world).
struct Side {
  bool world = true;
  Index offset = 0;                 // first index of (x, y, θ) in q
  Vector2 c = Vector2::Zero();      // centre, m
  Vector2 cdot = Vector2::Zero();   // m/s
  double theta = 0.0, omega = 0.0;  // rad, rad/s
  Vector2 velocity_at(const Vector2& x) const {
    return world ? Vector2::Zero() : Vector2(cdot + omega * kcross(x - c));
  }
};

Side side(Index body, const Vector& q, const Vector& v) {
  Side s;
  if (body < 0) return s;
  s.world = false;
  s.offset = 3 * body;
  s.c = q.segment<2>(s.offset);
  s.cdot = v.segment<2>(s.offset);
  s.theta = q[s.offset + 2];
  s.omega = v[s.offset + 2];
  return s;
}

// Column of generalized coordinates for the relative velocity dᵀ(v_B(x_B) − v_A(x_A)).
void add_column(Eigen::Ref<Vector> col, const Side& A, const Side& B, const Vector2& d,
                const Vector2& xA, const Vector2& xB) {
  if (!B.world) {
    col.segment<2>(B.offset) += d;
    col[B.offset + 2] += d.dot(kcross(xB - B.c));
  }
  if (!A.world) {
    col.segment<2>(A.offset) -= d;
    col[A.offset + 2] -= d.dot(kcross(xA - A.c));
  }
}

// c = d/dt(columnᵀ) q̇ with q̇ fixed: ḋᵀΔv + dᵀ(ω_B k×(ẋ_B − ċ_B) − ω_A k×(ẋ_A − ċ_A)),
// ẋ = velocity of the (geometric) contact point.
double bias(const Side& A, const Side& B, const Vector2& d, const Vector2& ddot, const Vector2& xA,
            const Vector2& xB, const Vector2& xAdot, const Vector2& xBdot) {
  double c = ddot.dot(B.velocity_at(xB) - A.velocity_at(xA));
  if (!B.world) c += d.dot(B.omega * kcross(xBdot - B.cdot));
  if (!A.world) c -= d.dot(A.omega * kcross(xAdot - A.cdot));
  return c;
}

}  // namespace

PlanarRigidSystem::PlanarRigidSystem(std::string name, Vector2 gravity)
    : name_(std::move(name)), gravity_(gravity) {
  MOREAU_REQUIRE(all_finite(gravity), "planar system '{}': gravity has a NaN or infinite entry",
                 name_);
}

Index PlanarRigidSystem::add_body(const std::string& name, double mass, double inertia) {
  MOREAU_REQUIRE(std::isfinite(mass) && mass > 0.0, "body '{}': mass = {} must be > 0", name, mass);
  MOREAU_REQUIRE(std::isfinite(inertia) && inertia >= 0.0, "body '{}': inertia = {} must be ≥ 0",
                 name, inertia);
  bodies_.push_back(Body{name.empty() ? fmt::format("body{}", bodies_.size()) : name, mass, inertia,
                         Vector3::Zero()});
  return static_cast<Index>(bodies_.size()) - 1;
}

void PlanarRigidSystem::check_body(Index b, const char* what) const {
  MOREAU_REQUIRE(b >= 0 && b < body_count(), "{}: body index {} is out of range [0, {})", what, b,
                 body_count());
}

void PlanarRigidSystem::set_applied_force(Index body, const Vector3& f) {
  check_body(body, "applied force");
  MOREAU_REQUIRE(all_finite(f), "applied force on body {} has a NaN or infinite entry", body);
  bodies_[body].applied = f;
}

void PlanarRigidSystem::add(Contact c) {
  auto& o = c.options;
  MOREAU_REQUIRE(std::isfinite(o.mu) && o.mu >= 0.0, "contact '{}': mu = {} must be ≥ 0", o.name,
                 o.mu);
  MOREAU_REQUIRE(o.restitution >= 0.0 && o.restitution <= 1.0,
                 "contact '{}': restitution e = {} must lie in [0, 1]", o.name, o.restitution);
  if (o.name.empty()) o.name = fmt::format("contact{}", contacts_.size());
  contacts_.push_back(std::move(c));
}

void PlanarRigidSystem::add_point_plane(Index body, const Vector2& local, const Plane2& plane,
                                        ContactOptions o) {
  add_disk_plane(body, 0.0, plane, std::move(o), local);
}

void PlanarRigidSystem::add_disk_plane(Index body, double radius, const Plane2& plane,
                                       ContactOptions o, const Vector2& local_center) {
  check_body(body, "disk/point contact");
  MOREAU_REQUIRE(plane.body == -1 || (plane.body >= 0 && plane.body < body_count()),
                 "contact '{}': plane body index {} is out of range", o.name, plane.body);
  MOREAU_REQUIRE(plane.body != body, "contact '{}': a body cannot touch its own plane", o.name);
  MOREAU_REQUIRE(std::isfinite(radius) && radius >= 0.0, "contact '{}': radius = {} must be ≥ 0",
                 o.name, radius);
  MOREAU_REQUIRE(all_finite(local_center) && all_finite(plane.point) && all_finite(plane.normal),
                 "contact '{}': a point or normal has a NaN or infinite entry", o.name);
  MOREAU_REQUIRE(plane.normal.norm() > 1e-12, "contact '{}': the plane normal is zero", o.name);
  Contact c;
  c.shape = Shape::point_plane;
  c.body_b = body;
  c.local = local_center;
  c.radius_b = radius;
  c.plane = plane;
  c.plane.normal.normalize();
  c.options = std::move(o);
  add(std::move(c));
}

void PlanarRigidSystem::add_segment_plane(Index body, double half_length, const Plane2& plane,
                                          ContactOptions o) {
  MOREAU_REQUIRE(std::isfinite(half_length) && half_length > 0.0,
                 "segment contact '{}': half_length = {} must be > 0", o.name, half_length);
  const std::string base = o.name.empty() ? fmt::format("segment{}", contacts_.size()) : o.name;
  for (double s : {-1.0, 1.0}) {
    ContactOptions oi = o;
    oi.name = base + (s < 0 ? "/end-" : "/end+");
    add_point_plane(body, Vector2(s * half_length, 0.0), plane, oi);
  }
}

void PlanarRigidSystem::add_box_plane(Index body, double width, double height, const Plane2& plane,
                                      ContactOptions o) {
  MOREAU_REQUIRE(std::isfinite(width) && width > 0.0 && std::isfinite(height) && height > 0.0,
                 "box contact '{}': width = {} and height = {} must be > 0", o.name, width, height);
  const std::string base = o.name.empty() ? fmt::format("box{}", contacts_.size()) : o.name;
  const double sx[4] = {1, -1, 1, -1}, sy[4] = {-1, -1, 1, 1};
  for (int k = 0; k < 4; ++k) {
    ContactOptions oi = o;
    oi.name = fmt::format("{}/corner({},{})", base, sx[k] > 0 ? '+' : '-', sy[k] > 0 ? '+' : '-');
    add_point_plane(body, Vector2(sx[k] * width / 2, sy[k] * height / 2), plane, oi);
  }
}

void PlanarRigidSystem::add_disk_disk(Index a, double ra, Index b, double rb, ContactOptions o) {
  check_body(a, "disk-disk contact");
  check_body(b, "disk-disk contact");
  MOREAU_REQUIRE(a != b, "contact '{}': a disk cannot touch itself (body {})", o.name, a);
  MOREAU_REQUIRE(std::isfinite(ra) && ra >= 0.0 && std::isfinite(rb) && rb >= 0.0,
                 "contact '{}': radii {} and {} must be ≥ 0", o.name, ra, rb);
  Contact c;
  c.shape = Shape::disk_disk;
  c.body_a = a;
  c.radius_a = ra;
  c.body_b = b;
  c.radius_b = rb;
  c.options = std::move(o);
  add(std::move(c));
}

std::vector<std::string> PlanarRigidSystem::position_names() const {
  std::vector<std::string> out;
  for (const auto& b : bodies_)
    for (const char* s : {"x", "y", "theta"}) out.push_back(b.name + "." + s);
  return out;
}

std::vector<std::string> PlanarRigidSystem::velocity_names() const {
  std::vector<std::string> out;
  for (const auto& b : bodies_)
    for (const char* s : {"x_dot", "y_dot", "theta_dot"}) out.push_back(b.name + "." + s);
  return out;
}

double PlanarRigidSystem::potential_energy(const Vector& q) const {
  double V = 0.0;
  for (Index b = 0; b < body_count(); ++b) V -= bodies_[b].mass * gravity_.dot(q.segment<2>(3 * b));
  return V;
}

ContactState PlanarRigidSystem::contact_state(const Vector& q, const Vector& v, double t) const {
  const Index n = velocity_size();
  MOREAU_REQUIRE(q.size() == n, "system '{}': q has {} entries, expected {}", name_, q.size(), n);
  MOREAU_REQUIRE(v.size() == n, "system '{}': v has {} entries, expected {}", name_, v.size(), n);
  ContactState s;
  s.dimension = 2;
  s.t = t;
  s.q = q;
  s.v = v;
  s.M = Matrix::Zero(n, n);
  s.F = Vector::Zero(n);
  for (Index b = 0; b < body_count(); ++b) {
    const Body& B = bodies_[b];
    s.M(3 * b, 3 * b) = s.M(3 * b + 1, 3 * b + 1) = B.mass;
    s.M(3 * b + 2, 3 * b + 2) = B.inertia;
    s.F.segment<2>(3 * b) = -B.mass * gravity_ - B.applied.head<2>();
    s.F[3 * b + 2] = -B.applied[2];
  }
  for (const Contact& c : contacts_) {
    ContactConstraint cc;
    cc.name = c.options.name;
    cc.kind = c.options.kind;
    cc.mu = c.options.mu;
    cc.restitution = c.options.restitution;
    cc.normal = Vector::Zero(n);
    cc.tangent = Matrix::Zero(n, 1);
    cc.tangent_bias = Vector::Zero(1);
    Side A, B;
    Vector2 nrm, ndot, xA, xB, xAdot, xBdot;
    if (c.shape == Shape::point_plane) {
      A = side(c.plane.body, q, v);
      B = side(c.body_b, q, v);
      const Matrix2 RA = A.world ? Matrix2::Identity() : rot(A.theta);
      const Vector2 o = A.world ? c.plane.point : Vector2(A.c + RA * c.plane.point);
      nrm = RA * c.plane.normal;
      ndot = A.omega * kcross(nrm);
      const Vector2 p = B.c + rot(B.theta) * c.local;  // material centre of the disk
      const Vector2 pdot = B.velocity_at(p);
      cc.gap = nrm.dot(p - o) - c.radius_b;
      xB = p - c.radius_b * nrm;
      xBdot = pdot - c.radius_b * ndot;
      xA = xB;
      xAdot = xBdot;
    } else {
      A = side(c.body_a, q, v);
      B = side(c.body_b, q, v);
      const Vector2 d = B.c - A.c;
      const double dist = d.norm();
      MOREAU_REQUIRE(dist > 1e-12, "contact '{}': the two disk centres coincide", c.options.name);
      nrm = d / dist;
      const Vector2 ddot = B.cdot - A.cdot;
      ndot = (ddot - nrm * nrm.dot(ddot)) / dist;
      cc.gap = dist - c.radius_a - c.radius_b;
      xB = B.c - c.radius_b * nrm;
      xA = A.c + c.radius_a * nrm;
      xBdot = B.cdot - c.radius_b * ndot;
      xAdot = A.cdot + c.radius_a * ndot;
    }
    const double ts = c.options.reverse_tangent ? -1.0 : 1.0;
    const Vector2 tan = ts * planar_tangent(nrm),
                  tdot = ts * planar_tangent(ndot);  // model/contact_frame.hpp
    add_column(cc.normal, A, B, nrm, xA, xB);
    add_column(cc.tangent.col(0), A, B, tan, xA, xB);
    cc.normal_bias = bias(A, B, nrm, ndot, xA, xB, xAdot, xBdot);
    cc.tangent_bias[0] = bias(A, B, tan, tdot, xA, xB, xAdot, xBdot);
    s.constraints.push_back(std::move(cc));
  }
  s.validate();
  return s;
}

}  // namespace moreau
