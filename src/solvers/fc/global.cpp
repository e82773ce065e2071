// Global frictional contact: condensation, the global ADMM, and the global registry.
#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>

#include "detail.hpp"
#include "moreau/problems/coulomb_cone.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"
#include "moreau/solvers/fc/global_admm.hpp"

namespace moreau {

namespace {

using ColMajorSparse = Eigen::SparseMatrix<double, Eigen::ColMajor>;

bool is_symmetric(const SparseMatrix& A) {
  const SparseMatrix At = A.transpose();
  return SparseMatrix(A - At).norm() <= 1e-12 * std::max(1.0, A.norm());
}

// Solver of M x = b (sparse LDLᵀ when M is symmetric, LU otherwise); throws if M is singular.
class MassSolver {
 public:
  explicit MassSolver(const SparseMatrix& M) {
    const ColMajorSparse Mc = M;
    symmetric_ = is_symmetric(M);
    bool ok = false;
    if (symmetric_) {
      ldlt_.compute(Mc);
      if (ldlt_.info() == Eigen::Success) {
        const Vector D = ldlt_.vectorD();
        const double dmax = D.cwiseAbs().maxCoeff();
        ok = D.size() == 0 || (D.cwiseAbs().minCoeff() > 1e-14 * dmax && dmax > 0.0);
      }
    }
    if (!ok) {
      symmetric_ = false;
      lu_.compute(Mc);
      ok = lu_.info() == Eigen::Success;
      if (ok) {
        // SparseLU succeeds on some numerically singular matrices: check a solve.
        const Vector x = lu_.solve(Vector::Ones(M.rows()));
        ok = x.allFinite();
      }
    }
    MOREAU_REQUIRE(ok, "mass matrix M ({}×{}) is singular: the global problem cannot be condensed",
                   M.rows(), M.cols());
  }
  Vector solve(const Vector& b) const {
    return symmetric_ ? Vector(ldlt_.solve(b)) : Vector(lu_.solve(b));
  }
  ColMajorSparse solve(const ColMajorSparse& B) const {
    if (symmetric_) return ldlt_.solve(B);
    Matrix X = lu_.solve(Matrix(B));
    return X.sparseView();
  }

