// Rigid impact laws of Brogliato 2014 §3 on its examples (cases R1, R2, R10, R11 of
// docs/references.md) and random systems.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "moreau/impact/impact_laws.hpp"

namespace moreau {
namespace {

// Chain of three unit masses on a line (Brogliato 2014 §2.3.1): q = (x1, x2, x3), M = I,
// h_1 = x2 − x1 − 2R, h_2 = x3 − x2 − 2R, ∇h_1 = e2 − e1, ∇h_2 = e3 − e2 (both touching).
ContactState chain(const Vector& v, double e) {
  ContactState s;
  s.dimension = 2;
  s.q = Vector::Zero(3);
  s.v = v;
  s.M = Matrix::Identity(3, 3);
  s.F = Vector::Zero(3);
  for (int i = 0; i < 2; ++i) {
    ContactConstraint c;
    c.name = "contact" + std::to_string(i);
    c.restitution = e;
    c.normal = Vector::Zero(3);
    c.normal[i] = -1.0;
    c.normal[i + 1] = 1.0;
    c.tangent = Matrix::Zero(3, 1);
    c.tangent_bias = Vector::Zero(1);
    s.constraints.push_back(c);
  }
  return s;
}

// A particle of mass m on a rough line (Brogliato 2014 §3.2.4–3.2.5, cases R10/R11): q = (x, y),
// h = y, H_T = (1, 0).
ContactState particle(double m, double vx, double vy, double mu, double e) {
  ContactState s;
  s.dimension = 2;
  s.q = Vector::Zero(2);
  s.v = Vector2(vx, vy);
  s.M = m * Matrix::Identity(2, 2);
  s.F = Vector::Zero(2);
  ContactConstraint c;
  c.name = "ground";
  c.mu = mu;
  c.restitution = e;
  c.normal = Vector2(0, 1);
  c.tangent = Matrix::Zero(2, 1);
  c.tangent(0, 0) = 1.0;
  c.tangent_bias = Vector::Zero(1);
  s.constraints.push_back(c);
  return s;
}

Vector vec(std::initializer_list<double> x) {
  Vector v(static_cast<Index>(x.size()));
  Index i = 0;
  for (double a : x) v[i++] = a;
  return v;
}

// R1: Moreau's law on the 3-ball chain, q̇⁻ = (1, 0, 0).
// e = 1: q̇⁺ = (−1/3, 2/3, 2/3), p = (4/3, 2/3), T conserved; e = 0: q̇⁺ = (1/3, 1/3, 1/3), p = (2/3,
// 1/3).
TEST(RigidLaws, R1ThreeBallChainMoreau) {
  ImpactResult r = moreau_impact(chain(vec({1, 0, 0}), 1.0));
  ASSERT_EQ(r.status, ImpactStatus::resolved);
  EXPECT_LT((r.v_post - vec({-1.0 / 3, 2.0 / 3, 2.0 / 3})).norm(), 1e-12);
  EXPECT_LT((r.normal_impulse - vec({4.0 / 3, 2.0 / 3})).norm(), 1e-12);
  EXPECT_NEAR(r.kinetic_energy_after, r.kinetic_energy_before, 1e-12);
  r = moreau_impact(chain(vec({1, 0, 0}), 0.0));
  EXPECT_LT((r.v_post - vec({1.0 / 3, 1.0 / 3, 1.0 / 3})).norm(), 1e-12);
  EXPECT_LT((r.normal_impulse - vec({2.0 / 3, 1.0 / 3})).norm(), 1e-12);
  // Poisson with e = 0 is the plastic impact too.
  const ImpactResult p = poisson_impact(chain(vec({1, 0, 0}), 0.0));
  EXPECT_LT((p.v_post - vec({1.0 / 3, 1.0 / 3, 1.0 / 3})).norm(), 1e-12);
}

// R2: conservative restitution matrices E_nn = [[e1, 0], [e21, 0]] of the chain lie on the ellipse
// e1² + e21² + e1·e21 = 1; e1 = 0.45359 gives q̇⁺ = (−0.2, 0.25359, 0.94641).
// Derivation: q̇_norm⁺ = √(1/2)(e1, e21), total momentum 1 conserved ⇒ 3q̇1 + 2e1 + e21 = 1.
TEST(RigidLaws, R2ConservativeRestitutionMatrix) {
  const double e1 = 0.45359;
  const double e21 = 0.5 * (-e1 + std::sqrt(4.0 - 3.0 * e1 * e1));
  Matrix Enn(2, 2);
  Enn << e1, 0.0, e21, 0.0;
  const ContactState s = chain(vec({1, 0, 0}), 0.0);
  const ImpactResult r = restitution_matrix_impact(s, frictionless_restitution_matrix(Enn, 3));
  ASSERT_EQ(r.status, ImpactStatus::resolved) << r.message;
  EXPECT_LT((r.v_post - vec({-0.2, 0.25359, 0.94641})).norm(), 2e-5);
  EXPECT_NEAR(r.kinetic_energy_after, r.kinetic_energy_before, 1e-12);
  EXPECT_LT(r.residual, 1e-12);
  // Impulse recovery: M Δq̇ = W p.
  EXPECT_NEAR(r.normal_impulse[0], -(r.v_post[0] - 1.0), 1e-12);
  EXPECT_NEAR(r.normal_impulse[1], r.v_post[2], 1e-12);
  // E = I reproduces Moreau's e = 1 outcome (R1).
  const ImpactResult k = restitution_matrix_impact(
      chain(vec({1, 0, 0}), 1.0), frictionless_restitution_matrix(Matrix::Identity(2, 2), 3));
  EXPECT_LT((k.v_post - vec({-1.0 / 3, 2.0 / 3, 2.0 / 3})).norm(), 1e-12);
}

// A tangential restitution on the chain changes the total momentum: no impulse W p can do that,
// so the range check (56) fails.
TEST(RigidLaws, RangeCheckFailsWithoutFriction) {
  Matrix E = frictionless_restitution_matrix(0.5 * Matrix::Identity(2, 2), 3);
  E(2, 2) = -0.5;
  const ImpactResult r = restitution_matrix_impact(chain(vec({1, 0, 0}), 0.0), E);
  EXPECT_EQ(r.status, ImpactStatus::inadmissible);
  EXPECT_GT(r.residual, 1e-3);
  EXPECT_NE(r.message.find("range"), std::string::npos);
}

// Brogliato 2014 §3.1.1 reads Moreau's support set from the signs of q̇_norm⁻; that fails when
// N_ij < 0 (docs/math/impact.md): G = [[1, −½], [−½, 1]], q̇_norm⁻ = (−1, 0.1), e = 0. The sign
// heuristic
// (Newton on the approaching contact only) leaves contact 2 penetrating (q̇_norm,2⁺ = 0.1 − ½ < 0);
// the LCP gives p̄ = (19/15, 8/15) (G p̄ + q̇_norm⁻ = 0 in both rows).
TEST(RigidLaws, SignHeuristicFailsLcpSucceeds) {
  const double s2 = std::sqrt(2.0);  // ρ_i = √2 for unit masses, u_n = ρ q̇_norm
  const ContactState s = chain(vec({s2, 0.0, 0.1 * s2}), 0.0);
  const ImpactResult n = newton_impact(s);
  EXPECT_EQ(n.status, ImpactStatus::inadmissible);
  const ImpactResult m = moreau_impact(s);
  ASSERT_EQ(m.status, ImpactStatus::resolved);
  EXPECT_NEAR(m.normal_impulse[0] * s2, 19.0 / 15, 1e-12);
  EXPECT_NEAR(m.normal_impulse[1] * s2, 8.0 / 15, 1e-12);
  EXPECT_LT(m.kinetic_energy_after, m.kinetic_energy_before);
}

// Newton, Poisson and Moreau coincide on a single contact: u_n⁺ = −e u_n⁻.
TEST(RigidLaws, SingleContactLawsAgree) {
  const ContactState s = particle(1.3, 0.7, -2.0, 0.0, 0.6);
  for (const ImpactResult& r : {newton_impact(s), poisson_impact(s), moreau_impact(s)}) {
    ASSERT_EQ(r.status, ImpactStatus::resolved) << r.law;
    EXPECT_NEAR(r.v_post[1], 1.2, 1e-12) << r.law;
    EXPECT_NEAR(r.v_post[0], 0.7, 1e-12) << r.law;
    EXPECT_NEAR(r.normal_impulse[0], 1.3 * 3.2, 1e-12) << r.law;
  }
}

// Property: under Moreau's law with one e ∈ [0, 1] the kinetic energy is never gained, the outcome
// is admissible (u_n⁺ ≥ 0, p ≥ 0) and complementary; random SPD M and random normals, fixed seed.
TEST(RigidLaws, MoreauNeverGainsEnergy) {
  std::mt19937 gen(2024);
  std::normal_distribution<double> N(0.0, 1.0);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  for (int trial = 0; trial < 200; ++trial) {
    const Index n = 3 + trial % 4, m = 1 + trial % static_cast<int>(n);
    Matrix A(n, n);
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < n; ++j) A(i, j) = N(gen);
    ContactState s;
    s.dimension = 2;
    s.q = Vector::Zero(n);
    s.F = Vector::Zero(n);
    s.M = A * A.transpose() + 0.1 * Matrix::Identity(n, n);
    s.v = Vector(n);
    for (Index i = 0; i < n; ++i) s.v[i] = N(gen);
    const double e = trial % 10 == 0 ? (trial % 20 == 0 ? 0.0 : 1.0) : U(gen);
    for (Index k = 0; k < m; ++k) {
      ContactConstraint c;
      c.name = "c";
      c.restitution = e;
      c.normal = Vector(n);
      for (Index i = 0; i < n; ++i) c.normal[i] = N(gen);
      c.tangent = Matrix::Zero(n, 1);
      c.tangent_bias = Vector::Zero(1);
      s.constraints.push_back(c);
    }
    const ImpactResult r = moreau_impact(s);
    if (r.status == ImpactStatus::no_impact) continue;
    ASSERT_EQ(r.status, ImpactStatus::resolved) << r.message;
    EXPECT_LE(r.kinetic_energy_after, r.kinetic_energy_before * (1 + 1e-12) + 1e-12) << trial;
    // Admissible for Moreau's law: w = u_n⁺ + e u_n⁻ ≥ 0 (u_n⁺ < 0 is allowed on a contact that was
    // separating, u_n⁻ > 0, when e > 0: q̇⁺ = −e q̇⁻ + (1 + e) proj_T(q̇⁻)).
    const double scale = r.normal_velocity_before.cwiseAbs().maxCoeff();
    EXPECT_GE((r.normal_velocity_after + e * r.normal_velocity_before).minCoeff(), -1e-9 * scale);
    EXPECT_GE(r.normal_impulse.minCoeff(), 0.0);
    // Complementarity: p_i > 0 ⇒ u_n,i⁺ = −e u_n,i⁻.
    for (Index k = 0; k < m; ++k) {
      if (r.normal_impulse[k] > 1e-9) {
        EXPECT_NEAR(r.normal_velocity_after[k], -e * r.normal_velocity_before[k],
                    1e-8 * (1 + scale));
      }
    }
  }
}

// R11 [fix]: the single-contact closed form u_t⁺ for (u_t⁻, u_n⁻, μ, e_n, e_t) (unit mass particle,
// P = μ(1+e_n)|u_n⁻|): (1, −2, .3, .5, 0) → 0.1; (.2, −2, .3, .5, 0) → 0 (stick);
// (.2, −2, .3, .5, .4) → −0.08; (−3, −1, .5, 0, .2) → −2.5. The mode enumeration agrees.
TEST(RigidLaws, R11SingleContactClosedForm) {
  struct Case {
    double ut, un, mu, en, et, expected;
  };
  for (const Case& c : {Case{1, -2, .3, .5, 0, 0.1}, Case{.2, -2, .3, .5, 0, 0.0},
                        Case{.2, -2, .3, .5, .4, -0.08}, Case{-3, -1, .5, 0, .2, -2.5}}) {
    EXPECT_NEAR(single_contact_frictional_closed_form(vec({c.ut}), c.un, c.mu, c.en, c.et)[0],
                c.expected, 1e-12);
    FrictionalImpactSettings st;
    st.e_t = vec({c.et});
    const ImpactResult r = frictional_impact(particle(1.0, c.ut, c.un, c.mu, c.en), st);
    ASSERT_EQ(r.status, ImpactStatus::resolved) << r.message;
    EXPECT_EQ(r.solutions, 1);
    EXPECT_NEAR(r.v_post[0], c.expected, 1e-12);
    EXPECT_NEAR(r.v_post[1], -c.en * c.un, 1e-12);
    EXPECT_LT(r.residual, 1e-10);
  }
}

// R10 (85): T_L = ½m(1+e_n)[((e_n−1) + μ²ξ²(1+e_n))ẏ⁻ + 2μξẋ⁻]ẏ⁻ with m = 1.3, e_n = 0.4,
// μ = 0.2, ξ = 1, ẋ⁻ = 1, ẏ⁻ = −2: ½·1.3·1.4·[(−0.544)(−2) + 0.4](−2) = −2.70816.
TEST(RigidLaws, R10ParticleEnergyLoss) {
  const ImpactResult r = frictional_impact(particle(1.3, 1.0, -2.0, 0.2, 0.4));
  ASSERT_EQ(r.status, ImpactStatus::resolved);
  EXPECT_NEAR(r.kinetic_energy_after - r.kinetic_energy_before, -2.70816, 1e-12);
}

// 3D single contact (a particle: W_loc = I/m): the complementarity solve agrees with the closed
// form applied to the tangential 2-vector.
TEST(RigidLaws, FrictionalImpact3DMatchesClosedForm) {
  ContactState s;
  s.dimension = 3;
  s.q = Vector::Zero(3);
  s.F = Vector::Zero(3);
  s.M = 2.0 * Matrix::Identity(3, 3);
  s.v = vec({0.6, -0.3, -1.5});
  ContactConstraint c;
  c.name = "ground";
  c.mu = 0.3;
  c.restitution = 0.5;
  c.normal = vec({0, 0, 1});
  c.tangent = Matrix::Zero(3, 2);
  c.tangent(0, 0) = 1.0;
  c.tangent(1, 1) = 1.0;
  c.tangent_bias = Vector::Zero(2);
  s.constraints.push_back(c);
  FrictionalImpactSettings st;
  st.e_t = vec({0.2});
  st.tolerance = 1e-12;
  const ImpactResult r = frictional_impact(s, st);
  ASSERT_EQ(r.status, ImpactStatus::resolved) << r.message;
  const Vector ut = single_contact_frictional_closed_form(vec({0.6, -0.3}), -1.5, 0.3, 0.5, 0.2);
  EXPECT_LT((r.v_post.head(2) - ut).norm(), 1e-8);
  EXPECT_NEAR(r.v_post[2], 0.75, 1e-8);
}

TEST(RigidLaws, NoImpactAndBadInput) {
  EXPECT_EQ(moreau_impact(chain(vec({0, 0, 1}), 0.5)).status, ImpactStatus::no_impact);
  EXPECT_EQ(newton_impact(particle(1, 0, 1, 0, 0)).status, ImpactStatus::no_impact);
  EXPECT_THROW(moreau_impact(chain(vec({1, 0, 0}), 1.5)), std::invalid_argument);
  ContactState s = chain(vec({1, 0, 0}), 0.5);
  s.constraints[0].kind = ConstraintKind::bilateral;
  EXPECT_THROW(moreau_impact(s), std::invalid_argument);
  EXPECT_THROW(restitution_matrix_impact(chain(vec({1, 0, 0}), 0.5), Matrix::Identity(2, 2)),
               std::invalid_argument);
  FrictionalImpactSettings st;
  st.e_t = vec({1.5});
  EXPECT_THROW(frictional_impact(particle(1, 1, -1, 0.2, 0.5), st), std::invalid_argument);
}

}  // namespace
}  // namespace moreau
