// The one position projection (model/step_contacts.hpp): projected Gauss–Seidel in velocity form
// on min ½ΔvᵀMΔv s.t. g + J Δv ≥ 0 (unilateral), h + J Δv = 0 (bilateral), with M = I here so
// that the solutions are the Euclidean projections written below.
#include <gtest/gtest.h>

#include "moreau/model/callback_system.hpp"
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

// A system of two coordinates with mass matrix M and contacts g_i = q·e_i + offset_i (∇g_i = e_i),
// frictionless, in 2D.
CallbackSystem two_contacts(const Matrix& M, double offset_x, double offset_y) {
  CallbackSystem sys(
      "xy", 2, 2, [M](const Vector&) { return M; },
      [](const Vector&, const Vector&, double) { return Vector(Vector::Zero(2)); });
  for (int i = 0; i < 2; ++i) {
    CallbackConstraint c;
    c.name = i == 0 ? "x" : "y";
    const double offset = i == 0 ? offset_x : offset_y;
    c.kinematics = [i, offset](const Vector& q, const Vector&) {
      ConstraintKinematics k;
      k.gap = q[i] + offset;
      k.normal = Vector::Unit(2, i);
      k.tangent = Matrix::Zero(2, 1);
      return k;
    };
    sys.add_constraint(std::move(c));
  }
  return sys;
}

// The dense layer's projection (model/dense_step_contacts.cpp) at q = 0: contact x closed
// (g = 1e-9, within tol = 1e-8), contact y penetrating (g = −5e-8). With M = [2 −1; −1 2],
// M⁻¹ e_y = (1, 2)/3: the least-M-norm lift of y alone, Δ = (1, 2) × 2.75e-8, would open x by
// 2.75e-8. Held, x stays (|Δx| within ½tol, the pass's own test) and y is lifted to ½tol.
TEST(DenseProjection, AClosedContactIsHeldWhileAnotherIsLifted) {
  Matrix M(2, 2);
  M << 2, -1, -1, 2;
  const CallbackSystem sys = two_contacts(M, 1e-9, -5e-8);
  const auto layer = sys.step_contacts(StepContactSettings{}, ContactSolverSettings{});
  const Vector q = Vector::Zero(2), v = Vector::Zero(2);
  double penetration = 0.0;
  EXPECT_DOUBLE_EQ(layer->detect(q, v, 0.0, penetration), 5e-8);
  const Vector dv = layer->projection(q);
  EXPECT_LE(std::abs(dv[0]), 5e-9);
  EXPECT_GE(-5e-8 + dv[1], 0.0);
}

// Held rows that contradict the lift (two contacts on one coordinate, M = I: g = x − 5e-8 to
// lift, g = x + 1e-9 held) leave the pass solved again with both unilateral: Δx = 5e-8 + ½tol,
// the lift aimed half a tolerance inside, and the closed contact opens. (Without the second
// solve, each sweep ends on the held row and Δx = 0.)
TEST(DenseProjection, ContradictoryHeldRowsFallBackToUnilateralRows) {
  CallbackSystem sys(
      "x", 2, 1, [](const Vector&) { return Matrix(Matrix::Identity(1, 1)); },
      [](const Vector&, const Vector&, double) { return Vector(Vector::Zero(1)); });
  for (const double offset : {-5e-8, 1e-9}) {  // the held row last: a sweep ends on it
    CallbackConstraint c;
    c.kinematics = [offset](const Vector& q, const Vector&) {
      ConstraintKinematics k;
      k.gap = q[0] + offset;
      k.normal = Vector::Ones(1);
      k.tangent = Matrix::Zero(1, 1);
      return k;
    };
    sys.add_constraint(std::move(c));
  }
  const auto layer = sys.step_contacts(StepContactSettings{}, ContactSolverSettings{});
  const Vector q = Vector::Zero(1), v = Vector::Zero(1);
  double penetration = 0.0;
  layer->detect(q, v, 0.0, penetration);
  const Vector dv = layer->projection(q);
  EXPECT_NEAR(dv[0], 5.5e-8, 1e-15);
}

}  // namespace
}  // namespace moreau
