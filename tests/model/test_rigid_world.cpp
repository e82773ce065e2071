// RigidWorld: coordinates, mass matrix, forces, quaternion kinematics and joint rows.
#include <gtest/gtest.h>

#include <random>

#include "moreau/model/rigid/rigid_world.hpp"

using namespace moreau;

namespace {

RigidBody spatial_body(const std::string& name, const Vector3& p, const Quaternion& q) {
  RigidBody b;
  b.name = name;
  b.mass = 2.0;
  b.inertia = Vector3(0.3, 0.5, 0.7).asDiagonal();
  b.pose = Pose{p, q};
  b.shapes.push_back(make_box(Vector3(0.2, 0.3, 0.4)));
  return b;
}

}  // namespace

// Exact exponential: after N steps of h at constant ω the rotation is exp(Nh ω̂) R0 and the
// quaternion keeps unit norm to rounding (the explicit Euler update ½(0,ω)⊗q would drift by O(h²)
// per step).
TEST(RigidWorld, QuaternionIntegrationKeepsNormAndMatchesExponential) {
  RigidWorld w(3);
  w.add_body(spatial_body("a", Vector3::Zero(),
                          Quaternion(Eigen::AngleAxisd(0.3, Vector3(1, 1, 0).normalized()))));
  Vector q = w.initial_positions();
  Vector v(6);
  v << 0.1, 0.2, 0.3, 1.0, -2.0, 3.0;
  const double h = 1e-3;
  for (int k = 0; k < 2000; ++k) q = w.integrate_position(q, v, h);
  EXPECT_NEAR(q.segment<4>(3).norm(), 1.0, 1e-13);
  const Vector3 om = v.segment<3>(3);
  const Matrix3 expected = Eigen::AngleAxisd(2.0 * om.norm(), om.normalized()).toRotationMatrix() *
                           Eigen::AngleAxisd(0.3, Vector3(1, 1, 0).normalized()).toRotationMatrix();
  EXPECT_LT((w.body_pose(q, 0).rotation() - expected).norm(), 1e-10);
  EXPECT_NEAR(q[0], 0.2, 1e-12);  // p = p0 + T v, T = 2 s
}

// q̇ = position_rate(q, v) is the derivative of integrate_position at h = 0.
TEST(RigidWorld, PositionRateIsDerivativeOfIntegration) {
  RigidWorld w(3);
  w.add_body(spatial_body("a", Vector3(1, 2, 3), Quaternion(0.5, 0.5, -0.5, 0.5)));
  const Vector q = w.initial_positions();
  Vector v(6);
  v << 0.4, -0.2, 0.1, 0.7, 0.3, -1.1;
  const double h = 1e-6;
  const Vector fd = (w.integrate_position(q, v, h) - w.integrate_position(q, v, -h)) / (2 * h);
  EXPECT_LT((fd - w.position_rate(q, v)).norm(), 1e-8);
}

// T = ½ m‖v‖² + ½ Ω·(I Ω) with Ω = Rᵀω (body axes) must equal ½ vᵀ M(q) v with the world-axes
// block R I Rᵀ.
TEST(RigidWorld, MassMatrixWorldInertia) {
  RigidWorld w(3);
  const Quaternion rot(Eigen::AngleAxisd(0.9, Vector3(0.2, -1, 0.5).normalized()));
  w.add_body(spatial_body("a", Vector3::Zero(), rot));
  const Vector q = w.initial_positions();
  Vector v(6);
  v << 1, 2, 3, 0.5, -0.25, 2.0;
  const Vector3 Om = rot.conjugate() * Vector3(v.segment<3>(3));
  const double T =
      0.5 * 2.0 * v.head<3>().squaredNorm() + 0.5 * Om.dot(Vector3(0.3, 0.5, 0.7).cwiseProduct(Om));
  EXPECT_NEAR(w.kinetic_energy(q, v), T, 1e-12);
  EXPECT_NEAR(0.5 * v.dot(w.dense_mass_matrix(q) * v), T, 1e-12);
}

