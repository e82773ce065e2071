#pragma once
// The Alart–Curnier function of one contact and its partial Jacobians (private to
// src/solvers/fc): the semismooth Newton solvers (newton.cpp) and the small dense Newton of
// hybrid's sweeps (small_newton.cpp) share it. The formula is in newton.hpp.
#include <algorithm>
#include <cmath>

#include "moreau/common/types.hpp"

namespace moreau::fc_detail {

// Per-contact value Φ_i and partial Jacobians A_i = ∂Φ_i/∂r_i, B_i = ∂Φ_i/∂u_i (d×d in the
// top-left of 3×3 matrices).
struct ContactLinearization {
  Vector3 phi = Vector3::Zero();
  Matrix3 A = Matrix3::Zero();
  Matrix3 B = Matrix3::Zero();
};

// The diagonal penalties of contact block W_i: ρ_n = 1/W_nn (1 where W_nn ≤ 0) and
// ρ_t = 1/max W_tt (ρ_n where that is not positive).
inline void diagonal_penalties(const Matrix3& Wi, int d, double& rho_n, double& rho_t) {
  const double wn = Wi(0, 0) > 0.0 ? Wi(0, 0) : 1.0;
  double wt = d == 3 ? std::max(Wi(1, 1), Wi(2, 2)) : Wi(1, 1);
  if (!(wt > 0.0)) wt = wn;
  rho_n = 1.0 / wn;
  rho_t = 1.0 / wt;
}

// Alart–Curnier function of one contact (header formula).
inline void alart_curnier(int d, double mu, double rho_n, double rho_t, const double* r,
                          const double* u, ContactLinearization& L, bool with_jacobian) {
  const double xn = r[0] - rho_n * u[0];
  if (with_jacobian) {
    L.A.setZero();
    L.B.setZero();
  }
  if (xn > 0.0) {
    L.phi[0] = rho_n * u[0];
    if (with_jacobian) L.B(0, 0) = rho_n;
  } else {
    L.phi[0] = r[0];
    if (with_jacobian) L.A(0, 0) = 1.0;
  }
  const double R = mu * std::max(0.0, xn);
  if (d == 3) {
    const Vector2 y(r[1] - rho_t * u[1], r[2] - rho_t * u[2]);
    const double ny = y.norm();
    if (ny <= R) {
      L.phi[1] = rho_t * u[1];
      L.phi[2] = rho_t * u[2];
      if (with_jacobian) L.B.block<2, 2>(1, 1) = rho_t * Matrix2::Identity();
    } else {
      const Vector2 yh = y / ny;
      L.phi[1] = r[1] - R * yh[0];
      L.phi[2] = r[2] - R * yh[1];
      if (with_jacobian) {
        const Matrix2 P = (R / ny) * (Matrix2::Identity() - yh * yh.transpose());
        L.A.block<2, 2>(1, 1) = Matrix2::Identity() - P;
        L.B.block<2, 2>(1, 1) = rho_t * P;
        if (xn > 0.0) {
          L.A.block<2, 1>(1, 0) = -mu * yh;
          L.B.block<2, 1>(1, 0) = mu * rho_n * yh;
        }
      }
    }
  } else {
    const double y = r[1] - rho_t * u[1];
    if (std::abs(y) <= R) {
      L.phi[1] = rho_t * u[1];
      if (with_jacobian) L.B(1, 1) = rho_t;
    } else {
      const double s = y > 0.0 ? 1.0 : -1.0;
      L.phi[1] = r[1] - R * s;
      if (with_jacobian) {
        L.A(1, 1) = 1.0;
        if (xn > 0.0) {
          L.A(1, 0) = -mu * s;
          L.B(1, 0) = mu * rho_n * s;
        }
      }
    }
  }
}

}  // namespace moreau::fc_detail