 private:
  bool symmetric_ = true;
  Eigen::SimplicialLDLT<ColMajorSparse> ldlt_;
  mutable Eigen::SparseLU<ColMajorSparse> lu_;
};

}  // namespace

// W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w (header).
FrictionContactProblem condense(const GlobalFrictionContactProblem& problem) {
  problem.validate();
  MassSolver solver(problem.M);
  const ColMajorSparse Hc = problem.H;
  const ColMajorSparse X = solver.solve(Hc);  // M⁻¹ H
  FrictionContactProblem p;
  p.dimension = problem.dimension;
  const ColMajorSparse Ht = problem.H.transpose();
  const ColMajorSparse Wc = Ht * X;
  p.W = Wc;
  p.W.prune(0.0);
  p.q = problem.H.transpose() * solver.solve(problem.f) + problem.w;
  p.mu = problem.mu;
  return p;
}

FrictionContactResult solve_global_admm(const GlobalFrictionContactProblem& problem,
                                        const GlobalAdmmSettings& st, const Vector& guess_r) {
  const Stopwatch clock;
  FrictionContactResult res = fc_detail::start(problem, st, "admm");
  MOREAU_REQUIRE(st.rho >= 0.0, "global ADMM rho must be ≥ 0 (0 = automatic), got {}", st.rho);
  const int d = problem.dimension;
  const Index m = problem.w.size(), n = problem.dofs();
  Vector r = Vector::Zero(m);
  if (guess_r.size() != 0) {
    MOREAU_REQUIRE(guess_r.size() == m, "initial guess r has {} entries, the problem has {}",
                   guess_r.size(), m);
    r = guess_r;
  }
  const ColMajorSparse Hc = problem.H;
  const ColMajorSparse HHt = Hc * ColMajorSparse(Hc.transpose());
  double rho = st.rho;
  if (rho == 0.0) {
    const double dm = problem.M.diagonal().cwiseAbs().mean();
    const double dh = HHt.diagonal().cwiseAbs().mean();
    rho = dh > 0.0 && dm > 0.0 ? dm / dh : 1.0;
  }
  const ColMajorSparse A = ColMajorSparse(problem.M) + rho * HHt;
  Eigen::SimplicialLDLT<ColMajorSparse> ldlt;
  Eigen::SparseLU<ColMajorSparse> lu;
  const bool sym = is_symmetric(problem.M);
  bool ok;
  if (sym) {
    ldlt.compute(A);
    ok = ldlt.info() == Eigen::Success;
  } else {
    lu.compute(A);
    ok = lu.info() == Eigen::Success;
  }
  Vector v = Vector::Zero(n);
  if (!ok) {
    res.status = Status::numerical_failure;
    res.message = "factorization of M + rho H Ht failed";
  } else {
    Vector s = Vector::Zero(m), xi = Vector::Zero(m), u(m), rhs(n), y(m);
    auto solveA = [&](const Vector& b) {
      return sym ? Vector(ldlt.solve(b)) : Vector(lu.solve(b));
    };
    // Start: v from the guess, u = Hᵀ v + w, s and ξ from u.
    v = solveA(problem.f + problem.H * r);
    u = problem.H.transpose() * v + problem.w;
    res.status = Status::max_iterations;
    for (int k = 1; k <= st.max_iterations; ++k) {
      for (Index i = 0; i < problem.contacts(); ++i) {
        const double ut = d == 3 ? std::hypot(u[3 * i + 1], u[3 * i + 2]) : std::abs(u[2 * i + 1]);
        s[d * i] = problem.mu[i] * ut;
      }
      if (k == 1) xi = u + s;
      rhs = problem.f + problem.H * (r - rho * (problem.w + s - xi));
      v = solveA(rhs);
      u = problem.H.transpose() * v + problem.w;
      y = u + s - r / rho;
      for (Index i = 0; i < problem.contacts(); ++i) {
        // P_{K*}(y) = y + P_K(−y).
        if (d == 3) {
          const Vector3 yi = y.segment<3>(3 * i);
          xi.segment<3>(3 * i) = yi + project_on_coulomb_cone(Vector3(-yi), problem.mu[i]);
        } else {
          const Vector2 yi = y.segment<2>(2 * i);
          xi.segment<2>(2 * i) = yi + project_on_coulomb_cone(Vector2(-yi), problem.mu[i]);
        }
      }
      r -= rho * (u + s - xi);
      const double e = global_friction_contact_residual(problem, v, r);
      if (fc_detail::end_of_iteration(res, k, e, st.tolerance, st.time_limit, clock,
                                      "NaN in the global ADMM iterate"))
        break;
    }
  }
  res.u = problem.H.transpose() * v + problem.w;
  res.residual = global_friction_contact_residual(problem, v, r);
  res.r = std::move(r);
  res.v = std::move(v);
  res.seconds = clock.seconds();
  return res;
}

std::vector<std::string> global_friction_contact_solver_names(int dimension) {
  std::vector<std::string> names{"auto", "admm"};
  for (const auto& n : friction_contact_solver_names(dimension)) names.push_back("condensed:" + n);
  return names;
}

FrictionContactResult solve_global_friction_contact(const GlobalFrictionContactProblem& problem,
                                                    std::string_view solver,
                                                    const FrictionContactSettings& settings,
                                                    const Vector& guess_r) {
  problem.validate();
  const std::string name(solver);
  if (name == "admm")
    return solve_global_admm(problem,
                             GlobalAdmmSettings{.tolerance = settings.tolerance,
                                                .max_iterations = settings.max_iterations,
                                                .time_limit = settings.time_limit},
                             guess_r);
  std::string local;
  if (name == "auto")
    local = "auto";
  else if (name.substr(0, 10) == "condensed:")
    local = name.substr(10);
  else
    throw_invalid(
        "unknown global frictional contact solver '{}'; use 'auto', 'admm' or "
        "'condensed:<local solver>'",
        solver);
  const Stopwatch clock;
  const auto names = friction_contact_solver_names(problem.dimension);
  MOREAU_REQUIRE(std::find(names.begin(), names.end(), local) != names.end(),
                 "unknown local solver '{}' in global solver name '{}'", local, solver);
  // Condense (M⁻¹ applied once more below to recover v).
  MassSolver mass(problem.M);
  const ColMajorSparse X = mass.solve(ColMajorSparse(problem.H));
  FrictionContactProblem p;
  p.dimension = problem.dimension;
  p.W = ColMajorSparse(ColMajorSparse(problem.H.transpose()) * X);
  p.W.prune(0.0);
  const Vector Minv_f = mass.solve(problem.f);
  p.q = problem.H.transpose() * Minv_f + problem.w;
  p.mu = problem.mu;
  FrictionContactSettings ls = settings;
  ls.time_limit = std::max(1e-9, settings.time_limit - clock.seconds());
  FrictionContactResult res = solve_friction_contact(p, local, ls, guess_r);
  res.v = X * res.r + Minv_f;  // v = M⁻¹(H r + f)
  double e = global_friction_contact_residual(problem, res.v, res.r);
  // The global residual is normalized differently: tighten the local tolerance and resume.
  for (int retry = 0; retry < 3 && res.converged() && e > settings.tolerance && res.residual > 0.0;
       ++retry) {
    ls.tolerance = std::max(1e-16, 0.5 * res.residual * settings.tolerance / e);
    ls.time_limit = std::max(1e-9, settings.time_limit - clock.seconds());
    const int before = res.iterations;
    res = solve_friction_contact(p, local, ls, res.r);
    res.iterations += before;
    res.v = X * res.r + Minv_f;
    e = global_friction_contact_residual(problem, res.v, res.r);
  }
  res.solver = "condensed:" + res.solver;
  res.u = problem.H.transpose() * res.v + problem.w;
  if (res.status == Status::converged && e > settings.tolerance) {
    res.status = Status::numerical_failure;
    res.message = fmt::format("condensed problem solved but the global residual is {:.3g}", e);
  }
  res.residual = e;
  res.seconds = clock.seconds();
  return res;
}

}  // namespace moreau
