#include "moreau/sim/simulation.hpp"

#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/common/timer.hpp"
#include "moreau/sim/event_driven.hpp"
#include "moreau/sim/impact_law.hpp"
#include "moreau/sim/time_stepping.hpp"

namespace moreau {

long SimulationResult::event_count(EventKind kind) const {
  const auto it = event_counts.find(kind);
  return it == event_counts.end() ? 0 : it->second;
}

long SimulationResult::event_total() const {
  long n = 0;
  for (const auto& [kind, count] : event_counts) n += count;
  return n;
}

Matrix SimulationResult::q_matrix() const {
  const Index n = q.empty() ? 0 : q.front().size();
  Matrix Q(records(), n);
  for (Index k = 0; k < records(); ++k) Q.row(k) = q[k].transpose();
  return Q;
}

Matrix SimulationResult::v_matrix() const {
  const Index n = v.empty() ? 0 : v.front().size();
  Matrix V(records(), n);
  for (Index k = 0; k < records(); ++k) V.row(k) = v[k].transpose();
  return V;
}

std::string to_string(Integrator integrator) {
  return integrator == Integrator::event_driven ? "event" : "timestepping";
}

std::string to_string(PainlevePolicy policy) {
  return policy == PainlevePolicy::stop ? "stop" : "tangential_impact";
}

std::string to_string(TimeSteppingScheme scheme) {
  return scheme == TimeSteppingScheme::siconos ? "siconos" : "moreau";
}

std::string to_string(NewtonLoop loop) {
  return loop == NewtonLoop::linearized ? "linearized" : "newton";
}

std::string to_string(SimulationStatus status) {
  switch (status) {
    case SimulationStatus::completed:
      return "completed";
    case SimulationStatus::painleve:
      return "painleve";
    case SimulationStatus::unsupported:
      return "unsupported";
    case SimulationStatus::event_limit:
      return "event_limit";
    case SimulationStatus::solver_failure:
      return "solver_failure";
    case SimulationStatus::no_consistent_mode:
      return "no_consistent_mode";
    case SimulationStatus::step_failure:
      return "step_failure";
    case SimulationStatus::interrupted:
      return "interrupted";
    case SimulationStatus::diverged:
      return "diverged";
  }
  return "unknown";
}

std::string to_string(EventKind kind) {
  switch (kind) {
    case EventKind::impact:
      return "impact";
    case EventKind::contact:
      return "contact";
    case EventKind::separation:
      return "separation";
    case EventKind::stick_to_slip:
      return "stick_to_slip";
    case EventKind::slip_to_stick:
      return "slip_to_stick";
    case EventKind::slip_reversal:
      return "slip_reversal";
    case EventKind::painleve:
      return "painleve";
    case EventKind::zeno:
      return "zeno";
    case EventKind::solver_failure:
      return "solver_failure";
  }
  return "unknown";
}

void validate(const SimulationSettings& s) {
  const TimeSteppingSettings& ts = s.time_stepping;
  const EventDrivenSettings& ed = s.event_driven;
  MOREAU_REQUIRE(std::isfinite(s.t_end) && s.t_end > 0.0, "simulation: t_end = {} s must be > 0",
                 s.t_end);
  MOREAU_REQUIRE(s.record_interval >= 0.0, "simulation: record_interval = {} s must be ≥ 0",
                 s.record_interval);
  MOREAU_REQUIRE(s.zeno_velocity >= 0.0, "simulation: zeno_velocity = {} m/s must be ≥ 0",
                 s.zeno_velocity);
  MOREAU_REQUIRE(s.solver.tolerance > 0.0 && s.solver.max_iterations > 0,
                 "simulation: solver tolerance {} and iterations {} must be > 0",
                 s.solver.tolerance, s.solver.max_iterations);
  MOREAU_REQUIRE(std::isfinite(ts.dt) && ts.dt > 0.0, "simulation: dt = {} s must be > 0", ts.dt);
  MOREAU_REQUIRE(s.integrator != Integrator::time_stepping || s.t_end / ts.dt <= kMaxTimeSteps,
                 "simulation: t_end / dt = {} / {} = {:.3g} steps exceed the limit of {:.0e}; take "
                 "a larger dt or a shorter t_end",
                 s.t_end, ts.dt, s.t_end / ts.dt, kMaxTimeSteps);
  MOREAU_REQUIRE(ts.theta >= 0.0 && ts.theta <= 1.0, "simulation: theta = {} must lie in [0, 1]",
                 ts.theta);
  MOREAU_REQUIRE(ts.contacts.nsgs_relaxation > 0.0 && ts.contacts.nsgs_relaxation < 2.0,
                 "simulation: nsgs_relaxation = {} must lie in (0, 2)",
                 ts.contacts.nsgs_relaxation);
  MOREAU_REQUIRE(ts.separation_steps >= 0, "simulation: separation_steps = {} must be ≥ 0",
                 ts.separation_steps);
  MOREAU_REQUIRE(ts.mode_velocity > 0.0, "simulation: mode_velocity = {} m/s must be > 0",
                 ts.mode_velocity);
  MOREAU_REQUIRE(ts.contacts.projection_tolerance > 0.0,
                 "simulation: projection_tolerance = {} m must be > 0",
                 ts.contacts.projection_tolerance);
  MOREAU_REQUIRE(ts.contacts.activation_margin >= 0.0,
                 "simulation: activation_margin = {} m must be ≥ 0", ts.contacts.activation_margin);
  MOREAU_REQUIRE(ts.contacts.activation_factor >= 0.0,
                 "simulation: activation_factor = {} must be ≥ 0", ts.contacts.activation_factor);
  MOREAU_REQUIRE(ts.newton_tolerance > 0.0, "simulation: newton_tolerance = {} must be > 0",
                 ts.newton_tolerance);
  MOREAU_REQUIRE(ts.newton_max_iterations >= 1,
                 "simulation: newton_max_iterations = {} must be ≥ 1", ts.newton_max_iterations);
  MOREAU_REQUIRE(ts.contacts.bilateral_feedback >= 0.0,
                 "simulation: bilateral_feedback = {} must be ≥ 0", ts.contacts.bilateral_feedback);
  MOREAU_REQUIRE(ed.rtol > 0.0 && ed.atol > 0.0, "simulation: rtol = {} and atol = {} must be > 0",
                 ed.rtol, ed.atol);
  MOREAU_REQUIRE(ed.max_step > 0.0, "simulation: max_step = {} s must be > 0", ed.max_step);
  MOREAU_REQUIRE(ed.contact_tolerance > 0.0 && ed.force_tolerance > 0.0,
                 "simulation: contact_tolerance = {} and force_tolerance = {} must be > 0",
                 ed.contact_tolerance, ed.force_tolerance);
  MOREAU_REQUIRE(ed.baumgarte_alpha >= 0.0 && ed.baumgarte_beta >= 0.0,
                 "simulation: Baumgarte α = {} and β = {} must be ≥ 0", ed.baumgarte_alpha,
                 ed.baumgarte_beta);
  MOREAU_REQUIRE(ed.max_events > 0, "simulation: max_events = {} must be > 0", ed.max_events);
  MOREAU_REQUIRE(s.max_logged_events >= 0, "simulation: max_logged_events = {} must be ≥ 0",
                 s.max_logged_events);
}

void check_model_laws(const LagrangianSystem& system, const SimulationSettings& settings,
                      const ContactState& s0) {
  // impact laws: of the contacts present now, and of every material of a rigid world (contacts
  // that appear later carry one of these)
  check_impact_laws(s0, settings.integrator);
  for (const ImpactLaw law : system.contact_laws())
    check_impact_law(law, settings.integrator, "a contact material");
  // dry joint friction is a law of the dense Moreau–Jean step (model/dry_friction_step.hpp)
  const std::vector<DryFriction> friction = system.dry_friction();
  MOREAU_REQUIRE(friction.empty() || (settings.integrator == Integrator::time_stepping &&
                                      settings.time_stepping.scheme == TimeSteppingScheme::moreau),
                 "simulation: joint '{}' has frictionloss {}, which only moreau's time-stepping "
                 "scheme simulates (use integrator timestepping with scheme moreau, or set "
                 "frictionloss to 0)",
                 friction.empty() ? "" : friction[0].name,
                 friction.empty() ? 0.0 : friction[0].bound);
}

SimulationResult simulate(const LagrangianSystem& system, const SimulationSettings& settings,
                          const Vector& q0_in, const Vector& v0_in,
                          const ProgressCallback& progress, const StopRequest* stop) {
  validate(settings);
  const Vector q0 = q0_in.size() > 0 ? q0_in : system.initial_q;
  const Vector v0 = v0_in.size() > 0 ? v0_in : system.initial_v;
  MOREAU_REQUIRE(q0.size() == system.position_size(),
                 "simulation: initial q has {} entries, the system '{}' has {} coordinates",
                 q0.size(), system.name(), system.position_size());
  MOREAU_REQUIRE(v0.size() == system.velocity_size(),
                 "simulation: initial v has {} entries, the system '{}' has {} velocities",
                 v0.size(), system.name(), system.velocity_size());
  MOREAU_REQUIRE(all_finite(q0) && all_finite(v0),
                 "simulation: the initial state has a NaN or infinite entry");
  MOREAU_REQUIRE(system.velocity_size() > 0,
                 "simulation: the system '{}' has no degree of freedom (v is empty)",
                 system.name());
  const ContactState s0 = system.constraint_summary(q0, v0, 0.0);
  // ContactState::validate requires q and v of one size, which spatial bodies (quaternions) break,
  // and the dense parts, which a summary may leave out.
  if (s0.q.size() == s0.v.size() && s0.M.size() > 0) s0.validate();
  // a contact has d − 1 tangential components, recorded in at most two (ContactRecord::r_t)
  MOREAU_REQUIRE(s0.dimension == 2 || s0.dimension == 3,
                 "simulation: the system '{}' states contacts of dimension {}: it must be 2 "
                 "(planar) or 3 (spatial)",
                 system.name(), s0.dimension);
  MOREAU_REQUIRE(all_finite(s0.M) && all_finite(s0.F),
                 "simulation: M or F has a NaN or infinite entry at the initial state");
  const double allowed =
      std::max(1e-6, 10.0 * settings.time_stepping.contacts.projection_tolerance);
  for (const auto& c : s0.constraints)
    MOREAU_REQUIRE(
        c.kind == ConstraintKind::bilateral || c.gap >= -allowed,
        "simulation: the initial state interpenetrates at constraint '{}' (gap {} m < −{} m)",
        c.name, c.gap, allowed);
  check_model_laws(system, settings, s0);
  Stopwatch watch;
  SimulationResult res;
  if (settings.integrator == Integrator::event_driven)
    res = simulate_event_driven(system, settings, q0, v0, progress, stop);
  else  // both schemes: the one loop, with the scheme as its step policy
    res = simulate_time_stepping(system, settings, q0, v0, progress, stop);
  res.wall_time = watch.seconds();
  // Energy gained beyond the integration tolerance, relative to the largest energy seen E_max
  // (≥ 1 J): Moreau–Jean is first order at impacts, its gain of order h·E_max, so 10 h·E_max;
  // the event driver's error control keeps it at its tolerance, so max(10⁻⁶, 100 rtol)·E_max.
  // Restitution e ≤ 1 and friction only dissipate: a larger gain is a fault of the model or of
  // the integration, worth a warning.
  double scale = std::max(1.0, std::abs(res.energy_initial));
  for (size_t k = 0; k < res.t.size(); ++k)
    scale = std::max(scale, std::abs(res.kinetic[k]) + std::abs(res.potential[k]));
  const double tolerance = scale * (settings.integrator == Integrator::time_stepping
                                        ? 10.0 * settings.time_stepping.dt
                                        : std::max(1e-6, 100.0 * settings.event_driven.rtol));
  if (res.event_total() > static_cast<long>(res.events.size()))
    res.warnings.push_back(
        fmt::format("the event log holds the first {} of the run's {} events (max_logged_events); "
                    "event_counts counts them all",
                    res.events.size(), res.event_total()));
  if (res.max_energy_gain > tolerance)
    res.warnings.push_back(
        fmt::format("energy gained {:.3g} J, more than the integration tolerance {:.3g} J",
                    res.max_energy_gain, tolerance));
  return res;
}

}  // namespace moreau
