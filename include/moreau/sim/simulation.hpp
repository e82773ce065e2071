#pragma once
// The simulators of a LagrangianSystem (docs/simulation.md):
//   - Integrator::time_stepping: Moreau–Jean θ-method at the velocity level (time_stepping.hpp),
//   - Integrator::event_driven: hybrid integration of the contact/separation/impact automaton
//     (event_driven.hpp).
// Both return a SimulationResult (trajectory, per-contact records, events, summary), which
// recorder.hpp writes to disk. The library never prints: progress is reported through a callback.
#include <atomic>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "moreau/common/types.hpp"
#include "moreau/model/lagrangian_system.hpp"
#include "moreau/model/step_contacts.hpp"
#include "moreau/model/vocabulary.hpp"

namespace moreau {

// The two simulators.
enum class Integrator {
  time_stepping,  // Moreau–Jean θ-method at the velocity level (time_stepping.hpp)
  event_driven,   // hybrid integration with exact mode transitions (event_driven.hpp)
};

// The two Moreau–Jean schemes of Integrator::time_stepping.
enum class TimeSteppingScheme {
  moreau,   // moreau's own (time_stepping.hpp): explicit forces, Newton restitution of
            // approaching contacts, post-stabilization; dense W or body blocks
  siconos,  // Siconos' MoreauJeanOSI (moreau_jean_osi.hpp): the θ-method on the forces too,
            // U_N + e U_N,k on every active contact, no projection, Newton's method for
            // nonlinear systems
};

// The nonlinear loop of TimeSteppingScheme::siconos.
enum class NewtonLoop {
  newton,      // Newton's method on the θ-method residual, to newton_tolerance
  linearized,  // one iteration, the constraints at q_k (Siconos' SICONOS_TS_LINEAR)
};

// What the event-driven integrator does at a Painlevé case 3 (no consistent contact mode).
enum class PainlevePolicy {
  tangential_impact,  // the contact sticks by a velocity-level impulse with e = 0, then on
  stop,               // the run ends with status painleve
};

// How a run ended.
enum class SimulationStatus {
  completed,           // t_end reached
  painleve,            // Painlevé paradox under policy stop (or the tangential impact failed)
  unsupported,         // more simultaneous closed contacts than the mode enumeration handles
  event_limit,         // EventDrivenSettings::max_events events
  solver_failure,      // an impact or mode problem could not be solved
  no_consistent_mode,  // no consistent contact mode and no Painlevé case identified
  step_failure,        // the event-driven step size fell below its floor
  interrupted,         // a stop was requested (StopRequest): the result holds the run so far
  diverged,  // a NaN or an infinity appeared in the state, an impulse or an energy: the run
             // stopped at that step (message: the time and the entry), its last record finite
};

// What happened at a SimulationEvent.
enum class EventKind {
  impact,          // a closing contact hit (time stepping: u_n⁻ < −zeno_velocity)
  contact,         // a contact closed without impact (event-driven, Zeno rule or grazing)
  separation,      // a closed contact opened
  stick_to_slip,   // |r_t| reached μ r_n
  slip_to_stick,   // the sliding velocity vanished
  slip_reversal,   // the sliding velocity changed direction through zero
  painleve,        // a Painlevé case (inconsistency or indeterminacy) at a contact
  zeno,            // an accumulation of impacts ended by the Zeno rule
  solver_failure,  // a time step's contact solve stopped above its tolerance
};

// "timestepping", "event" (the names of the scene's integrator.kind).
std::string to_string(Integrator integrator);
// "tangential_impact", "stop".
std::string to_string(PainlevePolicy policy);
// "moreau", "siconos".
std::string to_string(TimeSteppingScheme scheme);
// "newton", "linearized".
std::string to_string(NewtonLoop loop);
// "completed", "painleve", "unsupported", "event_limit", "solver_failure", "no_consistent_mode",
// "step_failure".
std::string to_string(SimulationStatus status);
// "impact", "contact", "separation", "stick_to_slip", "slip_to_stick", "slip_reversal",
// "painleve", "zeno", "solver_failure".
std::string to_string(EventKind kind);

// The settings of the Moreau–Jean time stepping (time_stepping.hpp).
struct TimeSteppingSettings {
  double dt = 1e-3;                // s, step h
  double theta = 0.5;              // θ ∈ [0, 1] of q_{k+1} = q_k + h((1−θ)v_k + θ v_{k+1})
  bool projection = true;          // post-stabilization of penetrations (and bilateral drift)
  double mode_velocity = 1e-6;     // m/s: a step's contact slips when ‖u_t⁺‖ exceeds it and
                                   // separates when r_n = 0 and u_n⁺ exceeds it
  int separation_steps = 3;        // a closed contact out of the index set for at most this many
                                   // steps that comes back is not reported separated
  StepContactSettings contacts{};  // index set margin, projection tolerance, joint feedback, NSGS
  TimeSteppingScheme scheme = TimeSteppingScheme::moreau;  // which Moreau–Jean scheme
  NewtonLoop newton = NewtonLoop::newton;  // scheme siconos: Newton's method or one iteration
  double newton_tolerance = 1e-10;         // scheme siconos: ‖R‖₂ that ends Newton's method
  int newton_max_iterations = 50;          // scheme siconos: iterations before a failure counts
};

// The settings of the event-driven integrator (event_driven.hpp).
struct EventDrivenSettings {
  double rtol = 1e-10;              // relative tolerance of the Dormand–Prince 5(4) steps
  double atol = 1e-12;              // absolute tolerance (m, m/s)
  double max_step = 1e-2;           // s, largest smooth step (so that no double root is missed)
  double contact_tolerance = 1e-9;  // m and m/s: a contact is closed when |g| and |u_n| are below
  double force_tolerance = 1e-9;    // N, slack of the mode consistency tests
  double baumgarte_alpha = 10.0;    // 1/s, acceleration-level stabilization g̈ + 2αġ + β²g = 0
  double baumgarte_beta = 10.0;     // 1/s (a constraint's own α, β > 0 take precedence)
  PainlevePolicy painleve_policy = PainlevePolicy::tangential_impact;  // at Painlevé case 3
  int max_events = 100000;  // the run ends with status event_limit beyond this
};

// Settings of simulate(): the integrator, what both integrators share, and each one's own part.
// io/scene/integrator_settings.hpp reads them from a scene's "integrator" object (one key per
// field).
struct SimulationSettings {
  Integrator integrator = Integrator::time_stepping;  // which simulator runs
  double t_end = 1.0;                                 // s, final time (start is 0)
  double record_interval = 0.0;                       // s; 0 records every step (and every event)
  double zeno_velocity = 1e-4;  // m/s: impacts slower than this are plastic (e := 0) and, in
                                // time stepping, not reported as impact events
  // Events kept in SimulationResult::events; every event is counted in event_counts, the first
  // max_logged_events are logged (a 1 s landing of 27,000 spheres has ~10⁷, ~3 GB as text).
  int max_logged_events = 1000000;
  ContactSolverSettings solver{};  // frictional-contact solver of the steps and of the impacts
  TimeSteppingSettings time_stepping{};  // used when integrator is time_stepping
  EventDrivenSettings event_driven{};    // used when integrator is event_driven
};

// One entry of events.csv.
struct SimulationEvent {
  double t = 0.0;                      // s
  EventKind kind = EventKind::impact;  // what happened
  Index contact = -1;                  // constraint index, −1 = none
  std::string detail;                  // human-readable: velocities, forces, Painlevé case …
};

// The d − 1 tangential components of a contact's record (1 planar, 2 spatial), held in the
// record itself: a column of cubes records every contact at every step, and a list on the heap for
// each, allocated, copied into the recording and freed, was 5 % of a 20-cube column's step.
using TangentComponents = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 2, 1>;

// One row of contacts.csv: one closed (or active) contact at one recorded time.
struct ContactRecord {
  double t = 0.0;         // s
  Index contact = 0;      // constraint index into contact_names
  double gap = 0.0;       // m
  double r_n = 0.0;       // normal force (event-driven, N) or impulse (time stepping, N·s)
  TangentComponents r_t;  // d−1 tangential components, same unit as r_n
  ContactMode mode = ContactMode::separate;  // separate, stick or slip
  // World point midway between the witness points (m) and unit normal of a contact between
  // shapes (ContactConstraint::point, world_normal); NaN for other constraints.
  Vector3 point = Vector3::Constant(std::numeric_limits<double>::quiet_NaN());
  // The unit normal, world axes (NaN when point is).
  Vector3 normal = Vector3::Constant(std::numeric_limits<double>::quiet_NaN());
  // The bodies of a contact between shapes (rigid world indices, −1 otherwise; not written to
  // the run's files, whose contact names hold them).
  Index body_a = -1, body_b = -1;  // the second body
};

// A simulation's trajectory, contacts, events, energies and status.
struct SimulationResult {
  std::string system;  // LagrangianSystem::name()
  Integrator integrator =
      Integrator::time_stepping;  // contact quantities are impulses (N·s)
                                  // in time stepping, forces (N) in event-driven runs
  SimulationStatus status = SimulationStatus::completed;  // how the run ended
  std::string message;  // why the run ended early, or what went wrong on the way
  int dimension = 2;    // 2 (planar) or 3 (spatial): the number of contact components
  std::vector<std::string> position_names;  // one per generalized coordinate q_i
  std::vector<std::string> velocity_names;  // one per generalized velocity v_i
  std::vector<std::string> contact_names;   // one per constraint index of the records and events

