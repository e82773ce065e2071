#pragma once
// The factorization of a mass matrix along its kinematic tree (Featherstone, Rigid Body Dynamics
// Algorithms, 2008, §6.3 "LTDL"): for M symmetric positive definite with M_ij ≠ 0 only when dof
// j is an ancestor of dof i or the reverse (λ(i) < i the parent of dof i, −1 at a root),
//   M = Lᵀ D L,   L unit lower triangular with L_ij ≠ 0 only for j an ancestor of i,
// computed in place with no fill-in: work Σ_i depth(i)², O(n) for a forest of free bodies, O(n²)
// at worst for one chain (where a dense Cholesky would take n³/3).
#include <vector>

#include "moreau/common/types.hpp"

namespace moreau {

// M = Lᵀ D L along a tree, and solves with it.
class TreeFactorization {
 public:
  // Factorizes M (n × n, only its lower triangle on the branches is read) with the dof parents
  // λ (n entries, λ(i) < i). Returns false, and keeps nothing, when a pivot D_k is not positive
  // (M not positive definite: a massless leaf without armature); pivot() then names it.
  bool factor(const Matrix& M, const std::vector<Index>& parent);
  // x ← M⁻¹ x (x: n; a vector or a column of a matrix).
  void solve_in_place(Eigen::Ref<Vector> x) const;
  // x ← L⁻ᵀ x, the first half of a solve (M⁻¹ = L⁻¹ D⁻¹ L⁻ᵀ): from the leaves up, touching only
  // the ancestors of x's nonzeros (a contact's column of H: the dofs from its body to the root),
  // so that Hᵀ M⁻¹ H = Yᵀ D⁻¹ Y with Y = L⁻ᵀ H.
  void solve_lower_transpose_in_place(Eigen::Ref<Vector> x) const;
  // M⁻¹ B (B: n × k).
  Matrix solve(const Matrix& B) const;
  // n, the size of the factorized matrix.
  Index size() const { return LD_.rows(); }
  // The dof whose pivot failed in the last factor() (−1 when it succeeded).
  Index pivot() const { return failed_pivot_; }
  // The pivots D (n).
  Vector pivots() const { return LD_.diagonal(); }

 private:
  Matrix LD_;  // strict lower triangle L (on the branches), diagonal D
  std::vector<Index> parent_;
  Index failed_pivot_ = -1;
};

}  // namespace moreau
