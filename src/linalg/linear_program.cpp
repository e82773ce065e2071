#include "moreau/linalg/linear_program.hpp"

#include <cmath>
#include <limits>
#include <vector>

#include "moreau/common/error.hpp"

namespace moreau {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Standard form: min cᵀx, A x = b, x ≥ 0 (b ≥ 0 after row sign flips), dense tableau, two phases,
// Bland's rule (smallest entering index with negative reduced cost; ratio ties → smallest basic
// variable index), which cannot cycle.
struct Tableau {
  Index m, n;  // rows, structural+slack columns (artificials are n..n+m−1)
  Matrix T;    // (m+1)×(n+m+1): rows 0..m−1 constraints, row m the reduced costs; last col rhs
  std::vector<Index> basis;
  double tol;
  int iterations = 0;
  int max_iterations;

  double& rhs(Index i) { return T(i, n + m); }

  void pivot(Index r, Index col) {
    const double piv = T(r, col);  // copy: the row is rescaled in place
    T.row(r) /= piv;
    for (Index i = 0; i <= m; ++i) {
      const double f = T(i, col);
      if (i != r && f != 0.0) T.row(i) -= f * T.row(r);
    }
    basis[r] = col;
    ++iterations;
  }

  // Runs the simplex on columns [0, ncols). Returns optimal / unbounded / iteration_limit.
  LpStatus run(Index ncols) {
    while (iterations < max_iterations) {
      Index enter = -1;
      for (Index j = 0; j < ncols; ++j)
        if (T(m, j) < -tol) {
          enter = j;
          break;
        }
      if (enter < 0) return LpStatus::optimal;
      Index leave = -1;
      double best = kInf;
      for (Index i = 0; i < m; ++i) {
        if (T(i, enter) > tol) {
          const double ratio = rhs(i) / T(i, enter);
          if (leave < 0 || ratio < best - 1e-14 * std::max(1.0, std::abs(best)) ||
              (std::abs(ratio - best) <= 1e-14 * std::max(1.0, std::abs(best)) && leave >= 0 &&
               basis[i] < basis[leave])) {
            best = ratio;
            leave = i;
          }
        }
      }
      if (leave < 0) return LpStatus::unbounded;
      pivot(leave, enter);
    }
    return LpStatus::iteration_limit;
  }

  void set_costs(const Vector& cost) {  // cost has n+m entries
    T.row(m).setZero();
    T.row(m).head(n + m) = cost.transpose();
    for (Index i = 0; i < m; ++i) T.row(m) -= cost[basis[i]] * T.row(i);
  }
};

}  // namespace

std::string to_string(LpStatus s) {
  switch (s) {
    case LpStatus::optimal:
      return "optimal";
    case LpStatus::infeasible:
      return "infeasible";
    case LpStatus::unbounded:
      return "unbounded";
    case LpStatus::iteration_limit:
      return "iteration_limit";
  }
  return "unknown";
}

