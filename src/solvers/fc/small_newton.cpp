// A semismooth Newton finish for small problems (small_newton.hpp).
#include "small_newton.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>

#include "alart_curnier.hpp"
#include "moreau/problems/relative_error.hpp"

namespace moreau::fc_detail {
namespace {

constexpr int kMax = static_cast<int>(kSmallNewtonPolishRows);
using SmallMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMax, kMax>;
using SmallVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMax, 1>;

// ½‖Φ(r, u)‖² and, when J is given, Φ in phi and J = A + B W (row block i: B_i W_i,: with A_i
// added on the diagonal block). D is the contact dimension, a template parameter so that the
// block products are of fixed size.
template <int D>
double merit(const FrictionContactProblem& p, const double* rho_n, const double* rho_t,
             const SmallMatrix& W, const SmallVector& r, const SmallVector& u, SmallVector* phi,
             SmallMatrix* J) {
  ContactLinearization L;
  double sum = 0.0;
  for (Index i = 0; i < p.contacts(); ++i) {
    alart_curnier(D, p.mu[i], rho_n[i], rho_t[i], r.data() + D * i, u.data() + D * i, L,
                  J != nullptr);
    sum += L.phi.head<D>().squaredNorm();
    if (!J) continue;
    phi->segment<D>(D * i) = L.phi.head<D>();
    J->middleRows<D>(D * i).noalias() = L.B.topLeftCorner<D, D>() * W.middleRows<D>(D * i);
    J->block<D, D>(D * i, D * i) += L.A.topLeftCorner<D, D>();
  }
  return 0.5 * sum;
}

double merit(const FrictionContactProblem& p, const double* rho_n, const double* rho_t,
             const SmallMatrix& W, const SmallVector& r, const SmallVector& u, SmallVector* phi,
             SmallMatrix* J) {
  return p.dimension == 3 ? merit<3>(p, rho_n, rho_t, W, r, u, phi, J)
                          : merit<2>(p, rho_n, rho_t, W, r, u, phi, J);
}

// friction_contact_residual on the small vectors (the same sum and scale, no copies).
double residual(const FrictionContactProblem& p, const SmallVector& r, const SmallVector& u) {
  const int d = p.dimension;
  double sum = 0.0;
  for (Index i = 0; i < p.contacts(); ++i) {
    const double e = friction_contact_local_error(d, p.mu[i], r.data() + d * i, u.data() + d * i);
    sum += e * e;
  }
  return relative_error(std::sqrt(sum), std::max({p.q.norm(), r.norm(), u.norm()}));
}

}  // namespace

bool small_newton_finish(const FrictionContactProblem& p, const std::vector<ContactBlock>& blocks,
                         double tolerance, int max_iterations, Vector& r_out, Vector& u_out,
                         double& e_out, int& iterations) {
  iterations = 0;
  const int d = p.dimension;
  const Index nc = p.contacts(), m = d * nc;
  if (m > kSmallNewtonPolishRows || m == 0) return false;
  double rho_n[kMax], rho_t[kMax];
  for (Index i = 0; i < nc; ++i) diagonal_penalties(blocks[i].W, d, rho_n[i], rho_t[i]);
  SmallMatrix W = SmallMatrix::Zero(m, m), J(m, m);
  for (Index k = 0; k < m; ++k)
    for (SparseMatrix::InnerIterator it(p.W, k); it; ++it) W(it.row(), it.col()) = it.value();
  SmallVector r = r_out, u = u_out, phi(m), delta(m), Wdelta(m), r_trial(m), u_trial(m);
  for (int k = 1; k <= max_iterations; ++k) {
    const double theta = merit(p, rho_n, rho_t, W, r, u, &phi, &J);
    const Eigen::PartialPivLU<SmallMatrix> lu(J);
    delta = lu.solve(-phi);
    if (!delta.allFinite()) return false;
    Wdelta.noalias() = W * delta;
    bool accepted = false;
    double t = 1.0;
    for (int b = 0; b <= 20 && !accepted; ++b, t *= 0.5) {
      r_trial = r + t * delta;
      u_trial = u + t * Wdelta;
      accepted =
          merit(p, rho_n, rho_t, W, r_trial, u_trial, nullptr, nullptr) <= (1.0 - 2e-4 * t) * theta;
    }
    iterations = k;
    if (!accepted) return false;
    r.swap(r_trial);
    u.swap(u_trial);
    const double e = residual(p, r, u);
    if (!std::isfinite(e)) return false;
    if (e <= tolerance) {
      // certified on u = W r + q formed afresh, as the sweeps' own test
      Vector rr = r, uu = local_velocity(p, rr);
      const double fresh = friction_contact_residual(p, rr, uu);
      if (!(fresh <= tolerance)) continue;
      r_out = std::move(rr);
      u_out = std::move(uu);
      e_out = fresh;
      return true;
    }
  }
  return false;
}

}  // namespace moreau::fc_detail
