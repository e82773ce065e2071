#include "moreau/contact/collision/broad_phase.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cmath>

#include "moreau/contact/collision/narrow_phase.hpp"

namespace moreau {

// Box of the posed shape: core points ± radius (box: centre ± |R| h), cylinder centre ± |R| (r, r,
// h); a plane's half-space is unbounded except along its normal when that is a coordinate axis.
Aabb shape_aabb(const Shape& s, const Pose& p, double margin) {
  Aabb box;
  const double m = std::isfinite(margin) ? std::max(margin, 0.0) : 1e30;
  if (s.kind == ShapeKind::plane) {
    // the half-space N·(x − p₀) ≤ 0 is bounded on one axis when N is that axis (floors, walls)
    Vector3 N, p0;
    plane_world(s, p, N, p0);
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
  if (s.kind == ShapeKind::ellipsoid) {  // extent along world axis i: ‖(R_ik a_k)_k‖
    const Vector3 e = (p.rotation() * s.half_extents.asDiagonal()).rowwise().norm();
    lo = p.position - e, hi = p.position + e;
  } else if (s.kind == ShapeKind::box || s.kind == ShapeKind::cylinder) {
    const Vector3 h =
        s.kind == ShapeKind::box ? s.half_extents : Vector3(s.radius, s.radius, s.half_length);
    const Vector3 e = p.rotation().cwiseAbs() * h;
    lo = p.position - e, hi = p.position + e;
  } else if (s.has_vertex_bounds()) {
    // a mesh: the box of its vertex bounds turned, c ± |R| e (c, e the bounds' centre and half
    // extents), which holds every vertex (the Go2's 563-vertex base: its loop below was a seventh
    // of the robot's step)
    const Vector3 c = 0.5 * (s.vertex_lower + s.vertex_upper);
    const Vector3 e = 0.5 * (s.vertex_upper - s.vertex_lower);
    const Matrix3 R = p.rotation();
    const Vector3 centre = p.position + R * c, extent = R.cwiseAbs() * e;
    lo = centre - extent, hi = centre + extent;
    lo.array() -= s.core_radius(), hi.array() += s.core_radius();
  } else {
    // the extremes of R x over the core points, then + t: R as a matrix (9 flops a point, not a
    // quaternion's ~30), the points read in place (core_points() would copy them: a mesh without
    // vertex bounds may have hundreds)
    const Matrix3 R = p.rotation();
    lo = Vector3::Constant(INFINITY), hi = -lo;
    auto extend = [&](const Vector3& x) {
      const Vector3 w = R * x;
      lo = lo.cwiseMin(w), hi = hi.cwiseMax(w);
    };
    if (s.kind == ShapeKind::convex) {
      for (const Vector3& x : s.vertices) extend(x);
    } else {
      for (std::size_t k = 0; k < s.core_point_count(); ++k) extend(s.core_point(k));
    }
    lo += p.position, hi += p.position;
    lo.array() -= s.core_radius(), hi.array() += s.core_radius();
  }
  box.lower = lo.array() - m;
  box.upper = hi.array() + m;
  return box;
}

namespace {

// Cell coordinates of a point, or false when they do not fit the grid (|x/c| ≥ 2⁵⁰).
bool cell_of(const Vector3& p, double c, std::int64_t out[3]) {
  for (int k = 0; k < 3; ++k) {
    const double f = std::floor(p[k] / c);
    if (!(std::abs(f) < 1125899906842624.0)) return false;
    out[k] = static_cast<std::int64_t>(f);
  }
  return true;
}

// Up to this many boxes the pairs are tested all against all (broad_phase_pairs).
constexpr Index kAllPairsBoxes = 32;

// Every pair (i, j), i < j, of overlapping boxes, in (i, j) order, appended to pairs.
void append_all_pairs(const std::vector<Aabb>& boxes, std::vector<std::pair<Index, Index>>& pairs) {
  const Index n = static_cast<Index>(boxes.size());
  for (Index i = 0; i < n; ++i)
    for (Index j = i + 1; j < n; ++j)
      if (boxes[i].overlaps(boxes[j])) pairs.emplace_back(i, j);
}

constexpr std::int64_t kCellSpan = std::int64_t{1} << 21;  // cells per axis a key can hold

// The key of cell (x, y, z) counted from the lowest cell `base`, 21 bits per axis.
std::uint64_t cell_key(const std::int64_t* cell, const std::int64_t* base) {
  return static_cast<std::uint64_t>(cell[0] - base[0]) << 42 |
         static_cast<std::uint64_t>(cell[1] - base[1]) << 21 |
         static_cast<std::uint64_t>(cell[2] - base[2]);
}

}  // namespace

// Uniform grid (Ericson, Real-Time Collision Detection §7.1): cell size c = the median largest
// extent, each box entered in the cells it covers (≤ 8 for a box up to c; the entries sorted by a
// packed key, not hashed, so the output does not depend on a hash order), a pair reported only in
// the cell holding the lower corner of the two boxes' intersection, max(lower_a, lower_b), so
// once. Boxes spanning more than 4 cells on an axis and unbounded boxes (planes) are tested
// against every box. O(n log n + k) for bodies of similar size, without the n^{5/3} of a sweep
// along one axis of a 3D pile.
std::vector<std::pair<Index, Index>> broad_phase_pairs(const std::vector<Aabb>& boxes) {
  BroadPhaseBuffers buffers;
  std::vector<std::pair<Index, Index>> pairs;
  broad_phase_pairs(boxes, buffers, pairs);
  return pairs;
}

void broad_phase_pairs(const std::vector<Aabb>& boxes, BroadPhaseBuffers& buf,
                       std::vector<std::pair<Index, Index>>& pairs) {
  pairs.clear();
  const Index n = static_cast<Index>(boxes.size());
  // a few boxes (a robot's links): every pair tested costs less than entering the grid's cells
  // (the 20 capsules of bench/models/humanoid.xml: 3.5k instructions against 72k)
  if (n <= kAllPairsBoxes) {
    append_all_pairs(boxes, pairs);
    return;
  }
  auto& finite = buf.finite;
  auto& large = buf.large;
  auto& extents = buf.extents;
  finite.clear(), extents.clear();
  large.assign(boxes.size(), 0);
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
  // the cells each box covers; boxes beyond 4 cells per axis, or outside the 2²¹ cells per axis
  // that a key holds from the lowest corner, count as large
  auto& range = buf.range;
  range.resize(boxes.size());
  std::int64_t base[3] = {INT64_MAX, INT64_MAX, INT64_MAX};
  std::int64_t top[3] = {INT64_MIN, INT64_MIN, INT64_MIN};
  for (Index i : finite) {
    std::int64_t* r = range[i].data();
    if (!cell_of(boxes[i].lower, c, r) || !cell_of(boxes[i].upper, c, r + 3) || r[3] - r[0] > 4 ||
        r[4] - r[1] > 4 || r[5] - r[2] > 4) {
      large[i] = 1;
      continue;
    }
    for (int k = 0; k < 3; ++k)
      base[k] = std::min(base[k], r[k]), top[k] = std::max(top[k], r[k + 3]);
  }
  // Keys of cells, both increasing with (x, y, z) in lexicographic order: the index in the box of
  // cells the boxes occupy when that box has at most 4 cells per entry (plus 1024), so that the
  // entries are sorted by counting (a 216-sphere pile: ~500 cells for ~1700 entries); otherwise 21
  // bits per axis and std::sort. Either way the entries end sorted by (key, box), the same order.
  double cells_in_box = 1.0;
  for (int k = 0; k < 3; ++k)
    cells_in_box *= top[k] >= base[k] ? static_cast<double>(top[k] - base[k] + 1) : 1.0;
  const bool dense = cells_in_box <= 4.0 * 8.0 * static_cast<double>(finite.size()) + 1024.0;
  // (no finite box: top < base, the spans are unused and set to 1 to keep the arithmetic defined)
  const std::int64_t span_y = top[1] >= base[1] ? top[1] - base[1] + 1 : 1;
  const std::int64_t span_z = top[2] >= base[2] ? top[2] - base[2] + 1 : 1;
  auto key_of = [&](const std::int64_t* cell) {
    return dense ? static_cast<std::uint64_t>(((cell[0] - base[0]) * span_y + (cell[1] - base[1])) *
                                                  span_z +
                                              (cell[2] - base[2]))
                 : cell_key(cell, base);
  };
  auto& cells = buf.cells;  // (key, box): one cell of the grid that a box covers
  cells.clear();
  for (Index i : finite) {
    if (large[i]) continue;
    const std::int64_t* r = range[i].data();
    if (r[3] - base[0] >= kCellSpan || r[4] - base[1] >= kCellSpan || r[5] - base[2] >= kCellSpan) {
      large[i] = 1;
      continue;
    }
    std::int64_t cell[3];
    for (cell[0] = r[0]; cell[0] <= r[3]; ++cell[0])
      for (cell[1] = r[1]; cell[1] <= r[4]; ++cell[1])
        for (cell[2] = r[2]; cell[2] <= r[5]; ++cell[2]) cells.emplace_back(key_of(cell), i);
  }
  if (dense) {  // counting sort, stable: boxes were entered in increasing order
    auto& start = buf.counts;
    start.assign(static_cast<size_t>(cells_in_box) + 1, 0);
    for (const auto& e : cells) ++start[e.first + 1];
    for (size_t k = 1; k < start.size(); ++k) start[k] += start[k - 1];
    buf.sorted.resize(cells.size());
    for (const auto& e : cells) buf.sorted[start[e.first]++] = e;
    cells.swap(buf.sorted);
  } else {
    std::sort(cells.begin(), cells.end());
  }
  for (size_t begin = 0; begin < cells.size();) {
    size_t end = begin + 1;
    while (end < cells.size() && cells[end].first == cells[begin].first) ++end;
    for (size_t a = begin; a < end; ++a) {
      const std::int64_t* ra = range[cells[a].second].data();
      for (size_t b = a + 1; b < end; ++b) {
        const Aabb &A = boxes[cells[a].second], &B = boxes[cells[b].second];
        if (!A.overlaps(B)) continue;
        // the lower corner of the intersection, max(lower_A, lower_B), lies in exactly one cell:
        // report the pair there. floor(x / c) is monotone, so that cell is the componentwise
        // max of the two boxes' lowest cells.
        const std::int64_t* rb = range[cells[b].second].data();
        const std::int64_t home[3] = {std::max(ra[0], rb[0]), std::max(ra[1], rb[1]),
                                      std::max(ra[2], rb[2])};
        if (key_of(home) == cells[a].first)
          pairs.emplace_back(cells[a].second,
                             cells[b].second);  // a < b: sorted by box within a cell
      }
    }
    begin = end;
  }
  for (Index i = 0; i < n; ++i) {
    if (!large[i]) continue;
    for (Index j = 0; j < n; ++j)
      if (j != i && !(large[j] && j < i) && boxes[i].overlaps(boxes[j]))
        pairs.emplace_back(std::min(i, j), std::max(i, j));
  }
}

std::vector<std::pair<Index, Index>> brute_force_pairs(const std::vector<Aabb>& boxes) {
  std::vector<std::pair<Index, Index>> pairs;
  append_all_pairs(boxes, pairs);
  return pairs;
}

}  // namespace moreau
