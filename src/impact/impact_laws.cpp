// Rigid impact laws (Brogliato 2014 §3); see impact_laws.hpp.
#include "moreau/impact/impact_laws.hpp"

#include <algorithm>
#include <cmath>

#include "moreau/analysis/kinetic_quasi_velocities.hpp"
#include "moreau/common/error.hpp"
#include "moreau/problems/friction_contact.hpp"
#include "moreau/problems/lcp.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"
#include "moreau/solvers/lcp/enumeration.hpp"
#include "moreau/solvers/lcp/lemke.hpp"

namespace moreau {

namespace {

// Checks the state and fills the pre-impact part of the result.
ImpactResult begin(const ContactState& state, const char* law) {
  state.validate();
  for (const ContactConstraint& c : state.constraints)
    MOREAU_REQUIRE(c.kind == ConstraintKind::unilateral,
                   "the impact laws take unilateral contacts only; constraint '{}' is bilateral",
                   c.name);
  MOREAU_REQUIRE(state.M.rows() == state.dofs() && state.v.size() == state.dofs(),
                 "the state needs M (n×n) and q̇ (n) with n = {}", state.dofs());
  Eigen::LLT<Matrix> llt(state.M);
  MOREAU_REQUIRE(llt.info() == Eigen::Success,
                 "the impact laws need a positive definite mass matrix M");
  ImpactResult r;
  r.law = law;
  const Matrix W = state.normal_jacobian();
  r.normal_velocity_before = W.transpose() * state.v;
  r.kinetic_energy_before = 0.5 * state.v.dot(state.M * state.v);
  r.v_post = state.v;
  r.normal_impulse = Vector::Zero(state.size());
  if (state.size() > 0 && state.constraints.front().tangent.size() > 0) {
    const Matrix H = state.tangent_jacobian();
    r.tangential_velocity_before = H.transpose() * state.v;
    r.tangential_impulse = Vector::Zero(H.cols());
  }
  return r;
}

// Fills the post-impact part from q̇⁺ and sets the status (no_impact when no contact approaches).
void finish(const ContactState& state, ImpactResult& r) {
  const Matrix W = state.normal_jacobian();
  r.normal_velocity_after = W.transpose() * r.v_post;
  if (r.tangential_velocity_before.size() > 0)
    r.tangential_velocity_after = state.tangent_jacobian().transpose() * r.v_post;
  r.kinetic_energy_after = 0.5 * r.v_post.dot(state.M * r.v_post);
  if (!all_finite(r.v_post)) {
    r.status = ImpactStatus::numerical_failure;
    r.message = "the post-impact velocity is not finite";
  }
}

// When no contact approaches (every u_n,i⁻ ≥ 0), completes r as no_impact with q̇⁺ = q̇⁻ and
// returns true: the law has nothing to do.
bool no_impact(const ContactState& state, ImpactResult& r) {
  if (r.normal_velocity_before.size() > 0 && r.normal_velocity_before.minCoeff() < 0.0)
    return false;
  r.status = ImpactStatus::no_impact;
  r.message = "no contact approaches (every normal velocity ∇h_iᵀq̇⁻ is ≥ 0)";
  finish(state, r);
  return true;
}

Vector restitution_vector(const ContactState& state) {
  Vector e(state.size());
  for (Index i = 0; i < state.size(); ++i)
    e[i] = state.constraints[static_cast<size_t>(i)].restitution;
  return e;
}

// LCP(A, b) with a unique solution expected: Lemke, enumeration as a fallback for small sizes.
LcpResult solve_small_lcp(const Matrix& A, const Vector& b) {
  Lcp lcp{A, b};
  LcpResult res = solve_lemke(lcp);
  if (res.converged() && lcp_residual(lcp, res.z) <= 1e-9) return res;
  if (b.size() <= 12) {
    LcpEnumerationResult en = enumerate_lcp(lcp);
    if (!en.solutions.empty()) {
      res.z = en.solutions.front();
      res.w = A * res.z + b;
      res.status = Status::converged;
      res.residual = lcp_residual(lcp, res.z);
    }
  }
  return res;
}

// Admissibility of a frictionless outcome: p_n ≥ 0 and u_n⁺ ≥ 0 (relative tolerance).
void check_admissible(ImpactResult& r) {
  const double scale = std::max(1.0, r.normal_velocity_before.cwiseAbs().maxCoeff());
  const double pscale = std::max(1e-300, r.normal_impulse.cwiseAbs().maxCoeff());
  if (r.normal_impulse.size() > 0 && r.normal_impulse.minCoeff() < -1e-10 * pscale) {
    Index i;
    r.normal_impulse.minCoeff(&i);
    r.status = ImpactStatus::inadmissible;
    r.message =
        fmt::format("contact {} receives a negative normal impulse {} (kinetic inconsistency)", i,
                    r.normal_impulse[i]);
  } else if (r.normal_velocity_after.size() > 0 &&
             r.normal_velocity_after.minCoeff() < -1e-10 * scale) {
    Index i;
    r.normal_velocity_after.minCoeff(&i);
    r.status = ImpactStatus::inadmissible;
    r.message = fmt::format("contact {} still approaches after the impact (u_n⁺ = {})", i,
                            r.normal_velocity_after[i]);
  }
}

}  // namespace

ImpactResult newton_impact(const ContactState& state) {
  ImpactResult r = begin(state, "newton");
  if (no_impact(state, r)) return r;
  const Matrix W = state.normal_jacobian();
  const Eigen::LLT<Matrix> llt(state.M);
  const Vector e = restitution_vector(state);
  std::vector<Index> A;
  for (Index i = 0; i < state.size(); ++i)
    if (r.normal_velocity_before[i] < 0.0) A.push_back(i);
  const Index a = static_cast<Index>(A.size());
  Matrix WA(W.rows(), a);
  Vector rhs(a);
  for (Index k = 0; k < a; ++k) {
    WA.col(k) = W.col(A[k]);
    rhs[k] = -(1.0 + e[A[k]]) * r.normal_velocity_before[A[k]];
  }
  const Matrix MinvWA = llt.solve(WA);
  const Matrix D = WA.transpose() * MinvWA;
  Eigen::FullPivLU<Matrix> lu(D);
  if (!lu.isInvertible()) {
    r.status = ImpactStatus::numerical_failure;
    r.message = "the Delassus matrix of the approaching contacts is singular";
    finish(state, r);
    return r;
  }
  const Vector pA = lu.solve(rhs);
  for (Index k = 0; k < a; ++k) r.normal_impulse[A[k]] = pA[k];
  r.v_post = state.v + MinvWA * pA;
  r.status = ImpactStatus::resolved;
  finish(state, r);
  if (r.status == ImpactStatus::resolved) check_admissible(r);
  return r;
}

ImpactResult moreau_impact(const ContactState& state) {
  ImpactResult r = begin(state, "moreau");
  if (no_impact(state, r)) return r;
  const KineticQuasiVelocities k = kinetic_quasi_velocities(state.M, state.normal_jacobian());
  const Vector e = restitution_vector(state);
  const Vector qn = r.normal_velocity_before.cwiseQuotient(k.rho);  // q̇_norm⁻
  const Vector b = (Vector::Ones(e.size()) + e).cwiseProduct(qn);
  const LcpResult lcp = solve_small_lcp(k.G, b);
  r.residual = lcp.z.size() == b.size() ? lcp_residual(Lcp{k.G, b}, lcp.z) : INFINITY;
  if (!(r.residual <= 1e-9)) {
    r.status = ImpactStatus::not_converged;
    r.message = fmt::format("the impact LCP was not solved (residual {})", r.residual);
    finish(state, r);
    return r;
  }
  const Vector pbar = lcp.z.cwiseMax(0.0);
  r.normal_impulse = pbar.cwiseQuotient(k.rho);
  r.v_post = state.v + k.n_q * pbar;
  r.status = ImpactStatus::resolved;
  finish(state, r);
  return r;
}

ImpactResult poisson_impact(const ContactState& state) {
  ImpactResult r = begin(state, "poisson");
  if (no_impact(state, r)) return r;
  const Matrix W = state.normal_jacobian();
  const Eigen::LLT<Matrix> llt(state.M);
  const Matrix MinvW = llt.solve(W);
  const Matrix D = W.transpose() * MinvW;  // Delassus W_nn
  const Vector e = restitution_vector(state);
  const LcpResult c = solve_small_lcp(D, r.normal_velocity_before);
  const double rc = c.z.size() ? lcp_residual(Lcp{D, r.normal_velocity_before}, c.z) : INFINITY;
  if (!(rc <= 1e-9)) {
    r.status = ImpactStatus::not_converged;
    r.message = fmt::format("the compression LCP was not solved (residual {})", rc);
    finish(state, r);
    return r;
  }
  const Vector pc = c.z.cwiseMax(0.0);
  const Vector uc = r.normal_velocity_before + D * pc;
  const Vector b = uc + D * e.cwiseProduct(pc);
  const LcpResult x = solve_small_lcp(D, b);
  const double rx = x.z.size() ? lcp_residual(Lcp{D, b}, x.z) : INFINITY;
  if (!(rx <= 1e-9)) {
    r.status = ImpactStatus::not_converged;
    r.message = fmt::format("the restitution LCP was not solved (residual {})", rx);
    finish(state, r);
    return r;
  }
  r.residual = std::max(rc, rx);
  r.normal_impulse = pc + e.cwiseProduct(pc) + x.z.cwiseMax(0.0);
  r.v_post = state.v + MinvW * r.normal_impulse;
  r.status = ImpactStatus::resolved;
  finish(state, r);
  return r;
}

Matrix frictionless_restitution_matrix(const Matrix& E_nn, Index dofs) {
  MOREAU_REQUIRE(E_nn.rows() == E_nn.cols() && E_nn.rows() <= dofs,
                 "E_nn must be square with at most n = {} rows, got {}×{}", dofs, E_nn.rows(),
                 E_nn.cols());
  Matrix E = Matrix::Zero(dofs, dofs);
  E.topLeftCorner(E_nn.rows(), E_nn.rows()) = E_nn;
  E.bottomRightCorner(dofs - E_nn.rows(), dofs - E_nn.rows()) =
      -Matrix::Identity(dofs - E_nn.rows(), dofs - E_nn.rows());
  return E;
}

ImpactResult restitution_matrix_impact(const ContactState& state, const Matrix& E,
                                       bool with_friction) {
  ImpactResult r = begin(state, "restitution_matrix");
  const Index n = state.dofs();
  MOREAU_REQUIRE(E.rows() == n && E.cols() == n && all_finite(E),
                 "the restitution matrix must be finite and n×n with n = {}, got {}×{}", n,
                 E.rows(), E.cols());
  if (no_impact(state, r)) return r;
  const Matrix W = state.normal_jacobian();
  const KineticQuasiVelocities k = kinetic_quasi_velocities(state.M, W);
  const Vector vminus = k.to_quasi(state.v);
  r.v_post = k.from_quasi(-E * vminus);
  // Impulse recovery and range check (56): M Δq̇ ∈ R([W H_T]).
  const Vector rhs = state.M * (r.v_post - state.v);
  Matrix C = W;
  if (with_friction && r.tangential_impulse.size() > 0) {
    const Matrix H = state.tangent_jacobian();
    C.conservativeResize(Eigen::NoChange, W.cols() + H.cols());
    C.rightCols(H.cols()) = H;
  }
  const Vector x = C.completeOrthogonalDecomposition().solve(rhs);
  r.residual = (C * x - rhs).norm() / std::max(rhs.norm(), 1e-300);
  r.normal_impulse = x.head(W.cols());
  if (C.cols() > W.cols()) r.tangential_impulse = x.tail(C.cols() - W.cols());
  r.status = ImpactStatus::resolved;
  finish(state, r);
  if (r.status != ImpactStatus::resolved) return r;
  if (r.residual > 1e-9 && rhs.norm() > 0.0) {
    r.status = ImpactStatus::inadmissible;
    r.message = fmt::format(
        "range check (56) fails: no impulse W p_n{} produces this jump (relative residual {})",
        with_friction ? " + H_T p_t" : "", r.residual);
    return r;
  }
  check_admissible(r);
  return r;
}

Vector single_contact_frictional_closed_form(const Vector& u_t, double u_n, double mu, double e_n,
                                             double e_t, double w_ratio) {
  MOREAU_REQUIRE(u_n <= 0.0, "the closed form needs an approaching contact, got u_n = {}", u_n);
  MOREAU_REQUIRE(mu >= 0.0 && w_ratio > 0.0, "need mu ≥ 0 and w_t/w_n > 0, got {} and {}", mu,
                 w_ratio);
  const double P = mu * w_ratio * (1.0 + e_n) * std::abs(u_n);
  if (P == 0.0) return u_t;
  Vector x = (1.0 + e_t) * u_t / P;
  const double nx = x.norm();
  if (nx > 1.0) x /= nx;
  return u_t - P * x;
}

namespace {

// Mode enumeration for planar contacts (d = 2): per contact 0 separate, 1 stick, 2 slip with
// ũ_t > 0 (r_t = −μ r_n), 3 slip with ũ_t < 0 (r_t = +μ r_n).
std::vector<Vector> enumerate_planar(const Matrix& Wl, const Vector& q, const Vector& mu,
                                     double tol) {
  const Index m = mu.size();
  std::vector<Vector> sols;
  long total = 1;
  for (Index i = 0; i < m; ++i) total *= 4;
  const double scale = std::max(1.0, q.cwiseAbs().maxCoeff());
  for (long code = 0; code < total; ++code) {
    Matrix A = Matrix::Zero(2 * m, 2 * m);
    Vector b = Vector::Zero(2 * m);
    std::vector<int> mode(static_cast<size_t>(m));
    long c = code;
    for (Index i = 0; i < m; ++i, c /= 4) {
      const int md = static_cast<int>(c % 4);
      mode[static_cast<size_t>(i)] = md;
      if (md == 0) {
        A(2 * i, 2 * i) = 1.0;
        A(2 * i + 1, 2 * i + 1) = 1.0;
      } else {
        A.row(2 * i) = Wl.row(2 * i);
        b[2 * i] = -q[2 * i];
        if (md == 1) {
          A.row(2 * i + 1) = Wl.row(2 * i + 1);
          b[2 * i + 1] = -q[2 * i + 1];
        } else {
          A(2 * i + 1, 2 * i + 1) = 1.0;
          A(2 * i + 1, 2 * i) = (md == 2 ? 1.0 : -1.0) * mu[i];
        }
      }
    }
    Eigen::FullPivLU<Matrix> lu(A);
    if (!lu.isInvertible()) continue;
    const Vector r = lu.solve(b);
    const Vector u = Wl * r + q;
    const double rs = std::max(1e-300, r.cwiseAbs().maxCoeff());
    bool ok = true;
    for (Index i = 0; i < m && ok; ++i) {
      const int md = mode[static_cast<size_t>(i)];
      if (md == 0) {
        ok = u[2 * i] >= -tol * scale;
      } else {
        ok = r[2 * i] >= -tol * rs;
        if (md == 1) ok = ok && std::abs(r[2 * i + 1]) <= mu[i] * r[2 * i] + tol * rs;
        if (md == 2) ok = ok && u[2 * i + 1] >= -tol * scale;
        if (md == 3) ok = ok && u[2 * i + 1] <= tol * scale;
      }
    }
    if (!ok) continue;
    bool dup = false;
    for (const Vector& s : sols)
      dup = dup || (s - r).cwiseAbs().maxCoeff() <= 1e-8 * std::max(1.0, rs);
    if (!dup) sols.push_back(r);
  }
  return sols;
}

}  // namespace

ImpactResult frictional_impact(const ContactState& state,
                               const FrictionalImpactSettings& settings) {
  ImpactResult r = begin(state, "frictional");
  const Index m = state.size();
  const int d = state.dimension;
  for (const ContactConstraint& c : state.constraints)
    MOREAU_REQUIRE(c.tangent.cols() == d - 1, "contact '{}' needs {} tangent columns, has {}",
                   c.name, d - 1, c.tangent.cols());
  Vector et = settings.e_t.size() ? settings.e_t : Vector::Zero(m);
  MOREAU_REQUIRE(et.size() == m, "e_t needs one value per contact ({}), got {}", m, et.size());
  for (Index i = 0; i < m; ++i)
    MOREAU_REQUIRE(et[i] >= -1.0 && et[i] <= 1.0, "e_t of contact {} must lie in [-1, 1], got {}",
                   i, et[i]);
  if (no_impact(state, r)) return r;
  // Local Jacobian, normal first per contact: columns [∇h_i, H_t,i].
  Matrix H(state.dofs(), d * m);
  for (Index i = 0; i < m; ++i) {
    const ContactConstraint& c = state.constraints[static_cast<size_t>(i)];
    H.col(d * i) = c.normal;
    H.middleCols(d * i + 1, d - 1) = c.tangent;
  }
  const Eigen::LLT<Matrix> llt(state.M);
  const Matrix MinvH = llt.solve(H);
  const Matrix Wl = H.transpose() * MinvH;
  const Vector um = H.transpose() * state.v;
  Vector q(d * m), mu(m);
  for (Index i = 0; i < m; ++i) {
    const ContactConstraint& c = state.constraints[static_cast<size_t>(i)];
    mu[i] = c.mu;
    q[d * i] = (1.0 + c.restitution) * um[d * i];
    q.segment(d * i + 1, d - 1) = (1.0 + et[i]) * um.segment(d * i + 1, d - 1);
  }
  bool enumerate = settings.method == FrictionalImpactMethod::enumeration ||
                   (settings.method == FrictionalImpactMethod::automatic && d == 2 && m <= 6);
  MOREAU_REQUIRE(!(enumerate && d != 2), "mode enumeration needs planar contacts (dimension 2)");
  MOREAU_REQUIRE(!(enumerate && m > 10), "mode enumeration is limited to 10 contacts, got {}", m);
  Vector rl;
  if (enumerate) {
    const std::vector<Vector> sols = enumerate_planar(Wl, q, mu, 1e-10);
    r.solutions = static_cast<int>(sols.size());
    if (sols.empty()) {
      r.status = ImpactStatus::inadmissible;
      r.message = "no mode of the frictional impact law has a solution";
      finish(state, r);
      return r;
    }
    rl = sols.front();
  } else {
    FrictionContactProblem p;
    p.dimension = d;
    p.W = Wl.sparseView();
    p.q = q;
    p.mu = mu;
    FrictionContactSettings fs;
    fs.tolerance = settings.tolerance;
    const FrictionContactResult res = solve_friction_contact(p, settings.solver, fs);
    rl = res.r;
    if (rl.size() != d * m || !res.converged()) {
      r.status = ImpactStatus::not_converged;
      r.message = fmt::format("the frictional-contact solver '{}' did not converge ({})",
                              res.solver, res.message);
      finish(state, r);
      return r;
    }
  }
  {
    FrictionContactProblem p;
    p.dimension = d;
    p.W = Wl.sparseView();
    p.q = q;
    p.mu = mu;
    r.residual = friction_contact_residual(p, rl);
  }
  for (Index i = 0; i < m; ++i) {
    r.normal_impulse[i] = rl[d * i];
    r.tangential_impulse.segment(i * (d - 1), d - 1) = rl.segment(d * i + 1, d - 1);
  }
  r.v_post = state.v + MinvH * rl;
  r.status = ImpactStatus::resolved;
  finish(state, r);
  return r;
}

}  // namespace moreau
