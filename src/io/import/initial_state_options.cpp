// The initial-state options of load_scene (io/scene/scene.hpp ModelImportOptions): an SRDF's
// group_states as keyframes, the chosen keyframe and joint values as edits of the world's
// initial state (model/rigid/keyframe.hpp).
//
// SRDF (MoveIt's semantic robot description): <robot><group_state name group><joint name
// value/>…</group_state></robot>. States of one name for several groups are one keyframe. A
// joint's value is its coordinate (rad or m, the URDF joint position); joints with several values
// (planar) are refused by name; a floating joint's seven (x y z qx qy qz qw, as Pinocchio reads
// them) place the floating base.
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

// The numbers of an SRDF joint value ("0. 0. 0.335 0. 0. 0. 1."), or none when one is not a
// finite number.
std::vector<double> numbers(const char* text) {
  std::vector<double> out;
  for (const char* p = text; *p;) {
    char* end = nullptr;
    const double x = std::strtod(p, &end);
    if (end == p || !std::isfinite(x)) return {};
    out.push_back(x);
    for (p = end; *p == ' ' || *p == '\t' || *p == '\n'; ++p) {
    }
  }
  return out;
}

// The world's floating base: its first dynamic body that no joint holds (a free root), or −1.
Index floating_base(const RigidWorld& w) {
  for (Index b = 0; b < w.body_count(); ++b) {
    if (w.body(b).is_static) continue;
    const bool held = std::any_of(w.joints().begin(), w.joints().end(),
                                  [&](const Joint& j) { return j.body_a == b; });
    if (!held) return b;
  }
  return -1;
}

// A floating joint's value x y z qx qy qz qw (Pinocchio's order: the root link frame's origin,
// then its quaternion, w last) as the free body's coordinates: its centre of mass p + R c, with c
// its place in the link frame F₀ it was imported at (body pose p₀ = F₀ ∘ c), and R.
void set_base_pose(const RigidWorld& w, Index b, const std::vector<double>& x,
                   const Pose& imported_frame, Keyframe& k, const std::string& where) {
  const Quaternion r(x[6], x[3], x[4], x[5]);
  MOREAU_REQUIRE(r.norm() > 1e-12, "{}: the quaternion qx qy qz qw is zero", where);
  const Pose& p0 = w.body(b).pose;
  const Vector3 c = p0.orientation.conjugate() * (p0.position - imported_frame.position);
  const Quaternion R = r.normalized();
  const Vector3 p = Vector3(x[0], x[1], x[2]) + R * c;
  const std::string& n = w.body(b).name;
  k.q[n + ".x"] = p.x(), k.q[n + ".y"] = p.y(), k.q[n + ".z"] = p.z();
  k.q[n + ".qw"] = R.w(), k.q[n + ".qx"] = R.x(), k.q[n + ".qy"] = R.y(), k.q[n + ".qz"] = R.z();
}

// The group_states of an SRDF file as keyframes of `w`; a floating joint's 7 values place the
// floating base (imported at `base_frame`), and are skipped with a warning when the base is
// welded.
void add_srdf_states(const std::string& path, RigidWorld& w, const Pose& base_frame,
                     std::vector<std::string>& warnings) {
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
      const std::vector<double> x = numbers(value);
      MOREAU_REQUIRE(x.size() == 1 || x.size() == 7,
                     "{}: value = \"{}\": one finite number expected, or seven for a floating "
                     "joint (x y z qx qy qz qw; planar joints are not read)",
                     where, value);
      if (x.size() == 7) {
        const Index base = floating_base(w);
        if (base < 0) {
          warnings.push_back(fmt::format(
              "{}: ignored: the model has no floating base (--floating-base frees a URDF's root)",
              where));
          continue;
        }
        set_base_pose(w, base, x, base_frame, *it, where);
        continue;
      }
      require_coordinate_joint(w, joint, where);
      it->q[std::string(joint) + ".q"] = x[0];
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
  if (!options.srdf.empty())
    add_srdf_states(options.srdf, w, options.base_pose.value_or(Pose{}), scene.warnings);
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
