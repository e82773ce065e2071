// Scene files (docs/scene-format.md): parse, validate, build the RigidWorld.
#include "moreau/io/scene/scene.hpp"
#include "moreau/io/run/simulation_output.hpp"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <vector>

#include "moreau/common/error.hpp"
#include "moreau/io/scene/integrator_settings.hpp"
#include "moreau/io/json/json_reader.hpp"
#include "moreau/io/json/rigid_world_json.hpp"
#include "moreau/io/scene/system_scene.hpp"
#include "moreau/io/json/vocabulary.hpp"

namespace moreau {
namespace {

using json = nlohmann::json;
using namespace json_io;

SceneOutput parse_output(const json& j, const std::string& path) {
  check_keys(j, path, {"dir", "every", "interval", "plot", "format"});
  SceneOutput o;
  o.dir = string_field(j, path, "dir", o.dir);
  o.every = int_field(j, path, "every", o.every);
  MOREAU_REQUIRE(o.every >= 1, "{}.every = {}: must be ≥ 1", path, o.every);
  o.interval = number(j, path, "interval", o.interval);
  MOREAU_REQUIRE(o.interval >= 0.0, "{}.interval = {}: must be ≥ 0 s", path, o.interval);
  MOREAU_REQUIRE(!(j.contains("every") && j.contains("interval")),
                 "{}: give either every (steps) or interval (seconds), not both", path);
  if (j.contains("plot")) o.plot = bool_field(j, path, "plot", false);
  o.format = string_field(j, path, "format", o.format);
  output_format_from_name(o.format, path + ".format");  // refuses anything else, naming it
  return o;
}

// The scene proper (parse_scene below adds the source to nlohmann's own exceptions).
Scene parse_scene_checked(const json& doc, const std::string& source) {
  MOREAU_REQUIRE(doc.is_object(), "{}: a scene must be a JSON object", source);
  Scene scene;
  scene.name = source;
  const bool gallery = doc.contains("gallery");
  const bool system = doc.contains("system");
  MOREAU_REQUIRE(!(gallery && system), "give either gallery or system, not both");
  if (system) {
    check_keys(doc, "", {"$schema", "description", "system", "integrator", "t_end", "output"});
  } else if (gallery) {
    check_keys(doc, "",
               {"$schema", "description", "gallery", "params", "integrator", "t_end", "output"});
    scene.gallery = string_field(doc, "", "gallery", "");
    MOREAU_REQUIRE(!scene.gallery.empty(), "gallery: must be a nonempty system name");
    if (doc.contains("params")) {
      const json& p = doc.at("params");
      MOREAU_REQUIRE(p.is_object(), "params = {}: must be an object", show(p));
      for (const auto& [k, v] : p.items())
        if (!v.is_string() && !v.is_boolean() && !v.is_array()) as_number(v, "params." + k);
      scene.gallery_params = p;
    }
  } else {
    std::set<std::string> keys = {"$schema", "description", "integrator", "t_end", "output"};
    keys.insert(kRigidWorldKeys.begin(), kRigidWorldKeys.end());
    check_keys(doc, "", keys);
  }
  MOREAU_REQUIRE(doc.contains("description"),
                 "description: missing required field (one line saying what the scene is)");
  scene.description = string_field(doc, "", "description", "");
  if (doc.contains("integrator"))
    read_integrator_settings(doc.at("integrator"), "integrator", scene.settings);
  if (doc.contains("output")) scene.output = parse_output(doc.at("output"), "output");
  scene.settings.t_end = number(doc, "", "t_end", scene.settings.t_end);
  MOREAU_REQUIRE(scene.settings.t_end > 0.0, "t_end = {}: must be > 0", scene.settings.t_end);
  if (gallery) return scene;
  if (system) {
    scene.system =
        parse_system_object(doc.at("system"), std::filesystem::path(source).stem().string());
    scene.dimension = scene.system->dimension();
    return scene;
  }

  RigidWorldReadOptions world_options;
  world_options.contact_keys = {"margin", "tolerance", "self_collision", "initial_overlap"};
  world_options.require_dynamic_body = true;
  world_options.folder = std::filesystem::path(source).parent_path().string();
  auto world = std::make_shared<RigidWorld>(rigid_world_from_json(doc, world_options));
  scene.dimension = world->dimension();
  if (doc.contains("contact")) {
    const json& c = doc.at("contact");
    CollisionSettings& cs = scene.collision;
    cs.margin = number(c, "contact", "margin", cs.margin);
    MOREAU_REQUIRE(cs.margin >= 0.0, "contact.margin = {}: must be ≥ 0", cs.margin);
    cs.initial_tolerance = number(c, "contact", "tolerance", cs.initial_tolerance);
    MOREAU_REQUIRE(cs.initial_tolerance >= 0.0, "contact.tolerance = {}: must be ≥ 0",
                   cs.initial_tolerance);
    if (c.contains("self_collision")) {
      MOREAU_REQUIRE(c.at("self_collision").is_boolean(),
                     "contact.self_collision = {}: must be true or false",
                     show(c.at("self_collision")));
      cs.self_collision = c.at("self_collision").get<bool>();
    }
    if (c.contains("initial_overlap"))
      cs.initial_overlap = enum_from_name<InitialOverlap>(
          string_field(c, "contact", "initial_overlap", ""), "contact.initial_overlap");
  }
  scene.world = world;
  check_joints_hold(*world, scene.collision.initial_tolerance);
  return scene;
}

}  // namespace

// Explicit bilateral pairs closed and joints satisfied at the bodies' poses of the file: a
// model's consistency, checked when it is read (its start pose is made valid when it runs).
void check_joints_hold(const RigidWorld& world, double tolerance) {
  const double closed = std::max(1e-6, 10 * tolerance);
  const Vector q0 = world.initial_positions();
  CollisionSettings probe;
  probe.margin = 0.0;
  probe.joint_limits = false;
  for (const Contact& c : detect_contacts(world, q0, probe))
    if (c.pair >= 0 && world.contact_pairs()[c.pair].kind == ConstraintKind::bilateral)
      MOREAU_REQUIRE(std::abs(c.gap) <= closed,
                     "contact.explicit '{}' (bilateral): gap = {:.6g} m at the start, must be 0",
                     world.contact_pairs()[c.pair].name, c.gap);
  const Vector v0 = world.initial_velocities();
  for (Index j = 0; j < static_cast<Index>(world.joints().size()); ++j) {
    const double r = world.joint_rows(q0, v0, j).residual.cwiseAbs().maxCoeff();
    MOREAU_REQUIRE(r <= closed, "joints[{}] ('{}'): violated at the start (residual {:.3g})", j,
                   world.joints()[j].name, r);
  }
}

// Any nlohmann exception left over (a type or range error while reading a value) becomes an
// std::invalid_argument naming the source.
Scene parse_scene(const json& doc, const std::string& source) {
  Scene scene = with_source(source, [&] { return parse_scene_checked(doc, source); });
  scene.source = source;
  return scene;
}

Scene parse_scene_text(const std::string& text, const std::string& source) {
  return parse_scene(parse_text(text, source), source);
}

}  // namespace moreau
