#pragma once
// The "integrator" object of a scene (and of Python's moreau.simulate(system, integrator={…})):
// one table row per key, naming the SimulationSettings field it sets, its type and its bounds.
// The reader fills a SimulationSettings directly from the table, so that the defaults are those
// of sim/simulation.hpp and nowhere else; docs/scene.schema.json lists the same keys, bounds and
// defaults, which tests/io/test_scene_schema.cpp checks against this table.
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "moreau/sim/simulation.hpp"

namespace moreau {

// One key of the "integrator" object.
struct IntegratorKey {
  // The field the key sets, as an accessor into SimulationSettings.
  using Field =
      std::variant<double& (*)(SimulationSettings&), int& (*)(SimulationSettings&),
                   bool& (*)(SimulationSettings&), std::string& (*)(SimulationSettings&),
                   Integrator& (*)(SimulationSettings&), PainlevePolicy& (*)(SimulationSettings&),
                   TimeSteppingScheme& (*)(SimulationSettings&),
                   NewtonLoop& (*)(SimulationSettings&)>;
  const char* key;         // the JSON key, e.g. "dt"
  Field field;             // the SimulationSettings field it sets
  double low = -INFINITY;  // bounds of a number or integer (−∞, ∞: none)
  double high = INFINITY;  // upper bound (∞: none)
  bool low_open = false;   // true: the bound itself is excluded (> instead of ≥)
  bool high_open = false;  // true: the upper bound is excluded (< instead of ≤)
  // One line for docs and messages.
  const char* meaning = "";
};

// Every key, in the order of docs/scene-format.md.
const std::vector<IntegratorKey>& integrator_keys();

// The value of a key's field in `settings`, as JSON (enums by name).
nlohmann::json integrator_value(const IntegratorKey& key, const SimulationSettings& settings);

// Reads an "integrator" object into `settings` (keys absent keep their value): unknown keys,
// wrong types, values out of bounds and unknown names throw std::invalid_argument naming the path,
// e.g. "integrator.theta = 2: must lie in [0, 1]".
void read_integrator_settings(const nlohmann::json& integrator, const std::string& path,
                              SimulationSettings& settings);

}  // namespace moreau
