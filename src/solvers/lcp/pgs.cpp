#include "moreau/solvers/lcp/pgs.hpp"

#include <algorithm>
#include <cmath>

#include "lcp_detail.hpp"
#include "moreau/common/error.hpp"
#include "moreau/common/timer.hpp"
#include "moreau/solvers/lcp/lcp_workspace.hpp"

namespace moreau {

// Projected Gauss–Seidel / SOR for LCP(M, q) (Cryer 1971; Cottle, Pang & Stone 2009, §5.2):
//   for i = 1..n:  zᵢ ← max(0, zᵢ − ω (M_i· z + qᵢ) / M_ii)
// using the entries of z already updated in this sweep. Converges for symmetric positive
// definite M and ω ∈ (0, 2); on other matrices it may stall, which is reported as
// max_iterations. After every sweep the residual (lcp_residual, computed in a preallocated
// workspace) is recorded; the iteration stops once it is ≤ tolerance.
// A non-positive diagonal entry makes the update undefined: status numerical_failure.
LcpResult solve_lcp_pgs(const Lcp& problem, const LcpPgsSettings& settings, const Vector& guess) {
  problem.validate();
  const Index n = problem.size();
  MOREAU_REQUIRE(settings.relaxation > 0.0 && settings.relaxation < 2.0,
                 "PGS relaxation ω must be in (0, 2), got {}", settings.relaxation);
  MOREAU_REQUIRE(settings.max_iterations >= 0 && settings.tolerance > 0.0,
                 "PGS max_iterations {} must be ≥ 0 and tolerance {} > 0", settings.max_iterations,
                 settings.tolerance);
  MOREAU_REQUIRE(guess.size() == 0 || guess.size() == n, "PGS guess has {} entries, the LCP has {}",
                 guess.size(), n);
  MOREAU_REQUIRE(all_finite(guess), "PGS guess has a NaN or infinite entry");
  const Stopwatch clock;
  LcpResult result;
  result.solver = "pgs";
  result.z = guess.size() == n && n > 0 ? Vector(guess.cwiseMax(0.0)) : Vector(Vector::Zero(n));
  result.residual_history.reserve(static_cast<std::size_t>(settings.max_iterations) + 1);

  const Matrix& M = problem.M;
  const Vector& q = problem.q;
  Vector& z = result.z;
  for (Index i = 0; i < n; ++i) {
    if (!(M(i, i) > 0.0)) {
      result.status = Status::numerical_failure;
      result.message = fmt::format("PGS needs M_ii > 0, but M({0},{0}) = {1}", i, M(i, i));
      return lcp_detail::finish_result(problem, z, clock, result);
    }
  }

  LcpResidualWorkspace work(n);
  const double omega = settings.relaxation;
  double res = work.residual(M, q, z);
  result.status = res <= settings.tolerance ? Status::converged : Status::max_iterations;
  // M is column-major: M_i· z is cheapest as a dot product with the row of Mᵀ. Keep Mᵀ once.
  const Matrix Mt = M.transpose();
  while (result.status != Status::converged && result.iterations < settings.max_iterations) {
    for (Index i = 0; i < n; ++i) {
      const double wi = Mt.col(i).dot(z) + q[i];
      z[i] = std::max(0.0, z[i] - omega * wi / M(i, i));
    }
    ++result.iterations;
    res = work.residual(M, q, z);
    result.residual_history.push_back(res);
    if (!std::isfinite(res)) {
      result.status = Status::numerical_failure;
      result.message = "PGS iterate diverged (NaN or infinite entry)";
      break;
    }
    if (res <= settings.tolerance) result.status = Status::converged;
  }
  if (result.status == Status::max_iterations)
    result.message = fmt::format("PGS reached {} sweeps with residual {:.3e} > {:.3e}",
                                 result.iterations, res, settings.tolerance);
  return lcp_detail::finish_result(problem, z, clock, result);
}

}  // namespace moreau
