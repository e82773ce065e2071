// rigid_world_forest: a RigidWorld's joints as kinematic trees. Forward dynamics in joint
// coordinates (CRBA, RNEA, the tree factorization) against the maximal-coordinate model of the
// same world with its joint rows solved exactly (the KKT system), and the free body's conventions
// against RigidWorld's own.
#include <gtest/gtest.h>

#include <random>

#include "moreau/model/multibody/rigid_world_forest.hpp"
#include "moreau/model/multibody/tree_factorization.hpp"
#include "random_frames.hpp"

using namespace moreau;
using moreau::test::random_rotation;
using moreau::test::random_vector;

namespace {

// A spatial world of `n` bodies at random poses joined into a tree by revolute, prismatic and ball
// joints at random world anchors (satisfied at the initial poses), hanging from the world or from
// a free body, some joints written child-first and some parent-first.
RigidWorld random_jointed_world(unsigned seed, int n) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(0, 1000);
  RigidWorld w(3);
  for (int i = 0; i < n; ++i) {
    RigidBody b;
    b.name = "b" + std::to_string(i);
    b.mass = 0.5 + (pick(rng) % 100) / 40.0;
    const Matrix3 R = random_rotation(rng).toRotationMatrix();
    b.inertia = R * (Vector3(0.05, 0.07, 0.1) + random_vector(rng, 0.03).cwiseAbs()).asDiagonal() *
                R.transpose();
    b.pose = Pose{random_vector(rng, 1.0), random_rotation(rng)};
    w.add_body(b);
  }
  const JointKind kinds[] = {JointKind::revolute, JointKind::prismatic, JointKind::ball};
  for (int i = 1; i < n; ++i) {
    const Index parent = seed % 2 ? pick(rng) % (i + 1) - 1 : pick(rng) % i;  // −1: the world
    const Index child = i;
    const Vector3 P = random_vector(rng, 1.0);
    Joint j;
    j.kind = kinds[pick(rng) % 3];
    const bool child_first = parent < 0 || pick(rng) % 2 == 0;
    j.body_a = child_first ? child : parent;
    j.body_b = child_first ? parent : child;
    const Pose pa = w.body(j.body_a).pose;
    j.anchor_a = pa.orientation.conjugate() * (P - pa.position);
    j.anchor_b = j.body_b < 0 ? P
                              : Vector3(w.body(j.body_b).pose.orientation.conjugate() *
                                        (P - w.body(j.body_b).pose.position));
    j.axis_a = random_vector(rng, 1.0).normalized();
    w.add_joint(j);
  }
  return w;
}

// The maximal-coordinate state of the forest's state (q, v): each body's pose and (v_G, ω).
void maximal_state(const RigidWorld& w, const RigidWorldForest& f, const Vector& q, const Vector& v,
                   Vector& qm, Vector& vm) {
  MultibodyKinematics k;
  f.model.kinematics(q, k);
  qm = Vector::Zero(w.position_size());
  vm = Vector::Zero(w.velocity_size());
  for (Index i = 0; i < w.body_count(); ++i) {
    if (w.body(i).is_static) continue;
    const Index b = f.body_of[i];
    const Pose& p = k.pose[b];
    const Index o = w.position_offset(i), ov = w.velocity_offset(i);
    qm.segment<3>(o) = p.position;
    qm.segment<4>(o + 3) << p.orientation.w(), p.orientation.x(), p.orientation.y(),
        p.orientation.z();
    vm.segment<6>(ov) = f.model.body_jacobian(k, b) * v;
  }
}

}  // namespace

// For random trees, v̇ = −M⁻¹ b in joint coordinates, mapped to the bodies (V̇ = J v̇ + J̇ v, J̇ v by
// central differences along the motion), equals the accelerations of the maximal model whose joint
// rows are solved exactly: [M Jᵀ; J 0] (a, −λ) = (−F, −c). The joint rows hold at the mapped state
// (residual and J V), which checks the conversion of anchors, axes and turned joints.
TEST(RigidWorldForest, ForwardDynamicsEqualsMaximalCoordinatesWithExactJointRows) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const RigidWorld w = random_jointed_world(seed, 3 + static_cast<int>(seed % 4));
    const RigidWorldForest f = rigid_world_forest(w);
    ASSERT_TRUE(f.closure_joints.empty());
    std::mt19937 rng(seed + 50);
    std::normal_distribution<double> n(0.0, 1.0);
    Vector dq(f.model.velocity_size()), v(f.model.velocity_size());
    for (Index i = 0; i < dq.size(); ++i) dq[i] = 0.5 * n(rng), v[i] = n(rng);
    const Vector q = f.model.integrate(f.q0, dq, 1.0);

    Vector qm, vm;
    maximal_state(w, f, q, v, qm, vm);
    Matrix J(0, w.velocity_size());
    Vector c(0);
    for (Index j = 0; j < static_cast<Index>(w.joints().size()); ++j) {
      const BodyPairRows r = w.joint_rows(qm, vm, j);
      EXPECT_LT(r.residual.norm(), 1e-10) << "seed " << seed << " joint " << j;
      EXPECT_LT(r.apply(vm).norm(), 1e-10) << "seed " << seed << " joint " << j;
      J.conservativeResize(J.rows() + r.rows(), Eigen::NoChange);
      J.bottomRows(r.rows()) = r.dense(w.velocity_size());
      c.conservativeResize(c.size() + r.rows());
      c.tail(r.rows()) = r.bias;
    }
    const Index nm = w.velocity_size(), nr = J.rows();
    Matrix K = Matrix::Zero(nm + nr, nm + nr);
    K.topLeftCorner(nm, nm) = w.dense_mass_matrix(qm);
    K.topRightCorner(nm, nr) = J.transpose();
    K.bottomLeftCorner(nr, nm) = J;
    Vector rhs(nm + nr);
    rhs << -w.forces(qm, vm, 0.0), -c;
    const Vector am = K.fullPivLu().solve(rhs).head(nm);

    TreeFactorization factor;
    ASSERT_TRUE(factor.factor(f.model.mass_matrix(q), f.model.dof_parent()));
    Vector a = -f.model.bias_forces(q, v);
    factor.solve_in_place(a);
    const double eps = 1e-6;
    Vector qp, vp, qmm, vmm;
    maximal_state(w, f, f.model.integrate(q, v, eps), v + eps * a, qp, vp);
    maximal_state(w, f, f.model.integrate(q, v, -eps), v - eps * a, qmm, vmm);
    const Vector mapped = (vp - vmm) / (2 * eps);
    EXPECT_LT((mapped - am).norm(), 1e-6 * (1 + am.norm())) << "seed " << seed;
  }
}

