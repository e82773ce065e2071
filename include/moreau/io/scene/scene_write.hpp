#pragma once
// A Scene written back as a scene file (docs/scene-format.md): what `moreau convert` writes for an
// imported model (MJCF, URDF), and what loads back into the same world and settings.
#include <string>

#include <nlohmann/json.hpp>

#include "moreau/io/scene/scene.hpp"

namespace moreau {

// The scene document of a rigid-body scene: bodies (full inertia, pose, velocities, loads,
// shapes with their filters and friction), joints with limits, contact settings and materials,
// explicit pairs, the integrator keys that differ from the defaults, t_end and output. Planes
// are written in their body's frame. Throws std::invalid_argument for a gallery or system scene.
nlohmann::json scene_to_json(const Scene& scene);

}  // namespace moreau
