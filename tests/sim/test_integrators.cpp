// The simulators on small hand-written systems (tests/sim/systems.hpp), each result derived
// independently in the comment above the test.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "moreau/sim/simulation.hpp"
#include "systems.hpp"

namespace moreau {
namespace {

using test::kG;

std::vector<double> event_times(const SimulationResult& r, EventKind kind) {
  std::vector<double> t;
  for (const auto& e : r.events)
    if (e.kind == kind) t.push_back(e.t);
  return t;
}

// Apex of the ball after each impact: in free flight y + v²/(2g) is the apex height, constant;
// evaluated at the first record after each impact (event-driven) or as the largest y between
// impacts (time stepping).
std::vector<double> apexes(const SimulationResult& r, bool from_energy) {
  std::vector<double> ti = event_times(r, EventKind::impact);
  std::vector<double> out;
  for (std::size_t k = 0; k < ti.size(); ++k) {
    const double t_next = k + 1 < ti.size() ? ti[k + 1] : 1e300;
    double best = -1e300;
    for (Index j = 0; j < r.records(); ++j) {
      if (r.t[j] <= ti[k] || r.t[j] >= t_next) continue;
      const double y = r.q[j][0], v = r.v[j][0];
      if (from_energy) {
        best = y + v * v / (2 * kG);
        break;
      }
      best = std::max(best, y);
    }
    if (best > -1e300 && t_next < 1e300) out.push_back(best);
  }
  return out;
}

// Bouncing ball, centre dropped from 1 m, r = 0.1, e = 0.8: impact speed √(2g·0.9), Newton's
// law sends it back at e times that, so the n-th apex above the contact height is 0.9·e^{2n}.
TEST(EventDriven, BouncingBallApexesFollowESquared) {
  auto ball = test::bouncing_ball(0.8);
  SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 2.2};
  const auto r = simulate(*ball, st, Vector::Constant(1, 1.0), Vector::Zero(1));
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  const auto ap = apexes(r, true);
  ASSERT_GE(ap.size(), 3u);
  for (std::size_t n = 0; n < ap.size(); ++n)
    EXPECT_NEAR(ap[n], 0.1 + 0.9 * std::pow(0.8, 2.0 * (n + 1)), 1e-8) << "apex " << n + 1;
  EXPECT_LE(r.max_energy_gain, 1e-8);
  EXPECT_LE(r.max_penetration, 1e-9);
}

TEST(TimeStepping, BouncingBallApexesWithinOrderDt) {
  auto ball = test::bouncing_ball(0.8);
  // The step that reverses the ball starts up to ½h|u_n| above the floor, so each apex is off by
  // at most (1 − e²)·½h|u_n| plus the previous apex's error scaled by e²: below h·|u_n|.
  for (double dt : {1e-3, 1e-4}) {
    SimulationSettings st{
        .integrator = Integrator::time_stepping, .t_end = 1.8, .time_stepping = {.dt = dt}};
    const auto r = simulate(*ball, st, Vector::Constant(1, 1.0), Vector::Zero(1));
    const auto ap = apexes(r, false);
    ASSERT_GE(ap.size(), 2u);
    double err = 0.0;
    for (std::size_t n = 0; n < 2; ++n)
      err = std::max(err, std::abs(ap[n] - (0.1 + 0.9 * std::pow(0.8, 2.0 * (n + 1)))));
    EXPECT_LE(err, 4.5 * dt) << "dt = " << dt;  // |u_n| ≤ √(2g·0.9) ≈ 4.2 m/s
  }
}

// Particle at rest on a 30° slope: sliding (μ = 0.5 < tan 30°) it accelerates down the slope at
// a = g (sin θ − μ cos θ); with μ = 0.7 > tan 30° it stays put. Displacement along t after T:
// −½ a T².
double slope_displacement(const SimulationResult& r, double alpha) {
  const Vector& q = r.q.back();
  return std::cos(alpha) * q[0] + std::sin(alpha) * q[1];
}

TEST(Simulators, BoxOnInclineSlidesOrSticks) {
  const double alpha = M_PI / 6, T = 0.5;
  for (const Integrator integ : {Integrator::event_driven, Integrator::time_stepping}) {
    for (double mu : {0.5, 0.7}) {
      auto sys = test::particle_on_incline(alpha, mu);
      SimulationSettings st{.integrator = integ, .t_end = T, .time_stepping = {.dt = 1e-3}};
      const auto r = simulate(*sys, st, Vector::Zero(2), Vector::Zero(2));
      const double a = mu < std::tan(alpha) ? kG * (std::sin(alpha) - mu * std::cos(alpha)) : 0.0;
      const double expected = -0.5 * a * T * T;
      const double tol = integ == Integrator::event_driven ? 1e-8 : 2e-4;
      EXPECT_NEAR(slope_displacement(r, alpha), expected, tol)
          << to_string(integ) << " mu = " << mu;
      EXPECT_LE(r.max_energy_gain, 1e-6) << to_string(integ) << " mu = " << mu;
    }
  }
}

// Event-driven and time stepping agree as dt → 0 on the incline (sliding) and the ball.
TEST(Simulators, TimeSteppingConvergesToEventDriven) {
  const double alpha = M_PI / 6;
  auto sys = test::particle_on_incline(alpha, 0.5);
  SimulationSettings ev{.integrator = Integrator::event_driven, .t_end = 0.3};
  const double ref =
      slope_displacement(simulate(*sys, ev, Vector::Zero(2), Vector::Zero(2)), alpha);
  auto ball = test::bouncing_ball(0.8);
  const auto rb = simulate(*ball, ev, Vector::Constant(1, 0.5), Vector::Zero(1));
  double e1 = 1e300, e2 = 1e300;
  for (double dt : {1e-2, 1e-3, 1e-4}) {
    SimulationSettings ts{
        .integrator = Integrator::time_stepping, .t_end = 0.3, .time_stepping = {.dt = dt}};
    const double d =
        slope_displacement(simulate(*sys, ts, Vector::Zero(2), Vector::Zero(2)), alpha);
    const double err = std::abs(d - ref);
    EXPECT_LE(err, std::max(1e-10, 0.6 * e1)) << "incline dt = " << dt;
    e1 = err;
    const auto r = simulate(*ball, ts, Vector::Constant(1, 0.5), Vector::Zero(1));
    const double eb = std::abs(r.q.back()[0] - rb.q.back()[0]);
    EXPECT_LE(eb, std::max(1e-10, 0.6 * e2)) << "ball dt = " << dt;
    e2 = eb;
  }
  EXPECT_LE(e1, 1e-5);
  EXPECT_LE(e2, 2e-3);
}

// Falling pencil (McGeer & Palmer 1989), uniform rod m = 1, 2ℓ = 1, I_c = mℓ²/3, tilted
// θ0 = 0.01 at rest, μ = 0.5. While it sticks (energy (4.10) with ω0 = 0 at θ0):
//   θ̇² = 2 m g ℓ (cos θ0 − cos θ)/(I_c + mℓ²),   θ̈ = m g ℓ sin θ/(I_c + mℓ²),
//   λ_n = m g − mℓ(θ̈ sin θ + θ̇² cos θ),   λ_t = mℓ(θ̇² sin θ − θ̈ cos θ).
// The first event is stick → slip at the first θ where |λ_t| = μ λ_n (bisection below).
double pencil_slip_angle(double mu, double th0) {
  const double m = 1, l = 0.5, Ic = m * l * l / 3.0, J = Ic + m * l * l;
  auto phi = [&](double th) {
    const double w2 = 2 * m * kG * l * (std::cos(th0) - std::cos(th)) / J;
    const double acc = m * kG * l * std::sin(th) / J;
    const double ln = m * kG - m * l * (acc * std::sin(th) + w2 * std::cos(th));
    const double lt = m * l * (w2 * std::sin(th) - acc * std::cos(th));
    return mu * ln - std::abs(lt);
  };
  double a = th0, b = th0;
  while (phi(b) > 0) b += 1e-3;  // first sign change
  a = b - 1e-3;
  for (int i = 0; i < 200; ++i) {
    const double c = 0.5 * (a + b);
    (phi(c) > 0 ? a : b) = c;
  }
  return 0.5 * (a + b);
}

TEST(EventDriven, FallingPencilFirstEventIsStickToSlipAtTheConeAngle) {
  const double th0 = 0.01, l = 0.5;
  auto rod = test::rod_on_floor(0.5);
  SimulationSettings st{.integrator = Integrator::event_driven,
                        .t_end = 1.45};  // slip starts near t = 1.36 s
  Vector q0(3);
  q0 << -l * std::sin(th0), l * std::cos(th0), th0;
  const auto r = simulate(*rod, st, q0, Vector::Zero(3));
  ASSERT_FALSE(r.events.empty());
  EXPECT_EQ(r.events.front().kind, EventKind::stick_to_slip);
  const double t_event = r.events.front().t;
  double th = NAN;
  for (Index j = 0; j < r.records(); ++j)
    if (r.t[j] == t_event) {
      th = r.q[j][2];
      break;
    }
  EXPECT_NEAR(th, pencil_slip_angle(0.5, th0), 1e-7);
  EXPECT_LE(r.max_energy_gain, 1e-7);
}

// Newton's cradle, 5 unit balls 1 cm apart, the first at 1 m/s, e = 1: each impact between equal
// masses exchanges the velocities, so the last ball leaves at 1 m/s and the others rest;
// momentum and energy are conserved.
TEST(Simulators, NewtonsCradleTransmitsMomentum) {
  const int k = 5;
  const double r = 0.05, gap = 0.01;
  auto sys = test::cradle(k, r);
  Vector q0(k), v0 = Vector::Zero(k);
  for (int i = 0; i < k; ++i) q0[i] = i * (2 * r + gap);
  v0[0] = 1.0;
  for (const Integrator integ : {Integrator::event_driven, Integrator::time_stepping}) {
    SimulationSettings st{.integrator = integ, .t_end = 0.1, .time_stepping = {.dt = 1e-4}};
    const auto res = simulate(*sys, st, q0, v0);
    const Vector& v = res.v.back();
    const double tol = integ == Integrator::event_driven ? 1e-9 : 1e-6;
    for (int i = 0; i + 1 < k; ++i)
      EXPECT_NEAR(v[i], 0.0, tol) << to_string(integ) << " ball " << i;
    EXPECT_NEAR(v[k - 1], 1.0, tol) << to_string(integ);
    EXPECT_NEAR(v.sum(), 1.0, 1e-12) << to_string(integ);
    EXPECT_EQ(event_times(res, EventKind::impact).size(), 4u) << to_string(integ);
    EXPECT_LE(res.max_energy_gain, 1e-9) << to_string(integ);
  }
}

TEST(Simulators, BadSettingsAreRejected) {
  auto ball = test::bouncing_ball(0.5);
  EXPECT_THROW(simulate(*ball, {.time_stepping = {.theta = 1.5}}, Vector::Ones(1), Vector::Zero(1)),
               std::invalid_argument);
  EXPECT_THROW(simulate(*ball, {.t_end = -1}, Vector::Ones(1), Vector::Zero(1)),
               std::invalid_argument);
  EXPECT_THROW(simulate(*ball, {}, Vector::Constant(1, NAN), Vector::Zero(1)),
               std::invalid_argument);
  // interpenetrating start: centre 5 cm below the contact height
  EXPECT_THROW(simulate(*ball, {}, Vector::Constant(1, 0.05), Vector::Zero(1)),
               std::invalid_argument);
  // a step count no machine could run (it used to end at t = 0 as "completed"): refused up front
  const SimulationSettings tiny{
      .integrator = Integrator::time_stepping, .t_end = 0.01, .time_stepping = {.dt = 1e-300}};
  try {
    simulate(*ball, tiny, Vector::Ones(1), Vector::Zero(1));
    FAIL() << "dt = 1e-300 was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("exceed the limit"), std::string::npos) << e.what();
  }
  // at the limit itself (10⁹ steps) the settings are valid
  EXPECT_NO_THROW(validate(SimulationSettings{
      .integrator = Integrator::time_stepping, .t_end = 1.0, .time_stepping = {.dt = 1e-9}}));
}

}  // namespace
}  // namespace moreau
