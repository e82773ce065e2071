#pragma once
// LU factorization with partial pivoting for small dense systems (Golub & Van Loan, Matrix
// Computations, 4th ed., Alg. 3.4.1, the outer-product "kji" form): P A = L U with L unit lower
// triangular, column by column, each trailing update an axpy down a contiguous column. For the
// dense route of Newton's system (solvers/fc/newton.hpp: 6 to ~200 rows), where Eigen's blocked
// PartialPivLU spends its time packing panels for its matrix-product kernel.
#include <vector>

#include "moreau/common/types.hpp"

namespace moreau {

// P A = L U of a small dense square matrix, and solves with it (see the file comment).
class SmallLU {
 public:
  // Factorizes A (square) in place of a copy. A zero pivot is kept: solve() then returns
  // non-finite entries, as Eigen's PartialPivLU does (the caller retries with a shift).
  void compute(const Matrix& A);
  // x with A x = b.
  Vector solve(const Vector& b) const;
  // The same x, written over b (no allocation).
  void solve_in_place(Vector& b) const;
  // min_k |u_kk|: 0 at an exact zero pivot, tiny beside max|a_ij| where A is singular to rounding.
  double smallest_pivot() const;

 private:
  Matrix lu_;  // L below the diagonal (unit diagonal implied), U on and above it, of P A
  std::vector<Index> row_;  // row_[k]: the row swapped with k at step k
};

}  // namespace moreau
