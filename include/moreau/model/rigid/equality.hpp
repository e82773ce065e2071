#pragma once
// Tendons and couplings of a RigidWorld: constraints that joints alone do not state (MJCF
// <tendon> and <equality joint/tendon>, URDF <mimic>). They hold in joint coordinates
// (contact/rigid_world_system.hpp), as rows formed through the kinematic forest
// (docs/math/multibody.md §Tendons and couplings). MJCF <equality connect/weld> are joints with
// `closure` set (joint.hpp): they stay rows and never become tree joints.
//
// A tendon has a length L(q):
//   fixed     L = offset + Σ_j coef_j s_j over hinge and slide joints (s_j the joint coordinate,
//             0 at the initial poses);
//   spatial   L = Σ_k ‖x_{k+1} − x_k‖ over the sites x_k of its path, each a point fixed to a
//             body (or to the world), a polyline through them (no wrapping).
// A limited tendon holds lower ≤ L ≤ upper as unilateral rows: an upper bound is a rope.
//
// A coupling holds the first coordinate y (a joint's s or a tendon's L − L₀, L₀ its initial
// length) to a polynomial of the second x (0 when there is none), MuJoCo's <equality joint>:
//   y = a₀ + a₁ x + a₂ x² + a₃ x³ + a₄ x⁴.
// URDF's <mimic multiplier offset> is (a₀, a₁) = (offset, multiplier).
#include <array>
#include <string>
#include <vector>

#include "moreau/common/types.hpp"

namespace moreau {

// A term of a fixed tendon: coef × the coordinate of a joint.
struct TendonJoint {
  Index joint = 0;    // index in RigidWorld::joints() (revolute or prismatic, in the tree)
  double coef = 1.0;  // m/rad or 1
};

// A point of a spatial tendon's path, fixed to a body.
struct TendonSite {
  Index body = -1;                  // body index, −1 for the world frame
  Vector3 point = Vector3::Zero();  // in the body's frame (world frame for −1), m
};

// A fixed or spatial tendon (see the file comment): one of `joints` and `path` is non-empty.
struct Tendon {
  std::string name = {};                 // empty: add_tendon names it tendon0, tendon1, …
  std::vector<TendonJoint> joints = {};  // fixed: the terms of L
  double offset = 0.0;                   // fixed: the constant of L, m
  std::vector<TendonSite> path = {};     // spatial: ≥ 2 sites on at least one dynamic body
  bool limited = false;                  // lower ≤ L ≤ upper as unilateral rows
  double lower = 0.0;                    // m (−∞ for none)
  double upper = 0.0;                    // m (+∞ for none)
  double limit_restitution = 0.0;        // e ∈ [0, 1] of the bounds' impacts
};

// What a coupling couples.
enum class CouplingKind { joint, tendon };

// y = Σ a_k x^k (see the file comment) between two joints or two tendons.
struct Coupling {
  std::string name = {};                    // empty: add_coupling names it coupling0, …
  CouplingKind kind = CouplingKind::joint;  // joints or tendons
  Index first = 0;                          // the coupled joint or tendon (y)
  Index second = -1;                        // the driving one (x), −1 for none (x = 0)
  std::array<double, 5> polycoef = {0.0, 1.0, 0.0, 0.0, 0.0};  // a₀ … a₄
};

// Name of a coupling kind ("joint", "tendon").
std::string to_string(CouplingKind kind);
// The coupling kind of a name (throws std::invalid_argument naming it).
CouplingKind coupling_kind_from_string(const std::string& name);

}  // namespace moreau
