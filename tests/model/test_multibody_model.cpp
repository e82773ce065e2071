// MultibodyModel: CRBA, RNEA, the tree factorization and the configuration manifold, each against
// an answer computed another way (body Jacobians, closed-form equations of motion, a dense solve,
// finite differences).
#include <gtest/gtest.h>

#include <cmath>
#include <array>
#include <random>
#include <stdexcept>
#include <string>

#include <fmt/format.h>

#include "moreau/model/multibody/multibody_model.hpp"
#include "moreau/model/multibody/spatial_algebra.hpp"
#include "moreau/model/multibody/tree_factorization.hpp"
#include "moreau/model/velocity_level.hpp"
#include "random_frames.hpp"

using namespace moreau;
using moreau::test::random_rotation;
using moreau::test::random_vector;

namespace {

// A random forest: a free root, then bodies hanging from the world or from earlier bodies with
// chains of 0–3 joints (hinge, slide, ball), random placements, centres of mass and inertias.
MultibodyModel random_forest(unsigned seed, int bodies, double armature = 0.0) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> pick(0, 1000);
  MultibodyModel m;
  m.set_gravity(Vector3(0.3, -0.2, -9.81));
  for (int i = 0; i < bodies; ++i) {
    MultibodyBody b;
    b.name = "b" + std::to_string(i);
    b.mass = 0.5 + (pick(rng) % 100) / 50.0;
    const Vector3 d = Vector3(0.05, 0.08, 0.11) + random_vector(rng, 0.04).cwiseAbs();
    const Matrix3 R = random_rotation(rng).toRotationMatrix();
    b.inertia = R * d.asDiagonal() * R.transpose();
    b.com = random_vector(rng, 0.2);
    b.offset = Pose{random_vector(rng, 0.5), random_rotation(rng)};
    if (i == 0) {
      b.joints.push_back(MultibodyJoint{.type = JointType::free, .armature = armature});
    } else {
      b.parent = pick(rng) % (i + 1) - 1;  // −1 … i−1
      const int chain = i == 1 ? 1 : pick(rng) % 4;
      for (int k = 0; k < chain; ++k) {
        MultibodyJoint j;
        j.type = std::array{JointType::hinge, JointType::slide, JointType::ball}[pick(rng) % 3];
        j.axis = random_vector(rng, 1.0).normalized();
        j.anchor = random_vector(rng, 0.3);
        j.armature = armature;
        b.joints.push_back(j);
      }
    }
    m.add_body(b);
  }
  return m;
}

// A random state: q on the manifold (random rotations and displacements), v random.
void random_state(const MultibodyModel& m, unsigned seed, Vector& q, Vector& v) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0.0, 1.0);
  Vector dq(m.velocity_size());
  for (Index i = 0; i < dq.size(); ++i) dq[i] = 0.7 * n(rng);
  q = m.integrate(m.neutral_positions(), dq, 1.0);
  v.resize(m.velocity_size());
  for (Index i = 0; i < v.size(); ++i) v[i] = n(rng);
}

Matrix body_mass(const MultibodyModel& m, const MultibodyKinematics& k, Index b) {
  Matrix Mb = Matrix::Zero(6, 6);
  const Matrix3 R = k.pose[b].rotation();
  Mb.topLeftCorner<3, 3>() = m.body(b).mass * Matrix3::Identity();
  Mb.bottomRightCorner<3, 3>() = R * m.body(b).inertia * R.transpose();
  return Mb;
}

}  // namespace

