// docs/scene.schema.json against the example scenes: every examples/scenes/*.json validates, and
// the schema refuses what the loader refuses for the keywords it covers (an unknown law, an
// unknown field), and its "integrator" object is the reader's table
// (io/scene/integrator_settings.hpp): the same keys, types, bounds, names and defaults. A small
// validator for the keywords the schema uses ($ref, oneOf, enum, type, minimum, maximum,
// exclusiveMinimum, exclusiveMaximum, minLength, minItems, maxItems, items, required, properties,
// additionalProperties); Debian has no C++ JSON Schema library and python3-jsonschema is not
// installed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <type_traits>
#include <variant>

#include <nlohmann/json.hpp>

#include "moreau/io/scene/integrator_settings.hpp"
#include "moreau/io/json/vocabulary.hpp"

using json = nlohmann::json;

namespace {

const std::string kRoot = MOREAU_SOURCE_DIR;

json read_json(const std::string& path) {
  std::ifstream in(path);
  return json::parse(in);
}

class Validator {
 public:
  explicit Validator(json schema) : root_(std::move(schema)) {}

  // Errors found in `v` (empty: valid), each "path: reason".
  std::vector<std::string> errors(const json& v) const {
    std::vector<std::string> e;
    check(v, root_, "", e);
    return e;
  }

 private:
  const json& resolve(const std::string& ref) const {
    if (ref.rfind("#/", 0) != 0) throw std::runtime_error("unsupported $ref " + ref);
    return root_.at(json::json_pointer(ref.substr(1)));
  }

  static bool has_type(const json& v, const std::string& t) {
    if (t == "object") return v.is_object();
    if (t == "array") return v.is_array();
    if (t == "string") return v.is_string();
    if (t == "boolean") return v.is_boolean();
    if (t == "number") return v.is_number();
    if (t == "integer")
      return v.is_number_integer() ||
             (v.is_number_float() && v.get<double>() == std::floor(v.get<double>()));
    if (t == "null") return v.is_null();
    throw std::runtime_error("unsupported type " + t);
  }

  void check(const json& v, const json& s, const std::string& path,
             std::vector<std::string>& e) const {
    static const std::set<std::string> known = {"$schema",
                                                "$id",
                                                "$defs",
                                                "title",
                                                "description",
                                                "$ref",
                                                "oneOf",
                                                "enum",
                                                "type",
                                                "minimum",
                                                "maximum",
                                                "exclusiveMinimum",
                                                "exclusiveMaximum",
                                                "minLength",
                                                "minItems",
                                                "maxItems",
                                                "items",
                                                "required",
                                                "properties",
                                                "additionalProperties",
                                                "default"};
    for (const auto& [k, x] : s.items())
      if (!known.count(k))
        throw std::runtime_error("validator does not know keyword " + k + " at " + path);
    if (s.contains("$ref")) check(v, resolve(s["$ref"]), path, e);
    if (s.contains("oneOf")) {
      int matches = 0;
      for (const auto& sub : s["oneOf"]) {
        std::vector<std::string> se;
        check(v, sub, path, se);
        matches += se.empty();
      }
      if (matches != 1) e.push_back(path + ": matches " + std::to_string(matches) + " of oneOf");
    }
    if (s.contains("enum") && std::find(s["enum"].begin(), s["enum"].end(), v) == s["enum"].end())
      e.push_back(path + ": " + v.dump() + " not in " + s["enum"].dump());
    if (s.contains("type")) {
      const json& t = s["type"];
      bool ok = false;
      if (t.is_array())
        for (const auto& x : t) ok = ok || has_type(v, x.get<std::string>());
      else
        ok = has_type(v, t.get<std::string>());
      if (!ok) {
        e.push_back(path + ": not of type " + t.dump());
        return;
      }
    }
    if (v.is_number()) {
      const double x = v.get<double>();
      if (s.contains("minimum") && x < s["minimum"].get<double>())
        e.push_back(path + ": below minimum");
      if (s.contains("maximum") && x > s["maximum"].get<double>())
        e.push_back(path + ": above maximum");
      if (s.contains("exclusiveMinimum") && x <= s["exclusiveMinimum"].get<double>())
        e.push_back(path + ": not above exclusiveMinimum");
      if (s.contains("exclusiveMaximum") && x >= s["exclusiveMaximum"].get<double>())
        e.push_back(path + ": not below exclusiveMaximum");
    }
    if (v.is_string() && s.contains("minLength") &&
        v.get<std::string>().size() < s["minLength"].get<size_t>())
      e.push_back(path + ": too short");
    if (v.is_array()) {
      if (s.contains("minItems") && v.size() < s["minItems"].get<size_t>())
        e.push_back(path + ": too few items");
      if (s.contains("maxItems") && v.size() > s["maxItems"].get<size_t>())
        e.push_back(path + ": too many items");
      if (s.contains("items"))
        for (size_t i = 0; i < v.size(); ++i)
          check(v[i], s["items"], path + "[" + std::to_string(i) + "]", e);
    }
    if (v.is_object()) {
      if (s.contains("required"))
        for (const auto& r : s["required"])
          if (!v.contains(r.get<std::string>()))
            e.push_back(path + "." + r.get<std::string>() + ": required");
      const json props = s.value("properties", json::object());
      for (const auto& [k, x] : v.items()) {
        const std::string p = path.empty() ? k : path + "." + k;
        if (props.contains(k))
          check(x, props[k], p, e);
        else if (s.contains("additionalProperties") && s["additionalProperties"].is_boolean() &&
                 !s["additionalProperties"].get<bool>())
          e.push_back(p + ": not allowed");
        else if (s.contains("additionalProperties") && s["additionalProperties"].is_object())
          check(x, s["additionalProperties"], p, e);
      }
    }
  }

