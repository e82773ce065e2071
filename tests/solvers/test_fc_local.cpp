// One-contact exact solver (local_solver.hpp): analytic separation / stick / slide cases and a
// property test on random non-isotropic blocks certified by the natural-map error.
#include <gtest/gtest.h>

#include <random>

#include "moreau/problems/friction_contact.hpp"
#include "moreau/solvers/fc/local_solver.hpp"

using namespace moreau;

namespace {
double local_error3(const Matrix3& W, const Vector3& q, double mu, const Vector3& r) {
  const Vector3 u = W * r + q;
  return friction_contact_local_error(3, mu, r.data(), u.data());
}
// A random pressed contact: W = A Aᵀ + 0.05 I (symmetric positive definite, anisotropic) with A's
// entries from N(0, 1) (with symmetric = false, W = A + 3 I − 0.05 Aᵀ: positive normal entry,
// not symmetric), q = (−|N(0, 1)|, 3 N(0, 1), 3 N(0, 1)), μ uniform in [mu_low, mu_high]. The
// draws are taken in this order, one statement each (a constructor's arguments are evaluated in
// an unspecified order).
struct PressedContact {
  Matrix3 W;
  Vector3 q;
  double mu;
};
PressedContact random_pressed_contact(std::mt19937& rng, double mu_low, double mu_high,
                                      bool symmetric = true) {
  std::normal_distribution<double> n01;
  Matrix3 A;
  for (int i = 0; i < 9; ++i) A(i / 3, i % 3) = n01(rng);
  PressedContact c;
  c.W = symmetric ? Matrix3(A * A.transpose() + 0.05 * Matrix3::Identity())
                  : Matrix3(A + 3.0 * Matrix3::Identity() - 0.05 * A.transpose());
  const double qn = -std::abs(n01(rng));
  const double q1 = 3.0 * n01(rng);
  const double q2 = 3.0 * n01(rng);
  c.q = Vector3(qn, q1, q2);
  c.mu = std::uniform_real_distribution<double>(mu_low, mu_high)(rng);
  return c;
}
}  // namespace

TEST(FcLocalSolver, SeparationStickSlideWithIdentity) {
  const ContactBlock b = make_contact_block(3, Matrix3::Identity());
  const double mu = 0.5;
  // q_n = 1 ≥ 0: r = 0 is the solution (û = q + μ‖q_T‖e_n ∈ K*).
  Vector3 r = Vector3::Ones();
  EXPECT_TRUE(solve_one_contact_3d(b, Vector3(1.0, 0.3, -0.2), mu, r));
  EXPECT_EQ(r, Vector3::Zero());
  // Stick: u = 0 ⇒ r = −q = (1, −0.2, −0.1); ‖r_T‖ = 0.224 ≤ μ r_n = 0.5.
  r.setZero();
  EXPECT_TRUE(solve_one_contact_3d(b, Vector3(-1.0, 0.2, 0.1), mu, r));
  EXPECT_NEAR((r - Vector3(1.0, -0.2, -0.1)).norm(), 0.0, 1e-14);
  // Slide: −q_T = (−2, 0) is outside the cone; u_n = r_n − 1 = 0 ⇒ r_n = 1, r_T = −μ r_n ê with
  // ê the direction of u_T = r_T + q_T = (1.5, 0) ⇒ r = (1, −0.5, 0), u = (0, 1.5, 0).
  r.setZero();
  EXPECT_TRUE(solve_one_contact_3d(b, Vector3(-1.0, 2.0, 0.0), mu, r));
  EXPECT_NEAR((r - Vector3(1.0, -0.5, 0.0)).norm(), 0.0, 1e-12);
}

TEST(FcLocalSolver, SlideWithAnisotropicTangentBlock) {
  // W = diag(1, 2, 0.5), q = (−1, 3, 3), μ = 0.5. Slide: u_n = r_n − 1 = 0 ⇒ r_n = 1,
  // r_T = 0.5 (c, s); u_T = (c + 3, 0.25 s + 3) must be −λ (c, s), λ > 0:
  //   cross product (c + 3) s − (0.25 s + 3) c = 0.75 c s + 3 s − 3 c = 0,  and c, s < 0.
  Matrix3 W = Matrix3::Zero();
  W.diagonal() << 1.0, 2.0, 0.5;
  const ContactBlock b = make_contact_block(3, W);
  Vector3 r = Vector3::Zero();
  ASSERT_TRUE(solve_one_contact_3d(b, Vector3(-1.0, 3.0, 3.0), 0.5, r));
  EXPECT_NEAR(r[0], 1.0, 1e-13);
  EXPECT_NEAR(std::hypot(r[1], r[2]), 0.5, 1e-13);
  const double c = r[1] / 0.5, s = r[2] / 0.5;
  EXPECT_NEAR(0.75 * c * s + 3.0 * s - 3.0 * c, 0.0, 1e-12);
  EXPECT_LT(c, 0.0);
  EXPECT_LT(s, 0.0);
  // The direction is not −q_T/‖q_T‖ (it would be for an isotropic block): s ≠ c.
  EXPECT_GT(std::abs(s - c), 1e-3);
}

