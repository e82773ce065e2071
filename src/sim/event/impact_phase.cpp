#include "impact_phase.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "moreau/model/velocity_level.hpp"
#include "moreau/sim/impact_law.hpp"
#include "../sim_internal.hpp"

namespace moreau::event {

namespace {

// The closed contacts of an impact (U: unilateral with g ≤ 10ε, their u_n⁻) and the joints (B).
struct ImpactSet {
  VelocityLevelInput in;
  std::vector<double> unm;   // |U|, u_n⁻
  bool approaching = false;  // some u_n⁻ < −tol_v
};

ImpactSet impact_set(const ImpactContext& ctx, const ContactState& s, const Vector& v) {
  ImpactSet set;
  for (Index i = 0; i < s.size(); ++i) {
    const auto& c = s.constraints[i];
    if (c.kind == ConstraintKind::bilateral) {
      set.in.bilateral.push_back(i);
      continue;
    }
    if (c.gap > 10.0 * ctx.eps_g) continue;
    const double un = c.normal.dot(v);
    set.in.unilateral.push_back(i);
    set.unm.push_back(un);
    if (un < -ctx.tol_v) set.approaching = true;
  }
  return set;
}

// Zeno rule: the restitution of closed contact a is set to 0 when the impact is plastic for it,
// per contact for a law that says so (u_n⁻ slower than zeno_velocity), else for every contact
// when the fastest approach is slower (laws that couple the contacts' e through W_nn give a
// closed contact that does not approach an impulse, so its e matters).
std::vector<bool> plastic_contacts(const ImpactContext& ctx, const ImpactLawRule& rule,
                                   const ImpactSet& set) {
  const double fastest = -*std::min_element(set.unm.begin(), set.unm.end());
  std::vector<bool> plastic(set.unm.size());
  for (size_t a = 0; a < set.unm.size(); ++a)
    plastic[a] = rule.plastic_per_contact ? set.unm[a] > -ctx.st.zeno_velocity
                                          : fastest < ctx.st.zeno_velocity;
  return plastic;
}

// The state an impact law sees: the closed contacts (restitution 0 where plastic) and the joints,
// in the order of the system's constraints.
ContactState closed_state(const ContactState& s, const Vector& v, double t, const ImpactSet& set,
                          const std::vector<bool>& plastic) {
  ContactState sub;
  sub.dimension = s.dimension;
  sub.t = t;
  sub.q = s.q;
  sub.v = v;
  sub.M = s.M;
  sub.F = s.F;
  size_t a = 0;
  for (Index i = 0; i < s.size(); ++i) {
    ContactConstraint c = s.constraints[i];
    if (c.kind == ConstraintKind::unilateral) {
      if (a == set.in.unilateral.size() || set.in.unilateral[a] != i) continue;
      if (plastic[a++]) c.restitution = 0.0;
    }
    sub.constraints.push_back(std::move(c));
  }
  return sub;
}

}  // namespace

bool apply_impacts(const ImpactContext& ctx, double t, const Vector& q, Vector& v,
                   std::vector<bool>& impacted, SimulationResult& res, std::string& failure) {
  const ContactState s = ctx.sys.contact_state(q, v, t);
  const ImpactSet set = impact_set(ctx, s, v);
  if (!set.approaching) return false;
  const ImpactLaw law = common_impact_law(s, set.in.unilateral, t);
  const ImpactLawRule& rule = impact_law_rule(law);
  const std::vector<bool> plastic = plastic_contacts(ctx, rule, set);
  const ImpactJump j = rule.apply(closed_state(s, v, t, set, plastic), v, ctx.st.solver);
  if (!j.ok) {
    failure = fmt::format("impact law '{}' at t = {} s: {}", to_string(law), t, j.failure);
    return false;
  }
  if (j.solver_failed) ++res.solver_failures;
  for (std::size_t a = 0; a < set.unm.size(); ++a) {
    if (set.unm[a] >= -ctx.tol_v) continue;
    const Index i = set.in.unilateral[a];
    const auto& c = s.constraints[i];
    impacted[i] = true;
    detail::log_event(res, ctx.st, t, EventKind::impact, i, [&] {
      return fmt::format(
          "u_n- = {:.9g} m/s, u_n+ = {:.9g} m/s, e = {}{}, P_n = {:.6g} N·s, law = {}", set.unm[a],
          c.normal.dot(j.v_post), plastic[a] ? 0.0 : c.restitution,
          plastic[a] ? " (zeno rule: plastic)" : "", j.pn[static_cast<Index>(a)], to_string(law));
    });
  }
  v = j.v_post;
  return true;
}

bool tangential_impact(const ImpactContext& ctx, double t, const Vector& q, Vector& v, Index i,
                       std::string& detail) {
  if (i < 0) {
    detail = "no contact named";
    return false;
  }
  const ContactState s = ctx.sys.contact_state(q, v, t);
  const int d = s.dimension;
  const Index nv = v.size();
  const auto& ci = s.constraints[i];
  ContactState sx = s;
  VelocityLevelInput in;
  for (Index j = 0; j < s.size(); ++j) {
    const auto& c = s.constraints[j];
    if (c.kind == ConstraintKind::bilateral)
      in.bilateral.push_back(j);
    else if (j != i && c.gap <= 10.0 * ctx.eps_g)
      in.unilateral.push_back(j);
  }
  // Contact i's d rows (normal, tangents) as bilateral equalities u_i⁺ = 0.
  const Index first = sx.size();
  for (int k = 0; k < d; ++k) {
    ContactConstraint b;
    b.name = ci.name + "/tangential_impact";
    b.kind = ConstraintKind::bilateral;
    b.normal = k == 0 ? ci.normal : Vector(ci.tangent.col(k - 1));
    b.tangent = Matrix::Zero(nv, d - 1);
    b.tangent_bias = Vector::Zero(d - 1);
    sx.constraints.push_back(std::move(b));
    in.bilateral.push_back(first + k);
  }
  in.w_unilateral = Vector::Zero(d * static_cast<Index>(in.unilateral.size()));
  in.w_bilateral = Vector::Zero(static_cast<Index>(in.bilateral.size()));
  const MassSolver mass(s.M);
  const VelocityLevelSolution sol =
      solve_velocity_level(sx, mass, v, in, ctx.st.solver.name, ctx.fcs);
  const Vector P = sol.p.tail(d);
  const Vector ut = ci.tangent.transpose() * v;
  const double pt = P.tail(d - 1).norm();
  if (!all_finite(sol.v) || !all_finite(P) ||
      (!in.unilateral.empty() && !sol.report.converged() &&
       sol.report.residual > 1e3 * ctx.st.solver.tolerance)) {
    detail = "the velocity-level problem was not solved";
    return false;
  }
  if (!(P[0] > 0.0) || pt > ci.mu * P[0] * (1.0 + 1e-9) + 1e-14) {
    detail = fmt::format(
        "the sticking impulse P_n = {:.6g} N·s, |P_t| = {:.6g} N·s lies outside the "
        "Coulomb cone (mu = {}): sticking cannot end the impulsive phase",
        P[0], pt, ci.mu);
    return false;
  }
  const double T0 = ctx.sys.kinetic_energy(q, v), T1 = ctx.sys.kinetic_energy(q, sol.v);
  detail = fmt::format(
      "|u_t-| = {:.9g} m/s -> stick, P_n = {:.6g} N·s, |P_t| = {:.6g} N·s, dT = {:.6g} J",
      ut.norm(), P[0], pt, T1 - T0);
  v = sol.v;
  return true;
}

}  // namespace moreau::event