// Loose bodies keep today's conventions: a free joint named after its body, q = (p, quaternion)
// and v = (v_G, ω world) as RigidWorld stores them, the same diagonal mass block, and the bias
// forces equal to RigidWorld's F = (−m g, ω × I_w ω).
TEST(RigidWorldForest, FreeBodiesKeepTheirCoordinatesMassAndForces) {
  std::mt19937 rng(3);
  RigidWorld w(3);
  for (int i = 0; i < 3; ++i) {
    RigidBody b;
    b.name = "box" + std::to_string(i);
    b.mass = 1.0 + i;
    b.inertia = Vector3(0.1, 0.2, 0.3 + 0.1 * i).asDiagonal();
    b.pose = Pose{random_vector(rng, 2.0), random_rotation(rng)};
    b.linear_velocity = random_vector(rng, 1.0);
    b.angular_velocity = random_vector(rng, 3.0);
    w.add_body(b);
  }
  RigidBody ground;
  ground.name = "ground";
  ground.is_static = true;
  w.add_body(ground);
  const RigidWorldForest f = rigid_world_forest(w);
  const Vector q = w.initial_positions(), v = w.initial_velocities();
  ASSERT_EQ(f.model.position_size(), q.size());
  EXPECT_LT((f.q0 - q).norm(), 1e-15);
  EXPECT_LT((f.v0 - v).norm(), 1e-12);
  EXPECT_EQ(f.model.position_names(), w.position_names());
  EXPECT_EQ(f.model.velocity_names(), w.velocity_names());
  EXPECT_LT((f.model.mass_matrix(q) - w.dense_mass_matrix(q)).norm(), 1e-13);
  EXPECT_LT((f.model.bias_forces(q, v) - w.forces(q, v, 0.0)).norm(), 1e-12);
  EXPECT_NEAR(f.model.potential_energy(q), w.potential_energy(q), 1e-12);
}

// A planar world: a loose rod is the chain slide x, slide y, hinge z with q = (x, y, θ), and a
// bob hung on it by a revolute joint swings about z.
TEST(RigidWorldForest, PlanarRootsAreSlideSlideHingeChains) {
  RigidWorld w(2);
  RigidBody rod;
  rod.name = "rod";
  rod.mass = 2.0;
  rod.inertia(2, 2) = 0.4;
  rod.pose = planar_pose(0.5, 1.0, 0.3);
  rod.linear_velocity = Vector3(0.2, -0.1, 0.0);
  rod.angular_velocity = Vector3(0.0, 0.0, 1.5);
  w.add_body(rod);
  RigidBody bob = rod;
  bob.name = "bob";
  bob.pose = planar_pose(0.5, 0.2, 0.0);
  bob.linear_velocity = bob.angular_velocity = Vector3::Zero();
  w.add_body(bob);
  Joint j;
  j.body_a = 1;
  j.body_b = 0;
  j.anchor_a = Vector3(0.0, 0.4, 0.0);
  j.anchor_b = planar_pose(0, 0, 0.3).orientation.conjugate() * Vector3(0.0, -0.4, 0.0);
  w.add_joint(j);
  const RigidWorldForest f = rigid_world_forest(w);
  ASSERT_EQ(f.model.velocity_size(), 4);
  EXPECT_EQ(f.model.position_names()[0], "rod.x.q");  // the system layer renames planar roots
  EXPECT_NEAR(f.q0[0], 0.5, 1e-15);
  EXPECT_NEAR(f.q0[2], 0.3, 1e-15);
  EXPECT_NEAR(f.q0[3], 0.0, 1e-15);
  // v₀ is the kinetic projection: joint impulses are internal, so the total momentum is the
  // rod's alone (the bob starts at rest while the rod's end moves)
  MultibodyKinematics k;
  f.model.kinematics(f.q0, k);
  Vector3 p = Vector3::Zero();
  for (Index b = 0; b < 2; ++b) p += 2.0 * (f.model.body_jacobian(k, b) * f.v0).head<3>();
  EXPECT_LT((p - 2.0 * rod.linear_velocity).norm(), 1e-12);
  // at rest, the pair's centre of mass falls at g whatever the joint does
  const Vector a0 =
      f.model.mass_matrix(f.q0).ldlt().solve(-f.model.bias_forces(f.q0, Vector::Zero(4)));
  Vector3 aG = Vector3::Zero();
  for (Index b = 0; b < 2; ++b) aG += 0.5 * (f.model.body_jacobian(k, b) * a0).head<3>();
  EXPECT_LT((aG - Vector3(0, -9.81, 0)).norm(), 1e-12);
}
