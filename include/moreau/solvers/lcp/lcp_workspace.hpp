#pragma once
// Allocation-free evaluation of the LCP residual inside solver iterations. Same formula as
// lcp_residual (moreau/problems/lcp.hpp):
//   ‖min(z, M z + q)‖₂ / max(‖q‖₂, ‖z‖₂, ‖M z + q‖₂, 1e-300)
#include <algorithm>
#include <cmath>

#include "moreau/common/types.hpp"

namespace moreau {

// Preallocated vectors for computing the LCP residual inside solver loops.
class LcpResidualWorkspace {
 public:
  // Workspace for problems of size n.
  explicit LcpResidualWorkspace(Index n) : w_(n) {}

  // Fills w() = M z + q and returns the residual.
  double residual(const Matrix& M, const Vector& q, const Vector& z) {
    w_.noalias() = M * z;
    w_ += q;
    return residual_from_w(q, z);
  }
  // The residual for a w() that the caller has already set to M z + q.
  double residual_from_w(const Vector& q, const Vector& z) const {
    double err2 = 0.0;
    for (Index i = 0; i < z.size(); ++i) {
      const double m = std::min(z[i], w_[i]);
      err2 += m * m;
    }
    const double scale = std::max({q.norm(), z.norm(), w_.norm(), 1e-300});
    return std::sqrt(err2) / scale;
  }
  // w = M z + q of the last residual() call (n).
  const Vector& w() const { return w_; }
  // w, writable: set it to M z + q before residual_from_w().
  Vector& w() { return w_; }

 private:
  Vector w_;  // n, M z + q
};

}  // namespace moreau
