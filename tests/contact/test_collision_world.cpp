// Broad phase, world contact detection, contact Jacobians and the LagrangianSystem adapter.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <random>

#include "moreau/contact/collision/broad_phase.hpp"
#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/contact/collision/world_contacts.hpp"
#include "../model/joint_world_parts.hpp"

using namespace moreau;

namespace {

RigidBody ground(int dim) {
  RigidBody g;
  g.name = "ground";
  g.is_static = true;
  g.shapes.push_back(make_plane(dim == 2 ? Vector3::UnitY() : Vector3::UnitZ()));
  return g;
}

RigidBody dynamic(const std::string& name, const Shape& s, const Pose& pose, double mass = 1.0,
                  int dim = 3) {
  RigidBody b;
  b.name = name;
  b.mass = mass;
  b.inertia = shape_inertia(s, mass, dim);
  b.pose = pose;
  b.shapes.push_back(s);
  return b;
}

// The grid sorts its entries by counting when the occupied cells are few (a pile) and with
// std::sort when one far box makes the box of cells huge; both orders are by (cell, box), so the
// pairs come out in the same order. A packed lattice of 343 spheres: alone (counting) and with a
// sphere 10 km away (std::sort) give the same list, in the same order, as brute force (sorted).
TEST(CollisionBroadPhase, CountingAndComparisonSortsGiveTheSamePairsInTheSameOrder) {
  std::vector<Aabb> boxes;
  const Shape s = make_sphere(0.05);
  for (int i = 0; i < 7; ++i)
    for (int j = 0; j < 7; ++j)
      for (int k = 0; k < 7; ++k)
        boxes.push_back(shape_aabb(
            s, Pose{Vector3(0.099 * i, 0.1 * j + 0.001 * k, 0.0995 * k), Quaternion::Identity()},
            1e-3));
  const auto packed = broad_phase_pairs(boxes);
  boxes.push_back(shape_aabb(s, Pose{Vector3(1e4, 0, 0), Quaternion::Identity()}, 1e-3));
  const auto with_far = broad_phase_pairs(boxes);
  EXPECT_EQ(packed, with_far);  // the far sphere meets nothing, and the order is the same
  auto sorted = packed;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted, brute_force_pairs(boxes));
  EXPECT_GT(packed.size(), 3u * 6u * 49u);  // at least the lattice's 3·6·49 axis neighbours
}

// Five 0.2 m cubes stacked exactly on a floor.
std::shared_ptr<RigidWorld> cube_stack() {
  auto w = std::make_shared<RigidWorld>(3);
  w->add_body(ground(3));
  for (int i = 0; i < 5; ++i)
    w->add_body(dynamic("cube" + std::to_string(i), make_box(Vector3::Constant(0.1)),
                        Pose{Vector3(0, 0, 0.1 + 0.2 * i), Quaternion::Identity()}));
  return w;
}

}  // namespace

// 500 random spheres: the grid broad phase returns exactly the brute-force pair list.
TEST(CollisionBroadPhase, GridEqualsBruteForce) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> U(0, 3);
  std::vector<Aabb> boxes;
  const Shape s = make_sphere(0.1);
  for (int i = 0; i < 500; ++i)
    boxes.push_back(
        shape_aabb(s, Pose{Vector3(U(rng), U(rng), U(rng)), Quaternion::Identity()}, 1e-3));
  // a tilted plane has an unbounded box and meets everything
  boxes.push_back(shape_aabb(make_plane(Vector3(0, 1, 1)), Pose{}, 0.0));
  auto grid = broad_phase_pairs(boxes);
  const auto brute = brute_force_pairs(boxes);
  std::sort(grid.begin(), grid.end());  // each pair once (no duplicate survives the comparison)
  EXPECT_EQ(grid, brute);
  EXPECT_GT(grid.size(), 500u);  // the plane's 500 pairs plus some sphere pairs
}

