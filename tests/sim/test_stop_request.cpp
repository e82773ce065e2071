// StopRequest (sim/simulation.hpp): a run asked to stop ends at the end of the step where it sees
// the request, with status interrupted, its state there recorded, and everything before kept; the
// trajectory up to the stop is the one an uninterrupted run computes (the request changes nothing
// before it is seen).
#include <gtest/gtest.h>

#include <cmath>

#include <fmt/format.h>

#include "moreau/contact/gallery.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {
namespace {

// The falling pencil (gallery, McGeer & Palmer 1989) for 1 s; the request is set from the progress
// callback once 30 % of [0, t_end] is done.
SimulationResult pencil(Integrator integrator, bool stop_at_30_percent) {
  auto sys = make_gallery_system("falling_pencil");
  SimulationSettings st{.integrator = integrator, .t_end = 1.0};
  StopRequest stop{false};
  const ProgressCallback progress = [&](const SimulationProgress& p) {
    if (stop_at_30_percent && p.fraction >= 0.3) stop.store(true);
  };
  return simulate(*sys, st, Vector(), Vector(), progress, &stop);
}

TEST(StopRequest, RunEndsAtTheStepWhereTheRequestIsSeen) {
  for (Integrator in : {Integrator::time_stepping, Integrator::event_driven}) {
    SCOPED_TRACE(to_string(in));
    const SimulationResult full = pencil(in, false);
    const SimulationResult cut = pencil(in, true);
    EXPECT_EQ(full.status, SimulationStatus::completed);
    ASSERT_EQ(cut.status, SimulationStatus::interrupted);
    EXPECT_EQ(cut.message, fmt::format("interrupted at t = {} s", cut.t.back()));
    // stopped after 30 % and well before the end (one step later)
    EXPECT_GE(cut.t.back(), 0.3);
    EXPECT_LT(cut.t.back(), 0.35);
    EXPECT_LT(cut.steps, full.steps);
    // the recorded states up to the stop are those of the uninterrupted run
    ASSERT_LE(cut.t.size(), full.t.size());
    for (size_t k = 0; k < cut.t.size(); ++k) {
      ASSERT_EQ(cut.t[k], full.t[k]) << k;
      ASSERT_EQ(cut.q[k], full.q[k]) << k;
    }
  }
}

}  // namespace
}  // namespace moreau
