// LU with partial pivoting, unblocked (linalg/small_lu.hpp; Golub & Van Loan Alg. 3.4.1):
//   for k = 0 … n−1:  p = argmax_{i ≥ k} |a_ik|;  swap rows k and p;
//                     a_ik ← a_ik / a_kk (i > k);  a_ij ← a_ij − a_ik a_kj (i, j > k).
#include "moreau/linalg/small_lu.hpp"

#include <cmath>
#include <utility>

namespace moreau {

namespace {
// y ← y − a x over n entries: a plain loop (the columns are short; an Eigen expression's set-up
// per call was most of the factorization at 6–40 rows).
inline void axpy_minus(double a, const double* __restrict x, double* __restrict y, Index n) {
  for (Index i = 0; i < n; ++i) y[i] -= a * x[i];
}
}  // namespace

// Two builds of the factorization, the one for the machine chosen when the library loads: AVX2
// with fused multiply–add where the processor has them (a Haswell or later: 4 doubles an
// instruction in the column updates), the baseline x86-64 one elsewhere. The humanoid of
// bench/models: its Newton steps' LUs 50M -> 30M instructions over 3 s. The fused products round
// once instead of twice, so the last bits of a factor differ between the two kinds of machine
// (on one machine a run is the same every time). GCC only: clang before 18 names the dispatcher
// differently and emits it only in a file that calls the function (llvm #81494), so the fuzz
// build (clang-15) takes the baseline build.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define MOREAU_AVX2_CLONE __attribute__((target_clones("arch=haswell", "default")))
#else
#define MOREAU_AVX2_CLONE
#endif
MOREAU_AVX2_CLONE void SmallLU::compute(const Matrix& A) {
  lu_ = A;
  const Index n = lu_.rows();
  row_.resize(static_cast<std::size_t>(n));
  double* a = lu_.data();  // column-major: a_ij at a[i + j n]
  for (Index k = 0; k < n; ++k) {
    Index p = k;
    double best = std::abs(a[k + k * n]);
    for (Index i = k + 1; i < n; ++i)
      if (std::abs(a[i + k * n]) > best) best = std::abs(a[i + k * n]), p = i;
    row_[static_cast<std::size_t>(k)] = p;
    if (p != k)
      for (Index j = 0; j < n; ++j) std::swap(a[k + j * n], a[p + j * n]);
    const double pivot = a[k + k * n];
    const Index below = n - k - 1;
    if (below == 0) break;
    double* colk = a + (k + 1) + k * n;
    for (Index i = 0; i < below; ++i) colk[i] /= pivot;  // a zero pivot leaves infinities
    for (Index j = k + 1; j < n; ++j) {
      const double a_kj = a[k + j * n];
      if (a_kj != 0.0) axpy_minus(a_kj, colk, a + (k + 1) + j * n, below);
    }
  }
}

// min_k |u_kk| over U's diagonal (the pivots, after the row swaps).
double SmallLU::smallest_pivot() const {
  return lu_.rows() == 0 ? 0.0 : lu_.diagonal().cwiseAbs().minCoeff();
}

// P b, then L y = P b (unit lower), then U x = y.
Vector SmallLU::solve(const Vector& b) const {
  Vector x = b;
  solve_in_place(x);
  return x;
}

void SmallLU::solve_in_place(Vector& x) const {
  const Index n = lu_.rows();
  const double* a = lu_.data();
  for (Index k = 0; k < n; ++k) std::swap(x[k], x[row_[static_cast<std::size_t>(k)]]);
  double* xs = x.data();
  for (Index j = 0; j < n; ++j)
    if (xs[j] != 0.0) axpy_minus(xs[j], a + (j + 1) + j * n, xs + j + 1, n - j - 1);
  for (Index j = n - 1; j >= 0; --j) {
    xs[j] /= a[j + j * n];
    if (xs[j] != 0.0) axpy_minus(xs[j], a + j * n, xs, j);
  }
}

}  // namespace moreau
