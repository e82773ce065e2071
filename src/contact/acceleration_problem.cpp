#include "moreau/contact/acceleration_problem.hpp"

#include <cmath>
#include <utility>

#include "moreau/common/error.hpp"

namespace moreau {

std::vector<Index> active_constraints(const ContactState& s, const ActiveSetSettings& st) {
  MOREAU_REQUIRE(st.gap_tolerance >= 0.0 && st.velocity_tolerance >= 0.0,
                 "active set: tolerances must be ≥ 0, got gap {} and velocity {}", st.gap_tolerance,
                 st.velocity_tolerance);
  std::vector<Index> out;
  for (Index i = 0; i < s.size(); ++i) {
    const auto& c = s.constraints[i];
    if (c.kind == ConstraintKind::bilateral ||
        (std::abs(c.gap) <= st.gap_tolerance &&
         std::abs(c.normal.dot(s.v)) <= st.velocity_tolerance))
      out.push_back(i);
  }
  return out;
}

// M⁻¹B by Cholesky (M ≻ 0), else M⁺B by complete orthogonal decomposition.
Matrix mass_solve(const Matrix& M, const Matrix& B, bool* pd) {
  Eigen::LLT<Matrix> llt(M);
  bool ok = llt.info() == Eigen::Success;
  if (ok) {
    // Reject numerically singular factors (relative pivot below 1e-12).
    const Vector d = llt.matrixLLT().diagonal();
    ok = d.size() == 0 ||
         d.minCoeff() > 1e-6 * std::sqrt(std::max(1e-300, M.diagonal().cwiseAbs().maxCoeff()));
  }
  if (pd) *pd = ok;
  if (ok) return llt.solve(B);
  Eigen::CompleteOrthogonalDecomposition<Matrix> cod(M);
  return cod.pseudoInverse() * B;
}

AccelerationProblem build_acceleration_problem(const ContactState& s, const ActiveSetSettings& st) {
  return build_acceleration_problem(s, active_constraints(s, st), st.velocity_tolerance);
}

AccelerationProblem build_acceleration_problem(const ContactState& s, std::vector<Index> active,
                                               double velocity_tolerance) {
  s.validate();
  MOREAU_REQUIRE(velocity_tolerance >= 0.0,
                 "acceleration problem: velocity tolerance must be ≥ 0, got {}",
                 velocity_tolerance);
  for (std::size_t j = 0; j < active.size(); ++j)
    MOREAU_REQUIRE(active[j] >= 0 && active[j] < s.size() && (j == 0 || active[j] > active[j - 1]),
                   "acceleration problem: active constraint {} = {} is not an increasing index "
                   "below {}",
                   j, active[j], s.size());
  AccelerationProblem p;
  p.dimension = s.dimension;
  p.active = std::move(active);
  const Index n = s.dofs(), k = p.size(), d1 = s.dimension - 1;
  p.M = s.M;
  p.F = s.F;
  p.N.resize(n, k);
  p.T.resize(n, d1 * k);
  p.c_n.resize(k);
  p.c_t.resize(d1 * k);
  p.mu.resize(k);
  p.gamma.resize(k);
  p.kN.resize(k);
  p.kT.resize(d1 * k);
  p.normal_velocity.resize(k);
  p.tangent_velocity.resize(d1 * k);
  p.slip_direction = Matrix::Zero(d1, k);
  p.Q = Matrix::Zero(n, k);
  for (Index j = 0; j < k; ++j) {
    const auto& c = s.constraints[p.active[j]];
    p.bilateral.push_back(c.kind == ConstraintKind::bilateral);
    p.N.col(j) = c.normal;
    p.T.middleCols(d1 * j, d1) = c.tangent;
    p.c_n[j] = c.normal_bias;
    p.c_t.segment(d1 * j, d1) = c.tangent_bias;
    p.mu[j] = c.mu;
    p.gamma[j] = c.gamma;
    p.normal_velocity[j] = c.normal.dot(s.v);
    p.kN[j] = 2.0 * c.baumgarte_alpha * p.normal_velocity[j] +
              c.baumgarte_beta * c.baumgarte_beta * c.gap;
    const Vector vt = c.tangent.transpose() * s.v;
    p.tangent_velocity.segment(d1 * j, d1) = vt;
    p.kT.segment(d1 * j, d1) = 2.0 * c.baumgarte_alpha * vt;
    const bool sl = vt.norm() > velocity_tolerance;
    p.sliding.push_back(sl);
    if (sl) {
      p.slip_direction.col(j) = vt / vt.norm();
      p.Q.col(j) = c.tangent * p.slip_direction.col(j);
    }
  }
  p.N_minus_muQ = p.N - p.Q * p.mu.asDiagonal();
  Matrix rhs(n, 1 + k + d1 * k + k);
  rhs << -p.F, p.N, p.T, p.N_minus_muQ;
  const Matrix X = mass_solve(p.M, rhs, &p.mass_positive_definite);
  p.free_acceleration = X.col(0);
  p.mass_inverse_N = X.middleCols(1, k);
  p.mass_inverse_T = X.middleCols(1 + k, d1 * k);
  const Matrix MiNQ = X.middleCols(1 + k + d1 * k, k);
  p.free_normal_acceleration = p.N.transpose() * p.free_acceleration + p.c_n;
  p.free_tangent_acceleration = p.T.transpose() * p.free_acceleration + p.c_t;
  p.delassus_nn = p.N.transpose() * p.mass_inverse_N;
  p.delassus_nt = p.N.transpose() * p.mass_inverse_T;
  p.delassus_tt = p.T.transpose() * p.mass_inverse_T;
  p.sliding_matrix = p.N.transpose() * MiNQ;
  return p;
}

}  // namespace moreau