// A floor z ≤ 0.1 (normal +z) and a wall x ≥ 0.3 (normal −x, offset −0.3) bound their boxes on
// their axis only: a sphere of radius 0.05 at height 0.16 is 0.01 m above the floor and meets it
// with a margin of 0.01 m (touching counts), not with 0.005 m; the wall's box starts at x = 0.3.
TEST(CollisionBroadPhase, AxisAlignedPlanesBoundTheirBoxOnTheirAxis) {
  const Aabb floor = shape_aabb(make_plane(Vector3::UnitZ(), 0.1), Pose{}, 0.0);
  EXPECT_DOUBLE_EQ(floor.upper.z(), 0.1);
  EXPECT_EQ(floor.lower.z(), -INFINITY);
  EXPECT_EQ(floor.upper.x(), INFINITY);
  const Aabb wall = shape_aabb(make_plane(-Vector3::UnitX(), -0.3), Pose{}, 0.0);
  EXPECT_DOUBLE_EQ(wall.lower.x(), 0.3);
  EXPECT_EQ(wall.upper.x(), INFINITY);
  const Pose at{Vector3(0, 0, 0.16), Quaternion::Identity()};
  const Shape ball = make_sphere(0.05);
  EXPECT_TRUE(shape_aabb(ball, at, 0.005)
                  .overlaps(shape_aabb(make_plane(Vector3::UnitZ(), 0.1), Pose{}, 0.005)));
  EXPECT_FALSE(shape_aabb(ball, at, 0.004)
                   .overlaps(shape_aabb(make_plane(Vector3::UnitZ(), 0.1), Pose{}, 0.0)));
}

// Mixed sizes (radii 0.005 to 0.5 m, negative coordinates, two 20 m slabs that span many cells,
// two planes) and a lattice of cubes touching exactly on cell boundaries (touching counts): the
// grid's pair list is the brute-force one, each pair once.
TEST(CollisionBroadPhase, GridEqualsBruteForceForMixedSizesAndTouchingBoxes) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-2, 2), R(0.005, 0.5);
  std::vector<Aabb> boxes;
  for (int i = 0; i < 400; ++i)
    boxes.push_back(shape_aabb(make_sphere(R(rng)),
                               Pose{Vector3(U(rng), U(rng), U(rng)), Quaternion::Identity()}, 0.0));
  for (double z : {-2.0, 2.0}) {
    Aabb slab;
    slab.lower = Vector3(-10, -10, z - 0.05), slab.upper = Vector3(10, 10, z + 0.05);
    boxes.push_back(slab);
  }
  boxes.push_back(shape_aabb(make_plane(Vector3::UnitZ()), Pose{}, 0.0));
  boxes.push_back(shape_aabb(make_plane(Vector3::UnitX()), Pose{}, 0.0));
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 4; ++k) {
        Aabb cube;  // side 0.25, corners on the multiples of 0.25
        cube.lower = Vector3(5 + 0.25 * i, 0.25 * j, 0.25 * k);
        cube.upper = cube.lower + Vector3::Constant(0.25);
        boxes.push_back(cube);
      }
  auto grid = broad_phase_pairs(boxes);
  const auto brute = brute_force_pairs(boxes);
  std::sort(grid.begin(), grid.end());  // each pair once (no duplicate survives the comparison)
  EXPECT_EQ(grid, brute);
  // the 64 cubes of the lattice touch when their indices differ by at most 1 on every axis:
  // (3·4 − 2)³ = 1000 ordered pairs with themselves, less the 64 self pairs, halved: 468
  Index lattice_pairs = 0;
  for (auto [i, j] : grid)
    if (i >= 404 && j >= 404) ++lattice_pairs;
  EXPECT_EQ(lattice_pairs, 468);
}

