#pragma once
// The one JSON form of a rigid world (docs/scene-format.md §Bodies, §Shapes, §Joints, §Contact):
// what a scene file's rigid part reads and `moreau convert` writes (io/scene/scene.hpp,
// io/scene/scene_write.hpp), and what a run's geometry.json holds (io/run/run_geometry.hpp).
// A new shape or joint type is read and written here, once. The form, at the top level of a
// document:
//   "dimension": 2 | 3, "gravity": [d], "static_shapes": [shape…] (a static body "ground"),
//   "bodies": [{"name", "static", "mass", "inertia", "position", "orientation" | "axis_angle"
//               (3D) | "angle" (2D), "velocity", "angular_velocity", "force", "torque",
//               "shapes": [{"type", "name", per type its sizes, "position", "orientation",
//                           "contype", "conaffinity", "mu", "priority"}]}],
//   "joints": [{"type", "name", "body_a", "body_b" (a name, or "world"), "anchor_a",
//               "anchor_b", "axis", "limits": [lower | null, upper | null]}],
//   "contact": {"default": material, "pairs": [material + "bodies": [a, b]],
//               "explicit": [{"name", "body_a", "shape_a", "body_b", "shape_b", "kind"} +
//                            material], "exclude": [[a, b]…]}
// with a material {"mu", "e", "law", "gamma", "alpha", "beta"}; vectors have d entries (2D: the
// plane z = 0). Reading checks every field and throws std::invalid_argument naming its path and
// value (io/json/json_reader.hpp rules).
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "moreau/model/rigid/rigid_world.hpp"

namespace moreau {

// The keys of the form above at the top level of a document.
inline const std::set<std::string> kRigidWorldKeys = {
    "dimension", "gravity",   "static_shapes", "bodies",  "joints", "tendons",
    "equality",  "actuators", "keyframes",     "initial", "contact"};

// What a reader of the form adds to it.
struct RigidWorldReadOptions {
  // Keys of "contact" that the caller reads itself (a scene's margin and tolerance).
  std::set<std::string> contact_keys;
  // Refuse a world without a dynamic body (a scene must move something).
  bool require_dynamic_body = false;
  // The folder that relative paths (a visual's mesh file) are taken from: the scene's.
  std::string folder;
};

// The rigid world of a document's keys above ("dimension" and "bodies" required).
RigidWorld rigid_world_from_json(const nlohmann::json& document,
                                 const RigidWorldReadOptions& options = {});
// The form above of a world: dimension, gravity, bodies, joints (when it has any) and contact
// (default material, pair materials, explicit pairs, exclusions). Reading it back gives the
// same world (planes keep their half-space, not their offset pose).
nlohmann::json rigid_world_to_json(const RigidWorld& world);

}  // namespace moreau
