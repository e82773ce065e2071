#pragma once
// The event-driven integrator's own enumeration of contact modes (not public API), used where
// analysis::contact_modes is not used by mode_selection.cpp: systems with joints (bilateral
// constraints), 3D systems, mode LCPs above limits.max_lcp_size variables, and as the safety net
// when none of contact_modes' solutions passes the consistency check. Every assignment of
//   sliding contact: {slip along u_t, free};  μ = 0: {slip, free};
//   resting contact: {stick, slip+, slip−, free} (2D) or {stick, slip against the sticking λ_t,
//   free} (3D)
// over at most limits.max_enumeration_contacts closed contacts is checked with consistent()
// (mode_selection.hpp).
#include <string>
#include <vector>

#include "mode_selection.hpp"

namespace moreau::event {

// Appends every consistent assignment to `found`. Returns false (with `unsupported` set) when
// more than limits.max_enumeration_contacts contacts are closed.
bool enumerate_modes(const ModeSelection& ctx, const ClosedContacts& cc, std::vector<Modes>& found,
                     std::string& unsupported);

}  // namespace moreau::event
