#pragma once
// An explicit contact between two shapes of a RigidWorld (MuJoCo's <contact><pair>, and the
// contacts of the papers' systems in the gallery: a rod's end on the floor, a block's corners).
//
// A pair is always reported by contact detection, whatever its gap (its own margin is +∞), under
// its own name and with its own material; detection leaves its shape pair out of the automatic
// search, so it is never reported twice. The narrow phase gives its points as for any shape pair
// (a point or a disk on a plane gives one, feature 0); the point of feature 0 takes the pair's
// name, the others "<name>/<feature>". A bilateral pair keeps its gap at zero (a point held on a
// line or a plane, sliding with Coulomb friction μ, as the constrained pendulum of Brogliato 2014
// §2.3.7).
#include <optional>
#include <string>

#include "moreau/model/contact_state.hpp"
#include "moreau/model/rigid/contact_material.hpp"

namespace moreau {

// A contact between shape `shape_a` of body `body_a` and shape `shape_b` of body `body_b`.
struct ContactPair {
  std::string name;   // contact name; empty: add_contact_pair names it pair0, pair1, … by index
  Index body_a = 0;   // body index in the world
  Index shape_a = 0;  // shape index within body a
  Index body_b = 0;   // body index in the world
  Index shape_b = 0;  // shape index within body b
  ConstraintKind kind = ConstraintKind::unilateral;  // unilateral (gap ≥ 0) or bilateral (gap = 0)
  std::optional<ContactMaterial> material;           // none: the material of the body pair
};

}  // namespace moreau
