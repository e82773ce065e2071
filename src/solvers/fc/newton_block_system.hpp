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
#include <algorithm>
#include <vector>

namespace moreau::fc_detail {

class NewtonBlockSystem {
 public:
  using ColMajorSparse = Eigen::SparseMatrix<double, Eigen::ColMajor>;

  // The pattern of W's d×d blocks and the diagonal blocks; W's values scattered into it.
  NewtonBlockSystem(const SparseMatrix& W, int d);

  // J's values for A, B (block-diagonal, d×d blocks stored row by row from valuePtr() + d²i, as
  // newton.cpp's block_diagonal_pattern stores them) and ε.
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

}  // namespace moreau::fc_detail
