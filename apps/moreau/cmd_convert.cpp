// `moreau convert MODEL -o SCENE.json [--floating-base] [--ground]`: writes the scene that an MJCF
// or URDF model (or a scene file) loads into (io/scene/scene_write.hpp), so that it can be read,
// edited and run as `moreau simulate SCENE.json` with the same result as `moreau simulate MODEL`
// (docs/cli.md (moreau convert)). What the model had that moreau ignores is listed on stderr.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <memory>
#include <string>

#include "commands.hpp"
#include "moreau/io/os/atomic_file.hpp"
#include "moreau/io/scene/scene.hpp"
#include "moreau/io/scene/scene_write.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "moreau/io/json/vocabulary.hpp"

namespace moreau::cli {

void add_model_import_options(CLI::App& cmd, ModelImportOptions& options) {
  cmd.add_flag("--floating-base", options.floating_base,
               "URDF: the root link moves freely (default: welded to the world)");
  cmd.add_flag("--ground", options.ground, "URDF: add the ground plane z = 0");
  cmd.add_option("--package-dir", options.package_dirs,
                 "URDF: a package root, or a folder of packages, where package:// URIs are looked "
                 "for first; repeatable")
      ->check(CLI::ExistingDirectory);
  cmd.add_option("--keyframe", options.keyframe,
                 "Start from this keyframe (MJCF <keyframe>, an SRDF group_state, a scene's "
                 "keyframes)");
  cmd.add_option("--srdf", options.srdf, "An SRDF file whose group_states become keyframes")
      ->check(CLI::ExistingFile);
  cmd.add_option_function<std::vector<std::string>>(
         "--joint",
         [&options](const std::vector<std::string>& entries) {
           for (const std::string& e : entries) {
             const size_t eq = e.find('=');
             char* end = nullptr;
             const double x = eq == std::string::npos ? 0.0 : std::strtod(e.c_str() + eq + 1, &end);
             if (eq == std::string::npos || eq == 0 || end == e.c_str() + eq + 1 || *end != '\0')
               throw CLI::ValidationError("--joint", "'" + e + "': expected NAME=VALUE");
             options.joints.emplace_back(e.substr(0, eq), x);
           }
         },
         "Start with this joint at VALUE (rad or m), NAME=VALUE; repeatable")
      ->allow_extra_args(false)
      ->take_all();
  cmd.add_option_function<std::vector<double>>(
         "--base-pose",
         [&options](const std::vector<double>& x) {
           if (x.size() != 3 && x.size() != 7)
             throw CLI::ValidationError("--base-pose", "give X Y Z or X Y Z QW QX QY QZ");
           Pose p;
           p.position = Vector3(x[0], x[1], x[2]);
           if (x.size() == 7) {
             const Quaternion q(x[3], x[4], x[5], x[6]);  // w first, as MuJoCo
             if (!(q.norm() > 1e-12))
               throw CLI::ValidationError("--base-pose", "the quaternion QW QX QY QZ is zero");
             p.orientation = q.normalized();
           }
           options.base_pose = p;
         },
         "The floating base's pose: X Y Z [QW QX QY QZ] (m; quaternion w first, as MuJoCo)")
      ->expected(3, 7);
  cmd.add_flag("--self-collision", options.self_collision,
               "URDF: links collide with each other, but for adjacent links and the SRDF's "
               "disable_collisions pairs (default: a robot never collides with itself)");
  cmd.add_flag("--balance-inertia", options.balance_inertia,
               "URDF: an inertia breaking the triangle inequality gets the mean of its principal "
               "moments (MuJoCo's balanceinertia) instead of an error");
  cmd.add_option_function<std::string>(
      "--initial-overlap",
      [&options](const std::string& mode) {
        options.initial_overlap = enum_from_name<InitialOverlap>(mode, "--initial-overlap");
      },
      "Bodies that interpenetrate at the start: resolve (separate them, the default), ignore "
      "(no contact until they separate) or refuse");
}

void add_convert_command(CLI::App& app) {
  struct Options {
    std::string model, out;
    ModelImportOptions import;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd =
      app.add_subcommand("convert", "Write the scene JSON of an MJCF (.xml) or URDF (.urdf) model");
  cmd->add_option("model", opt->model, "MJCF .xml, URDF .urdf or scene .json file")->required();
  cmd->add_option("-o,--out", opt->out, "Scene file to write (JSON)")->required();
  add_model_import_options(*cmd, opt->import);
  cmd->footer(
      "Examples:\n"
      "  moreau convert examples/mjcf/door.xml -o door.json\n"
      "  moreau convert examples/urdf/two_link_arm.urdf --ground -o arm.json");
  cmd->callback([opt] {
    const Scene scene = load_scene(opt->model, opt->import);
    for (const auto& w : scene.warnings) std::fprintf(stderr, "moreau: warning: %s\n", w.c_str());
    write_file_atomically(opt->out, scene_to_json(scene).dump(2) + "\n");
    if (verbosity > 0)
      std::printf("wrote %s (%ld bodies, %zu joints)\n", opt->out.c_str(),
                  static_cast<long>(scene.world->body_count()), scene.world->joints().size());
  });
}

}  // namespace moreau::cli
