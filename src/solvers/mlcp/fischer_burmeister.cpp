#include "moreau/solvers/mlcp/fischer_burmeister.hpp"

#include <algorithm>
#include <cmath>

#include "../fischer_burmeister_jacobian.hpp"
#include "../line_search.hpp"
#include "moreau/common/error.hpp"
#include "moreau/common/timer.hpp"
#include "moreau/problems/relative_error.hpp"

namespace moreau {

namespace {

double fischer_burmeister(double a, double b) {
  const double r = std::hypot(a, b);
  const double s = a + b;
  return s > 0.0 ? 2.0 * a * b / (s + r) : s - r;  // a + b − r without cancellation
}

// Workspace of the MLCP Fischer–Burmeister function; N = n + m.
struct MlcpFbWork {
  Vector eq, w, F;  // n, m, N
  MlcpFbWork(Index n, Index m) : eq(n), w(m), F(n + m) {}

  // Evaluates F at (u, v) = x, returns ½‖F‖² and the mlcp_residual (same formula, no allocation).
  std::pair<double, double> evaluate(const Mlcp& p, const Vector& x) {
    const Index n = p.equalities(), m = p.complementarities();
    const auto u = x.head(n);
    const auto v = x.tail(m);
    eq.noalias() = p.A * u;
    eq.noalias() += p.C * v;
    eq += p.a;
    w.noalias() = p.D * u;
    w.noalias() += p.B * v;
    w += p.b;
    F.head(n) = eq;
    double err2 = eq.squaredNorm();
    for (Index i = 0; i < m; ++i) {
      F[n + i] = fischer_burmeister(v[i], w[i]);
      const double t = std::min(v[i], w[i]);
      err2 += t * t;
    }
    return {
        0.5 * F.squaredNorm(),
        relative_error(std::sqrt(err2), std::max({p.a.norm(), p.b.norm(), v.norm(), w.norm()}))};
  }
};

}  // namespace

// Semismooth Newton on the Fischer–Burmeister reformulation (De Luca, Facchinei & Kanzow 1996
// for the LCP; the mixed form as in Facchinei & Pang 2003, §9.4):
//   J = [[A, C], [D_β D, D_α + D_β B]],  αᵢ = 1 − vᵢ/rᵢ, βᵢ = 1 − wᵢ/rᵢ, rᵢ = √(vᵢ² + wᵢ²),
//   αᵢ = βᵢ = 1 − 1/√2 where rᵢ = 0 (an element of the B-subdifferential).
// Departure: the step is the minimum-norm least-squares solution d = −J⁺F (complete
// orthogonal decomposition) instead of J⁻¹F, so that a singular A (or J) does not stop the
// method; d is still a descent direction of Ψ = ½‖F‖² (∇Ψᵀd = −‖P_range(J) F‖²).
MlcpResult solve_mlcp_fischer_burmeister(const Mlcp& problem, const MlcpNewtonSettings& settings,
                                         const Vector& guess_u, const Vector& guess_v) {
  problem.validate();
  const Index n = problem.equalities(), m = problem.complementarities(), N = n + m;
  solver_detail::check_newton_settings("MLCP Newton", settings);
  MOREAU_REQUIRE(
      (guess_u.size() == 0 || guess_u.size() == n) && (guess_v.size() == 0 || guess_v.size() == m),
      "MLCP Newton guesses have {} and {} entries, the problem has {} and {}", guess_u.size(),
      guess_v.size(), n, m);
  MOREAU_REQUIRE(all_finite(guess_u) && all_finite(guess_v),
                 "MLCP Newton guess has a NaN or infinite entry");
  const Stopwatch clock;
  MlcpResult result;
  result.solver = "mlcp_fischer_burmeister";
  result.residual_history.reserve(static_cast<std::size_t>(settings.max_iterations));

  Vector x = Vector::Zero(N);
  if (guess_u.size() == n && n > 0) x.head(n) = guess_u;
  if (guess_v.size() == m && m > 0) x.tail(m) = guess_v;
  MlcpFbWork work(n, m), trial_work(n, m);
  Vector alpha(m), beta(m), d(N), grad(N), x_trial(N);
  Matrix J = Matrix::Zero(N, N);
  Eigen::CompleteOrthogonalDecomposition<Matrix> cod(N, N);

  auto [psi, res] = work.evaluate(problem, x);
  while (!solver_detail::newton_done(result, res, settings)) {
    solver_detail::fischer_burmeister_jacobian(x.tail(m), work.w, alpha, beta);
    J.topLeftCorner(n, n) = problem.A;
    J.topRightCorner(n, m) = problem.C;
    J.bottomLeftCorner(m, n).noalias() = beta.asDiagonal() * problem.D;
    J.bottomRightCorner(m, m).noalias() = beta.asDiagonal() * problem.B;
    J.bottomRightCorner(m, m).diagonal() += alpha;
    grad.noalias() = J.transpose() * work.F;
    cod.compute(J);
    d = cod.solve(work.F);
    d = -d;
    if (!all_finite(d) ||
        grad.dot(d) > -settings.descent_rho * std::pow(d.norm(), settings.descent_power))
      d = -grad;
    const double slope = grad.dot(d);

    std::pair<double, double> trial{psi, res};
    const bool accepted = solver_detail::armijo_backtracking(settings, psi, slope, [&](double t) {
      x_trial = x + t * d;
      trial = trial_work.evaluate(problem, x_trial);
      return trial.first;
    });
    ++result.iterations;
    if (!accepted) {
      result.status = Status::numerical_failure;
      result.message = fmt::format("Armijo line search failed at iteration {} (Ψ = {:.3e})",
                                   result.iterations, psi);
      result.residual_history.push_back(res);
      break;
    }
    x.swap(x_trial);
    std::swap(work, trial_work);
    psi = trial.first;
    res = trial.second;
    result.residual_history.push_back(res);
  }
  if (result.status == Status::max_iterations)
    result.message = fmt::format("{} Newton iterations, residual {:.3e} > {:.3e}",
                                 result.iterations, res, settings.tolerance);
  result.u = x.head(n);
  result.v = x.tail(m);
  result.w = problem.D * result.u + problem.B * result.v + problem.b;
  result.residual = mlcp_residual(problem, result.u, result.v);
  result.seconds = clock.seconds();
  return result;
}

}  // namespace moreau
