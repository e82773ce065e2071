#pragma once
// Rank, pseudo-inverse, null space and range tests by the singular value decomposition
// (Brogliato, Kövecses & Acary 2020, Appendix A, Prop 14: Az = b is solvable iff A A† b = b; all
// solutions are z = A† b + (I − A† A) y).
//
// Tolerance (documented once, used everywhere in moreau's analysis layer): a singular value σ_i
// counts as nonzero when σ_i > τ·σ_max, with the RELATIVE tolerance τ = kRankTolerance = 1e-10
// unless the caller passes another τ > 0. (MATLAB's default max(m,n)·ε is too strict for data
// assembled from trigonometric kinematics; 1e-10 leaves ~6 digits of margin on double data.)
// A matrix whose σ_max is 0 (or an empty matrix) has rank 0.
#include "moreau/common/types.hpp"

namespace moreau {

inline constexpr double kRankTolerance = 1e-10;  // relative to σ_max

// rank(A) = #{σ_i > τ σ_max}.
Index numerical_rank(const Matrix& A, double relative_tolerance = kRankTolerance);

// Moore–Penrose pseudo-inverse A† = V Σ⁺ Uᵀ (σ_i ≤ τ σ_max set to 0). A is m×n, A† is n×m.
Matrix pseudo_inverse(const Matrix& A, double relative_tolerance = kRankTolerance);

// Orthonormal basis of ker A (n×k, k = n − rank A; n×0 when A has full column rank).
Matrix null_space(const Matrix& A, double relative_tolerance = kRankTolerance);

// Orthonormal basis of im A (m×rank A).
Matrix range_space(const Matrix& A, double relative_tolerance = kRankTolerance);

// ‖A A† b − b‖₂ ≤ τ_b · max(1, ‖b‖₂, ‖A‖_F·‖A† b‖₂): b lies in im A (solvability of Az = b).
bool in_range(const Matrix& A, const Vector& b, double relative_tolerance = 1e-9);

// Smallest / largest singular value (0 for an empty matrix).
double smallest_singular_value(const Matrix& A);
// Largest singular value σ_max(A) = ‖A‖₂ (0 for an empty matrix).
double largest_singular_value(const Matrix& A);

}  // namespace moreau
