#include "moreau/io/import/load_scene.hpp"

#include <filesystem>

#include "moreau/io/import/mjcf.hpp"
#include "moreau/io/import/urdf.hpp"
#include "moreau/io/json/json_reader.hpp"

namespace moreau {

Scene load_scene(const std::string& path, const ModelImportOptions& options) {
  const std::string ext = std::filesystem::path(path).extension().string();
  if (ext == ".xml" || ext == ".mjcf") return load_mjcf(path);
  if (ext == ".urdf") return load_urdf(path, options);
  Scene s = json_io::with_source(path, [&] { return parse_scene(json_io::read_file(path), path); });
  s.name = std::filesystem::path(path).stem().string();
  return s;
}

}  // namespace moreau
