#pragma once
// Event-driven integration of the hybrid automaton of unilateral contact (contact, separation,
// impact, slip, stick; the unilateral-contact notes of docs/references.md) for a
// LagrangianSystem; see docs/simulation.md for the full algorithm.
//   Smooth phases: Dormand–Prince 5(4) with error control and its 4th-order dense output; in the
//   current mode the accelerations and multipliers solve
//     M a + F = Σ_closed (∇h λ_n + H_t λ_t),  λ_t = −μ λ_n σ on sliding contacts,
//     ∇hᵀ a + c_n + 2α ġ + β² g = 0 on closed contacts (Baumgarte stabilization, as Drake's),
//     H_tᵀ a + c_t + 2α u_t = 0 on sticking contacts.
//   Stabilization α, β per constraint: its own (ContactConstraint::baumgarte_alpha/beta) when
//   > 0, else the settings' (each separately).
//   Root functions located on the dense output by the Illinois method: g + ½ε (armed free contact
//   closing → impact), u_n (apex of a disarmed free contact that left the closing band after an
//   impact or separation: re-arms, or closes it there — Zeno rule), λ_n (→ separation),
//   μλ_n − ‖λ_t‖ (stick → slip), σ·u_t (slip → stick); a free contact found below −10ε after a
//   step is a missed closing, backtracked to its crossing on the dense output.
//   Next mode: the consistent assignments of {stick, slip, free} over the closed contacts from
//   analysis::contact_modes (its mode LCP in 2D up to 12 variables, its per-contact enumeration in
//   3D and beyond; at most 8 active constraints, beyond that, or for a state contact_modes refuses,
//   the run ends with status "unsupported"); one ContactModeSettings holds the limits; the mode a
//   fired root left is excluded and the consistent combination with the most sticking contacts
//   wins.
//   Painlevé: no consistent mode (case 3, inconsistency) → policy "tangential_impact" (the
//   contact sticks by a velocity-level impulse with e = 0, accepted inside its Coulomb cone, then
//   the mode choice again) or "stop"; slip and separation both consistent with α < 0 (case 4,
//   indeterminacy) → separation. painleve events name the contact.
//   Impacts: every closed contact takes part, by the impact law the closed contacts share
//   (ContactConstraint::law, sim/impact_law.hpp; a mix in one impact → std::invalid_argument):
//   "newton" = velocity-level problem with u_n⁺ = −e u_n⁻ and Coulomb friction
//   (velocity_level.hpp), "poisson" / "moreau" = impact::poisson_impact / impact::moreau_impact
//   (frictionless, no joints: refused at the start otherwise). Zeno rule: impacts slower than
//   zeno_velocity are plastic (e := 0) and a contact that stays in the closing band closes
//   without impact, which ends accumulations of impacts.
//   Throws std::invalid_argument on an unknown or refused law (check_impact_laws(·, "event")).
// Sources: src/sim/event_driven.cpp (driver loop), src/sim/event/: hybrid_dynamics (mode
// dynamics), event_location (Dormand–Prince step, root functions, Illinois), mode_selection
// (next mode from analysis::contact_modes, exclusions, Painlevé), impact_phase.
#include "moreau/sim/simulation.hpp"

namespace moreau {

// Runs the event-driven integrator above (simulate() with integrator "event" calls it).
SimulationResult simulate_event_driven(const LagrangianSystem& system,
                                       const SimulationSettings& settings, const Vector& q0,
                                       const Vector& v0, const ProgressCallback& progress,
                                       const StopRequest* stop = nullptr);

// The same, also giving the state the run ends at (its last accepted state, after any impact
// there): for a driver that continues from it (sim/simulator.hpp).
SimulationResult simulate_event_driven(const LagrangianSystem& system,
                                       const SimulationSettings& settings, const Vector& q0,
                                       const Vector& v0, Vector& q_end, Vector& v_end);

}  // namespace moreau
