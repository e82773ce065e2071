#pragma once
// The simulators of a LagrangianSystem (docs/simulation.md):
//   - "timestepping": Moreau–Jean θ-method at the velocity level (time_stepping.hpp),
//   - "event": event-driven hybrid integration of the automaton of digest 000 §A (event_driven.hpp).
// Both return a SimulationResult (trajectory, per-contact records, events, summary), which
// recorder.hpp writes to disk. The library never prints: progress is reported through a callback.
#include <functional>
#include <string>
#include <vector>

#include "moreau/common/types.hpp"
#include "moreau/model/lagrangian_system.hpp"

namespace moreau {

// Settings of simulate(): integrator, final time, and each integrator's parameters.
struct SimulationSettings {
  std::string integrator = "timestepping";  // "timestepping" or "event"
  double t_end = 1.0;                       // s, final time (start is 0)

  // --- Moreau–Jean time stepping ---
  double dt = 1e-3;                  // s, step h
  double theta = 0.5;                // θ ∈ [0, 1] of q_{k+1} = q_k + h((1−θ)v_k + θ v_{k+1})
  double activation_margin = 1e-6;   // m, a unilateral constraint enters the step when g + h/2·u_n ≤ margin
  bool projection = true;            // post-stabilization of penetrations (and bilateral drift)
  double projection_tolerance = 1e-8;  // m, penetration left after the projection
  double bilateral_feedback = 0.2;   // velocity-level Baumgarte of joints: u_b⁺ = −κ h_b/h
  std::string solver = "auto";       // frictional-contact solver (solvers/fc registry name)
  double solver_tolerance = 1e-10;   // on friction_contact_residual
  int solver_max_iterations = 2000;
  // Rigid worlds (RigidWorldSystem): solve each step in body blocks with body-block NSGS and the
  // registry `solver` as fallback (RigidWorldSystem::step_contacts); false: the dense path of any
  // LagrangianSystem (model/step_contacts.hpp), condensed problem solved by `solver`.
  bool body_blocks = true;
  double nsgs_relaxation = 1.7;      // ω ∈ (0, 2) of body-block NSGS (1 = plain Gauss–Seidel),
                                     // used after 20 plain sweeps of a step (slow steps only)
  double mode_velocity = 1e-6;       // m/s: a step's contact slips when ‖u_t⁺‖ exceeds it and
                                     // separates when r_n = 0 and u_n⁺ exceeds it
  int separation_steps = 3;          // a closed contact out of the index set for at most this
                                     // many steps that comes back is not reported separated

  // --- event-driven ---
  double rtol = 1e-10;               // relative tolerance of the Dormand–Prince 5(4) steps
  double atol = 1e-12;               // absolute tolerance (m, m/s)
  double max_step = 1e-2;            // s, largest smooth step (so that no double root is missed)
  double contact_tolerance = 1e-9;   // m and m/s: a contact is closed when |g| and |u_n| are below
  double force_tolerance = 1e-9;     // N, slack of the mode consistency tests
  double zeno_velocity = 1e-4;       // m/s: impacts slower than this are plastic (e := 0)
  double baumgarte_alpha = 10.0;     // 1/s, acceleration-level stabilization g̈ + 2αġ + β²g = 0
  double baumgarte_beta = 10.0;      // 1/s (a constraint's own α, β > 0 take precedence)
  std::string painleve_policy = "tangential_impact";  // Painlevé case 3: "tangential_impact"
                                                      // (sticking impulse, e = 0) or "stop"
  int max_events = 100000;

  // --- recording ---
  double record_interval = 0.0;  // s; 0 records every step (and every event)
};

// One entry of events.csv. kind ∈ {impact, contact, separation, stick_to_slip, slip_to_stick,
// slip_reversal, painleve, zeno, solver_failure}.
struct SimulationEvent {
  double t = 0.0;         // s
  std::string kind;
  Index contact = -1;     // constraint index, −1 = none
  std::string detail;     // human-readable: velocities, forces, Painlevé case …
};

// One row of contacts.csv: one closed (or active) contact at one recorded time.
struct ContactRecord {
  double t = 0.0;      // s
  Index contact = 0;   // constraint index into contact_names
  double gap = 0.0;    // m
  double r_n = 0.0;    // normal force (event-driven, N) or impulse (time stepping, N·s)
  Vector r_t;          // d−1 tangential components, same unit as r_n
  std::string mode;    // stick, slip, free (event), active (time stepping), bilateral
};

// A simulation's trajectory, contacts, events, energies and status.
struct SimulationResult {
  std::string system;
  std::string integrator;          // "timestepping" or "event"
  std::string status = "completed";  // completed, painleve, unsupported, event_limit,
                                     // solver_failure, no_consistent_mode, step_failure
  std::string message;
  std::string force_quantity;      // "impulse" (N·s) or "force" (N)
  int dimension = 2;
  std::vector<std::string> position_names, velocity_names, contact_names;

  std::vector<double> t;           // s, recorded times
  std::vector<Vector> q, v;        // state at each recorded time
  std::vector<double> kinetic, potential;  // J
  std::vector<ContactRecord> contacts;
  std::vector<SimulationEvent> events;

  long steps = 0;                  // accepted steps
  long rejected_steps = 0;         // event-driven: rejected by the error control
  int solver_failures = 0;         // time stepping: steps whose contact solve did not converge
  double energy_initial = 0.0;     // J
  double energy_final = 0.0;       // J
  double max_energy_gain = 0.0;    // J, max_t (E(t) − min_{s≤t} E(s))
  double max_penetration = 0.0;    // m, max over time and unilateral constraints of −min(g, 0)
  double wall_time = 0.0;          // s

  Index records() const { return static_cast<Index>(t.size()); }
  Matrix q_matrix() const;         // records × position_size
  Matrix v_matrix() const;         // records × velocity_size
};

// Called now and then with the fraction of [0, t_end] done.
using ProgressCallback = std::function<void(double fraction)>;

// Runs the integrator named in settings from (q0, v0) at t = 0. Empty q0/v0 take the system's
// initial_q / initial_v. Throws std::invalid_argument on bad settings or state (sizes, NaN,
// unknown integrator, interpenetrating start beyond the tolerance).
SimulationResult simulate(const LagrangianSystem& system, const SimulationSettings& settings,
                          const Vector& q0 = Vector(), const Vector& v0 = Vector(),
                          const ProgressCallback& progress = {});

// Checks settings (t_end > 0, dt > 0, θ ∈ [0,1], tolerances > 0, known names).
void validate(const SimulationSettings& settings);

}  // namespace moreau
