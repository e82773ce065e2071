#pragma once
// geometry.json: what a run's bodies look like, written by `moreau simulate` next to the
// trajectory (CSV folder or run.h5) so that `moreau view` can draw the run (docs/run-format.md
// §geometry.json):
//   {"moreau_geometry_version": 2, "system": NAME, "dimension": 2 | 3,
//    "position_size": nq, "velocity_size": nv,
//    then the run's rigid world in the one JSON form of scenes (io/json/rigid_world_json.hpp):
//    "gravity", "contact", "joints", "bodies" (one body a line; the bodies' coordinates follow
//    in q in their order, RigidWorld::position_offset)}.
// A system that is not a rigid world (a system scene, a callback system) has no bodies.
// Version 1 (moreau 0.2) had a form of its own ("kind", 3-vectors); it is refused by name.
#include <string>

#include <nlohmann/json.hpp>

#include "moreau/model/lagrangian_system.hpp"
#include "moreau/model/rigid/rigid_world.hpp"

namespace moreau {

// The layout's version, the field "moreau_geometry_version".
inline constexpr int kRunGeometryVersion = 2;

// The geometry.json text of the system a run simulated (bodies and contact pairs of a
// RigidWorldSystem, none for any other system); `dimension` is the run's
// (SimulationResult::dimension).
std::string run_geometry_json(const LagrangianSystem& system, int dimension);

// The RigidWorld of a geometry.json document (bodies with their masses, shapes, joints,
// materials and contact pairs).
// std::invalid_argument naming `source` and the field for a document that is not a valid
// geometry.json.
RigidWorld world_from_geometry(const nlohmann::json& document, const std::string& source);

}  // namespace moreau
