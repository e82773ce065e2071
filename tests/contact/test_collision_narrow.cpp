// Narrow phase against analytic distances, normals and witness points.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "moreau/contact/collision/broad_phase.hpp"
#include "moreau/contact/collision/gjk.hpp"
#include "moreau/contact/collision/narrow_phase.hpp"
#include "moreau/contact/collision/segment_distance.hpp"

using namespace moreau;

namespace {
Pose at(const Vector3& p, const Quaternion& q = Quaternion::Identity()) { return Pose{p, q}; }
Quaternion rot(double angle, const Vector3& axis) {
  return Quaternion(Eigen::AngleAxisd(angle, axis.normalized()));
}
const NarrowPhaseSettings k3{.margin = 1e-3, .dimension = 3};
}  // namespace

// Spheres r = 1 at the origin (A) and r = 0.5 at (3, 0, 0) (B): gap = 3 − 1.5 = 1.5, the
// normal from B to A is −x, witnesses (−1·(−x)) → A's point (1, 0, 0)... A's surface point
// nearest B is (1, 0, 0) and B's is (2.5, 0, 0).
TEST(CollisionNarrow, SphereSphere) {
  const auto c = collide(make_sphere(1.0), at(Vector3::Zero()), make_sphere(0.5),
                         at(Vector3(3, 0, 0)), {.margin = 2.0, .dimension = 3});
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].gap, 1.5, 1e-14);
  EXPECT_LT((c[0].normal - Vector3(-1, 0, 0)).norm(), 1e-14);
  EXPECT_LT((c[0].point_a - Vector3(1, 0, 0)).norm(), 1e-14);
  EXPECT_LT((c[0].point_b - Vector3(2.5, 0, 0)).norm(), 1e-14);
  EXPECT_TRUE(
      collide(make_sphere(1.0), at(Vector3::Zero()), make_sphere(0.5), at(Vector3(3, 0, 0)), k3)
          .empty());
}

// Unit cube (half 0.5) tilted by α about y, centre at height z_c above the plane z = 0: corner
// (±½, ·, ±½) has height z_c + (±½ sin α ... ) = z_c + R·corner; the two lowest corners
// (x = −½, z = −½ rotated) reach z_c − ½(cos α + sin α) for α > 0.
TEST(CollisionNarrow, BoxPlaneCorners) {
  const double a = 0.2, zc = 0.5 * (std::cos(a) + std::sin(a)) - 0.01;
  const auto c =
      collide(make_box(Vector3::Constant(0.5)), at(Vector3(0, 0, zc), rot(a, Vector3::UnitY())),
              make_plane(Vector3::UnitZ()), at(Vector3::Zero()), k3);
  ASSERT_EQ(c.size(), 2u);  // the lowest edge: two corners at gap −0.01
  for (const auto& p : c) {
    EXPECT_NEAR(p.gap, -0.01, 1e-14);
    EXPECT_LT((p.normal - Vector3::UnitZ()).norm(), 1e-15);
    EXPECT_NEAR(p.point_b.z(), 0.0, 1e-15);
    EXPECT_NEAR(p.point_a.z(), -0.01, 1e-14);
  }
  // flat on the plane: 4 corners
  const auto flat = collide(make_box(Vector3::Constant(0.5)), at(Vector3(1, 2, 0.45)),
                            make_plane(Vector3::UnitZ()), at(Vector3::Zero()), k3);
  ASSERT_EQ(flat.size(), 4u);
  for (const auto& p : flat) EXPECT_NEAR(p.gap, -0.05, 1e-14);
  // plane first: the normal flips (from the box to the plane)
  const auto rev = collide(make_plane(Vector3::UnitZ()), at(Vector3::Zero()),
                           make_box(Vector3::Constant(0.5)), at(Vector3(1, 2, 0.45)), k3);
  ASSERT_EQ(rev.size(), 4u);
  EXPECT_LT((rev[0].normal + Vector3::UnitZ()).norm(), 1e-15);
}

