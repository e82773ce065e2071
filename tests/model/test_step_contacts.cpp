// The one position projection (model/step_contacts.hpp): projected Gauss–Seidel in velocity form
// on min ½ΔvᵀMΔv s.t. g + J Δv ≥ 0 (unilateral), h + J Δv = 0 (bilateral), with M = I here so
// that the solutions are the Euclidean projections written below.
#include <gtest/gtest.h>

#include "moreau/model/step_contacts.hpp"

namespace moreau {
namespace {

struct Row {  // M = I: M⁻¹Jᵀ = Jᵀ
  Vector J;
  double target = 0.0, diag = 0.0;
  bool bilateral = false;
  double value(const Vector& dv) const { return target + J.dot(dv); }
  void add(Vector& dv, double step) const { dv += step * J; }
};

Row row(std::initializer_list<double> J, double target, bool bilateral) {
  Row r;
  r.J = Vector(static_cast<Index>(J.size()));
  Index i = 0;
  for (double x : J) r.J[i++] = x;
  r.target = target, r.diag = r.J.squaredNorm(), r.bilateral = bilateral;
  return r;
}

// One violated unilateral row g = −0.2 along J = (1, 1): Δv = 0.1 (1, 1), the shortest lift.
TEST(ProjectedGaussSeidel, LiftsOneViolatedRowByTheShortestStep) {
  const Vector dv = projected_gauss_seidel(std::vector<Row>{row({1, 1}, -0.2, false)}, 2, 1e-12);
  EXPECT_NEAR(dv[0], 0.1, 1e-12);
  EXPECT_NEAR(dv[1], 0.1, 1e-12);
}

// A satisfied unilateral row (g = 0.3 ≥ 0) pulls nothing; a bilateral row h = 0.3 is pulled to 0.
TEST(ProjectedGaussSeidel, UnilateralRowsOnlyPushBilateralRowsPullBothWays) {
  const Vector none = projected_gauss_seidel(std::vector<Row>{row({0, 1}, 0.3, false)}, 2, 1e-12);
  EXPECT_EQ(none.norm(), 0.0);
  const Vector pulled = projected_gauss_seidel(std::vector<Row>{row({0, 1}, 0.3, true)}, 2, 1e-12);
  EXPECT_NEAR(pulled[1], -0.3, 1e-12);
  EXPECT_EQ(pulled[0], 0.0);
}

// Coupled rows: x ≥ 0.1 (g = −0.1 + Δx) and x + y = 0 (h = 0 + Δx + Δy): the projection of 0 on
// {x ≥ 0.1, x + y = 0} is (0.1, −0.1).
TEST(ProjectedGaussSeidel, CoupledRowsReachTheProjection) {
  const std::vector<Row> rows{row({1, 0}, -0.1, false), row({1, 1}, 0.0, true)};
  const Vector dv = projected_gauss_seidel(rows, 2, 1e-12);
  EXPECT_NEAR(dv[0], 0.1, 1e-9);
  EXPECT_NEAR(dv[1], -0.1, 1e-9);
}

}  // namespace
}  // namespace moreau
