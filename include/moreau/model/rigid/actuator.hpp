#pragma once
// Actuators of a RigidWorld: a force on one joint's coordinate driven by a control input ctrl
// (MuJoCo's <actuator> with a joint transmission and no activation dynamics; docs/simulator.md
// §Actuators). With the joint coordinate s and its rate ṡ:
//   length l = gear s,  velocity l̇ = gear ṡ,
//   force  f = gain · clamp(ctrl) + b₀ + b₁ l + b₂ l̇,   clamped to [force_lower, force_upper]
//          when force_limited,
//   generalized force τ = gear · f on the joint's velocity.
// motor: gain 1, b = 0; position servo: gain kp, b₁ = −kp (b₂ = −kv); velocity servo: gain kv,
// b₂ = −kv. The state feedback −b₁ gear² and −b₂ gear² are a spring and a damper on the joint,
// integrated linearly implicitly as joint springs are (docs/simulation.md §Passive joint forces);
// a saturated force is a constant for its step.
#include <array>
#include <string>

#include "moreau/common/types.hpp"

namespace moreau {

// One actuator (see the file comment).
struct Actuator {
  std::string name = {};                   // empty: add_actuator names it actuator0, …
  Index joint = 0;                         // the driven joint (revolute or prismatic, of the tree)
  double gear = 1.0;                       // l = gear s
  double gain = 1.0;                       // N or N·m per unit of ctrl
  std::array<double, 3> bias = {0, 0, 0};  // b₀ (N), b₁ (N/m of l), b₂ (N·s/m of l)
  bool ctrl_limited = false;               // ctrl clamped to [ctrl_lower, ctrl_upper]
  double ctrl_lower = 0.0;                 // the clamp's bounds
  double ctrl_upper = 0.0;                 // (ctrl_lower ≤ ctrl_upper)
  bool force_limited = false;              // f clamped to [force_lower, force_upper]
  double force_lower = 0.0;                // N or N·m
  double force_upper = 0.0;                // N or N·m
};

}  // namespace moreau
