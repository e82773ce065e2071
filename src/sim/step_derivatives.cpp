// Implicit differentiation of one Moreau–Jean step (the math in sim/step_derivatives.hpp).
#include "moreau/sim/step_derivatives.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <Eigen/QR>
#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "moreau/model/step_free_velocity.hpp"

namespace moreau {
namespace {

// What a held row holds: a contact's normal or tangent velocity, a bilateral row, a dry-friction
// dof's velocity.
enum class RowKind { normal, tangent, bilateral, dry };

// One held row of the linearized step (E's and G's column, C's entry).
struct HeldRow {
  RowKind kind = RowKind::normal;
  Index contact = -1;     // index into the index set (normal, tangent)
  Index constraint = -1;  // index into the state's constraints (normal, tangent, bilateral)
  int tangent = 0;        // which tangent column (tangent rows)
  Index dof = -1;         // dry rows
  bool slip = false;      // a sliding contact's normal row: G = H_n − μ H_t t̂
  double compliance = 0.0;
};

// A sliding contact: r_t = −μ r_n t̂, k = μ r_n/‖u_t‖.
struct SlipContact {
  Index contact = -1, constraint = -1;
  double mu = 0.0, k = 0.0;
  Vector t_hat;  // d − 1
};

// The step's structure and solution held fixed while the data moves.
struct Linearization {
  int d = 3;
  double h = 0.0, theta = 0.5, kappa = 0.0;
  std::vector<Index> unilateral, bilateral;  // constraint indices of I and B
  std::vector<char> impacting;               // per contact of I: w_n = e u_n⁻
  Vector v_next, r, p;                       // v⁺, r (d per contact of I), p (per row of B)
  std::vector<HeldRow> rows;
  std::vector<SlipContact> slips;
  bool constrained() const { return !unilateral.empty() || !bilateral.empty(); }
};

// φ, ψ_E and ψ_t (sim/step_derivatives.hpp) at one point of the data.
struct StepData {
  Vector phi, psi_rows, psi_slip;
};

// M̂ v_free at (q, v) from M, F, and M̂: without a factorization unless the step is a free
// flight at the midpoint (model/step_free_velocity.hpp).
Vector free_momentum(const LagrangianSystem& sys, const Linearization& L, const Matrix& M,
                     const Vector& F, const Vector& q, const Vector& v, double t, Matrix& Mh) {
  if (L.constrained() || !sys.midpoint_free_flight())
    return step_momentum(sys, M, F, q, v, L.h, L.theta, Mh);
  MassSolver mass;
  const Vector v_free = step_free_velocity(sys, M, F, q, v, t, L.h, L.theta, false, mass, &Mh);
  return Mh * v_free;
}

// The data at (q, v) with constraints sx (map: the base constraint index → sx's) and M, F.
StepData evaluate(const LagrangianSystem& sys, const Linearization& L, const ContactState& sx,
                  const std::vector<Index>& map, const Matrix& M, const Vector& F, const Vector& q,
                  const Vector& v, double t) {
  Matrix Mh;
  StepData out;
  out.phi = free_momentum(sys, L, M, F, q, v, t, Mh) - Mh * L.v_next;
  const int d = L.d;
  for (size_t a = 0; a < L.unilateral.size(); ++a) {
    const ContactConstraint& c = sx.constraints[map[L.unilateral[a]]];
    const Index o = d * static_cast<Index>(a);
    Vector rt = L.r.segment(o + 1, d - 1);
    for (const SlipContact& sc : L.slips)  // r_t = −μ r_n t̂ with this data's μ
      if (sc.contact == static_cast<Index>(a)) rt = -c.mu * L.r[o] * sc.t_hat;
    out.phi += c.normal * L.r[o] + c.tangent * rt;
  }
  for (size_t b = 0; b < L.bilateral.size(); ++b)
    out.phi += sx.constraints[map[L.bilateral[b]]].normal * L.p[static_cast<Index>(b)];
  out.psi_rows.resize(static_cast<Index>(L.rows.size()));
  for (size_t k = 0; k < L.rows.size(); ++k) {
    const HeldRow& row = L.rows[k];
    double psi = 0.0;
    if (row.kind == RowKind::dry) {
      psi = L.v_next[row.dof];
    } else {
      const ContactConstraint& c = sx.constraints[map[row.constraint]];
      switch (row.kind) {
        case RowKind::normal:
          psi = c.normal.dot(L.v_next);
          if (L.impacting[row.contact]) psi += c.restitution * c.normal.dot(v);
          break;
        case RowKind::tangent:
          psi = c.tangent.col(row.tangent).dot(L.v_next);
          break;
        default:  // bilateral: u_b = ∇h_bᵀ v⁺ + κ h_b/h
          psi = c.normal.dot(L.v_next) + L.kappa * c.gap / L.h;
          break;
      }
    }
    out.psi_rows[static_cast<Index>(k)] = psi;
  }
  out.psi_slip.resize(static_cast<Index>(L.slips.size()) * (d - 1));
  for (size_t s = 0; s < L.slips.size(); ++s)
    out.psi_slip.segment(static_cast<Index>(s) * (d - 1), d - 1) =
        sx.constraints[map[L.slips[s].constraint]].tangent.transpose() * L.v_next;
  return out;
}

// (plus − minus) / (2δ) of every part.
StepData central(const StepData& plus, const StepData& minus, double delta) {
  const double s = 0.5 / delta;
  return {(plus.phi - minus.phi) * s, (plus.psi_rows - minus.psi_rows) * s,
          (plus.psi_slip - minus.psi_slip) * s};
}

// The modes of the index set's contacts at the solution (r, u), the held rows and sliding
// contacts they give, with the rule of the header for degenerate ones.
std::vector<ContactDerivativeMode> classify(const ContactState& s, const Vector& r, const Vector& u,
                                            const Vector& compliance, double r_tol, double u_tol,
                                            Linearization& L) {
  const int d = L.d;
  std::vector<ContactDerivativeMode> modes;
  for (size_t a = 0; a < L.unilateral.size(); ++a) {
    const Index i = L.unilateral[a], o = d * static_cast<Index>(a);
    const ContactConstraint& c = s.constraints[i];
    ContactDerivativeMode m;
    m.name = c.name;
    const double rn = r[o], un = u[o];
    const Vector rt = r.segment(o + 1, d - 1), ut = u.segment(o + 1, d - 1);
    if (rn <= r_tol && un > u_tol) {
      m.mode = ContactMode::separate;
      modes.push_back(m);
      continue;
    }
    if (rn <= r_tol) m.degenerate = true, m.boundary = "open/closed";
    HeldRow normal{.kind = RowKind::normal,
                   .contact = static_cast<Index>(a),
                   .constraint = i,
                   .compliance = compliance[static_cast<Index>(a)]};
    const double slide = ut.norm();
    if (slide > u_tol) {
      m.mode = ContactMode::slip;
      if (c.mu > 0.0) {
        normal.slip = true;
        L.slips.push_back({static_cast<Index>(a), i, c.mu, c.mu * rn / slide, ut / slide});
      }
      L.rows.push_back(normal);
    } else {
      m.mode = ContactMode::stick;
      L.rows.push_back(normal);
      if (c.mu > 0.0) {
        if (!m.degenerate && c.mu * rn - rt.norm() <= r_tol)
          m.degenerate = true, m.boundary = "stick/slip";
        for (int j = 0; j < d - 1; ++j)
          L.rows.push_back({.kind = RowKind::tangent,
                            .contact = static_cast<Index>(a),
                            .constraint = i,
                            .tangent = j});
      }
    }
    modes.push_back(m);
  }
  return modes;
}

// base constraint index → index in sx, by name; throws naming a contact sx lacks.
std::vector<Index> match(const ContactState& base, const ContactState& sx, const Linearization& L,
                         Index direction, double delta) {
  std::unordered_map<std::string, Index> at;
  for (Index i = 0; i < sx.size(); ++i) at.emplace(sx.constraints[i].name, i);
  std::vector<Index> map(static_cast<size_t>(base.size()), -1);
  auto need = [&](Index i) {
    const auto it = at.find(base.constraints[i].name);
    if (it == at.end())
      throw std::runtime_error(
          direction >= 0
              ? fmt::format("step_derivatives: contact '{}' of the step is not detected at q ⊕ δ "
                            "e_{} (δ = {}): the contact set changes within the differences' "
                            "step; try a smaller difference_step",
                            base.constraints[i].name, direction, delta)
              : fmt::format("step_derivatives: contact '{}' of the step is not detected in the "
                            "system of parameter {} (δ = {})",
                            base.constraints[i].name, -1 - direction, delta));
    map[i] = it->second;
  };
  for (const Index i : L.unilateral) need(i);
  for (const Index i : L.bilateral) need(i);
  return map;
}

// dv⁺ (the first n rows) of [M̂ + Σ_s k H_t P H_tᵀ, −G; Eᵀ, C] X = B for every column of B. With
// M̂'s factorization (the step's own, from its layer) by the Schur complement: with
// z_s = H_t,sᵀ dv for each sliding contact s and y = (dλ, z),
//   M̂ dv = b₁ + Q y,   Q = [G, −k₁ H_t,1 P₁, …],
//   (R M̂⁻¹ Q + D) y = (b₂; 0) − R M̂⁻¹ b₁,   R = [Eᵀ; H_t,1ᵀ; …],   D = diag(C, −1),
// the small (held rows + 2 per sliding contact) matrix by a complete orthogonal decomposition,
// which keeps the system solvable with redundant rows (dv is unique, y need not be).
Matrix solve_linearized(const MassSolver& mass, const Matrix& E, const Matrix& G, const Vector& C,
                        const std::vector<Matrix>& slip_terms, const Linearization& L,
                        const ContactState& s, const Matrix& B) {
  const Index n = E.rows(), m = E.cols(), t = L.d - 1;
  const Index p = t * static_cast<Index>(L.slips.size()), cols = B.cols();
  Matrix Q(n, m + p), R(m + p, n);
  Q.leftCols(m) = G;
  R.topRows(m) = E.transpose();
  for (size_t sI = 0; sI < L.slips.size(); ++sI) {
    const Index o = m + t * static_cast<Index>(sI);
    Q.middleCols(o, t) = -slip_terms[sI];
    R.middleRows(o, t) = s.constraints[L.slips[sI].constraint].tangent.transpose();
  }
  Matrix MiQ(n, m + p), Mib(n, cols);
  for (Index c = 0; c < m + p; ++c) MiQ.col(c) = mass.solve(Q.col(c));
  for (Index c = 0; c < cols; ++c) Mib.col(c) = mass.solve(B.col(c).head(n));
  if (m + p == 0) return Mib;
  Matrix S = R * MiQ;
  S.diagonal().head(m) += C;
  S.diagonal().tail(p).array() -= 1.0;
  Matrix right = Matrix::Zero(m + p, cols);
  right.topRows(m) = B.bottomRows(m);
  right -= R * Mib;
  return Mib + MiQ * Matrix(S.completeOrthogonalDecomposition().solve(right));
}

}  // namespace

StepDerivatives step_derivatives(const LagrangianSystem& sys, const Vector& q, const Vector& v,
                                 double t, const SimulationSettings& st, const Vector& ctrl,
                                 const Vector& qfrc, const StepInputSetter& set_inputs,
                                 const StepDerivativeSettings& ds,
                                 const std::vector<StepParameter>& parameters) {
  MOREAU_REQUIRE(
      st.integrator == Integrator::time_stepping &&
          st.time_stepping.scheme == TimeSteppingScheme::moreau,
      "step_derivatives: only moreau's Moreau–Jean scheme is differentiated (the "
      "scene's integrator is {})",
      st.integrator == Integrator::time_stepping ? "Siconos' Moreau–Jean scheme" : "event-driven");
  MOREAU_REQUIRE(ds.difference_step > 0.0 && ds.input_step > 0.0 && ds.mode_tolerance > 0.0 &&
                     ds.solver_tolerance >= 0.0,
                 "step_derivatives: difference_step = {}, input_step = {}, mode_tolerance = {} "
                 "must be > 0 and solver_tolerance = {} ≥ 0",
                 ds.difference_step, ds.input_step, ds.mode_tolerance, ds.solver_tolerance);
  const Index n = sys.velocity_size(), nu = ctrl.size();
  const Index np = static_cast<Index>(parameters.size());
  for (const StepParameter& p : parameters)
    MOREAU_REQUIRE(p.plus != nullptr && p.minus != nullptr && p.delta > 0.0 &&
                       p.plus->velocity_size() == n && p.minus->velocity_size() == n &&
                       p.plus->position_size() == sys.position_size() &&
                       p.minus->position_size() == sys.position_size(),
                   "step_derivatives: parameter '{}': its systems must have the coordinates of "
                   "the one differentiated (nq {}, nv {}) and δ = {} must be > 0",
                   p.name, sys.position_size(), n, p.delta);
  const TimeSteppingSettings& ts = st.time_stepping;
  Linearization L;
  L.h = ts.dt;
  L.theta = ts.theta;
  L.kappa = ts.contacts.bilateral_feedback;

  // The step solved as the dense layer solves it (the body-block layer's problem is the same).
  StepContactSettings cs = ts.contacts;
  cs.body_blocks = false;
  cs.theta = ts.theta;
  cs.max_step = L.h;  // detection leaves out the contacts no step of h activates, as the step's
  ContactSolverSettings solver = st.solver;
  if (ds.solver_tolerance > 0.0) {
    solver.tolerance = ds.solver_tolerance;
    solver.max_iterations = std::max(solver.max_iterations, 100000);
  }
  auto layer = sys.step_contacts(cs, solver);
  double penetration = 0.0;
  layer->detect(q, v, t, penetration);
  layer->name_detected();
  const std::vector<StepContact>& active = layer->build(q, v, t, L.h);
  L.d = layer->dimension();
  const int d = L.d;
  const Index nc = static_cast<Index>(active.size());
  Vector w = Vector::Zero(d * nc), compliance(nc);
  for (Index a = 0; a < nc; ++a) {
    const StepContact& c = active[a];
    L.impacting.push_back(c.un_minus < -st.zeno_velocity);
    if (L.impacting.back()) w[d * a] = c.restitution * c.un_minus;
    compliance[a] = c.gamma / L.h;
  }
  const StepSolution sol = layer->solve(w, compliance, Vector());
  L.v_next = sol.v;
  L.r = sol.r;

  // The same index set from the same state (the layer's order: constraints in order).
  const ContactState s = sys.step_state(q, v, t, cs.activation_factor * L.h, cs.activation_margin);
  for (Index i = 0; i < s.size(); ++i) {
    const ContactConstraint& c = s.constraints[i];
    if (c.kind == ConstraintKind::bilateral)
      L.bilateral.push_back(i);
    else if (c.gap + cs.activation_factor * L.h * c.normal.dot(v) <= cs.activation_margin)
      L.unilateral.push_back(i);
  }
  MOREAU_REQUIRE(static_cast<Index>(L.unilateral.size()) == nc,
                 "step_derivatives: the index set has {} contacts where the step's layer has {}",
                 L.unilateral.size(), nc);

  StepDerivatives out;
  out.v_next = L.v_next;
  out.solver_residual = sol.residual;
  std::vector<Index> identity(static_cast<size_t>(s.size()));
  for (Index i = 0; i < s.size(); ++i) identity[static_cast<size_t>(i)] = i;

  // bilateral and dry-friction impulses: Σ H_B p + Σ e_i p_i = M̂(v⁺ − v_free) − H_I r
  const std::vector<DryFriction> dry = sys.dry_friction();
  Matrix Mh;  // M̂ of the step
  {
    const Vector momentum = free_momentum(sys, L, s.M, s.F, q, v, t, Mh);
    Vector rest = Mh * L.v_next - momentum;
    for (Index a = 0; a < nc; ++a) {
      const ContactConstraint& c = s.constraints[L.unilateral[a]];
      rest -= c.normal * L.r[d * a] + c.tangent * L.r.segment(d * a + 1, d - 1);
    }
    const Index nb = static_cast<Index>(L.bilateral.size());
    Matrix cols = Matrix::Zero(n, nb + static_cast<Index>(dry.size()));
    for (Index b = 0; b < nb; ++b) cols.col(b) = s.constraints[L.bilateral[b]].normal;
    for (size_t f = 0; f < dry.size(); ++f) cols(dry[f].dof, nb + static_cast<Index>(f)) = 1.0;
    const Vector impulses =
        cols.cols() > 0 ? Vector(cols.completeOrthogonalDecomposition().solve(rest)) : Vector();
    L.p = impulses.head(nb);
    for (Index b = 0; b < nb; ++b)
      L.rows.push_back({.kind = RowKind::bilateral, .constraint = L.bilateral[b]});

    // modes: tolerances relative to the step's largest impulse and velocity
    double r_max = 0.0;
    for (Index a = 0; a < nc; ++a) r_max = std::max(r_max, L.r[d * a]);
    // velocity scale: |v|, |v⁺| and the free flight's change h M̂⁻¹F̂ ≈ (M̂ v_free − M̂ v)/diag M̂
    const Vector free_change = (momentum - Mh * v).cwiseQuotient(Mh.diagonal());
    const double v_max = std::max({v.lpNorm<Eigen::Infinity>(), L.v_next.lpNorm<Eigen::Infinity>(),
                                   free_change.lpNorm<Eigen::Infinity>(), 1e-300});
    const double r_tol = ds.mode_tolerance * std::max(r_max, 1e-300);
    const double u_tol = ds.mode_tolerance * v_max;
    out.contacts = classify(s, L.r, sol.u, compliance, r_tol, u_tol, L);
    for (const DryFriction& f : dry)
      if (std::abs(L.v_next[f.dof]) <= u_tol) {
        L.rows.push_back({.kind = RowKind::dry, .dof = f.dof});
        out.dry_friction_stuck.push_back(f.name);
      }
  }

  // The linearized step's matrix [M̂ + Σ k H_t P H_tᵀ, −G; Eᵀ, C]: its blocks.
  const Index m = static_cast<Index>(L.rows.size());
  Matrix E(n, m), G(n, m);
  Vector C(m);
  std::vector<Matrix> slip_terms;  // k H_t P per sliding contact (n × (d − 1))
  for (const SlipContact& sc : L.slips) {
    const Matrix& Ht = s.constraints[sc.constraint].tangent;
    const Matrix P = Matrix::Identity(d - 1, d - 1) - sc.t_hat * sc.t_hat.transpose();
    slip_terms.push_back(sc.k * Ht * P);
  }
  for (Index k = 0; k < m; ++k) {
    const HeldRow& row = L.rows[static_cast<size_t>(k)];
    E.col(k).setZero();
    if (row.kind == RowKind::dry) {
      E(row.dof, k) = 1.0;
    } else {
      const ContactConstraint& c = s.constraints[row.constraint];
      E.col(k) = row.kind == RowKind::tangent ? Vector(c.tangent.col(row.tangent)) : c.normal;
    }
    G.col(k) = E.col(k);
    if (row.slip)
      for (const SlipContact& sc : L.slips)
        if (sc.contact == row.contact)
          G.col(k) -= sc.mu * s.constraints[sc.constraint].tangent * sc.t_hat;
    C[k] = row.compliance;
  }

  // Right-hand sides, one column per direction: [dφ − Σ k H_t P dψ_t; −dψ_E].
  auto rhs = [&](const StepData& dd) {
    Vector b(n + m);
    b.head(n) = dd.phi;
    for (size_t sI = 0; sI < L.slips.size(); ++sI)
      b.head(n) -= slip_terms[sI] * dd.psi_slip.segment(static_cast<Index>(sI) * (d - 1), d - 1);
    b.tail(m) = -dd.psi_rows;
    return b;
  };
  const double delta = ds.difference_step;
  Matrix B(n + m, 3 * n + nu + np);
  // M̂ v_free = M̂ v − h F − h²θ K v (model/step_free_velocity.hpp) when the step is not a free
  // flight at the midpoint: then φ's dynamics part is −h (M(q) a + F(q, v)), a = (v⁺ − v)/h, plus
  // terms linear in v, and its derivatives come from the system's dynamics_derivatives (exact
  // for joint coordinates); the contact part alone is differenced, at the base M and F.
  const bool split = L.constrained() || !sys.midpoint_free_flight();
  Matrix dyn_q, dyn_v;
  if (split)
    sys.dynamics_derivatives(q, v, t, (L.v_next - v) / L.h, delta, ds.input_step, dyn_q, dyn_v);
  // The contact rows' derivatives in q from the system (exact where it has them), else central
  // differences of the detection and Jacobians at q ⊕ ±δ e_j (always with bilateral rows, whose
  // κ g/h the exact path does not carry).
  bool exact_rows = false;
  if (split && L.bilateral.empty()) {
    // the index set, then each impacting contact again (its normal row reads e ∇hᵀ v): impulses
    // r (slip: r_t = −μ r_n t̂), 0 and velocities v⁺, v
    std::vector<Index> which = L.unilateral;
    std::vector<Index> again;  // per contact of I: its repeat's place in which, or −1
    for (Index a = 0; a < nc; ++a) {
      again.push_back(L.impacting[a] ? static_cast<Index>(which.size()) : -1);
      if (L.impacting[a]) which.push_back(L.unilateral[a]);
    }
    const Index nw = static_cast<Index>(which.size());
    Vector r = Vector::Zero(d * nw);
    Matrix U(n, nw);
    for (Index a = 0; a < nc; ++a) {
      r.segment(d * a, d) = L.r.segment(d * a, d);
      U.col(a) = L.v_next;
      if (again[a] >= 0) U.col(again[a]) = v;
    }
    for (const SlipContact& sc : L.slips)
      r.segment(d * sc.contact + 1, d - 1) = -sc.mu * L.r[d * sc.contact] * sc.t_hat;
    Matrix df, dy;
    exact_rows = sys.constraint_derivatives(q, v, t, s, which, r, U, df, dy);
    for (Index j = 0; exact_rows && j < n; ++j) {
      StepData dd;
      dd.phi = df.col(j) - L.h * dyn_q.col(j);
      dd.psi_rows = Vector::Zero(m);
      for (Index k = 0; k < m; ++k) {
        const HeldRow& row = L.rows[static_cast<size_t>(k)];
        if (row.kind == RowKind::normal) {
          dd.psi_rows[k] = dy(d * row.contact, j);
          if (again[row.contact] >= 0)
            dd.psi_rows[k] +=
                s.constraints[row.constraint].restitution * dy(d * again[row.contact], j);
        } else if (row.kind == RowKind::tangent) {
          dd.psi_rows[k] = dy(d * row.contact + 1 + row.tangent, j);
        }
      }
      dd.psi_slip.resize(static_cast<Index>(L.slips.size()) * (d - 1));
      for (size_t sI = 0; sI < L.slips.size(); ++sI)
        dd.psi_slip.segment(static_cast<Index>(sI) * (d - 1), d - 1) =
            dy.col(j).segment(d * L.slips[sI].contact + 1, d - 1);
      B.col(j) = rhs(dd);
    }
  }
  for (Index j = 0; !exact_rows && j < n; ++j) {  // q ⊕ ±δ e_j: detection and Jacobians there
    StepData side[2];
    for (int sgn = 0; sgn < 2; ++sgn) {
      const Vector qs = sys.integrate(q, Vector::Unit(n, j) * (sgn == 0 ? delta : -delta), 1.0);
      const ContactState sx = sys.contact_state(qs, v, t);
      const std::vector<Index> map = match(s, sx, L, j, delta);
      side[sgn] = split ? evaluate(sys, L, sx, map, s.M, s.F, q, v, t)
                        : evaluate(sys, L, sx, map, sx.M, sx.F, qs, v, t);
    }
    B.col(j) = rhs(central(side[0], side[1], delta));
    if (split) B.col(j).head(n) -= L.h * dyn_q.col(j);
  }
  // v ± δ e_j, then the inputs: M and F alone (the constraints do not move with them)
  auto at_inputs = [&](const Vector& vs) {
    Matrix M;
    Vector F;
    sys.mass_and_forces(q, vs, t, M, F);
    return evaluate(sys, L, s, identity, M, F, q, vs, t);
  };
  for (Index j = 0; j < n; ++j) {  // split: the terms linear in v differenced at the base F
    const double dj = ds.input_step * std::max(1.0, std::abs(v[j]));
    const Vector vp = v + Vector::Unit(n, j) * dj, vm = v - Vector::Unit(n, j) * dj;
    if (split) {
      B.col(n + j) = rhs(central(evaluate(sys, L, s, identity, s.M, s.F, q, vp, t),
                                 evaluate(sys, L, s, identity, s.M, s.F, q, vm, t), dj));
      B.col(n + j).head(n) -= L.h * dyn_v.col(j);
    } else {
      B.col(n + j) = rhs(central(at_inputs(vp), at_inputs(vm), dj));
    }
  }
  for (Index j = 0; j < nu + n; ++j) {  // ctrl, then qfrc
    const bool is_ctrl = j < nu;
    const Index jj = is_ctrl ? j : j - nu;
    const double dj = ds.input_step * std::max(1.0, std::abs(is_ctrl ? ctrl[jj] : qfrc[jj]));
    StepData side[2];
    for (int sgn = 0; sgn < 2; ++sgn) {
      const double step = sgn == 0 ? dj : -dj;
      Vector c = ctrl, f = qfrc;
      (is_ctrl ? c[jj] : f[jj]) += step;
      set_inputs(c, f);
      side[sgn] = at_inputs(v);
    }
    set_inputs(ctrl, qfrc);
    B.col(is_ctrl ? 3 * n + jj : 2 * n + jj) = rhs(central(side[0], side[1], dj));
  }
  for (Index j = 0; j < np; ++j) {  // a parameter: the data of its two systems at (q, v)
    const StepParameter& p = parameters[static_cast<size_t>(j)];
    StepData side[2];
    for (int sgn = 0; sgn < 2; ++sgn) {
      const LagrangianSystem& ps = sgn == 0 ? *p.plus : *p.minus;
      const ContactState sx = ps.contact_state(q, v, t);
      side[sgn] = evaluate(ps, L, sx, match(s, sx, L, -1 - j, p.delta), sx.M, sx.F, q, v, t);
    }
    B.col(3 * n + nu + j) = rhs(central(side[0], side[1], p.delta));
  }
  const MassSolver* mass = layer->implicit_mass();  // the dense layer's M̂, factorized by build()
  MOREAU_REQUIRE(mass != nullptr, "step_derivatives: the step's layer kept no factorization of M̂");
  const Matrix X = solve_linearized(*mass, E, G, C, slip_terms, L, s, B);
  out.dv_dparams = X.block(0, 3 * n + nu, n, np);
  out.dv_dq = X.block(0, 0, n, n);
  out.dv_dv = X.block(0, n, n, n);
  out.dv_dqfrc = X.block(0, 2 * n, n, n);
  out.dv_dctrl = X.block(0, 3 * n, n, nu);

  // q⁺ = normalize(q + h q̇(q, ṽ)), ṽ = (1 − θ) v + θ v⁺, in the tangent space at q⁺.
  auto position = [&](const Vector& qq, const Vector& vv) {
    Vector o = qq + L.h * sys.position_rate(qq, vv);
    sys.normalize_position(o);
    return o;
  };
  const Vector vt = (1.0 - L.theta) * v + L.theta * L.v_next;
  out.q_next = position(q, vt);
  Matrix Jq(n, n), Jv(n, n);
  for (Index j = 0; j < n; ++j) {
    const Vector e = Vector::Unit(n, j) * delta;
    Jq.col(j) = (sys.difference(out.q_next, position(sys.integrate(q, e, 1.0), vt)) -
                 sys.difference(out.q_next, position(sys.integrate(q, -e, 1.0), vt))) /
                (2.0 * delta);
    Jv.col(j) = (sys.difference(out.q_next, position(q, vt + e)) -
                 sys.difference(out.q_next, position(q, vt - e))) /
                (2.0 * delta);
  }
  out.dq_dq = Jq + L.theta * Jv * out.dv_dq;
  out.dq_dv = Jv * ((1.0 - L.theta) * Matrix::Identity(n, n) + L.theta * out.dv_dv);
  out.dq_dctrl = L.theta * Jv * out.dv_dctrl;
  out.dq_dqfrc = L.theta * Jv * out.dv_dqfrc;
  out.dq_dparams = L.theta * Jv * out.dv_dparams;
  return out;
}

}  // namespace moreau
