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

// J_r⁻¹(θ) = ∂ log(exp(θ) exp(δ))/∂δ at δ = 0, the inverse right Jacobian of SO(3) (Solà et al.
// 2018, eq. 144): 1 + ½[θ]× + (1/|θ|² − cot(|θ|/2)/(2|θ|)) [θ]×², the last factor 1/12 + |θ|²/720
// to fourth order near 0.
inline Matrix3 rotation_log_jacobian(const Vector3& theta) {
  const double angle = theta.norm();
  const Matrix3 T = skew(theta);
  const double c = angle < 1e-4 ? 1.0 / 12.0 + angle * angle / 720.0
                                : 1.0 / (angle * angle) - 0.5 / (angle * std::tan(0.5 * angle));
  return Matrix3::Identity() + 0.5 * T + c * T * T;
}

}  // namespace moreau
