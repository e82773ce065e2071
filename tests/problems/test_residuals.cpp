// Residuals of the problem families: analytic cases and cone-projection properties.
#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "moreau/problems/coulomb_cone.hpp"
#include "moreau/problems/friction_contact.hpp"
#include "moreau/problems/lcp.hpp"
#include "moreau/problems/mlcp.hpp"

using namespace moreau;

TEST(LcpResidual, ZeroAtKnownSolutionPositiveElsewhere) {
  // M = I, q = (-1, 2): the solution is z = max(0, -q) = (1, 0), w = (0, 2).
  Lcp lcp{Matrix::Identity(2, 2), Vector2(-1.0, 2.0)};
  EXPECT_DOUBLE_EQ(lcp_residual(lcp, Vector2(1.0, 0.0)), 0.0);
  // z = 0: w = q, min(z, w) = (-1, 0) → ‖·‖ = 1; scale = max(‖q‖=√5, 0, √5) → 1/√5.
  EXPECT_NEAR(lcp_residual(lcp, Vector2(0.0, 0.0)), 1.0 / std::sqrt(5.0), 1e-15);
}

TEST(LcpValidate, RejectsWrongSizesAndNaN) {
  Lcp lcp{Matrix::Identity(2, 2), Vector3(1, 2, 3)};
  EXPECT_THROW(lcp.validate(), std::invalid_argument);
  Lcp nan{Matrix::Identity(2, 2), Vector2(std::nan(""), 1.0)};
  EXPECT_THROW(nan.validate(), std::invalid_argument);
}

TEST(MlcpResidual, ZeroAtSolution) {
  // u + v - 1 = 0;  w = u + v + ... pick B = 1, D = 0, b = -0.5: v = 0.5, u = 0.5, w = 0.
  Mlcp p{Matrix::Ones(1, 1), Matrix::Ones(1, 1),        Matrix::Ones(1, 1),
         Matrix::Zero(1, 1), Vector::Constant(1, -1.0), Vector::Constant(1, -0.5)};
  EXPECT_NEAR(mlcp_residual(p, Vector::Constant(1, 0.5), Vector::Constant(1, 0.5)), 0.0, 1e-15);
  EXPECT_GT(mlcp_residual(p, Vector::Constant(1, 0.0), Vector::Constant(1, 0.0)), 0.1);
}

TEST(CoulombCone, ProjectionIsIdempotentAndOrthogonal) {
  std::mt19937 rng(42);
  std::normal_distribution<double> n01;
  std::uniform_real_distribution<double> mu_dist(0.0, 2.0);
  for (int k = 0; k < 1000; ++k) {
    const Vector3 x(n01(rng), n01(rng), n01(rng));
    const double mu = k % 10 == 0 ? 0.0 : mu_dist(rng);  // every tenth frictionless
    const Vector3 p = project_on_coulomb_cone(x, mu);
    EXPECT_GE(p[0], 0.0);
    EXPECT_LE(std::hypot(p[1], p[2]), mu * p[0] + 1e-12);
    EXPECT_NEAR((project_on_coulomb_cone(p, mu) - p).norm(), 0.0, 1e-12);
    // Moreau decomposition: x − P(x) is orthogonal to P(x) and lies in the polar cone, so
    // for any y in the cone ⟨x − P(x), y − P(x)⟩ ≤ 0.
    EXPECT_NEAR((x - p).dot(p), 0.0, 1e-10);
    const Vector3 y(1.0, 0.3 * mu, -0.4 * mu);
    EXPECT_LE((x - p).dot(y - p), 1e-10);
  }
}

// μ = 0 (a joint limit's row, a frictionless contact): the cone is the ray r_T = 0, r_n ≥ 0. A
// point with x_n < 0 projects to 0. Before the fix it was returned as it was, since ‖x_T‖ = 0 ≤
// μ x_n = −0 holds in IEEE arithmetic: the natural-map error of an exact solution (r = 0 against
// u_n > 0) read u_n, and the Franka Panda's fingers, resting on their lower limits with u_n ≈
// 5e-12, ended 854 of 2000 steps above the solver tolerance.
TEST(CoulombCone, FrictionlessConeIsTheNonNegativeNormalRay) {
  EXPECT_EQ(project_on_coulomb_cone(Vector3(-4.3e-12, 0.0, 0.0), 0.0), Vector3::Zero());
  EXPECT_EQ(project_on_coulomb_cone(Vector3(-1.0, 0.0, 0.0), 0.0), Vector3::Zero());
  EXPECT_EQ(project_on_coulomb_cone(Vector2(-1.0, 0.0), 0.0), Vector2::Zero());
  EXPECT_EQ(project_on_coulomb_cone(Vector3(2.0, 0.5, -1.0), 0.0), Vector3(2.0, 0.0, 0.0));
  EXPECT_EQ(project_on_coulomb_cone(Vector2(2.0, 0.5), 0.0), Vector2(2.0, 0.0));
  // r = 0 against u_n > 0 is an exact solution of the frictionless contact (W = I, q = (5e-12, 0,
  // 0))
  FrictionContactProblem p;
  p.W = SparseMatrix(3, 3);
  p.W.setIdentity();
  p.q = Vector3(5e-12, 0.0, 0.0);
  p.mu = Vector::Constant(1, 0.0);
  EXPECT_EQ(friction_contact_residual(p, Vector3::Zero()), 0.0);
  EXPECT_GT(friction_contact_residual(p, Vector3(1.0, 0.0, 0.0)), 0.1);
}

