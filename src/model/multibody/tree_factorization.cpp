#include "moreau/model/multibody/tree_factorization.hpp"

#include <cmath>

namespace moreau {

// Featherstone 2008, Table 6.3 (LTDL), with 0-based dofs and λ = −1 at a root:
//   for k = n−1 … 0:  for i = λ(k), λ(λ(k)), …:  a = M_ki / M_kk;
//                       for j = i, λ(i), …: M_ij −= a M_kj;   M_ki = a
// leaves L below the diagonal and D on it.
bool TreeFactorization::factor(const Matrix& M, const std::vector<Index>& parent) {
  const Index n = M.rows();
  LD_ = M;
  parent_ = parent;
  failed_pivot_ = -1;
  for (Index k = n - 1; k >= 0; --k) {
    const double d = LD_(k, k);
    if (!(d > 0.0) || !std::isfinite(d)) {
      failed_pivot_ = k;
      LD_.resize(0, 0);
      return false;
    }
    for (Index i = parent_[k]; i >= 0; i = parent_[i]) {
      const double a = LD_(k, i) / d;
      for (Index j = i; j >= 0; j = parent_[j]) LD_(i, j) -= a * LD_(k, j);
      LD_(k, i) = a;
    }
  }
  return true;
}

// Lᵀ z = b from the leaves up: z_k is final once the dofs below k are done, and it updates its
// ancestors (nothing to do for z_k = 0).
void TreeFactorization::solve_lower_transpose_in_place(Eigen::Ref<Vector> x) const {
  for (Index k = LD_.rows() - 1; k >= 0; --k)
    if (x[k] != 0.0)
      for (Index j = parent_[k]; j >= 0; j = parent_[j]) x[j] -= LD_(k, j) * x[k];
}

// M x = b as Lᵀ z = b (from the leaves up), y = D⁻¹ z, L x = y (from the roots down).
void TreeFactorization::solve_in_place(Eigen::Ref<Vector> x) const {
  const Index n = LD_.rows();
  solve_lower_transpose_in_place(x);
  for (Index k = 0; k < n; ++k) x[k] /= LD_(k, k);
  for (Index i = 0; i < n; ++i)
    for (Index j = parent_[i]; j >= 0; j = parent_[j]) x[i] -= LD_(i, j) * x[j];
}

Matrix TreeFactorization::solve(const Matrix& B) const {
  Matrix X = B;
  for (Index c = 0; c < X.cols(); ++c) solve_in_place(X.col(c));
  return X;
}

}  // namespace moreau
