#include "moreau/solvers/fc/admm.hpp"

#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <cmath>

#include "detail.hpp"
#include "moreau/problems/coulomb_cone.hpp"

namespace moreau {

namespace {

using ColMajorSparse = Eigen::SparseMatrix<double, Eigen::ColMajor>;

// Factorization of W + ρ I, LDLᵀ when W is symmetric, LU otherwise.
class ShiftedSolver {
 public:
  explicit ShiftedSolver(const SparseMatrix& W) : W_(W) {
    const SparseMatrix Wt = W.transpose();
    symmetric_ = (SparseMatrix(W - Wt)).norm() <= 1e-12 * std::max(1.0, W.norm());
    ColMajorSparse I(W.rows(), W.cols());
    I.setIdentity();
    pattern_ = W_ + I;
  }
  bool factorize(double rho) {
    ColMajorSparse I(W_.rows(), W_.cols());
    I.setIdentity();
    const ColMajorSparse A = W_ + rho * I;
    if (symmetric_) {
      if (!analyzed_) ldlt_.analyzePattern(A);
      ldlt_.factorize(A);
      ok_ = ldlt_.info() == Eigen::Success;
    } else {
      if (!analyzed_) lu_.analyzePattern(A);
      lu_.factorize(A);
      ok_ = lu_.info() == Eigen::Success;
    }
    analyzed_ = true;
    return ok_;
  }
  void solve(const Vector& b, Vector& x) {
    if (symmetric_)
      x = ldlt_.solve(b);
    else
      x = lu_.solve(b);
  }

 private:
  ColMajorSparse W_, pattern_;
  bool symmetric_ = true, analyzed_ = false, ok_ = false;
  Eigen::SimplicialLDLT<ColMajorSparse> ldlt_;
  Eigen::SparseLU<ColMajorSparse> lu_;
};

void project_all(int d, const Vector& mu, const Vector& x, Vector& z) {
  for (Index i = 0; i < mu.size(); ++i) {
    if (d == 3)
      z.segment<3>(3 * i) = project_on_coulomb_cone(Vector3(x.segment<3>(3 * i)), mu[i]);
    else
      z.segment<2>(2 * i) = project_on_coulomb_cone(Vector2(x.segment<2>(2 * i)), mu[i]);
  }
}

void de_saxce(int d, const Vector& mu, const Vector& u, Vector& s) {
  for (Index i = 0; i < mu.size(); ++i) {
    const double ut = d == 3 ? std::hypot(u[3 * i + 1], u[3 * i + 2]) : std::abs(u[2 * i + 1]);
    s[d * i] = mu[i] * ut;
  }
}

}  // namespace

FrictionContactResult solve_admm(const FrictionContactProblem& problem, const AdmmSettings& st,
                                 const Vector& guess) {
  const Stopwatch clock;
  FrictionContactResult res = fc_detail::start(problem, st, "admm");
  MOREAU_REQUIRE(st.rho >= 0.0, "ADMM rho must be ≥ 0 (0 = automatic), got {}", st.rho);
  const int d = problem.dimension;
  const Index m = problem.q.size();
  Vector z = fc_detail::initial_r(problem, guess);
  Vector u = local_velocity(problem, z);
  double e = friction_contact_residual(problem, z, u);
  res.status = Status::max_iterations;
  if (e <= st.tolerance || m == 0) {
    res.status = Status::converged;
    fc_detail::finish(res, problem, std::move(z), clock);
    return res;
  }
  double rho = st.rho;
  if (rho == 0.0) {
    rho = problem.W.diagonal().cwiseAbs().mean();
    if (!(rho > 0.0)) rho = 1.0;
  }
  const double rho0 = rho;
  ShiftedSolver solver(problem.W);
  if (!solver.factorize(rho)) {
    res.status = Status::numerical_failure;
    res.message = "factorization of W + rho I failed";
    fc_detail::finish(res, problem, std::move(z), clock);
    return res;
  }
  Vector r(m), xi = Vector::Zero(m), s = Vector::Zero(m), rhs(m), z_old(m), xi_old(m);
  Vector zh = z, xih = xi;  // extrapolated points (acceleration)
  de_saxce(d, problem.mu, u, s);
  double alpha = 1.0, comb_old = std::numeric_limits<double>::infinity();
  for (int k = 1; k <= st.max_iterations; ++k) {
    rhs = -(problem.q + s) + rho * (zh - xih);
    solver.solve(rhs, r);
    z_old = z;
    xi_old = xi;
    project_all(d, problem.mu, Vector(r + xih), z);
    xi = xih + r - z;
    u = local_velocity(problem, z);
    de_saxce(d, problem.mu, u, s);
    e = friction_contact_residual(problem, z, u);
    if (fc_detail::end_of_iteration(res, k, e, st.tolerance, st.time_limit, clock,
                                    "NaN in the ADMM iterate"))
      break;
    const double primal = (r - z).norm();
    const double dual = rho * (z - zh).norm();
    // Acceleration with restart on the combined residual.
    const double comb = primal * primal + (dual / rho) * (dual / rho);
    if (st.acceleration && comb < 0.999 * comb_old) {
      const double alpha_new = 0.5 * (1.0 + std::sqrt(1.0 + 4.0 * alpha * alpha));
      const double beta = (alpha - 1.0) / alpha_new;
      zh = z + beta * (z - z_old);
      xih = xi + beta * (xi - xi_old);
      alpha = alpha_new;
      comb_old = comb;
    } else {
      alpha = 1.0;
      zh = z;
      xih = xi;
      comb_old = comb / 0.999;
    }
    if (st.adaptive_rho && k % 5 == 0) {
      double factor = 1.0;
      const double scale_p = std::max(r.norm(), z.norm()),
                   scale_d = std::max(rho * xi.norm(), problem.q.norm() + s.norm());
      const double rp = primal / std::max(scale_p, 1e-300), rd = dual / std::max(scale_d, 1e-300);
      if (rp > 10.0 * rd && rho < 1e6 * rho0)
        factor = 2.0;
      else if (rd > 10.0 * rp && rho > 1e-6 * rho0)
        factor = 0.5;
      if (factor != 1.0) {
        rho *= factor;
        xi /= factor;
        xih = xi;
        zh = z;
        alpha = 1.0;
        comb_old = std::numeric_limits<double>::infinity();
        if (!solver.factorize(rho)) {
          res.status = Status::numerical_failure;
          res.message = "factorization of W + rho I failed";
          break;
        }
      }
    }
  }
  fc_detail::finish(res, problem, std::move(z), clock);
  return res;
}

}  // namespace moreau
