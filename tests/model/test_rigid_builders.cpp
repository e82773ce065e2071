// Rigid-body builders: finite-difference checks of ∇h and of the velocity-product terms c_n, c_t
// (digest 002 §B: c = d/dt(Jᵀ) q̇), tangent columns against hand-derived material-point velocities,
// and input checks.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "fd_check.hpp"
#include "moreau/model/planar_rigid_system.hpp"
#include "moreau/model/spatial_rigid_system.hpp"

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

TEST(SpatialRigidSystem, RotationVectorRateMatchesOmega) {
  // R(φ + ε φ̇) ≈ exp(ε[ω]×) R(φ) for world-frame ω.
  const Vector3 phi(0.4, -0.7, 1.1), w(0.3, 0.5, -0.8);
  const double eps = 1e-6;
  const Vector3 phidot = left_jacobian_inverse(phi) * w;
  const Matrix3 Rdot =
      (rotation_from_vector(phi + eps * phidot) - rotation_from_vector(phi - eps * phidot)) /
      (2 * eps);
  Matrix3 W;
  W << 0, -w.z(), w.y(), w.z(), 0, -w.x(), -w.y(), w.x(), 0;
  EXPECT_LT((Rdot - W * rotation_from_vector(phi)).cwiseAbs().maxCoeff(), 1e-8);
  // small-angle branch
  EXPECT_TRUE(left_jacobian_inverse(Vector3(1e-6, 0, 0)).isApprox(Matrix3::Identity(), 1e-6));
}

TEST(SpatialRigidSystem, ContactFrameIsOrthonormalAndFloorAligned) {
  const ContactFrame3 f = contact_frame_3d(Vector3::UnitZ());
  EXPECT_TRUE(f.t1.isApprox(Vector3::UnitX()));
  EXPECT_TRUE(f.t2.isApprox(Vector3::UnitY()));
  const Vector3 n = Vector3(0.3, -0.5, 0.8).normalized();
  const ContactFrame3 g = contact_frame_3d(n);
  EXPECT_NEAR(g.t1.dot(n), 0.0, 1e-15);
  EXPECT_NEAR(g.t2.dot(g.t1), 0.0, 1e-15);
  EXPECT_NEAR(g.t1.cross(g.t2).dot(n), 1.0, 1e-14);
}

TEST(SpatialRigidSystem, AllShapesMatchFiniteDifferences) {
  SpatialRigidSystem sys("mix3");
  Matrix3 I1;
  I1 << 0.3, 0.02, 0.01, 0.02, 0.4, -0.03, 0.01, -0.03, 0.5;
  const Index a = sys.add_body("a", 2.0, I1);
  const Index b = sys.add_body("b", 1.0, Vector3(0.1, 0.2, 0.15).asDiagonal().toDenseMatrix());
  const Plane3 floor{};
  const Plane3 tilted{Vector3(0.1, 0.0, -0.3), Vector3(0.2, -0.1, 1.0)};
  sys.add_sphere_plane(a, 0.3, floor, {"sphere", ConstraintKind::unilateral, 0.5, 0.0},
                       Vector3(0.05, -0.02, 0.01));
  sys.add_point_plane(b, Vector3(0.2, 0.1, -0.3), tilted,
                      {"pt", ConstraintKind::unilateral, 0.5, 0.0});
  sys.add_box_plane(b, Vector3(0.3, 0.2, 0.1), tilted,
                    {"box", ConstraintKind::unilateral, 0.4, 0.0});
  sys.add_sphere_sphere(a, 0.3, b, 0.25, {"ss", ConstraintKind::unilateral, 0.4, 0.0});
  std::mt19937 gen(11);
  for (int trial = 0; trial < 5; ++trial) {
    Vector q = random_vector(12, gen, 1.0);
    q.segment<3>(6) += Vector3(1.2, -0.7, 0.9);  // sphere centres apart, generic normal
    const Vector v = random_vector(12, gen, 2.0);
    test::expect_kinematics_match_fd(sys, q, v);
  }
}

// Sphere on the floor: contact point r = −R e_z moves with ṗ + ω × r = (ẋ − Rω_y, ẏ + Rω_x, ż),
// so v_t1 = ẋ − R ω_y (zero when rolling along +x with ω_y = ẋ/R) and v_t2 = ẏ + R ω_x. M =
// blockdiag(m I, R I_b Rᵀ), F = (0, 0, m g, ω × I ω).
TEST(SpatialRigidSystem, SphereOnFloor) {
  SpatialRigidSystem sys;
  const double m = 2.0, R = 0.5, I = 0.4 * m * R * R;
  const Index b = sys.add_body("ball", m, I * Matrix3::Identity());
  sys.add_sphere_plane(b, R, Plane3{}, {"floor", ConstraintKind::unilateral, 0.4, 0.0});
  Vector q(6), v(6);
  q << 0.1, 0.2, R, 0.3, 0.2, 0.1;
  v << 1.0, -0.5, 0.0, 0.7, 0.4, -0.2;
  const ContactState s = sys.contact_state(q, v, 0);
  const auto& c = s.constraints[0];
  EXPECT_NEAR(c.gap, 0.0, 1e-15);
  EXPECT_NEAR(c.tangent.col(0).dot(v), v[0] - R * v[4], 1e-14);
  EXPECT_NEAR(c.tangent.col(1).dot(v), v[1] + R * v[3], 1e-14);
  EXPECT_NEAR(c.normal_bias, 0.0, 1e-15);
  EXPECT_NEAR(s.F[2], m * 9.81, 1e-12);
  EXPECT_NEAR(s.F.tail<3>().norm(), 0.0, 1e-14);  // isotropic inertia: ω × Iω = 0
  EXPECT_NEAR(sys.kinetic_energy(q, v), 0.5 * m * 1.25 + 0.5 * I * v.tail<3>().squaredNorm(),
              1e-12);
}

TEST(SpatialRigidSystem, RejectsBadInput) {
  SpatialRigidSystem sys;
  EXPECT_THROW(sys.add_body("b", -1.0, Matrix3::Identity()), std::invalid_argument);
  Matrix3 bad = Matrix3::Identity();
  bad(0, 1) = 0.5;
  EXPECT_THROW(sys.add_body("b", 1.0, bad), std::invalid_argument);
  EXPECT_THROW(sys.add_body("b", 1.0, -Matrix3::Identity()), std::invalid_argument);
  const Index b = sys.add_body("b", 1.0, Matrix3::Identity());
  EXPECT_THROW(sys.add_sphere_sphere(b, 0.1, b, 0.1, {}), std::invalid_argument);
  EXPECT_THROW(sys.add_box_plane(b, Vector3(0.1, -0.1, 0.1), Plane3{}, {}), std::invalid_argument);
}
