// Planar rigid-body builder: finite-difference checks of ∇h and of the velocity-product terms c_n,
// c_t (digest 002 §B: c = d/dt(Jᵀ) q̇), tangent columns against hand-derived material-point
// velocities, and input checks.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "fd_check.hpp"
#include "moreau/model/planar_rigid_system.hpp"

using namespace moreau;

namespace {
Vector random_vector(Index n, std::mt19937& gen, double scale = 1.0) {
  std::uniform_real_distribution<double> u(-scale, scale);
  Vector x(n);
  for (Index i = 0; i < n; ++i) x[i] = u(gen);
  return x;
}
}  // namespace

TEST(PlanarRigidSystem, AllShapesMatchFiniteDifferences) {
  PlanarRigidSystem sys("mix");
  const Index a = sys.add_body("a", 2.0, 0.3);
  const Index b = sys.add_body("b", 1.5, 0.2);
  const Plane2 floor{};
  const Plane2 slope{-1, Vector2(0.1, -0.2), Vector2(0.3, 1.0)};
  sys.add_point_plane(a, Vector2(0.3, -0.4), floor, {"pt", ConstraintKind::unilateral, 0.5, 0.0});
  sys.add_disk_plane(b, 0.25, slope, {"disk", ConstraintKind::unilateral, 0.5, 0.0},
                     Vector2(0.05, 0.02));
  sys.add_segment_plane(a, 0.6, slope, {"seg", ConstraintKind::unilateral, 0.2, 0.0});
  sys.add_box_plane(b, 0.8, 0.4, floor, {"box", ConstraintKind::unilateral, 0.3, 0.0});
  sys.add_disk_disk(a, 0.3, b, 0.2, {"dd", ConstraintKind::unilateral, 0.4, 0.0});
  // A half-plane carried by body a, touched by a point of body b.
  sys.add_point_plane(b, Vector2(-0.1, 0.3), Plane2{a, Vector2(0.2, 0.1), Vector2(0.6, -0.8)},
                      {"face", ConstraintKind::unilateral, 0.3, 0.0});
  Vector q0 = Vector::Zero(6);
  q0[3] = 1.0;
  EXPECT_EQ(sys.contact_state(q0, Vector::Zero(6), 0).size(), 1 + 1 + 2 + 4 + 1 + 1);
  std::mt19937 gen(7);
  for (int trial = 0; trial < 5; ++trial) {
    Vector q = random_vector(6, gen, 1.0);
    q[3] += 1.5;  // keep the disk centres apart
    const Vector v = random_vector(6, gen, 2.0);
    test::expect_kinematics_match_fd(sys, q, v);
  }
}

// Point s on body (x, y, θ) against the floor: ∇h = (0, 1, (Rs)_x), H_t = (1, 0, −(Rs)_y)
// (velocity of p = c + Rs is ċ + θ̇ k×Rs, k×r = (−r_y, r_x)).
TEST(PlanarRigidSystem, PointOnFloorColumnsAreMaterialVelocities) {
  PlanarRigidSystem sys;
  const Index b = sys.add_body("rod", 1.0, 0.1);
  sys.add_point_plane(b, Vector2(-0.5, 0.0), Plane2{},
                      {"end", ConstraintKind::unilateral, 0.5, 0.0});
  const double th = 0.4;
  const ContactState s =
      sys.contact_state(Vector3(0.2, 0.5 * std::sin(th), th), Vector3(0.3, 0.1, 2.0), 0);
  const auto& c = s.constraints[0];
  EXPECT_NEAR(c.gap, 0.0, 1e-15);
  EXPECT_NEAR(c.normal[2], -0.5 * std::cos(th), 1e-15);
  EXPECT_NEAR(c.tangent(2, 0), 0.5 * std::sin(th), 1e-15);
  // c_n = −θ̇² (Rs)_y = −4·(−0.5 sin θ)
  EXPECT_NEAR(c.normal_bias, 4.0 * 0.5 * std::sin(th), 1e-14);
  // F = (0, m g, 0) with g⃗ = (0, −9.81)
  EXPECT_NEAR(s.F[1], 9.81, 1e-15);
}

// Disk of radius R on the floor: H_t = (1, 0, R) (digest 003 §3 ex. 5 [fix]), c = 0.
TEST(PlanarRigidSystem, DiskOnFloor) {
  PlanarRigidSystem sys;
  const Index b = sys.add_body("disk", 2.0, 0.25);
  sys.add_disk_plane(b, 0.5, Plane2{}, {"floor", ConstraintKind::unilateral, 0.3, 0.0});
  const ContactState s = sys.contact_state(Vector3(1.0, 0.5, 0.7), Vector3(1.0, 0.0, 3.0), 0);
  const auto& c = s.constraints[0];
  EXPECT_NEAR(c.gap, 0.0, 1e-15);
  EXPECT_TRUE(c.normal.isApprox(Vector3(0, 1, 0)));
  EXPECT_TRUE(c.tangent.col(0).isApprox(Vector3(1, 0, 0.5)));
  EXPECT_EQ(c.normal_bias, 0.0);
  EXPECT_EQ(c.tangent_bias[0], 0.0);
}

TEST(PlanarRigidSystem, RejectsBadInput) {
  PlanarRigidSystem sys;
  EXPECT_THROW(sys.add_body("b", 0.0, 1.0), std::invalid_argument);
  EXPECT_THROW(sys.add_body("b", 1.0, std::nan("")), std::invalid_argument);
  const Index b = sys.add_body("b", 1.0, 1.0);
  EXPECT_THROW(sys.add_point_plane(b, Vector2::Zero(), Plane2{},
                                   {"c", ConstraintKind::unilateral, -0.1, 0.0}),
               std::invalid_argument);
  EXPECT_THROW(sys.add_point_plane(3, Vector2::Zero(), Plane2{}, {}), std::invalid_argument);
  EXPECT_THROW(sys.add_disk_plane(b, -1.0, Plane2{}, {}), std::invalid_argument);
  EXPECT_THROW(
      sys.add_point_plane(b, Vector2::Zero(), Plane2{-1, Vector2::Zero(), Vector2::Zero()}, {}),
      std::invalid_argument);
  EXPECT_THROW(sys.contact_state(Vector::Zero(2), Vector::Zero(3), 0), std::invalid_argument);
}
