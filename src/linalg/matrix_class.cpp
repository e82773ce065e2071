#include "moreau/linalg/matrix_class.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "moreau/common/error.hpp"
#include "moreau/linalg/pseudo_inverse.hpp"

namespace moreau {
namespace {

void require_square(const Matrix& A, const char* who) {
  MOREAU_REQUIRE(A.rows() == A.cols(), "{}: matrix must be square, got {}×{}", who, A.rows(),
                 A.cols());
  MOREAU_REQUIRE(all_finite(A), "{}: matrix has a NaN or infinite entry", who);
}

void require_small(const Matrix& A, const char* who) {
  MOREAU_REQUIRE(
      A.rows() <= kMaxExactSize,
      "{}: exact test enumerates 2ⁿ principal submatrices and is limited to n ≤ {}, got n = {}",
      who, kMaxExactSize, A.rows());
}

double scale_of(const Matrix& A) { return std::max(1.0, A.size() ? A.cwiseAbs().maxCoeff() : 0.0); }

Matrix sub(const Matrix& A, const std::vector<Index>& J) {
  Matrix S(J.size(), J.size());
  for (size_t a = 0; a < J.size(); ++a)
    for (size_t b = 0; b < J.size(); ++b) S(a, b) = A(J[a], J[b]);
  return S;
}

std::vector<Index> members(unsigned mask, Index n) {
  std::vector<Index> J;
  for (Index i = 0; i < n; ++i)
    if (mask & (1u << i)) J.push_back(i);
  return J;
}

}  // namespace

bool is_symmetric(const Matrix& A, double tol) {
  if (A.rows() != A.cols()) return false;
  if (A.size() == 0) return true;
  return (A - A.transpose()).cwiseAbs().maxCoeff() <= tol * scale_of(A);
}

double min_symmetric_eigenvalue(const Matrix& A) {
  require_square(A, "min_symmetric_eigenvalue");
  if (A.size() == 0) return std::numeric_limits<double>::infinity();
  const Matrix S = 0.5 * (A + A.transpose());
  return Eigen::SelfAdjointEigenSolver<Matrix>(S, Eigen::EigenvaluesOnly).eigenvalues()[0];
}

bool is_positive_definite(const Matrix& A, double tol) {
  return min_symmetric_eigenvalue(A) > tol * scale_of(A);
}

bool is_positive_semidefinite(const Matrix& A, double tol) {
  return min_symmetric_eigenvalue(A) >= -tol * scale_of(A);
}

// All 2ⁿ − 1 principal minors by LU with partial pivoting; the minor of order k is compared with
// τ·scaleᵏ so that the test is invariant to a global scaling of A.
PMatrixTest p_matrix_test(const Matrix& A, double tol) {
  require_square(A, "p_matrix_test");
  require_small(A, "p_matrix_test");
  const Index n = A.rows();
  const double scale = scale_of(A);
  PMatrixTest out;
  out.is_p_matrix = true;
  out.min_principal_minor = std::numeric_limits<double>::infinity();
  for (unsigned mask = 1; mask < (1u << n); ++mask) {
    const auto J = members(mask, n);
    const Matrix S = sub(A, J);
    const double det = S.size() == 1 ? S(0, 0) : S.partialPivLu().determinant();
    if (det < out.min_principal_minor) {
      out.min_principal_minor = det;
      out.worst_subset = J;
    }
    if (!(det > tol * std::pow(scale, static_cast<double>(J.size())))) out.is_p_matrix = false;
  }
  if (n == 0) out.min_principal_minor = 0.0;
  return out;
}

// Cottle–Habetler–Lemke, subsets in increasing size: a subset J all of whose (|J|−1)-subsets are
// copositive fails iff S_JJ is invertible with S_JJ⁻¹ ≤ 0. Any failing subset makes A
// non-copositive; if none fails, every principal submatrix (A itself included) is copositive.
CopositivityTest copositivity_test(const Matrix& A, double tol) {
  require_square(A, "copositivity_test");
  require_small(A, "copositivity_test");
  const Index n = A.rows();
  const Matrix S = 0.5 * (A + A.transpose());
  const double scale = scale_of(S);
  CopositivityTest out;
  // Order of subsets by size.
  std::vector<unsigned> masks;
  for (unsigned mask = 1; mask < (1u << n); ++mask) masks.push_back(mask);
  std::stable_sort(masks.begin(), masks.end(), [](unsigned a, unsigned b) {
    return __builtin_popcount(a) < __builtin_popcount(b);
  });
  for (unsigned mask : masks) {
    const auto J = members(mask, n);
    const Matrix SJ = sub(S, J);
    if (J.size() == 1) {
      if (SJ(0, 0) < -tol * scale) {
        out.witness = Vector::Zero(n);
        out.witness[J[0]] = 1.0;
        return out;
      }
      continue;
    }
    // Invertible (relative to the scale) and inverse entrywise ≤ 0?
    const double smin = smallest_singular_value(SJ);
    if (smin <= tol * scale) continue;
    const Matrix inv = SJ.inverse();
    if (inv.maxCoeff() <= 0.0) {
      const Vector xJ = -inv * Vector::Ones(J.size());
      Vector x = Vector::Zero(n);
      for (size_t a = 0; a < J.size(); ++a) x[J[a]] = std::max(0.0, xJ[a]);
      x /= x.sum();
      if (x.dot(S * x) < -tol * scale * x.squaredNorm()) {
        out.witness = x;
        return out;
      }
    }
  }
  out.copositive = true;
  // Strict: no principal submatrix with a 1-D kernel spanned by a positive vector (a zero of
  // xᵀSx on x ≥ 0 has (Sx)_J = 0 on its support J; a minimal such support has a 1-D kernel).
  for (unsigned mask : masks) {
    const auto J = members(mask, n);
    const Matrix SJ = sub(S, J);
    const Matrix K = null_space(SJ / scale, 1e-9);
    if (K.cols() != 1) {
      if (J.size() == 1 && std::abs(SJ(0, 0)) <= tol * scale) {
        out.witness = Vector::Zero(n);
        out.witness[J[0]] = 1.0;
        return out;
      }
      continue;
    }
    Vector k = K.col(0);
    if (k.sum() < 0) k = -k;
    if (k.minCoeff() > 1e-9 * k.cwiseAbs().maxCoeff()) {
      Vector x = Vector::Zero(n);
      for (size_t a = 0; a < J.size(); ++a) x[J[a]] = k[a];
      out.witness = x / x.sum();
      return out;
    }
  }
  out.strictly_copositive = true;
  return out;
}

}  // namespace moreau
