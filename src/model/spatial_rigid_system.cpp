#include "moreau/model/spatial_rigid_system.hpp"

#include <cmath>
#include <numbers>

#include <Eigen/Geometry>

#include "moreau/common/error.hpp"

namespace moreau {
namespace {

Matrix3 hat(const Vector3& a) {
  Matrix3 S;
  S << 0.0, -a.z(), a.y(), a.z(), 0.0, -a.x(), -a.y(), a.x(), 0.0;
  return S;
}

struct Side {
  bool world = true;
  Index offset = 0;
  Vector3 c = Vector3::Zero(), cdot = Vector3::Zero(), omega = Vector3::Zero();
  Vector3 velocity_at(const Vector3& x) const {
    return world ? Vector3::Zero() : Vector3(cdot + omega.cross(x - c));
  }
};

Side side(Index body, const Vector& q, const Vector& v) {
  Side s;
  if (body < 0) return s;
  s.world = false;
  s.offset = 6 * body;
  s.c = q.segment<3>(s.offset);
  s.cdot = v.segment<3>(s.offset);
  s.omega = v.segment<3>(s.offset + 3);
  return s;
}

// Column for dᵀ(v_B(x_B) − v_A(x_A)): ṗ ↦ ±d, ω ↦ ±(x − p) × d.
void add_column(Eigen::Ref<Vector> col, const Side& A, const Side& B, const Vector3& d,
                const Vector3& xA, const Vector3& xB) {
  if (!B.world) {
    col.segment<3>(B.offset) += d;
    col.segment<3>(B.offset + 3) += (xB - B.c).cross(d);
  }
  if (!A.world) {
    col.segment<3>(A.offset) -= d;
    col.segment<3>(A.offset + 3) -= (xA - A.c).cross(d);
  }
}

double bias(const Side& A, const Side& B, const Vector3& d, const Vector3& ddot, const Vector3& xA,
            const Vector3& xB, const Vector3& xAdot, const Vector3& xBdot) {
  double c = ddot.dot(B.velocity_at(xB) - A.velocity_at(xA));
  if (!B.world) c += d.dot(B.omega.cross(xBdot - B.cdot));
  if (!A.world) c -= d.dot(A.omega.cross(xAdot - A.cdot));
  return c;
}

}  // namespace

// R = exp([φ]×) (Rodrigues).
Matrix3 rotation_from_vector(const Vector3& phi) {
  const double th = phi.norm();
  if (th < 1e-300) return Matrix3::Identity();
  return Eigen::AngleAxisd(th, phi / th).toRotationMatrix();
}

// J_l⁻¹(φ) = I − ½[φ]× + (1/θ² − (1 + cos θ)/(2θ sin θ)) [φ]×², θ = ‖φ‖ (series for small θ).
Matrix3 left_jacobian_inverse(const Vector3& phi) {
  const double th = phi.norm();
  const Matrix3 S = hat(phi);
  double c2;
  if (th < 1e-4)
    c2 = 1.0 / 12.0 + th * th / 720.0;
  else
    c2 = 1.0 / (th * th) - (1.0 + std::cos(th)) / (2.0 * th * std::sin(th));
  return Matrix3::Identity() - 0.5 * S + c2 * S * S;
}

SpatialRigidSystem::SpatialRigidSystem(std::string name, Vector3 gravity)
    : name_(std::move(name)), gravity_(gravity) {
  MOREAU_REQUIRE(all_finite(gravity), "spatial system '{}': gravity has a NaN or infinite entry",
                 name_);
}

Index SpatialRigidSystem::add_body(const std::string& name, double mass, const Matrix3& inertia) {
  MOREAU_REQUIRE(std::isfinite(mass) && mass > 0.0, "body '{}': mass = {} must be > 0", name, mass);
  MOREAU_REQUIRE(all_finite(inertia), "body '{}': the inertia has a NaN or infinite entry", name);
  MOREAU_REQUIRE((inertia - inertia.transpose()).cwiseAbs().maxCoeff() <=
                     1e-12 * std::max(1.0, inertia.cwiseAbs().maxCoeff()),
                 "body '{}': the inertia matrix must be symmetric", name);
  Eigen::SelfAdjointEigenSolver<Matrix3> es(inertia);
  MOREAU_REQUIRE(es.eigenvalues().minCoeff() >= -1e-12 * std::max(1.0, inertia.norm()),
                 "body '{}': the inertia matrix must be positive semidefinite (λ_min = {})", name,
                 es.eigenvalues().minCoeff());
  bodies_.push_back(Body{name.empty() ? fmt::format("body{}", bodies_.size()) : name, mass, inertia,
                         Vector3::Zero(), Vector3::Zero()});
  return body_count() - 1;
}

void SpatialRigidSystem::check_body(Index b, const char* what) const {
  MOREAU_REQUIRE(b >= 0 && b < body_count(), "{}: body index {} is out of range [0, {})", what, b,
                 body_count());
}

void SpatialRigidSystem::set_applied_force(Index body, const Vector3& force,
                                           const Vector3& torque) {
  check_body(body, "applied force");
  MOREAU_REQUIRE(all_finite(force) && all_finite(torque),
                 "applied force on body {} has a NaN or infinite entry", body);
  bodies_[body].force = force;
  bodies_[body].torque = torque;
}

void SpatialRigidSystem::add(Contact c) {
  auto& o = c.options;
  MOREAU_REQUIRE(std::isfinite(o.mu) && o.mu >= 0.0, "contact '{}': mu = {} must be ≥ 0", o.name,
                 o.mu);
  MOREAU_REQUIRE(o.restitution >= 0.0 && o.restitution <= 1.0,
                 "contact '{}': restitution e = {} must lie in [0, 1]", o.name, o.restitution);
  if (o.name.empty()) o.name = fmt::format("contact{}", contacts_.size());
  contacts_.push_back(std::move(c));
}

void SpatialRigidSystem::add_sphere_plane(Index body, double radius, const Plane3& plane,
                                          ContactOptions o, const Vector3& local_center) {
  check_body(body, "sphere/point contact");
  MOREAU_REQUIRE(std::isfinite(radius) && radius >= 0.0, "contact '{}': radius = {} must be ≥ 0",
                 o.name, radius);
  MOREAU_REQUIRE(all_finite(local_center) && all_finite(plane.point) && all_finite(plane.normal),
                 "contact '{}': a point or normal has a NaN or infinite entry", o.name);
  MOREAU_REQUIRE(plane.normal.norm() > 1e-12, "contact '{}': the plane normal is zero", o.name);
  Contact c;
  c.body_b = body;
  c.radius_b = radius;
  c.local = local_center;
  c.plane = plane;
  c.plane.normal.normalize();
  c.options = std::move(o);
  add(std::move(c));
}

void SpatialRigidSystem::add_point_plane(Index body, const Vector3& local_point,
                                         const Plane3& plane, ContactOptions o) {
  add_sphere_plane(body, 0.0, plane, std::move(o), local_point);
}

void SpatialRigidSystem::add_box_plane(Index body, const Vector3& h, const Plane3& plane,
                                       ContactOptions o) {
  MOREAU_REQUIRE(all_finite(h) && h.minCoeff() > 0.0,
                 "box contact '{}': half extents ({}, {}, {}) must be > 0", o.name, h.x(), h.y(),
                 h.z());
  const std::string base = o.name.empty() ? fmt::format("box{}", contacts_.size()) : o.name;
  for (int sz : {-1, 1})
    for (int sy : {-1, 1})
      for (int sx : {-1, 1}) {
        ContactOptions oi = o;
        oi.name = fmt::format("{}/corner({},{},{})", base, sx > 0 ? '+' : '-', sy > 0 ? '+' : '-',
                              sz > 0 ? '+' : '-');
        add_point_plane(body, Vector3(sx * h.x(), sy * h.y(), sz * h.z()), plane, oi);
      }
}

void SpatialRigidSystem::add_sphere_sphere(Index a, double ra, Index b, double rb,
                                           ContactOptions o) {
  check_body(a, "sphere-sphere contact");
  check_body(b, "sphere-sphere contact");
  MOREAU_REQUIRE(a != b, "contact '{}': a sphere cannot touch itself (body {})", o.name, a);
  MOREAU_REQUIRE(std::isfinite(ra) && ra >= 0.0 && std::isfinite(rb) && rb >= 0.0,
                 "contact '{}': radii {} and {} must be ≥ 0", o.name, ra, rb);
  Contact c;
  c.sphere_sphere = true;
  c.body_a = a;
  c.radius_a = ra;
  c.body_b = b;
  c.radius_b = rb;
  c.options = std::move(o);
  add(std::move(c));
}

std::vector<std::string> SpatialRigidSystem::position_names() const {
  std::vector<std::string> out;
  for (const auto& b : bodies_)
    for (const char* s : {"x", "y", "z", "phi_x", "phi_y", "phi_z"})
      out.push_back(b.name + "." + s);
  return out;
}

std::vector<std::string> SpatialRigidSystem::velocity_names() const {
  std::vector<std::string> out;
  for (const auto& b : bodies_)
    for (const char* s : {"vx", "vy", "vz", "wx", "wy", "wz"}) out.push_back(b.name + "." + s);
  return out;
}

Vector SpatialRigidSystem::position_rate(const Vector& q, const Vector& v) const {
  MOREAU_REQUIRE(q.size() == velocity_size() && v.size() == velocity_size(),
                 "system '{}': q and v must have {} entries, got {} and {}", name_, velocity_size(),
                 q.size(), v.size());
  Vector qd = v;
  for (Index b = 0; b < body_count(); ++b)
    qd.segment<3>(6 * b + 3) =
        left_jacobian_inverse(q.segment<3>(6 * b + 3)) * v.segment<3>(6 * b + 3);
  return qd;
}

// ‖φ‖ > π ⇒ φ ← φ (1 − 2π/‖φ‖) (same rotation, the short way round).
void SpatialRigidSystem::normalize_position(Vector& q) const {
  for (Index b = 0; b < body_count(); ++b) {
    auto phi = q.segment<3>(6 * b + 3);
    const double th = phi.norm();
    if (th > std::numbers::pi) phi *= 1.0 - 2.0 * std::numbers::pi / th;
  }
}

double SpatialRigidSystem::potential_energy(const Vector& q) const {
  double V = 0.0;
  for (Index b = 0; b < body_count(); ++b) V -= bodies_[b].mass * gravity_.dot(q.segment<3>(6 * b));
  return V;
}

ContactState SpatialRigidSystem::contact_state(const Vector& q, const Vector& v, double t) const {
  const Index n = velocity_size();
  MOREAU_REQUIRE(q.size() == n, "system '{}': q has {} entries, expected {}", name_, q.size(), n);
  MOREAU_REQUIRE(v.size() == n, "system '{}': v has {} entries, expected {}", name_, v.size(), n);
  ContactState s;
  s.dimension = 3;
  s.t = t;
  s.q = q;
  s.v = v;
  s.M = Matrix::Zero(n, n);
  s.F = Vector::Zero(n);
  std::vector<Matrix3> R(bodies_.size());
  for (Index b = 0; b < body_count(); ++b) {
    const Body& B = bodies_[b];
    R[b] = rotation_from_vector(q.segment<3>(6 * b + 3));
    const Matrix3 Iw = R[b] * B.inertia * R[b].transpose();
    s.M.block<3, 3>(6 * b, 6 * b) = B.mass * Matrix3::Identity();
    s.M.block<3, 3>(6 * b + 3, 6 * b + 3) = 0.5 * (Iw + Iw.transpose());
    const Vector3 w = v.segment<3>(6 * b + 3);
    s.F.segment<3>(6 * b) = -B.mass * gravity_ - B.force;
    s.F.segment<3>(6 * b + 3) = w.cross(Iw * w) - B.torque;
  }
  for (const Contact& c : contacts_) {
    ContactConstraint cc;
    cc.name = c.options.name;
    cc.kind = c.options.kind;
    cc.mu = c.options.mu;
    cc.restitution = c.options.restitution;
    cc.normal = Vector::Zero(n);
    cc.tangent = Matrix::Zero(n, 2);
    cc.tangent_bias = Vector::Zero(2);
    Side A = side(c.body_a, q, v), B = side(c.body_b, q, v);
    Vector3 nrm, ndot, xA, xB, xAdot, xBdot;
    if (!c.sphere_sphere) {
      nrm = c.plane.normal;
      ndot.setZero();
      const Vector3 p = B.c + R[c.body_b] * c.local;
      cc.gap = nrm.dot(p - c.plane.point) - c.radius_b;
      xB = p - c.radius_b * nrm;
      xBdot = B.velocity_at(p);
      xA = xB;
      xAdot = xBdot;
    } else {
      const Vector3 d = B.c - A.c;
      const double dist = d.norm();
      MOREAU_REQUIRE(dist > 1e-12, "contact '{}': the two sphere centres coincide", c.options.name);
      nrm = d / dist;
      const Vector3 dd = B.cdot - A.cdot;
      ndot = (dd - nrm * nrm.dot(dd)) / dist;
      cc.gap = dist - c.radius_a - c.radius_b;
      xB = B.c - c.radius_b * nrm;
      xA = A.c + c.radius_a * nrm;
      xBdot = B.cdot - c.radius_b * ndot;
      xAdot = A.cdot + c.radius_a * ndot;
    }
    const ContactFrame3 f = contact_frame_3d(nrm, ndot);
    add_column(cc.normal, A, B, nrm, xA, xB);
    add_column(cc.tangent.col(0), A, B, f.t1, xA, xB);
    add_column(cc.tangent.col(1), A, B, f.t2, xA, xB);
    cc.normal_bias = bias(A, B, nrm, ndot, xA, xB, xAdot, xBdot);
    cc.tangent_bias[0] = bias(A, B, f.t1, f.t1_dot, xA, xB, xAdot, xBdot);
    cc.tangent_bias[1] = bias(A, B, f.t2, f.t2_dot, xA, xB, xAdot, xBdot);
    s.constraints.push_back(std::move(cc));
  }
  s.validate();
  return s;
}

}  // namespace moreau
