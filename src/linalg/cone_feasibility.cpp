#include "moreau/linalg/cone_feasibility.hpp"

#include <cmath>
#include <limits>
#include <numbers>

#include "moreau/common/error.hpp"
#include "moreau/linalg/linear_program.hpp"

namespace moreau {
namespace {

// One LP: variables (y, s), maximise s subject to the polygonal cone rows with signs `sign` for
// the bilateral contacts (+1 for unilateral), K facets (2D: K = 2, the exact interval), facet
// distance factor `shrink` (cos(π/K) for the inscribed polygon, 1 for the circumscribed one).
LpResult margin_lp(int d, const Vector& r0, const Matrix& B, const Vector& mu,
                   const std::vector<double>& sign, int K, double shrink, const Matrix& C,
                   const Vector& c, double smax, double tol) {
  const Index m = mu.size();
  const Index k = B.cols();
  std::vector<Eigen::RowVectorXd> rows;
  std::vector<double> rhs;
  // Row form: g(y) + s ≤ h  with  g = a·(r0 + B y)
  auto add = [&](const Eigen::RowVectorXd& a,
                 double with_margin) {  // a over r: a·r ≥ s·with_margin
    Eigen::RowVectorXd row(k + 1);
    row.head(k) = -a * B;
    row[k] = with_margin;
    rows.push_back(row);
    rhs.push_back((a * r0).value());
  };
  for (Index i = 0; i < m; ++i) {
    const Index o = d * i;
    if (sign[i] == 0.0) continue;  // bilateral frictionless: no condition
    Eigen::RowVectorXd a = Eigen::RowVectorXd::Zero(r0.size());
    a[o] = sign[i];
    add(a, 1.0);  // σ r_n ≥ s
    if (mu[i] <= 0.0) continue;
    if (d == 2) {
      for (double t : {1.0, -1.0}) {
        Eigen::RowVectorXd f = Eigen::RowVectorXd::Zero(r0.size());
        f[o] = mu[i] * sign[i];
        f[o + 1] = -t;
        add(f, 1.0);  // μ σ r_n − t r_t ≥ s
      }
    } else {
      for (int j = 0; j < K; ++j) {
        const double ang = (2.0 * j + 1.0) * std::numbers::pi / K;
        Eigen::RowVectorXd f = Eigen::RowVectorXd::Zero(r0.size());
        f[o] = mu[i] * sign[i] * shrink;
        f[o + 1] = -std::cos(ang);
        f[o + 2] = -std::sin(ang);
        add(f, 1.0);
      }
    }
  }
  for (Index i = 0; i < C.rows(); ++i) {  // C y + c ≥ 0  ⇔  −C y ≤ c
    Eigen::RowVectorXd row = Eigen::RowVectorXd::Zero(k + 1);
    row.head(k) = -C.row(i);
    rows.push_back(row);
    rhs.push_back(c[i]);
  }
  LinearProgram lp;
  lp.c = Vector::Zero(k + 1);
  lp.c[k] = -1.0;  // maximise s
  lp.A_ub.resize(rows.size(), k + 1);
  lp.b_ub.resize(rows.size());
  for (size_t i = 0; i < rows.size(); ++i) {
    lp.A_ub.row(i) = rows[i];
    lp.b_ub[i] = rhs[i];
  }
  lp.A_eq.resize(0, k + 1);
  lp.b_eq.resize(0);
  lp.lower = Vector::Constant(k + 1, -std::numeric_limits<double>::infinity());
  lp.upper = Vector::Constant(k + 1, std::numeric_limits<double>::infinity());
  lp.upper[k] = smax;
  return solve_linear_program(lp, {.tolerance = tol * 1e-1});
}

}  // namespace

std::string to_string(ConeFeasibility s) {
  switch (s) {
    case ConeFeasibility::feasible:
      return "feasible";
    case ConeFeasibility::infeasible:
      return "infeasible";
    case ConeFeasibility::undecided:
      return "undecided";
  }
  return "unknown";
}

ConeFeasibilityResult coulomb_cone_feasibility(int d, const Vector& r0, const Matrix& B,
                                               const Vector& mu, const std::vector<bool>& bilateral,
                                               const Matrix& C, const Vector& c,
                                               const ConeFeasibilitySettings& settings) {
  MOREAU_REQUIRE(d == 2 || d == 3, "cone feasibility: dimension must be 2 or 3, got {}", d);
  const Index m = mu.size();
  MOREAU_REQUIRE(r0.size() == d * m, "cone feasibility: r0 must have {}·{} = {} entries, got {}", d,
                 m, d * m, r0.size());
  MOREAU_REQUIRE(B.rows() == r0.size() || (B.size() == 0 && B.rows() == 0),
                 "cone feasibility: B must have {} rows, got {}", r0.size(), B.rows());
  const Matrix Bm = B.rows() == r0.size() ? B : Matrix(r0.size(), 0);
  MOREAU_REQUIRE(bilateral.empty() || static_cast<Index>(bilateral.size()) == m,
                 "cone feasibility: bilateral flags must have {} entries, got {}", m,
                 bilateral.size());
  MOREAU_REQUIRE(C.rows() == c.size() && (C.rows() == 0 || C.cols() == Bm.cols()),
                 "cone feasibility: C must be {}×{}, got {}×{}", c.size(), Bm.cols(), C.rows(),
                 C.cols());
  MOREAU_REQUIRE(
      all_finite(r0) && all_finite(Bm) && all_finite(mu) && all_finite(C) && all_finite(c),
      "cone feasibility: data has a NaN or infinite entry");
  for (Index i = 0; i < m; ++i)
    MOREAU_REQUIRE(mu[i] >= 0.0, "cone feasibility: mu[{}] = {} must be ≥ 0", i, mu[i]);
  const Matrix Cm = C.rows() ? C : Matrix(0, Bm.cols());

  const double scale = std::max({1.0, r0.size() ? r0.cwiseAbs().maxCoeff() : 0.0});
  const double smax = scale;
  const double accept = -settings.tolerance * scale;

  // Bilateral contacts with friction: branch on the sign of r_n (2^b LPs). Frictionless bilateral
  // contacts impose nothing (sign 0).
  std::vector<Index> branch;
  for (Index i = 0; i < m; ++i)
    if (!bilateral.empty() && bilateral[i] && mu[i] > 0.0) branch.push_back(i);
  MOREAU_REQUIRE(
      branch.size() <= 12,
      "cone feasibility: {} bilateral contacts with friction exceed the branching limit 12",
      branch.size());

  ConeFeasibilityResult best;
  best.margin = -std::numeric_limits<double>::infinity();
  bool any_undecided = false;
  for (unsigned mask = 0; mask < (1u << branch.size()); ++mask) {
    std::vector<double> sign(m, 1.0);
    for (Index i = 0; i < m; ++i)
      if (!bilateral.empty() && bilateral[i]) sign[i] = 0.0;
    for (size_t b = 0; b < branch.size(); ++b) sign[branch[b]] = (mask & (1u << b)) ? -1.0 : 1.0;
    // Bilateral with friction: the cone |r_t| ≤ μ σ r_n also needs σ r_n ≥ 0 (set by the sign row).
    int K = (d == 2) ? 2 : 16;
    while (true) {
      const double shrink = (d == 2) ? 1.0 : std::cos(std::numbers::pi / K);
      LpResult inner = margin_lp(d, r0, Bm, mu, sign, K, shrink, Cm, c, smax, settings.tolerance);
      if (inner.status == LpStatus::optimal && -inner.objective >= accept) {
        const double s = -inner.objective;
        if (s > best.margin || best.status != ConeFeasibility::feasible) {
          best.status = ConeFeasibility::feasible;
          best.y = inner.x.head(Bm.cols());
          best.r = r0 + Bm * best.y;
          best.margin = s;
          best.facets = d == 2 ? 0 : K;
        }
        break;
      }
      if (d == 2) {
        if (inner.status == LpStatus::optimal && -inner.objective > best.margin &&
            best.status != ConeFeasibility::feasible)
          best.margin = -inner.objective;
        break;  // exact in 2D: infeasible for this branch
      }
      LpResult outer = margin_lp(d, r0, Bm, mu, sign, K, 1.0, Cm, c, smax, settings.tolerance);
      if (outer.status == LpStatus::infeasible ||
          (outer.status == LpStatus::optimal && -outer.objective < accept)) {
        if (outer.status == LpStatus::optimal && best.status != ConeFeasibility::feasible &&
            -outer.objective > best.margin)
          best.margin = -outer.objective;
        break;  // certificate of infeasibility for this branch
      }
      if (2 * K > settings.max_facets) {
        any_undecided = true;
        break;
      }
      K *= 2;
    }
  }
  if (best.status == ConeFeasibility::feasible) return best;
  best.status = any_undecided ? ConeFeasibility::undecided : ConeFeasibility::infeasible;
  best.message = any_undecided ? "inner and outer polygons disagree up to the facet limit"
                               : "no force in the affine family lies in every cone";
  return best;
}

}  // namespace moreau