// Parallel capsules along x, r = 0.2, axes 1 apart in y, segments [−1, 1] and [0, 2]: gap
// 1 − 0.4 = 0.6 at the two ends of the overlap x ∈ [0, 1].
TEST(CollisionNarrow, CapsuleCapsuleParallelAndCrossing) {
  const auto c = collide(make_capsule(0.2, 1.0), at(Vector3(0, 1, 0)), make_capsule(0.2, 1.0),
                         at(Vector3(1, 0, 0)), {.margin = 1.0, .dimension = 3});
  ASSERT_EQ(c.size(), 2u);
  std::vector<double> xs;
  for (const auto& p : c) {
    EXPECT_NEAR(p.gap, 0.6, 1e-12);
    EXPECT_LT((p.normal - Vector3::UnitY()).norm(), 1e-12);
    xs.push_back(p.point_a.x());
  }
  std::sort(xs.begin(), xs.end());
  EXPECT_NEAR(xs[0], 0.0, 1e-12);
  EXPECT_NEAR(xs[1], 1.0, 1e-12);
  // crossing: A along x at z = 1, B along y at z = 0, r = 0.3: gap 0.4 at the crossing point
  const auto x = collide(make_capsule(0.3, 1.0), at(Vector3(0, 0, 1)), make_capsule(0.3, 1.0),
                         at(Vector3::Zero(), rot(M_PI / 2, Vector3::UnitZ())),
                         {.margin = 1.0, .dimension = 3});
  ASSERT_EQ(x.size(), 1u);
  EXPECT_NEAR(x[0].gap, 0.4, 1e-12);
  EXPECT_LT((x[0].normal - Vector3::UnitZ()).norm(), 1e-12);
  EXPECT_LT((x[0].point_a - Vector3(0, 0, 0.7)).norm(), 1e-12);
  // crossing and penetrating (segments intersect): normal ∥ d_A × d_B, depth 2r
  const auto p = collide(make_capsule(0.3, 1.0), at(Vector3(0, 0, 1e-3)), make_capsule(0.3, 1.0),
                         at(Vector3::Zero(), rot(M_PI / 2, Vector3::UnitZ())), k3);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_NEAR(p[0].gap, 1e-3 - 0.6, 1e-12);
}

// Unit cubes: B at the origin, A above, rotated 10° about z and shifted (0.2, 0.1): A's bottom
// face overlaps B's top face, penetration 0.05, normal +z; the manifold is the overlap polygon
// (≥ 4 points), all at gap −0.05.
TEST(CollisionNarrow, BoxBoxFaceAndEdge) {
  const Shape cube = make_box(Vector3::Constant(0.5));
  const auto c = collide(cube, at(Vector3(0.2, 0.1, 0.95), rot(0.17, Vector3::UnitZ())), cube,
                         at(Vector3::Zero()), k3);
  ASSERT_GE(c.size(), 4u);
  for (const auto& p : c) {
    EXPECT_NEAR(p.gap, -0.05, 1e-12);
    EXPECT_LT((p.normal - Vector3::UnitZ()).norm(), 1e-12);
    EXPECT_LE(std::abs(p.point_b.x()), 0.5 + 1e-12);  // inside B's top face
    EXPECT_LE(std::abs(p.point_b.y()), 0.5 + 1e-12);
  }
  // exact stacking (gap 0): 4 corners
  const auto s = collide(cube, at(Vector3(0, 0, 1.0)), cube, at(Vector3::Zero()), k3);
  ASSERT_EQ(s.size(), 4u);
  for (const auto& p : s) EXPECT_NEAR(p.gap, 0.0, 1e-14);
  // edge on edge: A rotated 45° about x (lowest edge along x), B rotated 45° about y (top edge
  // along y); each edge sits √2/2 from its centre: centres 2·(√2/2) + 0.1 apart → gap 0.1.
  const double r = std::sqrt(0.5);
  const auto e = collide(cube, at(Vector3(0, 0, 2 * r + 0.1), rot(M_PI / 4, Vector3::UnitX())),
                         cube, at(Vector3::Zero(), rot(M_PI / 4, Vector3::UnitY())),
                         {.margin = 0.5, .dimension = 3});
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NEAR(e[0].gap, 0.1, 1e-12);
  EXPECT_LT((e[0].normal - Vector3::UnitZ()).norm(), 1e-9);
  EXPECT_LT((e[0].point_b - Vector3(0, 0, r)).norm(), 1e-9);
  // penetrating edge-edge (SAT picks the cross-product axis)
  const auto ep = collide(cube, at(Vector3(0, 0, 2 * r - 0.02), rot(M_PI / 4, Vector3::UnitX())),
                          cube, at(Vector3::Zero(), rot(M_PI / 4, Vector3::UnitY())), k3);
  ASSERT_EQ(ep.size(), 1u);
  EXPECT_NEAR(ep[0].gap, -0.02, 1e-12);
}

