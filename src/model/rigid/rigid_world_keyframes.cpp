// RigidWorld's keyframes and initial-state edits (model/rigid/keyframe.hpp): validation on
// insertion. Names of coordinates are resolved by the system built from the world.
#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/model/rigid/rigid_world.hpp"

namespace moreau {
namespace {

// Every value finite, named in the message as `what`.q["name"] = value.
void require_finite_entries(const Keyframe& k, const std::string& what) {
  for (const auto* part : {&k.q, &k.v, &k.ctrl}) {
    const char* field = part == &k.q ? "q" : part == &k.v ? "v" : "ctrl";
    for (const auto& [name, value] : *part)
      MOREAU_REQUIRE(std::isfinite(value), "{}.{}['{}'] = {}: not finite", what, field, name,
                     value);
  }
}

}  // namespace

Index RigidWorld::add_keyframe(Keyframe k) {
  const Index i = static_cast<Index>(keyframes_.size());
  if (k.name.empty()) k.name = fmt::format("key{}", i);
  MOREAU_REQUIRE(find_keyframe(k.name) == nullptr, "keyframes[{}].name = '{}': already used", i,
                 k.name);
  require_finite_entries(k, fmt::format("keyframe '{}'", k.name));
  keyframes_.push_back(std::move(k));
  return i;
}

const Keyframe* RigidWorld::find_keyframe(const std::string& name) const {
  for (const Keyframe& k : keyframes_)
    if (k.name == name) return &k;
  return nullptr;
}

void RigidWorld::edit_initial_state(const Keyframe& edits) {
  require_finite_entries(edits, "initial state");
  for (const auto& [name, value] : edits.q) initial_edits_.q[name] = value;
  for (const auto& [name, value] : edits.v) initial_edits_.v[name] = value;
  for (const auto& [name, value] : edits.ctrl) initial_edits_.ctrl[name] = value;
}

}  // namespace moreau
