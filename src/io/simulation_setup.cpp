// Scene → (system, settings); see simulation_setup.hpp.
#include "moreau/io/simulation_setup.hpp"

#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/contact/collision/rigid_world_system.hpp"
#include "moreau/model/gallery.hpp"

namespace moreau {

SimulationSettings simulation_settings(const SceneIntegrator& si, const std::string& kind, double t_end, int every) {
  SimulationSettings st;
  st.integrator = kind.empty() ? si.kind : kind;
  MOREAU_REQUIRE(st.integrator == "event" || st.integrator == "timestepping",
                 "--integrator must be 'event' or 'timestepping', got '{}'", st.integrator);
  st.t_end = t_end;
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
  if (st.integrator == "timestepping" && every > 1) st.record_interval = every * st.dt * (1.0 - 1e-9);
  return st;
}

SceneRun prepare_scene_run(const Scene& scene, const std::string& integrator, double t_end) {
  SceneRun run;
  run.settings = simulation_settings(scene.integrator, integrator, std::isnan(t_end) ? scene.t_end : t_end,
                                     scene.output.every);
  const SimulationSettings& st = run.settings;
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

}  // namespace moreau
