// Compliant 3D impact of Jia 2010 (docs/math/impact.md). Expected values are derived in the
// comments or taken from the paper's printed figures (B1–B18 of its ball, §3.1).
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "moreau/impact/compliant_impact.hpp"

namespace moreau {
namespace {

// The ball of Jia 2010 §3.1: m = 1, r = 1, Q = (2/5) m r², V0 = (−1, 0, −5), ω0 = (0, 2, 0),
// contact point (0, 0, −1) on the ground (n̂ = ẑ): v0 = V0 + ω0 × (−ẑ) = (−3, 0, −5).
RigidBodyScene ball(double mu = 0.4, double e = 0.5, double nu = 0.3) {
  RigidBodyScene s;
  RigidBody b;
  b.name = "ball";
  b.mass = 1.0;
  b.inertia = 0.4 * Matrix3::Identity();
  b.linear_velocity = Vector3(-1, 0, -5);
  b.angular_velocity = Vector3(0, 2, 0);
  s.bodies.push_back(b);
  BodyContact c;
  c.body_a = "ball";
  c.point = Vector3(0, 0, -1);
  c.normal = Vector3::UnitZ();
  c.mu = mu;
  c.e = e;
  c.eta0_squared = eta0_squared_from_poisson(nu);
  s.contacts.push_back(c);
  return s;
}

const CompliantEvent* find_event(const CompliantImpactResult& r, const std::string& kind) {
  for (const CompliantEvent& e : r.contacts[0].events)
    if (e.kind == kind) return &e;
  return nullptr;
}

CompliantImpactResult run(const RigidBodyScene& s, CompliantVariant v, double h = 0.0) {
  CompliantImpactSettings st;
  st.variant = v;
  st.step = h;
  return compliant_impact(s, st);
}

// Ball, initial slip (‖v0⊥‖ = 3 > μη0²|v0z| = 2.43). While slipping I⊥′ = μ (against v0⊥), so
// v_u(p) = −s0 + (7/2m) μ p and the spring rate u̇ = −μη0²(|v0z| − p/m); stick starts when they
// meet: p* = m (s0 − μη0²|v0z|)/(μ(7/2 − η0²)) — for μ = 0.4 this is (3 − 5μη0²)/(1.4 − μη0²).
// The impact quantities come from the bodies' RigidWorld: a body turned by R about (1, 2, 2)/3
// with body-axes inertia diag(0.3, 0.4, 0.5) has the world inertia R I Rᵀ in M, its inverse in
// M⁻¹, and the kinetic energy ½ m V² + ½ ωᵀ R I Rᵀ ω, all computed here by hand.
TEST(ImpactWorld, OrientedBodyMassAndEnergy) {
  RigidBodyScene s = ball();
  RigidBody& b = s.bodies[0];
  b.inertia = Vector3(0.3, 0.4, 0.5).asDiagonal();
  b.pose.orientation = Quaternion(Eigen::AngleAxisd(0.7, Vector3(1, 2, 2) / 3.0));
  b.angular_velocity = Vector3(0.2, -1.0, 0.5);
  const Matrix3 R = b.pose.orientation.toRotationMatrix(), Q = R * b.inertia * R.transpose();
  const Matrix M = scene_mass_matrix(s), Minv = scene_inverse_mass_matrix(s);
  EXPECT_LT((M.bottomRightCorner<3, 3>() - Q).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_LT((M.topLeftCorner<3, 3>() - b.mass * Matrix3::Identity()).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_LT((M * Minv - Matrix::Identity(6, 6)).cwiseAbs().maxCoeff(), 1e-12);
  const double T = 0.5 * b.mass * b.linear_velocity.squaredNorm() +
                   0.5 * b.angular_velocity.dot(Q * b.angular_velocity);
  EXPECT_NEAR(scene_kinetic_energy(s), T, 1e-12);
  EXPECT_EQ(impact_world(s).body(0).name, b.name);
}

TEST(CompliantImpact, BallSlipToStickPointIsAnalytic) {
  for (CompliantVariant v : {CompliantVariant::model, CompliantVariant::published}) {
    for (double mu : {0.3, 0.4, 0.45}) {
      const double eta2 = eta0_squared_from_poisson(0.3);
      const CompliantImpactResult r = run(ball(mu), v, 0.05);
      ASSERT_EQ(r.status, ImpactStatus::resolved);
      ASSERT_EQ(r.contacts[0].events.front().kind, "start_slip");
      const CompliantEvent* e = find_event(r, "slip_to_stick");
      ASSERT_NE(e, nullptr);
      const double expected = (3.0 - 5.0 * mu * eta2) / (mu * (3.5 - eta2));
      EXPECT_NEAR(e->normal_impulse, expected, 1e-9) << "mu " << mu;
      if (mu == 0.4) {
        EXPECT_NEAR(expected, (3 - 5 * mu * eta2) / (1.4 - mu * eta2), 1e-14);
      }
    }
  }
}

// v_n = v0z + I_z/m for the ball, so compression ends at I_z = −m v0z = 5; E_n(I_c) = ½ m v0z²,
// dropped to e²·½ m v0z², then E_n = e²½mv0z² − (p − I_c)²/(2m) vanishes at p = (1 + e)(−m v0z).
TEST(CompliantImpact, BallEndsOfCompressionAndRestitution) {
  for (double e : {0.2, 0.5, 0.9}) {
    const CompliantImpactResult r = run(ball(0.4, e), CompliantVariant::model, 0.05);
    const CompliantEvent* c = find_event(r, "end_of_compression");
    const CompliantEvent* f = find_event(r, "end_of_restitution");
    ASSERT_NE(c, nullptr);
    ASSERT_NE(f, nullptr);
    EXPECT_NEAR(c->normal_impulse, 5.0, 1e-9);
    EXPECT_NEAR(f->normal_impulse, (1.0 + e) * 5.0, 1e-9);
    EXPECT_NEAR(r.post.bodies[0].linear_velocity.z(), 5.0 * e, 1e-9);
    EXPECT_EQ(r.contacts[0].events.back().kind, "end_of_restitution");
  }
}

// Published figures of Jia 2010 §3.1 (B1, B2, B5–B12 of docs/math/impact.md) reproduced by the
// 'published'
// reading (effective friction μe while slipping in restitution). Tolerances reflect the paper's
// own discretization (its slip→stick 0.62485 vs the exact 0.625).
TEST(CompliantImpact, PublishedReadingReproducesBallFigures) {
  const CompliantImpactResult r = run(ball(), CompliantVariant::published, 0.01);
  ASSERT_EQ(r.status, ImpactStatus::resolved);
  const RigidBody& b = r.post.bodies[0];
  EXPECT_NEAR(b.linear_velocity.x(), 0.570982, 2e-5);  // B1
  EXPECT_NEAR(b.linear_velocity.y(), 0.0, 1e-12);
  EXPECT_NEAR(b.linear_velocity.z(), 2.5, 1e-9);
  EXPECT_NEAR(b.angular_velocity.y(), -1.92746, 5e-5);  // B2
  std::vector<std::string> kinds;
  for (const CompliantEvent& e : r.contacts[0].events) kinds.push_back(e.kind);
  EXPECT_EQ(kinds, (std::vector<std::string>{"start_slip", "slip_to_stick", "end_of_compression",
                                             "stick_to_slip", "end_of_restitution"}));  // B4
  EXPECT_NEAR(find_event(r, "slip_to_stick")->normal_impulse, 0.62485, 2e-4);           // B5
  EXPECT_NEAR(find_event(r, "stick_to_slip")->normal_impulse, 7.36575, 3e-4);           // B7
  EXPECT_NEAR(find_event(r, "slip_to_stick")->velocity[1], -2.12528, 5e-4);  // B11 (v_u = u̇)
  EXPECT_NEAR(find_event(r, "stick_to_slip")->velocity[1], 2.59255, 2e-4);   // B12 before jump
  EXPECT_NEAR(r.contacts[0].events.back().velocity[1], 2.49847, 1e-4);       // B9 end v⊥
  // B3 (13.4 → 3.65997) is inconsistent with the paper's own Q = (2/5)mr², which gives
  // 13.8 → 4.031.
  EXPECT_NEAR(r.kinetic_energy_before, 13.8, 1e-12);
  EXPECT_NEAR(r.kinetic_energy_after, 4.03103, 1e-4);
  // B16–B18: extremum of V_x at μ ≈ 0.36 and the Poisson sweep end points.
  const CompliantImpactResult r36 = run(ball(0.36), CompliantVariant::published, 0.02);
  EXPECT_NEAR(r36.post.bodies[0].linear_velocity.x(), 0.57591, 1e-4);
  EXPECT_NEAR(r36.post.bodies[0].angular_velocity.y(), -1.93976, 2e-4);
  const CompliantImpactResult nu0 = run(ball(0.4, 0.5, 0.0), CompliantVariant::published, 0.02);
  EXPECT_NEAR(nu0.post.bodies[0].linear_velocity.x(), 0.45729, 1e-4);
  EXPECT_NEAR(nu0.post.bodies[0].angular_velocity.y(), -1.64322, 1e-4);
  const CompliantImpactResult nu5 = run(ball(0.4, 0.5, 0.5), CompliantVariant::published, 0.02);
  EXPECT_NEAR(nu5.post.bodies[0].linear_velocity.x(), 0.66507, 1e-3);
  EXPECT_NEAR(nu5.post.bodies[0].angular_velocity.y(), -2.16266, 2e-3);
}

// The default 'model' reading shares the events B5–B8 and B12's stick velocity but slips with μ
// in restitution: over [p_r, 7.5] I_u changes by μ Δp instead of μe Δp, so V_x differs from B1.
TEST(CompliantImpact, ModelReadingDiffersOnlyInRestitutionSlip) {
  const CompliantImpactResult m = run(ball(), CompliantVariant::model, 0.01);
  const CompliantImpactResult p = run(ball(), CompliantVariant::published, 0.01);
  const double pr = find_event(m, "stick_to_slip")->normal_impulse;
  EXPECT_NEAR(pr, find_event(p, "stick_to_slip")->normal_impulse, 1e-9);
  EXPECT_NEAR(pr, 7.36575, 3e-4);
  const double Iu_r = find_event(m, "stick_to_slip")->impulse[1];
  // Slip against v_u > 0: dI_u/dp = −μ (model) or −μe (published) until p = 7.5.
  EXPECT_NEAR(m.contacts[0].impulse.x(), Iu_r - 0.4 * (7.5 - pr), 1e-8);
  EXPECT_NEAR(p.contacts[0].impulse.x(), Iu_r - 0.4 * 0.5 * (7.5 - pr), 1e-8);
  EXPECT_GT(std::abs(m.post.bodies[0].linear_velocity.x() - 0.570982), 0.02);
}

// Theorem 1 of Jia 2010: for a ball the impulse stays in the vertical plane of v0⊥ (I_w ≡ 0), for
// any
// direction of v0⊥ and any spin.
TEST(CompliantImpact, BallImpulseStaysInVerticalPlane) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> U(-3.0, 3.0);
  for (int trial = 0; trial < 5; ++trial) {
    RigidBodyScene s = ball(0.3 + 0.05 * trial);
    s.bodies[0].linear_velocity = Vector3(U(gen), U(gen), -2.0 - std::abs(U(gen)));
    s.bodies[0].angular_velocity = Vector3(U(gen), U(gen), U(gen));
    for (CompliantVariant v : {CompliantVariant::model, CompliantVariant::published}) {
      const CompliantImpactResult r = run(s, v, 0.02);
      ASSERT_EQ(r.status, ImpactStatus::resolved);
      double maxw = 0.0, maxu = 0.0;
      for (const Vector3& I : r.contacts[0].curve.impulse) {
        maxw = std::max(maxw, std::abs(I[2]));
        maxu = std::max(maxu, std::abs(I[1]));
      }
      EXPECT_GT(maxu, 0.1);
      EXPECT_LT(maxw, 1e-10 * maxu);
      EXPECT_LT(std::abs(r.contacts[0].impulse.dot(r.contacts[0].frame.col(2))), 1e-10);
    }
  }
}

// Rotating the whole problem (positions, normals, velocities, inertia Q → RQRᵀ) rotates the answer.
TEST(CompliantImpact, FrameInvariance) {
  RigidBodyScene s = ball();
  s.bodies[0].inertia << 0.5, 0.05, 0.0, 0.05, 0.4, 0.02, 0.0, 0.02, 0.3;  // a generic body
  s.bodies[0].angular_velocity = Vector3(0.7, 2.0, -0.4);
  s.bodies[0].linear_velocity = Vector3(-1.0, 0.8, -5.0);
  const Matrix3 R = (Eigen::AngleAxisd(0.7, Vector3(1, 2, 3).normalized()) *
                     Eigen::AngleAxisd(-1.1, Vector3::UnitZ()))
                        .toRotationMatrix();
  RigidBodyScene t = s;
  t.bodies[0].inertia = R * s.bodies[0].inertia * R.transpose();
  t.bodies[0].pose.position = R * s.bodies[0].pose.position + Vector3(0.3, -2.0, 1.0);
  t.bodies[0].linear_velocity = R * s.bodies[0].linear_velocity;
  t.bodies[0].angular_velocity = R * s.bodies[0].angular_velocity;
  t.contacts[0].point = R * s.contacts[0].point + Vector3(0.3, -2.0, 1.0);
  t.contacts[0].normal = R * s.contacts[0].normal;
  for (CompliantVariant v : {CompliantVariant::model, CompliantVariant::published}) {
    const CompliantImpactResult a = run(s, v, 0.01), b = run(t, v, 0.01);
    EXPECT_LT((R * a.post.bodies[0].linear_velocity - b.post.bodies[0].linear_velocity).norm(),
              1e-9);
    EXPECT_LT((R * a.post.bodies[0].angular_velocity - b.post.bodies[0].angular_velocity).norm(),
              1e-9);
    EXPECT_LT((R * a.contacts[0].impulse - b.contacts[0].impulse).norm(), 1e-9);
    ASSERT_EQ(a.contacts[0].events.size(), b.contacts[0].events.size());
    for (size_t k = 0; k < a.contacts[0].events.size(); ++k)
      EXPECT_NEAR(a.contacts[0].events[k].normal_impulse, b.contacts[0].events[k].normal_impulse,
                  1e-9);
  }
}

// The result converges as the impulse step shrinks. On this generic body the contact starts
// slipping with a turning slip direction (stiff as the cone radius → 0), so the observed order is
// irregular (≈ 1 to 4 per halving, measured); over three halvings the error falls by > 2⁶, and the
// Richardson estimate is within a factor 3 of the true error (against a fine reference).
TEST(CompliantImpact, ConvergesInTheStep) {
  RigidBodyScene s = ball();
  s.bodies[0].inertia << 0.5, 0.05, 0.0, 0.05, 0.4, 0.02, 0.0, 0.02, 0.3;
  s.bodies[0].angular_velocity = Vector3(0.7, 2.0, -0.4);
  const CompliantImpactResult ref = run(s, CompliantVariant::model, 0.002);
  std::vector<double> err;
  for (double h : {0.2, 0.1, 0.05, 0.025}) {
    const CompliantImpactResult r = run(s, CompliantVariant::model, h);
    EXPECT_EQ(r.step, h);
    // Same measure as the estimate: max |Δ| over the post-impact (V, ω) and the impulse.
    const double e =
        std::max({(r.post.bodies[0].linear_velocity - ref.post.bodies[0].linear_velocity)
                      .cwiseAbs()
                      .maxCoeff(),
                  (r.post.bodies[0].angular_velocity - ref.post.bodies[0].angular_velocity)
                      .cwiseAbs()
                      .maxCoeff(),
                  (r.contacts[0].impulse - ref.contacts[0].impulse).cwiseAbs().maxCoeff()});
    err.push_back(e);
    EXPECT_LT(e, 3.0 * r.error_estimate + 1e-13) << h;
    EXPECT_GT(r.error_estimate, 0.0);
  }
  EXPECT_GT(err[0], 1e-9);  // the coarse step has a visible error
  EXPECT_GT(err[0] / err[3], 64.0);
}

// Energy: frictionless and e = 1 conserves T; otherwise the impact never gains energy.
TEST(CompliantImpact, EnergyBalance) {
  const CompliantImpactResult el = run(ball(0.0, 1.0), CompliantVariant::model, 0.05);
  EXPECT_NEAR(el.kinetic_energy_after, el.kinetic_energy_before, 1e-10);
  EXPECT_NEAR(el.post.bodies[0].linear_velocity.x(), -1.0, 1e-12);  // no tangential impulse
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  for (int trial = 0; trial < 10; ++trial) {
    RigidBodyScene s = ball(U(gen), U(gen), 0.5 * U(gen));
    s.bodies[0].angular_velocity = Vector3(4 * U(gen) - 2, 4 * U(gen) - 2, 4 * U(gen) - 2);
    for (CompliantVariant v : {CompliantVariant::model, CompliantVariant::published}) {
      const CompliantImpactResult r = run(s, v, 0.05);
      EXPECT_LE(r.kinetic_energy_after, r.kinetic_energy_before + 1e-9);
    }
  }
}

// Two simultaneous contacts (the structure of Jia 2010 §4): a frictionless ball dropped into a
// symmetric V-groove gets equal impulses from both faces and keeps V_x = 0; with e = 1 the
// energy is conserved; the normal impulses end where their restitution ends.
TEST(CompliantImpact, TwoContactsSymmetricGroove) {
  RigidBodyScene s;
  RigidBody b;
  b.name = "ball";
  b.inertia = 0.4 * Matrix3::Identity();
  b.linear_velocity = Vector3(0, 0, -2);
  s.bodies.push_back(b);
  const double a = 0.6;
  for (double sgn : {1.0, -1.0}) {
    BodyContact c;
    c.body_a = "ball";
    c.normal = Vector3(-sgn * std::sin(a), 0, std::cos(a));
    c.point = -c.normal;
    c.e = 1.0;
    s.contacts.push_back(c);
  }
  const CompliantImpactResult r = run(s, CompliantVariant::model, 0.01);
  ASSERT_EQ(r.status, ImpactStatus::resolved);
  EXPECT_NEAR(r.post.bodies[0].linear_velocity.x(), 0.0, 1e-10);
  EXPECT_NEAR(r.contacts[0].impulse.z(), r.contacts[1].impulse.z(), 1e-10);
  EXPECT_NEAR(r.kinetic_energy_after, r.kinetic_energy_before, 1e-9);
  EXPECT_GT(r.post.bodies[0].linear_velocity.z(), 0.0);
  EXPECT_EQ(r.contacts[1].events.back().kind, "end_of_restitution");
}

// A ball pressed onto the table by a cue (massé structure): the table contact starts at rest and
// is closed by the other impulse — it appears with a 'recontact' event.
TEST(CompliantImpact, SecondContactClosedByTheFirst) {
  RigidBodyScene s;
  RigidBody ballb;
  ballb.name = "ball";
  ballb.inertia = 0.4 * Matrix3::Identity();
  ballb.pose.position = Vector3(0, 0, 1);
  s.bodies.push_back(ballb);
  RigidBody cue;
  cue.name = "cue";
  cue.mass = 2.0;
  cue.inertia = 0.1 * Matrix3::Identity();
  const Vector3 axis = Vector3(-0.5, 0, std::sqrt(3.0) / 2);
  cue.pose.position = ballb.pose.position + 2.0 * axis;
  cue.linear_velocity = -3.0 * axis;
  s.bodies.push_back(cue);
  BodyContact c1;
  c1.body_a = "ball";
  c1.body_b = "cue";
  c1.point = ballb.pose.position + axis;
  c1.normal = -axis;
  c1.mu = 0.5;
  c1.e = 0.7;
  c1.eta0_squared = 1.2;
  BodyContact c2;
  c2.body_a = "ball";
  c2.point = Vector3::Zero();
  c2.mu = 0.2;
  c2.e = 0.5;
  c2.eta0_squared = 1.2;
  s.contacts = {c1, c2};
  const CompliantImpactResult r = run(s, CompliantVariant::model, 0.005);
  ASSERT_EQ(r.status, ImpactStatus::resolved);
  ASSERT_FALSE(r.contacts[1].events.empty());
  EXPECT_EQ(r.contacts[1].events.front().kind, "recontact");
  EXPECT_GT(r.contacts[1].impulse.z(), 0.0);
  EXPECT_LE(r.kinetic_energy_after, r.kinetic_energy_before + 1e-9);
  // Linear momentum: the ground's impulse is the only external one.
  const Vector3 P = r.post.bodies[0].linear_velocity * 1.0 + r.post.bodies[1].linear_velocity * 2.0;
  EXPECT_LT((P - (cue.linear_velocity * 2.0 + r.contacts[1].impulse)).norm(), 1e-10);
}

TEST(CompliantImpact, NoImpactWhenSeparating) {
  RigidBodyScene s = ball();
  s.bodies[0].linear_velocity.z() = 1.0;
  const CompliantImpactResult r = run(s, CompliantVariant::model);
  EXPECT_EQ(r.status, ImpactStatus::no_impact);
  EXPECT_EQ(r.post.bodies[0].linear_velocity, s.bodies[0].linear_velocity);
}

TEST(CompliantImpact, BadInputIsRefused) {
  RigidBodyScene s = ball();
  s.bodies[0].mass = -1.0;
  EXPECT_THROW(compliant_impact(s), std::invalid_argument);
  s = ball();
  s.bodies[0].inertia(2, 2) = -0.1;
  EXPECT_THROW(compliant_impact(s), std::invalid_argument);
  s = ball();
  s.contacts[0].e = 1.5;
  EXPECT_THROW(compliant_impact(s), std::invalid_argument);
  s = ball();
  s.contacts[0].normal = Vector3::Zero();
  EXPECT_THROW(compliant_impact(s), std::invalid_argument);
  s = ball();
  s.contacts[0].body_b = "table";
  EXPECT_THROW(compliant_impact(s), std::invalid_argument);
  CompliantImpactSettings st;
  st.step = -1.0;
  EXPECT_THROW(compliant_impact(ball(), st), std::invalid_argument);
  EXPECT_THROW(compliant_variant_from_string("paper"), std::invalid_argument);
  EXPECT_THROW(eta0_squared_from_poisson(0.7), std::invalid_argument);
  try {
    s = ball();
    s.bodies[0].mass = -2.5;
    compliant_impact(s);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("-2.5"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("mass"), std::string::npos);
  }
}

}  // namespace
}  // namespace moreau