// Five 0.2 m cubes stacked exactly on a floor: 5 × 4 face contacts, all gaps 0; floor contacts
// have the floor as B (normal +z), cube pairs the lower index as A (the lower cube, normal −z
// from the upper cube B to A); broad phase and brute force agree.
TEST(CollisionWorld, BoxStackContacts) {
  auto w = cube_stack();
  const Vector q = w->initial_positions();
  const auto c = detect_contacts(*w, q);
  ASSERT_EQ(c.size(), 20u);
  for (const auto& k : c) {
    EXPECT_NEAR(k.gap, 0.0, 1e-14);
    if (k.body_b == 0) {
      EXPECT_LT((k.normal() - Vector3::UnitZ()).norm(), 1e-14) << k.name;
    } else {
      EXPECT_EQ(k.body_b, k.body_a + 1) << k.name;
      EXPECT_LT((k.normal() + Vector3::UnitZ()).norm(), 1e-14) << k.name;
    }
  }
  EXPECT_EQ(detect_contacts(*w, q, {.margin = 1e-3, .use_broad_phase = false}).size(), 20u);
  // H: n × 3nc, and Hᵀ v for a cube moving down at 1 m/s gives u_n = −1 on its floor contacts
  const SparseMatrix H = assemble_contact_h(*w, q, c);
  EXPECT_EQ(H.rows(), 30);
  EXPECT_EQ(H.cols(), 60);
  Vector v = Vector::Zero(30);
  v[2] = -1.0;
  const Vector u = Matrix(H).transpose() * v;
  for (size_t i = 0; i < 4; ++i) EXPECT_NEAR(u[3 * i], -1.0, 1e-14);
}

// A ContactDetector reused from call to call (its buffers and the output vector kept) returns
// what a fresh detector returns, as the stack opens from the top (k cubes lifted by 1 cm:
// 4 × (5 − k) face contacts within the 1 mm margin) and closes again, on 1 and 2 threads; and so
// does detect_contacts, whose per-thread detector is reused between worlds: between the stack's
// detections it detects a ball on a floor (and names its contact) and a jointed chain of balls
// with self-collision on and off.
TEST(CollisionWorld, ReusedDetectorEqualsFreshDetection) {
  auto w = cube_stack();
  // a ball on a floor, its shape unnamed or named "foot"
  auto ball_world = [](const std::string& shape_name) {
    RigidWorld b(3);
    b.add_body(ground(3));
    Shape s = make_sphere(0.1);
    s.name = shape_name;
    b.add_body(dynamic("ball", s, Pose{Vector3(0, 0, 0.1), Quaternion::Identity()}));
    return b;
  };
  const RigidWorld unnamed = ball_world(""), named = ball_world("foot");
  // three balls on the floor in one articulation (1–2 and 2–3 hinged), 1 and 3 touching: their
  // contact is detected with self-collision on and left out with it off
  RigidWorld chain(3);
  chain.add_body(ground(3));
  for (double x : {0.0, 0.5, 0.2})
    chain.add_body(dynamic("b" + std::to_string(chain.body_count()), make_sphere(0.1),
                           Pose{Vector3(x, 0, 0.1), Quaternion::Identity()}));
  chain.add_joint(test::hinge(2, 1, Vector3::Zero(), Vector3(0.5, 0, 0), Vector3::UnitY()));
  chain.add_joint(test::hinge(3, 2, Vector3::Zero(), Vector3(-0.3, 0, 0), Vector3::UnitY()));
  const Vector q0 = w->initial_positions();
  auto same = [](const std::vector<Contact>& a, const std::vector<Contact>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (size_t k = 0; k < a.size(); ++k) {
      EXPECT_TRUE(contact_key_equal(a[k], b[k])) << k;
      EXPECT_EQ(a[k].gap, b[k].gap);
      EXPECT_EQ(a[k].frame, b[k].frame);
      EXPECT_EQ(a[k].point_a, b[k].point_a);
      EXPECT_EQ(a[k].name, b[k].name);
    }
  };
  for (int threads : {1, 2}) {
    const CollisionSettings cs{.margin = 1e-3, .threads = threads};
    ContactDetector detector;
    std::vector<Contact> found;
    for (int lifted : {0, 1, 3, 5, 2, 0}) {
      Vector q = q0;
      for (int i = 5 - lifted; i < 5; ++i) q[7 * i + 2] += 0.01 * (i - (5 - lifted) + 1);
      detector.detect(*w, q, cs, found);
      std::vector<Contact> fresh;
      ContactDetector().detect(*w, q, cs, fresh);
      ASSERT_EQ(found.size(), static_cast<size_t>(4 * (5 - lifted))) << lifted << " lifted";
      same(found, fresh);
      const RigidWorld& other = lifted % 2 == 0 ? unnamed : named;
      const auto ball = detect_contacts(other, other.initial_positions(),
                                        {.margin = 1e-3, .self_collision = lifted % 2 == 0});
      ASSERT_EQ(ball.size(), 1u);
      EXPECT_NEAR(ball[0].gap, 0.0, 1e-15);
      // "<body a>/<body b>:<shape a>-<shape b>:<feature>", a shape without a name by its index
      EXPECT_EQ(ball[0].name, lifted % 2 == 0 ? "ball/ground:0-0:0" : "ball/ground:foot-0:0");
      const bool self = lifted % 3 != 0;
      EXPECT_EQ(detect_contacts(chain, chain.initial_positions(), {.self_collision = self}).size(),
                self ? 4u : 3u)
          << lifted;
      same(detect_contacts(*w, q, cs), fresh);
    }
  }
}

