#pragma once
// The "tendons", "equality" and "actuators" lists of the rigid-world JSON form
// (docs/scene-format.md §Tendons and equalities, §Actuators), read after the bodies and joints and
// written with them.
#include <nlohmann/json.hpp>

#include "moreau/model/rigid/rigid_world.hpp"

namespace moreau::detail {

// Adds doc's "tendons", "equality" and "actuators" entries, in that order, to w (errors name the
// entry and field).
void read_tendons_and_equalities(RigidWorld& w, const nlohmann::json& doc);
// Writes w's tendons, closure joints, couplings and actuators as "tendons", "equality" and
// "actuators" (when any).
void write_tendons_and_equalities(const RigidWorld& w, nlohmann::json& doc);

}  // namespace moreau::detail
