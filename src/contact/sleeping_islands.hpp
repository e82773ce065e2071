#pragma once
// Island sleeping of the body-block layer (StepContactSettings::sleep, docs/simulation.md
// §Sleeping). Per dynamic body: the time it has been quiet (|v_G| ≤ v_s and |ω|·R ≤ v_s, R its
// bounding radius) and its sleep group (−1 awake). After a step, an island of awake bodies (joined
// by the step's contacts) whose every body has been quiet for sleep_time falls asleep as one
// group and its velocities are set to zero. Before a step, a contact between a body of a sleeping
// group and an awake dynamic body wakes the whole group. Bodies with joints never sleep.
#include <vector>

#include "moreau/common/types.hpp"
#include "moreau/model/rigid/rigid_world.hpp"
#include "moreau/model/step_contacts.hpp"

namespace moreau::detail {

class SleepingIslands {
 public:
  // dynamic: per body of the world its dynamic index, −1 for a static body (BodyBlocks::dynamic).
  SleepingIslands(const RigidWorld& world, const std::vector<Index>& dynamic,
                  const StepContactSettings& settings);

  bool enabled() const { return enabled_; }
  // Body b (dynamic index; −1 = fixed) sleeps.
  bool asleep(Index b) const { return b >= 0 && group_[b] >= 0; }
  // Wakes the group of a sleeping body of each pair (a, b) of dynamic indices that joins it to
  // an awake dynamic body, until no such pair is left. Returns whether any group woke.
  bool wake(const std::vector<std::pair<Index, Index>>& pairs);
  // Zeroes the velocities of sleeping bodies in v (nb·m).
  void hold(Vector& v) const;
  // After a step of length h with velocities v⁺ (nb·m) and the step's contact pairs (dynamic
  // indices, −1 fixed): updates the quiet times, puts quiet islands to sleep (zeroing their
  // velocities in v). Returns the number of bodies that fell asleep.
  Index update(Vector& v, const std::vector<std::pair<Index, Index>>& pairs, double h);

 private:
  bool enabled_ = false;
  Index m_ = 6;  // velocities per body
  double velocity_ = 0.0, time_ = 0.0;
  std::vector<double> radius_;  // per dynamic body, m
  std::vector<bool> jointed_;   // per dynamic body
  std::vector<double> quiet_;   // per dynamic body, s
  std::vector<Index> group_;    // per dynamic body, −1 awake
  Index next_group_ = 0;
};

}  // namespace moreau::detail
