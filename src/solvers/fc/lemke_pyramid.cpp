#include "moreau/solvers/fc/lemke_pyramid.hpp"

#include <cmath>

#include "detail.hpp"
#include "moreau/solvers/lcp/lemke.hpp"

namespace moreau {

// LCP of the header: z = (r_n, β_1..β_k, λ) per contact, r = E z, and
//   w = G (W E z + q) + L z  with G picking (u_n, D_iᵀ u_T) and L the λ / μ r_n − Σβ couplings.
FrictionContactResult solve_lemke_pyramid(const FrictionContactProblem& problem,
                                          const LemkePyramidSettings& s) {
  const Stopwatch clock;
  problem.validate();
  MOREAU_REQUIRE(s.tolerance >= 0.0, "tolerance must be ≥ 0, got {}", s.tolerance);
  MOREAU_REQUIRE(s.edges >= 3 || problem.dimension == 2,
                 "the pyramid needs at least 3 edges, got {}", s.edges);
  FrictionContactResult res;
  res.solver = "lemke_pyramid";
  const int d = problem.dimension;
  const Index nc = problem.contacts(), m = d * nc;
  const int k = d == 2 ? 2 : s.edges;
  const Index per = k + 2, n = per * nc;
  if (n > s.max_lcp_size) {
    res.status = Status::numerical_failure;
    res.message =
        fmt::format("pyramid LCP of size {} exceeds max_lcp_size = {}", n, s.max_lcp_size);
    fc_detail::finish(res, problem, Vector::Zero(m), clock);
    return res;
  }
  // Edge directions D (d−1 rows × k) in the tangent plane.
  Matrix D(d - 1, k);
  for (int j = 0; j < k; ++j) {
    if (d == 2) {
      D(0, j) = j == 0 ? 1.0 : -1.0;
    } else {
      const double a = 2.0 * 3.14159265358979323846 * j / k;
      D(0, j) = std::cos(a);
      D(1, j) = std::sin(a);
    }
  }
  Matrix E = Matrix::Zero(m, n), G = Matrix::Zero(n, m), L = Matrix::Zero(n, n);
  for (Index i = 0; i < nc; ++i) {
    const Index zo = per * i, ro = d * i;
    E(ro, zo) = 1.0;
    G(zo, ro) = 1.0;
    for (int j = 0; j < k; ++j) {
      E.block(ro + 1, zo + 1 + j, d - 1, 1) = D.col(j);
      G.block(zo + 1 + j, ro + 1, 1, d - 1) = D.col(j).transpose();
      L(zo + 1 + j, zo + k + 1) = 1.0;   // + λ
      L(zo + k + 1, zo + 1 + j) = -1.0;  // − Σ β
    }
    L(zo + k + 1, zo) = problem.mu[i];  // μ r_n
  }
  const Matrix Wd = Matrix(problem.W);
  Lcp lcp{G * Wd * E + L, G * problem.q};
  LemkeSettings ls;
  ls.max_pivots = s.max_pivots;
  const LcpResult lr = solve_lemke(lcp, ls);
  res.iterations = lr.iterations;
  Vector r = E * lr.z;
  if (!r.allFinite()) r.setZero();
  fc_detail::finish(res, problem, std::move(r), clock);
  res.residual_history.push_back(res.residual);
  if (lr.status != Status::converged) {
    res.status = lr.status;
    res.message = "Lemke on the pyramid LCP: " + std::string(to_string(lr.status)) +
                  (lr.message.empty() ? "" : " (" + lr.message + ")");
  } else if (res.residual <= s.tolerance) {
    res.status = Status::converged;
  } else {
    res.status = Status::numerical_failure;
    res.message =
        fmt::format("pyramid LCP solved ({} edges); exact-cone residual {:.3g} above tolerance", k,
                    res.residual);
  }
  return res;
}

}  // namespace moreau
