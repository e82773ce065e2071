#pragma once
// Kinetic quasi-velocities (Brogliato 2014 §2, (13)–(17); docs/math/quasi_velocities.md).
//
// With M ≻ 0 (n×n) and W = [∇h_1 … ∇h_{m+p}] (n×(m+p), full column rank; the FIRST m columns are
// bilateral, the remaining p unilateral):
//   ρ_i   = ‖∇h_i‖_{M⁻¹} = √(∇h_iᵀ M⁻¹ ∇h_i)
//   n_q   = M⁻¹ W diag(1/ρ)                        (n_{q,i}ᵀ M n_{q,i} = 1)
//   N     = n_qᵀ M n_q = diag(1/ρ) Wᵀ M⁻¹ W diag(1/ρ)   (unit diagonal, SPD)
//   θ_ij  = π − arccos(N_ij)                       (kinetic angles, θ_ii = π)
//   G     = N_uu − N_ub N_bb⁻¹ N_bu                (Schur complement, p×p; G = N when m = 0)
//   t_q   : n×(n−m−p), t_qᵀ W = 0, t_qᵀ M t_q = I  (M-orthonormal tangent basis; not unique: ker Wᵀ
//           from the SVD, M-orthonormalised by Cholesky — moreau's choice)
//   Ξ     = [n_qᵀ; t_qᵀ] (n×n),   v = Ξ M q̇ = (q̇_norm; q̇_tan),   q̇_norm,i = ∇h_iᵀ q̇ / ρ_i
//   D     = diag(D_n, D_t) = diag(N⁻¹, (t_qᵀMt_q)⁻¹) = (Ξ M Ξᵀ)⁻¹
//   q̇     = Ξᵀ D v                                  (Brogliato 2014 below (68) drops D)
//   T     = ½ q̇ᵀ M q̇ = ½ q̇_normᵀ D_n q̇_norm + ½ q̇_tanᵀ D_t q̇_tan = T_norm + T_tan
//   (with bilateral constraints satisfied, q̇_norm^b = 0 and T_norm = ½ q̇_norm^{uT} G⁻¹ q̇_norm^u)
#include <vector>

#include "moreau/common/types.hpp"
#include "moreau/model/contact_state.hpp"

namespace moreau {

// Kinetic energy split into its normal and tangential parts (J).
struct EnergySplit {
  double total = 0;       // ½ q̇ᵀ M q̇, J
  double normal = 0;      // ½ q̇_normᵀ D_n q̇_norm, J
  double tangential = 0;  // ½ q̇_tanᵀ D_t q̇_tan, J
};

// Kinetic quasi-velocities of a system at a state (transformation and split).
struct KineticQuasiVelocities {
  Index bilateral_count = 0;  // m
  Matrix M;                   // n×n, kg (generalized)
  Matrix W;                   // n×(m+p), the constraint normals ∇h (bilateral first)
  Vector rho;                 // m+p, ρ_i
  Matrix n_q;                 // n×(m+p)
  Matrix N;                   // (m+p)×(m+p), unit diagonal
  Matrix angles;              // (m+p)×(m+p), θ_ij, rad
  Matrix G;                   // p×p, Schur complement of N_bb
  Matrix t_q;                 // n×(n−m−p), M-orthonormal
  Matrix Xi;                  // n×n, Ξ = [n_qᵀ; t_qᵀ]
  Matrix D_n;                 // (m+p)×(m+p), N⁻¹
  Matrix D_t;                 // (n−m−p)×(n−m−p), (t_qᵀ M t_q)⁻¹ (= I)
  // Index of each column of W in the ContactState it came from (identity for the matrix overload).
  std::vector<Index> constraint_index;

  // m + p, the number of constraints (columns of W).
  Index size() const { return W.cols(); }
  // v = Ξ M q̇ (n). Throws on a wrong size.
  Vector to_quasi(const Vector& qdot) const;
  // q̇ = Ξᵀ D v (n), the exact inverse of to_quasi.
  Vector from_quasi(const Vector& v) const;
  // T = T_norm + T_tan for the generalized velocity q̇.
  EnergySplit energy(const Vector& qdot) const;
  // n_qᵀ H_T: the coupling of tangential forces into the normal quasi-velocities
  // ((m+p)×k for H_T n×k); 0 when tangential and normal directions are M⁻¹-orthogonal.
  Matrix normal_tangent_coupling(const Matrix& H_T) const;
};

// Throws std::invalid_argument if M is not symmetric positive definite, sizes disagree, entries
// are not finite, bilateral_count ∉ [0, m+p], m+p > n, or W is column-rank deficient
// (rank test of pseudo_inverse.hpp: W is refused when σ_min(W) ≤ 1e-10 σ_max(W)).
KineticQuasiVelocities kinetic_quasi_velocities(const Matrix& M, const Matrix& W,
                                                Index bilateral_count = 0);

// From a ContactState: the bilateral constraints plus the ACTIVE unilateral ones
// (|gap| ≤ gap_tolerance), reordered bilateral first; constraint_index maps back.
KineticQuasiVelocities kinetic_quasi_velocities(const ContactState& state,
                                                double gap_tolerance = 1e-9);

}  // namespace moreau
