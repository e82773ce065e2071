// MLCP solvers (direct = Schur complement / split + Lemke, PGS, least-squares FB Newton):
// analytic problems with the solutions derived in the comments, a random cross-check and
// bad input.
#include <gtest/gtest.h>

#include <random>

#include "moreau/solvers/mlcp/direct.hpp"
#include "moreau/solvers/mlcp/fischer_burmeister.hpp"
#include "moreau/solvers/mlcp/pgs.hpp"

using namespace moreau;

namespace {
Matrix m1(double x) { return Matrix::Constant(1, 1, x); }
Vector v1(double x) { return Vector::Constant(1, x); }

// u + v − 1 = 0;  w = v − 1/2 (D = 0, B = 1, b = −1/2). v = 0 would give w = −1/2 < 0, so
// v > 0 and w = 0: v = 1/2, then u = 1/2.
Mlcp simple() { return Mlcp{m1(1), m1(1), m1(1), m1(0), v1(-1), v1(-0.5)}; }

// Siconos Rectangular_mlcp.dat blocks: A = B = D = 1, C = −1, a = 0, b = −1:
// u = v, w = u + v − 1 = 2v − 1 → v = 1/2 (w = 0), u = 1/2.
Mlcp rectangular() { return Mlcp{m1(1), m1(1), m1(-1), m1(1), v1(0), v1(-1)}; }

// Singular A: A = [[1,1],[1,1]], C = (−1,−1)ᵀ, a = 0 → u₁ + u₂ = v (twice, consistent);
// D = [1, 1], B = 1, b = −2 → w = u₁ + u₂ + v − 2 = 2v − 2. v = 0 gives w = −2 < 0, so w = 0:
// v = 1 and every u with u₁ + u₂ = 1 solves the MLCP.
Mlcp singular() {
  Mlcp p;
  p.A = Matrix::Ones(2, 2);
  p.C = Matrix::Constant(2, 1, -1.0);
  p.a = Vector::Zero(2);
  p.D = Matrix::Ones(1, 2);
  p.B = m1(1);
  p.b = v1(-2);
  return p;
}
}  // namespace

TEST(MlcpDirect, SchurComplementAnalytic) {
  const MlcpResult r = solve_mlcp_direct(simple());
  ASSERT_EQ(r.status, Status::converged) << r.message;
  EXPECT_NEAR(r.u[0], 0.5, 1e-14);
  EXPECT_NEAR(r.v[0], 0.5, 1e-14);
  EXPECT_NEAR(r.w[0], 0.0, 1e-14);
  EXPECT_EQ(r.message, "schur");
  const MlcpResult s = solve_mlcp_direct(rectangular());
  ASSERT_EQ(s.status, Status::converged);
  EXPECT_NEAR(s.u[0], 0.5, 1e-14);
  EXPECT_NEAR(s.v[0], 0.5, 1e-14);
}