// Sphere r = 0.3 against the unit cube: centre outside near a corner, distance to the corner;
// centre inside: the nearest face.
TEST(CollisionNarrow, SphereBoxClosedForm) {
  const Shape cube = make_box(Vector3::Constant(0.5));
  const Vector3 c(0.8, 0.9, 0.5);  // nearest point (0.5, 0.5, 0.5), distance 0.5
  const auto o =
      collide(make_sphere(0.3), at(c), cube, at(Vector3::Zero()), {.margin = 1.0, .dimension = 3});
  ASSERT_EQ(o.size(), 1u);
  EXPECT_NEAR(o[0].gap, 0.5 - 0.3, 1e-14);
  EXPECT_LT((o[0].normal - Vector3(0.6, 0.8, 0)).norm(), 1e-14);
  const auto in =
      collide(make_sphere(0.3), at(Vector3(0.1, 0.0, 0.4)), cube, at(Vector3::Zero()), k3);
  ASSERT_EQ(in.size(), 1u);
  EXPECT_NEAR(in[0].gap, -(0.1 + 0.3), 1e-14);  // face z = 0.5 at depth 0.1, plus the radius
  EXPECT_LT((in[0].normal - Vector3::UnitZ()).norm(), 1e-14);
}

// Cylinder r = 0.2, h = 0.5: upright (axis z) with its base 0.01 into the floor → 4 rim points
// at gap −0.01; lying on its side at height r − 0.01 → one rim point per cap.
TEST(CollisionNarrow, CylinderPlaneRim) {
  const Shape cyl = make_cylinder(0.2, 0.5);
  const auto up =
      collide(cyl, at(Vector3(0, 0, 0.49)), make_plane(Vector3::UnitZ()), at(Vector3::Zero()), k3);
  ASSERT_EQ(up.size(), 4u);
  for (const auto& p : up) {
    EXPECT_NEAR(p.gap, -0.01, 1e-14);
    EXPECT_NEAR(Vector2(p.point_a.x(), p.point_a.y()).norm(), 0.2, 1e-14);
  }
  const auto side = collide(cyl, at(Vector3(0, 0, 0.19), rot(M_PI / 2, Vector3::UnitX())),
                            make_plane(Vector3::UnitZ()), at(Vector3::Zero()), k3);
  ASSERT_EQ(side.size(), 2u);
  for (const auto& p : side) EXPECT_NEAR(p.gap, -0.01, 1e-14);
  // cylinder against a sphere through GJK: sphere r 0.1 on the axis above the top cap
  const auto s = collide(make_sphere(0.1), at(Vector3(0, 0, 0.7)), cyl, at(Vector3::Zero()),
                         {.margin = 1, .dimension = 3});
  ASSERT_EQ(s.size(), 1u);
  EXPECT_NEAR(s[0].gap, 0.1, 1e-9);
}

