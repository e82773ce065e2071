#pragma once
// Rotation vectors and unit quaternions: the exponential and logarithm maps of SO(3) as q ⊕ δ
// and q₁ ⊖ q₀ use them (Solà, Deray & Atchuthan 2018, "A micro Lie theory", eqs. 101–105).
#include <cmath>

#include "moreau/model/rigid/pose.hpp"

namespace moreau {

// exp(θ): the unit quaternion of the rotation by |θ| about θ/|θ| (the identity for θ = 0).
inline Quaternion rotation_exp(const Vector3& theta) {
  const double angle = theta.norm();
  if (angle == 0.0) return Quaternion::Identity();
  return Quaternion(Eigen::AngleAxisd(angle, theta / angle));
}

// log(r): the rotation vector θ with exp(θ) = ±r, |θ| ≤ π (r unit; r and −r are the same
// rotation, so w < 0 is flipped first): θ = 2 atan2(|r_xyz|, w) r_xyz/|r_xyz|, and 2 r_xyz/w
// to first order near the identity.
inline Vector3 rotation_log(Quaternion r) {
  if (r.w() < 0.0) r.coeffs() = -r.coeffs();
  const Vector3 xyz = r.vec();
  const double s = xyz.norm();
  if (s < 1e-12) return 2.0 * xyz / r.w();
  return 2.0 * std::atan2(s, r.w()) / s * xyz;
}

}  // namespace moreau
