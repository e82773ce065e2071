#include "moreau/contact/collision/contact.hpp"

#include <cmath>

namespace moreau {

// 3D: t₁ = n × e / ‖n × e‖ with e the world axis least aligned with n, t₂ = n × t₁
// (so t₁ × t₂ = n). 2D: t = ẑ × n, third column ẑ.
Matrix3 contact_frame(const Vector3& normal, int dimension) {
  const Vector3 n = normal.normalized();
  Matrix3 F;
  if (dimension == 2) {
    F.col(0) = n;
    F.col(1) = Vector3(-n.y(), n.x(), 0.0);
    F.col(2) = Vector3::UnitZ();
    return F;
  }
  Index k;
  n.cwiseAbs().minCoeff(&k);
  const Vector3 t1 = n.cross(Vector3::Unit(k)).normalized();
  F.col(0) = n;
  F.col(1) = t1;
  F.col(2) = n.cross(t1);
  return F;
}

}  // namespace moreau
