// Narrow phase, pair by pair (mesh/plane, mesh/mesh, capsule/box, capsule/plane, cylinder/box,
// cylinder/cylinder): gap, normal (from B to A) and witness points against values derived by
// hand for simple placements (each derivation in the comment above the test).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "moreau/contact/collision/gjk.hpp"
#include "moreau/contact/collision/narrow_phase.hpp"

using namespace moreau;

namespace {

Pose at(const Vector3& p, const Quaternion& q = Quaternion::Identity()) { return Pose{p, q}; }
Quaternion rot(double angle, const Vector3& axis) {
  return Quaternion(Eigen::AngleAxisd(angle, axis.normalized()));
}

// The eight corners (±h)³ of a cube as a convex mesh.
Shape cube_mesh(double h, double radius = 0.0) {
  std::vector<Vector3> v;
  for (double x : {-h, h})
    for (double y : {-h, h})
      for (double z : {-h, h}) v.emplace_back(x, y, z);
  return make_convex(v, radius);
}

// Checks every point: gap, normal, and that point_a − point_b = gap·n (the witness points are
// the two ends of the gap along the normal).
void expect_all(const std::vector<ContactPoint>& c, double gap, const Vector3& n, double tol) {
  for (const auto& p : c) {
    EXPECT_NEAR(p.gap, gap, tol);
    EXPECT_LT((p.normal - n).norm(), tol) << p.normal.transpose();
    EXPECT_LT((p.point_a - p.point_b - p.gap * p.normal).norm(), tol);
  }
}

// Sorted x (or any coordinate k) of the witnesses on A.
std::vector<double> coords_a(const std::vector<ContactPoint>& c, int k) {
  std::vector<double> out;
  for (const auto& p : c) out.push_back(p.point_a[k]);
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

// Unit cube mesh (corners (±½)³), centre at (0.3, −0.2, 0.51) above the plane z = 0: its four
// lower corners are at height 0.51 − 0.5 = 0.01 → 4 contacts, gap 0.01, n = +z, point_a the
// corner (0.3 ± ½, −0.2 ± ½, 0.01), point_b its foot (·, ·, 0). The upper corners (gap 1.01)
// are beyond the margin 0.02. Rounded by r = 0.05 and lifted by 0.05 the same four points come
// out (point_a = corner − r·n). Plane first: n = −z and the witnesses swap.
TEST(CollisionPairs, MeshPlane) {
  const Shape plane = make_plane(Vector3::UnitZ());
  const NarrowPhaseSettings s{.margin = 0.02, .dimension = 3};
  const auto c =
      collide(cube_mesh(0.5), at(Vector3(0.3, -0.2, 0.51)), plane, at(Vector3::Zero()), s);
  ASSERT_EQ(c.size(), 4u);
  expect_all(c, 0.01, Vector3::UnitZ(), 1e-14);
  for (const auto& p : c) {
    EXPECT_NEAR(std::abs(p.point_a.x() - 0.3), 0.5, 1e-14);
    EXPECT_NEAR(std::abs(p.point_a.y() + 0.2), 0.5, 1e-14);
    EXPECT_NEAR(p.point_a.z(), 0.01, 1e-14);
    EXPECT_NEAR(p.point_b.z(), 0.0, 1e-15);
  }
  const auto r =
      collide(cube_mesh(0.5, 0.05), at(Vector3(0.3, -0.2, 0.56)), plane, at(Vector3::Zero()), s);
  ASSERT_EQ(r.size(), 4u);
  expect_all(r, 0.01, Vector3::UnitZ(), 1e-14);
  for (const auto& p : r) EXPECT_NEAR(p.point_a.z(), 0.01, 1e-14);
  const auto f =
      collide(plane, at(Vector3::Zero()), cube_mesh(0.5), at(Vector3(0.3, -0.2, 0.51)), s);
  ASSERT_EQ(f.size(), 4u);
  expect_all(f, 0.01, -Vector3::UnitZ(), 1e-14);
  for (const auto& p : f) EXPECT_NEAR(p.point_a.z(), 0.0, 1e-15);
  // tilted about y by α: the lowest edge (two corners) at z_c − ½(cos α + sin α)
  const double al = 0.2, zc = 0.5 * (std::cos(al) + std::sin(al)) - 0.004;
  const auto t = collide(cube_mesh(0.5), at(Vector3(0, 0, zc), rot(al, Vector3::UnitY())), plane,
                         at(Vector3::Zero()), s);
  ASSERT_EQ(t.size(), 2u);
  expect_all(t, -0.004, Vector3::UnitZ(), 1e-14);
}

// A cube as a mesh file gives it: each of its 12 triangles lists its three corners, so each corner
// comes 3 to 6 times (36 vertices, 8 distinct). make_convex keeps each corner once, at its first
// place, and the cube resting on the plane touches it at its 4 lower corners, not at 18 copies
// (the Unitree Go2's base: 3253 vertices, 32 points where 7 are distinct).
TEST(CollisionPairs, MeshGivenAsTriangleCornersTouchesAPlaneOncePerCorner) {
  const std::vector<Vector3> corners = cube_mesh(0.5).vertices;
  const int faces[6][4] = {{0, 1, 3, 2}, {4, 6, 7, 5}, {0, 4, 5, 1},
                           {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 5, 7, 3}};
  std::vector<Vector3> soup;
  for (const auto& f : faces)
    for (const int t : {f[0], f[1], f[2], f[0], f[2], f[3]})
      soup.push_back(corners[static_cast<size_t>(t)]);
  ASSERT_EQ(soup.size(), 36u);
  const Shape cube = make_convex(soup);
  ASSERT_EQ(cube.vertices.size(), 8u);
  EXPECT_EQ(cube.vertices[0], corners[0]);  // the first place of each corner, in order
  EXPECT_EQ(cube.vertices[1], corners[1]);
  EXPECT_EQ(cube.vertices[2], corners[3]);
  const Shape plane = make_plane(Vector3::UnitZ());
  const NarrowPhaseSettings s{.margin = 0.02, .dimension = 3};
  const auto c = collide(cube, at(Vector3(0.3, -0.2, 0.51)), plane, at(Vector3::Zero()), s);
  ASSERT_EQ(c.size(), 4u);
  expect_all(c, 0.01, Vector3::UnitZ(), 1e-14);
}

// Mesh on mesh, unit cubes (corners (±½)³), B at the origin:
//  - A at (0, 0, 1.01): faces z = 0.51 and z = 0.5 parallel and 0.01 apart; the manifold is the
//    whole square: 4 points (±½, ±½), gap 0.01, n = +z, point_a at z 0.51, point_b at z 0.5.
//  - A turned 45° about z: the overlap of the square |x|,|y| ≤ ½ and the turned square
//    |x ± y| ≤ √2/2 is a regular octagon whose 8 corners lie on an edge of each square.
//  - A at (0.3, 0, 0.98) (penetrating 0.02, EPA): overlap x ∈ [−0.2, 0.5] × y ∈ [−½, ½].
//  - a tetrahedron tip down at (0.1, 0.2, 0.53) over the top face: one point, the tip, gap 0.03.
TEST(CollisionPairs, MeshMesh) {
  const Shape cube = cube_mesh(0.5);
  const NarrowPhaseSettings s{.margin = 0.05, .dimension = 3};
  const auto c = collide(cube, at(Vector3(0, 0, 1.01)), cube, at(Vector3::Zero()), s);
  ASSERT_EQ(c.size(), 4u);
  expect_all(c, 0.01, Vector3::UnitZ(), 1e-12);
  for (const auto& p : c) {
    EXPECT_NEAR(std::abs(p.point_a.x()), 0.5, 1e-12);
    EXPECT_NEAR(std::abs(p.point_a.y()), 0.5, 1e-12);
    EXPECT_NEAR(p.point_a.z(), 0.51, 1e-12);
    EXPECT_NEAR(p.point_b.z(), 0.5, 1e-12);
  }
  const auto o = collide(cube, at(Vector3(0, 0, 1.01), rot(M_PI / 4, Vector3::UnitZ())), cube,
                         at(Vector3::Zero()), s);
  ASSERT_EQ(o.size(), 8u);
  expect_all(o, 0.01, Vector3::UnitZ(), 1e-12);
  for (const auto& p : o) {
    const double x = p.point_b.x(), y = p.point_b.y();
    EXPECT_NEAR(std::max(std::abs(x), std::abs(y)), 0.5, 1e-12);
    EXPECT_NEAR(std::max(std::abs(x + y), std::abs(x - y)), std::sqrt(0.5), 1e-12);
  }
  const auto pen = collide(cube, at(Vector3(0.3, 0, 0.98)), cube, at(Vector3::Zero()), s);
  ASSERT_EQ(pen.size(), 4u);
  expect_all(pen, -0.02, Vector3::UnitZ(), 1e-9);
  const auto xs = coords_a(pen, 0);
  EXPECT_NEAR(xs.front(), -0.2, 1e-9);
  EXPECT_NEAR(xs.back(), 0.5, 1e-9);
  const Shape tet = make_convex({Vector3(0, 0, 0), Vector3(0.2, 0, 0.3), Vector3(-0.1, 0.17, 0.3),
                                 Vector3(-0.1, -0.17, 0.3)});
  const auto v = collide(tet, at(Vector3(0.1, 0.2, 0.53)), cube, at(Vector3::Zero()), s);
  ASSERT_EQ(v.size(), 1u);
  expect_all(v, 0.03, Vector3::UnitZ(), 1e-12);
  EXPECT_LT((v[0].point_a - Vector3(0.1, 0.2, 0.53)).norm(), 1e-12);
  EXPECT_LT((v[0].point_b - Vector3(0.1, 0.2, 0.5)).norm(), 1e-12);
}

// Capsule (r = 0.1, segment x ∈ [−½, ½] in its frame) and the box of half extents (1, 1, ½)
// at the origin (top face z = ½):
//  - lying at (0, 0.2, 0.61): the segment is 0.11 above the face → gap 0.11 − 0.1 = 0.01 along
//    the whole segment; the manifold is its two ends: point_a (±½, 0.2, 0.51), point_b z = ½.
//  - overhanging at (1.2, 0, 0.61): segment x ∈ [0.7, 1.7] clipped to the face x ≤ 1 →
//    points at x = 0.7 and x = 1.
//  - standing (turned 90° about y) at (0.3, 0.3, 1.11): lower end 0.61 → one point, gap 0.01,
//    point_a (0.3, 0.3, 0.51).
//  - box first: n = −z.
//  - sunk to z = 0.58: the segment is still 0.08 above the face → gap −0.02 (cores apart).
TEST(CollisionPairs, CapsuleBox) {
  const Shape cap = make_capsule(0.1, 0.5), box = make_box(Vector3(1, 1, 0.5));
  const NarrowPhaseSettings s{.margin = 0.05, .dimension = 3};
  const auto c = collide(cap, at(Vector3(0, 0.2, 0.61)), box, at(Vector3::Zero()), s);
  ASSERT_EQ(c.size(), 2u);
  expect_all(c, 0.01, Vector3::UnitZ(), 1e-12);
  const auto xs = coords_a(c, 0);
  EXPECT_NEAR(xs[0], -0.5, 1e-12);
  EXPECT_NEAR(xs[1], 0.5, 1e-12);
  for (const auto& p : c) {
    EXPECT_NEAR(p.point_a.y(), 0.2, 1e-12);
    EXPECT_NEAR(p.point_a.z(), 0.51, 1e-12);
    EXPECT_NEAR(p.point_b.z(), 0.5, 1e-12);
  }
  const auto over = collide(cap, at(Vector3(1.2, 0, 0.61)), box, at(Vector3::Zero()), s);
  ASSERT_EQ(over.size(), 2u);
  expect_all(over, 0.01, Vector3::UnitZ(), 1e-12);
  const auto ox = coords_a(over, 0);
  EXPECT_NEAR(ox[0], 0.7, 1e-12);
  EXPECT_NEAR(ox[1], 1.0, 1e-12);
  const auto up = collide(cap, at(Vector3(0.3, 0.3, 1.11), rot(M_PI / 2, Vector3::UnitY())), box,
                          at(Vector3::Zero()), s);
  ASSERT_EQ(up.size(), 1u);
  expect_all(up, 0.01, Vector3::UnitZ(), 1e-12);
  EXPECT_LT((up[0].point_a - Vector3(0.3, 0.3, 0.51)).norm(), 1e-12);
  EXPECT_LT((up[0].point_b - Vector3(0.3, 0.3, 0.5)).norm(), 1e-12);
  const auto rev = collide(box, at(Vector3::Zero()), cap, at(Vector3(0, 0.2, 0.61)), s);
  ASSERT_EQ(rev.size(), 2u);
  expect_all(rev, 0.01, -Vector3::UnitZ(), 1e-12);
  for (const auto& p : rev) EXPECT_NEAR(p.point_a.z(), 0.5, 1e-12);
  const auto pen = collide(cap, at(Vector3(0, 0.2, 0.58)), box, at(Vector3::Zero()), s);
  ASSERT_EQ(pen.size(), 2u);
  expect_all(pen, -0.02, Vector3::UnitZ(), 1e-12);
}

// Capsule (r = 0.1, half length ½ along its x) on the plane z = 0, in 3D:
//  - horizontal at height 0.11: both ends (±½, 0, 0.11) at gap 0.11 − 0.1 = 0.01, point_a
//    (±½, 0, 0.01), point_b (±½, 0, 0).
//  - turned by α = 0.3 about y: the +x end goes to c + ½(cos α, 0, −sin α); with the centre at
//    z = 0.1 + ½ sin α − 0.005 that end's gap is −0.005 and the other end's −0.005 + sin α
//    (0.29, beyond the margin 0.02).
//  - against the plane z = 0.2 (offset 0.2): lifted by 0.2, same gaps.
TEST(CollisionPairs, CapsulePlane3D) {
  const Shape cap = make_capsule(0.1, 0.5), plane = make_plane(Vector3::UnitZ());
  const NarrowPhaseSettings s{.margin = 0.02, .dimension = 3};
  const auto c = collide(cap, at(Vector3(0.4, -0.3, 0.11)), plane, at(Vector3::Zero()), s);
  ASSERT_EQ(c.size(), 2u);
  expect_all(c, 0.01, Vector3::UnitZ(), 1e-14);
  const auto xs = coords_a(c, 0);
  EXPECT_NEAR(xs[0], -0.1, 1e-14);
  EXPECT_NEAR(xs[1], 0.9, 1e-14);
  for (const auto& p : c) {
    EXPECT_NEAR(p.point_a.z(), 0.01, 1e-14);
    EXPECT_NEAR(p.point_b.z(), 0.0, 1e-15);
    EXPECT_NEAR(p.point_a.y(), -0.3, 1e-14);
  }
  const double al = 0.3;
  const Vector3 ctr(0, 0, 0.1 + 0.5 * std::sin(al) - 0.005);
  const auto t = collide(cap, at(ctr, rot(al, Vector3::UnitY())), plane, at(Vector3::Zero()), s);
  ASSERT_EQ(t.size(), 1u);
  expect_all(t, -0.005, Vector3::UnitZ(), 1e-14);
  const Vector3 end = ctr + 0.5 * Vector3(std::cos(al), 0, -std::sin(al));
  EXPECT_LT((t[0].point_a - (end - 0.1 * Vector3::UnitZ())).norm(), 1e-14);
  EXPECT_LT((t[0].point_b - Vector3(end.x(), 0, 0)).norm(), 1e-14);
  const auto all = collide(cap, at(ctr, rot(al, Vector3::UnitY())), plane, at(Vector3::Zero()),
                           {.margin = INFINITY, .dimension = 3});
  ASSERT_EQ(all.size(), 2u);
  EXPECT_NEAR(std::max(all[0].gap, all[1].gap), -0.005 + std::sin(al), 1e-14);
  const auto lifted = collide(cap, at(Vector3(0, 0, 0.31)), make_plane(Vector3::UnitZ(), 0.2),
                              at(Vector3::Zero()), s);
  ASSERT_EQ(lifted.size(), 2u);
  expect_all(lifted, 0.01, Vector3::UnitZ(), 1e-14);
  for (const auto& p : lifted) EXPECT_NEAR(p.point_b.z(), 0.2, 1e-14);
}

// Cylinder (r = 0.2, half length 0.3, axis z) and the box of half extents (1, 1, ½) (top z = ½):
//  - upright at (0.1, 0.2, 0.81): the base z = 0.51 is 0.01 above the face → gap 0.01, n = +z;
//    the base lies flat on the face, so the manifold samples its rim: 8 points at distance r
//    from the axis, point_a at z = 0.51, point_b at z = ½.
//  - lying (turned 90° about x, axis along y) at (0.1, 0, 0.71): line contact along the lowest
//    generator x = 0.1, y ∈ [−0.3, 0.3], z = 0.51 → its two ends.
//  - tilted by α = 0.3 about x: axis a = (0, −sin α, cos α); the lowest point is the base rim
//    point c − h a − r (0, cos α, sin α) at z = c_z − h cos α − r sin α; with
//    c_z = ½ + h cos α + r sin α + 0.01 one point at gap 0.01.
//  - box first: n = −z.
TEST(CollisionPairs, CylinderBox) {
  const double r = 0.2, h = 0.3;
  const Shape cyl = make_cylinder(r, h), box = make_box(Vector3(1, 1, 0.5));
  const NarrowPhaseSettings s{.margin = 0.02, .dimension = 3};
  const Vector3 c0(0.1, 0.2, 0.81);
  const auto c = collide(cyl, at(c0), box, at(Vector3::Zero()), s);
  ASSERT_EQ(c.size(), 8u);
  expect_all(c, 0.01, Vector3::UnitZ(), 1e-9);
  for (const auto& p : c) {
    EXPECT_NEAR((p.point_a - c0).head<2>().norm(), r, 1e-9);
    EXPECT_NEAR(p.point_a.z(), 0.51, 1e-9);
    EXPECT_NEAR(p.point_b.z(), 0.5, 1e-9);
  }
  const auto lying = collide(cyl, at(Vector3(0.1, 0, 0.71), rot(M_PI / 2, Vector3::UnitX())), box,
                             at(Vector3::Zero()), s);
  ASSERT_EQ(lying.size(), 2u);
  expect_all(lying, 0.01, Vector3::UnitZ(), 1e-9);
  const auto ys = coords_a(lying, 1);
  EXPECT_NEAR(ys[0], -h, 1e-9);
  EXPECT_NEAR(ys[1], h, 1e-9);
  for (const auto& p : lying)
    EXPECT_LT((p.point_a - Vector3(0.1, p.point_a.y(), 0.51)).norm(), 1e-9);
  const double al = 0.3;
  const Vector3 ct(0, 0, 0.5 + h * std::cos(al) + r * std::sin(al) + 0.01);
  const auto t = collide(cyl, at(ct, rot(al, Vector3::UnitX())), box, at(Vector3::Zero()), s);
  ASSERT_EQ(t.size(), 1u);
  expect_all(t, 0.01, Vector3::UnitZ(), 1e-9);
  const Vector3 axis(0, -std::sin(al), std::cos(al));
  const Vector3 low = ct - h * axis - r * Vector3(0, std::cos(al), std::sin(al));
  EXPECT_LT((t[0].point_a - low).norm(), 1e-8);
  const auto rev = collide(box, at(Vector3::Zero()), cyl, at(c0), s);
  ASSERT_EQ(rev.size(), 8u);
  expect_all(rev, 0.01, -Vector3::UnitZ(), 1e-9);
  // resting exactly (gap 0) and sunk 1e-3: the same eight rim points
  const auto rest = collide(cyl, at(Vector3(0.1, 0.2, 0.8)), box, at(Vector3::Zero()), s);
  ASSERT_EQ(rest.size(), 8u);
  expect_all(rest, 0.0, Vector3::UnitZ(), 1e-9);
  const auto sunk = collide(cyl, at(Vector3(0.1, 0.2, 0.799)), box, at(Vector3::Zero()), s);
  ASSERT_EQ(sunk.size(), 8u);
  expect_all(sunk, -1e-3, Vector3::UnitZ(), 1e-9);
}

// Cylinders, B (r = 0.2, h = 0.3) upright at the origin (top cap z = 0.3):
//  - A (r = 0.15, h = 0.25) coaxial above at z = 0.3 + 0.25 + 0.02: gap = the axial distance
//    0.02, n = +z; A's base lies inside B's top → 8 points on A's rim at z = 0.32.
//  - side by side, both upright, axes 0.5 apart in x, same r = 0.2 and h = 0.3: gap
//    0.5 − 0.4 = 0.1, n = +x (B → A), the contact line x ∈ {0.3 on A, 0.2 on B}, its two ends
//    z = ±0.3.
//  - A lying across B's top (axis along x, turned 90° about y) at z = 0.3 + 0.2 + 0.01: gap
//    0.01 along a chord of B's cap under A's lowest generator.
TEST(CollisionPairs, CylinderCylinder) {
  const Shape b = make_cylinder(0.2, 0.3), a = make_cylinder(0.15, 0.25);
  const NarrowPhaseSettings s{.margin = 0.03, .dimension = 3};
  const auto c = collide(a, at(Vector3(0, 0, 0.57)), b, at(Vector3::Zero()), s);
  ASSERT_EQ(c.size(), 8u);
  expect_all(c, 0.02, Vector3::UnitZ(), 1e-9);
  for (const auto& p : c) {
    EXPECT_NEAR(p.point_a.head<2>().norm(), 0.15, 1e-9);
    EXPECT_NEAR(p.point_a.z(), 0.32, 1e-9);
    EXPECT_NEAR(p.point_b.z(), 0.3, 1e-9);
  }
  // same radius, coaxial, sunk 1e-3
  const auto same = collide(b, at(Vector3(0, 0, 0.599)), b, at(Vector3::Zero()), s);
  ASSERT_GE(same.size(), 4u);
  expect_all(same, -1e-3, Vector3::UnitZ(), 1e-9);
  for (const auto& p : same) EXPECT_LE(p.point_a.head<2>().norm(), 0.2 + 1e-9);
  const auto side =
      collide(b, at(Vector3(0.5, 0, 0)), b, at(Vector3::Zero()), {.margin = 0.2, .dimension = 3});
  ASSERT_EQ(side.size(), 2u);
  expect_all(side, 0.1, Vector3::UnitX(), 1e-9);
  const auto zs = coords_a(side, 2);
  EXPECT_NEAR(zs[0], -0.3, 1e-9);
  EXPECT_NEAR(zs[1], 0.3, 1e-9);
  for (const auto& p : side) {
    EXPECT_NEAR(p.point_a.x(), 0.3, 1e-9);
    EXPECT_NEAR(p.point_b.x(), 0.2, 1e-9);
    EXPECT_NEAR(p.point_a.y(), 0.0, 1e-9);
  }
  const auto across = collide(b, at(Vector3(0, 0, 0.51), rot(M_PI / 2, Vector3::UnitY())), b,
                              at(Vector3::Zero()), s);
  ASSERT_GE(across.size(), 1u);
  expect_all(across, 0.01, Vector3::UnitZ(), 1e-9);
  for (const auto& p : across) {
    EXPECT_NEAR(p.point_a.y(), 0.0, 1e-9);  // A's lowest generator y = 0, z = 0.31
    EXPECT_NEAR(p.point_a.z(), 0.31, 1e-9);
    EXPECT_LE(std::abs(p.point_b.x()), 0.2 + 1e-9);  // on B's cap
  }
}

// Cylinder against a box and against a cylinder on random poses near contact: the smallest gap
// of the manifold is the GJK/EPA signed distance of the two solids, no point is deeper than it,
// every point_a lies on the cylinder's surface (radial distance r, or on a cap |z| = h, in the
// cylinder's frame) and every point_b in B (closed).
TEST(CollisionPairs, CylinderManifoldOnRandomPoses) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-1, 1);
  const Shape cyl = make_cylinder(0.2, 0.3), box = make_box(Vector3(0.4, 0.3, 0.25));
  const Shape cyl_b = make_cylinder(0.25, 0.2);
  int multi = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Shape& b = trial % 2 ? box : cyl_b;
    // B at the origin; A above it, random tilt, snapped upright half of the time
    const Pose pb =
        at(Vector3::Zero(), trial % 4 < 2 ? Quaternion::Identity() : Quaternion::UnitRandom());
    const Quaternion qa =
        trial % 3 == 0 ? Quaternion::Identity() : rot(0.6 * U(rng), Vector3(U(rng), U(rng), 0.1));
    const Pose pa = at(Vector3(0.2 * U(rng), 0.2 * U(rng), 0.55 + 0.1 * U(rng)), qa);
    const ConvexDistance g =
        convex_signed_distance([&](const Vector3& d) { return world_support(cyl, pa, d); },
                               [&](const Vector3& d) { return world_support(b, pb, d); });
    const auto c = collide(cyl, pa, b, pb, {.margin = 0.05, .dimension = 3});
    if (g.distance > 0.05) {
      EXPECT_TRUE(c.empty());
      continue;
    }
    ASSERT_FALSE(c.empty()) << "trial " << trial;
    double gmin = INFINITY;
    for (const auto& p : c) {
      gmin = std::min(gmin, p.gap);
      EXPECT_GE(p.gap, g.distance - 1e-7) << "trial " << trial;
      EXPECT_LE(p.gap, 0.05 + 1e-12);
      const Vector3 la = pa.orientation.conjugate() * (p.point_a - pa.position);
      const double radial = la.head<2>().norm();
      EXPECT_LE(radial, 0.2 + 1e-9) << "trial " << trial;
      EXPECT_LE(std::abs(la.z()), 0.3 + 1e-9) << "trial " << trial;
      EXPECT_TRUE(std::abs(radial - 0.2) < 1e-7 || std::abs(std::abs(la.z()) - 0.3) < 1e-7)
          << "trial " << trial << ": point_a not on the surface " << la.transpose();
      const Vector3 lb = pb.orientation.conjugate() * (p.point_b - pb.position);
      if (&b == &box) {
        EXPECT_LE((lb.cwiseAbs() - box.half_extents).maxCoeff(), 1e-7) << "trial " << trial;
      } else {
        EXPECT_LE(lb.head<2>().norm(), 0.25 + 1e-7) << "trial " << trial;
        EXPECT_LE(std::abs(lb.z()), 0.2 + 1e-7) << "trial " << trial;
      }
      // single points come from GJK/EPA on the curved support, converged to ~1e-8 m
      EXPECT_LT((p.point_a - p.point_b - p.gap * p.normal).norm(), 1e-7) << "trial " << trial;
    }
    EXPECT_NEAR(gmin, g.distance, 1e-7) << "trial " << trial;
    multi += c.size() > 1;
  }
  EXPECT_GT(multi, 20);  // the upright placements give manifolds
}
