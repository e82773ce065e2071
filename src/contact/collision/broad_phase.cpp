#include "moreau/contact/collision/broad_phase.hpp"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <cmath>
#include <numeric>

namespace moreau {

// Box of the posed shape: core points ± radius (box: centre ± |R| h), cylinder centre ± |R| (r, r,
// h); a plane's half-space is unbounded except along its normal when that is a coordinate axis.
Aabb shape_aabb(const Shape& s, const Pose& p, double margin) {
  Aabb box;
  const double m = std::isfinite(margin) ? std::max(margin, 0.0) : 1e30;
  if (s.kind == ShapeKind::plane) {
    // the half-space N·(x − p₀) ≤ 0 is bounded on one axis when N is that axis (floors, walls)
    const Vector3 N = p.orientation * s.normal.normalized();
    const Vector3 p0 = p.apply(s.normal.normalized() * (s.offset_distance / s.normal.norm()));
    for (int k = 0; k < 3; ++k)
      if (std::abs(N[k]) == 1.0 && N[(k + 1) % 3] == 0.0 && N[(k + 2) % 3] == 0.0) {
        if (N[k] > 0)
          box.upper[k] = p0[k] + m;
        else
          box.lower[k] = p0[k] - m;
      }
    return box;
  }
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

namespace {

// One cell of the uniform grid covered by a box: integer coordinates ⌊x/c⌋ and the box's index.
struct CellEntry {
  std::int64_t x, y, z;
  Index box;
  auto key() const { return std::tie(x, y, z, box); }
};

// Cell coordinates of a point, or false when they do not fit the grid (|x/c| ≥ 2⁵⁰).
bool cell_of(const Vector3& p, double c, std::int64_t out[3]) {
  for (int k = 0; k < 3; ++k) {
    const double f = std::floor(p[k] / c);
    if (!(std::abs(f) < 1125899906842624.0)) return false;
    out[k] = static_cast<std::int64_t>(f);
  }
  return true;
}

}  // namespace

// Uniform grid (Ericson, Real-Time Collision Detection §7.1): cell size c = the median largest
// extent, each box entered in the cells it covers (≤ 8 for a box up to c; the entries sorted, not
// hashed, so the result does not depend on a hash order), a pair reported only in the cell holding
// the lower corner of the two boxes' intersection, max(lower_a, lower_b), so once. Boxes spanning
// more than 4 cells on an axis and unbounded boxes (planes) are tested against every box. O(n log n
// + k) for bodies of similar size, without the n^{5/3} of a sweep along one axis of a 3D pile.
std::vector<std::pair<Index, Index>> broad_phase_pairs(const std::vector<Aabb>& boxes) {
  std::vector<std::pair<Index, Index>> pairs;
  const Index n = static_cast<Index>(boxes.size());
  std::vector<Index> finite;
  std::vector<char> large(boxes.size(), 0);
  std::vector<double> extents;
  for (Index i = 0; i < n; ++i) {
    const auto& b = boxes[i];
    if (b.lower.allFinite() && b.upper.allFinite()) {
      finite.push_back(i);
      extents.push_back((b.upper - b.lower).maxCoeff());
    } else {
      large[i] = 1;
    }
  }
  double c = 1.0;
  if (!extents.empty()) {
    auto mid = extents.begin() + static_cast<std::ptrdiff_t>(extents.size() / 2);
    std::nth_element(extents.begin(), mid, extents.end());
    if (std::isfinite(*mid) && *mid > 0) c = *mid;
  }
  std::vector<CellEntry> cells;
  cells.reserve(finite.size() * 2);
  for (Index i : finite) {
    std::int64_t lo[3], hi[3];
    if (!cell_of(boxes[i].lower, c, lo) || !cell_of(boxes[i].upper, c, hi) || hi[0] - lo[0] > 4 ||
        hi[1] - lo[1] > 4 || hi[2] - lo[2] > 4) {
      large[i] = 1;
      continue;
    }
    for (std::int64_t x = lo[0]; x <= hi[0]; ++x)
      for (std::int64_t y = lo[1]; y <= hi[1]; ++y)
        for (std::int64_t z = lo[2]; z <= hi[2]; ++z) cells.push_back({x, y, z, i});
  }
  std::sort(cells.begin(), cells.end(),
            [](const CellEntry& a, const CellEntry& b) { return a.key() < b.key(); });
  for (size_t begin = 0; begin < cells.size();) {
    size_t end = begin + 1;
    while (end < cells.size() && cells[end].x == cells[begin].x && cells[end].y == cells[begin].y &&
           cells[end].z == cells[begin].z)
      ++end;
    for (size_t a = begin; a < end; ++a)
      for (size_t b = a + 1; b < end; ++b) {
        const Aabb &A = boxes[cells[a].box], &B = boxes[cells[b].box];
        if (!A.overlaps(B)) continue;
        std::int64_t home[3];
        cell_of(A.lower.cwiseMax(B.lower), c, home);
        if (home[0] == cells[a].x && home[1] == cells[a].y && home[2] == cells[a].z)
          pairs.emplace_back(cells[a].box, cells[b].box);  // a < b: sorted by box within a cell
      }
    begin = end;
  }
  for (Index i = 0; i < n; ++i) {
    if (!large[i]) continue;
    for (Index j = 0; j < n; ++j)
      if (j != i && !(large[j] && j < i) && boxes[i].overlaps(boxes[j]))
        pairs.emplace_back(std::min(i, j), std::max(i, j));
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
