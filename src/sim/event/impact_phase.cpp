#include "impact_phase.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "moreau/impact/impact_laws.hpp"
#include "moreau/sim/impact_law.hpp"
#include "moreau/model/velocity_level.hpp"

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
    if (c.kind == ConstraintKind::bilateral) { set.in.bilateral.push_back(i); continue; }
    if (c.gap > 10.0 * ctx.eps_g) continue;
    const double un = c.normal.dot(v);
    set.in.unilateral.push_back(i);
    set.unm.push_back(un);
    if (un < -ctx.tol_v) set.approaching = true;
  }
  return set;
}

// Post-impact velocity and normal impulses of one law.
struct ImpactJump {
  Vector v_post;  // n, q̇⁺
  Vector pn;      // |U|, normal impulses, N·s
};

// newton: u_n⁺ = −e u_n⁻ per contact (e := 0 below zeno_velocity) with Coulomb friction and joints.
ImpactJump newton_impact(const ImpactContext& ctx, const ContactState& s, const Vector& v, ImpactSet& set,
                         SimulationResult& res) {
  const int d = s.dimension;
  const Index nu = static_cast<Index>(set.in.unilateral.size());
  set.in.w_unilateral = Vector::Zero(d * nu);
  set.in.w_bilateral = Vector::Zero(static_cast<Index>(set.in.bilateral.size()));
  for (Index a = 0; a < nu; ++a) {
    const auto& c = s.constraints[set.in.unilateral[a]];
    const bool plastic = set.unm[a] > -ctx.st.zeno_velocity;
    set.in.w_unilateral[d * a] = (plastic ? 0.0 : c.restitution) * std::min(set.unm[a], 0.0);
  }
  const MassSolver mass(s.M);
  const VelocityLevelSolution sol = solve_velocity_level(s, mass, v, set.in, ctx.st.solver, ctx.fcs);
  if (!sol.report.converged() && sol.report.residual > 1e3 * ctx.st.solver_tolerance) ++res.solver_failures;
  ImpactJump j{sol.v, Vector::Zero(nu)};
  for (Index a = 0; a < nu; ++a) j.pn[a] = sol.r[d * a];
  return j;
}

// Zeno rule for a whole poisson/moreau impact: these laws give a closed contact that does not
// approach (u_n⁻ ≥ 0) an impulse through the coupling W_nn, so its e matters; the impact is
// plastic (every e := 0) only when its fastest approach is slower than zeno_velocity.
bool plastic_impact(const ImpactContext& ctx, const std::vector<double>& unm) {
  return -*std::min_element(unm.begin(), unm.end()) < ctx.st.zeno_velocity;
}

// poisson / moreau on the closed contacts only (the impact laws take every constraint of the
// state as active); no bilateral rows and μ = 0 here (check_impact_laws at the start).
bool law_impact(const ImpactContext& ctx, const std::string& law, double t, const ContactState& s,
                const Vector& v, const ImpactSet& set, ImpactJump& j, std::string& failure) {
  ContactState sub;
  sub.dimension = s.dimension;
  sub.t = t;
  sub.q = s.q;
  sub.v = v;
  sub.M = s.M;
  sub.F = s.F;
  const bool plastic = plastic_impact(ctx, set.unm);
  for (Index i : set.in.unilateral) {
    ContactConstraint c = s.constraints[i];
    if (plastic) c.restitution = 0.0;
    sub.constraints.push_back(std::move(c));
  }
  const ImpactResult ir = law == "poisson" ? poisson_impact(sub) : moreau_impact(sub);
  if (ir.status != ImpactStatus::resolved && ir.status != ImpactStatus::no_impact) {
    failure = fmt::format("impact law '{}' at t = {} s: {} ({})", law, t, to_string(ir.status), ir.message);
    return false;
  }
  j.v_post = ir.v_post;
  j.pn = ir.normal_impulse;
  return true;
}

}  // namespace

bool apply_impacts(const ImpactContext& ctx, double t, const Vector& q, Vector& v, std::vector<bool>& impacted,
                   SimulationResult& res, std::string& failure) {
  const ContactState s = ctx.sys.contact_state(q, v, t);
  ImpactSet set = impact_set(ctx, s, v);
  if (!set.approaching) return false;
  const std::string law = common_impact_law(s, set.in.unilateral, t);
  ImpactJump j;
  if (law == "newton") j = newton_impact(ctx, s, v, set, res);
  else if (!law_impact(ctx, law, t, s, v, set, j, failure)) return false;
  for (std::size_t a = 0; a < set.unm.size(); ++a) {
    if (set.unm[a] >= -ctx.tol_v) continue;
    const Index i = set.in.unilateral[a];
    const auto& c = s.constraints[i];
    const bool plastic = law == "newton" ? set.unm[a] > -ctx.st.zeno_velocity : plastic_impact(ctx, set.unm);
    impacted[i] = true;
    res.events.push_back(
        {t, "impact", i,
         fmt::format("u_n- = {:.9g} m/s, u_n+ = {:.9g} m/s, e = {}{}, P_n = {:.6g} N·s, law = {}", set.unm[a],
                     c.normal.dot(j.v_post), plastic ? 0.0 : c.restitution, plastic ? " (zeno rule: plastic)" : "",
                     j.pn[static_cast<Index>(a)], law)});
  }
  v = j.v_post;
  return true;
}

bool tangential_impact(const ImpactContext& ctx, double t, const Vector& q, Vector& v, Index i,
                       std::string& detail) {
  if (i < 0) { detail = "no contact named"; return false; }
  const ContactState s = ctx.sys.contact_state(q, v, t);
  const int d = s.dimension;
  const Index nv = v.size();
  const auto& ci = s.constraints[i];
  ContactState sx = s;
  VelocityLevelInput in;
  for (Index j = 0; j < s.size(); ++j) {
    const auto& c = s.constraints[j];
    if (c.kind == ConstraintKind::bilateral) in.bilateral.push_back(j);
    else if (j != i && c.gap <= 10.0 * ctx.eps_g) in.unilateral.push_back(j);
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
  const VelocityLevelSolution sol = solve_velocity_level(sx, mass, v, in, ctx.st.solver, ctx.fcs);
  const Vector P = sol.p.tail(d);
  const Vector ut = ci.tangent.transpose() * v;
  const double pt = P.tail(d - 1).norm();
  if (!all_finite(sol.v) || !all_finite(P) || (!in.unilateral.empty() && !sol.report.converged() &&
                                                sol.report.residual > 1e3 * ctx.st.solver_tolerance)) {
    detail = "the velocity-level problem was not solved";
    return false;
  }
  if (!(P[0] > 0.0) || pt > ci.mu * P[0] * (1.0 + 1e-9) + 1e-14) {
    detail = fmt::format("the sticking impulse P_n = {:.6g} N·s, |P_t| = {:.6g} N·s lies outside the "
                         "Coulomb cone (mu = {}): sticking cannot end the impulsive phase",
                         P[0], pt, ci.mu);
    return false;
  }
  const double T0 = ctx.sys.kinetic_energy(q, v), T1 = ctx.sys.kinetic_energy(q, sol.v);
  detail = fmt::format("|u_t-| = {:.9g} m/s -> stick, P_n = {:.6g} N·s, |P_t| = {:.6g} N·s, dT = {:.6g} J",
                       ut.norm(), P[0], pt, T1 - T0);
  v = sol.v;
  return true;
}

}  // namespace moreau::event