// CRBA's M equals Σ_b J_bᵀ M_b J_b + diag(armature), J_b = ∂(v_G; ω)/∂v from body_jacobian and
// M_b = diag(m 1, R I Rᵀ): the kinetic energy ½ Σ (m|v_G|² + ωᵀI_Gω) in the joint velocities,
// which kinetic_energy computes from the twists.
// The ten-number inertia (spatial::CompactInertia) acts as the 6×6 matrix it stands for,
// [[I_G − m[c]×², m[c]×], [−m[c]×, m 1]] (multibody_dynamics.cpp), sums as matrices do, and gives
// ½ VᵀI V = ½ m |v_G|² + ½ ωᵀ I_G ω with v_G = v_O + ω × c.
TEST(SpatialAlgebra, CompactInertiaActsAsItsMatrix) {
  std::mt19937 rng(17);
  auto make = [&](spatial::CompactInertia& I, Eigen::Matrix<double, 6, 6>& M, Matrix3& I_G,
                  Vector3& c) {
    const double m = 0.3 + random_vector(rng, 1.0).cwiseAbs().sum();
    c = random_vector(rng, 0.7);
    const Matrix3 R = random_rotation(rng).toRotationMatrix();
    I_G = R * (Vector3(0.1, 0.2, 0.25) + random_vector(rng, 0.05).cwiseAbs()).asDiagonal() *
          R.transpose();
    const Matrix3 C = skew(c);
    M << I_G - m * C * C, m * C, -m * C, m * Matrix3::Identity();
    I.m = m;
    I.h = m * c;
    I.I_O = I_G - m * C * C;
    return m;
  };
  spatial::CompactInertia A, B;
  Eigen::Matrix<double, 6, 6> MA, MB;
  Matrix3 IG;
  Vector3 c;
  make(B, MB, IG, c);
  const double m = make(A, MA, IG, c);
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::Matrix<double, 6, 1> V;
    V << random_vector(rng, 2.0), random_vector(rng, 2.0);
    EXPECT_LE((A * V - MA * V).norm(), 1e-13 * (MA * V).norm());
    spatial::CompactInertia S = A;
    S += B;
    EXPECT_LE((S * V - (MA + MB) * V).norm(), 1e-13 * ((MA + MB) * V).norm());
    const Vector3 w = V.head<3>(), vG = Vector3(V.tail<3>()) + w.cross(c);
    const double T = 0.5 * m * vG.squaredNorm() + 0.5 * w.dot(IG * w);
    EXPECT_NEAR(0.5 * V.dot(A * V), T, 1e-12 * T);
  }
}

TEST(MultibodyModel, CrbaEqualsSumOfBodyJacobianProducts) {
  for (unsigned seed = 1; seed <= 12; ++seed) {
    const double armature = seed % 2 ? 0.0 : 0.05;
    const MultibodyModel m = random_forest(seed, 3 + static_cast<int>(seed % 5), armature);
    Vector q, v;
    random_state(m, seed + 100, q, v);
    MultibodyKinematics k;
    m.kinematics(q, k);
    Matrix expected = armature * Matrix::Identity(m.velocity_size(), m.velocity_size());
    for (Index b = 0; b < m.body_count(); ++b) {
      const Matrix J = m.body_jacobian(k, b);
      expected += J.transpose() * body_mass(m, k, b) * J;
    }
    EXPECT_LT((m.mass_matrix(q) - expected).norm(), 1e-12 * expected.norm()) << "seed " << seed;
    // kinetic_energy sums the bodies' twists without forming M: the same ½ vᵀ M v
    const double T = 0.5 * v.dot(expected * v);
    EXPECT_NEAR(m.kinetic_energy(q, v), T, 1e-12 * T) << "seed " << seed;
    // and RNEA gives it beside the bias forces, from its products I_b V_b; the in-place forms
    // write what the returning ones return, into storage of another size
    MultibodyKinematics kv;
    m.kinematics(q, v, kv);
    Vector b(1);
    double T_rnea = -1.0;
    m.bias_forces(kv, v, b, &T_rnea);
    EXPECT_NEAR(T_rnea, T, 1e-12 * T) << "seed " << seed;
    ASSERT_EQ(b.size(), m.velocity_size());
    EXPECT_EQ(b, m.bias_forces(q, v)) << "seed " << seed;
    Matrix M(2, 3);
    m.mass_matrix(k, M);
    EXPECT_EQ(M, m.mass_matrix(q)) << "seed " << seed;
  }
}

