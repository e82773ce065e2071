#pragma once
// Scalar, index and matrix types used throughout moreau (see docs/notation.md).
#include <Eigen/Dense>
#include <Eigen/Sparse>

namespace moreau {

// Index and size type (signed, Eigen's).
using Index = Eigen::Index;
// Dynamic-size column vector of doubles.
using Vector = Eigen::VectorXd;
// Dynamic-size dense matrix of doubles (column-major).
using Matrix = Eigen::MatrixXd;
// Fixed-size 2-vector (planar quantities, 2D contact vectors [r_n, r_t]).
using Vector2 = Eigen::Vector2d;
// Fixed-size 3-vector (spatial quantities, 3D contact vectors [r_n, r_t1, r_t2]).
using Vector3 = Eigen::Vector3d;
// Fixed-size 2×2 matrix.
using Matrix2 = Eigen::Matrix2d;
// Fixed-size 3×3 matrix (rotations, inertias, one contact's Delassus block).
using Matrix3 = Eigen::Matrix3d;
// Row-major so that the row block of one contact (u_i = W_i· r + q_i) is contiguous.
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;
// (row, column, value) entry used to assemble a SparseMatrix.
using Triplet = Eigen::Triplet<double>;

}  // namespace moreau
