// Narrow phase (see narrow_phase.hpp for the list of routines and conventions).
#include "moreau/contact/collision/narrow_phase.hpp"

#include <algorithm>
#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/contact/collision/gjk.hpp"
#include "moreau/contact/collision/segment_distance.hpp"
#include "moreau/model/contact_frame.hpp"

namespace moreau {
namespace {

using Points = std::vector<ContactPoint>;

ContactPoint flipped(ContactPoint c) {
  std::swap(c.point_a, c.point_b);
  c.normal = -c.normal;
  c.normal_on_a = !c.normal_on_a;
  return c;
}

// World core points of a posed shape, into out (its capacity kept by a caller that reuses it).
void world_core(const Shape& s, const Pose& p, std::vector<Vector3>& out) {
  out.resize(s.core_point_count());
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = p.apply(s.core_point(k));
}

// The same as a new list.
std::vector<Vector3> world_core(const Shape& s, const Pose& p) {
  std::vector<Vector3> out;
  world_core(s, p, out);
  return out;
}

// Shape A (not a plane) against half-space B: every core vertex (sphere centre, capsule ends,
// box corners, mesh vertices), gap = N·(x − p0) − r; the cylinder gives rim points: on each cap
// the lowest rim point u = −(N − (N·a)a)/‖…‖ and the rim points at 90°, 180°, 270° from it.
Points against_plane(const Shape& a, const Pose& pa, const Shape& plane, const Pose& pp,
                     double margin) {
  Vector3 N, p0;
  plane_world(plane, pp, N, p0);
  Points out;
  auto add = [&](const Vector3& x, double r, int feature) {
    const double h = N.dot(x - p0);
    const double gap = h - r;
    if (gap > margin) return;
    out.push_back(ContactPoint{x - r * N, x - h * N, N, gap, feature});
  };
  if (a.kind == ShapeKind::cylinder) {
    const Vector3 axis = pa.orientation * Vector3::UnitZ();
    Vector3 radial = -(N - N.dot(axis) * axis);
    if (radial.norm() < 1e-12) {
      const Vector3 ref = std::abs(axis.x()) < 0.9 ? Vector3::UnitX() : Vector3::UnitY();
      radial = axis.cross(ref);
    }
    radial.normalize();
    const Vector3 side = axis.cross(radial);
    int f = 0;
    for (double sgn : {-1.0, 1.0}) {
      const Vector3 c = pa.position + sgn * a.half_length * axis;
      for (const Vector3& u : {radial, side, Vector3(-radial), Vector3(-side)})
        add(c + a.radius * u, 0.0, f++);
    }
    return out;
  }
  if (a.kind == ShapeKind::ellipsoid) {  // its one lowest point, the support along −N
    add(pa.apply(a.support(pa.orientation.conjugate() * Vector3(-N))), 0.0, 0);
    return out;
  }
  if (a.kind == ShapeKind::convex) {
    // heights in A's frame, N·(R x + t − p₀) = (Rᵀ N)·x + N·(t − p₀): a dot product a vertex, and
    // only the vertices within the margin mapped to the world (a mesh has hundreds)
    const Vector3 n_local = pa.orientation.conjugate() * N;
    const double offset = N.dot(pa.position - p0), r = a.core_radius();
    // the vertex bounds' lowest corner along n, n·c − |n|·e: above the margin, no vertex is
    if (a.has_vertex_bounds()) {
      const Vector3 c = 0.5 * (a.vertex_lower + a.vertex_upper);
      const Vector3 e = 0.5 * (a.vertex_upper - a.vertex_lower);
      const double slack = 1e-12 * (1.0 + a.vertex_radius);  // round-off of the corner's height
      if (n_local.dot(c) - n_local.cwiseAbs().dot(e) + offset - r > margin + slack) return out;
    }
    for (size_t k = 0; k < a.vertices.size(); ++k)
      if (n_local.dot(a.vertices[k]) + offset - r <= margin)
        add(pa.apply(a.vertices[k]), r, static_cast<int>(k));
    return out;
  }
  const double r = a.core_radius();  // sphere, capsule, box: their few core points in place
  for (size_t k = 0; k < a.core_point_count(); ++k)
    add(pa.apply(a.core_point(k)), r, static_cast<int>(k));
  return out;
}

// Sphere A (centre c, radius r) against box B: closest point of the box; centre inside → the
// nearest face.
Points sphere_box(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin) {
  const Vector3 c = pa.position;
  const Matrix3 R = pb.rotation();
  const Vector3 cl = R.transpose() * (c - pb.position);
  const Vector3 h = b.half_extents;
  const Vector3 clamped = cl.cwiseMax(-h).cwiseMin(h);
  const Vector3 d = cl - clamped;
  ContactPoint p;
  if (d.norm() > 1e-14 * h.norm()) {
    p.normal = R * d.normalized();
    p.gap = d.norm() - a.radius;
    p.point_b = pb.apply(clamped);
  } else {
    Index k;
    (h - cl.cwiseAbs()).minCoeff(&k);
    const double sgn = cl[k] >= 0 ? 1.0 : -1.0;
    p.normal = R * (sgn * Vector3::Unit(k));
    p.gap = -(h[k] - std::abs(cl[k])) - a.radius;
    Vector3 face = cl;
    face[k] = sgn * h[k];
    p.point_b = pb.apply(face);
  }
  p.point_a = c - a.radius * p.normal;
  if (p.gap > margin) return {};
  return {p};
}

Points sphere_sphere(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                     int dim) {
  const Vector3 d = pa.position - pb.position;
  const double len = d.norm();
  const Vector3 n =
      len > 1e-300 ? Vector3(d / len) : (dim == 2 ? Vector3::UnitY() : Vector3::UnitZ());
  const double gap = len - a.radius - b.radius;
  if (gap > margin) return {};
  return {ContactPoint{pa.position - a.radius * n, pb.position + b.radius * n, n, gap, 0}};
}

// ---- polytope-core pairs: normal from GJK/SAT/EPA, manifold by clipping the features ----

// Height along n of a feature (points, sorted in the plane ⊥ n) at 2D location x.
struct Feature {
  std::vector<Vector3> pts;                // world
  std::vector<Vector2> uv;                 // in-plane coordinates
  std::vector<double> h;                   // along n
  Vector3 plane_normal = Vector3::Zero();  // Newell normal (≥ 3 points)
  Vector3 centroid = Vector3::Zero();
};

struct Frame2 {
  Vector3 n, t1, t2;
  Vector2 uv(const Vector3& x) const { return {t1.dot(x), t2.dot(x)}; }
  Vector3 lift(const Vector2& u, double h) const { return u.x() * t1 + u.y() * t2 + h * n; }
};

double cross2(const Vector2& a, const Vector2& b) { return a.x() * b.y() - a.y() * b.x(); }

// Vertices of `core` whose coordinate along `dir` is within tol of the maximum, ordered
// counter-clockwise in the plane ⊥ n (duplicates in projection removed), into f. Each vertex's
// in-plane coordinates and angle are computed once; f's lists and the scratch lists keep their
// capacity from call to call (every capsule pair of a humanoid's detection and every face pair
// of a box stack passes here, twice).
void support_feature(const std::vector<Vector3>& core, const Vector3& dir, double tol,
                     const Frame2& F, Feature& f) {
  struct Vertex {
    double angle;  // about the centroid of the selected vertices, in the plane (atan2)
    Vector3 x;     // world
    Vector2 uv;    // F.uv(x)
  };
  thread_local std::vector<Vertex> cand, kept, hp;
  thread_local std::vector<int> hull;
  double best = -INFINITY;
  for (const auto& x : core) best = std::max(best, dir.dot(x));
  f.pts.clear(), f.uv.clear(), f.h.clear();
  f.plane_normal.setZero(), f.centroid.setZero();
  cand.clear();
  for (const auto& x : core)
    if (dir.dot(x) >= best - tol) cand.push_back(Vertex{0.0, x, F.uv(x)});
  Vector2 c2 = Vector2::Zero();
  for (const Vertex& p : cand) c2 += p.uv;
  c2 /= static_cast<double>(cand.size());
  for (Vertex& p : cand) {
    const Vector2 d = p.uv - c2;
    p.angle = std::atan2(d.y(), d.x());
  }
  std::sort(cand.begin(), cand.end(),
            [](const Vertex& a, const Vertex& b) { return a.angle < b.angle; });
  // remove points coincident in projection (keep the one nearer the support)
  kept.clear();
  for (const Vertex& p : cand) {
    bool dup = false;
    for (Vertex& y : kept)
      if ((p.uv - y.uv).norm() < 1e-9 * (1 + y.uv.norm())) {
        if (dir.dot(p.x) > dir.dot(y.x)) y = p;
        dup = true;
      }
    if (!dup) kept.push_back(p);
  }
  // collinear triples in 2D reduce to their hull: keep it simple — a convex hull by gift wrapping
  if (kept.size() >= 3) {
    const int n = static_cast<int>(kept.size());
    auto uv = [&](int i) -> const Vector2& { return kept[static_cast<size_t>(i)].uv; };
    hull.clear();
    int start = 0;
    for (int i = 1; i < n; ++i)
      if (uv(i).x() < uv(start).x() || (uv(i).x() == uv(start).x() && uv(i).y() < uv(start).y()))
        start = i;
    int cur = start;
    do {
      hull.push_back(cur);
      int next = (cur + 1) % n;
      for (int i = 0; i < n; ++i) {
        const double cr = cross2(uv(next) - uv(cur), uv(i) - uv(cur));
        if (cr < 0 ||
            (std::abs(cr) < 1e-14 && (uv(i) - uv(cur)).norm() > (uv(next) - uv(cur)).norm()))
          next = i;
      }
      cur = next;
    } while (cur != start && hull.size() <= static_cast<size_t>(n));
    hp.clear();
    for (int i : hull) hp.push_back(kept[static_cast<size_t>(i)]);
    // drop collinear middle points
    kept.clear();
    for (size_t i = 0; i < hp.size(); ++i) {
      const Vector2 a = hp[(i + hp.size() - 1) % hp.size()].uv, b = hp[i].uv,
                    c = hp[(i + 1) % hp.size()].uv;
      if (hp.size() <= 2 ||
          std::abs(cross2(b - a, c - b)) > 1e-12 * ((b - a).norm() * (c - b).norm() + 1e-300))
        kept.push_back(hp[i]);
    }
    if (kept.size() < 2 && hp.size() >= 2) {  // all collinear: the two extremes
      kept = {hp.front(), hp.back()};
      double dmax = -1;
      for (size_t i = 0; i < hp.size(); ++i)
        for (size_t j = i + 1; j < hp.size(); ++j)
          if ((hp[i].uv - hp[j].uv).norm() > dmax)
            dmax = (hp[i].uv - hp[j].uv).norm(), kept = {hp[i], hp[j]};
    }
  }
  for (const Vertex& p : kept) {
    f.pts.push_back(p.x);
    f.uv.push_back(p.uv);
    f.h.push_back(F.n.dot(p.x));
  }
  for (const Vector3& x : f.pts) f.centroid += x / static_cast<double>(f.pts.size());
  if (f.pts.size() >= 3) {
    for (size_t i = 0; i < f.pts.size(); ++i) {
      const Vector3& a = f.pts[i];
      const Vector3& b = f.pts[(i + 1) % f.pts.size()];
      f.plane_normal += (a - f.centroid).cross(b - f.centroid);
    }
  }
}

// Height of the feature along n at the in-plane location x.
double feature_height(const Feature& f, const Frame2& F, const Vector2& x) {
  if (f.pts.size() == 1) return f.h[0];
  if (f.pts.size() == 2) {
    const Vector2 e = f.uv[1] - f.uv[0];
    const double den = e.squaredNorm();
    const double s = den > 0 ? std::clamp((x - f.uv[0]).dot(e) / den, 0.0, 1.0) : 0.0;
    return f.h[0] + s * (f.h[1] - f.h[0]);
  }
  const Vector3 m = f.plane_normal;
  const double mn = m.dot(F.n);
  if (std::abs(mn) < 1e-9 * m.norm()) return *std::max_element(f.h.begin(), f.h.end());
  return (m.dot(f.centroid) - m.dot(F.lift(x, 0.0))) / mn;
}

// Sutherland–Hodgman: polygon P clipped by the convex CCW polygon C, into out (P and out distinct;
// the pass lists keep their capacity from call to call).
void clip_polygon(const std::vector<Vector2>& P0, const std::vector<Vector2>& C,
                  std::vector<Vector2>& out) {
  thread_local std::vector<Vector2> P;
  P = P0;
  for (size_t i = 0; i < C.size() && !P.empty(); ++i) {
    const Vector2 a = C[i], b = C[(i + 1) % C.size()];
    auto inside = [&](const Vector2& p) { return cross2(b - a, p - a) >= -1e-12 * (b - a).norm(); };
    out.clear();
    for (size_t k = 0; k < P.size(); ++k) {
      const Vector2 p = P[k], q = P[(k + 1) % P.size()];
      const bool ip = inside(p), iq = inside(q);
      if (ip) out.push_back(p);
      if (ip != iq) {
        // the crossing of the edge [p, q] with the clip line, kept on the edge: with the inside
        // test's tolerance, p may count as inside while slightly outside (d_p < 0, d_q < d_p), and
        // d_p/(d_p − d_q) then leaves [0, 1] (far off when the edge runs along the clip line)
        const double dp = cross2(b - a, p - a), dq = cross2(b - a, q - a);
        const double t = std::clamp(dp / (dp - dq), 0.0, 1.0);
        out.push_back(p + t * (q - p));
      }
    }
    P.swap(out);
  }
  out.swap(P);
}

// Segment [p, q] clipped by the convex CCW polygon C (Cyrus–Beck), into out.
void clip_segment(const Vector2& p, const Vector2& q, const std::vector<Vector2>& C,
                  std::vector<Vector2>& out) {
  out.clear();
  double t0 = 0, t1 = 1;
  const Vector2 d = q - p;
  for (size_t i = 0; i < C.size(); ++i) {
    const Vector2 a = C[i], b = C[(i + 1) % C.size()];
    const double num = cross2(b - a, p - a), den = cross2(b - a, d);
    // inside: num + t den ≥ 0
    if (std::abs(den) < 1e-300) {
      if (num < -1e-12 * (b - a).norm()) return;
      continue;
    }
    const double t = -num / den;
    if (den > 0)
      t0 = std::max(t0, t);
    else
      t1 = std::min(t1, t);
    if (t0 > t1 + 1e-12) return;
  }
  out.push_back(p + t0 * d);
  if (!(t1 - t0 < 1e-12)) out.push_back(p + t1 * d);
}

// Manifold of two polytope cores (radii ra, rb) given the normal n (from B to A): points with gap
// ≤ margin; the touching features take the vertices within 1e-7·scale + min(feature_margin,
// 0.02·scale) of each core's support plane (feature_margin: margin when not given).
Points clip_manifold(const std::vector<Vector3>& ca, double ra, const std::vector<Vector3>& cb,
                     double rb, const Vector3& normal, double scale, double margin,
                     double feature_margin = NAN) {
  if (std::isnan(feature_margin)) feature_margin = margin;
  Frame2 F;
  F.n = normal.normalized();
  // a 2D coordinate frame of the clipping plane (not a contact frame): t₁ = n × e_k/‖n × e_k‖, e_k
  // the contact frame's reference axis (continuous in n near the axes: contact_frame.hpp),
  // t₂ = n × t₁; it fixes the order of the manifold's points
  F.t1 = F.n.cross(Vector3::Unit(frame_reference_axis(F.n))).normalized();
  F.t2 = F.n.cross(F.t1);
  const double tol = 1e-7 * scale + std::min(std::max(feature_margin, 0.0), 0.02 * scale);
  thread_local Feature fa, fb;  // clip_manifold does not call itself
  support_feature(ca, -F.n, tol, F, fa);
  support_feature(cb, F.n, tol, F, fb);
  thread_local std::vector<Vector2> xs;  // the points of the manifold in the plane
  xs.clear();
  const size_t na = fa.pts.size(), nb = fb.pts.size();
  if (na == 1) {
    xs.push_back(fa.uv[0]);
  } else if (nb == 1) {
    xs.push_back(fb.uv[0]);
  } else if (na == 2 && nb == 2) {
    const Vector2 ea = fa.uv[1] - fa.uv[0], eb = fb.uv[1] - fb.uv[0];
    const double cr = cross2(ea, eb);
    if (std::abs(cr) <= 1e-6 * ea.norm() * eb.norm()) {  // parallel: overlap interval on A's edge
      const double L = ea.squaredNorm();
      double s0 = (fb.uv[0] - fa.uv[0]).dot(ea) / L, s1 = (fb.uv[1] - fa.uv[0]).dot(ea) / L;
      if (s0 > s1) std::swap(s0, s1);
      s0 = std::clamp(s0, 0.0, 1.0), s1 = std::clamp(s1, 0.0, 1.0);
      xs.push_back(fa.uv[0] + s0 * ea);
      if (s1 - s0 > 1e-9) xs.push_back(fa.uv[0] + s1 * ea);
    } else {  // crossing edges: intersection of the lines, clamped to the segments
      const double s = std::clamp(cross2(fb.uv[0] - fa.uv[0], eb) / cr, 0.0, 1.0);
      xs.push_back(fa.uv[0] + s * ea);
    }
  } else if (na == 2) {
    clip_segment(fa.uv[0], fa.uv[1], fb.uv, xs);
  } else if (nb == 2) {
    clip_segment(fb.uv[0], fb.uv[1], fa.uv, xs);
  } else {
    clip_polygon(fa.uv, fb.uv, xs);
  }
  if (xs.empty()) {  // features do not overlap in projection (tolerance effects): deepest vertex of
                     // A
    size_t k = 0;
    for (size_t i = 1; i < na; ++i)
      if (fa.h[i] < fa.h[k]) k = i;
    xs.push_back(fa.uv[k]);
  }
  Points out;
  int feature = 0;
  for (const auto& x : xs) {
    const double ha = feature_height(fa, F, x), hb = feature_height(fb, F, x);
    const double gap = ha - hb - ra - rb;
    if (gap > margin) continue;
    bool dup = false;
    for (const auto& p : out)
      if ((F.uv(p.point_a) - x).norm() < 1e-9 * scale) dup = true;
    if (dup) continue;
    // a vertex of B (and not of A) at x: the normal is carried by A's face
    auto is_vertex = [&](const Feature& f) {
      for (const auto& u : f.uv)
        if ((u - x).norm() < 1e-9 * scale) return true;
      return false;
    };
    const bool on_a = (nb == 1 && na > 1) || (is_vertex(fb) && !is_vertex(fa) && na > 2);
    out.push_back(ContactPoint{F.lift(x, ha - ra), F.lift(x, hb + rb), F.n, gap, feature++, on_a});
  }
  return out;
}

// Separating-axis test for two boxes: the 15 axes (3 + 3 face normals, 9 edge cross products);
// returns the axis of largest separation (least overlap), oriented from B to A. Face axes win
// ties within 1e-9·scale so that stacked boxes get face normals.
Vector3 box_box_axis(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double scale) {
  const Matrix3 Ra = pa.rotation(), Rb = pb.rotation();
  const Vector3 d = pa.position - pb.position;
  auto separation = [&](const Vector3& L) {
    double ra = 0, rb = 0;
    for (int k = 0; k < 3; ++k) ra += a.half_extents[k] * std::abs(L.dot(Ra.col(k)));
    for (int k = 0; k < 3; ++k) rb += b.half_extents[k] * std::abs(L.dot(Rb.col(k)));
    return std::abs(L.dot(d)) - ra - rb;
  };
  Vector3 best = Ra.col(0);
  double best_s = -INFINITY;
  for (int k = 0; k < 3; ++k)
    for (const Vector3& L : {Vector3(Ra.col(k)), Vector3(Rb.col(k))}) {
      const double s = separation(L);
      if (s > best_s) best_s = s, best = L;
    }
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Vector3 L = Ra.col(i).cross(Rb.col(j));
      if (L.norm() < 1e-6) continue;
      L.normalize();
      const double s = separation(L);
      if (s > best_s + 1e-9 * scale) best_s = s, best = L;
    }
  return best.dot(d) >= 0 ? best : Vector3(-best);
}

Points core_pair(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                 double scale) {
  // the two cores in per-thread lists (core_pair does not call itself): every capsule pair of a
  // humanoid's detection passes here
  thread_local std::vector<Vector3> ca, cb;
  world_core(a, pa, ca);
  world_core(b, pb, cb);
  const double ra = a.core_radius(), rb = b.core_radius();
  // cores of at most two points (spheres, capsules): their distance in closed form, not by GJK
  ConvexDistance g;
  if (ca.size() <= 2 && cb.size() <= 2) {
    const SegmentClosestPoints c =
        segment_closest_points(ca.front(), ca.back(), cb.front(), cb.back());
    const Vector3 ab = c.on_a - c.on_b;
    g.distance = ab.norm();
    g.intersecting = !(g.distance > 0.0);
    if (!g.intersecting) g.normal = ab / g.distance;
  } else {
    g = gjk_distance(ca, cb);
  }
  Vector3 n;
  if (!g.intersecting && g.distance > 1e-9 * scale) {
    if (g.distance - ra - rb > margin) return {};
    n = g.normal;
  } else if (a.kind == ShapeKind::box && b.kind == ShapeKind::box) {
    n = box_box_axis(a, pa, b, pb, scale);
  } else if (a.kind == ShapeKind::capsule && b.kind == ShapeKind::capsule) {
    // crossing segments: n ∥ d_A × d_B (parallel: ⊥ to the common line, towards A)
    const Vector3 da = ca[1] - ca[0], db = cb[1] - cb[0];
    n = da.cross(db);
    const Vector3 c = 0.5 * (ca[0] + ca[1]) - 0.5 * (cb[0] + cb[1]);
    if (n.norm() < 1e-9 * da.norm() * db.norm()) n = c - c.dot(da.normalized()) * da.normalized();
    if (n.norm() < 1e-300) n = da.unitOrthogonal();
    n.normalize();
    if (n.dot(c) < 0) n = -n;
  } else {
    const ConvexDistance e =
        convex_signed_distance([&](const Vector3& d) { return world_support(a, pa, d); },
                               [&](const Vector3& d) { return world_support(b, pb, d); });
    n = e.normal;
  }
  return clip_manifold(ca, ra, cb, rb, n, scale, margin);
}

// Rim of a cylinder as a polytope core: kRimPoints points on each cap circle, phased so that
// the first point of each cap is the rim point furthest along d (the support point of the rim).
// The polygon is inscribed: its vertices are exact surface points.
constexpr int kRimPoints = 8;
std::vector<Vector3> cylinder_rim(const Shape& s, const Pose& p, const Vector3& d) {
  const Vector3 axis = p.orientation * Vector3::UnitZ();
  Vector3 radial = d - d.dot(axis) * axis;
  if (radial.norm() < 1e-9 * d.norm()) radial = axis.unitOrthogonal();
  radial.normalize();
  const Vector3 side = axis.cross(radial);
  std::vector<Vector3> out;
  for (double sgn : {-1.0, 1.0})
    for (int k = 0; k < kRimPoints; ++k) {
      const double phi = 2.0 * M_PI * k / kRimPoints;
      out.push_back(p.position + sgn * s.half_length * axis +
                    s.radius * (std::cos(phi) * radial + std::sin(phi) * side));
    }
  return out;
}

// General convex pair (pairs with a cylinder): GJK/EPA on the full support functions gives the
// distance and normal n; then, unless a sphere is involved, the touching features are clipped
// as for polytopes with each cylinder replaced by its rim polygons (cylinder_rim phased along
// −n for A, +n for B): a cap lying flat on a face gives kRimPoints rim points, a side lying on
// a face its two generator ends. The manifold is kept only when it has several points and its
// smallest gap matches the GJK/EPA distance; otherwise (a tilted rim touching, …) the one
// GJK/EPA point.
Points general_pair(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                    double scale) {
  const ConvexDistance e =
      convex_signed_distance([&](const Vector3& d) { return world_support(a, pa, d); },
                             [&](const Vector3& d) { return world_support(b, pb, d); });
  const double gap = e.distance;
  if (gap > margin) return {};
  const auto round = [](const Shape& s) {
    return s.kind == ShapeKind::sphere || s.kind == ShapeKind::ellipsoid;
  };
  if (!round(a) && !round(b)) {
    const Vector3 n = e.normal;
    const auto ca = a.kind == ShapeKind::cylinder ? cylinder_rim(a, pa, -n) : world_core(a, pa);
    const auto cb = b.kind == ShapeKind::cylinder ? cylinder_rim(b, pb, n) : world_core(b, pb);
    const double ra = a.kind == ShapeKind::cylinder ? 0.0 : a.core_radius();
    const double rb = b.kind == ShapeKind::cylinder ? 0.0 : b.core_radius();
    // a rim's neighbours of its lowest point stand r (1 − cos(2π/kRimPoints)) above it: the
    // touching feature takes points within half that, so that a side lying on a face is its
    // generator segment, not a polygon whose projection hides the generator inside it
    double feature_margin = margin;
    for (const Shape* s : {&a, &b})
      if (s->kind == ShapeKind::cylinder)
        feature_margin =
            std::min(feature_margin, 0.5 * s->radius * (1.0 - std::cos(2.0 * M_PI / kRimPoints)));
    const Points m = clip_manifold(ca, ra, cb, rb, n, scale, margin, feature_margin);
    double gmin = INFINITY;
    for (const auto& c : m) gmin = std::min(gmin, c.gap);
    if (m.size() >= 2 && std::abs(gmin - gap) <= 1e-7 * scale) return m;
  }
  return {ContactPoint{e.point_a, e.point_b, e.normal, gap, 0, false}};
}

// 2D: extrude boxes and polygons along z so that the 3D routines see solids.
Shape extruded(const Shape& s, double depth) {
  Shape out = s;
  if (s.kind == ShapeKind::box) out.half_extents.z() = depth;
  if (s.kind == ShapeKind::convex) {
    out.vertices.clear();
    for (const auto& v : s.vertices) {
      out.vertices.emplace_back(v.x(), v.y(), -depth);
      out.vertices.emplace_back(v.x(), v.y(), depth);
    }
    out.form_vertex_bounds();
  }
  return out;
}

Points collide3(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                int dim) {
  if (a.kind == ShapeKind::plane && b.kind == ShapeKind::plane) return {};
  if (a.kind == ShapeKind::plane) {
    Points r = against_plane(b, pb, a, pa, margin);
    for (auto& c : r) c = flipped(c);
    return r;
  }
  if (b.kind == ShapeKind::plane) return against_plane(a, pa, b, pb, margin);
  // bounding-sphere rejection
  const double scale = std::max(a.bounding_radius(), b.bounding_radius());
  if ((pa.position - pb.position).norm() - a.bounding_radius() - b.bounding_radius() > margin)
    return {};
  if (a.kind == ShapeKind::sphere && b.kind == ShapeKind::sphere)
    return sphere_sphere(a, pa, b, pb, margin, dim);
  if (a.kind == ShapeKind::sphere && b.kind == ShapeKind::box)
    return sphere_box(a, pa, b, pb, margin);
  if (a.kind == ShapeKind::box && b.kind == ShapeKind::sphere) {
    Points r = sphere_box(b, pb, a, pa, margin);
    for (auto& c : r) c = flipped(c);
    return r;
  }
  if (a.has_core() && b.has_core()) return core_pair(a, pa, b, pb, margin, scale);
  return general_pair(a, pa, b, pb, margin, scale);
}

}  // namespace

