#include "hybrid_dynamics.hpp"

#include <algorithm>
#include <limits>

#include <Eigen/QR>

#include "moreau/common/error.hpp"
#include "moreau/contact/acceleration_problem.hpp"

namespace moreau::event {

double baumgarte_alpha(const ContactConstraint& c, const SimulationSettings& st) {
  return c.baumgarte_alpha > 0.0 ? c.baumgarte_alpha : st.event_driven.baumgarte_alpha;
}
double baumgarte_beta(const ContactConstraint& c, const SimulationSettings& st) {
  return c.baumgarte_beta > 0.0 ? c.baumgarte_beta : st.event_driven.baumgarte_beta;
}

namespace {

// One row (and column) of the mode's equations: entry j of the acceleration problem, component
// comp (−1 = normal, i = tangent i).
struct Row {
  Index j;
  int comp;
};

// The constraints a mode holds: every joint, and every unilateral contact not separate.
std::vector<Index> held_constraints(const ContactState& s, const Modes& modes) {
  std::vector<Index> held;
  for (Index i = 0; i < s.size(); ++i)
    if (s.constraints[i].kind == ConstraintKind::bilateral ||
        modes[i].mode != ContactMode::separate)
      held.push_back(i);
  return held;
}

// The mode's unit slip direction s_j of a sliding contact with friction (empty otherwise).
Vector slip_of(const AccelerationProblem& p, const Modes& modes, Index j) {
  const Index i = p.active[j];
  if (p.bilateral[j] || modes[i].mode != ContactMode::slip || p.mu[j] == 0.0 ||
      modes[i].s.size() != p.dimension - 1)
    return Vector();
  return modes[i].s;
}

}  // namespace

// The mode's equations on the acceleration problem of its held constraints
// (contact/acceleration_problem.hpp):
//   rows C: ∇h_j of every held constraint, H_t,j of every sticking contact with μ > 0;
//   columns G: ∇h_j − μ_j H_t,j s_j on a sliding contact, else as C;
//   S λ = r,  S = Cᵀ M⁻¹ G (from the Delassus blocks),  r = −Cᵀ q̈₀ − (c + k)  with k = kN on
//   normal rows and kT on tangent rows (Baumgarte α, β per constraint, the run's when unset),
//   solved in the least-squares sense (minimum-norm λ for redundant rows), a = q̈₀ + M⁻¹ G λ.
Dynamics HybridDynamics::operator()(double t, const Vector& q, const Vector& v,
                                    const Modes& modes) const {
  ContactState s = sys_.contact_state(q, v, t);
  // The modes are per constraint of the run's start: a system whose constraint set changes on
  // the way (a rigid world with a finite CollisionSettings::margin) cannot be integrated by events.
  MOREAU_REQUIRE(s.size() == static_cast<Index>(modes.size()),
                 "event-driven integration needs a fixed set of constraints: the system '{}' had "
                 "{} at the start and has {} at t = {} s (a rigid world needs "
                 "CollisionSettings::margin = ∞, as a scene with the event integrator sets)",
                 sys_.name(), modes.size(), s.size(), t);
  for (auto& c : s.constraints) {
    c.baumgarte_alpha = baumgarte_alpha(c, st_);
    c.baumgarte_beta = baumgarte_beta(c, st_);
  }
  const Index m = s.size();
  const int d = s.dimension, d1 = d - 1;
  // Sliding is the mode's (HybridMode::s), not the velocity's: no contact counts as sliding here.
  const AccelerationProblem p =
      build_acceleration_problem(s, held_constraints(s, modes), std::numeric_limits<double>::max());
  Dynamics out;
  out.lambda_n = Vector::Zero(m);
  out.lambda_t = Matrix::Zero(d1, m);
  out.g.resize(m);
  out.un.resize(m);
  out.an.resize(m);
  out.ut.resize(d1, m);
  out.at.resize(d1, m);
  for (Index i = 0; i < m; ++i) {
    const auto& c = s.constraints[i];
    out.g[i] = c.gap;
    out.un[i] = c.normal.dot(v);
    out.ut.col(i) = c.tangent.transpose() * v;
  }
  std::vector<Row> rows;
  std::vector<Vector> slip(p.size());
  for (Index j = 0; j < p.size(); ++j) {
    slip[j] = slip_of(p, modes, j);
    rows.push_back({j, -1});
    const bool sticks = !p.bilateral[j] && modes[p.active[j]].mode == ContactMode::stick;
    if (sticks && p.mu[j] > 0.0)
      for (int i = 0; i < d1; ++i) rows.push_back({j, i});
  }
  const Index k = static_cast<Index>(rows.size());
  out.consistent = true;
  out.a = p.free_acceleration;
  out.S_min_diag = std::numeric_limits<double>::infinity();
  if (k > 0) {
    // Cᵀ M⁻¹ of a row times a normal column N_b or a tangent column T_b,i.
    auto row_times_normal = [&](const Row& r, Index b) {
      return r.comp < 0 ? p.delassus_nn(r.j, b) : p.delassus_nt(b, d1 * r.j + r.comp);
    };
    auto row_times_tangent = [&](const Row& r, Index col) {
      return r.comp < 0 ? p.delassus_nt(r.j, col) : p.delassus_tt(d1 * r.j + r.comp, col);
    };
    Matrix S(k, k), MinvG(p.M.rows(), k);
    Vector rhs(k);
    for (Index c = 0; c < k; ++c) {
      const Row& col = rows[c];
      if (col.comp >= 0) {
        MinvG.col(c) = p.mass_inverse_T.col(d1 * col.j + col.comp);
        for (Index r = 0; r < k; ++r) S(r, c) = row_times_tangent(rows[r], d1 * col.j + col.comp);
        continue;
      }
      MinvG.col(c) = p.mass_inverse_N.col(col.j);
      for (Index r = 0; r < k; ++r) S(r, c) = row_times_normal(rows[r], col.j);
      const Vector& sl = slip[col.j];
      for (Index i = 0; i < sl.size(); ++i) {
        const double w = p.mu[col.j] * sl[i];
        MinvG.col(c) -= w * p.mass_inverse_T.col(d1 * col.j + i);
        for (Index r = 0; r < k; ++r) S(r, c) -= w * row_times_tangent(rows[r], d1 * col.j + i);
      }
    }
    for (Index r = 0; r < k; ++r) {
      const Row& row = rows[r];
      rhs[r] = row.comp < 0 ? -p.free_normal_acceleration[row.j] - p.kN[row.j]
                            : -p.free_tangent_acceleration[d1 * row.j + row.comp] -
                                  p.kT[d1 * row.j + row.comp];
    }
    Eigen::CompleteOrthogonalDecomposition<Matrix> cod(S);
    cod.setThreshold(1e-11);
    const Vector lam = cod.solve(rhs);
    const double scale = std::max({1.0, rhs.norm(), (S * lam).norm()});
    out.consistent = all_finite(lam) && (S * lam - rhs).norm() <= 1e-8 * scale;
    // λ_n, λ_t (λ_t = −μ λ_n s on sliding contacts) and Painlevé's α = the smallest S_rr over
    // sliding normal rows (unilateral-contact notes (4.16)).
    for (Index r = 0; r < k; ++r) {
      const Row& row = rows[r];
      const Index i = p.active[row.j];
      if (row.comp >= 0) {
        out.lambda_t(row.comp, i) = lam[r];
        continue;
      }
      out.lambda_n[i] = lam[r];
      if (p.bilateral[row.j] || modes[i].mode != ContactMode::slip) continue;
      if (S(r, r) < out.S_min_diag) {
        out.S_min_diag = S(r, r);
        out.S_min_index = i;
      }
      if (slip[row.j].size() > 0) out.lambda_t.col(i) = -p.mu[row.j] * lam[r] * slip[row.j];
    }
    out.a += MinvG * lam;  // a = q̈₀ + M⁻¹ G λ
  }
  for (Index i = 0; i < m; ++i) {
    const auto& c = s.constraints[i];
    out.an[i] = c.normal.dot(out.a) + c.normal_bias;
    out.at.col(i) = c.tangent.transpose() * out.a + c.tangent_bias;
  }
  return out;
}

}  // namespace moreau::event
