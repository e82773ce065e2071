#pragma once
// The `system` object of a scene (docs/scene-format.md §System): a linear time-invariant
// Lagrangian system in generalized coordinates (model/linear_system.hpp) with its initial state.
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "moreau/model/linear_system.hpp"

namespace moreau {

// Reads `system` (path "system"): coordinates, mass, stiffness, damping, force, q0, v0 and
// relations. Every error names the field path and the value, e.g.
// "system.mass: not positive definite (smallest eigenvalue -1)". `name` names the system.
std::shared_ptr<LinearSystem> parse_system_object(const nlohmann::json& system,
                                                  const std::string& name);

}  // namespace moreau