// What the model forms once per layout follows each body and joint: a principal inertia and an
// unturned offset (their short paths) beside a rotated inertia and a turned offset, and a
// different armature on each joint. M against Σ J_bᵀ M_b J_b + diag(armature per dof) (the
// in-place M written over storage of the same size that holds NaN), and RNEA's T against ½ vᵀMv.
// Also with the whole tree 1 km from the origin: CRBA and RNEA work with inertias about the world
// origin (I_O ~ m |c|²), so both lose about ε m |c|² in absolute terms there (1e-16 · 1e6: 1e-10,
// against 1e-16 near the origin); M within 1e-8 of its norm and T within 1e-7 relative.
TEST(MultibodyModel, LayoutCachesFollowEachBodyAndJoint) {
  for (const double far : {0.0, 1e3}) {
    MultibodyModel m;
    const Quaternion turn(Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()));
    const Matrix3 R = turn.toRotationMatrix();
    m.add_body({.name = "base",
                .offset = Pose{Vector3(far, 0.0, 1.0), Quaternion::Identity()},
                .mass = 2.0,
                .com = Vector3(0.1, 0.0, 0.0),
                .inertia = Vector3(0.02, 0.03, 0.04).asDiagonal(),
                .joints = {{.type = JointType::free, .armature = 0.0}}});
    m.add_body({.name = "upper",
                .parent = 0,
                .offset = Pose{Vector3(0.2, 0.0, 0.0), turn},
                .mass = 1.0,
                .com = Vector3(0.0, 0.1, 0.0),
                .inertia = R * Vector3(0.01, 0.02, 0.015).asDiagonal() * R.transpose(),
                .joints = {{.type = JointType::hinge, .axis = Vector3::UnitZ(), .armature = 0.1},
                           {.type = JointType::slide, .axis = Vector3::UnitX(), .armature = 0.0}}});
    m.add_body({.name = "lower",
                .parent = 1,
                .offset = Pose{Vector3(0.0, 0.3, 0.0), Quaternion::Identity()},
                .mass = 0.5,
                .com = Vector3(0.0, 0.0, -0.1),
                .inertia = Vector3(0.005, 0.004, 0.003).asDiagonal(),
                .joints = {{.type = JointType::ball, .armature = 0.02}}});
    Vector q, v;
    random_state(m, 5, q, v);
    MultibodyKinematics k;
    m.kinematics(q, v, k);
    Vector armature = Vector::Zero(m.velocity_size());
    for (Index b = 0; b < m.body_count(); ++b)
      for (size_t j = 0; j < m.body(b).joints.size(); ++j) {
        const MultibodyJoint& joint = m.body(b).joints[j];
        armature.segment(m.velocity_offset(b, static_cast<Index>(j)), joint.velocity_size())
            .setConstant(joint.armature);
      }
    Matrix expected = armature.asDiagonal();
    for (Index b = 0; b < m.body_count(); ++b) {
      const Matrix J = m.body_jacobian(k, b);
      expected += J.transpose() * body_mass(m, k, b) * J;
    }
    Matrix M = Matrix::Constant(m.velocity_size(), m.velocity_size(), std::nan(""));
    m.mass_matrix(k, M);
    EXPECT_LT((M - expected).norm(), (far > 0.0 ? 1e-8 : 1e-12) * expected.norm()) << "far " << far;
    const double T = 0.5 * v.dot(expected * v);
    Vector b;
    double T_rnea = -1.0;
    m.bias_forces(k, v, b, &T_rnea);
    ASSERT_EQ(b.size(), m.velocity_size());
    EXPECT_NEAR(T_rnea, T, (far > 0.0 ? 1e-7 : 1e-12) * T) << "far " << far;
  }
}

// The body Jacobian is the derivative of the motion: v_G = d/dt c_b and ω from the rotation, by
// central differences along q ⊕ εv.
TEST(MultibodyModel, BodyJacobianIsTheDerivativeOfTheKinematics) {
  const MultibodyModel m = random_forest(7, 6);
  Vector q, v;
  random_state(m, 70, q, v);
  MultibodyKinematics k, kp, km;
  const double eps = 1e-6;
  m.kinematics(q, k);
  m.kinematics(m.integrate(q, v, eps), kp);
  m.kinematics(m.integrate(q, v, -eps), km);
  for (Index b = 0; b < m.body_count(); ++b) {
    const Vector Vb = m.body_jacobian(k, b) * v;
    const Vector3 vG = (kp.com[b] - km.com[b]) / (2 * eps);
    const Quaternion dR = kp.pose[b].orientation * km.pose[b].orientation.conjugate();
    const Eigen::AngleAxisd aa(dR);
    const Vector3 w = aa.angle() * aa.axis() / (2 * eps);
    EXPECT_LT((Vb.head<3>() - vG).norm(), 1e-7 * (1 + vG.norm())) << "body " << b;
    EXPECT_LT((Vb.tail<3>() - w).norm(), 1e-7 * (1 + w.norm())) << "body " << b;
  }
}

// Inverse dynamics is M a + b, so RNEA(q, v, a) − RNEA(q, v, 0) = M a (CRBA's M, not RNEA's).
TEST(MultibodyModel, InverseDynamicsIsLinearInTheAccelerationWithCrbaMatrix) {
  const MultibodyModel m = random_forest(3, 7, 0.02);
  Vector q, v;
  random_state(m, 30, q, v);
  Vector a = Vector::LinSpaced(m.velocity_size(), -1.0, 2.0);
  const Vector lhs = m.inverse_dynamics(q, v, a) - m.bias_forces(q, v);
  const Vector rhs = m.mass_matrix(q) * a;
  EXPECT_LT((lhs - rhs).norm(), 1e-11 * (1 + rhs.norm()));
}