// A ContactFilter sees every point with its bodies (A first) and keeps what it returns true for:
// the stack's contacts lifted apart by 0.5 mm and detected within 1 mm, filtered to gaps ≤ 0.2 mm
// and to the floor's, are exactly the unfiltered detection's of those kinds, in its order, on 1
// and 2 threads.
TEST(CollisionWorld, AFilterKeepsExactlyThePointsItAccepts) {
  auto w = cube_stack();
  Vector q = w->initial_positions();
  for (int i = 2; i < 5; ++i) q[7 * i + 2] += 5e-4 * (i - 1);  // cubes 2–4 lifted apart
  for (int threads : {1, 2}) {
    const CollisionSettings cs{.margin = 1e-3, .threads = threads};
    const auto all = detect_contacts(*w, q, cs);
    std::atomic<int> seen = 0;
    const auto kept =
        detect_contacts(*w, q, cs, [&](Index a, Index b, Index pair, const ContactPoint& p) {
          ++seen;
          EXPECT_LT(a, b == 0 ? w->body_count() : b);
          EXPECT_EQ(pair, -1);
          return p.gap <= 2e-4 || b == 0;
        });
    EXPECT_EQ(seen, static_cast<int>(all.size()));
    std::vector<const Contact*> expected;
    for (const Contact& c : all)
      if (c.gap <= 2e-4 || c.body_b == 0) expected.push_back(&c);
    ASSERT_EQ(kept.size(), expected.size());
    ASSERT_LT(kept.size(), all.size());
    for (size_t k = 0; k < kept.size(); ++k) {
      EXPECT_TRUE(contact_key_equal(kept[k], *expected[k])) << k;
      EXPECT_EQ(kept[k].gap, expected[k]->gap);
      EXPECT_EQ(kept[k].name, expected[k]->name);
    }
  }
}

// A detection started inside another's filter (on the calling thread) leaves the outer one
// whole: the stack's contacts are the same when every accepted point first detects a ball on a
// floor, on 1 and 2 threads.
TEST(CollisionWorld, ADetectionInsideAFilterLeavesTheOuterOneWhole) {
  auto w = cube_stack();
  RigidWorld ball(3);
  ball.add_body(ground(3));
  ball.add_body(
      dynamic("ball", make_sphere(0.1), Pose{Vector3(0, 0, 0.1), Quaternion::Identity()}));
  const Vector q = w->initial_positions();
  for (int threads : {1, 2}) {
    const CollisionSettings cs{.margin = 1e-3, .threads = threads};
    const auto plain = detect_contacts(*w, q, cs);
    std::atomic<int> inner = 0;
    const auto nested = detect_contacts(*w, q, cs, [&](Index, Index, Index, const ContactPoint&) {
      inner += static_cast<int>(detect_contacts(ball, ball.initial_positions()).size());
      return true;
    });
    EXPECT_EQ(inner, static_cast<int>(plain.size()));  // one ball contact per outer point
    ASSERT_EQ(nested.size(), plain.size());
    for (size_t k = 0; k < plain.size(); ++k) {
      EXPECT_TRUE(contact_key_equal(nested[k], plain[k])) << k;
      EXPECT_EQ(nested[k].gap, plain[k].gap);
      EXPECT_EQ(nested[k].name, plain[k].name);
    }
  }
}

