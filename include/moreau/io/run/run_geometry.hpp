#pragma once
// geometry.json: what a run's bodies look like, written by `moreau simulate` next to the
// trajectory (CSV folder or run.h5) so that `moreau view` can draw the run (docs/run-format.md
// §geometry.json):
//   {"moreau_geometry_version": 1, "system": NAME, "dimension": 2 | 3,
//    "position_size": nq, "velocity_size": nv,
//    "bodies": [{"name", "static", "q_offset" (index of the body's first coordinate in q, −1 for a
//                static body), "position" [3], "orientation" [w, x, y, z] (the static pose, the
//                initial one for a dynamic body), "shapes": [{"kind", "name", "position" [3],
//                "orientation" [w, x, y, z] (offset in the body frame), and per kind: sphere
//                radius; box half_extents [3]; capsule radius, half_length (axis x); cylinder
//                radius, half_length (axis z); plane normal [3], offset_distance (n·x ≤ d before
//                the offset); convex vertices [[3]…], radius}]}],
//    "contact_pairs": [{"name", "body_a", "shape_a", "body_b", "shape_b"}]}
// (the explicit contact pairs, model/rigid/contact_pair.hpp, by body and shape index). A system
// that is not a rigid world (a system scene, a callback system) has no bodies and no pairs.
#include <string>

#include <nlohmann/json.hpp>

#include "moreau/model/lagrangian_system.hpp"
#include "moreau/model/rigid/rigid_world.hpp"

namespace moreau {

// The layout's version, the field "moreau_geometry_version".
inline constexpr int kRunGeometryVersion = 1;

// The geometry.json text of the system a run simulated (bodies and contact pairs of a
// RigidWorldSystem, none for any other system); `dimension` is the run's
// (SimulationResult::dimension).
std::string run_geometry_json(const LagrangianSystem& system, int dimension);

// A RigidWorld with the bodies, shapes and contact pairs of a geometry.json document, for
// kinematics and contact detection only: dynamic bodies get unit masses and inertias.
// std::invalid_argument naming `source` and the field for a document that is not a valid
// geometry.json.
RigidWorld world_from_geometry(const nlohmann::json& document, const std::string& source);

}  // namespace moreau
