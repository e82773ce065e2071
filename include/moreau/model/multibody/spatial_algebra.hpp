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

// A rigid body's (or a composite's) inertia about O in its ten numbers (Featherstone 2008, §2.13):
// mass m, first moment h = m c and rotational inertia about O, I_O = I_G − m [c]×², which stand
// for the 6×6 [[I_O, [h]×], [−[h]×, m 1]]. Sums and products cost a fraction of the matrix's.
struct CompactInertia {
  double m = 0.0;                                 // mass, kg
  Eigen::Vector3d h = Eigen::Vector3d::Zero();    // first moment m c about O, kg·m
  Eigen::Matrix3d I_O = Eigen::Matrix3d::Zero();  // rotational inertia about O, kg·m²

  // I m = (I_O ω + h × v; m v − h × ω) for the motion m = (ω; v).
  Vector6 operator*(const Vector6& motion) const {
    const Eigen::Vector3d w = motion.head<3>(), v = motion.tail<3>();
    Vector6 out;
    out.head<3>() = I_O * w + h.cross(v);
    out.tail<3>() = m * v - h.cross(w);
    return out;
  }
  // The inertia of the union of two bodies: each of the ten numbers adds.
  CompactInertia& operator+=(const CompactInertia& o) {
    m += o.m;
    h += o.h;
    I_O += o.I_O;
    return *this;
  }
};

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
