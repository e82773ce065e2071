#pragma once
// Named states of a RigidWorld (MuJoCo's <keyframe>, an SRDF's group_state), and the edits that
// make a world's initial state (docs/simulator.md §Initial states). A keyframe names the entries
// it sets: coordinates by the system's position names ("elbow.q", "torso.x" … "torso.qz",
// "shoulder.qw" …), velocities by its velocity names ("elbow.v", "torso.vx" …), controls by
// actuator name. Entries it does not name keep the model's initial position, zero velocity and
// zero control. Names are resolved when a system is built from the world (an unknown name is
// refused there, naming it), so the world need not know its coordinates' order.
#include <map>
#include <string>

namespace moreau {

// One named state (see the file comment).
struct Keyframe {
  std::string name = {};                    // unique within the world (empty: key0, key1, …)
  std::map<std::string, double> q = {};     // coordinate name → value (rad, m, quaternion part)
  std::map<std::string, double> v = {};     // velocity name → value (rad/s, m/s)
  std::map<std::string, double> ctrl = {};  // actuator name → control
};

}  // namespace moreau