// A thin cylinder (r = 0.025, length 0.3, axis x) lying on a box top 5 nm above it, its far end
// beyond the box's edge x = 0.45: the contact is its lowest generator clipped by the face, two
// points at x = 0.41 (its end) and x = 0.45 (the edge), whatever the yaw of its axis, and not one
// point that jumps between its ends from step to step (an arm's forearm resting on a table).
TEST(CollisionNarrow, CylinderSideOnABoxFaceIsItsGenerator) {
  const Shape box = make_box(Vector3(0.45, 0.3, 0.025));
  const Shape cyl = make_cylinder(0.025, 0.15);
  for (const double yaw : {0.0, 0.3}) {
    const Quaternion q(Eigen::AngleAxisd(yaw, Vector3::UnitZ()) *
                       Eigen::AngleAxisd(M_PI / 2, Vector3::UnitY()));
    const Vector3 c(0.56, 0.01, 0.05 + 5e-9);
    const auto pts =
        collide(cyl, Pose{c, q}, box, at(Vector3::Zero()), {.margin = 0.02, .dimension = 3});
    ASSERT_EQ(pts.size(), 2u) << "yaw " << yaw;
    const Vector3 axis = q * Vector3::UnitZ();
    // the generator's end x₀ = 0.56 − 0.15 cos(yaw), and where the generator meets x = 0.45
    std::vector<double> xs = {pts[0].point_a.x(), pts[1].point_a.x()};
    std::sort(xs.begin(), xs.end());
    EXPECT_NEAR(xs[0], 0.56 - 0.15 * std::abs(axis.x()), 1e-9);
    EXPECT_NEAR(xs[1], 0.45, 1e-9);
    for (const auto& p : pts) EXPECT_NEAR(p.gap, 5e-9, 1e-12);
  }
}

// 2D: disks, a rectangle on a line (two corners), a rod's ends, and rectangle on rectangle
// (two points after merging the extruded copies).
TEST(CollisionNarrow, Planar) {
  const NarrowPhaseSettings k2{.margin = 1e-3, .dimension = 2};
  const auto d =
      collide(make_sphere(0.1), at(Vector3(0, 0.15, 0)), make_sphere(0.1), at(Vector3::Zero()), k2);
  ASSERT_EQ(d.size(), 1u);
  EXPECT_NEAR(d[0].gap, -0.05, 1e-14);
  const Shape rect = make_box(Vector3(0.2, 0.1, 0.1));
  const auto b =
      collide(rect, at(Vector3(0, 0.1, 0)), make_plane(Vector3::UnitY()), at(Vector3::Zero()), k2);
  ASSERT_EQ(b.size(), 2u);
  for (const auto& p : b) EXPECT_NEAR(p.gap, 0.0, 1e-14);
  const double th = 0.3;  // rod, length 1, lower end touching the floor
  const auto r = collide(
      make_capsule(0.0, 0.5),
      at(Vector3(0.5 * std::cos(th), 0.5 * std::sin(th), 0), rot(th, Vector3::UnitZ())),
      make_plane(Vector3::UnitY()), at(Vector3::Zero()), {.margin = INFINITY, .dimension = 2});
  ASSERT_EQ(r.size(), 2u);  // both ends, one at gap 0, the other at sin θ
  EXPECT_NEAR(std::min(r[0].gap, r[1].gap), 0.0, 1e-15);
  EXPECT_NEAR(std::max(r[0].gap, r[1].gap), std::sin(th), 1e-15);
  const auto bb = collide(rect, at(Vector3(0.1, 0.195, 0)), rect, at(Vector3::Zero()), k2);
  ASSERT_EQ(bb.size(), 2u);
  for (const auto& p : bb) {
    EXPECT_NEAR(p.gap, -0.005, 1e-12);
    EXPECT_LT((p.normal - Vector3::UnitY()).norm(), 1e-12);
    EXPECT_NEAR(p.point_a.z(), 0.0, 0.0);
  }
}

