#include "moreau/model/rigid/joint.hpp"

#include "moreau/common/error.hpp"
#include "moreau/model/rigid/equality.hpp"

namespace moreau {

std::string to_string(JointKind kind) {
  switch (kind) {
    case JointKind::revolute:
      return "revolute";
    case JointKind::prismatic:
      return "prismatic";
    case JointKind::fixed:
      return "fixed";
    case JointKind::ball:
      return "ball";
  }
  return "?";
}

JointKind joint_kind_from_string(const std::string& name) {
  if (name == "revolute") return JointKind::revolute;
  if (name == "prismatic") return JointKind::prismatic;
  if (name == "fixed") return JointKind::fixed;
  if (name == "ball") return JointKind::ball;
  throw_invalid("unknown joint type '{}' (expected revolute, prismatic, fixed, ball)", name);
}

Index Joint::rows(int dimension) const {
  if (kind == JointKind::ball) return dimension == 2 ? 2 : 3;
  if (dimension == 2) return kind == JointKind::fixed ? 3 : 2;
  return kind == JointKind::fixed ? 6 : 5;
}

std::string to_string(CouplingKind kind) {
  return kind == CouplingKind::joint ? "joint" : "tendon";
}

CouplingKind coupling_kind_from_string(const std::string& name) {
  if (name == "joint") return CouplingKind::joint;
  if (name == "tendon") return CouplingKind::tendon;
  throw_invalid("unknown coupling type '{}' (expected joint, tendon)", name);
}

}  // namespace moreau