// F = (−m g, ω × I_w ω): for ω along a principal axis the gyroscopic term vanishes; for
// ω = (1, 1, 0) with I = diag(0.3, 0.5, 0.7) (R = I): I ω = (0.3, 0.5, 0), ω × Iω = (0, 0, 0.2).
TEST(RigidWorld, ForcesGravityAndGyroscopic) {
  RigidWorld w(3);
  w.add_body(spatial_body("a", Vector3::Zero(), Quaternion::Identity()));
  const Vector q = w.initial_positions();
  Vector v = Vector::Zero(6);
  v[5] = 3.0;
  Vector F = w.forces(q, v, 0.0);
  EXPECT_NEAR(F[2], 2.0 * 9.81, 1e-12);
  EXPECT_LT(F.tail<3>().norm(), 1e-14);
  v.tail<3>() << 1, 1, 0;
  F = w.forces(q, v, 0.0);
  EXPECT_NEAR(F[5], 0.2, 1e-14);
  EXPECT_NEAR(F[3], 0.0, 1e-14);
}

TEST(RigidWorld, PlanarLayoutAndNames) {
  RigidWorld w(2);
  RigidBody ground;
  ground.name = "ground";
  ground.is_static = true;
  ground.shapes.push_back(make_plane(Vector3::UnitY()));
  w.add_body(ground);
  RigidBody rod;
  rod.name = "rod";
  rod.mass = 1.0;
  rod.inertia(2, 2) = 1.0 / 12.0;
  rod.pose = planar_pose(0.1, 0.5, 1.2);
  w.add_body(rod);
  EXPECT_EQ(w.velocity_size(), 3);
  EXPECT_EQ(w.velocity_offset(0), -1);
  EXPECT_EQ(w.position_names(), (std::vector<std::string>{"rod.x", "rod.y", "rod.theta"}));
  const Vector q = w.initial_positions();
  EXPECT_NEAR(q[2], 1.2, 1e-14);
  EXPECT_NEAR(w.forces(q, Vector::Zero(3), 0)[1], 9.81, 1e-14);
  EXPECT_NEAR(Matrix(w.mass_matrix(q))(2, 2), 1.0 / 12.0, 1e-15);
}

TEST(RigidWorld, RejectsBadBodies) {
  RigidWorld w(3);
  RigidBody b = spatial_body("a", Vector3::Zero(), Quaternion::Identity());
  b.mass = -1;
  try {
    w.add_body(b);
    FAIL() << "negative mass accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("bodies[0].mass = -1"), std::string::npos) << e.what();
  }
  b.mass = 1;
  b.inertia << 1, 0, 0, 0, 1, 0, 0, 0, -1;  // not positive definite
  EXPECT_THROW(w.add_body(b), std::invalid_argument);
  b.inertia = Matrix3::Identity();
  b.pose.orientation = Quaternion(2, 0, 0, 0);  // not unit
  EXPECT_THROW(w.add_body(b), std::invalid_argument);
  RigidWorld w2(2);
  RigidBody p;
  p.pose = Pose{Vector3(0, 0, 1), Quaternion::Identity()};  // planar body off z = 0
  EXPECT_THROW(w2.add_body(p), std::invalid_argument);
}

// Joint rows against finite differences along the motion q(t) = integrate_position(q, v, t):
//   d/dt g(q(t)) = J v  (at the joint's reference configuration, where g = 0) and
//   d/dt (J(q(t)) v) = c = J̇ v.
class JointRows : public ::testing::TestWithParam<std::tuple<int, JointKind, bool>> {};

