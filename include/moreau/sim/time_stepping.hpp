#pragma once
// Moreau–Jean time stepping, θ-method (Jean 1999; Acary & Brogliato 2008 §10.1), one loop for
// every LagrangianSystem and both schemes (TimeSteppingSettings::scheme):
//   M(q_k)(v_{k+1} − v_k) = −h F(q_k, v_k, t_k) + H r_{k+1}
//   q_{k+1} = q_k + h·q̇((1−θ) v_k + θ v_{k+1})
//   for every constraint of the index set I_k = {i : g_i(q_k) + ½h u_n,i(v_k) ≤ margin}:
//     u_{k+1} = Hᵀ v_{k+1} + w,  w_n,i = e_i min(u_n,i(v_k), 0)  (Newton restitution),
//     K_μ ∋ r ⊥ û ∈ K*_μ (exact Coulomb cone), bilateral rows u_b = −κ h_b/h with free p.
// That is moreau's scheme (TimeSteppingScheme::moreau). Departures: F is explicit (θ = 0 on
// forces: gravity and gyroscopic terms); penetrations left by the step are removed by a
// post-stabilization projection (min ½ΔvᵀMΔv s.t. g + J Δv ≥ 0). The step's problem comes from
// the system's contact layer (model/step_contacts.hpp): dense W, its bilateral rows
// Schur-eliminated (model/velocity_level.hpp), for a generic system; body blocks and body-block
// NSGS, W never formed, for a rigid world (contact/rigid_world_system.hpp, docs/simulation.md
// §"Rigid worlds"). Contacts are detected once per step: the detection that ends a step (and
// checks the projection) is the one the next step uses.
// Siconos' scheme (TimeSteppingScheme::siconos, sim/moreau_jean_osi.hpp) is the other step
// policy of the same loop: θ on the forces in a Newton loop, t_k = k·h, and every unilateral
// relation recorded at every recorded step.
#include <memory>
#include <optional>

#include "moreau/sim/simulation.hpp"

namespace moreau {

namespace detail {
class StepScheme;
}

// One time-stepping run, driven a step at a time: the loop of simulate_time_stepping, for
// programs that act between steps. The system must outlive the run; the settings are copied and
// must be valid (validate()); (q0, v0) must have the system's sizes. The scheme's contacts at
// the initial state are detected (and projected) on construction, and that state recorded.
class TimeSteppingRun {
 public:
  // progress is told as simulate() tells it; a stop request ends the run after the step in
  // which it is seen, whose state is then recorded (status interrupted).
  TimeSteppingRun(const LagrangianSystem& system, const SimulationSettings& settings,
                  const Vector& q0, const Vector& v0, ProgressCallback progress = {},
                  const StopRequest* stop = nullptr);
  ~TimeSteppingRun();
  TimeSteppingRun(const TimeSteppingRun&) = delete;
  TimeSteppingRun& operator=(const TimeSteppingRun&) = delete;

  // Takes the next step (recording it when the record interval says so); false, without a step,
  // once the run has ended: t_end reached, diverged (a NaN or an infinity) or interrupted.
  bool step();
  // True once the run has ended (step() would take no step).
  bool ended() const { return ended_; }
  // The time of the state, s.
  double t() const { return t_; }
  // The positions at t.
  const Vector& q() const { return q_; }
  // The velocities at t.
  const Vector& v() const { return v_; }
  // The number of steps from 0 to t_end.
  long steps_total() const { return nsteps_; }
  // The result so far (records, events in the order found, counts).
  const SimulationResult& result() const { return res_; }
  // Ends the run and hands over its result: contact names, events in time order, the message.
  SimulationResult finish();
  // The record of (q, v) (what LagrangianSystem::recorded_state gives) when the scheme's last
  // detection was at (q, v) and formed it with its contact state, handed over (moved out: a
  // second call finds none until the next step); else nothing.
  std::optional<RecordedState> take_formed_record(const Vector& q, const Vector& v);
  // Whether a recorded step keeps its state (t, q, v, energies) beside its contact records
  // (default true); a driver that records states itself turns it off (the Simulator).
  void record_states(bool on);
  // Whether a step's detection forms the record of the state it ends at when the run keeps no
  // states (record_states(false)), for take_formed_record (default true). The Simulator turns it
  // off while it is not recording: a robot's step then skips its world poses and energies (the
  // arm of bench_multibody: 25.4k → 22.8k instructions a step); the states are the same.
  void form_records(bool on);
  // Hands over what was recorded since the last call (times, states, energies, contact records,
  // logged events), and goes on: for a caller that keeps some records and drops the others (the
  // Simulator's recorder). The records' contact indices name result().contact_names, brought up
  // to date; counts and summaries stay in result().
  SimulationResult take_records();
  // The same into `into`: its times, states, energies, contact records and events replaced, its
  // contact names cleared (the records' indices name result()'s), its other fields kept; the
  // lists it held go back to the run emptied, so that a caller taking the records at every step
  // (the Simulator) reuses their storage instead of allocating it again.
  void take_records(SimulationResult& into);

 private:
  void record();  // the state at t_ and the running energy summary

  const LagrangianSystem& sys_;
  const SimulationSettings st_;
  const ProgressCallback progress_;
  const StopRequest* const stop_;
  SimulationResult res_;
  std::unique_ptr<detail::StepScheme> scheme_;
  Vector q_, v_;
  double t_ = 0.0;
  long k_ = 0, nsteps_ = 0;
  double next_record_ = 0.0;  // s, the next recorded time (record_interval > 0)
  double emin_ = 0.0;         // J, the smallest energy recorded so far
  Vector rate_;               // a step's (1 − θ) v_k + θ v_{k+1}, kept between steps
  int last_percent_ = -1, reported_failures_ = 0;
  bool ended_ = false;
  bool record_states_ = true;  // record_states()
  bool form_records_ = true;   // form_records()
};

// Runs the run above from (q0, v0) at t = 0 to t_end, in the scheme the settings name.
SimulationResult simulate_time_stepping(const LagrangianSystem& system,
                                        const SimulationSettings& settings, const Vector& q0,
                                        const Vector& v0, const ProgressCallback& progress,
                                        const StopRequest* stop = nullptr);

}  // namespace moreau
