// Explicit contact pairs of a RigidWorld (model/rigid/contact_pair.hpp) and the collision filter
// (Shape::contype, conaffinity): pairs are reported whatever their gap, under their own name, kind
// and material, never twice; their kinematics pass the finite-difference checks and equal the
// material-point velocities derived by hand; bad pairs are refused with their name.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "../model/fd_check.hpp"
#include "moreau/contact/rigid_world_system.hpp"

using namespace moreau;

namespace {

RigidBody planar_body(const std::string& name, double mass, double inertia) {
  RigidBody b;
  b.name = name;
  b.mass = mass;
  b.inertia = Matrix3::Identity() * inertia;
  return b;
}

// The static body "ground" with the given shapes (planes).
RigidBody ground_body(std::vector<Shape> shapes) {
  RigidBody ground;
  ground.name = "ground";
  ground.is_static = true;
  ground.shapes = std::move(shapes);
  return ground;
}

// A shape touching only through explicit pairs (contype = conaffinity = 0).
Shape named(Shape s, const std::string& name) {
  s.name = name;
  s.contype = s.conaffinity = 0;
  return s;
}

// Ground (body 0) with the floor y ≤ 0 and a slope n·x ≤ n·o; body "a" with a point and a disk,
// body "b" with a box (corners) and a disk; only the four pairs touch.
std::shared_ptr<RigidWorld> mixed_world() {
  auto w = std::make_shared<RigidWorld>(2);
  const Vector3 n = Vector3(0.3, 1.0, 0.0).normalized(), o(0.1, -0.2, 0.0);
  w->add_body(ground_body(
      {named(make_plane(Vector3::UnitY()), "floor"), named(make_plane(n, n.dot(o)), "slope")}));
  RigidBody a = planar_body("a", 2.0, 0.3);
  a.shapes = {named(make_convex({Vector3(0.3, -0.4, 0.0)}), "pt"), named(make_sphere(0.3), "disk")};
  w->add_body(a);
  RigidBody b = planar_body("b", 1.5, 0.2);
  b.pose = planar_pose(1.0, 0.0, 0.0);
  b.shapes = {named(make_box(Vector3(0.4, 0.2, 0.2)), "box"),
              named(make_sphere(0.25, Pose{Vector3(0.05, 0.02, 0.0)}), "disk")};
  w->add_body(b);
  ContactMaterial rough;
  rough.mu = 0.5;
  w->add_contact_pair({"pt/floor", 1, 0, 0, 0});
  w->add_contact_pair({"disk/slope", 2, 1, 0, 1, ConstraintKind::unilateral, rough});
  w->add_contact_pair({"box/floor", 2, 0, 0, 0});
  w->add_contact_pair({"disks", 1, 1, 2, 1});
  return w;
}

}  // namespace

// Every pair is reported at any distance (margin 1 mm here): 1 + 1 + 4 corners (2D box) + 1; the
// disk on the slope takes its own μ, the others the default; nothing else is detected.
TEST(ContactPairs, ReportedWhateverTheGapUnderTheirNames) {
  auto w = mixed_world();
  RigidWorldSystem sys(w, CollisionSettings{.margin = 1e-3});
  Vector q = w->initial_positions();
  q.segment<3>(0) << 0.0, 5.0, 0.2;  // a far above everything
  q.segment<3>(3) << 3.0, 4.0, 0.1;  // b too
  const ContactState s = sys.contact_state(q, Vector::Zero(6), 0.0);
  std::vector<std::string> names;
  for (const auto& c : s.constraints) names.push_back(c.name);
  // detection order: by (body a, body b, shape a, shape b, feature); b's box corners 0 to 3
  const std::vector<std::string> expected = {
      "pt/floor", "disks", "box/floor", "box/floor/1", "box/floor/2", "box/floor/3", "disk/slope"};
  EXPECT_EQ(names, expected);
  for (const auto& c : s.constraints) {
    EXPECT_GT(c.gap, 1.0) << c.name;
    EXPECT_EQ(c.mu, c.name == "disk/slope" ? 0.5 : 0.0) << c.name;
    EXPECT_EQ(c.kind, ConstraintKind::unilateral);
  }
}

