// Time stepping of worlds in joint coordinates (docs/simulation.md §Rigid worlds with joints):
// passive joint forces against closed forms, and the energy behaviour of a passive arm.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/sim/simulation.hpp"
#include "../model/joint_world_parts.hpp"

using namespace moreau;
using moreau::test::block;

namespace {

SimulationResult run(std::shared_ptr<RigidWorld> world, double t_end, double dt) {
  const RigidWorldSystem sys(std::move(world), CollisionSettings{.margin = 0.02});
  SimulationSettings st;
  st.integrator = Integrator::time_stepping;
  st.t_end = t_end;
  st.time_stepping.dt = dt;
  return simulate(sys, st);
}

// The column of `name` in the run's positions (−1 if none).
Index column(const SimulationResult& r, const std::string& name) {
  for (size_t i = 0; i < r.position_names.size(); ++i)
    if (r.position_names[i] == name) return static_cast<Index>(i);
  return -1;
}

}  // namespace

// A block of m = 2.5 kg on a slide with a spring K = 40 N/m released 0.1 m from its rest
// position, no gravity: s(t) = s_ref + 0.1 cos(ωt), ω = √(K/m) = 4 rad/s. The spring is
// integrated linearly implicitly with θ = ½ (the trapezoidal rule for a linear oscillator: energy
// kept exactly, phase error (ωh)²ωt/12 ≈ 1e-5 rad at t = 2 s), so the position after 2 s is
// within 1e-5 m of the closed form and the energy within 1e-9 J of its start.
TEST(JointCoordinates, SpringOnASlideOscillatesAtItsNaturalFrequency) {
  auto w = std::make_shared<RigidWorld>(3);
  w->set_gravity(Vector3::Zero());
  w->add_body(block("mass", Vector3::Zero(), 2.5, Vector3(0.1, 0.1, 0.1)));
  Joint j;
  j.name = "rail";
  j.kind = JointKind::prismatic;
  j.body_a = 0;
  j.axis_a = Vector3::UnitX();
  j.stiffness = 40.0;
  j.reference = -0.1;
  w->add_joint(j);
  const SimulationResult r = run(w, 2.0, 1e-3);
  ASSERT_EQ(r.status, SimulationStatus::completed);
  const Index c = column(r, "rail.q");
  ASSERT_GE(c, 0);
  EXPECT_NEAR(r.q.back()[c], -0.1 + 0.1 * std::cos(4.0 * r.t.back()), 1e-5);
  EXPECT_NEAR(r.energy_final, r.energy_initial, 1e-9);
  EXPECT_NEAR(r.energy_initial, 0.5 * 40.0 * 0.01, 1e-15);
}

// A rotor (I_zz = 0.3 kg·m², armature 0.2 kg·m²) on a hinge with damping D = 0.25 N·m·s/rad,
// spun at ω₀ = 3 rad/s without gravity: I ω̇ = −D ω with I = I_zz + armature, so
// ω(t) = ω₀ exp(−D t / I). The trapezoidal rule gives ω_k = ω₀ ((1 − a)/(1 + a))^k with
// a = hD/(2I): within 1e-6 of the exponential after 1 s at h = 1 ms.
TEST(JointCoordinates, DampedRotorWithArmatureDecaysExponentially) {
  auto w = std::make_shared<RigidWorld>(3);
  w->set_gravity(Vector3::Zero());
  RigidBody rotor = block("rotor", Vector3::Zero(), 1.0, Vector3(0.2, 0.2, 0.3));
  rotor.angular_velocity = Vector3(0, 0, 3.0);
  w->add_body(rotor);
  Joint j;
  j.name = "axle";
  j.body_a = 0;
  j.axis_a = Vector3::UnitZ();
  j.damping = 0.25;
  j.armature = 0.2;
  w->add_joint(j);
  const SimulationResult r = run(w, 1.0, 1e-3);
  ASSERT_EQ(r.status, SimulationStatus::completed);
  const Index c = static_cast<Index>(r.velocity_names.size()) - 1;
  ASSERT_EQ(r.velocity_names[c], "axle.v");
  EXPECT_NEAR(r.v.front()[c], 3.0, 1e-15);  // the body's ω is consistent with the hinge
  EXPECT_NEAR(r.v.back()[c], 3.0 * std::exp(-0.25 * r.t.back() / 0.5), 1e-6);
}

// A passive six-link arm (hinges about alternating axes, fixed base, no contacts, no damping)
// released horizontal: the free flight is taken at the step's midpoint, so the energy error is
// second order. The largest |E(t) − E(0)| over 1 s at h = 1, 0.5, 0.25 ms: each halving divides it
// by 3.5 at least (4 for h²; measured 3.32e-4, 8.24e-5, 2.05e-5 J since M̂ is taken at the
// midpoint for both halves of the step, 3.51e-4, 8.73e-5, 2.18e-5 J before).
TEST(JointCoordinates, PassiveArmEnergyErrorFallsWithTheStep) {
  auto arm = [] {
    auto w = std::make_shared<RigidWorld>(3);
    for (int i = 0; i < 6; ++i) {
      RigidBody link = block("link" + std::to_string(i), Vector3(0.1 + 0.2 * i, 0, 0),
                             1.0 - 0.1 * i, Vector3(0.002, 0.01, 0.01));
      w->add_body(link);
      Joint j;
      j.name = "q" + std::to_string(i);
      j.body_a = i;
      j.body_b = i - 1;
      j.anchor_a = Vector3(-0.1, 0, 0);
      j.anchor_b = i == 0 ? Vector3::Zero() : Vector3(0.1, 0, 0);
      j.axis_a = i % 2 ? Vector3::UnitZ() : Vector3::UnitY();
      w->add_joint(j);
    }
    return w;
  };
  double previous = 0.0;
  for (const double h : {1e-3, 5e-4, 2.5e-4}) {
    const SimulationResult r = run(arm(), 1.0, h);
    ASSERT_EQ(r.status, SimulationStatus::completed);
    ASSERT_EQ(r.solver_failures, 0);
    double worst = 0.0;
    for (Index k = 0; k < r.records(); ++k)
      worst = std::max(worst, std::abs(r.kinetic[k] + r.potential[k] - r.energy_initial));
    if (previous > 0.0) {
      EXPECT_LT(worst, previous / 3.5) << "h = " << h;
    }
    previous = worst;
  }
}

