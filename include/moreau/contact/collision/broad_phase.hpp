#pragma once
// Broad phase: candidate pairs of overlapping axis-aligned boxes by sweep and prune along the
// axis of largest spread (O(n log n + k)). Planes have infinite boxes and pair with everything.
#include <utility>
#include <vector>

#include "moreau/common/types.hpp"
#include "moreau/model/rigid/pose.hpp"
#include "moreau/model/rigid/shape.hpp"

namespace moreau {

// Axis-aligned bounding box (m) used by the broad phase.
struct Aabb {
  Vector3 lower = Vector3::Constant(-INFINITY);  // m
  Vector3 upper = Vector3::Constant(INFINITY);   // m
  // True when the two boxes intersect (touching counts).
  bool overlaps(const Aabb& o) const {
    return (lower.array() <= o.upper.array()).all() && (o.lower.array() <= upper.array()).all();
  }
};

// Box of a posed shape grown by `margin` on every side (planes: unbounded).
Aabb shape_aabb(const Shape& shape, const Pose& pose, double margin);

// Pairs (i, j), i < j, whose boxes overlap, sorted lexicographically.
std::vector<std::pair<Index, Index>> sweep_and_prune(const std::vector<Aabb>& boxes);
// The same by testing all n(n−1)/2 pairs (reference for tests).
std::vector<std::pair<Index, Index>> brute_force_pairs(const std::vector<Aabb>& boxes);

}  // namespace moreau
