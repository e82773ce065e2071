// The event-driven mode choice on top of analysis::contact_modes (planar systems without joints):
// the chosen mode agrees with the analysis layer, and the selection rules still give the analytic
// motion of two-contact systems (answers derived in the comments).
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "moreau/analysis/contact_modes.hpp"
#include "moreau/contact/collision/rigid_world_system.hpp"
#include "moreau/sim/simulation.hpp"
#include "systems.hpp"
#include "rigid_worlds.hpp"

namespace moreau {
namespace {

using test::kG;

// Particle at rest on a 30° incline: it slides when μ < tan 30° = 0.577 (μ = 0.5) and sticks
// otherwise (μ = 0.7). The event-driven run's first mode must be that, and the one mode
// analysis::contact_modes finds at the initial state.
TEST(EventModes, InitialModeIsTheContactModesSolution) {
  const double alpha = M_PI / 6;
  for (double mu : {0.5, 0.7}) {
    auto sys = test::particle_on_incline(alpha, mu);
    const Vector q0 = Vector2::Zero(), v0 = Vector2::Zero();
    const ContactModeAnalysis an = contact_modes(sys->contact_state(q0, v0, 0.0));
    ASSERT_TRUE(an.unique()) << mu;
    const std::string expected = mu < std::tan(alpha) ? "slip" : "stick";
    EXPECT_EQ(to_string(an.solutions.front().contacts.front().mode), expected) << mu;
    SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 0.05};
    const auto r = simulate(*sys, st, q0, v0);
    ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
    ASSERT_FALSE(r.contacts.empty());
    EXPECT_EQ(to_string(r.contacts.front().mode), expected) << mu;
  }
}

// Planar box (2·0.2 m wide, 2·0.1 m high, 1 kg) resting flat on the floor, pushed to v_x = 1 m/s,
// μ = 0.5: both bottom corners slide, the box decelerates at μg (ΣF_x = −μ(λ₁ + λ₂) = −μmg; it
// does not tip since μ·0.1 < 0.2), stops at t* = v/(μg) = 0.20387 s after x* = v²/(2μg)
// = 0.10194 m, and both corners go slip → stick there (two closed resting contacts: the mode LCP
// of contact_modes with 8 variables and non-unique multipliers). Then it stays at rest.
TEST(EventModes, SlidingBoxStopsAtTheAnalyticTimeOnBothCorners) {
  ContactMaterial mat;
  mat.mu = 0.5;
  auto w = test::world_with_floor(2, mat);
  RigidBody box;
  box.name = "box";
  box.mass = 1.0;
  box.inertia = Matrix3::Identity() * ((0.4 * 0.4 + 0.2 * 0.2) / 12.0);
  box.pose.position = Vector3(0.0, 0.1, 0.0);
  box.linear_velocity = Vector3(1.0, 0.0, 0.0);
  Shape b;
  b.kind = ShapeKind::box;
  b.half_extents = Vector3(0.2, 0.1, 0.1);
  box.shapes.push_back(b);
  w->add_body(box);
  RigidWorldSystem sys(w, CollisionSettings{.margin = INFINITY}, "box");
  SimulationSettings st{.integrator = Integrator::event_driven, .t_end = 0.4};
  const auto r = simulate(sys, st);
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  const double t_stop = 1.0 / (0.5 * kG), x_stop = 1.0 / (2 * 0.5 * kG);
  int stops = 0;
  for (const auto& e : r.events) {
    if (e.kind != EventKind::slip_to_stick) continue;
    ++stops;
    EXPECT_NEAR(e.t, t_stop, 1e-8);
  }
  EXPECT_EQ(stops, 2);
  for (const auto& e : r.events)
    EXPECT_TRUE(e.kind == EventKind::slip_to_stick) << to_string(e.kind) << " at " << e.t;
  EXPECT_NEAR(r.q.back()[0], x_stop, 1e-8);
  EXPECT_NEAR(r.q.back()[1], 0.1, 1e-8);
  EXPECT_LE(r.v.back().cwiseAbs().maxCoeff(), 1e-8);
}

}  // namespace
}  // namespace moreau