// Cross-check: closed forms (sphere–sphere, sphere–box) and GJK/EPA on the support functions
// agree on random poses, separated and penetrating; a convex mesh holding a box's corners
// behaves as the box.
// GJK on two point sets (their supports evaluated in place) gives the same result, to the bit,
// as GJK on the same sets' support functions, and the closed-form distance of two boxes apart
// along x (their corner sets, 0.2 m between faces); an empty set is refused.
TEST(CollisionNarrow, GjkOnPointSetsMatchesSupportFunctions) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-1, 1);
  const Shape box = make_box(Vector3(0.4, 0.3, 0.2));
  auto corners = [&](const Pose& p) {
    std::vector<Vector3> out;
    for (const Vector3& c : box.core_points()) out.push_back(p.apply(c));
    return out;
  };
  auto support_of = [](const std::vector<Vector3>& pts) {
    return [&pts](const Vector3& d) {
      size_t best = 0;
      for (size_t i = 1; i < pts.size(); ++i)
        if (pts[i].dot(d) > pts[best].dot(d)) best = i;
      return pts[best];
    };
  };
  for (int trial = 0; trial < 100; ++trial) {
    const auto a = corners(at(Vector3(U(rng), U(rng), U(rng)), Quaternion::UnitRandom()));
    const auto b = corners(at(Vector3(U(rng), U(rng), U(rng)), Quaternion::UnitRandom()));
    const ConvexDistance fast = gjk_distance(a, b);
    const ConvexDistance slow = gjk_distance(support_of(a), support_of(b));
    EXPECT_EQ(fast.intersecting, slow.intersecting) << "trial " << trial;
    EXPECT_EQ(fast.distance, slow.distance) << "trial " << trial;
    EXPECT_EQ(fast.point_a, slow.point_a) << "trial " << trial;
    EXPECT_EQ(fast.iterations, slow.iterations) << "trial " << trial;
  }
  const ConvexDistance apart =
      gjk_distance(corners(at(Vector3::Zero())), corners(at(Vector3(1.0, 0.05, -0.02))));
  EXPECT_FALSE(apart.intersecting);
  EXPECT_NEAR(apart.distance, 1.0 - 0.8, 1e-12);
  EXPECT_NEAR(std::abs(apart.normal.x()), 1.0, 1e-12);
  EXPECT_THROW(gjk_distance(std::vector<Vector3>{}, corners(at(Vector3::Zero()))),
               std::invalid_argument);
}

TEST(CollisionNarrow, GjkMatchesClosedFormsOnRandomPoses) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> U(-1, 1);
  const Shape box = make_box(Vector3(0.4, 0.3, 0.2));
  const Shape mesh = make_convex(box.core_points());
  for (int trial = 0; trial < 200; ++trial) {
    const Pose pb = at(Vector3(U(rng), U(rng), U(rng)) * 0.2, Quaternion::UnitRandom());
    const Pose ps = at(pb.position + Vector3(U(rng), U(rng), U(rng)) * 0.8);
    const Shape s = make_sphere(0.15 + 0.1 * std::abs(U(rng)));
    const NarrowPhaseSettings inf{.margin = INFINITY, .dimension = 3};
    const auto closed = collide(s, ps, box, pb, inf);
    ASSERT_EQ(closed.size(), 1u);
    const ConvexDistance g =
        convex_signed_distance([&](const Vector3& d) { return world_support(s, ps, d); },
                               [&](const Vector3& d) { return world_support(box, pb, d); });
    EXPECT_NEAR(g.distance, closed[0].gap, 1e-7) << "trial " << trial;
    EXPECT_LT((g.normal - closed[0].normal).norm(), 1e-4) << "trial " << trial;
    // the mesh version (GJK on cores + radius, EPA when the centre is inside)
    const auto m = collide(s, ps, mesh, pb, inf);
    ASSERT_GE(m.size(), 1u);
    EXPECT_NEAR(m[0].gap, closed[0].gap, 1e-7) << "trial " << trial;
    // sphere–sphere
    const Shape s2 = make_sphere(0.2);
    const auto ss = collide(s, ps, s2, pb, inf);
    const ConvexDistance g2 =
        convex_signed_distance([&](const Vector3& d) { return world_support(s, ps, d); },
                               [&](const Vector3& d) { return world_support(s2, pb, d); });
    EXPECT_NEAR(g2.distance, ss[0].gap, 1e-6) << "trial " << trial;
  }
}

