#pragma once
// Matrix-class tests used by the solvability analysis of LCPs (Brogliato 2014 §4, Props 12–15;
// Brogliato, Kövecses & Acary 2020 Prop 6, Theorem 1, Cor 5).
//
// * Positive (semi)definite: for a NON-symmetric A these test the quadratic form xᵀAx, i.e. the
//   symmetric part (A + Aᵀ)/2 (as both papers, e.g. Cor 5 of the 2020 one, use "≻ 0"). Eigenvalues
//   of the symmetric part, threshold λ_min > τ·max(1, ‖A‖_max) (PD) or λ_min ≥ −τ·max(1, ‖A‖_max)
//   (PSD).
// * P-matrix: exact, all 2ⁿ − 1 principal minors > τ·max(1,‖A‖_max)^k (k = order of the minor),
//   computed by LU with partial pivoting. Refuses n > kMaxExactSize with std::invalid_argument.
// * Copositive (xᵀAx ≥ 0 ∀x ≥ 0) on the symmetric part S = (A + Aᵀ)/2, exact for small n by the
//   Cottle–Habetler–Lemke theorem applied to principal submatrices in increasing order:
//   if every principal submatrix of order k−1 of S_JJ is copositive, S_JJ is NOT copositive iff
//   S_JJ is invertible and S_JJ⁻¹ ≤ 0 entrywise; then x_J = −S_JJ⁻¹ 1 ≥ 0 gives xᵀSx = −1ᵀx < 0
//   (the witness). Strict copositivity (xᵀAx > 0 ∀x ≥ 0, x ≠ 0): copositive and no principal
//   submatrix S_JJ has a one-dimensional kernel spanned by a strictly positive vector (that vector
//   is then a witness with xᵀSx = 0). Refuses n > kMaxExactSize.
#include <vector>

#include "moreau/common/types.hpp"

namespace moreau {

inline constexpr Index kMaxExactSize = 16;        // 2ⁿ principal submatrices
inline constexpr double kClassTolerance = 1e-10;  // default relative tolerance τ of the tests

// |A − Aᵀ|_max ≤ τ·max(1, |A|_max).
bool is_symmetric(const Matrix& A, double tolerance = kClassTolerance);

// λ_min((A + Aᵀ)/2); +inf for an empty matrix. A must be square.
double min_symmetric_eigenvalue(const Matrix& A);

// xᵀAx > 0 for x ≠ 0: the symmetric part's smallest eigenvalue exceeds the tolerance.
bool is_positive_definite(const Matrix& A, double tolerance = kClassTolerance);
// xᵀAx ≥ 0: the symmetric part's smallest eigenvalue is ≥ −tolerance.
bool is_positive_semidefinite(const Matrix& A, double tolerance = kClassTolerance);

// Result of p_matrix_test: the answer and the smallest principal minor.
struct PMatrixTest {
  bool is_p_matrix = false;          // every principal minor > 0 (relative tolerance)
  double min_principal_minor = 0.0;  // the smallest principal minor found
  std::vector<Index> worst_subset;   // indices of that minor
};
// Exact P-matrix test (all principal minors > 0). Throws if A is not square or n > kMaxExactSize.
PMatrixTest p_matrix_test(const Matrix& A, double tolerance = kClassTolerance);
// True when p_matrix_test finds every principal minor > 0.
inline bool is_p_matrix(const Matrix& A) { return p_matrix_test(A).is_p_matrix; }

// Result of the copositivity test of a matrix.
struct CopositivityTest {
  bool copositive = false;           // xᵀAx ≥ 0 for every x ≥ 0
  bool strictly_copositive = false;  // xᵀAx > 0 for every x ≥ 0, x ≠ 0
  // When not copositive: x ≥ 0, ‖x‖₁ = 1, with xᵀAx < 0. When copositive but not strictly:
  // x ≥ 0, x ≠ 0 with xᵀAx = 0. Empty otherwise.
  Vector witness;
};
// Exact copositivity test of xᵀAx on x ≥ 0 (see above). Throws if not square or n > kMaxExactSize.
CopositivityTest copositivity_test(const Matrix& A, double tolerance = kClassTolerance);

}  // namespace moreau
