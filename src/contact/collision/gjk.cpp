#include "moreau/contact/collision/gjk.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "moreau/common/error.hpp"

namespace moreau {
namespace {

// A vertex of the Minkowski difference A − B with its two sources.
struct SupportPoint {
  Vector3 w, a, b;  // w = a − b
};

template <class SA, class SB>
SupportPoint support(const SA& sa, const SB& sb, const Vector3& d) {
  const Vector3 a = sa(d), b = sb(-d);
  return {a - b, a, b};
}

// Closest point of the simplex to the origin (Ericson, Real-Time Collision Detection §5.1),
// with barycentric weights; the simplex is reduced to the support of the closest point.
struct ClosestResult {
  Vector3 point;
  std::array<double, 4> lambda{};  // the first (simplex size) entries are read
};

ClosestResult closest_segment(const Vector3& a, const Vector3& b) {
  const Vector3 ab = b - a;
  const double den = ab.squaredNorm();
  double t = den > 0 ? std::clamp(-a.dot(ab) / den, 0.0, 1.0) : 0.0;
  return {a + t * ab, {1 - t, t}};
}

ClosestResult closest_triangle(const Vector3& a, const Vector3& b, const Vector3& c) {
  const Vector3 ab = b - a, ac = c - a, ap = -a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0 && d2 <= 0) return {a, {1, 0, 0}};
  const Vector3 bp = -b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0 && d4 <= d3) return {b, {0, 1, 0}};
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const double v = d1 / (d1 - d3);
    return {a + v * ab, {1 - v, v, 0}};
  }
  const Vector3 cp = -c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0 && d5 <= d6) return {c, {0, 0, 1}};
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const double w = d2 / (d2 - d6);
    return {a + w * ac, {1 - w, 0, w}};
  }
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    const double w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return {b + w * (c - b), {0, 1 - w, w}};
  }
  const double den = va + vb + vc;
  if (std::abs(den) < 1e-300) return {a, {1, 0, 0}};
  const double v = vb / den, w = vc / den;
  return {a + ab * v + ac * w, {1 - v - w, v, w}};
}

// Origin inside the tetrahedron (a, b, c, d)?  Then the closest point is the origin itself.
bool origin_outside_plane(const Vector3& a, const Vector3& b, const Vector3& c, const Vector3& d) {
  const Vector3 n = (b - a).cross(c - a);
  const double sp = (-a).dot(n), sd = (d - a).dot(n);
  return sp * sd < 0;
}

ClosestResult closest_tetrahedron(const std::array<Vector3, 4>& p) {
  ClosestResult best{Vector3::Zero(), {0.25, 0.25, 0.25, 0.25}};
  double best_d = INFINITY;
  bool inside = true;
  // a flat tetrahedron (the new point in the plane of the old triangle) cannot contain the
  // origin: take the nearest of its faces
  double edge = 0;
  for (int i = 1; i < 4; ++i) edge = std::max(edge, (p[i] - p[0]).norm());
  const double vol = (p[1] - p[0]).dot((p[2] - p[0]).cross(p[3] - p[0]));
  const bool flat = std::abs(vol) <= 1e-10 * edge * edge * edge;
  const int faces[4][4] = {{0, 1, 2, 3}, {0, 2, 3, 1}, {0, 3, 1, 2}, {1, 3, 2, 0}};
  for (const auto& f : faces) {
    if (!flat && !origin_outside_plane(p[f[0]], p[f[1]], p[f[2]], p[f[3]])) continue;
    inside = false;
    const ClosestResult r = closest_triangle(p[f[0]], p[f[1]], p[f[2]]);
    const double d = r.point.squaredNorm();
    if (d < best_d) {
      best_d = d;
      best.point = r.point;
      best.lambda.fill(0.0);
      for (int k = 0; k < 3; ++k) best.lambda[f[k]] = r.lambda[k];
    }
  }
  if (inside) return {Vector3::Zero(), {0.25, 0.25, 0.25, 0.25}};
  return best;
}