// Energy: with gravity off, d/dt(½ vᵀMv) = vᵀ(M v̇ + ½ Ṁ v) = vᵀ(½Ṁ v − b) must vanish along the
// free motion (vᵀ(Ṁ − 2C)v = 0, the passivity property whatever C is chosen); Ṁ by central
// differences along q ⊕ εv. With gravity, vᵀ b's gravity part is the rate of potential energy.
TEST(MultibodyModel, CoriolisForcesDoNoWork) {
  for (unsigned seed = 1; seed <= 8; ++seed) {
    MultibodyModel m = random_forest(seed, 5);
    Vector q, v;
    random_state(m, seed + 7, q, v);
    const double eps = 1e-6;
    const Matrix Mdot =
        (m.mass_matrix(m.integrate(q, v, eps)) - m.mass_matrix(m.integrate(q, v, -eps))) /
        (2 * eps);
    const double gravity_rate =
        (m.potential_energy(m.integrate(q, v, eps)) - m.potential_energy(m.integrate(q, v, -eps))) /
        (2 * eps);
    const double vMdotv = v.dot(Mdot * v);
    EXPECT_NEAR(0.5 * vMdotv, v.dot(m.bias_forces(q, v)) - gravity_rate,
                1e-6 * (1 + std::abs(vMdotv)))
        << "seed " << seed;
  }
}

// Ṁ − 2C is skew-symmetric for the Christoffel C = ½ ∂b/∂v (exact for b quadratic in v) on
// trees of hinges and slides, whose v is q̇ (Featherstone §1.1; the property behind passivity).
TEST(MultibodyModel, MdotMinusTwoCIsSkewSymmetricOnHingeSlideTrees) {
  MultibodyModel m;
  m.set_gravity(Vector3::Zero());
  std::mt19937 rng(5);
  for (int i = 0; i < 5; ++i) {
    MultibodyBody b;
    b.name = "l" + std::to_string(i);
    b.parent = i == 0 ? -1 : (i == 3 ? 1 : i - 1);
    b.mass = 1.0 + 0.3 * i;
    b.inertia = Vector3(0.02, 0.03, 0.04 + 0.01 * i).asDiagonal();
    b.com = random_vector(rng, 0.2);
    b.offset = Pose{random_vector(rng, 0.4), random_rotation(rng)};
    b.joints.push_back({.type = i == 2 ? JointType::slide : JointType::hinge,
                        .axis = random_vector(rng, 1).normalized(),
                        .anchor = random_vector(rng, 0.1)});
    if (i == 4) b.joints.push_back({.type = JointType::hinge, .axis = Vector3::UnitX()});
    m.add_body(b);
  }
  Vector q, v;
  random_state(m, 11, q, v);
  const Index n = m.velocity_size();
  const double eps = 1e-6;
  Matrix C(n, n), Mdot = Matrix::Zero(n, n);
  for (Index j = 0; j < n; ++j) {
    Vector vp = v, vm = v;
    vp[j] += 1.0, vm[j] -= 1.0;  // b is quadratic in v: the central difference is exact
    C.col(j) = 0.25 * (m.bias_forces(q, vp) - m.bias_forces(q, vm));
    Vector dq = Vector::Zero(n);
    dq[j] = eps;
    Mdot += v[j] * (m.mass_matrix(q + dq) - m.mass_matrix(q - dq)) / (2 * eps);
  }
  EXPECT_LT((C * v - m.bias_forces(q, v)).norm(), 1e-10);
  const Matrix N = Mdot - 2 * C;
  EXPECT_LT((N + N.transpose()).norm(), 1e-6 * N.norm());
}