// A PairReach bounds the gaps of the points built for the pairs with a plane, and only those:
// the bottom cube tilted so that its corners sit 0.1–0.5 mm above the floor, detected within
// 1 mm with a reach of 0.3 mm, gives the filter only the floor's corners within 0.3 mm (and
// every point of the cube pairs, far beyond it), and keeps the unbounded detection's contacts
// of those points, in its order, on 1 and 2 threads.
TEST(CollisionWorld, APairReachBuildsOnlyThePlanePointsWithinIt) {
  auto w = cube_stack();
  Vector q = w->initial_positions();
  // cube 0 (body 1) turned about x by 2e-3 rad, its centre raised so that the bottom face's
  // centre is 0.3 mm up: its corners at 0.3 ± 0.1 m · sin(2e-3) = 0.1 and 0.5 mm
  const Quaternion tilt(Eigen::AngleAxisd(2e-3, Vector3::UnitX()));
  q.segment<4>(3) << tilt.w(), tilt.x(), tilt.y(), tilt.z();
  q[2] += 3e-4 - 0.1 * (1.0 - std::cos(2e-3));
  for (int i = 2; i < 6; ++i) q[7 * (i - 1) + 2] += 1e-3;  // the cubes above clear of it
  for (int threads : {1, 2}) {
    const CollisionSettings cs{.margin = 1e-3, .threads = threads};
    const auto all = detect_contacts(*w, q, cs);
    std::atomic<int> seen = 0;
    const auto bounded = detect_contacts(
        *w, q, cs,
        [&](Index, Index, Index, const ContactPoint&) {
          ++seen;
          return true;
        },
        [](Index, Index) { return 3e-4; });
    std::vector<const Contact*> expected;
    for (const Contact& c : all)
      if (c.gap <= 3e-4 || c.body_b != 0) expected.push_back(&c);
    int floor_all = 0, floor_kept = 0;
    for (const Contact& c : all) floor_all += c.body_b == 0;
    for (const Contact* c : expected) floor_kept += c->body_b == 0;
    ASSERT_EQ(floor_all, 4);  // the bottom face's corners, 0.1–0.5 mm up
    ASSERT_EQ(floor_kept, 2);
    EXPECT_EQ(seen, static_cast<int>(expected.size()));
    ASSERT_EQ(bounded.size(), expected.size());
    for (size_t k = 0; k < bounded.size(); ++k) {
      EXPECT_TRUE(contact_key_equal(bounded[k], *expected[k])) << k;
      EXPECT_EQ(bounded[k].gap, expected[k]->gap);
    }
  }
}

