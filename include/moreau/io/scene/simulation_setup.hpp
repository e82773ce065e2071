#pragma once
// Scene → (system, settings): what `moreau simulate` (apps/moreau/cmd_simulate.cpp) and the Python
// moreau.simulate (python/bind_sim.cpp) both run.
#include <memory>
#include <optional>
#include <string>

#include "moreau/io/scene/scene.hpp"
#include "moreau/io/run/simulation_output.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {

// What a scene runs: the system, the settings, where the outputs go and whether to plot.
struct SceneRun {
  std::shared_ptr<const LagrangianSystem> system;  // the rigid world or gallery system
  SimulationSettings settings;                     // the scene's, with the overrides applied
  std::string out_dir;                             // output folder (default out/<scene name>)
  std::optional<bool> plot;                        // the scene's output.plot
  OutputFormat format = OutputFormat::csv;         // the scene's output.format
};

// Builds the system of a scene and the simulation settings (the scene's, read by
// io/scene/integrator_settings.hpp); `integrator` (a name: "timestepping" or "event") and `t_end`
// override the scene's values when non-empty / not NaN (a given t_end must be finite and > 0);
// the output's `every` > 1 records every k-th time step. The resulting settings are checked
// (validate, simulation.hpp) before returning: std::invalid_argument names the scene.
SceneRun prepare_scene_run(const Scene& scene, const std::string& integrator, double t_end);

// The scene's output.every (time stepping: every k-th step) and output.interval as `settings`'
// record interval, as prepare_scene_run sets it (also for a Simulator's recordings).
void apply_output_records(const Scene& scene, SimulationSettings& settings);

}  // namespace moreau
