#pragma once
// Event-driven integration of the hybrid automaton of digest 000 §A (contact, separation,
// impact, slip, stick) for a LagrangianSystem; see docs/simulation.md for the full algorithm.
//   Smooth phases: Dormand–Prince 5(4) with error control and its 4th-order dense output; in the
//   current mode the accelerations and multipliers solve
//     M a + F = Σ_closed (∇h λ_n + H_t λ_t),  λ_t = −μ λ_n σ on sliding contacts,
//     ∇hᵀ a + c_n + 2α ġ + β² g = 0 on closed contacts (Baumgarte, digest 002 §B),
//     H_tᵀ a + c_t + 2α u_t = 0 on sticking contacts.
//   Root functions located on the dense output by the Illinois method: g + ½ε (free contact
//   closing → impact), λ_n (→ separation), μλ_n − ‖λ_t‖ (stick → slip), σ·u_t (slip → stick).
//   Next mode: acceleration-level enumeration of {stick, slip±, free} per closed contact, the
//   consistent combination with the most sticking contacts wins. Painlevé: no consistent mode
//   (case 3, inconsistency) → tangential impact (policy "tangential_impact") or stop; slip and
//   separation both consistent with α < 0 (case 4, indeterminacy) → separation.
//   Impacts: velocity-level problem with Newton's law (velocity_level.hpp); impacts slower than
//   zeno_velocity are plastic (e := 0), which ends accumulations of impacts.
#include "moreau/sim/simulation.hpp"

namespace moreau {

SimulationResult simulate_event_driven(const LagrangianSystem& system,
                                       const SimulationSettings& settings, const Vector& q0,
                                       const Vector& v0, const ProgressCallback& progress);

}  // namespace moreau