template <class SA, class SB>
double scale_of(const SA& a, const SB& b) {
  double s = 0;
  for (int k = 0; k < 3; ++k) {
    const Vector3 e = Vector3::Unit(k);
    s = std::max({s, (a(e) - a(-e)).norm(), (b(e) - b(-e)).norm()});
  }
  return std::max(s, 1e-12);
}

// At most four support points, in place (GJK runs for every polytope pair of a detection: a
// list on the heap per iteration was a fifth of it).
struct Simplex {
  std::array<SupportPoint, 4> p;
  size_t n = 0;
  size_t size() const { return n; }
  void clear() { n = 0; }
  void push_back(const SupportPoint& x) { p[n++] = x; }
  const SupportPoint& operator[](size_t k) const { return p[k]; }
  const SupportPoint* begin() const { return p.data(); }
  const SupportPoint* end() const { return p.data() + n; }
};

struct GjkState {
  Simplex simplex;
  bool intersecting = false;
  Vector3 v;
  ConvexDistance result;
};

// GJK (Gilbert, Johnson, Keerthi 1988; van den Bergen's termination test ‖v‖² − v·w ≤ ε²‖v‖²).
// (The support functions are template parameters: a point set's is a plain loop, called without
// the indirection of a std::function.)
template <class SA, class SB>
GjkState run_gjk(const SA& sa, const SB& sb, const GjkSettings& s) {
  GjkState st;
  const double scale = scale_of(sa, sb);
  const double eps = s.tolerance;
  Vector3 d = sa(Vector3::UnitX()) - sb(-Vector3::UnitX());
  if (d.squaredNorm() < 1e-30) d = Vector3::UnitX();
  SupportPoint p = support(sa, sb, -d);
  st.simplex.push_back(p);
  std::array<double, 4> lambda{1.0};
  size_t n_lambda = 1;
  Vector3 v = p.w;
  for (int it = 0; it < s.max_iterations; ++it) {
    st.result.iterations = it + 1;
    if (v.norm() <= 1e-12 * scale) {
      st.intersecting = true;
      break;
    }
    const SupportPoint w = support(sa, sb, -v);
    if (v.squaredNorm() - v.dot(w.w) <= eps * eps * v.squaredNorm() + 1e-26 * scale * scale) break;
    bool duplicate = false;
    for (const auto& q : st.simplex)
      if ((q.w - w.w).squaredNorm() < 1e-28 * scale * scale) duplicate = true;
    if (duplicate) break;
    Simplex cand = st.simplex;
    cand.push_back(w);
    ClosestResult c;
    switch (cand.size()) {
      case 2:
        c = closest_segment(cand[0].w, cand[1].w);
        break;
      case 3:
        c = closest_triangle(cand[0].w, cand[1].w, cand[2].w);
        break;
      default:
        c = closest_tetrahedron({cand[0].w, cand[1].w, cand[2].w, cand[3].w});
    }
    if (cand.size() == 4 && c.point.squaredNorm() == 0.0) {
      st.intersecting = true;
      st.simplex = cand;
      break;
    }
    // accept only a strict decrease (keeps v, the simplex and the weights consistent)
    if (c.point.squaredNorm() >= v.squaredNorm() * (1 - 1e-14)) break;
    st.simplex.clear();
    n_lambda = 0;
    for (size_t k = 0; k < cand.size(); ++k)
      if (c.lambda[k] > 0) st.simplex.push_back(cand[k]), lambda[n_lambda++] = c.lambda[k];
    v = c.point;
  }
  st.v = v;
  if (!st.intersecting) {
    Vector3 a = Vector3::Zero(), b = Vector3::Zero();
    for (size_t k = 0; k < st.simplex.size(); ++k)
      a += lambda[k] * st.simplex[k].a, b += lambda[k] * st.simplex[k].b;
    st.result.point_a = a, st.result.point_b = b;
    st.result.distance = v.norm();
    st.result.normal = v.norm() > 0 ? Vector3(v / v.norm()) : Vector3::UnitZ();
    if (st.result.distance <= 1e-12 * scale) st.intersecting = true;
  }
  st.result.intersecting = st.intersecting;
  return st;
}