  json root_;
};

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

}  // namespace

TEST(SceneSchema, EveryExampleValidates) {
  const Validator val(read_json(kRoot + "/docs/scene.schema.json"));
  int count = 0;
  for (const char* folder : {"/examples/scenes", "/examples/siconos"})
    for (const auto& entry : std::filesystem::directory_iterator(kRoot + folder)) {
      if (entry.path().extension() != ".json") continue;
      const auto errs = val.errors(read_json(entry.path().string()));
      EXPECT_TRUE(errs.empty()) << entry.path() << ":\n" << joined(errs);
      ++count;
    }
  EXPECT_GE(count, 12);
}

// The schema's law is the simulator's list (newton, poisson, moreau), in the default material
// and in the pair materials; an unknown field is refused.
TEST(SceneSchema, LawIsAnEnum) {
  const Validator val(read_json(kRoot + "/docs/scene.schema.json"));
  json s = read_json(kRoot + "/examples/scenes/bouncing_ball.json");
  ASSERT_FALSE(s.contains("gallery"));
  const json contact =
      read_json(kRoot + "/docs/scene.schema.json")["$defs"]["contact"]["properties"];
  EXPECT_EQ(contact["default"]["properties"]["law"]["enum"],
            json(moreau::enum_names<moreau::ImpactLaw>()));
  for (const char* law : {"newton", "poisson", "moreau"}) {
    s["contact"]["default"]["law"] = law;
    EXPECT_TRUE(val.errors(s).empty()) << law << "\n" << joined(val.errors(s));
  }
  s["contact"]["default"]["law"] = "nwton";
  EXPECT_FALSE(val.errors(s).empty());
  s["contact"]["default"]["law"] = "newton";
  s["contact"]["pairs"] = json::array({{{"bodies", {"ball", "ground"}}, {"law", "restitution"}}});
  EXPECT_FALSE(val.errors(s).empty());
  s["contact"]["pairs"][0]["law"] = "moreau";
  EXPECT_TRUE(val.errors(s).empty()) << joined(val.errors(s));
  s["bodies"][0]["colour"] = "red";
  EXPECT_FALSE(val.errors(s).empty());
}

// The "integrator" object of the schema against the reader's table and SimulationSettings'
// defaults: the same keys; for each, the JSON type of the field (enum fields: the names of the
// enum), the bounds the reader enforces, and the default of a SimulationSettings{}.
TEST(SceneSchema, IntegratorObjectIsTheReadersTable) {
  const json props =
      read_json(kRoot + "/docs/scene.schema.json")["$defs"]["integrator"]["properties"];
  const moreau::SimulationSettings defaults;
  std::set<std::string> table_keys;
  for (const moreau::IntegratorKey& k : moreau::integrator_keys()) {
    table_keys.insert(k.key);
    ASSERT_TRUE(props.contains(k.key)) << k.key << " is read but missing from the schema";
    const json& p = props[k.key];
    const json value = moreau::integrator_value(k, defaults);
    EXPECT_EQ(p.value("default", json()), value)
        << k.key << ": schema default vs SimulationSettings{}";
    std::string type;
    std::visit(
        [&](auto field) {
          using T = std::decay_t<decltype(field(std::declval<moreau::SimulationSettings&>()))>;
          if constexpr (std::is_same_v<T, double>)
            type = "number";
          else if constexpr (std::is_same_v<T, int>)
            type = "integer";
          else if constexpr (std::is_same_v<T, bool>)
            type = "boolean";
          else if constexpr (std::is_same_v<T, std::string>)
            type = "string";
          else
            EXPECT_EQ(p.value("enum", json()), json(moreau::enum_names<T>())) << k.key;
        },
        k.field);
    if (!type.empty()) {
      EXPECT_EQ(p.value("type", ""), type) << k.key;
    }
    auto bound = [&](const char* closed, const char* open, double b, bool is_open) {
      if (!std::isfinite(b)) {
        EXPECT_FALSE(p.contains(closed) || p.contains(open))
            << k.key << " has a bound the reader does not check";
        return;
      }
      const char* name = is_open ? open : closed;
      ASSERT_TRUE(p.contains(name)) << k.key << ": missing " << name;
      EXPECT_EQ(p[name].get<double>(), b) << k.key << " " << name;
    };
    bound("minimum", "exclusiveMinimum", k.low, k.low_open);
    bound("maximum", "exclusiveMaximum", k.high, k.high_open);
  }
  for (const auto& [key, p] : props.items())
    EXPECT_TRUE(table_keys.count(key))
        << key << " is in the schema but the reader does not know it";
}
