#include "moreau/problems/lcp.hpp"

#include <algorithm>

#include "moreau/common/error.hpp"
#include "moreau/problems/relative_error.hpp"

namespace moreau {

void Lcp::validate() const {
  MOREAU_REQUIRE(M.rows() == M.cols(), "LCP matrix M must be square, got {}×{}", M.rows(),
                 M.cols());
  MOREAU_REQUIRE(M.rows() == q.size(), "LCP matrix M is {}×{} but q has {} entries", M.rows(),
                 M.cols(), q.size());
  MOREAU_REQUIRE_FINITE(all_finite(M), "LCP matrix M has a NaN or infinite entry");
  MOREAU_REQUIRE_FINITE(all_finite(q), "LCP vector q has a NaN or infinite entry");
}

double lcp_residual(const Lcp& problem, const Vector& z) {
  MOREAU_REQUIRE(z.size() == problem.size(), "LCP residual: z has {} entries, the problem has {}",
                 z.size(), problem.size());
  const Vector w = problem.M * z + problem.q;
  const double err = z.cwiseMin(w).norm();
  const double scale = std::max({problem.q.norm(), z.norm(), w.norm()});
  return relative_error(err, scale);
}

}  // namespace moreau