// EPA (van den Bergen 2001): grow a polytope inside A − B towards its boundary nearest to the
// origin. Faces store outward normals; the horizon is rebuilt from the faces visible from each
// new support point.
template <class SA, class SB>
ConvexDistance run_epa(const SA& sa, const SB& sb, std::vector<SupportPoint> pts,
                       const GjkSettings& s) {
  const double scale = scale_of(sa, sb);
  const double tiny = 1e-10 * scale;
  // Blow the simplex up to a tetrahedron.
  auto add_if_new = [&](const SupportPoint& p, auto&& accept) {
    if (accept(p)) {
      pts.push_back(p);
      return true;
    }
    return false;
  };
  if (pts.empty()) pts.push_back(support(sa, sb, Vector3::UnitX()));
  if (pts.size() == 1) {
    for (int k = 0; k < 6 && pts.size() < 2; ++k) {
      const Vector3 d = (k % 2 ? -1.0 : 1.0) * Vector3::Unit(k / 2);
      add_if_new(support(sa, sb, d),
                 [&](const SupportPoint& p) { return (p.w - pts[0].w).norm() > tiny; });
    }
  }
  if (pts.size() == 2) {
    const Vector3 line = (pts[1].w - pts[0].w).normalized();
    const Vector3 ref = std::abs(line.x()) < 0.9 ? Vector3::UnitX() : Vector3::UnitY();
    const Vector3 p1 = line.cross(ref).normalized(), p2 = line.cross(p1);
    for (const Vector3& d : {p1, Vector3(-p1), p2, Vector3(-p2)}) {
      if (pts.size() >= 3) break;
      add_if_new(support(sa, sb, d), [&](const SupportPoint& p) {
        const Vector3 r = p.w - pts[0].w;
        return (r - r.dot(line) * line).norm() > tiny;
      });
    }
  }
  if (pts.size() == 3) {
    const Vector3 n = (pts[1].w - pts[0].w).cross(pts[2].w - pts[0].w).normalized();
    for (const Vector3& d : {n, Vector3(-n)}) {
      if (pts.size() >= 4) break;
      add_if_new(support(sa, sb, d),
                 [&](const SupportPoint& p) { return std::abs((p.w - pts[0].w).dot(n)) > tiny; });
    }
  }
  ConvexDistance out;
  out.intersecting = true;
  if (pts.size() < 4) {  // flat Minkowski difference: touching, depth 0
    out.distance = 0.0;
    out.point_a = pts[0].a, out.point_b = pts[0].b;
    return out;
  }
  struct Face {
    int i, j, k;
    Vector3 n;
    double d;
  };
  std::vector<Face> faces;
  Vector3 centroid = Vector3::Zero();
  for (int k = 0; k < 4; ++k) centroid += 0.25 * pts[k].w;
  auto make_face = [&](int i, int j, int k, Face& f) {
    Vector3 n = (pts[j].w - pts[i].w).cross(pts[k].w - pts[i].w);
    const double len = n.norm();
    if (len < 1e-300) return false;
    n /= len;
    if (n.dot(pts[i].w - centroid) < 0) {
      n = -n;
      std::swap(j, k);
    }
    f = Face{i, j, k, n, n.dot(pts[i].w)};
    return true;
  };
  for (const auto& t :
       std::array<std::array<int, 3>, 4>{{{0, 1, 2}, {0, 1, 3}, {0, 2, 3}, {1, 2, 3}}}) {
    Face f;
    if (make_face(t[0], t[1], t[2], f)) faces.push_back(f);
  }
  Face best = faces.front();
  for (int it = 0; it < s.max_iterations * 2 && !faces.empty(); ++it) {
    out.iterations = it + 1;
    best = *std::min_element(faces.begin(), faces.end(),
                             [](const Face& a, const Face& b) { return a.d < b.d; });
    const SupportPoint p = support(sa, sb, best.n);
    const double dist = p.w.dot(best.n);
    if (dist - best.d <= 1e-9 * scale + s.tolerance * std::abs(best.d)) break;
    const int idx = static_cast<int>(pts.size());
    pts.push_back(p);
    std::vector<std::pair<int, int>> edges;
    std::vector<Face> kept;
    for (const Face& f : faces) {
      if (f.n.dot(p.w - pts[f.i].w) > 1e-14 * scale) {
        for (auto e : {std::pair{f.i, f.j}, std::pair{f.j, f.k}, std::pair{f.k, f.i}}) {
          auto rev = std::find(edges.begin(), edges.end(), std::pair{e.second, e.first});
          if (rev != edges.end())
            edges.erase(rev);
          else
            edges.push_back(e);
        }
      } else {
        kept.push_back(f);
      }
    }
    if (edges.empty()) break;
    for (auto [i, j] : edges) {
      Vector3 n = (pts[j].w - pts[i].w).cross(pts[idx].w - pts[i].w);
      const double len = n.norm();
      if (len < 1e-300) continue;
      n /= len;
      kept.push_back(Face{i, j, idx, n, n.dot(pts[i].w)});
    }
    faces = std::move(kept);
  }
  // barycentric coordinates of the origin's projection on the best face
  const Vector3 proj = best.d * best.n;
  const Vector3 a = pts[best.i].w, b = pts[best.j].w, c = pts[best.k].w;
  const Vector3 v0 = b - a, v1 = c - a, v2 = proj - a;
  const double d00 = v0.dot(v0), d01 = v0.dot(v1), d11 = v1.dot(v1), d20 = v2.dot(v0),
               d21 = v2.dot(v1);
  const double den = d00 * d11 - d01 * d01;
  double l1 = 0, l2 = 0;
  if (std::abs(den) > 1e-300)
    l1 = (d11 * d20 - d01 * d21) / den, l2 = (d00 * d21 - d01 * d20) / den;
  const double l0 = 1 - l1 - l2;
  out.point_a = l0 * pts[best.i].a + l1 * pts[best.j].a + l2 * pts[best.k].a;
  out.point_b = l0 * pts[best.i].b + l1 * pts[best.j].b + l2 * pts[best.k].b;
  out.distance = -std::max(best.d, 0.0);
  out.normal = -best.n;
  return out;
}