  std::vector<double> t;                   // s, recorded times
  std::vector<Vector> q;                   // positions at each recorded time
  std::vector<Vector> v;                   // velocities at each recorded time
  std::vector<double> kinetic;             // J, kinetic energy at each recorded time
  std::vector<double> potential;           // J, potential energy at each recorded time
  std::vector<ContactRecord> contacts;     // closed contacts at each recorded time
  std::vector<SimulationEvent> events;     // in time order: the first max_logged_events of the run
  std::map<EventKind, long> event_counts;  // every event of the run by kind, logged or not

  long steps = 0;                      // accepted steps
  long rejected_steps = 0;             // event-driven: rejected by the error control
  int solver_failures = 0;             // time stepping: steps whose contact solve did not converge
  double worst_solver_residual = 0.0;  // the largest residual of those steps (0 when none)
  // Time stepping: the steps' contact solves, summed: iterations (NSGS sweeps and Newton steps)
  // and work, each iteration weighted by the rows of its step (bench/README.md §Work).
  long solver_iterations = 0;         // Σ iterations of the steps' contact solves
  double solver_work = 0.0;           // Σ iterations × rows of each step
  std::vector<std::string> warnings;  // what the run did not get right on its way (energy gain)
  double energy_initial = 0.0;        // J
  double energy_final = 0.0;          // J
  double max_energy_gain = 0.0;       // J, max_t (E(t) − min_{s≤t} E(s))
  double max_penetration = 0.0;       // m, max over time and unilateral constraints of −min(g, 0)
  double wall_time = 0.0;             // s

