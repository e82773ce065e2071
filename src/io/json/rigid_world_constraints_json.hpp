#pragma once
// The "tendons" and "equality" lists of the rigid-world JSON form (docs/scene-format.md
// §Tendons and equalities), read after the bodies and joints and written with them.
#include <nlohmann/json.hpp>

#include "moreau/model/rigid/rigid_world.hpp"

namespace moreau::detail {

// Adds doc's "tendons", then its "equality" entries, to w (errors name the entry and field).
void read_tendons_and_equalities(RigidWorld& w, const nlohmann::json& doc);
// Writes w's tendons, closure joints and couplings as "tendons" and "equality" (when any).
void write_tendons_and_equalities(const RigidWorld& w, nlohmann::json& doc);

}  // namespace moreau::detail
