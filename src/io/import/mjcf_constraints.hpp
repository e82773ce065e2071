#pragma once
// MJCF's <tendon>, <equality> and <actuator> sections (MuJoCo XML reference §tendon, §equality,
// §actuator), added to a built world as tendons, couplings, closure joints
// (model/rigid/equality.hpp) and actuators (model/rigid/actuator.hpp).
#include <map>
#include <string>
#include <vector>

#include "body_tree.hpp"
#include "mjcf_reader.hpp"

namespace moreau::mjcf {

// A named <site>: its body (index into the tree) and its point in the world at the model's pose.
struct SiteSpec {
  int body = 0;                     // tree body
  Vector3 world = Vector3::Zero();  // m
  std::string where = {};           // "FILE:LINE: <site>"
};

// What the constraint sections need from the rest of the file, gathered while reading it.
struct Constraints {
  std::map<std::string, SiteSpec> sites;                       // by name
  std::vector<const tinyxml2::XMLElement*> tendon_sections;    // <tendon>, in order
  std::vector<const tinyxml2::XMLElement*> equality_sections;  // <equality>, in order
  std::vector<const tinyxml2::XMLElement*> actuator_sections;  // <actuator>, in order
  std::vector<const tinyxml2::XMLElement*> keyframe_sections;  // <keyframe>, in order
};

// Adds the tendons, then the equalities, to `world`, built from `bodies` (moreau_body maps each
// tree body to its moreau body). Fails through `reader` naming the element and attribute.
void add_constraints(Reader& reader, const std::vector<import::TreeBody>& bodies,
                     const std::vector<Index>& moreau_body, const Constraints& model,
                     RigidWorld& world);

// Adds the actuators of the <actuator> sections to `world` (mjcf_actuators.cpp); `bodies` give the
// joints' ref (MuJoCo's length is gear × qpos, qpos = s + ref).
void add_actuators(Reader& reader, const std::vector<import::TreeBody>& bodies,
                   const Constraints& model, RigidWorld& world);

// Adds the <key> elements of the <keyframe> sections to `world` as keyframes whose entries name
// moreau's coordinates (mjcf_keyframes.cpp: MuJoCo's qpos and qvel converted), after the
// actuators (ctrl names them).
void add_keyframes(Reader& reader, const std::vector<import::TreeBody>& bodies,
                   const std::vector<Index>& moreau_body, const Constraints& model,
                   RigidWorld& world);

// The initial-state edits that place the first body with a free joint so that its body frame F
// is at `pose` (its coordinates p_G = p + R c and the orientation R); throws naming `source` when
// the model has no free body.
Keyframe free_base_placement(const std::vector<import::TreeBody>& bodies,
                             const std::vector<Index>& moreau_body, const Pose& pose,
                             const std::string& source, const RigidWorld& world);

}  // namespace moreau::mjcf