  // The number of recorded times.
  Index records() const { return static_cast<Index>(t.size()); }
  // The number of events of this kind in the run, logged or not (0 when none).
  long event_count(EventKind kind) const;
  // The number of events of the run, logged or not (Σ event_counts).
  long event_total() const;
  Matrix q_matrix() const;  // records × position_size
  Matrix v_matrix() const;  // records × velocity_size
};

// What a ProgressCallback is told: how far the run is and the faults met so far (the progress
// line of `moreau simulate` shows the solver failures, as MuJoCo counts its warnings).
struct SimulationProgress {
  double fraction = 0.0;               // of [0, t_end] done
  long steps = 0;                      // accepted steps so far
  int solver_failures = 0;             // steps whose contact solve did not converge, so far
  double worst_solver_residual = 0.0;  // the largest residual of those steps
};
// Called at every percent of [0, t_end] and whenever a step's contact solve fails.
using ProgressCallback = std::function<void(const SimulationProgress& progress)>;
// Set (from any thread or a signal handler: lock-free) to stop a run at the end of its current
// step; the result then holds everything computed so far, the state at the stop recorded, with
// status `interrupted`.
using StopRequest = std::atomic<bool>;

// Runs the integrator named in settings from (q0, v0) at t = 0. Empty q0/v0 take the system's
// initial_q / initial_v. Throws std::invalid_argument on bad settings or state (sizes, NaN,
// unknown integrator, interpenetrating start beyond the tolerance).
SimulationResult simulate(const LagrangianSystem& system, const SimulationSettings& settings,
                          const Vector& q0 = Vector(), const Vector& v0 = Vector(),
                          const ProgressCallback& progress = {}, const StopRequest* stop = nullptr);

// The most time steps a time-stepping run may take: t_end / dt above this is refused before the
// run starts (no machine runs 10⁹ contact steps in a session; a dt of 1e-300 would otherwise end
// at t = 0 as "completed").
inline constexpr double kMaxTimeSteps = 1e9;

// Checks settings (t_end > 0, dt > 0 with t_end/dt ≤ kMaxTimeSteps for time stepping, θ ∈ [0,1],
// tolerances > 0).
void validate(const SimulationSettings& settings);

// The laws a run of `system` with `settings` must support, checked at the state s0 (simulate()
// and Simulator call it): impact laws of its contacts and materials for the integrator, and dry
// joint friction only in moreau's time-stepping scheme. Throws std::invalid_argument naming them.
void check_model_laws(const LagrangianSystem& system, const SimulationSettings& settings,
                      const ContactState& s0);

}  // namespace moreau
