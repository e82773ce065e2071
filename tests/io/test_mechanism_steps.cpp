// A mechanism's contact steps with the default solver (model/dense_step_contacts.cpp): after a
// step whose Gauss–Seidel probe crawled and Newton finished it, the next step starts with Newton.
// bench/models/humanoid.xml falls and lies on the floor (10–14 redundant contacts whose W has rank
// ≤ 27 on 30–42 rows): the same motion as with the probe on every step (`nsgs_admm` named), every
// step at tolerance, for a quarter of the solver work or less.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "moreau/io/import/load_scene.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {
namespace {

SimulationResult humanoid(const std::string& solver, double t_end = 1.5) {
  const Scene scene = load_scene(std::string(MOREAU_SOURCE_DIR) + "/bench/models/humanoid.xml");
  SceneRun run = prepare_scene_run(scene, "", t_end);
  if (!solver.empty()) run.settings.solver.name = solver;
  return simulate(*run.system, run.settings);
}

TEST(MechanismSteps, NewtonLedStepsKeepTheMotionForLessWork) {
  const SimulationResult led = humanoid(""), probed = humanoid("nsgs_admm");
  ASSERT_EQ(led.steps, 300);
  ASSERT_EQ(probed.steps, 300);
  EXPECT_EQ(led.solver_failures, 0);
  // the probe alone stalls on one step (t = 1.14 s, residual 4.3e-5 at the default budget and at
  // 10,000 iterations alike: NSGS–ADMM cycles there), which the default finishes with Newton
  EXPECT_LE(probed.solver_failures, 1);
  EXPECT_LT(probed.worst_solver_residual, 1e-4);
  // the same fall: energy lost to the floor and penetration alike (the two solve each step to
  // the tolerance from different starts, so they agree to about its size, not to the last bit)
  EXPECT_LT(led.energy_final, led.energy_initial - 100.0);
  EXPECT_NEAR(led.energy_final, probed.energy_final, 1e-6 * std::abs(probed.energy_initial));
  EXPECT_NEAR(led.max_penetration, probed.max_penetration, 1e-6);
  EXPECT_LT(led.solver_work, 0.25 * probed.solver_work)
      << "work " << led.solver_work << " against " << probed.solver_work;
}

// Lying on its back after the fall, the humanoid rests: the projection that removes a step's
// penetration holds the contacts that are closed (model/dense_step_contacts.cpp). When it opened
// them, the body kept rocking head against hands (2e-3 J, a strike every third step) from the
// energy each lift gave it, and rolled onto its side at 4.5 s.
TEST(MechanismSteps, ALyingHumanoidComesToRest) {
  const SimulationResult r = humanoid("", 3.0);
  ASSERT_EQ(r.steps, 600);
  EXPECT_EQ(r.solver_failures, 0);
  double kinetic = 0.0, lowest = INFINITY, highest = -INFINITY;
  int late = 0;  // records from 2 s on
  for (Index k = 0; k < r.records(); ++k) {
    if (r.t[k] < 2.0) continue;
    ++late;
    kinetic = std::max(kinetic, r.kinetic[k]);
    const double energy = r.kinetic[k] + r.potential[k];
    lowest = std::min(lowest, energy);
    highest = std::max(highest, energy);
  }
  ASSERT_GT(late, 100);
  EXPECT_LT(kinetic, 1e-12) << "J, the largest kinetic energy from 2 s to 3 s";
  EXPECT_LT(highest - lowest, 1e-9) << "J, the spread of the energy from 2 s to 3 s";
}

}  // namespace
}  // namespace moreau
