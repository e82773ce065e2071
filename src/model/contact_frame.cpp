// The one contact-frame convention; see contact_frame.hpp.
#include "moreau/model/contact_frame.hpp"

#include <cmath>

namespace moreau {

// e_x unless |n_x| ≥ 0.7, then e_y (contact_frame.hpp).
Index frame_reference_axis(const Vector3& n) { return std::abs(n.x()) < 0.7 ? 0 : 1; }

// t₁ = u/‖u‖ with u = e − (e·n) n, e = e_k of frame_reference_axis; ṫ₁ = (u̇ − t₁ (t₁·u̇))/‖u‖ with
// u̇ = −(e·ṅ) n − (e·n) ṅ; t₂ = n × t₁, ṫ₂ = ṅ × t₁ + n × ṫ₁.
ContactFrame3 contact_frame_3d(const Vector3& n, const Vector3& n_dot) {
  ContactFrame3 f;
  f.n = n;
  const Vector3 e = Vector3::Unit(frame_reference_axis(n));
  const Vector3 u = e - e.dot(n) * n;
  const double nu = u.norm();
  f.t1 = u / nu;
  f.t2 = n.cross(f.t1);
  const Vector3 udot = -e.dot(n_dot) * n - e.dot(n) * n_dot;
  f.t1_dot = (udot - f.t1 * f.t1.dot(udot)) / nu;
  f.t2_dot = n_dot.cross(f.t1) + n.cross(f.t1_dot);
  return f;
}

Matrix3 contact_frame(const Vector3& normal, int dimension) {
  const Vector3 n = normal.normalized();
  Matrix3 F;
  F.col(0) = n;
  if (dimension == 2) {
    F.col(1) = Vector3(n.y(), -n.x(), 0.0);
    F.col(2) = n.cross(Vector3(F.col(1)));
    return F;
  }
  const ContactFrame3 f = contact_frame_3d(n);
  F.col(1) = f.t1;
  F.col(2) = f.t2;
  return F;
}

}  // namespace moreau
