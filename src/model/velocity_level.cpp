#include "moreau/model/velocity_level.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/QR>

#include "moreau/common/error.hpp"
#include "moreau/solvers/fc/solver_choice.hpp"

namespace moreau {

namespace {

// True when A and B have the same size and the same stored entries (compressed, column-major).
bool same_pattern(const Eigen::SparseMatrix<double>& A, const Eigen::SparseMatrix<double>& B) {
  if (A.rows() != B.rows() || A.cols() != B.cols() || A.nonZeros() != B.nonZeros()) return false;
  return std::equal(A.outerIndexPtr(), A.outerIndexPtr() + A.cols() + 1, B.outerIndexPtr()) &&
         std::equal(A.innerIndexPtr(), A.innerIndexPtr() + A.nonZeros(), B.innerIndexPtr());
}

}  // namespace

void MassSolver::factorize(const Matrix& M, const std::vector<Index>* parent) {
  if (parent == nullptr) return factorize(M);
  MOREAU_REQUIRE(static_cast<Index>(parent->size()) == M.rows(),
                 "simulation: the mass matrix is {}×{} but its tree has {} velocities", M.rows(),
                 M.cols(), parent->size());
  tree_used_ = true;
  MOREAU_REQUIRE(tree_.factor(M, *parent),
                 "simulation: the mass matrix ({}×{}) is not positive definite at velocity {} "
                 "(pivot not positive)",
                 M.rows(), M.cols(), tree_.pivot());
}

void MassSolver::factorize(const Matrix& M) {
  tree_used_ = false;
  Eigen::SparseMatrix<double> S = M.sparseView(0.0, 0.0);
  S.makeCompressed();
  const double scale = M.size() > 0 ? M.cwiseAbs().maxCoeff() : 0.0;
  symmetric_ = M.size() == 0 || (M - M.transpose()).cwiseAbs().maxCoeff() <= 1e-14 * scale;
  if (!symmetric_) {
    pattern_ = Eigen::SparseMatrix<double>();
    lu_.compute(S);
    MOREAU_REQUIRE(lu_.info() == Eigen::Success,
                   "simulation: the iteration matrix ({}×{}) is singular", M.rows(), M.cols());
    return;
  }
  if (!same_pattern(S, pattern_)) {
    ldlt_.analyzePattern(S);
    pattern_ = S;
  }
  ldlt_.factorize(S);
  MOREAU_REQUIRE(ldlt_.info() == Eigen::Success,
                 "simulation: the mass matrix ({}×{}) is not positive definite", M.rows(),
                 M.cols());
}

Vector MassSolver::solve(const Vector& b) const {
  if (tree_used_) {
    Vector x = b;
    tree_.solve_in_place(x);
    return x;
  }
  return symmetric_ ? Vector(ldlt_.solve(b)) : Vector(lu_.solve(b));
}

void MassSolver::solve_in_place(Eigen::Ref<Vector> b) const {
  if (tree_used_)
    tree_.solve_in_place(b);
  else
    b = solve(Vector(b));
}

Eigen::SparseMatrix<double> MassSolver::solve(const Eigen::SparseMatrix<double>& B) const {
  if (tree_used_) return tree_.solve(Matrix(B)).sparseView(0.0, 0.0);
  if (symmetric_) return ldlt_.solve(B);
  // SparseLU solves dense right-hand sides: column by column through a dense copy
  const Matrix X = const_cast<Eigen::SparseLU<Eigen::SparseMatrix<double>>&>(lu_).solve(Matrix(B));
  return X.sparseView(0.0, 0.0);
}

// H = [∇h_i  H_t,i]_i (n × d·|which|), or [∇h_i]_i for bilateral rows.
Eigen::SparseMatrix<double> contact_jacobian(const ContactState& s, const std::vector<Index>& which,
                                             bool bilateral) {
  const Index n = s.M.rows();
  const Index d = bilateral ? 1 : s.dimension;
  std::vector<Eigen::Triplet<double>> trip;
  for (std::size_t k = 0; k < which.size(); ++k) {
    const ContactConstraint& c = s.constraints[which[k]];
    for (Index j = 0; j < n; ++j) {
      if (c.normal[j] != 0.0) trip.emplace_back(j, d * k, c.normal[j]);
      if (!bilateral)
        for (Index a = 0; a < d - 1; ++a)
          if (c.tangent(j, a) != 0.0) trip.emplace_back(j, d * k + 1 + a, c.tangent(j, a));
    }
  }
  Eigen::SparseMatrix<double> H(n, d * static_cast<Index>(which.size()));
  H.setFromTriplets(trip.begin(), trip.end());
  return H;
}

namespace {

// H (n × d|which|; bilateral: n × |which|) dense, from the constraints' own rows: the entries of
// contact_jacobian, zeros included.
Matrix dense_contact_jacobian(const ContactState& s, const std::vector<Index>& which,
                              bool bilateral) {
  const Index n = s.M.rows();
  const Index d = bilateral ? 1 : s.dimension;
  Matrix H(n, d * static_cast<Index>(which.size()));
  for (std::size_t k = 0; k < which.size(); ++k) {
    const ContactConstraint& c = s.constraints[which[k]];
    const Index col = d * static_cast<Index>(k);
    H.col(col) = c.normal;
    if (!bilateral) H.middleCols(col + 1, d - 1) = c.tangent;
  }
  return H;
}

// Yᵀ V for V = D⁻¹ Y (D diagonal, so the product is symmetric): the lower triangle by column dot
// products, mirrored, each over the rows up to the shorter column's last nonzero (a column of
// Y = L⁻ᵀ H is nonzero on its contact's chain to the root only, whose dofs come first in the tree
// order). At a robot's sizes (27 × 30) Eigen's general product packed its panels for its kernel.
Matrix symmetric_product(const Matrix& Y, const Matrix& V) {
  const Index m = Y.cols();
  std::vector<Index> length(static_cast<size_t>(m));  // rows up to the last nonzero
  for (Index c = 0; c < m; ++c) {
    Index k = Y.rows();
    while (k > 0 && Y(k - 1, c) == 0.0) --k;
    length[static_cast<size_t>(c)] = k;
  }
  Matrix W(m, m);
  for (Index j = 0; j < m; ++j)
    for (Index i = j; i < m; ++i) {
      const Index k = std::min(length[static_cast<size_t>(i)], length[static_cast<size_t>(j)]);
      W(i, j) = W(j, i) = Y.col(i).head(k).dot(V.col(j).head(k));
    }
  return W;
}

// The entries of a dense W with |w| > floor (and any NaN, which the solver's checks then name)
// as a row-major sparse matrix, row by row (Eigen's
// sparseView inserts entry by entry into a column-major matrix, which then had to be turned
// row-major: a tenth of the Go2's step).
SparseMatrix row_major_sparse(const Matrix& W, double floor) {
  const Index rows = W.rows(), cols = W.cols();
  Index kept = 0;
  for (Index j = 0; j < cols; ++j)
    for (Index i = 0; i < rows; ++i) kept += !(std::abs(W(i, j)) <= floor);
  SparseMatrix S(rows, cols);
  S.resizeNonZeros(kept);
  int* outer = S.outerIndexPtr();
  int* inner = S.innerIndexPtr();
  double* value = S.valuePtr();
  Index at = 0;
  for (Index i = 0; i < rows; ++i) {
    outer[i] = static_cast<int>(at);
    for (Index j = 0; j < cols; ++j)
      if (!(std::abs(W(i, j)) <= floor)) {
        inner[at] = static_cast<int>(j);
        value[at++] = W(i, j);
      }
  }
  outer[rows] = static_cast<int>(at);
  return S;
}

}  // namespace

// See the header.
std::optional<VelocityLevelSolution> warm_start_solution(
    const ContactState& s, const MassSolver& mass, const Vector& v_free,
    const VelocityLevelInput& in, double tolerance, const std::string& solver) {
  const int d = s.dimension;
  const Index nu = static_cast<Index>(in.unilateral.size());
  if (nu == 0 || !in.bilateral.empty() || in.guess.size() != d * nu || !mass.along_tree() ||
      v_free.size() > kDenseCondensation || d * nu > kDenseCondensation ||
      in.w_unilateral.size() != d * nu || !all_finite(in.guess))
    return std::nullopt;
  const Matrix H = dense_contact_jacobian(s, in.unilateral, false);
  Vector impulse(v_free.size());
  impulse.noalias() = H * in.guess;
  mass.solve_in_place(impulse);
  VelocityLevelSolution out;
  out.v = v_free + impulse;
  out.u.resize(d * nu);
  out.u.noalias() = H.transpose() * out.v;
  out.u += in.w_unilateral;
  if (in.compliance.size() == nu)
    for (Index k = 0; k < nu; ++k) out.u[d * k] += in.compliance[k] * in.guess[d * k];
  FrictionContactProblem fc;  // q and μ for the residual (W is not formed)
  fc.dimension = d;
  fc.q.resize(d * nu);
  fc.q.noalias() = H.transpose() * v_free;
  fc.q += in.w_unilateral;
  fc.mu.resize(nu);
  for (Index k = 0; k < nu; ++k) {
    fc.mu[k] = s.constraints[in.unilateral[k]].mu;
    if (!(fc.mu[k] >= 0.0)) return std::nullopt;  // the solver's checks name it
  }
  const double residual = friction_contact_residual(fc, in.guess, out.u);
  if (!(residual <= tolerance)) return std::nullopt;
  out.r = in.guess;
  out.p = Vector::Zero(0);
  out.report.solver = solver;
  out.report.status = Status::converged;
  out.report.iterations = 0;
  out.report.residual = residual;
  out.report.residual_history.assign(1, residual);
  out.report.r = out.r;
  out.report.u = out.u;
  out.report.message = "the warm start meets the tolerance";
  return out;
}

// See the header: condensation W = Hᵀ M⁻¹ H, q = Hᵀ v_free + w, Schur elimination of the
// bilateral rows, registry solve, then v⁺ = v_free + M⁻¹(H_U r + H_B p).
VelocityLevelSolution solve_velocity_level(const ContactState& s, const MassSolver& mass,
                                           const Vector& v_free, const VelocityLevelInput& in,
                                           const std::string& solver,
                                           const FrictionContactSettings& settings) {
  const int d = s.dimension;
  const Index nu = static_cast<Index>(in.unilateral.size());
  const Index nb = static_cast<Index>(in.bilateral.size());
  VelocityLevelSolution out;
  out.v = v_free;
  out.r = Vector::Zero(d * nu);
  out.p = Vector::Zero(nb);
  if (nu == 0 && nb == 0) {
    out.report.status = Status::converged;
    out.report.residual = 0.0;
    return out;
  }
  // Along a tree of at most kDenseCondensation velocities (joint coordinates), with M = Lᵀ D L
  // (tree_factorization.hpp): W = Hᵀ M⁻¹ H = Yᵀ D⁻¹ Y, Y = L⁻ᵀ H dense, each column formed on
  // its contact's chain to the root only (the sparse route solved the whole tree for every
  // column, turned M⁻¹ H dense and back, and multiplied sparse by sparse: a fifth of the
  // humanoid's step). Otherwise X = M⁻¹ H sparse and W = Hᵀ X.
  const bool dense =
      mass.along_tree() && v_free.size() <= kDenseCondensation && d * nu + nb <= kDenseCondensation;
  // H_U and H_B: sparse, or on the dense route dense from the constraints' own rows (its
  // triplets and sparse assembly were a twentieth of the humanoid's step)
  Eigen::SparseMatrix<double> HU, HB;
  Matrix HU_dense, HB_dense;
  if (dense) {
    HU_dense = dense_contact_jacobian(s, in.unilateral, false);
    HB_dense = dense_contact_jacobian(s, in.bilateral, true);
  } else {
    HU = contact_jacobian(s, in.unilateral, false);
    HB = contact_jacobian(s, in.bilateral, true);
  }
  // Hᵀ x and H y on either route
  auto HU_t = [&](const Vector& x) -> Vector {
    return dense ? Vector(HU_dense.transpose() * x) : Vector(HU.transpose() * x);
  };
  auto HB_t = [&](const Vector& x) -> Vector {
    return dense ? Vector(HB_dense.transpose() * x) : Vector(HB.transpose() * x);
  };
  Eigen::SparseMatrix<double> XU, XB;  // sparse route: M⁻¹ H_U, M⁻¹ H_B
  Eigen::SparseMatrix<double> WUU;     // sparse route
  Matrix WUU_dense;                    // dense route: W_UU, then W̃ and the softening
  Matrix WBB, WBU;                     // with bilateral rows
  if (dense) {
    Matrix YU = HU_dense, YB = HB_dense;
    for (Index c = 0; c < YU.cols(); ++c) mass.tree().solve_lower_transpose_in_place(YU.col(c));
    for (Index c = 0; c < YB.cols(); ++c) mass.tree().solve_lower_transpose_in_place(YB.col(c));
    const Vector d_inv = mass.tree().pivots().cwiseInverse();
    const Matrix VU = d_inv.asDiagonal() * YU;  // D⁻¹ Y_U
    WUU_dense = symmetric_product(YU, VU);
    if (nb > 0) {
      const Matrix VB = d_inv.asDiagonal() * YB;
      WBB = symmetric_product(YB, VB);
      WBU = YB.transpose() * VU;
    }
  } else {
    XU = mass.solve(HU);
    XB = mass.solve(HB);
    WUU = HU.transpose() * XU;
    if (nb > 0) {
      WBB = Matrix(HB.transpose() * XB);
      WBU = Matrix(HB.transpose() * XU);
    }
  }
  Vector qU = HU_t(v_free) + in.w_unilateral;

  double dropped_below = 0.0;  // the dense route keeps W's entries with |w| above this
  Matrix G;                    // W_BB⁺ W_BU (|B| × d|U|)
  Vector gB;                   // W_BB⁺ q_B
  if (nb > 0) {
    const Vector qB = HB_t(v_free) + in.w_bilateral;
    Eigen::CompleteOrthogonalDecomposition<Matrix> cod(WBB);
    cod.setThreshold(1e-12);
    gB = cod.solve(qB);
    // (an empty right-hand side is skipped: Eigen's triangular solve reads its first entry, UBSan)
    G = nu > 0 ? Matrix(cod.solve(WBU)) : Matrix::Zero(nb, 0);
    if (nu > 0) {
      const Matrix WUB = WBU.transpose();
      if (dense) {
        WUU_dense -= WUB * G;
        dropped_below = 1e-300;  // as the sparse route's sparseView(1e-300, 1) below
      } else {
        const Matrix Wd = Matrix(WUU) - WUB * G;
        WUU = Wd.sparseView(1e-300, 1.0);
      }
      qU -= WUB * gB;
    }
  }

  const bool softened = in.compliance.size() == nu && nu > 0 && !in.compliance.isZero(0.0);
  if (softened && dense) {
    for (Index k = 0; k < nu; ++k) WUU_dense(d * k, d * k) += in.compliance[k];
  } else if (softened) {
    std::vector<Eigen::Triplet<double>> diag;
    for (Index k = 0; k < nu; ++k) diag.emplace_back(d * k, d * k, in.compliance[k]);
    Eigen::SparseMatrix<double> C(d * nu, d * nu);
    C.setFromTriplets(diag.begin(), diag.end());
    WUU = WUU + C;
  }
  if (nu > 0) {
    FrictionContactProblem fc;
    fc.dimension = d;
    fc.W = dense ? row_major_sparse(WUU_dense, dropped_below) : SparseMatrix(WUU);
    fc.q = qU;
    fc.mu.resize(nu);
    for (Index k = 0; k < nu; ++k) fc.mu[k] = s.constraints[in.unilateral[k]].mu;
    const Vector guess = in.guess.size() == d * nu ? in.guess : Vector();
    // "auto": the default for a mechanism's step (solver_choice.hpp), its Newton stages with the
    // proximal term, as a mechanism's contacts are redundant (W of rank ≤ n_v): with it and the
    // dense Newton route (newton.hpp) the humanoid of bench/models ran its 600 steps in 0.103 s
    // instead of 0.155 s
    const std::string name = solver == "auto" ? choose_velocity_level_solver(fc) : solver;
    FrictionContactSettings chosen = settings;
    if (solver == "auto" && chosen.newton_proximal == kDefaultNewtonProximal)  // left unset
      chosen.newton_proximal = kRedundantContactsProximal;
    out.report = solve_friction_contact(fc, name, chosen, guess);
    if (out.report.r.size() == d * nu && all_finite(out.report.r)) out.r = out.report.r;
  } else {
    out.report.status = Status::converged;
    out.report.residual = 0.0;
  }
  if (nb > 0) out.p = nu > 0 ? Vector(-(G * out.r + gB)) : Vector(-gB);
  if (dense) {  // v⁺ = v_free + M⁻¹ (H_U r + H_B p): one solve
    Vector impulse = HU_dense * out.r + HB_dense * out.p;
    mass.solve_in_place(impulse);
    out.v = v_free + impulse;
  } else {
    out.v = v_free + XU * out.r + XB * out.p;
  }
  out.u = HU_t(out.v) + in.w_unilateral;
  if (softened)
    for (Index k = 0; k < nu; ++k) out.u[d * k] += in.compliance[k] * out.r[d * k];
  return out;
}

}  // namespace moreau
