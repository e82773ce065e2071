// The Siconos scheme (sim/moreau_jean_osi.hpp) on linear systems with known discrete solutions.
#include <gtest/gtest.h>

#include <cmath>

#include "moreau/model/linear_system.hpp"
#include "moreau/sim/simulation.hpp"

using namespace moreau;

namespace {

SimulationSettings siconos(double dt, double t_end) {
  SimulationSettings st;
  st.t_end = t_end;
  st.time_stepping.dt = dt;
  st.time_stepping.scheme = TimeSteppingScheme::siconos;
  st.time_stepping.contacts.activation_margin = 0.0;
  st.solver.name = "exact";
  return st;
}

LinearSystem oscillator(double m, double k, double c = 0.0) {
  LinearSystemData d;
  d.coordinates = {"x"};
  d.mass = Matrix::Constant(1, 1, m);
  d.stiffness = Matrix::Constant(1, 1, k);
  d.damping = Matrix::Constant(1, 1, c);
  return LinearSystem("oscillator", d);
}

}  // namespace

// m ẍ + k x = 0 under the θ-method with θ = ½ (the trapezoidal rule): with ω² = k/m each step
// rotates (x, v/ω) by φ = 2 atan(ωh/2), so x_k = cos(kφ) exactly and the energy is conserved.
// The stiffness enters W = M + h²θ²K (implicit); the explicit scheme would not give this.
TEST(MoreauJeanOsi, HarmonicOscillatorIsTheTrapezoidalRotation) {
  const double m = 2.0, k = 50.0, h = 0.05, w = std::sqrt(k / m);
  const LinearSystem sys = oscillator(m, k);
  const SimulationResult r = simulate(sys, siconos(h, 10.0), Vector::Ones(1), Vector::Zero(1));
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  const double phi = 2.0 * std::atan(w * h / 2.0);
  ASSERT_EQ(r.records(), 201);
  for (Index i = 0; i < r.records(); ++i) {
    EXPECT_NEAR(r.q[i][0], std::cos(i * phi), 1e-12) << i;
    EXPECT_NEAR(r.v[i][0], -w * std::sin(i * phi), 1e-11) << i;
    EXPECT_NEAR(r.kinetic[i] + r.potential[i], 0.5 * k, 1e-11) << i;
  }
}

// With damping c the θ = ½ step is x_{k+1} = A x_k with A = (I − h/2 J)⁻¹(I + h/2 J) for
// J = [[0, 1], [−k/m, −c/m]] (the trapezoidal rule of the first-order system), computed here.
TEST(MoreauJeanOsi, DampedOscillatorFollowsTheTrapezoidalMatrix) {
  const double m = 1.0, k = 20.0, c = 1.5, h = 0.01;
  const LinearSystem sys = oscillator(m, k, c);
  const SimulationResult r = simulate(sys, siconos(h, 1.0), Vector::Ones(1), Vector::Zero(1));
  Eigen::Matrix2d J;
  J << 0, 1, -k / m, -c / m;
  const Eigen::Matrix2d I = Eigen::Matrix2d::Identity();
  const Eigen::Matrix2d A = (I - 0.5 * h * J).inverse() * (I + 0.5 * h * J);
  Eigen::Vector2d x(1.0, 0.0);
  for (Index i = 1; i < r.records(); ++i) {
    x = A * x;
    EXPECT_NEAR(r.q[i][0], x[0], 1e-12) << i;
    EXPECT_NEAR(r.v[i][0], x[1], 1e-12) << i;
  }
}

// A mass on a spring that swings into a wall at x = 1 (e = 1, frictionless): the penetration
// stays within h·|v| and, with e = 1 and θ = ½, the energy after the impacts stays near the start.
TEST(MoreauJeanOsi, ImpactsOfAnLtiSystemKeepTheGapAndTheEnergy) {
  LinearSystemData d;
  d.coordinates = {"x"};
  d.mass = Matrix::Constant(1, 1, 1.0);
  d.stiffness = Matrix::Constant(1, 1, 10.0);
  d.force = Vector::Constant(1, 8.0);  // equilibrium x = 0.8 m, swing to 1.6 m: hits x = 1
  d.relations.push_back({"floor", Vector::Constant(1, -1.0), 1.0, Matrix(0, 1), 1.0, 0.0, 0.0});
  const LinearSystem sys("spring", d);
  const SimulationResult r = simulate(sys, siconos(1e-3, 5.0), Vector::Zero(1), Vector::Zero(1));
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  double worst = 0.0;
  for (const auto& q : r.q) worst = std::max(worst, q[0] - 1.0);
  // no projection: a closing contact may sink by at most h·|v| (|v| ≤ ω A = √10 · 0.8 m/s)
  EXPECT_LE(worst, 1e-3 * std::sqrt(10.0) * 0.8);
  int impacts = 0;
  for (const auto& e : r.events) impacts += e.kind == EventKind::impact;
  EXPECT_GE(impacts, 3);
  EXPECT_NEAR(r.energy_final, r.energy_initial, 1e-2 * std::abs(r.energy_initial) + 1e-2);
}