// A double pendulum of point masses m1, m2 on massless rods l1, l2 (hinges about y, hanging
// along −z), against its closed-form equations in absolute angles θ (θ1 = φ1, θ2 = φ1 + φ2):
//   M_θ = [[(m1+m2) l1², m2 l1 l2 cos(θ1−θ2)], [·, m2 l2²]],
//   b_θ = [m2 l1 l2 sin(θ1−θ2) θ̇2² + (m1+m2) g l1 sin θ1,  −m2 l1 l2 sin(θ1−θ2) θ̇1² + m2 g l2 sin
//   θ2],
// mapped to the relative joint angles by θ = T φ, T = [[1, 0], [1, 1]]: M_φ = Tᵀ M_θ T, b_φ = Tᵀ
// b_θ.
TEST(MultibodyModel, DoublePendulumMatchesClosedForm) {
  const double m1 = 1.3, m2 = 0.7, l1 = 0.9, l2 = 0.6, g = 9.81;
  MultibodyModel m;
  m.add_body({.name = "upper",
              .mass = m1,
              .com = Vector3(0, 0, -l1),
              .joints = {{.type = JointType::hinge, .axis = Vector3::UnitY()}}});
  m.add_body({.name = "lower",
              .parent = 0,
              .offset = Pose{Vector3(0, 0, -l1), Quaternion::Identity()},
              .mass = m2,
              .com = Vector3(0, 0, -l2),
              .joints = {{.type = JointType::hinge, .axis = Vector3::UnitY()}}});
  const Vector2 phi(0.4, -1.1), phidot(0.8, 2.3);
  Matrix2 T;
  T << 1, 0, 1, 1;
  const Vector2 th = T * phi, thd = T * phidot;
  const double c = std::cos(th[0] - th[1]), s = std::sin(th[0] - th[1]);
  Matrix2 Mth;
  Mth << (m1 + m2) * l1 * l1, m2 * l1 * l2 * c, m2 * l1 * l2 * c, m2 * l2 * l2;
  const Vector2 bth(m2 * l1 * l2 * s * thd[1] * thd[1] + (m1 + m2) * g * l1 * std::sin(th[0]),
                    -m2 * l1 * l2 * s * thd[0] * thd[0] + m2 * g * l2 * std::sin(th[1]));
  EXPECT_LT((m.mass_matrix(phi) - T.transpose() * Mth * T).norm(), 1e-12);
  EXPECT_LT((m.bias_forces(phi, phidot) - T.transpose() * bth).norm(), 1e-12);
  const double V = -(m1 + m2) * g * l1 * std::cos(th[0]) - m2 * g * l2 * std::cos(th[1]);
  EXPECT_NEAR(m.potential_energy(phi), V, 1e-12);
}

// M and v at a random state of random_forest(forest_seed, bodies, armature), and M's tree
// factorization.
struct FactorizedForest {
  Matrix M;
  Vector v;
  TreeFactorization f;
  FactorizedForest(unsigned forest_seed, int bodies, double armature, unsigned state_seed) {
    const MultibodyModel m = random_forest(forest_seed, bodies, armature);
    Vector q;
    random_state(m, state_seed, q, v);
    M = m.mass_matrix(q);
    factored = f.factor(M, m.dof_parent());
  }
  bool factored = false;
};

// The tree factorization solves M x = b as a dense LDLᵀ does, on forests with several chains per
// body, and refuses a massless leaf without armature by naming its dof.
TEST(TreeFactorization, SolvesLikeADenseFactorizationAndRefusesASingularLeaf) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const FactorizedForest t(seed * 13, 8, 0.01, seed);
    ASSERT_TRUE(t.factored);
    const Matrix& M = t.M;
    const Vector& v = t.v;
    const TreeFactorization& f = t.f;
    Vector x = v;
    f.solve_in_place(x);
    const Vector expected = M.ldlt().solve(v);
    EXPECT_LT((x - expected).norm(), 1e-10 * (1 + expected.norm())) << "seed " << seed;
  }
  MultibodyModel m;
  m.add_body({.name = "arm",
              .mass = 1.0,
              .com = Vector3(0.5, 0, 0),
              .joints = {{.type = JointType::hinge, .axis = Vector3::UnitZ()}}});
  m.add_body({.name = "tip", .parent = 0, .joints = {{.type = JointType::hinge}}});
  TreeFactorization f;
  EXPECT_FALSE(f.factor(m.mass_matrix(m.neutral_positions()), m.dof_parent()));
  EXPECT_EQ(f.pivot(), 1);
}

