#include "moreau/sim/simulation.hpp"

#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/common/timer.hpp"
#include "moreau/sim/event_driven.hpp"
#include "moreau/sim/impact_law.hpp"
#include "moreau/sim/time_stepping.hpp"

namespace moreau {

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

void validate(const SimulationSettings& s) {
  MOREAU_REQUIRE(s.integrator == "timestepping" || s.integrator == "event",
                 "simulation: integrator must be 'timestepping' or 'event', got '{}'", s.integrator);
  MOREAU_REQUIRE(std::isfinite(s.t_end) && s.t_end > 0.0, "simulation: t_end = {} s must be > 0",
                 s.t_end);
  MOREAU_REQUIRE(std::isfinite(s.dt) && s.dt > 0.0, "simulation: dt = {} s must be > 0", s.dt);
  MOREAU_REQUIRE(s.theta >= 0.0 && s.theta <= 1.0, "simulation: theta = {} must lie in [0, 1]",
                 s.theta);
  MOREAU_REQUIRE(s.rtol > 0.0 && s.atol > 0.0, "simulation: rtol = {} and atol = {} must be > 0",
                 s.rtol, s.atol);
  MOREAU_REQUIRE(s.max_step > 0.0, "simulation: max_step = {} s must be > 0", s.max_step);
  MOREAU_REQUIRE(s.contact_tolerance > 0.0 && s.force_tolerance > 0.0,
                 "simulation: contact_tolerance = {} and force_tolerance = {} must be > 0",
                 s.contact_tolerance, s.force_tolerance);
  MOREAU_REQUIRE(s.zeno_velocity >= 0.0, "simulation: zeno_velocity = {} m/s must be ≥ 0",
                 s.zeno_velocity);
  MOREAU_REQUIRE(s.baumgarte_alpha >= 0.0 && s.baumgarte_beta >= 0.0,
                 "simulation: Baumgarte α = {} and β = {} must be ≥ 0", s.baumgarte_alpha,
                 s.baumgarte_beta);
  MOREAU_REQUIRE(s.painleve_policy == "tangential_impact" || s.painleve_policy == "stop",
                 "simulation: painleve_policy must be 'tangential_impact' or 'stop', got '{}'",
                 s.painleve_policy);
  MOREAU_REQUIRE(s.record_interval >= 0.0, "simulation: record_interval = {} s must be ≥ 0",
                 s.record_interval);
  MOREAU_REQUIRE(s.solver_tolerance > 0.0 && s.solver_max_iterations > 0,
                 "simulation: solver tolerance {} and iterations {} must be > 0", s.solver_tolerance,
                 s.solver_max_iterations);
  MOREAU_REQUIRE(s.nsgs_relaxation > 0.0 && s.nsgs_relaxation < 2.0,
                 "simulation: nsgs_relaxation = {} must lie in (0, 2)", s.nsgs_relaxation);
  MOREAU_REQUIRE(s.separation_steps >= 0, "simulation: separation_steps = {} must be ≥ 0", s.separation_steps);
  MOREAU_REQUIRE(s.mode_velocity > 0.0, "simulation: mode_velocity = {} m/s must be > 0", s.mode_velocity);
  MOREAU_REQUIRE(s.projection_tolerance > 0.0, "simulation: projection_tolerance = {} m must be > 0",
                 s.projection_tolerance);
}

SimulationResult simulate(const LagrangianSystem& system, const SimulationSettings& settings,
                          const Vector& q0_in, const Vector& v0_in, const ProgressCallback& progress) {
  validate(settings);
  const Vector q0 = q0_in.size() > 0 ? q0_in : system.initial_q;
  const Vector v0 = v0_in.size() > 0 ? v0_in : system.initial_v;
  MOREAU_REQUIRE(q0.size() == system.position_size(),
                 "simulation: initial q has {} entries, the system '{}' has {} coordinates", q0.size(),
                 system.name(), system.position_size());
  MOREAU_REQUIRE(v0.size() == system.velocity_size(),
                 "simulation: initial v has {} entries, the system '{}' has {} velocities", v0.size(),
                 system.name(), system.velocity_size());
  MOREAU_REQUIRE(all_finite(q0) && all_finite(v0), "simulation: the initial state has a NaN or infinite entry");
  const ContactState s0 = system.contact_state(q0, v0, 0.0);
  // ContactState::validate requires q and v of one size, which spatial bodies (quaternions) break.
  if (s0.q.size() == s0.v.size()) s0.validate();
  MOREAU_REQUIRE(all_finite(s0.M) && all_finite(s0.F), "simulation: M or F has a NaN or infinite entry at the initial state");
  const double allowed = std::max(1e-6, 10.0 * settings.projection_tolerance);
  for (const auto& c : s0.constraints)
    MOREAU_REQUIRE(c.kind == ConstraintKind::bilateral || c.gap >= -allowed,
                   "simulation: the initial state interpenetrates at constraint '{}' (gap {} m < −{} m)",
                   c.name, c.gap, allowed);
  // impact laws: of the contacts present now, and of every material of a rigid world (contacts
  // that appear later carry one of these)
  check_impact_laws(s0, settings.integrator);
  for (const std::string& law : system.contact_laws())
    check_impact_law_name(law, settings.integrator, "a contact material");
  Stopwatch watch;
  SimulationResult res;
  if (settings.integrator == "event") res = simulate_event_driven(system, settings, q0, v0, progress);
  else res = simulate_time_stepping(system, settings, q0, v0, progress);
  res.wall_time = watch.seconds();
  return res;
}

}  // namespace moreau