// Box–box separated on random poses: the narrow phase's smallest gap equals the GJK distance of
// the two boxes (closest features are a vertex, edge or face pair; the clipped manifold
// contains the closest pair).
TEST(CollisionNarrow, BoxBoxSeparatedMatchesGjk) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> U(-1, 1);
  const Shape a = make_box(Vector3(0.3, 0.2, 0.1)), b = make_box(Vector3(0.25, 0.25, 0.15));
  int tested = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Pose pa = at(Vector3(U(rng), U(rng), U(rng)), Quaternion::UnitRandom());
    const Pose pb = at(Vector3(U(rng), U(rng), U(rng)), Quaternion::UnitRandom());
    const ConvexDistance g =
        gjk_distance([&](const Vector3& d) { return world_support(a, pa, d); },
                     [&](const Vector3& d) { return world_support(b, pb, d); });
    if (g.intersecting || g.distance < 1e-3) continue;
    const auto c = collide(a, pa, b, pb, {.margin = INFINITY, .dimension = 3});
    ASSERT_FALSE(c.empty());
    double gmin = INFINITY;
    for (const auto& p : c) gmin = std::min(gmin, p.gap);
    EXPECT_NEAR(gmin, g.distance, 1e-8) << "trial " << trial;
    ++tested;
  }
  EXPECT_GT(tested, 50);
}

// Closed-form closest points of two segments (segment_distance.hpp) against GJK on the same
// segments and against a fine search over (s, t): on random segments, nearly parallel ones and
// points, the distance agrees, the points lie on their segments, and P(s) − Q(t) is normal to
// each segment wherever its parameter is interior (the first-order condition of the minimum).
TEST(CollisionNarrow, SegmentClosestPointsMatchGjkAndTheMinimum) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-1, 1);
  auto segment_support = [](const Vector3& a, const Vector3& b) {
    return [a, b](const Vector3& d) { return d.dot(a) >= d.dot(b) ? a : b; };
  };
  int separated = 0;
  for (int trial = 0; trial < 300; ++trial) {
    Vector3 p0(U(rng), U(rng), U(rng)), p1(U(rng), U(rng), U(rng));
    Vector3 q0(U(rng), U(rng), U(rng)), q1(U(rng), U(rng), U(rng));
    if (trial % 5 == 1) q1 = q0 + (p1 - p0) * 0.7 + Vector3::Constant(1e-9);  // nearly parallel
    if (trial % 5 == 2) p1 = p0;                                              // A a point
    if (trial % 5 == 3) q1 = q0;                                              // B a point
    const SegmentClosestPoints c = segment_closest_points(p0, p1, q0, q1);
    ASSERT_GE(c.s, 0.0);
    ASSERT_LE(c.s, 1.0);
    ASSERT_GE(c.t, 0.0);
    ASSERT_LE(c.t, 1.0);
    EXPECT_LT((c.on_a - (p0 + c.s * (p1 - p0))).norm(), 1e-14);
    EXPECT_LT((c.on_b - (q0 + c.t * (q1 - q0))).norm(), 1e-14);
    const double dist = (c.on_a - c.on_b).norm();
    // a 201 × 201 search cannot beat it
    double best = INFINITY;
    for (int i = 0; i <= 200; ++i)
      for (int j = 0; j <= 200; ++j)
        best = std::min(best,
                        ((p0 + (i / 200.0) * (p1 - p0)) - (q0 + (j / 200.0) * (q1 - q0))).norm());
    EXPECT_LE(dist, best + 1e-12) << "trial " << trial;  // exact, nearly parallel pairs too
    EXPECT_GT(dist, best - 2e-2) << "trial " << trial;   // the grid's spacing bounds its error
    const ConvexDistance g = gjk_distance(segment_support(p0, p1), segment_support(q0, q1));
    if (g.intersecting) continue;
    ++separated;
    EXPECT_NEAR(dist, g.distance, 1e-9) << "trial " << trial;  // GJK's own tolerance: 1e-10
    const Vector3 w = c.on_a - c.on_b;
    if (c.s > 1e-9 && c.s < 1 - 1e-9) {
      EXPECT_NEAR(w.dot(p1 - p0), 0.0, 1e-12) << trial;
    }
    if (c.t > 1e-9 && c.t < 1 - 1e-9) {
      EXPECT_NEAR(w.dot(q1 - q0), 0.0, 1e-12) << trial;
    }
  }
  EXPECT_GT(separated, 250);
}

