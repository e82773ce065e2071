#pragma once
// JSON scene files (docs/scene-format.md, docs/scene.schema.json): a RigidWorld (bodies,
// shapes, joints, contact materials, gravity) or a gallery system by name, with the integrator
// settings, t_end and the output options.
//
// Loading validates everything and throws std::invalid_argument with the field path and the
// value, e.g. "bodies[2].mass = -1: mass must be > 0". Unknown fields are rejected, numbers must
// be JSON numbers (strings, null, booleans in number places are errors), and an initial
// configuration with a contact gap < −contact.tolerance is rejected with the pair named.
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "moreau/contact/collision/world_contacts.hpp"
#include "moreau/model/rigid/rigid_world.hpp"

namespace moreau {

// The "integrator" object. Field names match sim/simulation.hpp's SimulationSettings where they
// exist; values not given keep these defaults.
struct SceneIntegrator {
  std::string kind = "timestepping";   // "timestepping" | "event"
  double dt = 1e-3;                    // s, time step (timestepping)
  double theta = 0.5;                  // θ ∈ [0, 1] (timestepping)
  double tolerance = 1e-10;            // solver tolerance (timestepping), > 0
  std::string solver = "auto";         // frictional contact solver name
  int max_iterations = 2000;           // solver iterations, ≥ 1
  bool projection = true;              // position projection after each step
  double relaxation = 1.7;             // over-relaxation ω ∈ (0, 2) of body-block NSGS (timestepping)
  double activation_margin = 1e-6;     // m
  double rtol = 1e-10;                 // event-driven relative tolerance, > 0
  double atol = 1e-12;                 // event-driven absolute tolerance, > 0
  double max_step = 1e-2;              // s, event-driven largest smooth step
  std::string painleve_policy = "tangential_impact";  // event-driven: "tangential_impact"|"stop"
  double baumgarte_alpha = 10.0;       // 1/s (event-driven drift stabilization), ≥ 0
  double baumgarte_beta = 10.0;        // 1/s, ≥ 0
  // Fields present in the file (so that a consumer can tell defaults from explicit values).
  std::vector<std::string> given;
};

// The "output" object.
struct SceneOutput {
  std::string dir;        // output folder ("" = chosen by the caller, e.g. out/<scene name>)
  int every = 1;          // record every k-th step, ≥ 1
  bool plot = true;       // write plot.png
};

// A scene file read and validated: the world (or gallery system), integrator and output.
struct Scene {
  std::string name;                 // file stem, or "scene"
  std::string description;          // the one-line "description" field
  int dimension = 3;                // 2 or 3
  // The rigid world (null for a gallery scene).
  std::shared_ptr<RigidWorld> world;
  CollisionSettings collision;      // "contact": margin etc.
  double contact_tolerance = 1e-6;  // m, largest initial penetration accepted
  // Gallery scene: "gallery": NAME and "params": {…} (stored raw; the gallery's
  // make_gallery_system(name, params) builds the system; not called here).
  std::string gallery;
  nlohmann::json gallery_params = nlohmann::json::object();
  SceneIntegrator integrator;
  double t_end = 1.0;               // s, > 0
  SceneOutput output;

  bool is_gallery() const { return !gallery.empty(); }
};

// Parses and validates an "integrator" object alone (Python's moreau.simulate(system,
// integrator={...}) names its settings as a scene does); `path` prefixes the messages.
SceneIntegrator parse_scene_integrator(const nlohmann::json& integrator, const std::string& path = "integrator");

// Parses and validates a scene. `source` names the file in error messages.
Scene parse_scene(const nlohmann::json& document, const std::string& source = "scene");
// Same from JSON text (syntax errors → std::invalid_argument with the line).
Scene parse_scene_text(const std::string& text, const std::string& source = "scene");
// Reads a file (missing / unreadable → std::invalid_argument naming the path); name = file stem.
Scene load_scene(const std::string& path);

}  // namespace moreau
