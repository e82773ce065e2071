#pragma once
// Scalar, index and matrix types used throughout moreau (see docs/notation.md).
#include <Eigen/Dense>
#include <Eigen/Sparse>

namespace moreau {

using Index = Eigen::Index;
using Vector = Eigen::VectorXd;
using Matrix = Eigen::MatrixXd;
using Vector2 = Eigen::Vector2d;
using Vector3 = Eigen::Vector3d;
using Matrix2 = Eigen::Matrix2d;
using Matrix3 = Eigen::Matrix3d;
// Row-major so that the row block of one contact (u_i = W_i· r + q_i) is contiguous.
using SparseMatrix = Eigen::SparseMatrix<double, Eigen::RowMajor>;
using Triplet = Eigen::Triplet<double>;

}  // namespace moreau
