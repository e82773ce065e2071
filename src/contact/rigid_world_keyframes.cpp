// Keyframes of a rigid world resolved against its system's names (model/rigid/keyframe.hpp,
// contact/rigid_world_system.hpp).
#include <algorithm>

#include "moreau/common/error.hpp"
#include "moreau/contact/rigid_world_system.hpp"

namespace moreau {
namespace {

// "a, b, c, … (N in all)": the first names of a list, for a message.
std::string some_names(const std::vector<std::string>& names) {
  std::string out;
  const size_t shown = std::min<size_t>(names.size(), 8);
  for (size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + names[i];
  if (shown < names.size()) out += fmt::format(", … ({} in all)", names.size());
  return out.empty() ? "none" : out;
}

// Sets x[name] = value for every entry of `entries`, each name looked up in `names`.
void set_named(const std::map<std::string, double>& entries, const std::vector<std::string>& names,
               Vector& x, const std::string& what, const char* field, const char* kind) {
  for (const auto& [name, value] : entries) {
    const auto it = std::find(names.begin(), names.end(), name);
    MOREAU_REQUIRE(it != names.end(), "{}: {}['{}'] names no {} of the model (its {}s: {})", what,
                   field, name, kind, kind, some_names(names));
    x[it - names.begin()] = value;
  }
}

}  // namespace

KeyframeState RigidWorldSystem::apply_keyframe(const Keyframe& k, const Vector& q_base,
                                               const Vector& v_base,
                                               const std::string& what) const {
  KeyframeState s{q_base, v_base, Vector::Zero(static_cast<Index>(world_->actuators().size()))};
  set_named(k.q, position_names(), s.q, what, "q", "coordinate");
  set_named(k.v, velocity_names(), s.v, what, "v", "velocity");
  std::vector<std::string> actuators;
  for (const Actuator& a : world_->actuators()) actuators.push_back(a.name);
  set_named(k.ctrl, actuators, s.ctrl, what, "ctrl", "actuator");
  normalize_position(s.q);
  return s;
}

KeyframeState RigidWorldSystem::keyframe_state(const Keyframe& k) const {
  return apply_keyframe(k, model_q_, Vector::Zero(velocity_size()),
                        fmt::format("keyframe '{}'", k.name));
}

}  // namespace moreau
