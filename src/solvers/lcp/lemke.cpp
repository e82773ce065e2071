#include "moreau/solvers/lcp/lemke.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "lcp_detail.hpp"
#include "moreau/common/error.hpp"
#include "moreau/common/timer.hpp"

namespace moreau {

namespace {

// Variable numbering in the tableau: w_i → i, z_i → n + i, z₀ → 2n.
struct LemkeTableau {
  Index n = 0;
  // n × (2n + 2): columns [I | −M | −e | q̄] of  w − M z − e z₀ = q, premultiplied by B⁻¹.
  // The first n columns hold B⁻¹ itself (the w columns started as I), which the
  // lexicographic ratio test reads.
  Matrix T;
  std::vector<Index> basis;  // n, index of the basic variable of each row

  Index rhs() const { return 2 * n + 1; }
  Index z0() const { return 2 * n; }
  Index complement(Index var) const { return var < n ? var + n : var - n; }

  void pivot(Index row, Index col) {
    const double p = T(row, col);
    T.row(row) /= p;
    for (Index i = 0; i < n; ++i) {
      if (i == row) continue;
      const double f = T(i, col);
      if (f != 0.0) T.row(i) -= f * T.row(row);
    }
    T(row, col) = 1.0;  // exact, and the rest of the column exactly zero
    for (Index i = 0; i < n; ++i)
      if (i != row) T(i, col) = 0.0;
    basis[static_cast<std::size_t>(row)] = col;
  }
};

// Lexicographic minimum ratio test (Cottle–Pang–Stone §4.9): among the rows i ∈ candidates
// (d_i > 0), pick the lexicographic minimum of the row vector (q̄_i, β_i1, …, β_in) / d_i,
// β = B⁻¹. The rows of B⁻¹ are linearly independent, so exactly one row wins: no tie, no cycle.
// Floating point: the entries of a tableau column carry an absolute error of order
// ε·max_j |T(j, col)|, so two ratios count as equal for the next key when they differ by less
// than τ·max_j |T(j, col)|·(1/d_i + 1/d_best), τ = 1e-9. (A tie test relative to the ratios
// themselves fails on degenerate problems: there q̄_i = 0 exactly, its rounded value is noise
// of order 1e-16, and the noise then picks the row, which cycles on lcp_tobenna.dat.)
// `sign` = −1 turns it into the lexicographic maximum of (q̄_i, β_i)/(−1) used by the first pivot.
Index lexicographic_min_row(const LemkeTableau& t, const Vector& d, std::vector<Index>& candidates,
                            double sign) {
  constexpr double tau = 1e-9;
  for (Index k = -1; k < t.n && candidates.size() > 1; ++k) {
    const Index col = (k < 0) ? t.rhs() : k;
    const double colscale = std::max(t.T.col(col).cwiseAbs().maxCoeff(), 1e-300);
    auto key = [&](Index i) { return sign * t.T(i, col) / d[i]; };
    Index best_row = candidates.front();
    for (const Index i : candidates)
      if (key(i) < key(best_row)) best_row = i;
    const double best = key(best_row);
    const double inv_best = 1.0 / std::abs(d[best_row]);
    candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                    [&](Index i) {
                                      const double tie =
                                          tau * colscale * (1.0 / std::abs(d[i]) + inv_best);
                                      return key(i) > best + tie;
                                    }),
                     candidates.end());
  }
  return candidates.front();
}

}  // namespace

