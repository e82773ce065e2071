#include "moreau/io/import/load_scene.hpp"

#include <filesystem>

#include "moreau/common/error.hpp"
#include "moreau/io/import/mjcf.hpp"
#include "moreau/io/import/urdf.hpp"
#include "moreau/io/json/json_reader.hpp"

namespace moreau {

Scene load_scene(const std::string& path, const ModelImportOptions& options) {
  const std::string ext = std::filesystem::path(path).extension().string();
  Scene s;
  if (ext == ".xml" || ext == ".mjcf") {
    s = load_mjcf(path, options);
  } else if (ext == ".urdf") {
    s = load_urdf(path, options);
  } else {
    MOREAU_REQUIRE(!options.base_pose,
                   "{}: a base pose places a URDF or MJCF model; a scene "
                   "gives its bodies' poses itself",
                   path);
    s = json_io::with_source(path, [&] { return parse_scene(json_io::read_file(path), path); });
    s.name = std::filesystem::path(path).stem().string();
  }
  if (options.initial_overlap) s.collision.initial_overlap = *options.initial_overlap;
  apply_initial_state_options(s, options);
  return s;
}

}  // namespace moreau
