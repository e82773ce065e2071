#pragma once
// The generalized Jacobian of the Fischer–Burmeister function shared by the LCP and MLCP Newton
// solvers (not public API).
#include <cmath>

#include "moreau/common/types.hpp"

namespace moreau::solver_detail {

// For φ(z, w) = √(z² + w²) − z − w componentwise, −∂φ/∂z = a = 1 − z/r and −∂φ/∂w = b = 1 − w/r
// with r = √(z² + w²); at z = w = 0 the element a = b = 1 − 1/√2 of Clarke's generalized
// Jacobian is taken (De Luca, Facchinei, Kanzow 1996). z, w, a and b have one size.
template <typename Z, typename W>
void fischer_burmeister_jacobian(const Z& z, const W& w, Vector& a, Vector& b) {
  const double corner = 1.0 - 1.0 / std::sqrt(2.0);
  for (Index i = 0; i < a.size(); ++i) {
    const double r = std::hypot(z[i], w[i]);
    a[i] = r > 1e-300 ? 1.0 - z[i] / r : corner;
    b[i] = r > 1e-300 ? 1.0 - w[i] / r : corner;
  }
}

}  // namespace moreau::solver_detail