// The half solve Y = L⁻ᵀ H gives the condensed matrix of the step's contacts as Yᵀ D⁻¹ Y
// (model/velocity_level.cpp's route along a tree): equal to Hᵀ M⁻¹ H from a dense LDLᵀ, for
// columns of H that touch one dof, a few, or all of them.
TEST(TreeFactorization, HalfSolveGivesTheCondensedMatrix) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const FactorizedForest t(seed * 7, 9, 0.02, seed);
    ASSERT_TRUE(t.factored);
    const Matrix& M = t.M;
    const Index n = M.rows();
    Matrix H = Matrix::Zero(n, 3);
    H(n - 1, 0) = 1.0;  // a leaf's dof
    H(n / 2, 1) = -0.5, H(n - 2, 1) = 2.0;
    H.col(2) = Vector::LinSpaced(n, -1.0, 1.0);
    Matrix Y = H;
    for (Index c = 0; c < Y.cols(); ++c) t.f.solve_lower_transpose_in_place(Y.col(c));
    const Matrix W = Y.transpose() * t.f.pivots().cwiseInverse().asDiagonal() * Y;
    const Matrix expected = H.transpose() * M.ldlt().solve(H);
    EXPECT_LT((W - expected).norm(), 1e-10 * (1 + expected.norm())) << "seed " << seed;
  }
}

// The step's MassSolver given M's tree (LagrangianSystem::mass_tree) solves vectors and sparse
// right-hand sides as a dense LDLᵀ does, and a matrix that is not positive definite is refused
// with the velocity whose pivot failed.
TEST(MassSolver, AlongTheTreeSolvesLikeADenseFactorization) {
  const MultibodyModel m = random_forest(29, 7, 0.02);
  Vector q, v;
  random_state(m, 3, q, v);
  const Matrix M = m.mass_matrix(q);
  MassSolver mass;
  mass.factorize(M, &m.dof_parent());
  const Vector expected = M.ldlt().solve(v);
  EXPECT_LT((mass.solve(v) - expected).norm(), 1e-10 * (1 + expected.norm()));
  Matrix B = Matrix::Zero(M.rows(), 2);
  B(0, 0) = 1.0, B(M.rows() - 1, 1) = -2.0;
  const Matrix X = Matrix(mass.solve(Eigen::SparseMatrix<double>(B.sparseView())));
  EXPECT_LT((X - M.ldlt().solve(B)).norm(), 1e-10 * (1 + X.norm()));
  Matrix bad = M;
  bad(M.rows() - 1, M.rows() - 1) = -1.0;
  try {
    mass.factorize(bad, &m.dof_parent());
    FAIL() << "a negative pivot was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(fmt::format("velocity {}", M.rows() - 1)),
              std::string::npos)
        << e.what();
  }
}

// Dofs are numbered tree by tree with λ(i) < i, even when the bodies of two trees interleave.
TEST(MultibodyModel, DofsAreNumberedTreeByTree) {
  MultibodyModel m;
  m.add_body({.name = "a",
              .mass = 1,
              .inertia = Matrix3::Identity(),
              .joints = {{.type = JointType::hinge}}});
  m.add_body({.name = "b",
              .mass = 1,
              .inertia = Matrix3::Identity(),
              .joints = {{.type = JointType::free}}});
  m.add_body({.name = "c",
              .parent = 0,
              .mass = 1,
              .inertia = Matrix3::Identity(),
              .joints = {{.type = JointType::ball}}});
  ASSERT_EQ(m.velocity_size(), 10);
  ASSERT_EQ(m.position_size(), 12);
  EXPECT_EQ(m.tree_dofs()[0], (std::pair<Index, Index>{0, 4}));
  EXPECT_EQ(m.tree_dofs()[1], (std::pair<Index, Index>{4, 10}));
  EXPECT_EQ(m.velocity_offset(2, 0), 1);  // c follows a, its parent
  EXPECT_EQ(m.dof_parent()[1], 0);
  EXPECT_EQ(m.dof_parent()[4], -1);
  const auto names = m.position_names();
  EXPECT_EQ(names[0], "a.joint0.q");
  EXPECT_EQ(names[1], "c.joint0.qw");
  EXPECT_EQ(names[5], "b.x");
  EXPECT_EQ(m.velocity_names()[9], "b.wz");
  const Matrix M = m.mass_matrix(m.neutral_positions());
  EXPECT_EQ(M.block(0, 4, 4, 6).norm(), 0.0);  // block-diagonal across trees
}

