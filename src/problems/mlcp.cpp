#include "moreau/problems/mlcp.hpp"

#include <algorithm>
#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/problems/relative_error.hpp"

namespace moreau {

void Mlcp::validate() const {
  const Index n = a.size(), m = b.size();
  auto check = [](const Matrix& X, Index rows, Index cols, const char* name) {
    MOREAU_REQUIRE(X.rows() == rows && X.cols() == cols, "MLCP block {} must be {}×{}, got {}×{}",
                   name, rows, cols, X.rows(), X.cols());
    MOREAU_REQUIRE_FINITE(all_finite(X), "MLCP block {} has a NaN or infinite entry", name);
  };
  check(A, n, n, "A");
  check(B, m, m, "B");
  check(C, n, m, "C");
  check(D, m, n, "D");
  MOREAU_REQUIRE_FINITE(all_finite(a) && all_finite(b),
                        "MLCP vectors a, b have a NaN or infinite entry");
}

double mlcp_residual(const Mlcp& p, const Vector& u, const Vector& v) {
  MOREAU_REQUIRE(u.size() == p.equalities() && v.size() == p.complementarities(),
                 "MLCP residual: u, v have {}, {} entries, the problem has {}, {}", u.size(),
                 v.size(), p.equalities(), p.complementarities());
  const Vector eq = p.A * u + p.C * v + p.a;
  const Vector w = p.D * u + p.B * v + p.b;
  const double err = std::sqrt(eq.squaredNorm() + v.cwiseMin(w).squaredNorm());
  const double scale = std::max({p.a.norm(), p.b.norm(), v.norm(), w.norm()});
  return relative_error(err, scale);
}

}  // namespace moreau
