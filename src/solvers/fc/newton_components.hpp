#pragma once
// The Newton system of a problem with independent components, solved component by component
// (newton.cpp's third route). Private to src/solvers/fc.
//
// Number W's contacts component by component (the connected components of its contact graph,
// components.hpp). A and B are block diagonal, so J = A + B(W + εI) has no block between two
// components either, and J δ = −Φ is one system per component C:
//   J_CC δ_C = −Φ_C,   J_CC = A_C + B_C (W_CC + εI).
// The same δ as the whole system's, up to rounding. A component of at most kDenseComponentRows
// rows is formed and factorized dense (SmallLU, partial pivoting); the others together as one
// sparse system on their W (NewtonBlockSystem, sparse LU), as the sparse route does the whole.
// A sparse LU's symbolic work (its column searches, supernodes, pruning) costs a few thousand
// instructions a row whatever the fill: FCLIB's Capsules heaps (32–39 components of 1–60 contacts)
// cost Eigen's SparseLU ~2–4M instructions per Newton matrix for ~190k multiply–adds, two thirds
// of a Capsules-i101-404 solve; a dense LU of m rows costs ~m³/3 multiply–adds.
// Each component keeps its own count of singular J in a row (sparse_newton_step's shift at once):
// in a heap only the components with redundant contacts stay singular. A dense J_CC counts as
// singular at a zero pivot and also at one below kSingularPivot max|J| (over the dense J_CC):
// partial pivoting on the dense rows of redundant contacts leaves a pivot of rounding size where
// the sparse LU, eliminating structurally, meets an exact zero, and the step it gives, finite
// but ~10¹¹ long, was taken as a Newton direction (Capsules-i97-269: 8 -> 90 iterations).
#include <memory>
#include <vector>

#include "moreau/linalg/small_lu.hpp"
#include "moreau/problems/friction_contact.hpp"
#include "newton_block_system.hpp"

namespace moreau::fc_detail {

// The largest component factorized dense, in rows (32 contacts in 3D): a dense LU of 96 rows is
// ~295k multiply–adds, what the sparse LU's symbolic work costs on about as many rows.
inline constexpr Index kDenseComponentRows = 96;
// A dense J_CC's smallest pivot relative to max|J| below which it is singular (above).
inline constexpr double kSingularPivot = 1e-14;

class ComponentNewtonSystem {
 public:
  // The route for p (whose W is not dense: newton_system_is_dense), or none when W has a single
  // component or none small enough to be factorized dense (then the sparse route is the same).
  static std::unique_ptr<ComponentNewtonSystem> make(const FrictionContactProblem& p);

  // δ with J δ = −Φ for A, B (block diagonal, d×d blocks stored row by row:
  // block_diagonal_pattern, newton_block_system.hpp) and ε. A factorization that fails is retried
  // with J_CC + shift·I (shift = 1e-10 max(1, max|J_ij|) over every dense component's J, as the
  // whole J's shift would be), at once after shift_after failures in a row of that component;
  // shifts counts a Newton matrix once when any of its components was shifted (failed: when any
  // failed first). False when a shifted factorization fails too.
  bool step(const SparseMatrix& A, const SparseMatrix& B, double eps, const Vector& phi,
            int shift_after, Vector& delta, ShiftCounts& shifts);

  // The components factorized dense.
  Index dense_components() const { return static_cast<Index>(dense_.size()); }

 private:
  struct DenseComponent {
    std::vector<Index> contacts;  // in increasing order
    Matrix W;                     // W_CC, dense
    Matrix J;                     // J_CC of the last step
    SmallLU lu;
    Vector b;  // −Φ_C
    Vector x;  // δ_C
    int singular_in_a_row = 0;
    bool shift_at_once = false;
  };
  int d_ = 3;
  std::vector<DenseComponent> dense_;
  std::vector<Index> sparse_contacts_;  // the larger components' contacts, in increasing order
  SparseMatrix W_sparse_, A_sparse_, B_sparse_;
  Vector phi_sparse_, delta_sparse_;
  SparseNewtonLU sparse_;
};

}  // namespace moreau::fc_detail