LpResult solve_linear_program(const LinearProgram& lp, const LpSettings& settings) {
  const Index n = lp.c.size();
  const Index meq = lp.b_eq.size(), mub = lp.b_ub.size();
  MOREAU_REQUIRE(lp.A_eq.rows() == meq && (meq == 0 || lp.A_eq.cols() == n),
                 "linear program: A_eq must be {}×{}, got {}×{}", meq, n, lp.A_eq.rows(),
                 lp.A_eq.cols());
  MOREAU_REQUIRE(lp.A_ub.rows() == mub && (mub == 0 || lp.A_ub.cols() == n),
                 "linear program: A_ub must be {}×{}, got {}×{}", mub, n, lp.A_ub.rows(),
                 lp.A_ub.cols());
  const Vector lower = lp.lower.size() ? lp.lower : Vector::Zero(n);
  const Vector upper = lp.upper.size() ? lp.upper : Vector::Constant(n, kInf);
  MOREAU_REQUIRE(lower.size() == n && upper.size() == n,
                 "linear program: bounds must have {} entries, got {} and {}", n, lower.size(),
                 upper.size());
  MOREAU_REQUIRE(all_finite(lp.c) && all_finite(lp.A_eq) && all_finite(lp.b_eq) &&
                     all_finite(lp.A_ub) && all_finite(lp.b_ub),
                 "linear program: data has a NaN or infinite entry");
  for (Index j = 0; j < n; ++j)
    MOREAU_REQUIRE(!std::isnan(lower[j]) && !std::isnan(upper[j]) && lower[j] <= upper[j] &&
                       lower[j] < kInf && upper[j] > -kInf,
                   "linear program: variable {} has bounds [{}, {}]", j, lower[j], upper[j]);

  // Variable substitution x = offset + S x' with x' ≥ 0 (columns of S: +1, −1 or a split pair).
  std::vector<Index> pos(n, -1), neg(n, -1);
  Vector offset = Vector::Zero(n);
  Index nv = 0;
  std::vector<std::pair<Index, double>> extra_upper;  // (x' column, bound)
  for (Index j = 0; j < n; ++j) {
    if (std::isfinite(lower[j])) {
      offset[j] = lower[j];
      pos[j] = nv++;
      if (std::isfinite(upper[j])) extra_upper.push_back({pos[j], upper[j] - lower[j]});
    } else if (std::isfinite(upper[j])) {
      offset[j] = upper[j];
      neg[j] = nv++;
    } else {
      pos[j] = nv++;
      neg[j] = nv++;
    }
  }
  auto expand = [&](const Matrix& A) {  // rows in x → rows in x'
    Matrix B = Matrix::Zero(A.rows(), nv);
    for (Index j = 0; j < n; ++j) {
      if (pos[j] >= 0) B.col(pos[j]) += A.col(j);
      if (neg[j] >= 0) B.col(neg[j]) -= A.col(j);
    }
    return B;
  };
  const Index mup = mub + static_cast<Index>(extra_upper.size());
  const Index m = meq + mup;
  const Index ncol = nv + mup;  // structural + slacks
  Matrix A = Matrix::Zero(m, ncol);
  Vector b(m);
  if (meq) {
    A.block(0, 0, meq, nv) = expand(lp.A_eq);
    b.head(meq) = lp.b_eq - lp.A_eq * offset;
  }
  if (mub) {
    A.block(meq, 0, mub, nv) = expand(lp.A_ub);
    b.segment(meq, mub) = lp.b_ub - lp.A_ub * offset;
  }
  for (size_t k = 0; k < extra_upper.size(); ++k) {
    A(meq + mub + k, extra_upper[k].first) = 1.0;
    b[meq + mub + k] = extra_upper[k].second;
  }
  for (Index k = 0; k < mup; ++k) A(meq + k, nv + k) = 1.0;
  // Row equilibration and b ≥ 0.
  for (Index i = 0; i < m; ++i) {
    double s = A.row(i).cwiseAbs().maxCoeff();
    s = std::max(s, std::abs(b[i]));
    if (s > 0) {
      A.row(i) /= s;
      b[i] /= s;
    }
    if (b[i] < 0) {
      A.row(i) *= -1.0;
      b[i] = -b[i];
    }
  }
  Vector cost = Vector::Zero(ncol);
  {
    Matrix crow(1, n);
    crow.row(0) = lp.c.transpose();
    cost.head(nv) = expand(crow).row(0).transpose();
  }

  Tableau tab{m,
              ncol,
              Matrix::Zero(m + 1, ncol + m + 1),
              std::vector<Index>(m),
              settings.tolerance,
              0,
              settings.max_iterations};
  tab.T.block(0, 0, m, ncol) = A;
  tab.T.block(0, ncol, m, m).setIdentity();
  tab.T.col(ncol + m).head(m) = b;
  for (Index i = 0; i < m; ++i) tab.basis[i] = ncol + i;

  LpResult out;
  // Phase 1: minimise the sum of artificials.
  Vector c1 = Vector::Zero(ncol + m);
  c1.tail(m).setOnes();
  tab.set_costs(c1);
  LpStatus st = tab.run(ncol + m);
  out.iterations = tab.iterations;
  if (st != LpStatus::optimal) return out;  // phase 1 is bounded below by 0
  if (-tab.T(m, ncol + m) > settings.tolerance * std::max(1.0, static_cast<double>(m))) {
    out.status = LpStatus::infeasible;
    return out;
  }
  // Drive artificials out of the basis (or drop redundant rows by leaving them: their rows are
  // all-zero over real columns and stay at level 0).
  for (Index i = 0; i < m; ++i) {
    if (tab.basis[i] < ncol) continue;
    for (Index j = 0; j < ncol; ++j)
      if (std::abs(tab.T(i, j)) > settings.tolerance) {
        tab.pivot(i, j);
        break;
      }
  }
  // Phase 2 on the real columns only (artificial columns are never re-entered).
  Vector c2 = Vector::Zero(ncol + m);
  c2.head(ncol) = cost;
  tab.set_costs(c2);
  st = tab.run(ncol);
  out.iterations = tab.iterations;
  if (st != LpStatus::optimal) {
    out.status = st;
    return out;
  }
  Vector xp = Vector::Zero(ncol);
  for (Index i = 0; i < m; ++i)
    if (tab.basis[i] < ncol) xp[tab.basis[i]] = tab.rhs(i);
  out.x = offset;
  for (Index j = 0; j < n; ++j) {
    if (pos[j] >= 0) out.x[j] += xp[pos[j]];
    if (neg[j] >= 0) out.x[j] -= xp[neg[j]];
  }
  out.objective = lp.c.dot(out.x);
  out.status = LpStatus::optimal;
  return out;
}

}  // namespace moreau
