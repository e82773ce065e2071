// Acceleration- and velocity-level problem data (as Drake's ConstraintAccelProblemData and
// ConstraintVelProblemData) on gallery systems with closed
// forms: the 1×1 sliding matrix is the α of the unilateral-contact notes (4.16) and the free
// normal acceleration is −β.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "moreau/contact/acceleration_problem.hpp"
#include "moreau/contact/velocity_problem.hpp"
#include "moreau/contact/gallery.hpp"

using namespace moreau;

// painleve_rod (uniform rod, centre coordinates, θ from the floor, l = L/2, I = m l²/3):
// ∇h = (0, 1, −l cos θ), H_t = (1, 0, l sin θ), M⁻¹ = diag(1/m, 1/m, 3/(m l²)), σ = sgn(ẋ_end):
// α = ∇hᵀM⁻¹(∇h − σμH_t) = (1 + 3cos²θ + 3σμ sin θ cos θ)/m, β = ∇hᵀM⁻¹F − c_n = g − l θ̇² sin θ.
TEST(AccelerationProblem, PainleveRodAlphaBeta) {
  for (double sigma : {-1.0, 1.0}) {
    const double m = 1.7, L = 1.2, th = 0.8, w = 1.5, mu = 0.9, g = 9.81, l = L / 2;
    auto sys = make_gallery_system("painleve_rod", {{"mass", m},
                                                    {"length", L},
                                                    {"theta", th},
                                                    {"theta_dot", w},
                                                    {"x_dot", sigma * 0.5},
                                                    {"mu", mu}});
    const AccelerationProblem p =
        build_acceleration_problem(sys->contact_state(sys->initial_q, sys->initial_v, 0));
    ASSERT_EQ(p.size(), 1);
    EXPECT_TRUE(p.sliding[0]);
    EXPECT_EQ(p.slip_direction(0, 0), sigma);
    const double c = std::cos(th), s = std::sin(th);
    EXPECT_NEAR(p.sliding_matrix(0, 0), (1 + 3 * c * c + 3 * sigma * mu * s * c) / m, 1e-12);
    EXPECT_NEAR(-p.free_normal_acceleration[0], g - l * w * w * s, 1e-12);
    EXPECT_NEAR(p.delassus_nn(0, 0), (1 + 3 * c * c) / m, 1e-12);
    EXPECT_NEAR(p.delassus_nt(0, 0), -3 * s * c / m, 1e-12);
    EXPECT_TRUE(p.mass_positive_definite);
  }
}

// Falling pencil at σ = ±1: α = [I_c + mℓ²(sin²θ − σμ sin θ cos θ)]/(m I_c) (the notes print mℓ²
// for the denominator; docs/math/painleve.md), β = g − ℓθ̇² cos θ.
TEST(AccelerationProblem, PencilAlphaCorrectedDenominator) {
  for (double sigma : {-1.0, 1.0}) {
    const double m = 1.0, l = 0.5, a = 0.75, th = 0.4, w = 1.1, mu = 0.6, g = 9.81;
    auto sys = make_gallery_system("falling_pencil", {{"mass", m},
                                                      {"ell", l},
                                                      {"alpha", a},
                                                      {"theta", th},
                                                      {"theta_dot", w},
                                                      {"x_dot", sigma},
                                                      {"mu", mu}});
    const AccelerationProblem p =
        build_acceleration_problem(sys->contact_state(sys->initial_q, sys->initial_v, 0));
    const double Ic = m * l * l * (1 / a - 1), s = std::sin(th), c = std::cos(th);
    EXPECT_NEAR(p.sliding_matrix(0, 0), (Ic + m * l * l * (s * s - sigma * mu * s * c)) / (m * Ic),
                1e-10);
    EXPECT_NEAR(-p.free_normal_acceleration[0], g - l * w * w * c, 1e-10);
  }
}

// Rocking block (Brogliato, Kövecses & Acary 2020 Ex. 2): only A2 is active; Baumgarte bias
// kN = 2αġ + β²g and γ are copied.
TEST(AccelerationProblem, ActiveSetAndBias) {
  auto sys = make_gallery_system("rocking_block");
  ContactState s = sys->contact_state(sys->initial_q, sys->initial_v, 0);
  AccelerationProblem p = build_acceleration_problem(s);
  ASSERT_EQ(p.size(), 1);
  EXPECT_EQ(p.active[0], 1);
  EXPECT_FALSE(p.sliding[0]);
  s.constraints[1].gap = 1e-12;
  s.constraints[1].baumgarte_beta = 3.0;
  s.constraints[1].gamma = 0.01;
  p = build_acceleration_problem(s);
  EXPECT_NEAR(p.kN[0], 9.0 * 1e-12, 1e-20);
  EXPECT_EQ(p.gamma[0], 0.01);
  // Two-contact block (Ex. 1): both corners, delassus symmetric, sliding matrix = delassus (no
  // slip).
  auto b2 = make_gallery_system("block_two_contacts");
  const AccelerationProblem q =
      build_acceleration_problem(b2->contact_state(b2->initial_q, b2->initial_v, 0));
  ASSERT_EQ(q.size(), 2);
  EXPECT_LT((q.sliding_matrix - q.delassus_nn).cwiseAbs().maxCoeff(), 1e-15);
  // Ex. 1: A_tt = (1/m + 3l²/(m(l²+L²)))·[[1,1],[1,1]] = 1.6·ones for m = 1, l = 1, L = 2.
  EXPECT_NEAR(q.delassus_tt(0, 1), 1.6, 1e-12);
  EXPECT_NEAR(q.delassus_tt(0, 0), 1.6, 1e-12);
}

