#include "moreau/analysis/all_sticking.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "moreau/common/error.hpp"
#include "moreau/linalg/cone_feasibility.hpp"
#include "moreau/linalg/pseudo_inverse.hpp"

namespace moreau {
namespace {

// The equality system of one complementary choice ((65a,b) of Brogliato, Kövecses & Acary 2020
// with the set `kept` of unilateral contacts at a_n = 0; the others have λ = 0 and no sticking
// rows — the paper's (65) keeps them, which over-constrains a detaching contact,
// docs/math/all_sticking.md): unknowns x = (q̈, r), r stacked per considered constraint [λ_n, λ_t…].
//   M q̈ − Σ_kept (∇h λ_n + H_t λ_t) = −F
//   ∇hᵀ q̈ = −c_n (kept),  H_tᵀ q̈ = −c_t (kept, μ > 0),  λ_t = 0 (kept, μ = 0),  r_i = 0 (detached)
struct EqualitySystem {
  Matrix A;
  Vector b;
};

EqualitySystem build(const ContactState& s, const std::vector<Index>& cons,
                     const std::vector<bool>& kept) {
  const Index n = s.dofs(), d = s.dimension, m = cons.size(), dt = d - 1;
  std::vector<Eigen::RowVectorXd> rows;
  std::vector<double> rhs;
  const Index nx = n + d * m;
  Matrix top = Matrix::Zero(n, nx);
  top.leftCols(n) = s.M;
  for (Index j = 0; j < m; ++j) {
    if (!kept[j]) continue;
    const auto& c = s.constraints[cons[j]];
    top.col(n + d * j) = -c.normal;
    top.middleCols(n + d * j + 1, dt) = -c.tangent;
  }
  for (Index j = 0; j < m; ++j) {
    const auto& c = s.constraints[cons[j]];
    if (!kept[j]) {
      for (Index k = 0; k < d; ++k) {
        Eigen::RowVectorXd r = Eigen::RowVectorXd::Zero(nx);
        r[n + d * j + k] = 1.0;
        rows.push_back(r);
        rhs.push_back(0.0);
      }
      continue;
    }
    Eigen::RowVectorXd r = Eigen::RowVectorXd::Zero(nx);
    r.head(n) = c.normal.transpose();
    rows.push_back(r);
    rhs.push_back(-c.normal_bias);
    for (Index k = 0; k < dt; ++k) {
      Eigen::RowVectorXd rt = Eigen::RowVectorXd::Zero(nx);
      if (c.mu > 0.0) {
        rt.head(n) = c.tangent.col(k).transpose();
        rows.push_back(rt);
        rhs.push_back(-c.tangent_bias[k]);
      } else {
        rt[n + d * j + 1 + k] = 1.0;
        rows.push_back(rt);
        rhs.push_back(0.0);
      }
    }
  }
  EqualitySystem e;
  e.A.resize(n + rows.size(), nx);
  e.b.resize(n + rows.size());
  e.A.topRows(n) = top;
  e.b.head(n) = -s.F;
  for (size_t i = 0; i < rows.size(); ++i) {
    e.A.row(n + i) = rows[i];
    e.b[n + i] = rhs[i];
  }
  return e;
}

std::vector<Index> considered_constraints(const ContactState& s, double gap_tol) {
  std::vector<Index> cons;
  for (Index i = 0; i < s.size(); ++i)
    if (s.constraints[i].kind == ConstraintKind::bilateral ||
        std::abs(s.constraints[i].gap) <= gap_tol)
      cons.push_back(i);
  return cons;
}

}  // namespace

std::string to_string(AllStickingStatus s) {
  switch (s) {
    case AllStickingStatus::sticking:
      return "sticking";
    case AllStickingStatus::sticking_with_detachment:
      return "sticking_with_detachment";
    case AllStickingStatus::friction_infeasible:
      return "friction_infeasible";
    case AllStickingStatus::no_acceleration_solution:
      return "no_acceleration_solution";
  }
  return "unknown";
}

AllStickingResult all_sticking(const ContactState& state, const AllStickingSettings& st) {
  state.validate();
  MOREAU_REQUIRE(st.tolerance > 0 && st.edge_tolerance > 0 && st.gap_tolerance >= 0,
                 "all_sticking: tolerances must be positive");
  const Index n = state.dofs(), d = state.dimension, dt = d - 1;
  AllStickingResult out;
  out.constraints = considered_constraints(state, st.gap_tolerance);
  const auto& cons = out.constraints;
  const Index m = cons.size();
  std::vector<Index> uni;  // positions (in cons) of unilateral contacts
  for (Index j = 0; j < m; ++j)
    if (state.constraints[cons[j]].kind == ConstraintKind::unilateral) uni.push_back(j);
  MOREAU_REQUIRE(static_cast<int>(uni.size()) <= st.max_enumeration,
                 "all_sticking: {} closed unilateral contacts exceed max_enumeration = {}",
                 uni.size(), st.max_enumeration);

  // Prop 1 on J_eq = [J_nb J_tb J_tu] (frictional tangents only) — Brogliato et al. 2020 §2.
  {
    std::vector<Vector> cols;
    std::vector<double> ceq;
    for (Index j = 0; j < m; ++j) {
      const auto& c = state.constraints[cons[j]];
      if (c.kind == ConstraintKind::bilateral) {
        cols.push_back(c.normal);
        ceq.push_back(c.normal_bias);
      }
      if (c.mu > 0.0)
        for (Index k = 0; k < dt; ++k) {
          cols.push_back(c.tangent.col(k));
          ceq.push_back(c.tangent_bias[k]);
        }
    }
    Matrix J(n, cols.size());
    Vector cv(cols.size());
    for (size_t k = 0; k < cols.size(); ++k) {
      J.col(k) = cols[k];
      cv[k] = ceq[k];
    }
    auto& p = out.prop1;
    p.columns = J.cols();
    p.rank_J = numerical_rank(J);
    p.full_column_rank = p.rank_J == p.columns;
    Matrix stacked(n + J.cols(), n);
    stacked.topRows(n) = state.M;
    stacked.bottomRows(J.cols()) = J.transpose();
    p.kernel_condition = numerical_rank(stacked) == n;
    p.range_condition = J.cols() == 0 || in_range(J.transpose(), cv);
    p.kkt_invertible = p.full_column_rank && p.kernel_condition;
    p.unique_acceleration = p.kernel_condition && p.range_condition;
  }

  // Enumerate complementary choices: subsets of unilateral contacts that detach, fewest first.
  const Index nu = uni.size();
  std::vector<unsigned> masks;
  for (unsigned mask = 0; mask < (1u << nu); ++mask) masks.push_back(mask);
  std::stable_sort(masks.begin(), masks.end(), [](unsigned a, unsigned b) {
    return __builtin_popcount(a) < __builtin_popcount(b);
  });
  bool acceleration_exists = false;
  for (unsigned mask : masks) {
    std::vector<bool> kept(m, true);
    for (Index a = 0; a < nu; ++a)
      if (mask & (1u << a)) kept[uni[a]] = false;
    const EqualitySystem eq = build(state, cons, kept);
    if (!in_range(eq.A, eq.b, st.tolerance * 10)) continue;
    const Vector x0 = pseudo_inverse(eq.A) * eq.b;
    const Matrix Nx = null_space(eq.A);
    // Kept contacts enter the cone test; detached ones give a_n ≥ 0 rows.
    std::vector<Index> keep_pos;
    for (Index j = 0; j < m; ++j)
      if (kept[j]) keep_pos.push_back(j);
    const Index mk = keep_pos.size();
    Vector r0(d * mk);
    Matrix B(d * mk, Nx.cols());
    Vector mu(mk), mu0 = Vector::Zero(mk);
    std::vector<bool> bil(mk);
    for (Index a = 0; a < mk; ++a) {
      const Index j = keep_pos[a];
      r0.segment(d * a, d) = x0.segment(n + d * j, d);
      B.middleRows(d * a, d) = Nx.middleRows(n + d * j, d);
      mu[a] = state.constraints[cons[j]].mu;
      bil[a] = state.constraints[cons[j]].kind == ConstraintKind::bilateral;
    }
    Matrix C(nu - mk + static_cast<Index>(std::count(bil.begin(), bil.end(), true)), Nx.cols());
    Vector cvec(C.rows());
    Index row = 0;
    for (Index j = 0; j < m; ++j) {
      if (kept[j]) continue;
      const auto& c = state.constraints[cons[j]];
      C.row(row) = c.normal.transpose() * Nx.topRows(n);
      cvec[row] = c.normal.dot(x0.head(n)) + c.normal_bias;
      ++row;
    }
    C.conservativeResize(row, Nx.cols());
    cvec.conservativeResize(row);
    const ConeFeasibilitySettings cs{.tolerance = st.tolerance};
    const auto free = coulomb_cone_feasibility(static_cast<int>(d), r0, B, mu0, bil, C, cvec, cs);
    if (free.status != ConeFeasibility::feasible) continue;
    acceleration_exists = true;
    const auto fr = coulomb_cone_feasibility(static_cast<int>(d), r0, B, mu, bil, C, cvec, cs);
    const bool ok = fr.status == ConeFeasibility::feasible;
    if (!ok && out.qddot.size() != 0) continue;  // keep the first frictionless witness only
    // Record this choice (witness = the max-margin point, or the frictionless one).
    const Vector y = ok ? fr.y : free.y;
    const Vector x = x0 + Nx * y;
    out.qddot = x.head(n);
    out.lambda_min_norm = x0.tail(d * m);
    out.null_basis = Nx.bottomRows(d * m);
    out.unique_acceleration =
        Nx.rows() == 0 || Nx.cols() == 0 || Nx.topRows(n).cwiseAbs().maxCoeff() <= 1e-9;
    out.lambda_n.resize(m);
    out.lambda_t.resize(dt, m);
    out.a_n.resize(m);
    out.detaching.clear();
    out.at_cone_edge.clear();
    double fscale = 1.0;
    for (Index j = 0; j < m; ++j) fscale = std::max(fscale, std::abs(x[n + d * j]));
    out.min_margin = std::numeric_limits<double>::infinity();
    for (Index j = 0; j < m; ++j) {
      const auto& c = state.constraints[cons[j]];
      out.lambda_n[j] = x[n + d * j];
      out.lambda_t.col(j) = x.segment(n + d * j + 1, dt);
      out.a_n[j] = c.normal.dot(out.qddot) + c.normal_bias;
      if (!kept[j]) out.detaching.push_back(cons[j]);  // λ = 0, no sticking rows, a_n ≥ 0
      if (kept[j] && c.mu > 0.0) {
        const double margin = c.mu * std::abs(out.lambda_n[j]) - out.lambda_t.col(j).norm();
        out.min_margin = std::min(out.min_margin, margin);
        if (margin <= st.edge_tolerance * fscale) out.at_cone_edge.push_back(cons[j]);
      }
    }
    if (ok) {
      out.status = out.detaching.empty() ? AllStickingStatus::sticking
                                         : AllStickingStatus::sticking_with_detachment;
      out.message =
          out.detaching.empty() ? "all contacts stick" : "the closed contacts stick, others detach";
      return out;
    }
  }
  out.status = acceleration_exists ? AllStickingStatus::friction_infeasible
                                   : AllStickingStatus::no_acceleration_solution;
  out.message =
      acceleration_exists
          ? "accelerations and normal forces exist, but no multiplier satisfies Coulomb's law"
          : "the sticking equations with normal complementarity have no solution";
  return out;
}

KktSolution all_sticking_kkt(const ContactState& state, const std::vector<Index>& constraints) {
  state.validate();
  for (Index i : constraints)
    MOREAU_REQUIRE(i >= 0 && i < state.size(),
                   "all_sticking_kkt: constraint index {} outside [0, {})", i, state.size());
  const std::vector<bool> kept(constraints.size(), true);
  const EqualitySystem eq = build(state, constraints, kept);
  MOREAU_REQUIRE(in_range(eq.A, eq.b), "all_sticking_kkt: the KKT system (14a) has no solution");
  const Vector x = pseudo_inverse(eq.A) * eq.b;
  const Matrix Nx = null_space(eq.A);
  KktSolution out;
  const Index n = state.dofs();
  out.qddot = x.head(n);
  out.lambda = x.tail(x.size() - n);
  out.null_basis = Nx.bottomRows(x.size() - n);
  return out;
}

}  // namespace moreau
