#pragma once
// The step policy of the one Moreau–Jean loop (sim/time_stepping.hpp, TimeSteppingRun): what a
// scheme decides inside a step, while the loop owns what every scheme shares (the clock of steps,
// q_{k+1} = q_k + h q̇(q_k, (1−θ) v_k + θ v_{k+1}), the finiteness checks, the state records and
// energies, progress, interruption, divergence and the run's message). Two policies, chosen by
// TimeSteppingSettings::scheme (not public API):
//   - moreau's (scheme_moreau.cpp; sim/time_stepping.hpp): the system's contact layer
//     (model/step_contacts.hpp), explicit forces, Newton restitution of u_n⁻, debounced
//     separations, post-stabilization; t_{k+1} = t_k + h; records the step's active contacts;
//   - Siconos' MoreauJeanOSI (scheme_siconos.cpp; sim/moreau_jean_osi.hpp): the θ-method on the
//     forces in a Newton loop, the index set fixed at the step's start, no projection;
//     t_k = k·h; records every unilateral relation at every recorded step (0 when inactive).
#include <memory>
#include <optional>
#include <string>

#include "moreau/sim/simulation.hpp"

namespace moreau::detail {

// The end of step k: its time t_{k+1} and its length h = the step's dt.
struct StepTimes {
  double t_next = 0.0;  // s
  double h = 0.0;       // s
};

// One scheme's part of a time step. The loop calls, in this order: start once; then per step
// times, solve, (the loop moves q and v and checks them) check_impulses, settle, record_contacts
// when the step is recorded, end_step; finish once. Every call may throw NonFiniteError, which
// ends the run as diverged.
class StepScheme {
 public:
  explicit StepScheme(SimulationResult& result) : res_(result) {}
  virtual ~StepScheme() = default;
  StepScheme(const StepScheme&) = delete;
  StepScheme& operator=(const StepScheme&) = delete;

  // The contacts at the initial state (which a projection may move): fills the result's
  // dimension, contact names so far and max_penetration.
  virtual void start(Vector& q, const Vector& v) = 0;
  // Time and length of step k (0-based) of n that starts at t.
  virtual StepTimes times(long k, long n, double t) const = 0;
  // v_{k+1} of the step from (q_k, v_k) at t_k = t, of length h, ending at t_next; a contact
  // solve that failed is counted in the result (detail::count_failure).
  virtual Vector solve(const Vector& q, const Vector& v, double t, double t_next, double h) = 0;
  // Throws NonFiniteError naming the contact of the step's first impulse that is not finite.
  virtual void check_impulses() const = 0;
  // After the loop moved the state to (q, v) at t: the step's contact events, the contacts at
  // the new state (the next step's) and the penetration; may project q.
  virtual void settle(Vector& q, const Vector& v, double t, double h) = 0;
  // Appends the contact records of the step that ended at t.
  virtual void record_contacts(double t) = 0;
  // After the step's records: hands what the next step needs over to it.
  virtual void end_step() {}
  // The run is over: the contact names of the result.
  virtual void finish() {}
  // What the run records at (q, v) when the scheme's last detection formed it there (the loop
  // records the state settle detected at), handed over once; else nothing: the loop asks the
  // system.
  virtual std::optional<RecordedState> take_recorded(const Vector& /*q*/, const Vector& /*v*/) {
    return std::nullopt;
  }
  // Whether the scheme's detection forms those records (StepContacts::form_records).
  virtual void form_records(bool /*on*/) {}
  // Appended to the run's "K of N steps ended without reaching the solver tolerance".
  virtual std::string failure_note() const { return ""; }

 protected:
  SimulationResult& res_;  // the run's result, owned by the loop
};

// moreau's scheme (scheme_moreau.cpp) and Siconos' (scheme_siconos.cpp) on system with settings,
// filling result. system and settings must outlive the scheme.
std::unique_ptr<StepScheme> make_moreau_scheme(const LagrangianSystem& system,
                                               const SimulationSettings& settings,
                                               SimulationResult& result);
std::unique_ptr<StepScheme> make_siconos_scheme(const LagrangianSystem& system,
                                                const SimulationSettings& settings,
                                                SimulationResult& result);

}  // namespace moreau::detail
