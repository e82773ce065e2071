// The `system` scene object; see system_scene.hpp.
#include "moreau/io/scene/system_scene.hpp"

#include "moreau/common/error.hpp"
#include "moreau/io/json/json_reader.hpp"

namespace moreau {
namespace {

using json = nlohmann::json;
using namespace json_io;

LinearRelation parse_relation(const json& j, const std::string& path, Index n) {
  MOREAU_REQUIRE(j.is_object(), "{} = {}: must be an object", path, show(j));
  check_keys(j, path, {"name", "normal", "offset", "tangents", "e", "mu", "e_t"});
  LinearRelation r;
  r.name = string_field(j, path, "name", "");
  MOREAU_REQUIRE(j.contains("normal"), "{}.normal: missing required field", path);
  r.normal = numbers(j.at("normal"), join(path, "normal"), n);
  r.offset = number(j, path, "offset", 0.0);
  if (j.contains("tangents")) {
    const json& t = j.at("tangents");
    MOREAU_REQUIRE(t.is_array() && t.size() <= 2, "{} = {}: must be a list of 0, 1 or 2 rows",
                   join(path, "tangents"), show(t));
    r.tangents = t.empty() ? Matrix(0, n) : matrix(t, join(path, "tangents"), -1, n);
  }
  r.e = number(j, path, "e", 0.0);
  r.mu = number(j, path, "mu", 0.0);
  r.e_t = number(j, path, "e_t", 0.0);
  return r;
}

}  // namespace

std::shared_ptr<LinearSystem> parse_system_object(const json& j, const std::string& name) {
  const std::string path = "system";
  MOREAU_REQUIRE(j.is_object(), "system = {}: must be an object", show(j));
  check_keys(j, path,
             {"coordinates", "mass", "stiffness", "damping", "force", "q0", "v0", "relations"});
  LinearSystemData data;
  MOREAU_REQUIRE(j.contains("coordinates"), "system.coordinates: missing required field");
  const json& names = j.at("coordinates");
  MOREAU_REQUIRE(names.is_array() && !names.empty(),
                 "system.coordinates = {}: must be a nonempty list of names", show(names));
  for (size_t i = 0; i < names.size(); ++i) {
    MOREAU_REQUIRE(names[i].is_string(), "system.coordinates[{}] = {}: must be a name", i,
                   show(names[i]));
    data.coordinates.push_back(names[i].get<std::string>());
  }
  const Index n = static_cast<Index>(data.coordinates.size());
  MOREAU_REQUIRE(j.contains("mass"), "system.mass: missing required field");
  data.mass = matrix(j.at("mass"), "system.mass", n, n);
  if (j.contains("stiffness")) data.stiffness = matrix(j.at("stiffness"), "system.stiffness", n, n);
  if (j.contains("damping")) data.damping = matrix(j.at("damping"), "system.damping", n, n);
  if (j.contains("force")) data.force = numbers(j.at("force"), "system.force", n);
  MOREAU_REQUIRE(j.contains("q0"), "system.q0: missing required field (the initial coordinates)");
  const Vector q0 = numbers(j.at("q0"), "system.q0", n);
  const Vector v0 = j.contains("v0") ? numbers(j.at("v0"), "system.v0", n) : Vector::Zero(n);
  if (j.contains("relations")) {
    const json& rs = j.at("relations");
    MOREAU_REQUIRE(rs.is_array(), "system.relations = {}: must be a list", show(rs));
    for (size_t i = 0; i < rs.size(); ++i)
      data.relations.push_back(parse_relation(rs[i], fmt::format("system.relations[{}]", i), n));
  }
  std::shared_ptr<LinearSystem> sys;
  try {
    sys = std::make_shared<LinearSystem>(name, std::move(data));
  } catch (const std::invalid_argument& e) {
    throw_invalid("system.{}", e.what());
  }
  sys->initial_q = q0;
  sys->initial_v = v0;
  return sys;
}

}  // namespace moreau
