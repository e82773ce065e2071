// The event log's limit (SimulationSettings::max_logged_events): a run logs its first events only,
// counts every one of them in event_counts, and integrates the same trajectory as a run that logs
// them all. The reference counts come from the unlimited run's own list, counted here by kind.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include <fmt/format.h>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/sim/simulation.hpp"
#include "rigid_worlds.hpp"

namespace moreau {
namespace {

// A ball (0.1 kg, r = 0.05 m) dropped from 0.5 m onto the floor with e = 0.5, μ = 0.3: a series of
// impacts whose intervals shrink by e (accumulating at t₁(1 + 2e/(1 − e)) = 0.957 s) and then
// rest, so a run of 1.5 s has tens of events.
RigidWorldSystem bouncing_ball(double margin) {
  ContactMaterial mat;
  mat.mu = 0.3;
  mat.restitution = 0.5;
  auto w = test::world_with_floor(3, mat);
  w->add_body(test::sphere_body("ball", 0.1, 0.05, Vector3(0.0, 0.0, 0.55)));
  return RigidWorldSystem(w, CollisionSettings{.margin = margin}, "bouncing_ball");
}

std::map<EventKind, long> counted(const std::vector<SimulationEvent>& events) {
  std::map<EventKind, long> n;
  for (const SimulationEvent& e : events) ++n[e.kind];
  return n;
}

void expect_limited_run_counts_all(Integrator integrator, double t_end) {
  // the event-driven integrator watches every contact's gap (margin ∞), as in the other tests
  const RigidWorldSystem sys =
      bouncing_ball(integrator == Integrator::event_driven ? INFINITY : 0.02);
  SimulationSettings st{.integrator = integrator, .t_end = t_end};
  st.time_stepping.dt = 1e-3;
  const SimulationResult all = simulate(sys, st);
  ASSERT_EQ(all.status, SimulationStatus::completed) << all.message;
  const std::map<EventKind, long> reference = counted(all.events);
  ASSERT_GE(all.events.size(), 4u);
  // the first impact at t₁ = √(2·0.5/9.81) = 0.319 s (h = 1e-3: within two steps)
  ASSERT_EQ(all.events.front().kind, EventKind::impact);
  EXPECT_NEAR(all.events.front().t, std::sqrt(2.0 * 0.5 / 9.81), 2e-3);
  EXPECT_EQ(all.event_counts, reference);
  EXPECT_TRUE(all.warnings.empty());

  for (const int limit : {0, 3}) {
    st.max_logged_events = limit;
    const SimulationResult some = simulate(sys, st);
    ASSERT_EQ(some.events.size(), static_cast<size_t>(limit));
    for (size_t k = 0; k < some.events.size(); ++k) {
      EXPECT_EQ(some.events[k].kind, all.events[k].kind);
      EXPECT_EQ(some.events[k].t, all.events[k].t);
    }
    EXPECT_EQ(some.event_counts, reference) << "max_logged_events = " << limit;
    EXPECT_EQ(some.event_total(), static_cast<long>(all.events.size()));
    ASSERT_EQ(some.steps, all.steps);
    EXPECT_EQ(some.q.back(), all.q.back());
    ASSERT_EQ(some.warnings.size(), 1u);
    EXPECT_NE(some.warnings[0].find(
                  fmt::format("the first {} of the run's {} events", limit, all.events.size())),
              std::string::npos)
        << some.warnings[0];
  }
}

TEST(EventLog, TimeSteppingCountsEveryEventAndLogsTheFirst) {
  expect_limited_run_counts_all(Integrator::time_stepping, 1.5);
}

TEST(EventLog, EventDrivenCountsEveryEventAndLogsTheFirst) {
  // before the accumulation point, which the Zeno rule ends (0.957 s)
  expect_limited_run_counts_all(Integrator::event_driven, 0.9);
}

TEST(EventLog, ANegativeLimitIsRefused) {
  const RigidWorldSystem sys = bouncing_ball(0.02);
  SimulationSettings st;
  st.max_logged_events = -1;
  try {
    simulate(sys, st);
    FAIL() << "max_logged_events = -1 accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("max_logged_events = -1 must be ≥ 0"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace moreau