// Capsule against sphere and capsule against capsule on random poses: the narrow phase's
// smallest gap (closed-form cores) is the GJK/EPA signed distance of the full shapes.
TEST(CollisionNarrow, CapsulePairsMatchGjkOnRandomPoses) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> U(-1, 1);
  const Shape cap = make_capsule(0.1, 0.3), cap2 = make_capsule(0.15, 0.2), ball = make_sphere(0.2);
  const NarrowPhaseSettings inf{.margin = INFINITY, .dimension = 3};
  int tested = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Pose pa = at(Vector3(U(rng), U(rng), U(rng)) * 0.5, Quaternion::UnitRandom());
    const Pose pb = at(Vector3(U(rng), U(rng), U(rng)) * 0.5, Quaternion::UnitRandom());
    for (const Shape* other : {&cap2, &ball}) {
      const ConvexDistance g =
          convex_signed_distance([&](const Vector3& d) { return world_support(cap, pa, d); },
                                 [&](const Vector3& d) { return world_support(*other, pb, d); });
      if (g.distance < 1e-3) continue;  // separated: the cores' distance decides
      const auto c = collide(cap, pa, *other, pb, inf);
      ASSERT_FALSE(c.empty());
      double gmin = INFINITY;
      for (const auto& p : c) gmin = std::min(gmin, p.gap);
      EXPECT_NEAR(gmin, g.distance, 1e-8) << "trial " << trial;
      EXPECT_LT((c[0].normal - g.normal).norm(), 1e-4) << "trial " << trial;
      ++tested;
    }
  }
  EXPECT_GT(tested, 150);
}

// A mesh's vertex bounds (make_convex forms them): the same radius as the vertex loop, a world
// box that holds the tight one, and against a floor the same points as the loop's, found or
// skipped, on random poses. A shape whose bounds are stale (vertices changed in place without
// form_vertex_bounds) falls back to the loop.
TEST(CollisionNarrow, MeshVertexBoundsGiveTheLoopsAnswers) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-1, 1);
  std::vector<Vector3> points;
  for (int k = 0; k < 60; ++k) points.emplace_back(0.3 * U(rng), 0.1 * U(rng), 0.05 * U(rng));
  const Shape bounded = make_convex(points, 0.01);
  ASSERT_TRUE(bounded.has_vertex_bounds());
  Shape loop = bounded;
  loop.bounded_vertices = 0;  // as a shape made by hand
  ASSERT_FALSE(loop.has_vertex_bounds());
  EXPECT_EQ(bounded.bounding_radius(), loop.bounding_radius());
  const Shape floor = make_plane(Vector3::UnitZ());
  int touching = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Pose p = at(Vector3(U(rng), U(rng), 0.35 * std::abs(U(rng))), Quaternion::UnitRandom());
    const Aabb a = shape_aabb(bounded, p, 1e-3), b = shape_aabb(loop, p, 1e-3);
    EXPECT_TRUE((a.lower.array() <= b.lower.array() + 1e-15).all()) << trial;
    EXPECT_TRUE((a.upper.array() >= b.upper.array() - 1e-15).all()) << trial;
    const auto x = collide(bounded, p, floor, Pose{}, {.margin = 0.02, .dimension = 3});
    const auto y = collide(loop, p, floor, Pose{}, {.margin = 0.02, .dimension = 3});
    ASSERT_EQ(x.size(), y.size()) << trial;
    for (size_t k = 0; k < x.size(); ++k) {
      EXPECT_EQ(x[k].gap, y[k].gap);
      EXPECT_EQ(x[k].feature, y[k].feature);
    }
    touching += !x.empty();
  }
  EXPECT_GT(touching, 30);
  EXPECT_LT(touching, 270);  // both sides of the test are exercised
  Shape stale = bounded;
  stale.vertices.push_back(Vector3(0, 0, -1));  // changed after the bounds were formed
  EXPECT_FALSE(stale.has_vertex_bounds());
  EXPECT_NEAR(stale.bounding_radius(), 1.01, 1e-15);
}

