#pragma once
// A model file of any kind read as a Scene, chosen by its extension: a JSON scene
// (io/scene/scene.hpp), MJCF (io/import/mjcf.hpp) or URDF (io/import/urdf.hpp).
#include <string>

#include "moreau/io/scene/scene.hpp"

namespace moreau {

// Reads a file (missing / unreadable → std::invalid_argument naming the path); name = file stem.
// A path ending in .xml or .mjcf is read as MJCF, .urdf as URDF with `options`, anything else
// as a JSON scene; then the initial-state options apply (apply_initial_state_options).
Scene load_scene(const std::string& path, const ModelImportOptions& options = {});

// The initial-state options on a loaded scene's world: the SRDF's group_states become keyframes
// (a state of the model's own name is kept), then the keyframe, the joint values and an MJCF
// base pose (Scene::base_pose_edits) edit the initial state (RigidWorld::edit_initial_state).
// Unknown names are refused, naming them and what the model has.
void apply_initial_state_options(Scene& scene, const ModelImportOptions& options);

}  // namespace moreau
