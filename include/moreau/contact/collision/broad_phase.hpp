#pragma once
// Broad phase: candidate pairs of overlapping axis-aligned boxes on a uniform grid
// (O(n log n + k) for bodies of similar size). Planes have unbounded boxes and pair with every
// box they overlap.
#include <array>
#include <cstdint>
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

// Box of a posed shape grown by `margin` on every side (planes: unbounded, but for the side
// beyond the plane when the normal is a coordinate axis).
Aabb shape_aabb(const Shape& shape, const Pose& pose, double margin);

// Pairs (i, j), i < j, whose boxes overlap, each once; the order is fixed by the boxes (the same
// input gives the same list) but is not sorted.
std::vector<std::pair<Index, Index>> broad_phase_pairs(const std::vector<Aabb>& boxes);

// Working memory of the grid broad phase, kept by a caller that detects at every step so that a
// warm call allocates nothing (the contents are scratch between calls).
struct BroadPhaseBuffers {
  std::vector<Index> finite;                            // boxes with finite corners
  std::vector<char> large;                              // 1: tested against every box
  std::vector<double> extents;                          // largest extent of each finite box
  std::vector<std::array<std::int64_t, 6>> range;       // cells each box covers (lower, upper)
  std::vector<std::pair<std::uint64_t, Index>> cells;   // (cell key, box), sorted
  std::vector<std::pair<std::uint64_t, Index>> sorted;  // counting sort's output
  std::vector<size_t> counts;                           // counting sort's bucket starts
};

// The same pairs in the same order as broad_phase_pairs(boxes), into `pairs` (cleared first),
// using `buffers` as working memory.
void broad_phase_pairs(const std::vector<Aabb>& boxes, BroadPhaseBuffers& buffers,
                       std::vector<std::pair<Index, Index>>& pairs);
// The same by testing all n(n−1)/2 pairs (reference for tests).
std::vector<std::pair<Index, Index>> brute_force_pairs(const std::vector<Aabb>& boxes);

}  // namespace moreau
