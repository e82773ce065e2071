#pragma once
// Scene → (system, settings): shared by `moreau simulate` (cmd_simulate.cpp) and the Python
// moreau.simulate (python/bind_sim.cpp includes this header). Header-only because the io layer
// (scenes) comes after the sim layer, so the library's sim layer cannot read scenes itself.
#include <cmath>
#include <memory>
#include <string>

#include "moreau/common/error.hpp"
#include "moreau/contact/collision/rigid_world_system.hpp"
#include "moreau/io/scene.hpp"
#include "moreau/model/gallery.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau::cli {

struct SceneRun {
  std::shared_ptr<const LagrangianSystem> system;
  SimulationSettings settings;
  std::string out_dir;
  bool plot = true;
};

// Builds the system of a scene and the simulation settings; `integrator` and `t_end` override the
// scene's values when non-empty / not NaN (a given t_end must be finite and > 0).
inline SceneRun prepare_scene_run(const Scene& scene, const std::string& integrator, double t_end) {
  SceneRun run;
  const SceneIntegrator& si = scene.integrator;
  SimulationSettings& st = run.settings;
  st.integrator = integrator.empty() ? si.kind : integrator;
  MOREAU_REQUIRE(st.integrator == "event" || st.integrator == "timestepping",
                 "--integrator must be 'event' or 'timestepping', got '{}'", st.integrator);
  st.t_end = std::isnan(t_end) ? scene.t_end : t_end;
  MOREAU_REQUIRE(std::isfinite(st.t_end) && st.t_end > 0.0, "--t-end = {} s must be > 0", st.t_end);
  st.dt = si.dt;
  st.theta = si.theta;
  st.solver_tolerance = si.tolerance;
  st.solver = si.solver;
  st.solver_max_iterations = si.max_iterations;
  st.nsgs_relaxation = si.relaxation;
  st.projection = si.projection;
  st.activation_margin = si.activation_margin;
  st.rtol = si.rtol;
  st.atol = si.atol;
  st.max_step = si.max_step;
  st.painleve_policy = si.painleve_policy;
  st.baumgarte_alpha = si.baumgarte_alpha;
  st.baumgarte_beta = si.baumgarte_beta;
  if (st.integrator == "timestepping" && scene.output.every > 1)
    st.record_interval = scene.output.every * st.dt * (1.0 - 1e-9);
  if (scene.is_gallery()) {
    GalleryParams params;
    for (auto it = scene.gallery_params.begin(); it != scene.gallery_params.end(); ++it) {
      MOREAU_REQUIRE(it.value().is_number(), "params.{} must be a number", it.key());
      params[it.key()] = it.value().get<double>();
    }
    run.system = make_gallery_system(scene.gallery, params);
  } else {
    MOREAU_REQUIRE(scene.world != nullptr, "scene '{}' has neither bodies nor a gallery system", scene.name);
    CollisionSettings cs = scene.collision;
    // Event-driven: every feature pair (closings are located by root finding on the gaps).
    // Time stepping: contacts within a margin that a body cannot cross in a few steps.
    if (st.integrator == "event") cs.margin = INFINITY;
    else cs.margin = std::max(cs.margin, 0.02);
    run.system = std::make_shared<RigidWorldSystem>(scene.world, cs, scene.name);
  }
  run.out_dir = scene.output.dir.empty() ? "out/" + scene.name : scene.output.dir;
  run.plot = scene.output.plot;
  return run;
}

}  // namespace moreau::cli
