#pragma once
// Anderson acceleration (type II) of a fixed-point iteration x ← G(x): Walker & Ni, "Anderson
// acceleration for fixed-point iterations", SIAM J. Numer. Anal. 49 (2011) 1715–1735, algorithm AA
// with memory m:
//   f_k = G(x_k) − x_k,   ΔF = [f_{i+1} − f_i],  ΔG = [G(x_{i+1}) − G(x_i)]  (the last m),
//   γ = argmin ‖f_k − ΔF γ‖₂,    x_{k+1} = G(x_k) − ΔG γ.
// The least-squares problem is solved on its m × m normal equations, kept up to date one column
// at a time, with a ridge 1e-10·trace/m (the columns become nearly dependent as the iteration
// converges). An affine image Y(x) = y₀ + A x (the velocities v = v_free + M⁻¹H r of an impulse
// iterate) is carried along by the same combination, y_{k+1} = Y(G(x_k)) − ΔY γ, so it stays
// consistent with x_{k+1} without being recomputed.
//
// Safeguard (the maps here are projected Gauss–Seidel sweeps, smooth only while no contact
// changes between stick, slip and separation): when ‖f_k‖ exceeds 2‖f_{k−1}‖ the differences are
// forgotten and x_{k+1} = G(x_k) (a restart).
//
// Used by body-block NSGS (solvers/fc/body_block_nsgs.hpp) and by the position projection of the
// time stepper (model/step_contacts.hpp), where plain Gauss–Seidel passes a load down a stack one
// contact per sweep: on a column of 40 spheres, 15,183 sweeps plain, 196 accelerated.
#include <Eigen/Dense>
#include <algorithm>

#include "moreau/common/types.hpp"

namespace moreau {

// Anderson acceleration state of one fixed-point iteration (see the header comment).
class AndersonAcceleration {
 public:
  static constexpr int kMaxMemory = 16;  // largest memory m

  // memory m in [1, kMaxMemory] (clamped).
  explicit AndersonAcceleration(int memory) : m_(std::clamp(memory, 1, kMaxMemory)) {}

  // Forgets the differences (a restart); the next call only records its point.
  void reset() {
    count_ = 0;
    next_ = 0;
    have_previous_ = false;
  }

  // x: the iterate the map was applied to; g = G(x) and y = Y(g) are replaced by the
  // extrapolated x_{k+1} and Y(x_{k+1}) (left as they are on the first call after a reset).
  void extrapolate(const Vector& x, Vector& g, Vector& y) {
    const Index n = g.size();
    if (dF_.rows() != n || dY_.rows() != y.size()) {
      dF_.resize(n, m_), dG_.resize(n, m_), dY_.resize(y.size(), m_);
      reset();
    }
    f_ = g - x;
    const double f2 = f_.squaredNorm();
    if (have_previous_ && f2 > kRestartGrowth * kRestartGrowth * f2_prev_) reset();
    if (have_previous_) {
      const int slot = next_;
      dF_.col(slot) = f_ - f_prev_;
      dG_.col(slot) = g - g_prev_;
      dY_.col(slot) = y - y_prev_;
      next_ = (next_ + 1) % m_;
      count_ = std::min(count_ + 1, m_);
      for (int j = 0; j < count_; ++j)
        gram_(slot, j) = gram_(j, slot) = dF_.col(slot).dot(dF_.col(j));
    }
    f_prev_.swap(f_);
    g_prev_ = g, y_prev_ = y;
    f2_prev_ = f2;
    have_previous_ = true;
    if (count_ == 0) return;
    Small A = gram_.topLeftCorner(count_, count_);
    SmallVector rhs(count_);
    for (int j = 0; j < count_; ++j) rhs[j] = dF_.col(j).dot(f_prev_);
    A.diagonal().array() += 1e-10 * std::max(A.trace() / count_, 1e-300);
    const SmallVector gamma = A.ldlt().solve(rhs);
    if (!gamma.allFinite()) {
      reset();
      return;
    }
    g.noalias() -= dG_.leftCols(count_) * gamma;
    y.noalias() -= dY_.leftCols(count_) * gamma;
  }

 private:
  using Small = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, 0, kMaxMemory, kMaxMemory>;
  using SmallVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, kMaxMemory, 1>;
  static constexpr double kRestartGrowth = 2.0;  // restart when ‖f_k‖ > 2‖f_{k−1}‖

  int m_;
  int count_ = 0;  // stored differences, ≤ m; they fill the slots 0 … count_ − 1
  int next_ = 0;   // slot of the next difference
  bool have_previous_ = false;
  double f2_prev_ = 0.0;
  Eigen::MatrixXd dF_, dG_, dY_;
  Eigen::Matrix<double, kMaxMemory, kMaxMemory> gram_;
  Vector f_, f_prev_, g_prev_, y_prev_;
};

}  // namespace moreau
