#include "hybrid_dynamics.hpp"

#include <algorithm>
#include <limits>

#include <Eigen/QR>

#include "moreau/common/error.hpp"

namespace moreau::event {

double baumgarte_alpha(const ContactConstraint& c, const SimulationSettings& st) {
  return c.baumgarte_alpha > 0.0 ? c.baumgarte_alpha : st.event_driven.baumgarte_alpha;
}
double baumgarte_beta(const ContactConstraint& c, const SimulationSettings& st) {
  return c.baumgarte_beta > 0.0 ? c.baumgarte_beta : st.event_driven.baumgarte_beta;
}

namespace {

// One row of the mode's equations: constraint c, component comp (−1 = normal, j = tangent j).
struct Row {
  Index c;
  int comp;
};

// The rows of a mode with their columns and biases:
//   closed contact i (stick or slip) and every joint: C ∋ ∇h_i, bias c_n + 2α u_n + β² g, and
//     G ∋ ∇h_i − μ H_t s_i when sliding with a known direction, else ∇h_i;
//   sticking contact with μ > 0: C, G ∋ H_t,j, bias c_t,j + 2α u_t,j (j < d−1).
struct ModeRows {
  std::vector<Vector> C, G;
  std::vector<double> bias;
  std::vector<Row> rows;
};

// Also fills the gaps and the contact velocities of `out`.
ModeRows mode_rows(const ContactState& s, const Vector& v, const Modes& modes,
                   const SimulationSettings& st, Dynamics& out) {
  const int d = s.dimension;
  ModeRows r;
  for (Index i = 0; i < s.size(); ++i) {
    const auto& c = s.constraints[i];
    out.g[i] = c.gap;
    out.un[i] = c.normal.dot(v);
    out.ut.col(i) = c.tangent.transpose() * v;
    const bool bil = c.kind == ConstraintKind::bilateral;
    const ContactMode md = bil ? ContactMode::stick : modes[i].mode;
    if (md == ContactMode::separate) continue;
    const double al = baumgarte_alpha(c, st), be = baumgarte_beta(c, st);
    const double bn = c.normal_bias + 2.0 * al * out.un[i] + be * be * c.gap;
    r.C.push_back(c.normal);
    if (!bil && md == ContactMode::slip && c.mu > 0.0 && modes[i].s.size() == d - 1)
      r.G.push_back(c.normal - c.mu * c.tangent * modes[i].s);
    else
      r.G.push_back(c.normal);
    r.bias.push_back(bn);
    r.rows.push_back({i, -1});
    if (!bil && md == ContactMode::stick && c.mu > 0.0) {
      for (int j = 0; j < d - 1; ++j) {
        r.C.push_back(c.tangent.col(j));
        r.G.push_back(c.tangent.col(j));
        r.bias.push_back(c.tangent_bias[j] + 2.0 * al * out.ut(j, i));
        r.rows.push_back({i, j});
      }
    }
  }
  return r;
}

// Scatters the row multipliers λ into λ_n, λ_t (λ_t = −μ λ_n s on sliding contacts) and records
// the smallest S_rr over sliding normal rows (Painlevé's α, digest 000 §A.4).
void scatter_multipliers(const ContactState& s, const Modes& modes, const ModeRows& r,
                         const Matrix& S, const Vector& lam, Dynamics& out) {
  const int d = s.dimension;
  const Index k = static_cast<Index>(r.rows.size());
  out.S_min_diag = std::numeric_limits<double>::infinity();
  for (Index j = 0; j < k; ++j) {
    const auto& row = r.rows[j];
    if (row.comp >= 0)
      out.lambda_t(row.comp, row.c) = lam[j];
    else
      out.lambda_n[row.c] = lam[j];
    if (row.comp < 0 && s.constraints[row.c].kind == ConstraintKind::unilateral &&
        modes[row.c].mode == ContactMode::slip && S(j, j) < out.S_min_diag) {
      out.S_min_diag = S(j, j);
      out.S_min_index = row.c;
    }
  }
  for (Index j = 0; j < k; ++j) {
    const auto& row = r.rows[j];
    const auto& c = s.constraints[row.c];
    if (row.comp < 0 && c.kind == ConstraintKind::unilateral &&
        modes[row.c].mode == ContactMode::slip && c.mu > 0.0 && modes[row.c].s.size() == d - 1)
      out.lambda_t.col(row.c) = -c.mu * out.lambda_n[row.c] * modes[row.c].s;
  }
}

}  // namespace

Dynamics HybridDynamics::operator()(double t, const Vector& q, const Vector& v,
                                    const Modes& modes) const {
  const ContactState s = sys_.contact_state(q, v, t);
  const Index n = s.M.rows(), m = s.size();
  const int d = s.dimension;
  Dynamics out;
  out.lambda_n = Vector::Zero(m);
  out.lambda_t = Matrix::Zero(d - 1, m);
  out.g.resize(m);
  out.un.resize(m);
  out.an.resize(m);
  out.ut.resize(d - 1, m);
  out.at.resize(d - 1, m);
  const ModeRows r = mode_rows(s, v, modes, st_, out);
  Eigen::LDLT<Matrix> ldlt(s.M);
  const Vector MinvF = ldlt.solve(s.F);
  const Index k = static_cast<Index>(r.rows.size());
  out.consistent = true;
  if (k > 0) {
    Matrix C(n, k), G(n, k);
    Vector b(k);
    for (Index j = 0; j < k; ++j) {
      C.col(j) = r.C[j];
      G.col(j) = r.G[j];
      b[j] = r.bias[j];
    }
    // S λ = Cᵀ M⁻¹ F − b in the least-squares sense (minimum-norm λ for redundant rows).
    const Matrix MinvG = ldlt.solve(G);
    const Matrix S = C.transpose() * MinvG;
    const Vector rhs = C.transpose() * MinvF - b;
    Eigen::CompleteOrthogonalDecomposition<Matrix> cod(S);
    cod.setThreshold(1e-11);
    const Vector lam = cod.solve(rhs);
    const double scale = std::max({1.0, rhs.norm(), (S * lam).norm()});
    out.consistent = all_finite(lam) && (S * lam - rhs).norm() <= 1e-8 * scale;
    scatter_multipliers(s, modes, r, S, lam, out);
    out.a = MinvG * lam - MinvF;  // a = M⁻¹ (G λ − F)
  } else {
    out.a = -MinvF;
  }
  for (Index i = 0; i < m; ++i) {
    const auto& c = s.constraints[i];
    out.an[i] = c.normal.dot(out.a) + c.normal_bias;
    out.at.col(i) = c.tangent.transpose() * out.a + c.tangent_bias;
  }
  return out;
}

}  // namespace moreau::event