TEST(FrictionContactResidual, SticksAndSlidesAnalytic) {
  // One contact, W = I, μ = 0.5. q = (-1, 0.2, 0): sticking solution r = (1, -0.2, 0), u = 0.
  FrictionContactProblem p;
  p.W = SparseMatrix(3, 3);
  p.W.setIdentity();
  p.q = Vector3(-1.0, 0.2, 0.0);
  p.mu = Vector::Constant(1, 0.5);
  p.validate();
  EXPECT_NEAR(friction_contact_residual(p, Vector3(1.0, -0.2, 0.0)), 0.0, 1e-15);
  // q = (-1, 2, 0): sliding, r = (1, -0.5, 0), u = (0, 1.5, 0) with r_T opposite to u_T.
  p.q = Vector3(-1.0, 2.0, 0.0);
  EXPECT_NEAR(friction_contact_residual(p, Vector3(1.0, -0.5, 0.0)), 0.0, 1e-15);
  EXPECT_GT(friction_contact_residual(p, Vector3(1.0, 0.5, 0.0)), 0.1);
}

// A diverged iterate has no residual. Before the fix, err / max(‖q‖, ‖r‖, ‖u‖) read 0 whenever
// the error stayed finite while a norm overflowed or an entry was infinite, and ADMM reported an
// iterate with ‖r‖ = ∞ on PerioBox as converged.
TEST(Residuals, AreNotSmallForADivergedIterate) {
  const double inf = std::numeric_limits<double>::infinity();
  // LCP with M = 0: w = q = (-1, 2), so z = (1e300, 1e300) leaves min(z, w) = (-1, 2) finite
  // while ‖z‖ overflows (an infinite z would make M z = 0·∞ = NaN, which was caught already).
  const Lcp lcp{Matrix::Zero(2, 2), Vector2(-1.0, 2.0)};
  EXPECT_FALSE(lcp_residual(lcp, Vector2(1e300, 1e300)) <= 1.0);
  // MLCP with B = D = 0: w = b = -0.5, so v = 1e300 leaves min(v, w) finite (A = C = 0).
  const Mlcp m{Matrix::Zero(1, 1), Matrix::Zero(1, 1),       Matrix::Zero(1, 1),
               Matrix::Zero(1, 1), Vector::Constant(1, 0.0), Vector::Constant(1, -0.5)};
  EXPECT_FALSE(mlcp_residual(m, Vector::Constant(1, 0.0), Vector::Constant(1, 1e300)) <= 1.0);
  // Frictional contact, W = 0 (u = q): r = (1e200, 0, 0) lies inside the cone, so
  // r − P_K(r − û) = û stays finite while ‖r‖ overflows; no tolerance may accept it.
  FrictionContactProblem p;
  p.W = SparseMatrix(3, 3);
  p.q = Vector3(-1.0, 0.2, 0.0);
  p.mu = Vector::Constant(1, 0.5);
  EXPECT_FALSE(friction_contact_residual(p, Vector3(1e200, 0.0, 0.0)) <= 1.0);
  EXPECT_FALSE(friction_contact_residual(p, Vector3(inf, 0.0, 0.0)) <= 1.0);
  // A finite iterate keeps its value (z = 0, M = I: 1/√5, as in LcpResidual above).
  const Lcp unit{Matrix::Identity(2, 2), Vector2(-1.0, 2.0)};
  EXPECT_NEAR(lcp_residual(unit, Vector2(0.0, 0.0)), 1.0 / std::sqrt(5.0), 1e-15);
}

TEST(FrictionContactValidate, RejectsNegativeMu) {
  FrictionContactProblem p;
  p.W = SparseMatrix(3, 3);
  p.W.setIdentity();
  p.q = Vector3(-1.0, 0.2, 0.0);
  p.mu = Vector::Constant(1, -0.1);
  EXPECT_THROW(p.validate(), std::invalid_argument);
}
