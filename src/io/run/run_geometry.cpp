// geometry.json, a run's rigid world in the one JSON form (io/json/rigid_world_json.hpp); see
// run_geometry.hpp.
#include "moreau/io/run/run_geometry.hpp"

#include "moreau/common/error.hpp"
#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/io/json/json_reader.hpp"
#include "moreau/io/json/rigid_world_json.hpp"

namespace moreau {

using json = nlohmann::json;
using namespace json_io;

std::string run_geometry_json(const LagrangianSystem& system, int dimension) {
  const auto* rigid = dynamic_cast<const RigidWorldSystem*>(&system);
  json world = rigid != nullptr ? rigid_world_to_json(rigid->world())
                                : json{{"dimension", dimension}, {"bodies", json::array()}};
  // the run's header, then the world's keys; one body a line: readable, and compact for large
  // worlds
  nlohmann::ordered_json head;
  head["moreau_geometry_version"] = kRunGeometryVersion;
  head["system"] = system.name();
  head["dimension"] = world.at("dimension");
  // the columns of the trajectory: a world in joint coordinates records its bodies' poses and
  // its joint coordinates (RigidWorldSystem::recorded_positions)
  head["position_size"] = system.recorded_position_names().size();
  head["velocity_size"] = system.recorded_velocity_names().size();
  for (const char* key : {"gravity", "contact", "joints", "tendons", "equality"})
    if (world.contains(key)) head[key] = world.at(key);
  std::string text = head.dump(1);
  text.erase(text.rfind('}'));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  text += ",\n \"bodies\": [";
  const json& bodies = world.at("bodies");
  for (size_t i = 0; i < bodies.size(); ++i) text += (i == 0 ? "\n  " : ",\n  ") + bodies[i].dump();
  text += bodies.empty() ? "]" : "\n ]";
  return text + "\n}\n";
}

RigidWorld world_from_geometry(const json& doc, const std::string& source) {
  return with_source(source, [&] {
    MOREAU_REQUIRE(doc.is_object(), "the document = {}: must be an object", show(doc));
    const int version = int_field(doc, "", "moreau_geometry_version", 0);
    MOREAU_REQUIRE(
        version == kRunGeometryVersion,
        "moreau_geometry_version = {}: this moreau reads version {}{}", version,
        kRunGeometryVersion,
        version == 1 ? " (a run written by moreau 0.2: simulate it again to view it)" : "");
    std::set<std::string> keys = {"moreau_geometry_version", "system", "position_size",
                                  "velocity_size"};
    keys.insert(kRigidWorldKeys.begin(), kRigidWorldKeys.end());
    check_keys(doc, "", keys);
    RigidWorld world = rigid_world_from_json(doc);
    if (doc.contains("position_size")) {
      const int nq = int_field(doc, "", "position_size", 0);
      const Index expected = recorded_position_size(world);
      MOREAU_REQUIRE(world.body_count() == 0 || nq == expected,
                     "position_size = {}: the bodies and joints have {} coordinates", nq, expected);
    }
    return world;
  });
}

}  // namespace moreau
