#pragma once
// JSON scene files (docs/scene-format.md, docs/scene.schema.json): a RigidWorld (bodies,
// shapes, joints, contact materials, gravity), a gallery system by name or a linear system in
// generalized coordinates (io/scene/system_scene.hpp), with the integrator
// settings, t_end and the output options.
//
// Loading validates everything and throws std::invalid_argument with the field path and the
// value, e.g. "bodies[2].mass = -1: mass must be > 0". Unknown fields are rejected, numbers must
// be JSON numbers (strings, null, booleans in number places are errors), and an initial
// configuration with a contact gap < −contact.tolerance is rejected with the pair named.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "moreau/contact/collision/world_contacts.hpp"
#include "moreau/model/linear_system.hpp"
#include "moreau/model/rigid/rigid_world.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {

// The "output" object.
struct SceneOutput {
  std::string dir;        // output folder ("" = chosen by the caller, e.g. out/<scene name>)
  int every = 1;          // record every k-th step, ≥ 1
  double interval = 0.0;  // s, > 0: record at t = k·interval (integrator.record_interval)
  // Write plot.png: unset draws it from `moreau simulate` (unless --no-plot) and not from
  // Python, which draws it when asked (plot=True or this set true).
  std::optional<bool> plot;
  // "csv" (four files) or "hdf5" (run.h5), io/run/simulation_output.hpp
  std::string format = "csv";
};

// A scene file read and validated: the world (or gallery system), integrator and output.
struct Scene {
  std::string name;         // file stem, or "scene"
  std::string source;       // the path (or source name) that starts every error message
  std::string description;  // the one-line "description" field
  int dimension = 3;        // 2 or 3
  // The rigid world (null for a gallery scene).
  std::shared_ptr<RigidWorld> world;
  // "contact": margin, tolerance (initial_tolerance), self_collision, initial_overlap
  CollisionSettings collision;
  // Gallery scene: "gallery": NAME and "params": {…} (stored raw; the gallery's
  // make_gallery_system(name, params) builds the system; not called here).
  std::string gallery;                                       // gallery system name
  nlohmann::json gallery_params = nlohmann::json::object();  // its "params" object
  // System scene: "system": {…} (io/scene/system_scene.hpp), with its initial state.
  std::shared_ptr<LinearSystem> system;
  // The "integrator" object (io/scene/integrator_settings.hpp) and "t_end" (s, > 0).
  SimulationSettings settings;
  SceneOutput output;  // the "output" object
  // What an imported model (MJCF, URDF) had that moreau cannot honour and ignored, one line per
  // attribute ("FILE:LINE: <geom solref> ignored: …"); the command line prints them on stderr.
  std::vector<std::string> warnings;
  // An MJCF model's base pose (ModelImportOptions::base_pose) as edits of the initial state,
  // applied after the keyframe and joint values (apply_initial_state_options); empty otherwise.
  Keyframe base_pose_edits;

  // True for a scene that names a gallery system instead of bodies.
  bool is_gallery() const { return !gallery.empty(); }
  // True for a scene in generalized coordinates (the "system" object).
  bool is_system() const { return system != nullptr; }
};

// Contact detection margin of an imported model (MJCF, URDF), m: contacts are seen 1 cm ahead,
// so that a body at up to 10 m/s does not cross it within a 1 ms step unseen (the scene default
// of 1 mm suits hand-written scenes, which set their own).
inline constexpr double kImportedContactMargin = 0.01;

// How model files are placed and started (URDF: io/import/urdf.hpp; docs/simulator.md §Initial
// states). The initial-state options apply to any model file (load_scene).
struct ModelImportOptions {
  bool floating_base = false;  // URDF: false welds the root link to the world; true frees it
  bool ground = false;         // URDF: true adds the ground plane z = 0 (a half-space z ≤ 0)
  // URDF: folders where package://NAME/… URIs are looked for first, each a package root or a
  // folder of packages (then ROS_PACKAGE_PATH, AMENT_PREFIX_PATH and the folders above the file;
  // io/import/package_uri.hpp).
  std::vector<std::string> package_dirs = {};
  // The base's frame in the world: a URDF's root link (fixed or floating), an MJCF model's first
  // body with a free joint (its body frame). Unset: where the file puts it.
  std::optional<Pose> base_pose;
  // An SRDF file whose group_states become keyframes (one value per named joint).
  std::string srdf = {};
  // The keyframe the initial state takes ("": none).
  std::string keyframe = {};
  // Joint coordinates of the initial state, by joint name (hinge rad, slide m), after the
  // keyframe: a URDF's joint positions, an MJCF joint's qpos − ref.
  std::vector<std::pair<std::string, double>> joints = {};
  // URDF: true lets the robot's links collide with each other (contact.self_collision), but for
  // links adjacent in the tree and the SRDF's <disable_collisions> pairs (docs/urdf.md).
  bool self_collision = false;
  // URDF: an inertia whose principal moments break the triangle inequality gets their mean on
  // each (MuJoCo's balanceinertia) instead of being refused.
  bool balance_inertia = false;
  // contact.initial_overlap of the scene, when given (resolve, ignore, refuse).
  std::optional<InitialOverlap> initial_overlap = std::nullopt;
};

// Parses and validates a scene. `source` names the file in error messages.
Scene parse_scene(const nlohmann::json& document, const std::string& source = "scene");
// Same from JSON text (syntax errors → std::invalid_argument with the line).
Scene parse_scene_text(const std::string& text, const std::string& source = "scene");
// load_scene (a model file of any kind, by its extension) is in io/import/load_scene.hpp.

// Throws std::invalid_argument when an explicit bilateral pair is open (|gap| above
// max(1e-6, 10·tolerance)) or a joint is violated at the bodies' poses of the file, naming them.
// The start pose's overlaps and joint ranges are made valid when the world's system is built
// (contact/rigid_world_system.hpp §Start pose), so that a converted scene can be fixed by hand.
void check_joints_hold(const RigidWorld& world, double tolerance);

}  // namespace moreau
