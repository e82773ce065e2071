#pragma once
// Spatial vectors in world axes about the world origin O (Featherstone 2008, ch. 2), angular first:
// a motion m = (ω; v_O), a force f = (n_O; f). Used by model/multibody and the contact rows'
// derivatives.
#include "moreau/common/types.hpp"

namespace moreau::spatial {

// A spatial vector: a motion (ω; v_O) or a force (n_O; f).
using Vector6 = Eigen::Matrix<double, 6, 1>;
// A spatial operator, such as a body's inertia about O.
using Matrix6 = Eigen::Matrix<double, 6, 6>;

// m₁ ×ₘ m₂ = (ω₁ × ω₂; ω₁ × v₂ + v₁ × ω₂): the rate of a motion vector carried by a frame that
// moves at m₁ (§2.9).
inline Vector6 cross_motion(const Vector6& a, const Vector6& b) {
  Vector6 out;
  out.head<3>() = a.head<3>().cross(b.head<3>());
  out.tail<3>() = a.head<3>().cross(b.tail<3>()) + a.tail<3>().cross(b.head<3>());
  return out;
}

// m ×_f f = (ω × n + v × f; ω × f): the rate of a force vector carried at m (§2.9).
inline Vector6 cross_force(const Vector6& m, const Vector6& f) {
  Vector6 out;
  out.head<3>() = m.head<3>().cross(f.head<3>()) + m.tail<3>().cross(f.tail<3>());
  out.tail<3>() = m.head<3>().cross(f.tail<3>());
  return out;
}

// The velocity v_O + ω × p of the point p moving with the motion m = (ω; v_O).
inline Vector3 point_velocity(const Vector6& m, const Vector3& p) {
  return Vector3(m.tail<3>()) + Vector3(m.head<3>()).cross(p);
}

}  // namespace moreau::spatial
