#pragma once
// A model file of any kind read as a Scene, chosen by its extension: a JSON scene
// (io/scene/scene.hpp), MJCF (io/import/mjcf.hpp) or URDF (io/import/urdf.hpp).
#include <string>

#include "moreau/io/scene/scene.hpp"

namespace moreau {

// Reads a file (missing / unreadable → std::invalid_argument naming the path); name = file stem.
// A path ending in .xml or .mjcf is read as MJCF, .urdf as URDF with `options`, anything else
// as a JSON scene.
Scene load_scene(const std::string& path, const ModelImportOptions& options = {});

}  // namespace moreau
