// The scaling shared by the residuals of every problem family (lcp_residual, mlcp_residual,
// friction_contact_residual and the solvers that evaluate them in their own workspace): an
// absolute error divided by the size of the iterate.
#pragma once

#include <cmath>
#include <limits>

namespace moreau {

// err / scale, with the division skipped when scale < 1e-300 (an all-zero problem and iterate).
// An iterate with an infinite or NaN entry has no residual: the result is +∞ (or NaN), never the
// 0 that err / ∞ would give, so no solver can report a diverged iterate as converged (ADMM on
// PerioBox with ρ = 0.01·mean diag(W) did, and MLCP PGS on Siconos' deltasigma_mlcp.dat, with
// ‖u‖ = 8e153, 26 Nov 2026).
inline double relative_error(double err, double scale) {
  if (!std::isfinite(scale) || !std::isfinite(err))
    return std::isnan(scale) || std::isnan(err) ? std::numeric_limits<double>::quiet_NaN()
                                                : std::numeric_limits<double>::infinity();
  return scale > 1e-300 ? err / scale : err;
}

}  // namespace moreau
