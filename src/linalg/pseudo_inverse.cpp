#include "moreau/linalg/pseudo_inverse.hpp"

#include <algorithm>

#include "moreau/common/error.hpp"

namespace moreau {
namespace {

// Thin-free SVD with full U and V (small dense matrices only).
Eigen::JacobiSVD<Matrix> full_svd(const Matrix& A) {
  MOREAU_REQUIRE(all_finite(A), "linalg: matrix has a NaN or infinite entry");
  return Eigen::JacobiSVD<Matrix>(A, Eigen::ComputeFullU | Eigen::ComputeFullV);
}

Index rank_of(const Vector& sigma, double tau) {
  if (sigma.size() == 0 || sigma[0] <= 0.0) return 0;
  const double cut = tau * sigma[0];
  Index r = 0;
  for (Index i = 0; i < sigma.size(); ++i)
    if (sigma[i] > cut) ++r;
  return r;
}

void check_tau(double tau) {
  MOREAU_REQUIRE(tau > 0.0 && tau < 1.0,
                 "linalg: relative rank tolerance must lie in (0, 1), got {}", tau);
}

}  // namespace

Index numerical_rank(const Matrix& A, double tau) {
  check_tau(tau);
  if (A.size() == 0) return 0;
  return rank_of(full_svd(A).singularValues(), tau);
}

// A† = V Σ⁺ Uᵀ with σ_i ≤ τ σ_max treated as zero.
Matrix pseudo_inverse(const Matrix& A, double tau) {
  check_tau(tau);
  if (A.size() == 0) return Matrix::Zero(A.cols(), A.rows());
  const auto svd = full_svd(A);
  const Vector& s = svd.singularValues();
  const Index r = rank_of(s, tau);
  Matrix result = Matrix::Zero(A.cols(), A.rows());
  for (Index i = 0; i < r; ++i)
    result += (svd.matrixV().col(i) / s[i]) * svd.matrixU().col(i).transpose();
  return result;
}

Matrix null_space(const Matrix& A, double tau) {
  check_tau(tau);
  if (A.cols() == 0) return Matrix(0, 0);
  if (A.rows() == 0) return Matrix::Identity(A.cols(), A.cols());
  const auto svd = full_svd(A);
  const Index r = rank_of(svd.singularValues(), tau);
  return svd.matrixV().rightCols(A.cols() - r);
}

Matrix range_space(const Matrix& A, double tau) {
  check_tau(tau);
  if (A.size() == 0) return Matrix(A.rows(), 0);
  const auto svd = full_svd(A);
  const Index r = rank_of(svd.singularValues(), tau);
  return svd.matrixU().leftCols(r);
}

bool in_range(const Matrix& A, const Vector& b, double tau) {
  MOREAU_REQUIRE(A.rows() == b.size(), "in_range: A has {} rows but b has {} entries", A.rows(),
                 b.size());
  MOREAU_REQUIRE(all_finite(b), "in_range: b has a NaN or infinite entry");
  if (b.size() == 0) return true;
  if (A.cols() == 0) return b.norm() <= tau;
  const Vector z = pseudo_inverse(A) * b;
  const double scale = std::max({1.0, b.norm(), A.norm() * z.norm()});
  return (A * z - b).norm() <= tau * scale;
}

double smallest_singular_value(const Matrix& A) {
  if (A.size() == 0) return 0.0;
  const auto s = full_svd(A).singularValues();
  return s[s.size() - 1];
}

double largest_singular_value(const Matrix& A) {
  if (A.size() == 0) return 0.0;
  return full_svd(A).singularValues()[0];
}

}  // namespace moreau
