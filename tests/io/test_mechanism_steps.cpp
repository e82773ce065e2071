// A mechanism's contact steps with the default solver (model/dense_step_contacts.cpp): after a
// step whose Gauss–Seidel probe crawled and Newton finished it, the next step starts with Newton.
// bench/models/humanoid.xml falls and lies on the floor (10–14 redundant contacts whose W has rank
// ≤ 27 on 30–42 rows): the same motion as with the probe on every step (`nsgs_admm` named), every
// step at tolerance, for a tenth of the solver work.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "moreau/io/import/load_scene.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {
namespace {

SimulationResult humanoid(const std::string& solver) {
  const Scene scene = load_scene(std::string(MOREAU_SOURCE_DIR) + "/bench/models/humanoid.xml");
  SceneRun run = prepare_scene_run(scene, "", 1.5);
  if (!solver.empty()) run.settings.solver.name = solver;
  return simulate(*run.system, run.settings);
}

TEST(MechanismSteps, NewtonLedStepsKeepTheMotionForLessWork) {
  const SimulationResult led = humanoid(""), probed = humanoid("nsgs_admm");
  ASSERT_EQ(led.steps, 300);
  ASSERT_EQ(probed.steps, 300);
  EXPECT_EQ(led.solver_failures, 0);
  EXPECT_EQ(probed.solver_failures, 0);
  // the same fall: energy lost to the floor and penetration alike (the two solve each step to
  // the tolerance from different starts, so they agree to about its size, not to the last bit)
  EXPECT_LT(led.energy_final, led.energy_initial - 100.0);
  EXPECT_NEAR(led.energy_final, probed.energy_final, 1e-6 * std::abs(probed.energy_initial));
  EXPECT_NEAR(led.max_penetration, probed.max_penetration, 1e-6);
  EXPECT_LT(led.solver_work, 0.25 * probed.solver_work)
      << "work " << led.solver_work << " against " << probed.solver_work;
}

}  // namespace
}  // namespace moreau
