#pragma once
// The impact laws of the simulators, as one table (docs/simulation.md §"Impact laws"; the laws
// themselves: Brogliato 2014 §3, impact/impact_laws.hpp). Each row says what the law accepts and
// how the event-driven impact phase applies it:
//   newton   u_n⁺ = −e u_n⁻ as the constant term of the velocity-level complementarity problem
//            with the exact Coulomb cone (model/velocity_level.hpp); frictional, joints allowed;
//            both integrators (the Moreau–Jean step applies it as its restitution term).
//   poisson  impact::poisson_impact: compression LCP, then restitution impulse E p_c.
//            Event-driven only; frictionless (μ = 0) and no bilateral constraint in the system.
//   moreau   impact::moreau_impact: 0 ≤ p̄ ⊥ G p̄ + (I + E) q̇_norm⁻ ≥ 0 in the kinetic metric.
//            Event-driven only; frictionless (μ = 0) and no bilateral constraint in the system.
// Rule (refuse rather than guess): a law on a contact with μ > 0 that has no friction, or in a
// system with a bilateral constraint (joint) that takes none, is refused when the simulation
// starts; applying a frictionless law to the normal part only would silently drop the
// tangential impulse.
#include <string>
#include <vector>

#include "moreau/common/types.hpp"
#include "moreau/model/contact_state.hpp"
#include "moreau/model/step_contacts.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {

// The velocity jump of one impact: q̇⁺ and the normal impulses, or why the law failed.
struct ImpactJump {
  bool ok = true;              // false: the law's problem was not solved (see failure)
  Vector v_post;               // n, q̇⁺
  Vector pn;                   // normal impulse of each unilateral constraint, in order, N·s
  bool solver_failed = false;  // newton: the contact solver stopped above its tolerance
  std::string failure;         // why ok is false
};

// One row of the impact-law table.
struct ImpactLawRule {
  ImpactLaw law;             // the law this row describes
  bool friction;             // accepts μ > 0 (else the contact must be frictionless)
  bool joints;               // accepts a system with bilateral constraints
  bool time_stepping;        // available to the Moreau–Jean stepper (else event-driven only)
  bool plastic_per_contact;  // Zeno rule per contact (e_i := 0 when u_n,i⁻ > −zeno_velocity);
                             // else the whole impact is plastic when its fastest approach is
                             // slower than zeno_velocity (the law couples the contacts' e)
  // The jump at `closed`: the closed unilateral contacts of the impact (restitutions already set
  // by the Zeno rule) and the system's bilateral constraints, with pre-impact velocity v⁻.
  ImpactJump (*apply)(const ContactState& closed, const Vector& v_minus,
                      const ContactSolverSettings& solver);
};

// Every row, in the order newton, poisson, moreau (the order of docs/simulation.md).
const std::vector<ImpactLawRule>& impact_law_rules();

// The row of `law`.
const ImpactLawRule& impact_law_rule(ImpactLaw law);

// The rule that needs only the law: it is available to `integrator`. Throws
// std::invalid_argument starting with `owner` (e.g. "contact 'ball/floor:0'" or "a contact
// material").
void check_impact_law(ImpactLaw law, Integrator integrator, const std::string& owner);

// Checks the law of every unilateral constraint of `state` for `integrator` against its row:
// available to the integrator, μ > 0 only with a frictional law, a bilateral constraint in the
// state only with a law that takes joints. Throws std::invalid_argument with a sentence that names
// the contact and the offending value. Bilateral constraints' law fields are ignored. Call it on
// the initial contact state (and on any contact state that brings new contacts).
void check_impact_laws(const ContactState& state, Integrator integrator);

// The law shared by the constraints `contacts` (indices into state.constraints) that take part in
// one impact. Throws std::invalid_argument naming two contacts with different laws and the time t.
// Empty `contacts` → newton.
ImpactLaw common_impact_law(const ContactState& state, const std::vector<Index>& contacts,
                            double t);

}  // namespace moreau
