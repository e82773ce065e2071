#pragma once
// A MultibodyKinematics borrowed from a per-thread pool for the length of a scope. The hot paths
// (a step's contact state, the free flight's mass and forces) walk the tree once or twice a step;
// a fresh MultibodyKinematics allocated its arrays on every walk (a fifth of a contact-free
// arm's allocations). A pooled one keeps its arrays' capacity, so after the first step a walk
// allocates nothing. The pool is per thread and grows with the nesting depth, so borrowing is
// thread-safe and reentrant; the contents are scratch (every walk overwrites what it reads).
#include <memory>
#include <vector>

#include "moreau/model/multibody/multibody_model.hpp"

namespace moreau {

/// A MultibodyKinematics from a per-thread pool, returned to it on destruction.
class PooledKinematics {
 public:
  PooledKinematics() {
    std::vector<std::unique_ptr<MultibodyKinematics>>& free = pool();
    if (free.empty()) {
      held_ = std::make_unique<MultibodyKinematics>();
    } else {
      held_ = std::move(free.back());
      free.pop_back();
    }
  }
  ~PooledKinematics() { pool().push_back(std::move(held_)); }
  PooledKinematics(const PooledKinematics&) = delete;
  PooledKinematics& operator=(const PooledKinematics&) = delete;

  /// The borrowed kinematics.
  MultibodyKinematics& operator*() const { return *held_; }
  /// The borrowed kinematics' members.
  MultibodyKinematics* operator->() const { return held_.get(); }

 private:
  static std::vector<std::unique_ptr<MultibodyKinematics>>& pool() {
    thread_local std::vector<std::unique_ptr<MultibodyKinematics>> free;
    return free;
  }
  std::unique_ptr<MultibodyKinematics> held_;
};

}  // namespace moreau
