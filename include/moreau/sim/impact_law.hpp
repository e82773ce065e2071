#pragma once
// The impact law of each unilateral contact (ContactConstraint::law, filled from the scene's
// contact material "law"), checked once when a simulation starts (docs/simulation.md
// §"Impact laws"; the laws themselves: digest 003 §2, impact/impact_laws.hpp):
//   "newton"  u_n⁺ = −e u_n⁻ as the constant term of the velocity-level complementarity problem
//             with the exact Coulomb cone (model/velocity_level.hpp); frictional, joints allowed.
//             Both integrators.
//   "poisson" impact::poisson_impact: compression LCP, then restitution impulse E p_c.
//             Event-driven only; frictionless (μ = 0) and no bilateral constraint in the system.
//   "moreau"  impact::moreau_impact: 0 ≤ p̄ ⊥ G p̄ + (I + E) q̇_norm⁻ ≥ 0 in the kinetic metric.
//             Event-driven only; frictionless (μ = 0) and no bilateral constraint in the system.
// Rule (refuse rather than guess): a law other than newton on a contact with μ > 0, or in a system
// with a bilateral constraint (joint), is refused when the simulation starts; the impact layer's
// Poisson and Moreau laws have no friction and no joints, and applying them to the normal part only
// would silently drop the tangential impulse.
#include <string>
#include <vector>

#include "moreau/common/types.hpp"
#include "moreau/model/contact_state.hpp"

namespace moreau {

// "newton", "poisson", "moreau" (the order of docs/simulation.md).
const std::vector<std::string>& impact_law_names();

// True when `law` is one of impact_law_names().
bool is_impact_law(const std::string& law);

// The two rules that need only the name: `law` is known, and it is "newton" unless the integrator
// is "event". Throws std::invalid_argument starting with `owner` (e.g. "contact 'ball/floor:0'"
// or "a contact material").
void check_impact_law_name(const std::string& law, const std::string& integrator, const std::string& owner);

// Checks the law of every unilateral constraint of `state` for the integrator named
// ("event" or "timestepping"). Throws std::invalid_argument with a sentence that names the
// contact and the offending value:
//   - an unknown law name (any integrator),
//   - integrator "timestepping" and a law other than "newton",
//   - integrator "event", a law other than "newton" and μ > 0 on that contact,
//   - integrator "event", a law other than "newton" and a bilateral constraint in the state.
// Bilateral constraints' law fields are ignored. Call it on the initial contact state (and on any
// contact state that brings new contacts, e.g. after a broad-phase update); it costs m string
// comparisons.
void check_impact_laws(const ContactState& state, const std::string& integrator);

// The law shared by the constraints `contacts` (indices into state.constraints) that take part in
// one impact. Throws std::invalid_argument naming two contacts with different laws and the time t.
// Empty `contacts` → "newton".
const std::string& common_impact_law(const ContactState& state, const std::vector<Index>& contacts,
                                     double t);

}  // namespace moreau