// integrate() is the exponential map: its derivative at h = 0 is position_rate, and a long run
// keeps the quaternions of ball and free joints at unit norm.
TEST(MultibodyModel, IntegrationIsTheExponentialMap) {
  const MultibodyModel m = random_forest(21, 6);
  Vector q, v;
  random_state(m, 4, q, v);
  const double h = 1e-6;
  const Vector fd = (m.integrate(q, v, h) - m.integrate(q, v, -h)) / (2 * h);
  EXPECT_LT((fd - m.position_rate(q, v)).norm(), 1e-8 * (1 + fd.norm()));
  for (int k = 0; k < 5000; ++k) q = m.integrate(q, v, 1e-3);
  Vector normalized = q;
  m.normalize(normalized);
  EXPECT_LT((normalized - q).norm(), 1e-12);
}

// Bad input is named: a free joint below a body, a reversed range, a negative armature, a zero
// axis, a repeated name.
TEST(MultibodyModel, RefusesBadBodiesWithTheFieldAndValue) {
  MultibodyModel m;
  m.add_body({.name = "base", .mass = 1, .inertia = Matrix3::Identity()});
  auto message = [&](MultibodyBody b) {
    try {
      m.add_body(std::move(b));
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_NE(message({.name = "x", .parent = 0, .joints = {{.type = JointType::free}}})
                .find("free joint must be the only joint of a body of the world"),
            std::string::npos);
  EXPECT_NE(message({.name = "x", .joints = {{.limited = true, .lower = 1, .upper = -1}}})
                .find("lower must not exceed upper, got [1, -1]"),
            std::string::npos);
  EXPECT_NE(message({.name = "x", .joints = {{.armature = -0.1}}})
                .find("armature: must be finite and ≥ 0, got -0.1"),
            std::string::npos);
  EXPECT_NE(message({.name = "x", .joints = {{.axis = Vector3::Zero()}}})
                .find("axis: must be a non-zero"),
            std::string::npos);
  EXPECT_NE(message({.name = "base"}).find("already taken"), std::string::npos);
}

// Springs and gravity are conservative: bias(q, 0) − τ_passive(q, 0) = ∂V/∂q in the tangent space
// (central differences along q ⊕ ε e_j), for hinge, slide and ball springs (V = ½ K θ² for a ball,
// θ its rotation angle); dampers give −D v.
TEST(MultibodyModel, SpringForcesAreTheGradientOfThePotential) {
  MultibodyModel m = random_forest(17, 6);
  MultibodyModel sprung;
  sprung.set_gravity(m.gravity());
  for (MultibodyBody b : m.bodies()) {
    for (MultibodyJoint& j : b.joints) {
      j.stiffness = 2.5, j.damping = 0.3, j.reference = 0.2;
      if (j.type == JointType::free) j.stiffness = 0.0;
    }
    sprung.add_body(b);
  }
  Vector q, v;
  random_state(sprung, 8, q, v);
  const Vector zero = Vector::Zero(sprung.velocity_size());
  const Vector force = sprung.bias_forces(q, zero) - sprung.passive_forces(q, zero);
  const double eps = 1e-6;
  for (Index j = 0; j < sprung.velocity_size(); ++j) {
    Vector e = Vector::Zero(sprung.velocity_size());
    e[j] = 1.0;
    const double dV = (sprung.potential_energy(sprung.integrate(q, e, eps)) -
                       sprung.potential_energy(sprung.integrate(q, e, -eps))) /
                      (2 * eps);
    EXPECT_NEAR(force[j], dV, 1e-6 * (1 + std::abs(dV))) << sprung.velocity_names()[j];
  }
  EXPECT_LT((sprung.passive_forces(q, v) - sprung.passive_forces(q, zero) + 0.3 * v).norm(), 1e-12);
}

// J̇_b v from bias_accelerations equals the derivative of J_b(q(t)) v along q ⊕ εv (v fixed).
TEST(MultibodyModel, BiasAccelerationsAreTheJacobianRateTimesV) {
  const MultibodyModel m = random_forest(29, 7);
  Vector q, v;
  random_state(m, 31, q, v);
  MultibodyKinematics k, kp, km;
  m.kinematics(q, v, k);
  const double eps = 1e-6;
  m.kinematics(m.integrate(q, v, eps), kp);
  m.kinematics(m.integrate(q, v, -eps), km);
  const auto a = m.bias_accelerations(k, v);
  for (Index b = 0; b < m.body_count(); ++b) {
    const Vector fd = (m.body_jacobian(kp, b) - m.body_jacobian(km, b)) * v / (2 * eps);
    EXPECT_LT((Vector(a[b]) - fd).norm(), 1e-6 * (1 + fd.norm())) << "body " << b;
  }
}

// τ(q, v, a) = RNEA − Σ J_bᵀ w_b: inverse_dynamics_derivatives against central differences of
// inverse_dynamics and body_jacobian along q ⊕ ±δ e_j and v ± δ e_j (δ = 1e-6: their error about
// 1e-10 |τ|), on random forests with free, hinge, slide and ball joints and random world loads.
TEST(MultibodyModel, InverseDynamicsDerivativesMatchCentralDifferences) {
  for (unsigned seed = 1; seed <= 10; ++seed) {
    const MultibodyModel m = random_forest(seed + 40, 3 + static_cast<int>(seed % 6), 0.01);
    Vector q, v;
    random_state(m, seed + 400, q, v);
    const Index n = m.velocity_size();
    std::mt19937 rng(seed);
    std::vector<Eigen::Matrix<double, 6, 1>> w(static_cast<size_t>(m.body_count()));
    for (auto& wb : w) wb << random_vector(rng, 3.0), random_vector(rng, 1.0);
    const Vector a = Vector::LinSpaced(n, -2.0, 1.5);
    auto tau = [&](const Vector& qs, const Vector& vs) {
      MultibodyKinematics k;
      m.kinematics(qs, k);
      Vector t = m.inverse_dynamics(qs, vs, a);
      for (Index b = 0; b < m.body_count(); ++b) t -= m.body_jacobian(k, b).transpose() * w[b];
      return t;
    };
    MultibodyKinematics k;
    m.kinematics(q, v, k);
    Matrix dq, dv;
    m.inverse_dynamics_derivatives(k, v, a, w, dq, dv);
    const double d = 1e-6;
    for (Index j = 0; j < n; ++j) {
      const Vector e = Vector::Unit(n, j) * d;
      const Vector fq =
          (tau(m.integrate(q, e, 1.0), v) - tau(m.integrate(q, -e, 1.0), v)) / (2 * d);
      const Vector fv = (tau(q, v + e) - tau(q, v - e)) / (2 * d);
      EXPECT_LT((dq.col(j) - fq).norm(), 1e-7 * (1 + fq.norm()))
          << "seed " << seed << ", ∂/∂" << m.velocity_names()[j];
      EXPECT_LT((dv.col(j) - fv).norm(), 1e-7 * (1 + fv.norm()))
          << "seed " << seed << ", ∂/∂v of " << m.velocity_names()[j];
    }
    // no loads: the same as loads of zero
    Matrix dq0, dv0, dqz, dvz;
    m.inverse_dynamics_derivatives(k, v, a, {}, dq0, dv0);
    m.inverse_dynamics_derivatives(
        k, v, a,
        std::vector<Eigen::Matrix<double, 6, 1>>(w.size(), Eigen::Matrix<double, 6, 1>::Zero()),
        dqz, dvz);
    EXPECT_LT((dq0 - dqz).norm() + (dv0 - dvz).norm(), 1e-12 * (1 + dq0.norm()));
  }
}

// ∂τ_passive/∂q against central differences of passive_forces, ball springs turned up to 2.9 rad
// (J_r⁻¹ away from its small-angle series) and near the stored pose (within it).
TEST(MultibodyModel, PassiveForceDerivativeMatchesCentralDifferences) {
  const MultibodyModel m = random_forest(23, 7);
  MultibodyModel sprung;
  for (MultibodyBody b : m.bodies()) {
    for (MultibodyJoint& j : b.joints)
      if (j.type != JointType::free) j.stiffness = 1.5, j.reference = -0.3;
    sprung.add_body(b);
  }
  const Index n = sprung.velocity_size();
  for (const double scale : {4.0, 1e-5}) {
    Vector dq0(n);
    for (Index i = 0; i < n; ++i) dq0[i] = scale * std::sin(1.0 + 2.3 * static_cast<double>(i));
    const Vector q = sprung.integrate(sprung.neutral_positions(), dq0, 1.0);
    const Vector zero = Vector::Zero(n);
    const Matrix D = sprung.passive_force_position_derivative(q);
    const double d = 1e-6;
    for (Index j = 0; j < n; ++j) {
      const Vector e = Vector::Unit(n, j) * d;
      const Vector fd = (sprung.passive_forces(sprung.integrate(q, e, 1.0), zero) -
                         sprung.passive_forces(sprung.integrate(q, -e, 1.0), zero)) /
                        (2 * d);
      EXPECT_LT((D.col(j) - fd).norm(), 1e-7 * (1 + fd.norm()))
          << "scale " << scale << ", ∂/∂" << sprung.velocity_names()[j];
    }
  }
}