TEST_P(JointRows, MatchFiniteDifferences) {
  const auto [dim, kind, to_world] = GetParam();
  RigidWorld w(dim);
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-1, 1);
  auto body = [&](const std::string& name, const Vector3& p, double angle) {
    if (dim == 2) {
      RigidBody b;
      b.name = name, b.mass = 1.5, b.inertia(2, 2) = 0.2, b.pose = planar_pose(p.x(), p.y(), angle);
      return b;
    }
    return spatial_body(name, p,
                        Quaternion(Eigen::AngleAxisd(angle, Vector3(1, 2, 3).normalized())));
  };
  w.add_body(body("a", Vector3(0.3, -0.2, dim == 3 ? 0.1 : 0.0), 0.4));
  w.add_body(body("b", Vector3(1.0, 0.5, dim == 3 ? -0.3 : 0.0), -0.7));
  Joint j;
  j.kind = kind;
  j.body_a = 0;
  j.body_b = to_world ? -1 : 1;
  const Pose pa = w.body(0).pose;
  const Pose pb = to_world ? Pose{} : w.body(1).pose;
  j.anchor_a = dim == 2 ? Vector3(0.2, 0.1, 0) : Vector3(0.2, 0.1, -0.3);
  const Vector3 x = pa.apply(j.anchor_a);  // anchors coincide at the start
  j.anchor_b = pb.orientation.conjugate() * (x - pb.position);
  j.axis_a = dim == 2 ? Vector3(1, 2, 0).normalized() : Vector3(0.3, -0.5, 1).normalized();
  w.add_joint(j);
  const Vector q = w.initial_positions();
  Vector v(w.velocity_size());
  for (Index i = 0; i < v.size(); ++i) v[i] = U(rng);
  const BodyPairRows r = w.joint_rows(q, v, 0);
  EXPECT_EQ(r.rows(), j.rows(dim));
  EXPECT_LT(r.residual.norm(), 1e-12);
  const double h = 1e-6;
  const Vector qp = w.integrate_position(q, v, h), qm = w.integrate_position(q, v, -h);
  const BodyPairRows rp = w.joint_rows(qp, v, 0), rm = w.joint_rows(qm, v, 0);
  const Vector gdot = (rp.residual - rm.residual) / (2 * h);
  EXPECT_LT((gdot - r.apply(v)).norm(), 1e-6 * (1 + gdot.norm()))
      << gdot.transpose() << " vs " << r.apply(v).transpose();
  const Vector cfd = (rp.apply(v) - rm.apply(v)) / (2 * h);
  EXPECT_LT((cfd - r.bias).norm(), 1e-5 * (1 + cfd.norm()))
      << cfd.transpose() << " vs " << r.bias.transpose();
}

INSTANTIATE_TEST_SUITE_P(AllKinds, JointRows,
                         ::testing::Combine(::testing::Values(2, 3),
                                            ::testing::Values(JointKind::revolute,
                                                              JointKind::prismatic,
                                                              JointKind::fixed),
                                            ::testing::Bool()));

// jointed(a, b) names the body pairs that some joint links, in either order, and no other; a
// chain's joints added before its body b is known (body_b = −1, given the static body "world" by
// a later limited joint of the chain) count once they have it. Three bodies: a–b by a hinge, and
// c hanging from the world by a chain of two hinges, the second limited.
TEST(RigidWorld, JointedPairsAreTheJointsBodies) {
  RigidWorld w(3);
  for (const char* name : {"a", "b", "c"})
    w.add_body(spatial_body(name, Vector3(0, 0, 0), Quaternion::Identity()));
  EXPECT_FALSE(w.jointed(0, 1));
  Joint hinge;
  hinge.kind = JointKind::revolute;
  hinge.body_a = 1;
  hinge.body_b = 0;
  hinge.axis_a = Vector3::UnitZ();
  w.add_joint(hinge);
  Joint first = hinge;
  first.body_a = 2;
  first.body_b = -1;
  w.add_joint(first);
  EXPECT_TRUE(w.jointed(0, 1));
  EXPECT_TRUE(w.jointed(1, 0));
  EXPECT_FALSE(w.jointed(0, 2));
  EXPECT_FALSE(w.jointed(1, 2));
  Joint second = first;
  second.axis_a = Vector3::UnitX();
  second.limited = true;
  second.lower = -1.0, second.upper = 1.0;
  // refused after it gave the chain its body "world" (a negative stiffness is checked later):
  // the first joint keeps that body, and jointed says so
  Joint refused = second;
  refused.stiffness = -1.0;
  EXPECT_THROW(w.add_joint(refused), std::invalid_argument);
  const Index world = w.find_body("world");
  ASSERT_GE(world, 0);
  EXPECT_EQ(w.joints()[1].body_b, world);
  EXPECT_TRUE(w.jointed(2, world));
  w.add_joint(second);
  EXPECT_EQ(w.joints().size(), 3u);
  EXPECT_TRUE(w.jointed(world, 2));
  EXPECT_FALSE(w.jointed(2, 2));
  EXPECT_FALSE(w.jointed(0, world));
}

