// BodyBlockFrictionContactProblem::condensed() (problems/body_block_friction_contact.hpp), which
// assembles W block row by block row: checked against W = Hᵀ M⁻¹ H and q = Hᵀ M⁻¹ f + w formed
// densely from to_global(), in 3D and 2D, with contacts sharing one body, both bodies, or none.
#include <gtest/gtest.h>

#include <random>

#include "moreau/problems/body_block_friction_contact.hpp"

using namespace moreau;

namespace {

// nb bodies with SPD inverse mass blocks, nc contacts between random pairs (or with the ground),
// every third contact a second contact between the same two bodies as the one before it.
BodyBlockFrictionContactProblem random_problem(int d, int nb, int nc, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n01;
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  BodyBlockFrictionContactProblem p;
  p.dimension = d;
  const Index m = p.body_size();
  for (int b = 0; b < nb; ++b) {
    Matrix A = Matrix::Random(m, m);
    BodyMassBlock B = BodyMassBlock::Zero();
    B.topLeftCorner(m, m) = A * A.transpose() + Matrix::Identity(m, m);
    p.mass_inverse.push_back(B);
  }
  p.v_free = Vector::Random(nb * m);
  p.w = Vector::Random(d * nc);
  p.mu = Vector::Constant(nc, 0.3);
  for (int c = 0; c < nc; ++c) {
    BodyBlockContact k;
    if (c % 3 == 2) {
      k.body_a = p.contacts.back().body_a, k.body_b = p.contacts.back().body_b;
    } else {
      k.body_a = static_cast<Index>(u01(rng) * nb);
      k.body_b = u01(rng) < 0.3 ? -1 : static_cast<Index>(u01(rng) * nb);
      if (k.body_b == k.body_a) k.body_b = -1;
    }
    for (int i = 0; i < d; ++i)
      for (Index j = 0; j < m; ++j) k.J_a(i, j) = n01(rng), k.J_b(i, j) = n01(rng);
    if (k.body_b < 0) k.J_b.setZero();
    p.contacts.push_back(k);
  }
  p.w_bilateral.resize(0);
  return p;
}

}  // namespace

TEST(BodyBlockCondensed, EqualsHtMinvHFromTheGlobalForm) {
  for (int d : {2, 3})
    for (unsigned seed = 1; seed <= 5; ++seed) {
      const auto p = random_problem(d, 7, 15, seed);
      const FrictionContactProblem fc = p.condensed();
      const GlobalFrictionContactProblem g = p.to_global();
      const Matrix Minv = Matrix(g.M).inverse();
      const Matrix H = Matrix(g.H);
      const Matrix W = H.transpose() * Minv * H;
      const Vector q = H.transpose() * Minv * g.f + g.w;
      EXPECT_LE((Matrix(fc.W) - W).norm(), 1e-12 * W.norm()) << "d " << d << " seed " << seed;
      EXPECT_LE((fc.q - q).norm(), 1e-12 * q.norm()) << "d " << d << " seed " << seed;
      EXPECT_TRUE(fc.W.isCompressed());
      EXPECT_EQ(fc.mu, p.mu);
    }
}

// The softening c_c adds to the normal diagonal entry only.
TEST(BodyBlockCondensed, ComplianceAddsToTheNormalDiagonal) {
  auto p = random_problem(3, 4, 6, 9);
  const Matrix plain = Matrix(p.condensed().W);
  p.compliance = Vector::LinSpaced(6, 0.1, 0.6);
  const Matrix soft = Matrix(p.condensed().W);
  Matrix expected = plain;
  for (int c = 0; c < 6; ++c) expected(3 * c, 3 * c) += p.compliance[c];
  EXPECT_LE((soft - expected).norm(), 1e-14 * plain.norm());
}
