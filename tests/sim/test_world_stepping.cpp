// Moreau–Jean time stepping on a RigidWorld (through RigidWorldSystem): a resting stack of cubes.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/sim/simulation.hpp"
#include "rigid_worlds.hpp"

namespace moreau {
namespace {

// Five 0.2 m cubes (1 kg) stacked exactly on a plane, μ = 0.8: the exact solution is rest, so
// the top cube must not move (drift bounded by the projection tolerance and the solver's), no
// penetration beyond the projection tolerance, and no energy gained.
// Time stepping of that stack (dt = 1 ms, margin 2 cm) until t_end at the solver tolerance.
SimulationResult run_box_stack(double t_end, double tolerance) {
  RigidWorldSystem sys(test::box_stack(), CollisionSettings{.margin = 0.02}, "box_stack");
  SimulationSettings st{
      .integrator = Integrator::time_stepping, .t_end = t_end, .time_stepping = {.dt = 1e-3}};
  st.solver.tolerance = tolerance;
  return simulate(sys, st);
}

// How far the top cube (body 4: coordinates 4·7 … 4·7 + 2) moved over the run, m.
double top_cube_drift(const SimulationResult& r) {
  return (r.q.back().segment<3>(4 * 7) - r.q.front().segment<3>(4 * 7)).norm();
}

TEST(TimeSteppingWorld, BoxStackStaysAtRest) {
  const auto r = run_box_stack(0.2, 1e-9);
  ASSERT_GT(r.records(), 2);
  EXPECT_LE(top_cube_drift(r), 1e-5);
  EXPECT_LE(r.max_penetration, 1e-5);
  EXPECT_LE(r.max_energy_gain, 1e-4);
  EXPECT_LE(r.v.back().cwiseAbs().maxCoeff(), 1e-3);
}

// Over 2 s at the default solver settings and tolerance 1e-8 every step's contact problem is
// solved (when the body-block NSGS stalls on the stack, the registry fallback has the budget to
// finish it), so the exact rest holds to round-off: the top cube moves and the stack penetrates
// by less than 1e-9 m (with a fallback of only 50 NSGS sweeps one step stayed unsolved and the top
// cube moved 8e-9 m).
TEST(TimeSteppingWorld, BoxStackEveryStepConvergesOverTwoSeconds) {
  const auto r = run_box_stack(2.0, 1e-8);
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  EXPECT_EQ(r.solver_failures, 0) << r.message;
  EXPECT_LE(top_cube_drift(r), 1e-9);
  EXPECT_LE(r.max_penetration, 1e-9);
}

// Issue 15 §4: a contact solve that stops above its tolerance is counted (steps, worst residual)
// and the progress callback is told at once, so the progress line shows what the summary will.
// One NSGS sweep cannot reach 1e-14 on the five-box stack: every step with contacts fails.
TEST(TimeSteppingWorld, SolverFailuresAreCountedAndReportedToTheProgressLine) {
  RigidWorldSystem sys(test::box_stack(), CollisionSettings{.margin = 0.02}, "box_stack");
  SimulationSettings st{
      .integrator = Integrator::time_stepping, .t_end = 0.05, .time_stepping = {.dt = 1e-3}};
  st.solver = {.name = "nsgs", .tolerance = 1e-14, .max_iterations = 1};
  SimulationProgress last;
  int calls_with_new_failures = 0;
  const SimulationResult r =
      simulate(sys, st, Vector(), Vector(), [&](const SimulationProgress& p) {
        if (p.solver_failures > last.solver_failures) ++calls_with_new_failures;
        EXPECT_GE(p.solver_failures, last.solver_failures);
        EXPECT_GE(p.worst_solver_residual, last.worst_solver_residual);
        last = p;
      });
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  EXPECT_GE(r.solver_failures, 40);  // ≥ 40 of the 50 steps
  EXPECT_GT(r.worst_solver_residual, 1e3 * st.solver.tolerance);
  EXPECT_EQ(last.solver_failures, r.solver_failures);
  EXPECT_EQ(last.worst_solver_residual, r.worst_solver_residual);
  EXPECT_EQ(calls_with_new_failures, r.solver_failures);  // told at each new failure
  EXPECT_EQ(last.steps, r.steps);
}

}  // namespace
}  // namespace moreau