// An explicit constraint set (the held constraints of a hybrid mode) is taken whatever the gaps:
// the rocking block's open corner A1 joins A2; its bias kN = 2αġ + β²g uses its own gap, the
// tangential bias is kT = 2α v_t, and M·(M⁻¹N) = N. A bad index is refused.
TEST(AccelerationProblem, ExplicitActiveSetTakesOpenContacts) {
  auto sys = make_gallery_system("rocking_block");
  ContactState s = sys->contact_state(sys->initial_q, sys->initial_v, 0);
  s.v = Vector::LinSpaced(s.dofs(), 0.3, -0.4);
  for (auto& c : s.constraints) {
    c.baumgarte_alpha = 2.0;
    c.baumgarte_beta = 5.0;
  }
  ASSERT_GT(s.constraints[0].gap, 1e-3);
  const AccelerationProblem p = build_acceleration_problem(s, {0, 1}, 1e-9);
  ASSERT_EQ(p.size(), 2);
  for (Index j = 0; j < 2; ++j) {
    const auto& c = s.constraints[j];
    const double gdot = c.normal.dot(s.v), vt = c.tangent.col(0).dot(s.v);
    EXPECT_NEAR(p.kN[j], 2.0 * 2.0 * gdot + 25.0 * c.gap, 1e-12);
    EXPECT_NEAR(p.kT[j], 2.0 * 2.0 * vt, 1e-12);
  }
  EXPECT_LT((s.M * p.mass_inverse_N - p.N).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((s.M * p.mass_inverse_T - p.T).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_LT((p.delassus_nn - p.N.transpose() * s.M.inverse() * p.N).cwiseAbs().maxCoeff(), 1e-12);
  EXPECT_THROW(build_acceleration_problem(s, {1, 0}, 1e-9), std::invalid_argument);
  EXPECT_THROW(build_acceleration_problem(s, {0, 7}, 1e-9), std::invalid_argument);
}

// Velocity level: v* = v + h M⁻¹(−F); W = Hᵀ M⁻¹ H; particle on a line: W = I/m, q = (v*_y, v*_x).
TEST(VelocityProblem, ParticleOnRoughLine) {
  auto sys = make_gallery_system("particle_on_rough_line",
                                 {{"mass", 2.0}, {"x_dot", 1.5}, {"y_dot", 0.0}});
  const VelocityProblem p =
      build_velocity_problem(sys->contact_state(sys->initial_q, sys->initial_v, 0), 0.01);
  ASSERT_EQ(p.active.size(), 1u);
  EXPECT_NEAR(p.v_free[1], -0.0981, 1e-14);
  EXPECT_NEAR(p.W(0, 0), 0.5, 1e-15);
  EXPECT_NEAR(p.W(1, 1), 0.5, 1e-15);
  EXPECT_NEAR(p.q[0], -0.0981, 1e-14);
  EXPECT_NEAR(p.q[1], 1.5, 1e-14);
  const FrictionContactProblem fc = to_friction_contact_problem(p);
  EXPECT_EQ(fc.contacts(), 1);
  EXPECT_EQ(fc.mu[0], 0.2);
  EXPECT_THROW(build_velocity_problem(sys->contact_state(sys->initial_q, sys->initial_v, 0), -1.0),
               std::invalid_argument);
  auto pend = make_gallery_system("constrained_pendulum");
  const VelocityProblem pb =
      build_velocity_problem(pend->contact_state(pend->initial_q, pend->initial_v, 0), 0.0);
  EXPECT_THROW(to_friction_contact_problem(pb), std::invalid_argument);
}

// Singular M (pencil with α = 1, I_c = 0): the pseudo-inverse path is flagged.
TEST(AccelerationProblem, SingularMassIsFlagged) {
  auto sys = make_gallery_system("falling_pencil", {{"alpha", 1.0}});
  const AccelerationProblem p =
      build_acceleration_problem(sys->contact_state(sys->initial_q, sys->initial_v, 0));
  EXPECT_FALSE(p.mass_positive_definite);
}
