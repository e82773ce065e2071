#pragma once
// The named states and laws that a constraint carries, shared by the layers above the model
// (analysis, impact, sim): one enum each. Strings are read into these enums only by io (scene
// files, analyze inputs) and python; to_string gives the names that outputs and messages use.
#include <string>

namespace moreau {

// Mode of one unilateral contact, at the acceleration level (analysis::contact_modes, the
// event-driven integrator) and after a time step (Moreau–Jean): open, sticking or slipping.
enum class ContactMode {
  separate,  // open: r_n = 0 (the gap may be 0 while it opens)
  stick,     // closed, zero tangential velocity, r_t inside the Coulomb cone
  slip,      // closed, sliding, r_t on the boundary of the cone opposite the sliding velocity
};

// "separate", "stick", "slip".
std::string to_string(ContactMode mode);

// Impact law of a unilateral contact in a simulation (Brogliato 2014 §3; the rules of each law are
// the table of sim/impact_law.hpp).
enum class ImpactLaw {
  newton,   // u_n⁺ = −e u_n⁻ inside the velocity-level frictional problem
  poisson,  // compression LCP, then the restitution impulse E p_c (impact::poisson_impact)
  moreau,   // 0 ≤ p̄ ⊥ G p̄ + (I + E) q̇_norm⁻ ≥ 0 (impact::moreau_impact)
};

// "newton", "poisson", "moreau".
std::string to_string(ImpactLaw law);

}  // namespace moreau
