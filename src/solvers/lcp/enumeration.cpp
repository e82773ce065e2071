#include "moreau/solvers/lcp/enumeration.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

#include "lcp_detail.hpp"
#include "moreau/common/error.hpp"
#include "moreau/common/timer.hpp"

namespace moreau {

// Full enumeration of the complementary index sets (Murty 1988, §1.3; Cottle–Pang–Stone §1.3):
//   for every α ⊆ {1..n}: z_ᾱ = 0, M_αα z_α = −q_α;  keep z when z ≥ 0 and w = M z + q ≥ 0.
// A candidate is accepted when lcp_residual(z) ≤ tolerance (this checks z ≥ 0, w ≥ 0 and
// w_α = 0 at once, relative to the problem scale). When M_αα is singular (FullPivLU rank test)
// the minimum-norm least-squares z_α (complete orthogonal decomposition) is tried: if the
// system is consistent this is the vertex of the solution set nearest the origin, so a
// continuum of solutions is represented by some of its points, not exhaustively.
// Solutions closer than dedupe_tolerance·max(1, ‖z‖∞) in ∞-norm are merged.
LcpEnumerationResult enumerate_lcp(const Lcp& problem, const LcpEnumerationSettings& settings) {
  problem.validate();
  const Index n = problem.size();
  MOREAU_REQUIRE(settings.max_size >= 0 && settings.max_size <= 30,
                 "LCP enumeration max_size must be in [0, 30], got {}", settings.max_size);
  MOREAU_REQUIRE(n <= settings.max_size,
                 "LCP enumeration refuses n = {} > max_size = {} (2^n index sets)", n,
                 settings.max_size);
  MOREAU_REQUIRE(settings.tolerance > 0.0 && settings.dedupe_tolerance > 0.0,
                 "LCP enumeration tolerances must be > 0, got {} and {}", settings.tolerance,
                 settings.dedupe_tolerance);
  const Stopwatch clock;
  LcpEnumerationResult result;
  result.solver = "enumeration";
  result.residual = std::numeric_limits<double>::infinity();

  const std::uint64_t sets = std::uint64_t{1} << n;
  std::vector<Index> alpha;
  alpha.reserve(static_cast<std::size_t>(n));
  Vector z(n);
  for (std::uint64_t mask = 0; mask < sets; ++mask) {
    alpha.clear();
    for (Index i = 0; i < n; ++i)
      if (mask & (std::uint64_t{1} << i)) alpha.push_back(i);
    const Index k = static_cast<Index>(alpha.size());
    z.setZero();
    if (k > 0) {
      Matrix Maa;
      Vector qa;
      lcp_detail::principal_system(problem, alpha, Maa, qa);
      Eigen::FullPivLU<Matrix> lu(Maa);
      Vector za;
      if (lu.isInvertible())
        za = lu.solve(qa);
      else
        za = Eigen::CompleteOrthogonalDecomposition<Matrix>(Maa).solve(qa);
      if (!all_finite(za)) continue;
      for (Index r = 0; r < k; ++r) z[alpha[static_cast<std::size_t>(r)]] = za[r];
    }
    const double res = lcp_residual(problem, z);
    if (!(res <= settings.tolerance)) continue;
    // Clamp round-off negatives, then dedupe.
    const Vector zc = z.cwiseMax(0.0);
    const double scale = n == 0 ? 1.0 : std::max(1.0, zc.cwiseAbs().maxCoeff());
    const bool known =
        std::any_of(result.solutions.begin(), result.solutions.end(), [&](const Vector& s) {
          return n == 0 || (s - zc).cwiseAbs().maxCoeff() <= settings.dedupe_tolerance * scale;
        });
    if (!known) {
      result.solutions.push_back(zc);
      result.residual = std::min(result.residual, lcp_residual(problem, zc));
    }
  }
  result.iterations = static_cast<int>(sets);
  result.status = result.solutions.empty() ? Status::infeasible : Status::converged;
  if (result.solutions.empty())
    result.message =
        fmt::format("no complementary index set of the {} tried gives a solution", sets);
  result.seconds = clock.seconds();
  return result;
}

}  // namespace moreau
