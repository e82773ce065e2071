#include "moreau/solvers/lcp/fischer_burmeister.hpp"

#include <cmath>

#include "../fischer_burmeister_jacobian.hpp"
#include "../line_search.hpp"
#include "lcp_detail.hpp"
#include "moreau/common/error.hpp"
#include "moreau/common/timer.hpp"
#include "moreau/solvers/lcp/lcp_workspace.hpp"

namespace moreau {

namespace {

// φ(a, b) = a + b − √(a² + b²), evaluated without cancellation: for a + b > 0,
// a + b − r = ((a + b)² − r²)/(a + b + r) = 2ab/(a + b + r).
double fischer_burmeister(double a, double b) {
  const double r = std::hypot(a, b);
  const double s = a + b;
  return s > 0.0 ? 2.0 * a * b / (s + r) : s - r;
}

// Ψ(z) = ½‖Φ(z)‖², with w = M z + q already in `w`; fills phi.
double merit(const Vector& z, const Vector& w, Vector& phi) {
  for (Index i = 0; i < z.size(); ++i) phi[i] = fischer_burmeister(z[i], w[i]);
  return 0.5 * phi.squaredNorm();
}

}  // namespace

// Semismooth Newton method for the Fischer–Burmeister equation (De Luca, Facchinei & Kanzow,
// Math. Programming 75, 1996, Algorithm 3.1; see also Facchinei & Pang 2003, §9.1):
//   Φᵢ(z) = zᵢ + wᵢ − √(zᵢ² + wᵢ²),  w = M z + q;   J = D_a + D_b M,
//   aᵢ = 1 − zᵢ/rᵢ, bᵢ = 1 − wᵢ/rᵢ, rᵢ = √(zᵢ² + wᵢ²)   (rᵢ > 0)
//   aᵢ = bᵢ = 1 − 1/√2                                   (rᵢ = 0: the limit along zᵢ = wᵢ,
//                                                          an element of the B-subdifferential)
//   J d = −Φ;  if the LU fails or ∇Ψᵀd > −ρ‖d‖ᵖ use d = −∇Ψ = −JᵀΦ;
//   Armijo: Ψ(z + t d) ≤ Ψ(z) + σ t ∇Ψᵀd,  t = 1, β, β², …
// Stops when lcp_residual ≤ tolerance (not on ‖Φ‖, so that every LCP solver is judged alike).
// Departure from the paper: rᵢ counts as 0 below 1e-300 (exact zeros and denormals only).
LcpResult solve_lcp_fischer_burmeister(const Lcp& problem, const LcpNewtonSettings& settings,
                                       const Vector& guess) {
  problem.validate();
  const Index n = problem.size();
  solver_detail::check_newton_settings("Fischer–Burmeister", settings);
  MOREAU_REQUIRE(guess.size() == 0 || guess.size() == n,
                 "Fischer–Burmeister guess has {} entries, the LCP has {}", guess.size(), n);
  MOREAU_REQUIRE(all_finite(guess), "Fischer–Burmeister guess has a NaN or infinite entry");
  const Stopwatch clock;
  LcpResult result;
  result.solver = "fischer_burmeister";
  result.z = guess.size() == n && n > 0 ? guess : Vector(Vector::Zero(n));
  result.residual_history.reserve(static_cast<std::size_t>(settings.max_iterations));

  const Matrix& M = problem.M;
  const Vector& q = problem.q;
  Vector& z = result.z;
  // Workspace, sized once.
  LcpResidualWorkspace work(n);
  Vector phi(n), a(n), b(n), d(n), grad(n), z_trial(n), w_trial(n), phi_trial(n);
  Matrix J(n, n);
  Eigen::PartialPivLU<Matrix> lu(n);

  double res = work.residual(M, q, z);
  double psi = merit(z, work.w(), phi);
  while (!solver_detail::newton_done(result, res, settings)) {
    solver_detail::fischer_burmeister_jacobian(z, work.w(), a, b);
    J.noalias() = b.asDiagonal() * M;
    J.diagonal() += a;
    grad.noalias() = J.transpose() * phi;

    lu.compute(J);
    d = lu.solve(-phi);
    const double dnorm = d.norm();
    if (!all_finite(d) ||
        grad.dot(d) > -settings.descent_rho * std::pow(dnorm, settings.descent_power))
      d = -grad;
    const double slope = grad.dot(d);

    double psi_trial = psi;
    const bool accepted = solver_detail::armijo_backtracking(settings, psi, slope, [&](double t) {
      z_trial = z + t * d;
      w_trial.noalias() = M * z_trial;
      w_trial += q;
      return psi_trial = merit(z_trial, w_trial, phi_trial);
    });
    ++result.iterations;
    if (!accepted) {
      result.status = Status::numerical_failure;
      result.message =
          fmt::format("Armijo line search failed after {} steps at iteration {} (Ψ = {:.3e})",
                      settings.max_backtracks, result.iterations, psi);
      result.residual_history.push_back(res);
      break;
    }
    z.swap(z_trial);
    work.w().swap(w_trial);
    phi.swap(phi_trial);
    psi = psi_trial;
    res = work.residual_from_w(q, z);
    result.residual_history.push_back(res);
  }
  if (result.status == Status::max_iterations)
    result.message = fmt::format("{} Newton iterations, residual {:.3e} > {:.3e}",
                                 result.iterations, res, settings.tolerance);
  return lcp_detail::finish_result(problem, z, clock, result);
}

}  // namespace moreau
