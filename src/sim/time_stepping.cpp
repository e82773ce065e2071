// The one Moreau–Jean loop (sim/time_stepping.hpp); the schemes are its step policies
// (step_scheme.hpp).
#include "moreau/sim/time_stepping.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "sim_internal.hpp"
#include "step_scheme.hpp"

namespace moreau {

TimeSteppingRun::TimeSteppingRun(const LagrangianSystem& system, const SimulationSettings& settings,
                                 const Vector& q0, const Vector& v0, ProgressCallback progress,
                                 const StopRequest* stop)
    : sys_(system), st_(settings), progress_(std::move(progress)), stop_(stop), q_(q0), v_(v0) {
  res_.system = sys_.name();
  res_.integrator = Integrator::time_stepping;
  res_.position_names = sys_.recorded_position_names();
  res_.velocity_names = sys_.recorded_velocity_names();
  sys_.begin_run(q_);
  if (q_.size() == sys_.initial_q.size() && q_ == sys_.initial_q)
    res_.warnings = sys_.start_notes();  // what made the start pose valid
  scheme_ = st_.time_stepping.scheme == TimeSteppingScheme::siconos
                ? detail::make_siconos_scheme(sys_, st_, res_)
                : detail::make_moreau_scheme(sys_, st_, res_);
  scheme_->start(q_, v_);
  record();
  next_record_ = st_.record_interval;
  nsteps_ = static_cast<long>(std::ceil(st_.t_end / st_.time_stepping.dt - 1e-9));
  ended_ = nsteps_ <= 0;
}

TimeSteppingRun::~TimeSteppingRun() = default;

// The scheme forms the records whenever the run keeps states, and else as form_records() asks.
void TimeSteppingRun::record_states(bool on) {
  record_states_ = on;
  scheme_->form_records(record_states_ || form_records_);
}
void TimeSteppingRun::form_records(bool on) {
  form_records_ = on;
  scheme_->form_records(record_states_ || form_records_);
}

std::optional<RecordedState> TimeSteppingRun::take_formed_record(const Vector& q, const Vector& v) {
  return scheme_->take_recorded(q, v);
}

void TimeSteppingRun::record() {
  detail::record_state(res_, sys_, t_, q_, v_, emin_, take_formed_record(q_, v_));
}

// One step of the loop: the scheme's v_{k+1}, then q_{k+1} = q_k + h q̇(q_k, (1−θ)v_k + θv_{k+1})
// (Jean 1999; Acary & Brogliato 2008 §10.1), the checks, the scheme's events and detection, and
// the records. A NaN or an infinity, from the model (common/error.hpp NonFiniteError) or in the
// step's result, ends the run as diverged at that step.
bool TimeSteppingRun::step() {
  if (ended_) return false;
  const double theta = st_.time_stepping.theta;
  try {
    const detail::StepTimes times = scheme_->times(k_, nsteps_, t_);
    Vector v_next = scheme_->solve(q_, v_, t_, times.t_next, times.h);
    rate_ = (1.0 - theta) * v_ + theta * v_next;
    q_ += times.h * sys_.position_rate(q_, rate_);
    sys_.normalize_position(q_);
    v_.swap(v_next);
    t_ = times.t_next;
    ++res_.steps;
    require_finite(v_, "v");
    require_finite(q_, "q", true);
    scheme_->check_impulses();
    scheme_->settle(q_, v_, t_, times.h);

    // a stop request ends the run after this step, whose state is then recorded
    const bool interrupted = stop_ != nullptr && stop_->load() && k_ + 1 < nsteps_;
    const bool last = (k_ + 1 == nsteps_) || interrupted;
    if (st_.record_interval <= 0.0 || t_ >= next_record_ - 1e-12 || last) {
      if (record_states_) record();
      scheme_->record_contacts(t_);
      while (st_.record_interval > 0.0 && next_record_ <= t_ + 1e-12)
        next_record_ += st_.record_interval;
    }
    scheme_->end_step();
    ++k_;
    detail::report_progress(progress_, res_, t_, st_.t_end, last_percent_, reported_failures_);
    if (interrupted) {
      res_.status = SimulationStatus::interrupted;
      res_.message = fmt::format("interrupted at t = {} s", t_);
    }
    ended_ = last;
  } catch (const NonFiniteError& e) {
    res_.status = SimulationStatus::diverged;
    res_.message = detail::diverged_message(sys_, t_, e);
    ended_ = true;
  }
  return true;
}

SimulationResult TimeSteppingRun::finish() {
  ended_ = true;
  scheme_->finish();
  std::stable_sort(res_.events.begin(), res_.events.end(),
                   [](const SimulationEvent& x, const SimulationEvent& y) { return x.t < y.t; });
  if (res_.solver_failures > 0 && res_.status == SimulationStatus::completed)
    res_.message = fmt::format("{} of {} steps ended without reaching the solver tolerance{}",
                               res_.solver_failures, res_.steps, scheme_->failure_note());
  return std::move(res_);
}

SimulationResult TimeSteppingRun::take_records() {
  SimulationResult out;
  take_records(out);
  return out;
}

void TimeSteppingRun::take_records(SimulationResult& into) {
  scheme_->finish();  // result().contact_names: every name so far (not copied out)
  auto take = [](auto& to, auto& from) {
    to.clear();
    to.swap(from);
  };
  take(into.t, res_.t);
  take(into.q, res_.q);
  take(into.v, res_.v);
  take(into.kinetic, res_.kinetic);
  take(into.potential, res_.potential);
  take(into.contacts, res_.contacts);
  take(into.events, res_.events);
  into.contact_names.clear();
}

SimulationResult simulate_time_stepping(const LagrangianSystem& sys, const SimulationSettings& st,
                                        const Vector& q0, const Vector& v0,
                                        const ProgressCallback& progress, const StopRequest* stop) {
  TimeSteppingRun run(sys, st, q0, v0, progress, stop);
  while (run.step()) {
  }
  return run.finish();
}

}  // namespace moreau
