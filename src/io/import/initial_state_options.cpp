// The initial-state options of load_scene (io/scene/scene.hpp ModelImportOptions): an SRDF's
// group_states as keyframes, the chosen keyframe and joint values as edits of the world's
// initial state (model/rigid/keyframe.hpp).
//
// SRDF (MoveIt's semantic robot description): <robot><group_state name group><joint name
// value/>…</group_state></robot>. States of one name for several groups are one keyframe. A
// joint's value is its coordinate (rad or m, the URDF joint position); joints with several values
// (floating, planar) are refused by name.
#include <algorithm>
#include <tinyxml2.h>

#include "moreau/common/error.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "srdf_file.hpp"

namespace moreau {
namespace {

// The names of the world's revolute and prismatic tree joints, for a message.
std::string coordinate_joints(const RigidWorld& w) {
  std::string out;
  int shown = 0;
  for (const Joint& j : w.joints()) {
    if (j.closure || (j.kind != JointKind::revolute && j.kind != JointKind::prismatic)) continue;
    if (shown++ < 8) out += (out.empty() ? "" : ", ") + j.name;
  }
  if (shown > 8) out += fmt::format(", … ({} in all)", shown);
  return out.empty() ? "none" : out;
}

// Throws naming `what` unless `name` is a revolute or prismatic joint of the tree.
void require_coordinate_joint(const RigidWorld& w, const std::string& name,
                              const std::string& what) {
  const auto it = std::find_if(w.joints().begin(), w.joints().end(),
                               [&](const Joint& j) { return j.name == name; });
  MOREAU_REQUIRE(it != w.joints().end() && !it->closure &&
                     (it->kind == JointKind::revolute || it->kind == JointKind::prismatic),
                 "{}: the model has no revolute or prismatic joint '{}' (its joints: {})", what,
                 name, coordinate_joints(w));
}

// The group_states of an SRDF file as keyframes of `w`.
void add_srdf_states(const std::string& path, RigidWorld& w) {
  tinyxml2::XMLDocument doc;
  const tinyxml2::XMLElement* robot = &import::read_srdf(path, doc);
  std::vector<Keyframe> states;
  for (const auto* g = robot->FirstChildElement("group_state"); g;
       g = g->NextSiblingElement("group_state")) {
    const char* name = g->Attribute("name");
    MOREAU_REQUIRE(name && *name, "{}:{}: <group_state> needs a name", path, g->GetLineNum());
    auto it = std::find_if(states.begin(), states.end(),
                           [&](const Keyframe& k) { return k.name == name; });
    if (it == states.end()) it = states.insert(states.end(), Keyframe{.name = name});
    for (const auto* j = g->FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
      const char* joint = j->Attribute("name");
      const char* value = j->Attribute("value");
      const std::string where = fmt::format("{}:{}: <group_state name=\"{}\"> <joint name=\"{}\">",
                                            path, j->GetLineNum(), name, joint ? joint : "");
      MOREAU_REQUIRE(joint && value, "{}: needs name and value", where);
      char* end = nullptr;
      const double x = std::strtod(value, &end);
      while (end && *end == ' ') ++end;
      MOREAU_REQUIRE(end != value && end && *end == '\0' && std::isfinite(x),
                     "{}: value = \"{}\": one finite number expected (joints with several "
                     "values, floating or planar, are not read)",
                     where, value);
      require_coordinate_joint(w, joint, where);
      it->q[std::string(joint) + ".q"] = x;
    }
  }
  for (Keyframe& k : states) {
    if (w.find_keyframe(k.name) != nullptr) continue;  // the model's own keyframe wins
    w.add_keyframe(std::move(k));
  }
}

}  // namespace

void apply_initial_state_options(Scene& scene, const ModelImportOptions& options) {
  const bool any = !options.srdf.empty() || !options.keyframe.empty() || !options.joints.empty() ||
                   !scene.base_pose_edits.q.empty();
  if (!any) return;
  MOREAU_REQUIRE(scene.world != nullptr,
                 "{}: keyframes, SRDF states and joint values start a rigid world; this scene "
                 "names a gallery system",
                 scene.source);
  RigidWorld& w = *scene.world;
  if (!options.srdf.empty()) add_srdf_states(options.srdf, w);
  if (!options.keyframe.empty()) {
    const Keyframe* k = w.find_keyframe(options.keyframe);
    if (k == nullptr) {
      std::string known;
      for (const Keyframe& x : w.keyframes()) known += (known.empty() ? "" : ", ") + x.name;
      throw_invalid("keyframe '{}': {} has none of that name (its keyframes: {})", options.keyframe,
                    scene.source, known.empty() ? "none" : known);
    }
    w.edit_initial_state(*k);
  }
  Keyframe joints;
  for (const auto& [name, value] : options.joints) {
    require_coordinate_joint(w, name, fmt::format("joint {} = {}", name, value));
    MOREAU_REQUIRE(std::isfinite(value), "joint {} = {}: not finite", name, value);
    joints.q[name + ".q"] = value;
  }
  w.edit_initial_state(joints);
  w.edit_initial_state(scene.base_pose_edits);  // the base pose last: a keyframe moves it not
}

}  // namespace moreau