namespace {
// Every point of a manifold between two faces of half-width 0.1 centred on the z axis lies on
// both faces: |x|, |y| ≤ 0.1 (+1e-9), at height z (when given) and with |gap| < 1e-10.
void expect_on_faces(const std::vector<ContactPoint>& c, double z = NAN) {
  for (const ContactPoint& p : c) {
    EXPECT_LE(std::abs(p.point_a.x()), 0.1 + 1e-9) << p.point_a.transpose();
    EXPECT_LE(std::abs(p.point_a.y()), 0.1 + 1e-9) << p.point_a.transpose();
    if (std::isnan(z)) continue;
    EXPECT_NEAR(p.point_a.z(), z, 1e-9);
    EXPECT_LT(std::abs(p.gap), 1e-10);
  }
}
}  // namespace

// Two cubes (half 0.1) of a resting column, poses taken at 9.319 s of the 80-cube column of
// bench_columns: faces aligned to 1e-10 rad, so that an edge of the upper face lies within 1e-12 m
// of the lower face's edge line. Clipping once extrapolated that edge's crossing to x = 343 m
// (a vertex inside by the tolerance, its neighbour outside by it: t = d_p/(d_p − d_q) ≈ −1700).
// Every point of the face–face manifold lies on both faces: |x|, |y| ≤ 0.1 (+1e-9) and z = 3.8.
TEST(CollisionNarrow, AlignedFacesClipInsideBothFaces) {
  const Pose lower{
      Vector3(-6.773259034207617e-10, 1.6399857943481994e-10, 3.699999999993985),
      Quaternion(1, -1.3391975400843121e-12, -7.5351545235125169e-11, 1.5789962453815877e-13)};
  const Pose upper{
      Vector3(-7.0753417828816455e-10, 1.6439268479331226e-10, 3.8999999999941299),
      Quaternion(1, 4.3677053311092744e-12, -6.0071316413357807e-11, 1.5645106406244084e-13)};
  const Shape box = make_box(Vector3::Constant(0.1));
  const auto c = collide(box, upper, box, lower, k3);
  ASSERT_EQ(c.size(), 4u);
  expect_on_faces(c, 3.8);
}

// The same, constructed: the upper cube turned by 1e-13 rad about z and shifted so that its face's
// edge at y = −0.1 runs from 0.99e-12 m to 1.01e-12 m outside the lower face's edge (the inside
// test's tolerance is 1e-12 m): one end counts as inside, the other as outside. The crossing must
// stay on the edge, within the faces.
TEST(CollisionNarrow, AnEdgeAlongTheClipEdgeStaysOnTheFace) {
  const double phi = 1e-13;  // (1.01e-12 − 0.99e-12) / 0.2
  for (const double sign : {1.0, -1.0}) {
    const Pose lower{Vector3::Zero(), Quaternion::Identity()};
    const Pose upper{Vector3(0, -1e-12 * sign, 0.2), rot(sign * phi, Vector3::UnitZ())};
    const Shape box = make_box(Vector3::Constant(0.1));
    const auto c = collide(box, upper, box, lower, k3);
    ASSERT_GE(c.size(), 3u);
    expect_on_faces(c);
  }
}