// The same arm hanging down, set swinging gently about both axes (every link moving at 0.3 and
// 0.2 rad/s), for 60 s at h = 1 ms: no secular energy drift. The error oscillates about a constant
// mean (measured −1.97e-7 J in every 10 s window, largest 3.6e-7 J); a drift would make the last
// window's error grow past the first's. Checked: the last 10 s's largest error is within 1.25 × the
// first 10 s's, and the two windows' mean errors differ by less than a tenth of it.
TEST(JointCoordinates, PassiveArmHasNoSecularEnergyDrift) {
  auto w = std::make_shared<RigidWorld>(3);
  for (int i = 0; i < 6; ++i) {
    const double r = 0.1 + 0.2 * i;  // the link's centre below the base
    RigidBody link = block("link" + std::to_string(i), Vector3(0, 0, -r), 1.0 - 0.1 * i,
                           Vector3(0.01, 0.01, 0.002));
    link.linear_velocity = Vector3(0.3 * r, 0.2 * r, 0);
    w->add_body(link);
    Joint j;
    j.name = "q" + std::to_string(i);
    j.body_a = i;
    j.body_b = i - 1;
    j.anchor_a = Vector3(0, 0, 0.1);
    j.anchor_b = i == 0 ? Vector3::Zero() : Vector3(0, 0, -0.1);
    j.axis_a = i % 2 ? Vector3::UnitX() : Vector3::UnitY();
    w->add_joint(j);
  }
  const SimulationResult r = run(w, 60.0, 1e-3);
  ASSERT_EQ(r.status, SimulationStatus::completed);
  ASSERT_EQ(r.solver_failures, 0);
  auto window = [&](double t0) {  // (largest |ΔE|, mean ΔE) over [t0, t0 + 10)
    double worst = 0.0, sum = 0.0;
    int n = 0;
    for (Index k = 0; k < r.records(); ++k)
      if (r.t[k] >= t0 && r.t[k] < t0 + 10.0) {
        const double e = r.kinetic[k] + r.potential[k] - r.energy_initial;
        worst = std::max(worst, std::abs(e));
        sum += e;
        ++n;
      }
    return std::pair{worst, sum / n};
  };
  const auto [first_max, first_mean] = window(0.0);
  const auto [last_max, last_mean] = window(50.0);
  EXPECT_GT(first_max, 0.0);
  EXPECT_LT(last_max, 1.25 * first_max);
  EXPECT_LT(std::abs(last_mean - first_mean), 0.1 * first_max);
}

// A step's contact records give the gap after the step, from the new detection, also when a
// joint bound leaves the step's reach during the step (its constraint drops out of the new step
// state and the indices of the others shift). A box 0.5 µm above a floor falls at 1 cm/s onto
// it, while a hinged link, listed first, leaves its upper bound at 50 rad/s.
TEST(JointCoordinates, ContactRecordsHoldTheGapAfterTheStep) {
  auto w = std::make_shared<RigidWorld>(3);
  RigidBody floor;
  floor.name = "floor";
  floor.is_static = true;
  floor.shapes.push_back(make_plane(Vector3::UnitZ()));
  w->add_body(floor);
  RigidBody arm = block("arm", Vector3(0.2, 0, 1), 1.0, Vector3(0.01, 0.02, 0.02));
  w->add_body(arm);
  RigidBody box = block("box", Vector3(2, 0, 0.05 + 5e-7), 1.0, Vector3(0.01, 0.01, 0.01));
  box.shapes.push_back(make_box(Vector3(0.05, 0.05, 0.05)));
  w->add_body(box);
  Joint pin =
      moreau::test::hinge(1, -1, Vector3(-0.2, 0, 0), Vector3(0, 0, 1), Vector3::UnitY(), "pin");
  pin.limited = true;
  pin.lower = -1.0;
  pin.upper = 0.0;  // the link starts at its upper bound
  w->add_joint(pin);
  const RigidWorldSystem sys(w);
  ASSERT_TRUE(sys.articulated());
  Vector v = Vector::Zero(sys.velocity_size());
  v[0] = -50.0;      // the pin leaves its upper bound
  v[1 + 2] = -0.01;  // the box's v_z
  const ContactState start = sys.step_state(sys.initial_q, v, 0.0, 0.5e-3, 1e-6);
  ASSERT_TRUE(std::any_of(start.constraints.begin(), start.constraints.end(),
                          [](const ContactConstraint& c) { return c.name == "pin/upper"; }));
  SimulationSettings st;
  st.t_end = 1e-3;
  st.time_stepping.dt = 1e-3;
  const SimulationResult r = simulate(sys, st, sys.initial_q, v);
  ASSERT_EQ(r.status, SimulationStatus::completed) << r.message;
  int corners = 0;
  for (const ContactRecord& rec : r.contacts) {
    const std::string& name = r.contact_names[static_cast<size_t>(rec.contact)];
    if (name.find("box") == std::string::npos) continue;
    ++corners;
    EXPECT_LT(std::abs(rec.gap), 1e-7) << name << " " << rec.gap;  // not the 5e-7 before it
  }
  EXPECT_GE(corners, 4);  // the four corners of the box's bottom face
}
