#include "moreau/contact/collision/broad_phase.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace moreau {

// Box of the posed shape: core points ± radius (box: centre ± |R| h), cylinder centre ± |R| (r, r,
// h).
Aabb shape_aabb(const Shape& s, const Pose& p, double margin) {
  Aabb box;
  if (s.kind == ShapeKind::plane) return box;
  const double m = std::isfinite(margin) ? std::max(margin, 0.0) : 1e30;
  Vector3 lo, hi;
  if (s.kind == ShapeKind::box || s.kind == ShapeKind::cylinder) {
    const Vector3 h =
        s.kind == ShapeKind::box ? s.half_extents : Vector3(s.radius, s.radius, s.half_length);
    const Vector3 e = p.rotation().cwiseAbs() * h;
    lo = p.position - e, hi = p.position + e;
  } else {
    lo = Vector3::Constant(INFINITY), hi = -lo;
    for (const auto& x : s.core_points()) {
      const Vector3 w = p.apply(x);
      lo = lo.cwiseMin(w), hi = hi.cwiseMax(w);
    }
    lo.array() -= s.core_radius(), hi.array() += s.core_radius();
  }
  box.lower = lo.array() - m;
  box.upper = hi.array() + m;
  return box;
}

// Sweep and prune on the axis with the largest variance of the box centres: sort the lower
// bounds, then each box meets the boxes whose lower bound lies below its upper bound.
std::vector<std::pair<Index, Index>> sweep_and_prune(const std::vector<Aabb>& boxes) {
  std::vector<std::pair<Index, Index>> pairs;
  const Index n = static_cast<Index>(boxes.size());
  std::vector<Index> finite, unbounded;
  for (Index i = 0; i < n; ++i) {
    const auto& b = boxes[i];
    (b.lower.allFinite() && b.upper.allFinite() ? finite : unbounded).push_back(i);
  }
  // unbounded boxes (planes) pair with everything they overlap
  for (Index i : unbounded)
    for (Index j = 0; j < n; ++j)
      if (j != i && boxes[i].overlaps(boxes[j])) {
        const bool other_unbounded =
            std::find(unbounded.begin(), unbounded.end(), j) != unbounded.end();
        if (other_unbounded && j < i) continue;
        pairs.emplace_back(std::min(i, j), std::max(i, j));
      }
  if (!finite.empty()) {
    Vector3 mean = Vector3::Zero(), sq = Vector3::Zero();
    for (Index i : finite) {
      const Vector3 c = 0.5 * (boxes[i].lower + boxes[i].upper);
      mean += c, sq += c.cwiseProduct(c);
    }
    const double k = static_cast<double>(finite.size());
    Index axis;
    (sq / k - (mean / k).cwiseProduct(mean / k)).maxCoeff(&axis);
    std::sort(finite.begin(), finite.end(),
              [&](Index a, Index b) { return boxes[a].lower[axis] < boxes[b].lower[axis]; });
    for (size_t a = 0; a < finite.size(); ++a) {
      const Aabb& A = boxes[finite[a]];
      for (size_t b = a + 1; b < finite.size(); ++b) {
        const Aabb& B = boxes[finite[b]];
        if (B.lower[axis] > A.upper[axis]) break;
        if (A.overlaps(B))
          pairs.emplace_back(std::min(finite[a], finite[b]), std::max(finite[a], finite[b]));
      }
    }
  }
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  return pairs;
}

std::vector<std::pair<Index, Index>> brute_force_pairs(const std::vector<Aabb>& boxes) {
  std::vector<std::pair<Index, Index>> pairs;
  const Index n = static_cast<Index>(boxes.size());
  for (Index i = 0; i < n; ++i)
    for (Index j = i + 1; j < n; ++j)
      if (boxes[i].overlaps(boxes[j])) pairs.emplace_back(i, j);
  return pairs;
}

}  // namespace moreau