TEST(FcLocalSolver, TwoDimensionalCases) {
  Matrix3 W = Matrix3::Zero();
  W.topLeftCorner<2, 2>() = Matrix2::Identity();
  const ContactBlock b = make_contact_block(2, W);
  // Slide: W = I, q = (−1, 2), μ = 0.5 ⇒ r_n = 1, r_t = −0.5, u = (0, 1.5).
  Vector2 r = Vector2::Zero();
  EXPECT_TRUE(solve_one_contact_2d(b, Vector2(-1.0, 2.0), 0.5, r));
  EXPECT_NEAR((r - Vector2(1.0, -0.5)).norm(), 0.0, 1e-14);
  // Stick: q = (−1, 0.3) ⇒ r = (1, −0.3), |r_t| ≤ 0.5.
  EXPECT_TRUE(solve_one_contact_2d(b, Vector2(-1.0, 0.3), 0.5, r));
  EXPECT_NEAR((r - Vector2(1.0, -0.3)).norm(), 0.0, 1e-14);
}

TEST(FcLocalSolver, RandomAnisotropicBlocksAreSolvedExactly) {
  std::mt19937 rng(7);
  std::normal_distribution<double> n01;
  std::uniform_real_distribution<double> mu_dist(0.05, 1.5);
  for (int k = 0; k < 2000; ++k) {
    Matrix3 A;
    for (int i = 0; i < 9; ++i) A(i / 3, i % 3) = n01(rng);
    const Matrix3 W = A * A.transpose() + 0.05 * Matrix3::Identity();  // SPD, anisotropic
    const Vector3 q(n01(rng), 3.0 * n01(rng), 3.0 * n01(rng));
    const double mu = mu_dist(rng);
    Vector3 r = Vector3::Zero();
    ASSERT_TRUE(solve_one_contact_3d(make_contact_block(3, W), q, mu, r)) << "case " << k;
    const double scale = std::max({q.norm(), r.norm(), (W * r + q).norm()});
    EXPECT_LE(local_error3(W, q, mu, r), 1e-10 * scale) << "case " << k;
  }
}

// The closed form of decoupled isotropic blocks (W = diag(w_n, w_t, w_t): spheres, points on
// planes), which body-block NSGS calls inline: certified by the natural-map error, and equal to
// the general enumeration on the same block perturbed off the diagonal by 1e-9 (flag cleared).
TEST(FcLocalSolver, DecoupledIsotropicClosedFormIsExact) {
  std::mt19937 rng(13);
  std::normal_distribution<double> n01;
  std::uniform_real_distribution<double> w_dist(0.1, 20.0), mu_dist(0.0, 1.5);
  int sliding = 0;
  for (int k = 0; k < 2000; ++k) {
    const double wn = w_dist(rng), wt = w_dist(rng), mu = k % 10 == 0 ? 0.0 : mu_dist(rng);
    const Matrix3 W = Vector3(wn, wt, wt).asDiagonal();
    const ContactBlock block = make_contact_block(3, W);
    ASSERT_TRUE(block.decoupled_isotropic);
    const Vector3 q(n01(rng), 3.0 * n01(rng), 3.0 * n01(rng));
    Vector3 r = Vector3::Zero();
    solve_decoupled_isotropic(block, q, mu, r);
    const double scale = std::max({q.norm(), r.norm(), (W * r + q).norm()});
    EXPECT_LE(local_error3(W, q, mu, r), 1e-12 * scale) << "case " << k;
    Matrix3 Wp = W;
    Wp(0, 1) = Wp(1, 0) = 1e-9 * wn;
    const ContactBlock general = make_contact_block(3, Wp);
    ASSERT_FALSE(general.decoupled_isotropic);
    Vector3 rg = Vector3::Zero();
    ASSERT_TRUE(solve_one_contact_3d(general, q, mu, rg)) << "case " << k;
    EXPECT_LE((r - rg).norm(), 1e-7 * scale) << "case " << k;
    if (r[0] > 0.0 && Vector2(r[1], r[2]).norm() >= mu * r[0] * (1 - 1e-12) && mu > 0) ++sliding;
  }
  EXPECT_GT(sliding, 200);  // the slide case was exercised
}

