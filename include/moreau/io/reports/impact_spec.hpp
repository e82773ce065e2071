#pragma once
// Impact problems described in JSON (the SPEC format of docs/cli.md (moreau impact)), shared by
// `moreau impact SPEC.json` and the Python `moreau.impact(...)`:
//   in:  {"law": "compliant"|"newton"|"poisson"|"moreau"|"restitution_matrix"|"frictional",
//         "variant": "model"|"published" (compliant), "step": h (optional),
//         "bodies": [{"name", "mass", "inertia" (3×3, world axes), "com", "velocity",
//                     "angular_velocity"}],
//         "contacts": [{"bodies": ["ball", "ground"], "point", "normal", "mu", "e",
//                       "poisson_ratio" | "eta0_squared", "e_t", "stiffness"}], ...}
//   out: {"law", "status", "bodies": [{"name", "velocity", "angular_velocity"}],
//         "contacts": [{"impulse", "events": [{"kind", "normal_impulse"}], ...}],
//         "kinetic_energy": {"before", "after", "change"}, ...}
// Read by io/json/json_reader.hpp (unknown fields, non-finite numbers and duplicate keys are
// refused). Invalid input throws std::invalid_argument starting with `source` and naming the field
// and value; so does a result that is not finite (io/json/json_result.hpp: a SPEC whose velocities
// of 1e308 m/s overflow the arithmetic), which is never written as null.
#include <string>

#include <nlohmann/json.hpp>

#include "moreau/impact/rigid_bodies.hpp"

namespace moreau {

// Runs the law the SPEC names and returns its result (the document above); `source` (a file
// name) starts every message.
nlohmann::json run_impact(const nlohmann::json& spec, const std::string& source = "impact SPEC");

// run_impact on a SPEC file, read by io/json/json_reader.hpp (the path is the source).
nlohmann::json run_impact_file(const std::string& path);

// run_impact on JSON text, the result as JSON text (indented by `indent` spaces, −1 = compact):
// Python's moreau.impact.
std::string run_impact_json(const std::string& spec_json, int indent = 2,
                            const std::string& source = "impact SPEC");

}  // namespace moreau
