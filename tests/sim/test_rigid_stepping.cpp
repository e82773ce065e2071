// Moreau–Jean time stepping of rigid worlds in body blocks (RigidWorldSystem::step_contacts,
// sim/time_stepping.hpp): agreement with the dense path of any LagrangianSystem (an independent
// implementation of the same scheme), events of the falling pencil against the event-driven
// integrator, softening against its closed form, impact laws refused by time stepping.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/sim/simulation.hpp"
#include "rigid_worlds.hpp"

namespace moreau {
namespace {

constexpr double kG = 9.81;  // m/s², the worlds' default gravity

// Planar uniform rod of 1 kg and 1 m standing on its lower end, tilted by `tilt` from vertical
// (the falling_pencil example).
std::shared_ptr<RigidWorld> pencil(double tilt, double mu) {
  ContactMaterial mat;
  mat.mu = mu;
  auto w = test::world_with_floor(2, mat);
  RigidBody rod;
  rod.name = "pencil";
  rod.mass = 1.0;
  rod.inertia = Matrix3::Identity() / 12.0;
  const double angle = 0.5 * M_PI - tilt;  // rod axis (x of the capsule) from the floor
  rod.pose = planar_pose(0.5 * std::cos(angle), 0.5 * std::sin(angle), angle);
  rod.shapes.push_back(make_capsule(0.0, 0.5));
  w->add_body(rod);
  return w;
}

// Planar block 0.2 × 0.4 m, 1 kg, tilted on its right corner (the rocking_block example).
std::shared_ptr<RigidWorld> rocking_block() {
  ContactMaterial mat;
  mat.mu = 0.8;
  auto w = test::world_with_floor(2, mat);
  RigidBody b = test::box_body("block", 1.0, Vector3(0.1, 0.2, 0.1),
                               Matrix3::Identity() * (0.2 * 0.2 + 0.4 * 0.4) / 12.0);
  const double a = -0.1;
  // right bottom corner (0.1, −0.2) in the body frame at the origin of the floor
  const Vector3 corner(0.1 * std::cos(a) + 0.2 * std::sin(a), 0.1 * std::sin(a) - 0.2 * std::cos(a),
                       0.0);
  b.pose = planar_pose(-corner.x(), -corner.y(), a);
  w->add_body(b);
  return w;
}

}  // namespace

// The body-block path and the dense path (dense M, condensed problem, registry solver) integrate
// the same scheme: on the rocking block (two corner contacts, impacts, sticking) their states agree
// to the solver tolerance's order after 0.4 s.
TEST(RigidTimeStepping, BodyBlocksAgreeWithTheDensePath) {
  RigidWorldSystem sys(rocking_block(), CollisionSettings{.margin = 0.02}, "rocking_block");
  SimulationSettings st{
      .integrator = Integrator::time_stepping, .t_end = 0.4, .time_stepping = {.dt = 1e-3}};
  st.solver.tolerance = 1e-12;
  st.time_stepping.contacts.nsgs_relaxation = 1.0;
  const SimulationResult a = simulate(sys, st);
  st.time_stepping.contacts.body_blocks = false;
  const SimulationResult b = simulate(sys, st);
  ASSERT_EQ(a.steps, b.steps);
  EXPECT_EQ(a.solver_failures, 0);
  EXPECT_LE((a.q.back() - b.q.back()).cwiseAbs().maxCoeff(), 1e-8);
  EXPECT_LE((a.v.back() - b.v.back()).cwiseAbs().maxCoeff(), 1e-7);
  // the block rocked: its other corner hit the floor
  int impacts = 0;
  for (const auto& e : a.events) impacts += e.kind == EventKind::impact;
  EXPECT_GE(impacts, 1);
}

// Falling pencil (μ = 0.5): time stepping reports exactly stick_to_slip, then the impact of the
// upper end with slip_to_stick of the lower one, with no flicker of the resting contact; its
// stick_to_slip time approaches the event-driven integrator's as h → 0 (the sliding speed starts
// from zero, so the step reporting slip lags by a few steps: within 5 steps at h = 1e-3 and within
// 1.5 ms at h = 2.5e-4).
TEST(RigidTimeStepping, FallingPencilEventsMatchTheEventDrivenRun) {
  RigidWorldSystem ed_sys(pencil(0.01, 0.5), CollisionSettings{.margin = INFINITY}, "pencil");
  SimulationSettings se{.integrator = Integrator::event_driven, .t_end = 1.45};
  const SimulationResult ed = simulate(ed_sys, se);
  double t_slip_ed = NAN;
  for (const auto& e : ed.events)
    if (e.kind == EventKind::stick_to_slip && std::isnan(t_slip_ed)) t_slip_ed = e.t;
  ASSERT_FALSE(std::isnan(t_slip_ed));
  for (const double h : {1e-3, 2.5e-4}) {
    RigidWorldSystem ts_sys(pencil(0.01, 0.5), CollisionSettings{.margin = 0.02}, "pencil");
    SimulationSettings st{
        .integrator = Integrator::time_stepping, .t_end = 1.7, .time_stepping = {.dt = h}};
    st.record_interval = 0.01;
    const SimulationResult ts = simulate(ts_sys, st);
    std::vector<std::string> kinds;
    for (const auto& e : ts.events) kinds.push_back(to_string(e.kind));
    ASSERT_EQ(kinds.size(), 3u) << "h = " << h
                                << ", events: " << fmt::format("{}", fmt::join(kinds, ", "));
    EXPECT_EQ(kinds[0], "stick_to_slip");
    EXPECT_NEAR(ts.events[0].t, t_slip_ed, h == 1e-3 ? 5e-3 : 1.5e-3) << "h = " << h;
    EXPECT_TRUE((kinds[1] == "impact" && kinds[2] == "slip_to_stick") ||
                (kinds[1] == "slip_to_stick" && kinds[2] == "impact"));
  }
}

// Softening γ on a resting ball (projection off): at steady state the velocity-level law
// u_n + γλ = 0 with λ = m g gives a constant sinking speed u_n = −γ m g.
TEST(RigidTimeStepping, SofteningSinksAtGammaTimesWeight) {
  ContactMaterial mat;
  mat.gamma = 1e-4;  // m/(N·s)
  auto w = test::world_with_floor(3, mat);
  w->add_body(test::sphere_body("ball", 2.0, 0.1, Vector3(0, 0, 0.1)));
  RigidWorldSystem sys(w, CollisionSettings{.margin = 0.02}, "soft_ball");
  SimulationSettings st{
      .integrator = Integrator::time_stepping, .t_end = 0.05, .time_stepping = {.dt = 1e-3}};
  st.time_stepping.projection = false;
  st.time_stepping.contacts.activation_margin = 1e-3;
  const SimulationResult r = simulate(sys, st);
  EXPECT_NEAR(r.v.back()[2], -1e-4 * 2.0 * kG, 1e-9);
}

// Time stepping applies Newton's restitution only: other impact laws are refused up front.
TEST(RigidTimeStepping, OtherImpactLawsAreRefused) {
  ContactMaterial mat;
  mat.law = ImpactLaw::poisson;
  auto w = test::world_with_floor(3, mat);
  w->add_body(test::sphere_body("ball", 1.0, 0.1, Vector3(0, 0, 1.0)));
  RigidWorldSystem sys(w, CollisionSettings{.margin = 0.02}, "ball");
  SimulationSettings st{.integrator = Integrator::time_stepping, .t_end = 0.1};
  try {
    simulate(sys, st);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("poisson"), std::string::npos) << e.what();
  }
}

}  // namespace moreau
