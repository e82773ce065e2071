// RigidWorld's tendons, couplings (model/rigid/equality.hpp) and actuators
// (model/rigid/actuator.hpp): validation on insertion.
#include <cmath>
#include <tuple>

#include "moreau/common/error.hpp"
#include "moreau/model/rigid/rigid_world.hpp"

namespace moreau {
namespace {

// True for a joint with one coordinate in the tree (revolute or prismatic, not a closure).
bool has_coordinate(const Joint& j) {
  return !j.closure && (j.kind == JointKind::revolute || j.kind == JointKind::prismatic);
}

}  // namespace

Index RigidWorld::add_tendon(Tendon t) {
  const Index k = static_cast<Index>(tendons_.size());
  if (t.name.empty()) t.name = fmt::format("tendon{}", k);
  for (const Tendon& o : tendons_)
    MOREAU_REQUIRE(o.name != t.name, "tendons[{}].name = '{}': already used", k, t.name);
  MOREAU_REQUIRE(t.joints.empty() != t.path.empty(),
                 "tendons[{}] ('{}'): give either joints (a fixed tendon) or a path of sites (a "
                 "spatial tendon)",
                 k, t.name);
  for (size_t i = 0; i < t.joints.size(); ++i) {
    const TendonJoint& term = t.joints[i];
    MOREAU_REQUIRE(term.joint >= 0 && term.joint < static_cast<Index>(joints_.size()),
                   "tendons[{}] ('{}').joints[{}].joint = {}: no such joint", k, t.name, i,
                   term.joint);
    MOREAU_REQUIRE(has_coordinate(joints_[term.joint]),
                   "tendons[{}] ('{}').joints[{}]: joint '{}' is not a revolute or prismatic joint "
                   "of the tree",
                   k, t.name, i, joints_[term.joint].name);
    MOREAU_REQUIRE(std::isfinite(term.coef), "tendons[{}] ('{}').joints[{}].coef = {}: not finite",
                   k, t.name, i, term.coef);
  }
  MOREAU_REQUIRE(std::isfinite(t.offset), "tendons[{}] ('{}').offset = {}: not finite", k, t.name,
                 t.offset);
  if (!t.path.empty()) {
    MOREAU_REQUIRE(t.path.size() >= 2, "tendons[{}] ('{}').path: needs at least 2 sites, got {}", k,
                   t.name, t.path.size());
    bool moves = false;
    for (size_t i = 0; i < t.path.size(); ++i) {
      const TendonSite& s = t.path[i];
      MOREAU_REQUIRE(s.body >= -1 && s.body < body_count(),
                     "tendons[{}] ('{}').path[{}].body = {}: no such body", k, t.name, i, s.body);
      MOREAU_REQUIRE(all_finite(s.point), "tendons[{}] ('{}').path[{}].point: not finite", k,
                     t.name, i);
      MOREAU_REQUIRE(dimension_ == 3 || s.point.z() == 0.0,
                     "tendons[{}] ('{}').path[{}].point: planar sites need z = 0", k, t.name, i);
      moves = moves || (s.body >= 0 && !bodies_[s.body].is_static);
    }
    MOREAU_REQUIRE(moves, "tendons[{}] ('{}').path: no site is on a dynamic body", k, t.name);
  }
  if (t.limited)
    MOREAU_REQUIRE(!std::isnan(t.lower) && !std::isnan(t.upper) && t.lower <= t.upper,
                   "tendons[{}] ('{}').range = [{}, {}]: need lower ≤ upper", k, t.name, t.lower,
                   t.upper);
  MOREAU_REQUIRE(t.limit_restitution >= 0.0 && t.limit_restitution <= 1.0,
                 "tendons[{}] ('{}').limit_restitution = {}: must be in [0, 1]", k, t.name,
                 t.limit_restitution);
  tendons_.push_back(std::move(t));
  return k;
}

Index RigidWorld::add_coupling(Coupling c) {
  const Index k = static_cast<Index>(couplings_.size());
  if (c.name.empty()) c.name = fmt::format("coupling{}", k);
  for (const Coupling& o : couplings_)
    MOREAU_REQUIRE(o.name != c.name, "couplings[{}].name = '{}': already used", k, c.name);
  const bool joint = c.kind == CouplingKind::joint;
  const Index count =
      joint ? static_cast<Index>(joints_.size()) : static_cast<Index>(tendons_.size());
  const char* what = joint ? "joint" : "tendon";
  for (const auto& [field, index, optional] :
       {std::tuple{"first", c.first, false}, std::tuple{"second", c.second, true}}) {
    if (optional && index == -1) continue;
    MOREAU_REQUIRE(index >= 0 && index < count, "couplings[{}] ('{}').{} = {}: no such {}", k,
                   c.name, field, index, what);
    if (joint)
      MOREAU_REQUIRE(has_coordinate(joints_[index]),
                     "couplings[{}] ('{}').{}: joint '{}' is not a revolute or prismatic joint of "
                     "the tree",
                     k, c.name, field, joints_[index].name);
  }
  MOREAU_REQUIRE(c.first != c.second, "couplings[{}] ('{}'): a {} cannot be coupled to itself", k,
                 c.name, what);
  for (size_t i = 0; i < c.polycoef.size(); ++i)
    MOREAU_REQUIRE(std::isfinite(c.polycoef[i]),
                   "couplings[{}] ('{}').polycoef[{}] = {}: not finite", k, c.name, i,
                   c.polycoef[i]);
  couplings_.push_back(std::move(c));
  return k;
}

Index RigidWorld::add_actuator(Actuator a) {
  const Index k = static_cast<Index>(actuators_.size());
  if (a.name.empty()) a.name = fmt::format("actuator{}", k);
  for (const Actuator& o : actuators_)
    MOREAU_REQUIRE(o.name != a.name, "actuators[{}].name = '{}': already used", k, a.name);
  MOREAU_REQUIRE(a.joint >= 0 && a.joint < static_cast<Index>(joints_.size()),
                 "actuators[{}] ('{}').joint = {}: no such joint", k, a.name, a.joint);
  MOREAU_REQUIRE(
      has_coordinate(joints_[a.joint]),
      "actuators[{}] ('{}'): joint '{}' is not a revolute or prismatic joint of the tree", k,
      a.name, joints_[a.joint].name);
  MOREAU_REQUIRE(std::isfinite(a.gear) && a.gear != 0.0,
                 "actuators[{}] ('{}').gear = {}: must be finite and nonzero", k, a.name, a.gear);
  MOREAU_REQUIRE(std::isfinite(a.gain) && std::isfinite(a.bias[0]) && std::isfinite(a.bias[1]) &&
                     std::isfinite(a.bias[2]),
                 "actuators[{}] ('{}'): gain {} and bias ({}, {}, {}) must be finite", k, a.name,
                 a.gain, a.bias[0], a.bias[1], a.bias[2]);
  if (a.ctrl_limited)
    MOREAU_REQUIRE(
        !std::isnan(a.ctrl_lower) && !std::isnan(a.ctrl_upper) && a.ctrl_lower <= a.ctrl_upper,
        "actuators[{}] ('{}').ctrlrange = [{}, {}]: need lower ≤ upper", k, a.name, a.ctrl_lower,
        a.ctrl_upper);
  if (a.force_limited)
    MOREAU_REQUIRE(
        !std::isnan(a.force_lower) && !std::isnan(a.force_upper) && a.force_lower <= a.force_upper,
        "actuators[{}] ('{}').forcerange = [{}, {}]: need lower ≤ upper", k, a.name, a.force_lower,
        a.force_upper);
  actuators_.push_back(std::move(a));
  return k;
}

}  // namespace moreau