// u = J v is the relative velocity of the witness points (material points of A and B) in the
// frame: compare with finite differences of the material points carried by the motion
// q(t) = integrate_position(q, v, t). The gap's first derivative is u_n and its second
// derivative c_n (v constant) for the point-on-face contacts (box corner on a rotating box face,
// sphere on a plane) and the sphere–sphere form.
TEST(CollisionWorld, JacobianAndBiasMatchFiniteDifferences) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-1, 1);
  for (int trial = 0; trial < 10; ++trial) {
    RigidWorld w(3);
    w.add_body(ground(3));
    // box B (large, rotating), a small box A resting on a corner above it, a sphere on the
    // floor and a sphere touching the sphere
    w.add_body(dynamic("big", make_box(Vector3(1.0, 1.0, 0.2)),
                       Pose{Vector3(0, 0, 0.2), Quaternion::Identity()}));
    const Quaternion tilt(Eigen::AngleAxisd(0.3, Vector3(1, 1, 0).normalized()));
    const Shape small = make_box(Vector3::Constant(0.1));
    double low = INFINITY;
    for (const auto& x : small.core_points()) low = std::min(low, (tilt * x).z());
    w.add_body(dynamic("small", small, Pose{Vector3(0.1, 0.2, 0.4 - low - 1e-4), tilt}));
    w.add_body(dynamic("ball", make_sphere(0.1), Pose{Vector3(3, 0, 0.1), Quaternion::Identity()}));
    w.add_body(dynamic(
        "ball2", make_sphere(0.1),
        Pose{Vector3(3.1, 0.1, 0.1 + std::sqrt(0.04 - 0.02) - 1e-4), Quaternion::Identity()}));
    const Vector q = w.initial_positions();
    Vector v(w.velocity_size());
    for (Index i = 0; i < v.size(); ++i) v[i] = U(rng);
    const CollisionSettings cs{.margin = 0.05};
    const auto contacts = detect_contacts(w, q, cs);
    ASSERT_GE(contacts.size(), 3u);
    const double h = 1e-5;
    const Vector qp = w.integrate_position(q, v, h), qm = w.integrate_position(q, v, -h);
    for (const Contact& c : contacts) {
      const BodyPairRows r = contact_rows(w, q, v, c);
      const Vector u = r.apply(v);
      // material points of A and B moved along the motion
      auto carried = [&](const Vector& qq, Index body, const Vector3& x) {
        const Pose p0 = w.body_pose(q, body), p1 = w.body_pose(qq, body);
        return p1.apply(p0.orientation.conjugate() * (x - p0.position));
      };
      const Vector3 va =
          (carried(qp, c.body_a, c.point_a) - carried(qm, c.body_a, c.point_a)) / (2 * h);
      const Vector3 vb =
          (carried(qp, c.body_b, c.point_b) - carried(qm, c.body_b, c.point_b)) / (2 * h);
      const Vector3 ufd = c.frame.transpose() * (va - vb);
      EXPECT_LT((ufd - u).norm(), 1e-7)
          << c.name << ": " << ufd.transpose() << " vs " << u.transpose();
      // gap derivatives: find the same contact at q ± h
      auto gap_at = [&](const Vector& qq) {
        for (const Contact& d : detect_contacts(w, qq, cs))
          if (d.name == c.name) return d.gap;
        return static_cast<double>(NAN);
      };
      const double gp = gap_at(qp), gm = gap_at(qm);
      EXPECT_NEAR((gp - gm) / (2 * h), u[0], 1e-6) << c.name;
      const double hh = 1e-4;
      const double g2 = (gap_at(w.integrate_position(q, v, hh)) - 2 * c.gap +
                         gap_at(w.integrate_position(q, v, -hh))) /
                        (hh * hh);
      EXPECT_NEAR(g2, r.bias[0], 1e-4 * (1 + std::abs(g2))) << c.name;
    }
  }
}

// Adapter: a planar rod on a floor has 2 end contacts (margin ∞), M = diag(m, m, I), F = (0, mg, 0)
// and ContactState::validate accepts it.
TEST(CollisionWorld, RigidWorldSystemPlanarRod) {
  auto w = std::make_shared<RigidWorld>(2);
  w->add_body(ground(2));
  const double th = 1.2;
  w->add_body(dynamic("rod", make_capsule(0.0, 0.5),
                      planar_pose(0.5 * std::cos(th), 0.5 * std::sin(th), th), 1.0, 2));
  w->set_default_material(ContactMaterial{.mu = 0.5});
  const RigidWorldSystem sys(w);
  const ContactState s = sys.contact_state(sys.initial_q, sys.initial_v, 0.0);
  EXPECT_NO_THROW(s.validate());
  ASSERT_EQ(s.size(), 2);
  EXPECT_NEAR(s.M(2, 2), 1.0 / 12.0, 1e-15);
  EXPECT_NEAR(s.F[1], 9.81, 1e-15);
  // lower end (gap 0): ∇h = (0, 1, x_tip − x_c) = (0, 1, −½ cos θ)
  const auto& lower =
      s.constraints[0].gap < s.constraints[1].gap ? s.constraints[0] : s.constraints[1];
  EXPECT_NEAR(lower.gap, 0.0, 1e-15);
  EXPECT_NEAR(lower.normal[1], 1.0, 1e-15);
  EXPECT_NEAR(lower.normal[2], -0.5 * std::cos(th), 1e-15);
  EXPECT_NEAR(lower.mu, 0.5, 0.0);
  EXPECT_NEAR(lower.tangent(0, 0), 1.0,
              1e-15);  // t = n × ẑ = (n_y, −n_x) = (1, 0) (model/contact_frame.hpp)
}