// The support of a finite point set: its first point of largest d·x.
struct PointSetSupport {
  const std::vector<Vector3>& pts;
  Vector3 operator()(const Vector3& d) const {
    size_t best = 0;
    double bv = -INFINITY;
    for (size_t i = 0; i < pts.size(); ++i) {
      const double s = pts[i].dot(d);
      if (s > bv) bv = s, best = i;
    }
    return pts[best];
  }
};

}  // namespace

ConvexDistance gjk_distance(const std::vector<Vector3>& a, const std::vector<Vector3>& b,
                            const GjkSettings& settings) {
  MOREAU_REQUIRE(!a.empty() && !b.empty(), "gjk_distance: a point set is empty ({} and {} points)",
                 a.size(), b.size());
  return run_gjk(PointSetSupport{a}, PointSetSupport{b}, settings).result;
}

ConvexDistance gjk_distance(const SupportFunction& a, const SupportFunction& b,
                            const GjkSettings& settings) {
  return run_gjk(a, b, settings).result;
}

ConvexDistance convex_signed_distance(const SupportFunction& a, const SupportFunction& b,
                                      const GjkSettings& settings) {
  GjkState st = run_gjk(a, b, settings);
  if (!st.intersecting) return st.result;
  ConvexDistance r =
      run_epa(a, b, std::vector<SupportPoint>(st.simplex.begin(), st.simplex.end()), settings);
  r.iterations += st.result.iterations;
  return r;
}

}  // namespace moreau
