// The midpoint free flight of model/step_free_velocity.hpp on one-dof oscillators, against its
// formulas written out: q_m = q + ½h v, v_m = v − ½h F(q)/m, v⁺ = v − h F(q_m)/m with F = k q.
#include <gtest/gtest.h>

#include "moreau/model/lagrangian_system.hpp"
#include "moreau/model/step_free_velocity.hpp"

namespace moreau {
namespace {

// m ẍ + k x = 0, in the sign of LagrangianSystem's F (M v̇ = −F). With `inner`, its
// mass_then_forces first takes a free-flight step of that other oscillator on the same thread
// (a system that steps a model of its own to form its forces).
class Oscillator final : public LagrangianSystem {
 public:
  Oscillator(double m, double k, const Oscillator* inner = nullptr) : m_(m), k_(k), inner_(inner) {}
  std::string name() const override { return "oscillator"; }
  int dimension() const override { return 2; }
  Index velocity_size() const override { return 1; }
  ContactState contact_state(const Vector& q, const Vector& v, double t) const override {
    ContactState s;
    s.dimension = 2;
    s.t = t;
    s.q = q;
    s.v = v;
    mass_and_forces(q, v, t, s.M, s.F);
    return s;
  }
  void mass_and_forces(const Vector& q, const Vector&, double, Matrix& M,
                       Vector& F) const override {
    M = Matrix::Constant(1, 1, m_);
    F = k_ * q;
  }
  void mass_then_forces(const Vector& q, double t, Matrix& M,
                        const std::function<const Vector&(Matrix&)>& velocity,
                        Vector& F) const override {
    M = Matrix::Constant(1, 1, m_);
    if (inner_ != nullptr) {  // a step of the inner oscillator from (1, 0), between M and v
      const Vector q0 = Vector::Constant(1, 1.0), v0 = Vector::Zero(1);
      MassSolver mass;
      inner_step = step_free_velocity(*inner_, Matrix::Constant(1, 1, inner_->m_), inner_->k_ * q0,
                                      q0, v0, t, 0.01, 0.5, false, mass);
    }
    velocity(M);
    F = k_ * q;
  }
  bool midpoint_free_flight() const override { return true; }

  mutable Vector inner_step;  // the inner oscillator's free velocity, when it has one

 private:
  double m_, k_;
  const Oscillator* inner_;
};

// v⁺ of the midpoint rule from (q, v) over h, written out.
double midpoint_velocity(double m, double k, double q, double v, double h) {
  const double q_m = q + 0.5 * h * v;
  return v - h * k * q_m / m;
}

TEST(StepFreeVelocity, MidpointRuleOfAnOscillator) {
  const Oscillator sys(2.0, 3.0);
  const Vector q = Vector::Constant(1, 0.4), v = Vector::Constant(1, -1.5);
  MassSolver mass;
  const Vector v_free = step_free_velocity(sys, Matrix::Constant(1, 1, 2.0), 3.0 * q, q, v, 0.0,
                                           0.01, 0.5, false, mass);
  EXPECT_NEAR(v_free[0], midpoint_velocity(2.0, 3.0, 0.4, -1.5, 0.01), 1e-15);
}

// A free flight taken from inside another's mass_then_forces on the same thread keeps its own
// M̂, F and v_m: the outer step is the outer oscillator's, the inner the inner's (with shared
// storage the inner one overwrote the outer's M̂ = 2 with its own 7 before the outer factorized it).
TEST(StepFreeVelocity, ANestedFreeFlightLeavesTheOuterOneWhole) {
  const Oscillator inner(7.0, 5.0);
  const Oscillator outer(2.0, 3.0, &inner);
  const Vector q = Vector::Constant(1, 0.4), v = Vector::Constant(1, -1.5);
  MassSolver mass;
  const Vector v_free = step_free_velocity(outer, Matrix::Constant(1, 1, 2.0), 3.0 * q, q, v, 0.0,
                                           0.01, 0.5, false, mass);
  EXPECT_NEAR(v_free[0], midpoint_velocity(2.0, 3.0, 0.4, -1.5, 0.01), 1e-15);
  ASSERT_EQ(outer.inner_step.size(), 1);
  EXPECT_NEAR(outer.inner_step[0], midpoint_velocity(7.0, 5.0, 1.0, 0.0, 0.01), 1e-15);
}

}  // namespace
}  // namespace moreau
