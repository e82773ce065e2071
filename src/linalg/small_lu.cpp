// LU with partial pivoting, unblocked (linalg/small_lu.hpp; Golub & Van Loan Alg. 3.4.1):
//   for k = 0 … n−1:  p = argmax_{i ≥ k} |a_ik|;  swap rows k and p;
//                     a_ik ← a_ik / a_kk (i > k);  a_ij ← a_ij − a_ik a_kj (i, j > k).
#include "moreau/linalg/small_lu.hpp"

#include <cmath>
#include <utility>

namespace moreau {

void SmallLU::compute(const Matrix& A) {
  lu_ = A;
  const Index n = lu_.rows();
  row_.resize(static_cast<std::size_t>(n));
  for (Index k = 0; k < n; ++k) {
    Index p = k;
    double best = std::abs(lu_(k, k));
    for (Index i = k + 1; i < n; ++i)
      if (std::abs(lu_(i, k)) > best) best = std::abs(lu_(i, k)), p = i;
    row_[static_cast<std::size_t>(k)] = p;
    if (p != k) lu_.row(k).swap(lu_.row(p));
    const double pivot = lu_(k, k);
    const Index below = n - k - 1;
    if (below == 0) break;
    lu_.col(k).tail(below) /= pivot;  // a zero pivot leaves infinities for solve() to show
    for (Index j = k + 1; j < n; ++j) {
      const double a_kj = lu_(k, j);
      if (a_kj != 0.0) lu_.col(j).tail(below) -= a_kj * lu_.col(k).tail(below);
    }
  }
}

// P b, then L y = P b (unit lower), then U x = y.
Vector SmallLU::solve(const Vector& b) const {
  const Index n = lu_.rows();
  Vector x = b;
  for (Index k = 0; k < n; ++k) std::swap(x[k], x[row_[static_cast<std::size_t>(k)]]);
  for (Index j = 0; j < n; ++j)
    if (x[j] != 0.0) x.tail(n - j - 1) -= x[j] * lu_.col(j).tail(n - j - 1);
  for (Index j = n - 1; j >= 0; --j) {
    x[j] /= lu_(j, j);
    if (x[j] != 0.0) x.head(j) -= x[j] * lu_.col(j).head(j);
  }
  return x;
}

}  // namespace moreau
