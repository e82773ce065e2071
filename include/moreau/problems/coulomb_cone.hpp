#pragma once
// The Coulomb cone K_μ = {(r_n, r_T) : ‖r_T‖ ≤ μ r_n} of one contact, normal first, and the
// Euclidean projection onto it (closed form, e.g. Acary & Brogliato 2008, §13.3):
//   ‖r_T‖ ≤ μ r_n, r_n ≥ 0  → r       (r_n ≥ 0 tested: with μ = 0, ‖r_T‖ = 0 ≤ μ r_n = −0 would
//                                      hold for r_n < 0 in IEEE arithmetic)
//   μ‖r_T‖ ≤ −r_n           → 0                      (r in the polar cone)
//   otherwise               → (α, μ α r_T/‖r_T‖),    α = (r_n + μ‖r_T‖)/(1 + μ²)
// The dual cone is K_{1/μ}; the natural map of the frictional contact problem uses K_μ only.
#include <cmath>

#include "moreau/common/types.hpp"

namespace moreau {

// Projects the 3-vector x = (x_n, x_t1, x_t2) onto K_μ (μ ≥ 0).
inline Vector3 project_on_coulomb_cone(const Vector3& x, double mu) {
  const double xn = x[0];
  const double tn = std::sqrt(x[1] * x[1] + x[2] * x[2]);
  if (xn >= 0.0 && tn <= mu * xn) return x;  // x_n ≥ 0 first: for μ = 0, 0 ≤ μ x_n = −0 holds
  if (mu * tn <= -xn) return Vector3::Zero();
  const double alpha = (xn + mu * tn) / (1.0 + mu * mu);
  if (tn == 0.0) return Vector3(std::max(xn, 0.0), 0.0, 0.0);
  return Vector3(alpha, mu * alpha * x[1] / tn, mu * alpha * x[2] / tn);
}

// Projects the 2-vector x = (x_n, x_t) onto the planar cone |x_t| ≤ μ x_n.
inline Vector2 project_on_coulomb_cone(const Vector2& x, double mu) {
  const double xn = x[0];
  const double tn = std::abs(x[1]);
  if (xn >= 0.0 && tn <= mu * xn) return x;  // x_n ≥ 0 first: for μ = 0, 0 ≤ μ x_n = −0 holds
  if (mu * tn <= -xn) return Vector2::Zero();
  const double alpha = (xn + mu * tn) / (1.0 + mu * mu);
  if (tn == 0.0) return Vector2(std::max(xn, 0.0), 0.0);
  return Vector2(alpha, mu * alpha * (x[1] > 0 ? 1.0 : -1.0));
}

}  // namespace moreau
