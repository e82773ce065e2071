#include "moreau/sim/time_stepping.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "sim_internal.hpp"

namespace moreau {
namespace {

// Detection at q, then post-stabilization (model/step_contacts.hpp): while the violation exceeds
// the tolerance, at most four projections q ← q + q̇(q, Δv), each followed by a new detection.
// Returns the penetration left; the last detection is the one the next step uses.
double detect_and_project(const LagrangianSystem& sys, StepContacts& layer, Vector& q,
                          const Vector& v, double t, const SimulationSettings& st) {
  double penetration = 0.0;
  for (int outer = 0;; ++outer) {
    const double worst = layer.detect(q, v, t, penetration);
    if (!st.time_stepping.projection || worst <= st.time_stepping.contacts.projection_tolerance ||
        outer == 4)
      return penetration;
    q += sys.position_rate(q, layer.projection(q));
    sys.normalize_position(q);
  }
}

// Throws NonFiniteError for the first NaN or infinite entry of a step: v⁺ and q (the run's catch
// names the coordinate, detail::diverged_message), then the impulses, named by their contact.
void require_finite_step(const StepContacts& layer, const std::vector<StepContact>& active,
                         const StepSolution& sol, const Vector& q, const Vector& v) {
  require_finite(v, "v");
  require_finite(q, "q", true);
  for (Index i = 0; i < sol.r.size(); ++i)
    if (!std::isfinite(sol.r[i])) {
      const Index id = active.at(i / layer.dimension()).id;
      const auto& names = layer.names();
      throw NonFiniteError(fmt::format(
          "impulse of contact '{}' = {}",
          id >= 0 && id < static_cast<Index>(names.size()) ? names[id] : "?", sol.r[i]));
    }
}

// Newton restitution w_n = e min(u_n⁻, 0) (plastic below the Zeno velocity), softening c = γ/h
// (ġ + γλ with λ = r/h), and the warm start of the contacts the layer matched.
void step_data(StepContacts& layer, const std::vector<StepContact>& active, double h,
               const SimulationSettings& st, Vector& w, Vector& compliance, Vector& guess) {
  const int d = layer.dimension();
  const Index nc = static_cast<Index>(active.size());
  w = Vector::Zero(d * nc);
  compliance.resize(nc);
  guess = layer.warm() ? Vector(Vector::Zero(d * nc)) : Vector();
  for (Index a = 0; a < nc; ++a) {
    const StepContact& c = active[a];
    if (c.un_minus < -st.zeno_velocity) w[d * a] = c.restitution * std::min(c.un_minus, 0.0);
    compliance[a] = c.gamma / h;
    if (layer.warm()) guess.segment(d * a, d) = layer.current()[a].r.head(d);
  }
}

// Impulses, modes and events of the step's contacts, by contact identity: impacts, separations,
// stick/slip changes (sim_internal.hpp), from u⁺ = Hᵀv⁺ without the restitution and softening
// terms.
void contact_events(SimulationResult& res, StepContacts& layer,
                    const std::vector<StepContact>& active, const StepSolution& sol,
                    const Vector& w, const Vector& compliance, double t,
                    const SimulationSettings& st) {
  const int d = layer.dimension();
  const Index nc = static_cast<Index>(active.size());
  double rn_max = 0.0;
  for (Index a = 0; a < nc; ++a) rn_max = std::max(rn_max, sol.r[d * a]);
  for (Index a = 0; a < nc; ++a) {
    const StepContact& c = active[a];
    ContactHistory& cur = layer.current()[a];
    cur.r.setZero();
    cur.r.head(d) = sol.r.segment(d * a, d);
    Vector3 u_plus = Vector3::Zero();
    u_plus.head(d) = sol.u.segment(d * a, d);
    u_plus[0] -= w[d * a] + compliance[a] * cur.r[0];
    const bool matched = c.previous >= 0;
    const ContactMode pm = matched ? layer.history()[c.previous].mode : ContactMode::separate;
    cur.mode =
        detail::contact_mode(d, cur.r.data(), u_plus.data(), rn_max, st.time_stepping.mode_velocity,
                             matched ? std::optional<ContactMode>(pm) : std::nullopt);
    detail::push_step_event(res, st, t, c.id, pm, cur.mode, c.un_minus, u_plus[0], cur.r[0], c.mu,
                            c.restitution);
  }
}

// Closed contacts that left the index set stay as ghosts for separation_steps steps: one that
// comes back in time continues (no separation, no impact); else its separation is reported at
// the time it left. (Moreau–Jean's index set flickers for a contact held by a force whose gap
// grows at second order over a step, e.g. a rotating rod's end.) Returns the ghosts' entries.
std::vector<Index> ghosts(SimulationResult& res, StepContacts& layer, double t, double h,
                          const SimulationSettings& st) {
  std::vector<Index> kept;
  std::vector<ContactHistory>& history = layer.history();
  for (size_t i = 0; i < history.size(); ++i) {
    ContactHistory& g = history[i];
    if (layer.continued(i) || g.mode == ContactMode::separate) continue;
    if (g.steps_out == 0) g.left_t = t - h;
    if (++g.steps_out <= st.time_stepping.separation_steps)
      kept.push_back(static_cast<Index>(i));
    else
      detail::log_event(res, st, g.left_t, EventKind::separation, g.id,
                        [] { return "left the index set"; });
  }
  return kept;
}

void record_contacts(SimulationResult& res, StepContacts& layer,
                     const std::vector<StepContact>& active, double t) {
  const int d = layer.dimension();
  for (size_t a = 0; a < active.size(); ++a) {
    const ContactHistory& cur = layer.current()[a];
    ContactRecord rec;
    rec.t = t;
    rec.contact = cur.id;
    rec.gap = layer.gap_after(static_cast<Index>(a));  // after the step (and projection)
    rec.r_n = cur.r[0];
    rec.r_t = cur.r.segment(1, d - 1);
    rec.mode = cur.mode;
    res.contacts.push_back(std::move(rec));
  }
}

}  // namespace

SimulationResult simulate_time_stepping(const LagrangianSystem& sys, const SimulationSettings& st,
                                        const Vector& q0, const Vector& v0,
                                        const ProgressCallback& progress, const StopRequest* stop) {
  const TimeSteppingSettings& ts = st.time_stepping;
  const std::unique_ptr<StepContacts> layer = sys.step_contacts(ts.contacts, st.solver);
  SimulationResult res;
  res.system = sys.name();
  res.integrator = Integrator::time_stepping;
  res.position_names = sys.position_names();
  res.velocity_names = sys.velocity_names();
  Vector q = q0, v = v0;
  double t = 0.0;
  res.max_penetration = detect_and_project(sys, *layer, q, v, t, st);
  res.dimension = layer->dimension();
  layer->name_detected();

  double emin = 0.0;
  detail::record_state(res, sys, t, q, v, emin);
  double next_record = st.record_interval;
  const long nsteps = static_cast<long>(std::ceil(st.t_end / ts.dt - 1e-9));
  int last_percent = -1;
  int reported_failures = 0;
  Vector w, compliance, guess;
  // A NaN or an infinity during the run, from the model (common/error.hpp NonFiniteError) or in
  // a step's result (require_finite_step), ends it as diverged at that step.
  try {
    for (long k = 0; k < nsteps; ++k) {
      const double hk = std::min(ts.dt, st.t_end - t);
      const std::vector<StepContact>& active = layer->build(q, v, t, hk);
      step_data(*layer, active, hk, st, w, compliance, guess);
      const StepSolution sol = layer->solve(w, compliance, guess);
      detail::count_failure(res, sol, t, st);

      q += hk * sys.position_rate(q, (1.0 - ts.theta) * v + ts.theta * sol.v);
      sys.normalize_position(q);
      v = sol.v;
      t = (k + 1 == nsteps) ? st.t_end : t + hk;
      ++res.steps;
      require_finite_step(*layer, active, sol, q, v);

      contact_events(res, *layer, active, sol, w, compliance, t, st);
      const std::vector<Index> kept = ghosts(res, *layer, t, hk, st);
      // contacts at the new q (projected): the next step's, and the penetration left
      res.max_penetration =
          std::max(res.max_penetration, detect_and_project(sys, *layer, q, v, t, st));

      // a stop request ends the run after this step, whose state is then recorded
      const bool interrupted = stop != nullptr && stop->load() && k + 1 < nsteps;
      const bool last = (k + 1 == nsteps) || interrupted;
      if (st.record_interval <= 0.0 || t >= next_record - 1e-12 || last) {
        detail::record_state(res, sys, t, q, v, emin);
        record_contacts(res, *layer, active, t);
        while (st.record_interval > 0.0 && next_record <= t + 1e-12)
          next_record += st.record_interval;
      }
      layer->advance(kept);
      detail::report_progress(progress, res, t, st.t_end, last_percent, reported_failures);
      if (interrupted) {
        res.status = SimulationStatus::interrupted;
        res.message = fmt::format("interrupted at t = {} s", t);
        break;
      }
    }
  } catch (const NonFiniteError& e) {
    res.status = SimulationStatus::diverged;
    res.message = detail::diverged_message(res, t, e);
  }
  res.contact_names = layer->names();
  std::stable_sort(res.events.begin(), res.events.end(),
                   [](const SimulationEvent& x, const SimulationEvent& y) { return x.t < y.t; });
  if (res.solver_failures > 0)
    res.message = fmt::format("{} of {} steps ended without reaching the solver tolerance",
                              res.solver_failures, res.steps);
  return res;
}

}  // namespace moreau