void plane_world(const Shape& plane, const Pose& pose, Vector3& N, Vector3& p0) {
  const Vector3 n = plane.normal.normalized();
  N = pose.orientation * n;
  p0 = pose.apply(n * (plane.offset_distance / plane.normal.norm()));
}

Vector3 world_support(const Shape& shape, const Pose& pose, const Vector3& d) {
  return pose.apply(shape.support(pose.orientation.conjugate() * d));
}

std::vector<ContactPoint> collide(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                                  const NarrowPhaseSettings& settings) {
  MOREAU_REQUIRE(settings.dimension == 2 || settings.dimension == 3,
                 "collide: dimension must be 2 or 3, got {}", settings.dimension);
  MOREAU_REQUIRE(!std::isnan(settings.margin), "collide: margin must not be NaN");
  if (settings.dimension == 3) return collide3(a, pa, b, pb, settings.margin, 3);
  MOREAU_REQUIRE(a.kind != ShapeKind::cylinder && b.kind != ShapeKind::cylinder,
                 "collide: cylinders are spatial shapes; use a box or capsule in 2D");
  const double depth = 1.0 + (a.kind == ShapeKind::plane ? 0.0 : a.bounding_radius()) +
                       (b.kind == ShapeKind::plane ? 0.0 : b.bounding_radius());
  Points raw = collide3(extruded(a, depth), pa, extruded(b, depth), pb, settings.margin, 2);
  Points out;
  for (auto c : raw) {
    c.point_a.z() = 0, c.point_b.z() = 0, c.normal.z() = 0;
    const double nn = c.normal.norm();
    if (nn < 1e-12) continue;
    c.normal /= nn;
    bool dup = false;
    for (auto& o : out)
      if ((o.point_a - c.point_a).norm() < 1e-9 * depth) {
        dup = true;
        if (c.gap < o.gap) o = c;
      }
    if (!dup) out.push_back(c);
  }
  for (size_t k = 0; k < out.size(); ++k)
    if (a.kind != ShapeKind::plane && b.kind != ShapeKind::plane)
      out[k].feature = static_cast<int>(k);
  return out;
}

}  // namespace moreau
