// Scene → (system, settings); see simulation_setup.hpp.
#include "moreau/io/scene/simulation_setup.hpp"

#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/io/json/json_reader.hpp"
#include "moreau/io/json/vocabulary.hpp"
#include "moreau/contact/gallery.hpp"
#include "moreau/sim/simulator.hpp"

namespace moreau {

void apply_output_records(const Scene& scene, SimulationSettings& settings) {
  if (settings.integrator == Integrator::time_stepping && scene.output.every > 1)
    settings.record_interval = scene.output.every * settings.time_stepping.dt * (1.0 - 1e-9);
  if (scene.output.interval > 0.0) settings.record_interval = scene.output.interval;
}

SceneRun prepare_scene_run(const Scene& scene, const std::string& integrator, double t_end) {
  SceneRun run;
  SimulationSettings& st = run.settings;
  st = scene.settings;
  if (!integrator.empty()) st.integrator = enum_from_name<Integrator>(integrator, "--integrator");
  if (!std::isnan(t_end)) {
    MOREAU_REQUIRE(std::isfinite(t_end) && t_end > 0.0, "--t-end = {} s must be > 0", t_end);
    st.t_end = t_end;
  }
  // Everything below comes from the file: its errors start with the scene's source.
  json_io::with_source(scene.source.empty() ? "scene '" + scene.name + "'" : scene.source, [&] {
    apply_output_records(scene, st);
    if (scene.is_system()) {
      run.system = scene.system;
    } else if (scene.is_gallery()) {
      GalleryParams params;
      for (auto it = scene.gallery_params.begin(); it != scene.gallery_params.end(); ++it) {
        MOREAU_REQUIRE(it.value().is_number(), "params.{} = {} must be a number", it.key(),
                       json_io::show(it.value()));
        params[it.key()] = it.value().get<double>();
      }
      run.system = make_gallery_system(scene.gallery, params);
    } else {
      MOREAU_REQUIRE(scene.world != nullptr, "the scene has neither bodies nor a gallery system");
      run.system = std::make_shared<RigidWorldSystem>(
          scene.world, run_collision_settings(scene.collision, st.integrator), scene.name);
    }
    run.out_dir = scene.output.dir.empty() ? "out/" + scene.name : scene.output.dir;
    run.plot = scene.output.plot;
    run.format = output_format_from_name(scene.output.format, "output.format");
    // The settings as the run will see them (overrides applied), checked before anything runs or
    // is written.
    validate(st);
  });
  return run;
}

}  // namespace moreau
