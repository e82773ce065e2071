#include "moreau/solvers/mlcp/direct.hpp"

#include "moreau/common/error.hpp"
#include "moreau/common/timer.hpp"
#include "moreau/solvers/lcp/lemke.hpp"
#include "moreau/solvers/mlcp/fischer_burmeister.hpp"

namespace moreau {

// Solves the MLCP by pivoting (see the header for the two paths).
//  • "schur" (A invertible): v solves LCP(S, s), S = B − D A⁻¹C, s = b − D A⁻¹a, the Schur
//    complement of A in [[A, C], [D, B]] (Cottle, Pang & Stone 2009, §1.5; Murty 1988, §1.4);
//    then u = −A⁻¹(C v + a).
//  • "split" (A singular, rank r < n): u = u⁺ − u⁻. A solution (u⁺, u⁻, v) of the expanded LCP
//    has s = A u + C v + a ≥ 0 and −s ≥ 0, hence s = 0, and gives an MLCP solution; conversely
//    u⁺ = max(u, 0), u⁻ = max(−u, 0) map an MLCP solution to an LCP solution. The expanded
//    matrix is Tᵀ K T with K = [[A, C], [D, B]] and T = [[I, −I, 0], [0, 0, I]], so it is
//    positive semidefinite (copositive-plus) whenever K is, and then Lemke either solves it or
//    ends on a ray proving infeasibility (CPS Theorem 4.4.13). u is one solution among the
//    u + ker A family.
//  • "newton" fallback: when the pivoting result misses the tolerance (a ray of the split LCP,
//    which is not copositive-plus in general, or round-off of an ill-conditioned Schur
//    complement), the least-squares semismooth Newton method on the whole MLCP
//    (solve_mlcp_fischer_burmeister) is run, warm-started from the pivoting point and, if that
//    fails too, from zero. The result with the smallest residual is returned.
// The status is decided on mlcp_residual alone: converged iff residual ≤ tolerance.
MlcpResult solve_mlcp_direct(const Mlcp& problem, const MlcpDirectSettings& settings) {
  problem.validate();
  MOREAU_REQUIRE(settings.tolerance > 0.0 && settings.rank_tolerance >= 0.0 &&
                     settings.max_pivots >= 0 && settings.pivot_tolerance > 0.0,
                 "MLCP direct settings: tolerance {} > 0, rank_tolerance {} ≥ 0, max_pivots {} ≥ 0 "
                 "and pivot_tolerance {} > 0 are required",
                 settings.tolerance, settings.rank_tolerance, settings.max_pivots,
                 settings.pivot_tolerance);
  const Stopwatch clock;
  const Index n = problem.equalities(), m = problem.complementarities();
  MlcpResult result;
  result.solver = "mlcp_direct";
  result.u = Vector::Zero(n);
  result.v = Vector::Zero(m);
  const LemkeSettings lemke_settings{.max_pivots = settings.max_pivots,
                                     .pivot_tolerance = settings.pivot_tolerance,
                                     .tolerance = settings.tolerance};

  Eigen::FullPivLU<Matrix> lu;
  if (settings.rank_tolerance > 0.0) lu.setThreshold(settings.rank_tolerance);
  if (n > 0) lu.compute(problem.A);
  const bool invertible = n == 0 || lu.isInvertible();

  LcpResult lcp;
  std::string path;
  if (invertible) {
    path = "schur";
    const Matrix AinvC = n == 0 ? Matrix(0, m) : Matrix(lu.solve(problem.C));
    const Vector Ainva = n == 0 ? Vector(0) : Vector(lu.solve(problem.a));
    const Lcp reduced{problem.B - problem.D * AinvC, problem.b - problem.D * Ainva};
    lcp = solve_lemke(reduced, lemke_settings);
    result.v = lcp.z;
    if (n > 0) result.u = -(AinvC * result.v + Ainva);
  } else {
    path = fmt::format("split (A has rank {} < {})", lu.rank(), n);
    const Index N = 2 * n + m;
    Lcp expanded{Matrix(N, N), Vector(N)};
    const Matrix& A = problem.A;
    expanded.M << A, -A, problem.C, -A, A, -problem.C, problem.D, -problem.D, problem.B;
    expanded.q << problem.a, -problem.a, problem.b;
    lcp = solve_lemke(expanded, lemke_settings);
    result.u = lcp.z.head(n) - lcp.z.segment(n, n);
    result.v = lcp.z.tail(m);
  }
  result.iterations = lcp.iterations;
  result.w = problem.D * result.u + problem.B * result.v + problem.b;
  result.residual = mlcp_residual(problem, result.u, result.v);
  result.residual_history.push_back(result.residual);
  if (result.residual <= settings.tolerance) {
    result.status = Status::converged;
    result.message = path;
    result.seconds = clock.seconds();
    return result;
  }
  const std::string pivot_report = fmt::format("{}: Lemke {} with residual {:.3e} {}", path,
                                               to_string(lcp.status), result.residual, lcp.message);
  // Newton fallback, warm then cold.
  const MlcpNewtonSettings newton_settings{.tolerance = settings.tolerance};
  for (int attempt = 0; attempt < 2; ++attempt) {
    const MlcpResult newton =
        attempt == 0 ? solve_mlcp_fischer_burmeister(problem, newton_settings, result.u, result.v)
                     : solve_mlcp_fischer_burmeister(problem, newton_settings);
    if (newton.residual < result.residual) {
      const int pivots = lcp.iterations;
      result.u = newton.u;
      result.v = newton.v;
      result.w = newton.w;
      result.residual = newton.residual;
      result.iterations = pivots + newton.iterations;
      result.residual_history.insert(result.residual_history.end(), newton.residual_history.begin(),
                                     newton.residual_history.end());
    }
    if (result.residual <= settings.tolerance) {
      result.status = Status::converged;
      result.message = fmt::format("{}; then newton ({} start) converged", pivot_report,
                                   attempt == 0 ? "warm" : "cold");
      result.seconds = clock.seconds();
      return result;
    }
  }
  result.status = lcp.status == Status::converged ? Status::numerical_failure : lcp.status;
  result.message = fmt::format("{}; newton fallback reached residual {:.3e} > {:.3e}", pivot_report,
                               result.residual, settings.tolerance);
  result.seconds = clock.seconds();
  return result;
}

}  // namespace moreau