// ḣ = ∇hᵀv, c_n and c_t against central differences along the motion, at random states
// (points and disks on world planes, the box corners, disk–disk).
TEST(ContactPairs, KinematicsMatchFiniteDifferences) {
  auto w = mixed_world();
  RigidWorldSystem sys(w);
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    Vector q(6), v(6);
    for (Index k = 0; k < 6; ++k) q[k] = u(gen), v[k] = 2.0 * u(gen);
    q[3] += 1.5;  // keep the disk centres apart
    test::expect_kinematics_match_fd(sys, q, v);
  }
}

// Point s on body (x, y, θ) against the floor: ∇h = (0, 1, (Rs)_x), H_t = (1, 0, −(Rs)_y)
// (the velocity of p = c + Rs is ċ + θ̇ k×Rs, k×r = (−r_y, r_x)), c_n = −θ̇² (Rs)_y; disk of
// radius R: H_t = (1, 0, R), c = 0 (Brogliato 2014 §2.3.5 prints (0, 1, R): docs/math/models.md).
TEST(ContactPairs, ColumnsAreMaterialPointVelocities) {
  auto w = std::make_shared<RigidWorld>(2);
  w->add_body(ground_body({make_plane(Vector3::UnitY())}));
  RigidBody rod = planar_body("rod", 1.0, 0.1);
  rod.shapes = {make_convex({Vector3(-0.5, 0.0, 0.0)}), make_sphere(0.5)};
  w->add_body(rod);
  w->add_contact_pair({"end", 1, 0, 0, 0});
  w->add_contact_pair({"wheel", 1, 1, 0, 0});
  RigidWorldSystem sys(w);
  const double th = 0.4;
  const ContactState s =
      sys.contact_state(Vector3(0.2, 0.5 * std::sin(th), th), Vector3(0.3, 0.1, 2.0), 0);
  ASSERT_EQ(s.size(), 2);
  const auto& end = s.constraints[0];
  EXPECT_NEAR(end.gap, 0.0, 1e-15);
  EXPECT_NEAR(end.normal[2], -0.5 * std::cos(th), 1e-15);
  EXPECT_NEAR(end.tangent(2, 0), 0.5 * std::sin(th), 1e-15);
  EXPECT_NEAR(end.normal_bias, 4.0 * 0.5 * std::sin(th), 1e-14);  // −θ̇² (Rs)_y, θ̇ = 2
  const auto& wheel = s.constraints[1];
  EXPECT_NEAR(wheel.gap, 0.5 * std::sin(th) - 0.5, 1e-15);
  EXPECT_TRUE(wheel.normal.isApprox(Vector3(0, 1, 0)));
  EXPECT_TRUE(wheel.tangent.col(0).isApprox(Vector3(1, 0, 0.5)));
  EXPECT_NEAR(wheel.normal_bias, 0.0, 1e-15);
  EXPECT_NEAR(wheel.tangent_bias[0], 0.0, 1e-15);
  EXPECT_NEAR(s.F[1], 9.81, 1e-15);  // F = (0, m g, 0) on the left side
}

// A bilateral pair is a bilateral constraint; the world then steps with the dense layer.
TEST(ContactPairs, BilateralPairIsABilateralConstraint) {
  auto w = std::make_shared<RigidWorld>(2);
  w->add_body(ground_body({make_plane(Vector3::UnitX())}));
  RigidBody bar = planar_body("bar", 1.0, 0.1);
  bar.shapes = {make_convex({Vector3(0.0, 0.5, 0.0)})};
  w->add_body(bar);
  w->add_contact_pair({"A/wall", 1, 0, 0, 0, ConstraintKind::bilateral});
  EXPECT_TRUE(w->has_bilateral_pairs());
  RigidWorldSystem sys(w);
  const ContactState s = sys.contact_state(Vector3(0.0, 0.0, 0.0), Vector3::Zero(), 0);
  ASSERT_EQ(s.size(), 1);
  EXPECT_EQ(s.constraints[0].kind, ConstraintKind::bilateral);
  // wall normal n = (1, 0), the one frame convention t = (n_y, −n_x) = (0, −1)
  EXPECT_TRUE(s.constraints[0].tangent.col(0).isApprox(Vector3(0, -1, 0)));
}