// The slide solve's Newton from a warm start (local_solver.cpp, newton_slide) must return the
// root exact to round-off, as the scan does from no warm start. On random anisotropic blocks whose
// solution slides, a warm start turned 1e-4 to 3e-2 rad off the cold solution's direction comes
// back to that solution, certified by the natural-map error at 1e-13 (a stop one Newton step early,
// once the next step would be below 1e-12, fails it).
TEST(FcLocalSolver, WarmStartedSlidesStopAtTheRootToRoundOff) {
  std::mt19937 rng(29);
  std::uniform_real_distribution<double> turn_dist(1e-4, 3e-2);
  int slides = 0;
  for (int k = 0; k < 2000; ++k) {
    const auto [W, q, mu] = random_pressed_contact(rng, 0.05, 1.5);
    const ContactBlock block = make_contact_block(3, W);
    Vector3 cold = Vector3::Zero();
    ASSERT_TRUE(solve_one_contact_3d(block, q, mu, cold)) << "case " << k;
    const double tn = std::hypot(cold[1], cold[2]);
    if (!(cold[0] > 0.0 && tn >= mu * cold[0] * (1.0 - 1e-12))) continue;  // not sliding
    ++slides;
    const double turn = (k % 2 ? 1.0 : -1.0) * turn_dist(rng);
    const double c = std::cos(turn), s = std::sin(turn);
    Vector3 warm(cold[0], c * cold[1] - s * cold[2], s * cold[1] + c * cold[2]);
    ASSERT_TRUE(solve_one_contact_3d(block, q, mu, warm)) << "case " << k;
    const double scale = std::max({q.norm(), warm.norm(), (W * warm + q).norm()});
    EXPECT_LE(local_error3(W, q, mu, warm), 1e-13 * scale) << "case " << k;
    EXPECT_LE((warm - cold).norm(), 1e-11 * scale) << "case " << k;
  }
  EXPECT_GT(slides, 500);
}

// stick_seed (a slide sought first by Newton from the stick solution's tangential direction, when
// the warm start has none): on random anisotropic blocks whose solution slides, the seeded solve
// is certified by the natural-map error as the scan's is, and lands on the scan's root (with
// a symmetric W and μ ≤ 0.5 the one-contact solution is the scan's first admissible root in
// every case drawn here). A seed that converged to a root of the slide equation that is not a
// solution (u_T not opposite r_T) would fail the certificate.
TEST(FcLocalSolver, StickSeededSlidesAreCertifiedAndMatchTheScan) {
  std::mt19937 rng(41);
  int slides = 0, by_the_seed = 0;
  for (int k = 0; k < 2000; ++k) {
    const auto [W, q, mu] = random_pressed_contact(rng, 0.05, 0.5);
    const ContactBlock block = make_contact_block(3, W);
    Vector3 scanned = Vector3::Zero(), seeded = Vector3::Zero();
    ASSERT_TRUE(solve_one_contact_3d(block, q, mu, scanned, false)) << "case " << k;
    ASSERT_TRUE(solve_one_contact_3d(block, q, mu, seeded, true)) << "case " << k;
    const double scale = std::max({q.norm(), seeded.norm(), (W * seeded + q).norm()});
    EXPECT_LE(local_error3(W, q, mu, seeded), 1e-10 * scale) << "case " << k;
    EXPECT_LE((seeded - scanned).norm(), 1e-9 * scale) << "case " << k;
    if (Vector2(seeded[1], seeded[2]).norm() >= mu * seeded[0] * (1 - 1e-12)) ++slides;
    if (seeded != scanned) ++by_the_seed;  // another path to the root: its last bits differ
  }
  EXPECT_GT(slides, 500);       // the slide case was exercised
  EXPECT_GT(by_the_seed, 200);  // and the seed found it, not the scan after a failed seed
  // Non-symmetric blocks (FCLIB's RockPile_tob1 has them) and μ up to 1.5, where the one-contact
  // problem may have several solutions: whichever the seed finds is certified.
  int certified = 0;
  for (int k = 0; k < 2000; ++k) {
    const auto [W, q, mu] = random_pressed_contact(rng, 0.05, 1.5, false);
    const ContactBlock block = make_contact_block(3, W);
    Vector3 seeded = Vector3::Zero();
    if (!solve_one_contact_3d(block, q, mu, seeded, true)) continue;  // no case certified
    const double scale = std::max({q.norm(), seeded.norm(), (W * seeded + q).norm()});
    EXPECT_LE(local_error3(W, q, mu, seeded), 1e-10 * scale) << "case " << k;
    ++certified;
  }
  EXPECT_GT(certified, 1900);
}
