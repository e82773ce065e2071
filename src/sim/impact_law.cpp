// The impact-law table of the simulators; see impact_law.hpp.
#include "moreau/sim/impact_law.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "moreau/impact/impact_laws.hpp"
#include "moreau/model/velocity_level.hpp"

namespace moreau {
namespace {

// newton: the velocity-level problem (model/velocity_level.hpp) over the closed contacts and the
// joints, w_n = e·min(u_n⁻, 0), w_b = 0, exact Coulomb cone (= impact::frictional_impact, e_t = 0).
ImpactJump newton_jump(const ContactState& s, const Vector& v,
                       const ContactSolverSettings& solver) {
  const int d = s.dimension;
  VelocityLevelInput in;
  for (Index i = 0; i < s.size(); ++i)
    (s.constraints[i].kind == ConstraintKind::bilateral ? in.bilateral : in.unilateral)
        .push_back(i);
  const Index nu = static_cast<Index>(in.unilateral.size());
  in.w_unilateral = Vector::Zero(d * nu);
  in.w_bilateral = Vector::Zero(static_cast<Index>(in.bilateral.size()));
  for (Index a = 0; a < nu; ++a) {
    const ContactConstraint& c = s.constraints[in.unilateral[a]];
    in.w_unilateral[d * a] = c.restitution * std::min(c.normal.dot(v), 0.0);
  }
  FrictionContactSettings fcs;
  fcs.tolerance = solver.tolerance;
  fcs.max_iterations = solver.max_iterations;
  const VelocityLevelSolution sol =
      solve_velocity_level(s, MassSolver(s.M), v, in, solver.name, fcs);
  ImpactJump j;
  j.v_post = sol.v;
  j.pn = Vector::Zero(nu);
  for (Index a = 0; a < nu; ++a) j.pn[a] = sol.r[d * a];
  j.solver_failed = !sol.report.converged() && sol.report.residual > 1e3 * solver.tolerance;
  return j;
}

// poisson / moreau: the impact layer's law on the closed contacts (frictionless, no joints).
ImpactJump layer_jump(ImpactResult (*law)(const ContactState&), const ContactState& s,
                      const Vector& v) {
  ContactState sub = s;
  sub.v = v;
  const ImpactResult ir = law(sub);
  ImpactJump j;
  if (ir.status != ImpactStatus::resolved && ir.status != ImpactStatus::no_impact) {
    j.ok = false;
    j.failure = fmt::format("{} ({})", to_string(ir.status), ir.message);
    return j;
  }
  j.v_post = ir.v_post;
  j.pn = ir.normal_impulse;
  return j;
}

ImpactJump poisson_jump(const ContactState& s, const Vector& v, const ContactSolverSettings&) {
  return layer_jump(poisson_impact, s, v);
}

ImpactJump moreau_jump(const ContactState& s, const Vector& v, const ContactSolverSettings&) {
  return layer_jump(moreau_impact, s, v);
}

}  // namespace

const std::vector<ImpactLawRule>& impact_law_rules() {
  //                                         law      friction joints time_stepping per_contact
  //                                         apply
  static const std::vector<ImpactLawRule> kRules = {
      {ImpactLaw::newton, true, true, true, true, newton_jump},
      {ImpactLaw::poisson, false, false, false, false, poisson_jump},
      {ImpactLaw::moreau, false, false, false, false, moreau_jump}};
  return kRules;
}

const ImpactLawRule& impact_law_rule(ImpactLaw law) {
  for (const ImpactLawRule& r : impact_law_rules())
    if (r.law == law) return r;
  MOREAU_REQUIRE(false, "impact law {} has no row in the impact-law table", static_cast<int>(law));
  return impact_law_rules().front();
}

void check_impact_law(ImpactLaw law, Integrator integrator, const std::string& owner) {
  MOREAU_REQUIRE(impact_law_rule(law).time_stepping || integrator == Integrator::event_driven,
                 "{} has the impact law '{}', but the time-stepping integrator supports only "
                 "'newton'; use the "
                 "event-driven integrator or the law 'newton'",
                 owner, to_string(law));
}

// Rules of the header, checked contact by contact in order (the first offending contact is named).
void check_impact_laws(const ContactState& state, Integrator integrator) {
  const ContactConstraint* joint = nullptr;
  for (const auto& c : state.constraints)
    if (c.kind == ConstraintKind::bilateral) {
      joint = &c;
      break;
    }
  for (const auto& c : state.constraints) {
    if (c.kind == ConstraintKind::bilateral) continue;
    check_impact_law(c.law, integrator, fmt::format("contact '{}'", c.name));
    const ImpactLawRule& rule = impact_law_rule(c.law);
    const std::string law = to_string(c.law);
    MOREAU_REQUIRE(rule.friction || c.mu == 0.0,
                   "contact '{}' has the impact law '{}' with friction mu = {}; the '{}' law is "
                   "frictionless: set mu = 0 for this contact or use the law 'newton'",
                   c.name, law, c.mu, law);
    MOREAU_REQUIRE(rule.joints || joint == nullptr,
                   "contact '{}' has the impact law '{}', but the system has the bilateral "
                   "constraint '{}'; the '{}' law takes no joints: use the law 'newton'",
                   c.name, law, joint ? joint->name : std::string(), law);
  }
}

ImpactLaw common_impact_law(const ContactState& state, const std::vector<Index>& contacts,
                            double t) {
  if (contacts.empty()) return ImpactLaw::newton;
  const ContactConstraint& first = state.constraints[contacts.front()];
  for (Index i : contacts) {
    const ContactConstraint& c = state.constraints[i];
    MOREAU_REQUIRE(
        c.law == first.law,
        "at t = {} s the contacts '{}' (law '{}') and '{}' (law '{}') close in one impact; "
        "contacts that impact together must share one impact law",
        t, first.name, to_string(first.law), c.name, to_string(c.law));
  }
  return first.law;
}

}  // namespace moreau
