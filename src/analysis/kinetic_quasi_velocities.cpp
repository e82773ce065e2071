#include "moreau/analysis/kinetic_quasi_velocities.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "moreau/common/error.hpp"
#include "moreau/linalg/matrix_class.hpp"
#include "moreau/linalg/pseudo_inverse.hpp"

namespace moreau {

// Brogliato 2014 §2.1, (13)–(17). The tangent basis (not unique; the paper leaves its choice open)
// is ker Wᵀ from the SVD, then M-orthonormalised (t ← t L⁻ᵀ, L Lᵀ = tᵀ M t).
KineticQuasiVelocities kinetic_quasi_velocities(const Matrix& M, const Matrix& W, Index m) {
  const Index n = M.rows();
  MOREAU_REQUIRE(M.cols() == n && n > 0,
                 "kinetic quasi-velocities: M must be square and non-empty, got {}×{}", M.rows(),
                 M.cols());
  MOREAU_REQUIRE(W.rows() == n, "kinetic quasi-velocities: W must have n = {} rows, got {}", n,
                 W.rows());
  MOREAU_REQUIRE(all_finite(M) && all_finite(W),
                 "kinetic quasi-velocities: M or W has a NaN or infinite entry");
  MOREAU_REQUIRE(is_symmetric(M), "kinetic quasi-velocities: M must be symmetric");
  const Index k = W.cols();
  MOREAU_REQUIRE(k <= n, "kinetic quasi-velocities: {} constraints exceed n = {} coordinates", k,
                 n);
  MOREAU_REQUIRE(m >= 0 && m <= k,
                 "kinetic quasi-velocities: bilateral_count = {} must lie in [0, {}]", m, k);
  Eigen::LLT<Matrix> llt(M);
  MOREAU_REQUIRE(
      llt.info() == Eigen::Success && is_positive_definite(M, 1e-12),
      "kinetic quasi-velocities: M must be positive definite (Cholesky failed or λ_min(M) = {})",
      min_symmetric_eigenvalue(M));
  if (k > 0) {
    const double smax = largest_singular_value(W), smin = smallest_singular_value(W);
    MOREAU_REQUIRE(
        smax > 0 && smin > kRankTolerance * smax,
        "kinetic quasi-velocities: W = ∇h must have full column rank {} (σ_min/σ_max = {})", k,
        smax > 0 ? smin / smax : 0.0);
  }
  KineticQuasiVelocities out;
  out.bilateral_count = m;
  out.M = M;
  out.W = W;
  // (no constraint: nothing to solve; Eigen's triangular solve would touch an empty matrix's
  // null data, found by fuzz_analysis_input under UBSan)
  const Matrix MinvW = k > 0 ? Matrix(llt.solve(W)) : Matrix(n, 0);
  out.rho = (W.transpose() * MinvW).diagonal().cwiseSqrt();
  const Vector inv_rho = out.rho.cwiseInverse();
  out.n_q = MinvW * inv_rho.asDiagonal();
  out.N = inv_rho.asDiagonal() * (W.transpose() * MinvW) * inv_rho.asDiagonal();
  out.N = 0.5 * (out.N + out.N.transpose());
  out.N.diagonal().setOnes();
  out.angles.resize(k, k);
  for (Index i = 0; i < k; ++i)
    for (Index j = 0; j < k; ++j)
      out.angles(i, j) = std::numbers::pi - std::acos(std::clamp(out.N(i, j), -1.0, 1.0));
  const Index p = k - m;
  if (m == 0) {
    out.G = out.N;
  } else {
    const Matrix Nbb = out.N.topLeftCorner(m, m);
    out.G = out.N.bottomRightCorner(p, p) -
            out.N.bottomLeftCorner(p, m) * Nbb.ldlt().solve(out.N.topRightCorner(m, p));
  }
  // Tangent basis.
  Matrix T = k > 0 ? null_space(W.transpose()) : Matrix(Matrix::Identity(n, n));
  if (T.cols() > 0) {
    const Matrix TMT = T.transpose() * M * T;
    Eigen::LLT<Matrix> l2(TMT);
    const Matrix L = l2.matrixL();
    out.t_q = L.triangularView<Eigen::Lower>().solve(T.transpose()).transpose();
  } else {
    out.t_q = Matrix(n, 0);
  }
  out.Xi.resize(n, n);
  out.Xi.topRows(k) = out.n_q.transpose();
  out.Xi.bottomRows(n - k) = out.t_q.transpose();
  out.D_n = out.N.ldlt().solve(Matrix::Identity(k, k));
  const Matrix tMt = out.t_q.transpose() * M * out.t_q;
  out.D_t = tMt.ldlt().solve(Matrix::Identity(n - k, n - k));
  out.constraint_index.resize(k);
  for (Index i = 0; i < k; ++i) out.constraint_index[i] = i;
  return out;
}

KineticQuasiVelocities kinetic_quasi_velocities(const ContactState& state, double gap_tolerance) {
  state.validate();
  std::vector<Index> order;
  for (Index i = 0; i < state.size(); ++i)
    if (state.constraints[i].kind == ConstraintKind::bilateral) order.push_back(i);
  const Index m = static_cast<Index>(order.size());
  for (Index i = 0; i < state.size(); ++i)
    if (state.constraints[i].kind == ConstraintKind::unilateral &&
        std::abs(state.constraints[i].gap) <= gap_tolerance)
      order.push_back(i);
  Matrix W(state.dofs(), order.size());
  for (size_t j = 0; j < order.size(); ++j) W.col(j) = state.constraints[order[j]].normal;
  auto out = kinetic_quasi_velocities(state.M, W, m);
  out.constraint_index = order;
  return out;
}

Vector KineticQuasiVelocities::to_quasi(const Vector& qdot) const {
  MOREAU_REQUIRE(qdot.size() == M.rows(), "to_quasi: q̇ must have {} entries, got {}", M.rows(),
                 qdot.size());
  return Xi * (M * qdot);
}

Vector KineticQuasiVelocities::from_quasi(const Vector& v) const {
  MOREAU_REQUIRE(v.size() == M.rows(), "from_quasi: v must have {} entries, got {}", M.rows(),
                 v.size());
  const Index k = size();
  Vector Dv(v.size());
  Dv.head(k) = D_n * v.head(k);
  Dv.tail(v.size() - k) = D_t * v.tail(v.size() - k);
  return Xi.transpose() * Dv;
}

EnergySplit KineticQuasiVelocities::energy(const Vector& qdot) const {
  const Vector v = to_quasi(qdot);
  const Index k = size();
  EnergySplit e;
  e.total = 0.5 * qdot.dot(M * qdot);
  e.normal = 0.5 * v.head(k).dot(D_n * v.head(k));
  e.tangential = 0.5 * v.tail(v.size() - k).dot(D_t * v.tail(v.size() - k));
  return e;
}

Matrix KineticQuasiVelocities::normal_tangent_coupling(const Matrix& H_T) const {
  MOREAU_REQUIRE(H_T.rows() == M.rows(), "normal_tangent_coupling: H_T must have {} rows, got {}",
                 M.rows(), H_T.rows());
  return n_q.transpose() * H_T;
}

}  // namespace moreau