// Lemke's complementary pivoting method (Lemke 1965; Cottle, Pang & Stone 2009, Algorithm 4.4.5
// with the lexicographic rule of §4.9), covering vector e = 1:
//   w = q + M z + e z₀ ≥ 0,  z ≥ 0,  z₀ ≥ 0,  zᵢwᵢ = 0;  drive the artificial z₀ out of the basis.
// Departures from the book: (1) when the artificial z₀ is among the rows that tie (to
// rounding) for the minimum ratio it leaves at once, which ends the method with a solution;
// (2) at termination the complementary basis α = {i : zᵢ basic} is polished by one LU solve of
// M_αα z_α = −q_α (kept only if it lowers the residual), which removes tableau round-off.
LcpResult solve_lemke(const Lcp& problem, const LemkeSettings& settings) {
  problem.validate();
  MOREAU_REQUIRE(settings.max_pivots >= 0, "Lemke max_pivots must be ≥ 0, got {}",
                 settings.max_pivots);
  MOREAU_REQUIRE(settings.pivot_tolerance > 0.0 && settings.tolerance > 0.0,
                 "Lemke pivot_tolerance {} and tolerance {} must be > 0", settings.pivot_tolerance,
                 settings.tolerance);
  const Stopwatch clock;
  const Index n = problem.size();
  LcpResult result;
  result.solver = "lemke";
  result.z = Vector::Zero(n);

  auto finish = [&](Status status, std::string message = {}) {
    result.w = problem.M * result.z + problem.q;
    result.residual = n == 0 ? 0.0 : lcp_residual(problem, result.z);
    if (status == Status::converged && result.residual > settings.tolerance) {
      status = Status::numerical_failure;
      message = fmt::format("Lemke terminated but the residual {:.3e} exceeds the tolerance {:.3e}",
                            result.residual, settings.tolerance);
    }
    result.residual_history.push_back(result.residual);
    result.status = status;
    result.message = std::move(message);
    result.seconds = clock.seconds();
    return result;
  };

  // Trivial case: q ≥ 0 → z = 0, w = q.
  if (n == 0 || problem.q.minCoeff() >= 0.0) return finish(Status::converged);

  LemkeTableau t;
  t.n = n;
  t.T.setZero(n, 2 * n + 2);
  t.T.leftCols(n).setIdentity();
  t.T.middleCols(n, n) = -problem.M;
  t.T.col(2 * n).setConstant(-1.0);
  t.T.col(t.rhs()) = problem.q;
  t.basis.resize(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) t.basis[static_cast<std::size_t>(i)] = i;

  const int max_pivots =
      settings.max_pivots > 0 ? settings.max_pivots : 100 * static_cast<int>(n + 1);
  std::vector<Index> candidates;
  candidates.reserve(static_cast<std::size_t>(n));
  Vector d(n);  // entering column of the current tableau

  // First pivot: z₀ enters at −min q; the leaving row is the lexicographic minimum of (qᵢ, βᵢ)
  // over all rows, i.e. the lexicographic maximum of (qᵢ, βᵢ)/(−1) (the z₀ column is −e).
  d = t.T.col(t.z0());
  candidates.clear();
  for (Index i = 0; i < n; ++i) candidates.push_back(i);
  {
    // Keep only the rows attaining min q (the first key of the lexicographic test).
    const double qmin = problem.q.minCoeff();
    const double tie = 1e-9 * std::max(problem.q.cwiseAbs().maxCoeff(), 1e-300);
    candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                    [&](Index i) { return problem.q[i] > qmin + tie; }),
                     candidates.end());
  }
  Index row =
      settings.lexicographic ? lexicographic_min_row(t, d, candidates, -1.0) : candidates.front();
  Index leaving = t.basis[static_cast<std::size_t>(row)];
  t.pivot(row, t.z0());
  result.iterations = 1;
  Index entering = t.complement(leaving);

  Status status = Status::max_iterations;
  std::string message;
  while (result.iterations < max_pivots) {
    d = t.T.col(entering);
    const double dscale = std::max(1.0, d.cwiseAbs().maxCoeff());
    candidates.clear();
    for (Index i = 0; i < n; ++i)
      if (d[i] > settings.pivot_tolerance * dscale) candidates.push_back(i);
    if (candidates.empty()) {
      status = Status::ray_termination;
      message = fmt::format("secondary ray: entering variable {} {} is unblocked after {} pivots",
                            entering < n ? "w" : "z", entering < n ? entering : entering - n,
                            result.iterations);
      break;
    }
    // z₀ leaves at once if its row attains the minimum ratio (to rounding).
    Index z0_row = -1;
    double min_ratio = std::numeric_limits<double>::infinity();
    for (const Index i : candidates) {
      min_ratio = std::min(min_ratio, t.T(i, t.rhs()) / d[i]);
      if (t.basis[static_cast<std::size_t>(i)] == t.z0()) z0_row = i;
    }
    const double qscale = std::max(t.T.col(t.rhs()).cwiseAbs().maxCoeff(), 1e-300);
    if (z0_row >= 0 && t.T(z0_row, t.rhs()) / d[z0_row] <= min_ratio + 1e-9 * qscale / d[z0_row])
      row = z0_row;
    else if (settings.lexicographic)
      row = lexicographic_min_row(t, d, candidates, 1.0);
    else  // textbook rule: lowest row index among the minimum ratios
      row = *std::find_if(candidates.begin(), candidates.end(), [&](Index i) {
        return t.T(i, t.rhs()) / d[i] <= min_ratio + 1e-9 * qscale / d[i];
      });
    leaving = t.basis[static_cast<std::size_t>(row)];
    t.pivot(row, entering);
    ++result.iterations;
    if (leaving == t.z0()) {
      status = Status::converged;
      break;
    }
    entering = t.complement(leaving);
  }
  if (status == Status::max_iterations)
    message =
        fmt::format("Lemke stopped after {} pivots without driving z₀ out", result.iterations);

  // Read z from the basis.
  for (Index i = 0; i < n; ++i) {
    const Index var = t.basis[static_cast<std::size_t>(i)];
    if (var >= n && var < 2 * n) result.z[var - n] = std::max(0.0, t.T(i, t.rhs()));
  }

  if (status == Status::converged) {
    // Polish: solve M_αα z_α = −q_α on the final complementary basis.
    std::vector<Index> alpha;
    for (const Index var : t.basis)
      if (var >= n && var < 2 * n) alpha.push_back(var - n);
    if (!alpha.empty()) {
      const Index k = static_cast<Index>(alpha.size());
      Matrix Maa;
      Vector qa;
      lcp_detail::principal_system(problem, alpha, Maa, qa);
      Eigen::FullPivLU<Matrix> lu(Maa);
      if (lu.isInvertible()) {
        const Vector za = lu.solve(qa);
        Vector z = Vector::Zero(n);
        for (Index r = 0; r < k; ++r) z[alpha[static_cast<std::size_t>(r)]] = std::max(0.0, za[r]);
        if (all_finite(z) && lcp_residual(problem, z) < lcp_residual(problem, result.z))
          result.z = z;
      }
    }
  }
  return finish(status, std::move(message));
}

}  // namespace moreau