// The core points read one by one (Shape::core_point) are the shape's own: a sphere's centre, a
// capsule's two ends (∓h, 0, 0), a box's eight corners (±a, ±b, ±c, the sign of axis i from bit
// i of k), a convex shape's vertices; shapes without a core have none. core_points() lists them.
TEST(RigidShape, CorePointsOfEachKind) {
  const Shape sphere = make_sphere(0.3);
  ASSERT_EQ(sphere.core_point_count(), 1u);
  EXPECT_EQ(sphere.core_point(0), Vector3::Zero());
  const Shape capsule = make_capsule(0.1, 0.4);
  ASSERT_EQ(capsule.core_point_count(), 2u);
  EXPECT_EQ(capsule.core_point(0), Vector3(-0.4, 0, 0));
  EXPECT_EQ(capsule.core_point(1), Vector3(0.4, 0, 0));
  const Shape box = make_box(Vector3(1, 2, 3));
  ASSERT_EQ(box.core_point_count(), 8u);
  for (std::size_t k = 0; k < 8; ++k)
    EXPECT_EQ(box.core_point(k), Vector3(k & 1 ? 1 : -1, k & 2 ? 2 : -2, k & 4 ? 3 : -3)) << k;
  const std::vector<Vector3> vertices{Vector3(0, 0, 0), Vector3(1, 0, 0), Vector3(0, 1, 0),
                                      Vector3(0, 0, 1)};
  const Shape mesh = make_convex(vertices);
  ASSERT_EQ(mesh.core_point_count(), 4u);
  for (std::size_t k = 0; k < 4; ++k) EXPECT_EQ(mesh.core_point(k), vertices[k]);
  for (const Shape& s : {make_plane(Vector3::UnitZ()), make_cylinder(0.1, 0.2),
                         make_ellipsoid(Vector3(0.1, 0.2, 0.3))})
    EXPECT_EQ(s.core_point_count(), 0u);
  for (const Shape& s : {sphere, capsule, box, mesh}) {
    const std::vector<Vector3> listed = s.core_points();
    ASSERT_EQ(listed.size(), s.core_point_count());
    for (std::size_t k = 0; k < listed.size(); ++k) EXPECT_EQ(listed[k], s.core_point(k));
  }
}

// Uniform rod (capsule of radius 0) of mass m, length L = 2h: I = m L²/12.
TEST(RigidShape, InertiaOfRodAndBox) {
  EXPECT_NEAR(shape_inertia(make_capsule(0.0, 0.5), 1.0, 2)(2, 2), 1.0 / 12.0, 1e-15);
  const Matrix3 I = shape_inertia(make_box(Vector3(0.1, 0.2, 0.3)), 12.0, 3);
  EXPECT_NEAR(I(0, 0), 0.4 * 0.4 + 0.6 * 0.6, 1e-14);  // m/12 (b² + c²) with b = 0.4, c = 0.6
  EXPECT_NEAR(shape_inertia(make_sphere(0.5), 1.0, 3)(1, 1), 0.1, 1e-15);
}
