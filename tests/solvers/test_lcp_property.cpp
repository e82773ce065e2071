// Property and cross-check tests: random P-matrix LCPs (fixed seeds). Every solver must reach
// lcp_residual ≤ tol, and, the solution of a P-matrix LCP being unique (CPS Theorem 3.3.7),
// all solvers must return the same z.
#include <gtest/gtest.h>

#include <random>

#include "moreau/solvers/lcp/enumeration.hpp"
#include "moreau/solvers/lcp/fischer_burmeister.hpp"
#include "moreau/solvers/lcp/lemke.hpp"
#include "moreau/solvers/lcp/pgs.hpp"

using namespace moreau;

namespace {
// SPD matrix G Gᵀ + δI with entries of G ~ N(0,1): positive definite, hence a P-matrix.
Matrix random_spd(Index n, std::mt19937& rng, double shift) {
  std::normal_distribution<double> n01;
  Matrix G(n, n);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j) G(i, j) = n01(rng);
  return G * G.transpose() + shift * Matrix::Identity(n, n);
}
Vector random_vector(Index n, std::mt19937& rng) {
  std::normal_distribution<double> n01;
  Vector q(n);
  for (Index i = 0; i < n; ++i) q[i] = n01(rng);
  return q;
}
}  // namespace

TEST(LcpProperty, RandomSpdAllSolversAgree) {
  std::mt19937 rng(20261121);
  for (int trial = 0; trial < 30; ++trial) {
    const Index n = 1 + trial % 12;
    const Lcp lcp{random_spd(n, rng, 0.5), random_vector(n, rng)};
    const LcpResult lemke = solve_lemke(lcp);
    const LcpResult pgs = solve_lcp_pgs(lcp, {.tolerance = 1e-11, .max_iterations = 100000});
    const LcpResult fb = solve_lcp_fischer_burmeister(lcp);
    ASSERT_EQ(lemke.status, Status::converged) << "trial " << trial << ": " << lemke.message;
    ASSERT_EQ(pgs.status, Status::converged) << "trial " << trial << ": " << pgs.message;
    ASSERT_EQ(fb.status, Status::converged) << "trial " << trial << ": " << fb.message;
    EXPECT_LE(lemke.residual, 1e-10);
    EXPECT_LE(pgs.residual, 1e-11);
    EXPECT_LE(fb.residual, 1e-12);
    const double scale = std::max(1.0, lemke.z.norm());
    EXPECT_LE((lemke.z - fb.z).norm(), 1e-9 * scale) << "trial " << trial;
    EXPECT_LE((lemke.z - pgs.z).norm(), 1e-7 * scale) << "trial " << trial;
    if (n <= 8) {
      const LcpEnumerationResult all = enumerate_lcp(lcp);
      ASSERT_EQ(all.solutions.size(), 1u) << "P-matrix LCP must have one solution, trial " << trial;
      EXPECT_LE((all.solutions[0] - lemke.z).norm(), 1e-9 * scale);
    }
  }
}

TEST(LcpProperty, RandomNonSymmetricPMatrixLemkeAndNewtonAgree) {
  // M = S + K with S SPD and K skew-symmetric: zᵀMz = zᵀSz > 0, so M is positive definite
  // (not symmetric), hence a P-matrix with a unique solution.
  std::mt19937 rng(7);
  for (int trial = 0; trial < 20; ++trial) {
    const Index n = 2 + trial % 10;
    Matrix K = Matrix::Zero(n, n);
    std::normal_distribution<double> n01;
    for (Index i = 0; i < n; ++i)
      for (Index j = i + 1; j < n; ++j) {
        K(i, j) = n01(rng);
        K(j, i) = -K(i, j);
      }
    const Lcp lcp{random_spd(n, rng, 0.5) + K, random_vector(n, rng)};
    const LcpResult lemke = solve_lemke(lcp);
    const LcpResult fb = solve_lcp_fischer_burmeister(lcp);
    ASSERT_EQ(lemke.status, Status::converged) << lemke.message;
    ASSERT_EQ(fb.status, Status::converged) << fb.message;
    EXPECT_LE((lemke.z - fb.z).norm(), 1e-9 * std::max(1.0, lemke.z.norm()));
  }
}

TEST(LcpProperty, DegenerateRandomProblemsLemkeTerminates) {
  // Degenerate right-hand sides: q built from a known solution with several zᵢ = wᵢ = 0
  // (q = w* − M z*). Lemke must still end with a solution (residual ≤ 1e-10) on these SPD
  // problems, whatever ties the ratio tests meet.
  std::mt19937 rng(99);
  std::uniform_int_distribution<int> pick(0, 2);
  for (int trial = 0; trial < 30; ++trial) {
    const Index n = 3 + trial % 8;
    const Matrix M = random_spd(n, rng, 0.5);
    Vector z(n), w(n);
    for (Index i = 0; i < n; ++i) {
      const int kind = pick(rng);  // 0: z > 0, 1: w > 0, 2: both 0 (degenerate)
      z[i] = kind == 0 ? 1.0 : 0.0;
      w[i] = kind == 1 ? 1.0 : 0.0;
    }
    const Lcp lcp{M, w - M * z};
    const LcpResult r = solve_lemke(lcp);
    ASSERT_EQ(r.status, Status::converged) << "trial " << trial << ": " << r.message;
    EXPECT_LE((r.z - z).norm(), 1e-9 * std::max(1.0, z.norm()));
  }
}
