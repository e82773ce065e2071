// Scene keys "force" and "torque" of a body (docs/scene-format.md): read, refused on a static
// body, and simulated with the work of the force in the potential energy.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "moreau/io/scene/scene.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {
namespace {

// Scenes read "force" and "torque" (2D: a number), refuse them on a static body, and the
// potential energy holds the force's work, so a pushed free planar body keeps T + V constant.
TEST(AppliedLoads, SceneKeysAndEnergy) {
  const std::string body = R"({"name": "puck", "mass": 2.0, "inertia": 0.5, "position": [0, 1],
      "force": [1.5, -0.5], "torque": 0.25, "shapes": [{"type": "sphere", "radius": 0.1}]})";
  const Scene s = parse_scene_text(
      R"({"description": "a pushed puck", "dimension": 2, "gravity": [0, 0], "bodies": [)" + body +
      R"(], "t_end": 1.0, "integrator": {"kind": "event"}})");
  ASSERT_EQ(s.world->body_count(), 1);
  EXPECT_EQ(s.world->body(0).applied_force, Vector3(1.5, -0.5, 0.0));
  EXPECT_EQ(s.world->body(0).applied_torque, Vector3(0.0, 0.0, 0.25));
  const SceneRun run = prepare_scene_run(s, "", NAN);
  const SimulationResult r = simulate(*run.system, run.settings);
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  // x = ½ (f/m) t², θ = ½ (τ/I) t² at t = 1 s
  EXPECT_NEAR(r.q.back()[0], 0.375, 1e-8);
  EXPECT_NEAR(r.q.back()[1], 1.0 - 0.125, 1e-8);
  EXPECT_NEAR(r.q.back()[2], 0.25, 1e-8);
  EXPECT_NEAR(r.energy_final, r.energy_initial, 1e-8);
  const std::string bad = R"({"description": "x", "dimension": 2, "bodies": [{"name": "wall",
      "static": true, "force": [1, 0], "shapes": [{"type": "plane", "normal": [0, 1]}]}]})";
  try {
    parse_scene_text(bad);
    FAIL() << "a force on a static body was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bodies[0]"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace moreau
