#include "sleeping_islands.hpp"

#include <algorithm>
#include "moreau/common/disjoint_sets.hpp"

namespace moreau::detail {

SleepingIslands::SleepingIslands(const RigidWorld& world, const std::vector<Index>& dynamic,
                                 const StepContactSettings& settings)
    : enabled_(settings.sleep),
      m_(world.body_velocity_size()),
      velocity_(settings.sleep_velocity),
      time_(settings.sleep_time) {
  const Index nb = world.dynamic_body_count();
  radius_.assign(static_cast<size_t>(nb), 0.0);
  jointed_.assign(static_cast<size_t>(nb), false);
  quiet_.assign(static_cast<size_t>(nb), 0.0);
  group_.assign(static_cast<size_t>(nb), -1);
  for (Index i = 0; i < world.body_count(); ++i) {
    const Index b = dynamic[i];
    if (b < 0) continue;
    for (const Shape& s : world.body(i).shapes)
      radius_[b] = std::max(radius_[b], s.offset.position.norm() + s.bounding_radius());
  }
  for (const Joint& j : world.joints())
    for (const Index body : {j.body_a, j.body_b})
      if (body >= 0 && dynamic[body] >= 0) jointed_[dynamic[body]] = true;
}

bool SleepingIslands::wake(const std::vector<std::pair<Index, Index>>& pairs) {
  bool any = false;
  for (bool changed = enabled_; changed;) {
    changed = false;
    for (const auto& [a, b] : pairs) {
      if (a < 0 || b < 0 || asleep(a) == asleep(b)) continue;
      const Index g = group_[asleep(a) ? a : b];
      for (size_t k = 0; k < group_.size(); ++k)
        if (group_[k] == g) group_[k] = -1, quiet_[k] = 0.0;
      changed = any = true;
    }
  }
  return any;
}

void SleepingIslands::hold(Vector& v) const {
  if (!enabled_) return;
  for (size_t b = 0; b < group_.size(); ++b)
    if (group_[b] >= 0) v.segment(static_cast<Index>(b) * m_, m_).setZero();
}

Index SleepingIslands::update(Vector& v, const std::vector<std::pair<Index, Index>>& pairs,
                              double h) {
  if (!enabled_) return 0;
  const Index nb = static_cast<Index>(group_.size());
  const Index lin = m_ == 3 ? 2 : 3;  // linear velocity entries, then angular
  for (Index b = 0; b < nb; ++b) {
    if (asleep(b)) continue;
    const double vg = v.segment(b * m_, lin).norm();
    const double w = v.segment(b * m_ + lin, m_ - lin).norm();
    quiet_[b] = vg <= velocity_ && w * radius_[b] <= velocity_ ? quiet_[b] + h : 0.0;
  }
  // islands of the awake bodies (union–find over the step's contacts)
  DisjointSets sets(nb);
  for (const auto& [a, b] : pairs) sets.join(a, b);
  // an island sleeps when none of its bodies is loud (awake and not quiet long enough, or jointed)
  std::vector<bool> loud(static_cast<size_t>(nb), false);
  for (Index b = 0; b < nb; ++b)
    if (!asleep(b) && (jointed_[b] || quiet_[b] < time_ - 1e-12)) loud[sets.root(b)] = true;
  std::vector<Index> new_group(static_cast<size_t>(nb), -1);
  Index fell = 0;
  for (Index b = 0; b < nb; ++b) {
    if (asleep(b) || loud[sets.root(b)]) continue;
    Index& g = new_group[sets.root(b)];
    if (g < 0) g = next_group_++;
    group_[b] = g;
    v.segment(b * m_, m_).setZero();
    ++fell;
  }
  return fell;
}

}  // namespace moreau::detail
