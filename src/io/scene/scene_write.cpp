// Scene → scene document (io/scene/scene_write.hpp), the inverse of parse_scene for rigid worlds.
#include "moreau/io/scene/scene_write.hpp"

#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/io/json/rigid_world_json.hpp"
#include "moreau/io/scene/integrator_settings.hpp"

namespace moreau {

using json = nlohmann::json;

json scene_to_json(const Scene& scene) {
  MOREAU_REQUIRE(scene.world != nullptr,
                 "{}: only rigid-body scenes can be written (not a gallery or system scene)",
                 scene.source);
  json doc = rigid_world_to_json(*scene.world);
  doc["description"] = scene.description;
  doc["contact"]["margin"] = scene.collision.margin;
  doc["contact"]["tolerance"] = scene.collision.initial_tolerance;
  if (!scene.collision.self_collision) doc["contact"]["self_collision"] = false;
  if (scene.collision.initial_overlap != InitialOverlap::resolve)
    doc["contact"]["initial_overlap"] = to_string(scene.collision.initial_overlap);
  json integrator = json::object();
  const SimulationSettings defaults;
  for (const IntegratorKey& k : integrator_keys()) {
    const json value = integrator_value(k, scene.settings);
    if (value != integrator_value(k, defaults)) integrator[k.key] = value;
  }
  if (!integrator.empty()) doc["integrator"] = integrator;
  doc["t_end"] = scene.settings.t_end;
  json output{{"every", scene.output.every}, {"format", scene.output.format}};
  if (scene.output.plot) output["plot"] = *scene.output.plot;
  if (!scene.output.dir.empty()) output["dir"] = scene.output.dir;
  if (scene.output.interval > 0) {
    output.erase("every");
    output["interval"] = scene.output.interval;
  }
  doc["output"] = output;
  return doc;
}

}  // namespace moreau