TEST(MlcpDirect, TwoComplementarities) {
  // Siconos m2n1_mlcp.dat: u + 2v₁ − 1 = 0; w₁ = v₁ + 1.3333 v₂ + 1, w₂ = v₂ − 3.
  // w₂ ≥ 0 needs v₂ ≥ 3 > 0, so w₂ = 0 and v₂ = 3; then w₁ = v₁ + 4.9999 > 0 forces v₁ = 0,
  // w₁ = 4.9999, and u = 1.
  Mlcp p;
  p.A = m1(1);
  p.C = Matrix(1, 2);
  p.C << 2, 0;
  p.D = Matrix::Zero(2, 1);
  p.B = Matrix(2, 2);
  p.B << 1, 1.3333, 0, 1;
  p.a = v1(-1);
  p.b = Vector2(1, -3);
  const MlcpResult r = solve_mlcp_direct(p);
  ASSERT_EQ(r.status, Status::converged) << r.message;
  EXPECT_NEAR(r.u[0], 1.0, 1e-14);
  EXPECT_NEAR((r.v - Vector2(0, 3)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((r.w - Vector2(4.9999, 0)).norm(), 0.0, 1e-13);
}

TEST(MlcpDirect, SingularEqualityBlock) {
  const MlcpResult r = solve_mlcp_direct(singular());
  ASSERT_EQ(r.status, Status::converged) << r.message;
  EXPECT_NE(r.message.find("split"), std::string::npos);
  EXPECT_NEAR(r.v[0], 1.0, 1e-12);
  EXPECT_NEAR(r.u[0] + r.u[1], 1.0, 1e-12);
  EXPECT_LE(r.residual, 1e-10);
}

TEST(MlcpDirect, NoEqualitiesIsAnLcp) {
  // n = 0: LCP(B, b) with B = [[2,1],[1,2]], b = (−5,−6) → v = (4/3, 7/3) (both w = 0).
  Mlcp p{Matrix(0, 0), Matrix(2, 2), Matrix(0, 2), Matrix(2, 0), Vector(0), Vector2(-5, -6)};
  p.B << 2, 1, 1, 2;
  const MlcpResult r = solve_mlcp_direct(p);
  ASSERT_EQ(r.status, Status::converged);
  EXPECT_NEAR((r.v - Vector2(4.0 / 3, 7.0 / 3)).norm(), 0.0, 1e-14);
}

TEST(MlcpDirect, InfeasibleReportsNonConvergence) {
  // u = 0 from the equality (A = 1, C = 0, a = 0); w = B v + b with B = [[1,−1],[−1,1]],
  // b = (−1,−1): w₁ + w₂ = −2 always, no solution. The reduced LCP has a PSD (copositive-plus)
  // matrix, so Lemke ends on a ray.
  Mlcp p{m1(1), Matrix(2, 2), Matrix::Zero(1, 2), Matrix::Zero(2, 1), v1(0), Vector2(-1, -1)};
  p.B << 1, -1, -1, 1;
  const MlcpResult r = solve_mlcp_direct(p);
  EXPECT_EQ(r.status, Status::ray_termination) << r.message;
  EXPECT_GT(r.residual, 1e-3);
}

TEST(MlcpPgs, AnalyticProblems) {
  for (const Mlcp& p : {simple(), rectangular()}) {
    const MlcpResult r = solve_mlcp_pgs(p, {.tolerance = 1e-12});
    ASSERT_EQ(r.status, Status::converged) << r.message;
    EXPECT_NEAR(r.u[0], 0.5, 1e-11);
    EXPECT_NEAR(r.v[0], 0.5, 1e-11);
    EXPECT_EQ(r.residual_history.size(), static_cast<std::size_t>(r.iterations));
  }
  // Warm start at the solution: no sweep.
  const MlcpResult warm = solve_mlcp_pgs(simple(), {}, v1(0.5));
  EXPECT_EQ(warm.status, Status::converged);
  EXPECT_EQ(warm.iterations, 0);
}

TEST(MlcpPgs, ZeroDiagonalIsNumericalFailure) {
  // B = 0 and D = 0: S = B − D A⁻¹C = 0, no Gauss–Seidel update is defined.
  const Mlcp p{m1(1), m1(0), m1(1), m1(0), v1(-1), v1(1)};
  EXPECT_EQ(solve_mlcp_pgs(p).status, Status::numerical_failure);
}

TEST(MlcpNewton, SingularAndRegularProblems) {
  for (const Mlcp& p : {simple(), rectangular(), singular()}) {
    const MlcpResult r = solve_mlcp_fischer_burmeister(p);
    ASSERT_EQ(r.status, Status::converged) << r.message;
    EXPECT_LE(r.residual, 1e-12);
  }
}

TEST(MlcpCrossCheck, RandomSymmetricPositiveDefinite) {
  // K = [[A, C], [Cᵀ, B]] = G Gᵀ + I is SPD, so the MLCP is the KKT system of a strictly convex
  // QP: the solution is unique and every solver must find the same (u, v).
  std::mt19937 rng(2026);
  std::normal_distribution<double> n01;
  for (int trial = 0; trial < 20; ++trial) {
    const Index n = 1 + trial % 4, m = 1 + trial % 7, N = n + m;
    Matrix G(N, N);
    for (Index i = 0; i < N; ++i)
      for (Index j = 0; j < N; ++j) G(i, j) = n01(rng);
    const Matrix K = G * G.transpose() + Matrix::Identity(N, N);
    Vector q(N);
    for (Index i = 0; i < N; ++i) q[i] = n01(rng);
    const Mlcp p{K.topLeftCorner(n, n),
                 K.bottomRightCorner(m, m),
                 K.topRightCorner(n, m),
                 K.bottomLeftCorner(m, n),
                 q.head(n),
                 q.tail(m)};
    const MlcpResult d = solve_mlcp_direct(p);
    const MlcpResult g = solve_mlcp_pgs(p, {.tolerance = 1e-12, .max_iterations = 100000});
    const MlcpResult f = solve_mlcp_fischer_burmeister(p);
    ASSERT_EQ(d.status, Status::converged) << d.message;
    ASSERT_EQ(g.status, Status::converged) << g.message;
    ASSERT_EQ(f.status, Status::converged) << f.message;
    const double scale = std::max(1.0, d.v.norm() + d.u.norm());
    EXPECT_LE((d.u - f.u).norm() + (d.v - f.v).norm(), 1e-9 * scale) << "trial " << trial;
    EXPECT_LE((d.u - g.u).norm() + (d.v - g.v).norm(), 1e-8 * scale) << "trial " << trial;
  }
}

TEST(MlcpSolvers, RejectBadInput) {
  Mlcp wrong = simple();
  wrong.C = Matrix::Ones(1, 2);  // C must be n×m = 1×1
  EXPECT_THROW(solve_mlcp_direct(wrong), std::invalid_argument);
  EXPECT_THROW(solve_mlcp_pgs(wrong), std::invalid_argument);
  EXPECT_THROW(solve_mlcp_fischer_burmeister(wrong), std::invalid_argument);
  Mlcp nan = simple();
  nan.b[0] = std::nan("");
  EXPECT_THROW(solve_mlcp_direct(nan), std::invalid_argument);
  EXPECT_THROW(solve_mlcp_pgs(simple(), {}, Vector2(1, 1)), std::invalid_argument);
  EXPECT_THROW(solve_mlcp_pgs(simple(), {.relaxation = 0.0}), std::invalid_argument);
  EXPECT_THROW(solve_mlcp_fischer_burmeister(simple(), {}, Vector2(0, 0)), std::invalid_argument);
}
