#pragma once
// The sparse Newton matrix of the semismooth Newton solvers (newton.cpp), formed in place.
// Private to src/solvers/fc.
//
// J = A + B (W + εI), with A = ∂Φ/∂r and B = ∂Φ/∂u block-diagonal (one d×d block per contact),
// has the pattern of W's d×d blocks plus the diagonal blocks: block (i, j) of J is
//   J_ij = B_i W_ij + δ_ij (A_i + ε B_i).
// The pattern is set once per problem, every block stored full (an entry of W that is zero, or
// absent from W's pattern inside a block it touches, is stored as 0), so that an iteration writes
// J's values in place, d×d by d×d, without the sparse products and format conversions of
// forming B W as a sparse matrix (on a column of 160 cubes, those were most of a Newton step), and
// the LU's ordering is computed once for all the iterations.
#include "moreau/common/types.hpp"

#include <Eigen/OrderingMethods>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <algorithm>
#include <optional>
#include <vector>

namespace moreau::fc_detail {

class NewtonBlockSystem {
 public:
  using ColMajorSparse = Eigen::SparseMatrix<double, Eigen::ColMajor>;

  // The pattern of W's d×d blocks and the diagonal blocks; W's values scattered into it.
  NewtonBlockSystem(const SparseMatrix& W, int d);

  // J's values for A, B (block-diagonal, d×d blocks stored row by row from valuePtr() + d²i, as
  // block_diagonal_pattern (below) stores them) and ε.
  void form(const SparseMatrix& A, const SparseMatrix& B, double eps);

  // J + shift I, in place (the diagonal is in the pattern).
  void shift_diagonal(double shift);

  const ColMajorSparse& matrix() const { return J_; }

 private:
  int d_;
  ColMajorSparse J_;
  std::vector<double> W_;        // W's values at J's nonzeros (0 where W has none)
  std::vector<Index> diagonal_;  // the position of J_cc among J's values, per column c
};

// A fill-reducing ordering (an Eigen ordering functor: COLAMD for the LU), kept for the last
// pattern ordered on this thread (its arrays stay allocated with the thread): a step's contact
// problem keeps its pattern from step to step while its contacts persist (a stack's), and its
// Newton solves and polishes would order the same pattern again each time (a tenth of a 160-cube
// column's step). The ordering is a function of the pattern alone, so a result does not depend on
// whether it was kept.
// Whether a kept compressed pattern (outer, inner) is the one of the arrays given (n + 1 outer
// indices, nnz inner ones).
inline bool same_pattern(const std::vector<int>& outer, const std::vector<int>& inner,
                         const int* outer_of, const int* inner_of, Index n, Index nnz) {
  return static_cast<Index>(outer.size()) == n + 1 && static_cast<Index>(inner.size()) == nnz &&
         std::equal(outer.begin(), outer.end(), outer_of) &&
         std::equal(inner.begin(), inner.end(), inner_of);
}

template <class Ordering>
struct KeptOrdering {
  using PermutationType = Eigen::PermutationMatrix<Eigen::Dynamic, Eigen::Dynamic, int>;
  void operator()(const Eigen::SparseMatrix<double, Eigen::ColMajor>& mat, PermutationType& perm) {
    struct Kept {
      std::vector<int> outer, inner;
      PermutationType perm;
    };
    thread_local Kept kept;
    const Index n = mat.cols(), nnz = mat.nonZeros();
    const bool same =
        mat.isCompressed() &&
        same_pattern(kept.outer, kept.inner, mat.outerIndexPtr(), mat.innerIndexPtr(), n, nnz);
    if (!same) {
      Ordering()(mat, kept.perm);
      kept.outer.clear();
      if (mat.isCompressed()) {
        kept.outer.assign(mat.outerIndexPtr(), mat.outerIndexPtr() + n + 1);
        kept.inner.assign(mat.innerIndexPtr(), mat.innerIndexPtr() + nnz);
      }
    }
    perm = kept.perm;
  }
};
using KeptColamdOrdering = KeptOrdering<Eigen::COLAMDOrdering<int>>;

// The pattern of A and B: nc diagonal d×d blocks, stored full (row d·i + a holds columns d·i …
// d·i + d − 1), so that block i's entries are valuePtr() + d²i onward, row by row.
SparseMatrix block_diagonal_pattern(Index nc, int d);

// Row block k of a dense Newton matrix, for contact i: J_k,: = B_i W_k,: and J_kk += A_i + ε B_i
// (A, B as block_diagonal_pattern stores them; W's rows d k … d k + d − 1 are contact i's).
inline void form_dense_row_block(const SparseMatrix& A, const SparseMatrix& B, const Matrix& W,
                                 double eps, int d, Index i, Index k, Matrix& J) {
  Matrix3 Ai = Matrix3::Zero(), Bi = Matrix3::Zero();
  const double* a = A.valuePtr() + A.outerIndexPtr()[d * i];
  const double* b = B.valuePtr() + B.outerIndexPtr()[d * i];
  for (int row = 0; row < d; ++row)
    for (int col = 0; col < d; ++col) {
      Ai(row, col) = a[row * d + col];
      Bi(row, col) = b[row * d + col];
    }
  if (d == 3)  // fixed-size rows: the dynamic-size product was most of the dense route's forming
    J.middleRows<3>(3 * k).noalias() = Bi * W.middleRows<3>(3 * k);
  else
    J.middleRows(d * k, d).noalias() = Bi.topLeftCorner(d, d) * W.middleRows(d * k, d);
  J.block(d * k, d * k, d, d) += Ai.topLeftCorner(d, d) + eps * Bi.topLeftCorner(d, d);
}

// Newton matrices of a solve that were factorized with the diagonal shift, and of those, the ones
// whose unshifted factorization was tried first and failed (the others were shifted at once).
struct ShiftCounts {
  int shifted = 0;
  int failed = 0;
};

// The sparse route's state for one problem, kept across the stages of a schedule: J formed in
// place, its LU with the ordering computed once (J = A + B W keeps its pattern at every iteration
// of Alart–Curnier and of Fischer–Burmeister on one problem; on Capsules-i101-404 one analysis
// took 4 ms of a 30 ms two-stage solve), and the count of singular J behind the shift at once.
struct SparseNewtonLU {
  Eigen::SparseLU<Eigen::SparseMatrix<double, Eigen::ColMajor>, KeptColamdOrdering>
      lu;                      // J's factors
  bool analyzed = false;       // lu holds the ordering of system's pattern
  int singular_in_a_row = 0;   // Newton matrices whose LU failed, since the last one that did not
  bool shift_at_once = false;  // NewtonSettings::shift_after_singular reached on this problem
  std::optional<NewtonBlockSystem> system;  // J formed in place
};

// The sparse route's Newton step δ of (A + B(W + εI)) δ = −Φ (newton.cpp: the step's math):
// J formed in place, sparse LU. A factorization that fails (a zero pivot, a non-finite δ) is
// retried once with J + shift·I, shift = 1e-10 max(1, max|J_ij|), and after shift_after failures
// in a row (NewtonSettings::shift_after_singular; 0 = never) the later J are shifted at once.
// Returns false when the shifted factorization fails too.
bool sparse_newton_step(const SparseMatrix& W, const SparseMatrix& A, const SparseMatrix& B,
                        double eps, int d, const Vector& phi, int shift_after, SparseNewtonLU& ws,
                        Vector& delta, ShiftCounts& shifts);

}  // namespace moreau::fc_detail
