#pragma once
// Helpers shared by the two integrators (not public API).
#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau::detail {

// "diverged at t = T s: WHAT (coordinate 'NAME')" for a NonFiniteError of a run: the entry named
// by the system's position or velocity names (the state's, which the recorded ones may extend).
inline std::string diverged_message(const LagrangianSystem& sys, double t,
                                    const NonFiniteError& e) {
  const auto names = e.position ? sys.position_names() : sys.velocity_names();
  const bool named = e.entry >= 0 && e.entry < static_cast<Index>(names.size());
  return fmt::format("diverged at t = {} s: {}{}", t, e.what(),
                     named ? fmt::format(" (coordinate '{}')", names[e.entry]) : "");
}

// The energy summary after a record of energy E (the first record's is E₀): the final energy and
// the largest gain max_t (E(t) − min_{s≤t} E(s)).
inline void note_energy(SimulationResult& res, double E, double& running_min_energy) {
  if (res.t.size() == 1) {
    res.energy_initial = E;
    running_min_energy = E;
  }
  running_min_energy = std::min(running_min_energy, E);
  res.max_energy_gain = std::max(res.max_energy_gain, E - running_min_energy);
  res.energy_final = E;
}

// Appends (t, q, v, T, V) to the trajectory and updates the energy and penetration summary;
// `formed`: the record of (q, v) already formed (StepScheme::take_recorded), else the system's.
inline void record_state(SimulationResult& res, const LagrangianSystem& sys, double t,
                         const Vector& q, const Vector& v, double& running_min_energy,
                         std::optional<RecordedState> formed = std::nullopt) {
  RecordedState r = formed ? std::move(*formed) : sys.recorded_state(q, v);
  const double T = r.kinetic, V = r.potential;
  // finite q and v can still overflow T = ½vᵀMv: the run then diverged (the record not kept)
  if (!std::isfinite(T) || !std::isfinite(V))
    throw NonFiniteError(fmt::format("energy: kinetic T = {}, potential V = {}", T, V));
  res.t.push_back(t);
  res.q.push_back(std::move(r.q));
  res.v.push_back(std::move(r.v));
  res.kinetic.push_back(T);
  res.potential.push_back(V);
  note_energy(res, T + V, running_min_energy);
}

inline void start_result(SimulationResult& res, const LagrangianSystem& sys, Integrator integrator,
                         const ContactState& s0) {
  res.system = sys.name();
  res.integrator = integrator;
  res.dimension = s0.dimension;
  res.position_names = sys.recorded_position_names();
  res.velocity_names = sys.recorded_velocity_names();
  for (const auto& c : s0.constraints) res.contact_names.push_back(c.name);
}

// Mode of a contact after a time step, from its impulse r and its local velocity u⁺ = Hᵀv⁺
// (d entries each, normal first, restitution term excluded):
//   r_n above 1e-9 of the step's largest normal impulse: slip when ‖u_t⁺‖ > v_tol, else stick;
//   r_n ≈ 0 (solver round-off): separate when u_n⁺ > v_tol (separating) or when the contact is
//   new; otherwise the contact grazes and keeps its previous mode, so that a resting contact
//   whose impulse vanishes does not flicker.
inline ContactMode contact_mode(int d, const double* r, const double* u, double rn_max,
                                double v_tol, std::optional<ContactMode> previous) {
  if (r[0] <= 1e-9 * rn_max || r[0] <= 1e-300)
    return (u[0] > v_tol || !previous) ? ContactMode::separate : *previous;
  const double ut = d == 2 ? std::abs(u[1]) : std::sqrt(u[1] * u[1] + u[2] * u[2]);
  return ut > v_tol ? ContactMode::slip : ContactMode::stick;
}

// An event of the run: counted in res.event_counts, and logged in res.events (its text formatted
// by detail()) while the log holds fewer than st.max_logged_events.
template <class Detail>
void log_event(SimulationResult& res, const SimulationSettings& st, double t, EventKind kind,
               Index contact, Detail&& detail) {
  ++res.event_counts[kind];
  if (res.events.size() < static_cast<size_t>(std::max(0, st.max_logged_events)))
    res.events.push_back({t, kind, contact, std::string(detail())});
}

// The event of one contact between two time steps, from its mode before (pm) and after (m):
// impact when it was open and closes approaching faster than zeno_velocity (u_n⁻ < −zeno),
// stick_to_slip, slip_to_stick, and separation when it opens.
inline void push_step_event(SimulationResult& res, const SimulationSettings& st, double t, Index id,
                            ContactMode pm, ContactMode m, double un_minus, double un_plus,
                            double r_n, double mu, double e) {
  using M = ContactMode;
  if (pm == M::separate && m != M::separate && un_minus < -st.zeno_velocity)
    log_event(res, st, t, EventKind::impact, id, [&] {
      return fmt::format("u_n- = {:.6g} m/s, u_n+ = {:.6g} m/s, e = {}", un_minus, un_plus, e);
    });
  else if (pm == M::stick && m == M::slip)
    log_event(res, st, t, EventKind::stick_to_slip, id,
              [&] { return fmt::format("|r_t| = mu r_n = {:.6g} N·s", r_n * mu); });
  else if (pm == M::slip && m == M::stick)
    log_event(res, st, t, EventKind::slip_to_stick, id, [] { return "sliding velocity vanished"; });
  else if (pm != M::separate && m == M::separate)
    log_event(res, st, t, EventKind::separation, id,
              [] { return "r_n reached 0 and the contact separates"; });
}

// A time step's contact solve that stopped above 10³ × its tolerance: counted, and the first 20
// reported as solver_failure events.
inline void count_failure(SimulationResult& res, const FrictionContactResult& sol, double t,
                          const SimulationSettings& st) {
  if (sol.converged() || !(sol.residual > 1e3 * st.solver.tolerance)) return;
  ++res.solver_failures;
  res.worst_solver_residual = std::max(res.worst_solver_residual, sol.residual);
  if (res.solver_failures <= 20)
    log_event(res, st, t, EventKind::solver_failure, -1, [&] {
      return fmt::format("{} stopped with status {} at residual {:.3e}", sol.solver,
                         to_string(sol.status), sol.residual);
    });
}

// A time step's contact solve: its iterations and its work, iterations × the rows of the step
// (bench/README.md §Work), added to the run's; a failure counted (count_failure).
inline void count_solve(SimulationResult& res, const FrictionContactResult& sol, double t,
                        const SimulationSettings& st) {
  res.solver_iterations += sol.iterations;
  res.solver_work += static_cast<double>(sol.iterations) * static_cast<double>(sol.r.size());
  count_failure(res, sol, t, st);
}

// The progress of a time-stepping run at t: reported at each new percent of [0, t_end] and at each
// new solver failure (last_percent and reported_failures carry what was reported last).
inline void report_progress(const ProgressCallback& progress, const SimulationResult& res, double t,
                            double t_end, int& last_percent, int& reported_failures) {
  if (!progress) return;
  const int pc = static_cast<int>(100.0 * t / t_end);
  if (pc == last_percent && res.solver_failures == reported_failures) return;
  last_percent = pc;
  reported_failures = res.solver_failures;
  progress({t / t_end, res.steps, res.solver_failures, res.worst_solver_residual});
}

}  // namespace moreau::detail