// contype/conaffinity: a sphere with contype = conaffinity = 0 is not detected; one with
// contype 2 touches a plane of conaffinity 2 but not one of conaffinity 1 (MuJoCo's rule).
TEST(ContactPairs, CollisionFilterFollowsMuJoCosRule) {
  auto w = std::make_shared<RigidWorld>(3);
  Shape floor = make_plane(Vector3::UnitZ());
  floor.conaffinity = 2;
  floor.contype = 0;
  w->add_body(ground_body({floor}));
  for (const auto& [name, type] : {std::pair{"ghost", 0u}, {"two", 2u}, {"one", 1u}}) {
    RigidBody ball;
    ball.name = name;
    ball.pose.position = Vector3(3.0 * w->body_count(), 0.0, 0.5);
    Shape s = make_sphere(0.5);
    s.contype = type;
    s.conaffinity = 0;
    ball.shapes = {s};
    w->add_body(ball);
  }
  const auto contacts = detect_contacts(*w, w->initial_positions(), {.margin = 0.1});
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(w->body(contacts[0].body_a).name, "two");
}

// shapes_may_touch: the filtered balls above may touch the floor; with the "two" ball's contype
// made 1 no pair passes, and an explicit pair makes the world touch again.
TEST(ContactPairs, ShapesMayTouchFollowsTheFilters) {
  auto world = [](unsigned ball_contype) {
    auto w = std::make_shared<RigidWorld>(3);
    Shape floor = make_plane(Vector3::UnitZ());
    floor.conaffinity = 2;
    floor.contype = 0;
    w->add_body(ground_body({floor}));
    RigidBody ball;
    ball.name = "ball";
    ball.pose.position = Vector3(0.0, 0.0, 0.5);
    Shape s = make_sphere(0.5);
    s.contype = ball_contype;
    s.conaffinity = 0;
    ball.shapes = {s};
    w->add_body(ball);
    return w;
  };
  EXPECT_TRUE(shapes_may_touch(*world(2), {}));
  const auto apart = world(1);
  EXPECT_FALSE(shapes_may_touch(*apart, {}));
  EXPECT_TRUE(detect_contacts(*apart, apart->initial_positions(), {.margin = 10.0}).empty());
  apart->add_contact_pair({"ball/floor", 1, 0, 0, 0});
  EXPECT_TRUE(shapes_may_touch(*apart, {}));
}

TEST(ContactPairs, BadPairsAreRefusedWithTheirName) {
  auto w = mixed_world();
  auto refuses = [&](ContactPair p, const std::string& part) {
    try {
      w->add_contact_pair(p);
      ADD_FAILURE() << "accepted " << p.name;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  refuses({"self", 1, 0, 1, 1}, "'self': a body cannot touch itself");
  refuses({"ghost", 1, 0, 7, 0}, "body_b = 7 is not a body index");
  refuses({"noshape", 1, 5, 0, 0}, "shape_a = 5 of body 'a'");
  refuses({"pt/floor", 2, 1, 0, 0}, "name already used");
  refuses({"again", 0, 0, 1, 0}, "already form a pair");  // pt/floor, given the other way round
  ContactMaterial bad;
  bad.mu = -1.0;
  refuses({"bad", 2, 0, 0, 1, ConstraintKind::unilateral, bad}, "mu = -1");
}

// Spatial sphere–sphere (off-centre shapes, spinning bodies): c_n and both c_t exact.
TEST(ContactPairs, SpatialSpheresMatchFiniteDifferences) {
  auto w = std::make_shared<RigidWorld>(3);
  for (int i = 0; i < 2; ++i) {
    RigidBody b;
    b.name = i == 0 ? "a" : "b";
    b.inertia = Vector3(0.2, 0.3, 0.4).asDiagonal();
    b.pose.position = Vector3(1.2 * i, 0.1 * i, -0.2 * i);
    b.shapes = {named(make_sphere(0.4 + 0.1 * i, Pose{Vector3(0.05, -0.1 * i, 0.03)}), "s")};
    w->add_body(b);
  }
  w->add_contact_pair({"balls", 0, 0, 1, 0});
  RigidWorldSystem sys(w);
  std::mt19937 gen(3);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int trial = 0; trial < 5; ++trial) {
    Vector q = w->initial_positions(), v(12);
    for (Index k = 0; k < 12; ++k) v[k] = 2.0 * u(gen);
    for (int b = 0; b < 2; ++b) {
      q.segment<3>(7 * b) += 0.2 * Vector3(u(gen), u(gen), u(gen));
      q.segment<4>(7 * b + 3) = Eigen::Vector4d(1.0, u(gen), u(gen), u(gen)).normalized();
    }
    test::expect_kinematics_match_fd(sys, q, v);
  }
}
