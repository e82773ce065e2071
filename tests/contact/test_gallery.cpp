// Gallery systems: every one builds and validates, its default state closes the contacts it is
// about, its kinematics pass the finite-difference checks, and its matrices equal the papers'
// closed forms as corrected in docs/math/models.md (derived independently in the comments). Bad
// parameters are refused.
#include <gtest/gtest.h>

#include <cmath>

#include "../model/fd_check.hpp"
#include "moreau/contact/gallery.hpp"

using namespace moreau;

TEST(Gallery, EveryEntryBuildsValidatesAndMatchesFiniteDifferences) {
  ASSERT_EQ(gallery_names().size(), 14u);
  for (const auto& name : gallery_names()) {
    SCOPED_TRACE(name);
    auto sys = make_gallery_system(name);
    ASSERT_EQ(sys->initial_q.size(), sys->velocity_size());
    ASSERT_EQ(sys->initial_v.size(), sys->velocity_size());
    const ContactState s = sys->contact_state(sys->initial_q, sys->initial_v, 0.0);
    EXPECT_NO_THROW(s.validate());
    EXPECT_GE(s.size(), 1);
    // The first constraint of every gallery system is closed at its default state (the wheel, the
    // rod end, corner A1 of block_two_contacts, …) except rocking_block (A2 = constraint 1),
    // box_on_incline (back = 0) and three/two finger (all).
    const Index i = name == "rocking_block" ? 1 : 0;
    EXPECT_NEAR(s.constraints[i].gap, 0.0, 1e-12);
    if (name != "particle_on_rough_line" && name != "ball_chain") {
      EXPECT_NEAR(s.constraints[i].normal.dot(s.v), 0.0, 1e-12);
    }
    // Random perturbation of the state, FD check of ∇h, c_n, c_t.
    Vector q = sys->initial_q, v = sys->initial_v;
    for (Index k = 0; k < q.size(); ++k) {
      q[k] += 0.01 * std::sin(1.0 + k);
      v[k] += 0.3 * std::cos(2.0 + k);
    }
    test::expect_kinematics_match_fd(*sys, q, v);
  }
}

// Falling pencil (unilateral-contact notes (4.6)): the pencil's M in tip coordinates equals
// Jᵀ M_c J, with M_c = diag(m, m, I_c) in
// centre coordinates c = (x − ℓ sin θ, y + ℓ cos θ) and J = ∂(x_c, y_c, θ)/∂(x, y, θ)
// — an independent derivation of [[m, 0, −mℓc], [0, m, −mℓs], [−mℓc, −mℓs, I_c + mℓ²]].
TEST(Gallery, FallingPencilMassMatrixFromCentreCoordinates) {
  const double m = 1.3, l = 0.7, alpha = 0.8, th = 0.4;
  auto sys = make_gallery_system("falling_pencil",
                                 {{"mass", m}, {"ell", l}, {"alpha", alpha}, {"theta", th}});
  const double Ic = m * l * l * (1 / alpha - 1);
  Matrix J = Matrix::Identity(3, 3);
  J(0, 2) = -l * std::cos(th);
  J(1, 2) = -l * std::sin(th);
  const Matrix Mc = Vector3(m, m, Ic).asDiagonal();
  const ContactState s = sys->contact_state(sys->initial_q, sys->initial_v, 0);
  EXPECT_LT((s.M - J.transpose() * Mc * J).cwiseAbs().maxCoeff(), 1e-14);
  // Static F = (0, m g, −m g ℓ sin θ) (θ̇ = 0): the potential m g (y + ℓ cos θ) differentiated.
  EXPECT_NEAR(s.F[2], -m * 9.81 * l * std::sin(th), 1e-13);
  // α = 1 ⇒ I_c = 0 and M is singular (det M = m² I_c).
  auto point = make_gallery_system("falling_pencil", {{"alpha", 1.0}});
  const ContactState sp = point->contact_state(point->initial_q, point->initial_v, 0);
  EXPECT_NEAR(sp.M.determinant(), 0.0, 1e-14);
}

// Brogliato, Kövecses & Acary 2020 Ex. 3, M derived anew (the paper's (88) is wrong,
// docs/math/models.md): M = Σ over bodies of the Jacobians of the centres: block (x, y, θ) plus the
// pendulum centre p(q) = (x + (a/2)cos(α+θ) − (l/2)sin θ, y + (l/2)cos θ + (a/2) sin(α+θ)):
// M = diag(m, m, I_G, 0) + m̄ J_pᵀJ_p + I_p e_α e_αᵀ, with J_p by central differences here.
// The Coriolis part F(q, v) − F(q, 0) = Ṁ v − ½ ∂(vᵀMv)/∂q, again by differences of M.
TEST(Gallery, BlockPendulumMassAndCoriolisFromKinematics) {
  const double m = 1.2, l = 0.9, L = 1.1, mb = 0.6, a = 0.8, Ip = 0.05;
  auto sys = make_gallery_system("block_pendulum", {{"mass", m},
                                                    {"height", l},
                                                    {"width", L},
                                                    {"pendulum_mass", mb},
                                                    {"pendulum_length", a},
                                                    {"pendulum_inertia", Ip},
                                                    {"Fx", 0.0}});
  const double IG = m * (l * l + L * L) / 12;
  Vector q(4), v(4);
  q << 0.1, 0.5, 0.2, 0.7;
  v << 0.3, -0.2, 0.4, 1.1;
  auto centre = [&](const Vector& x) {
    return Vector2(x[0] + (a / 2) * std::cos(x[3] + x[2]) - (l / 2) * std::sin(x[2]),
                   x[1] + (l / 2) * std::cos(x[2]) + (a / 2) * std::sin(x[3] + x[2]));
  };
  const double eps = 1e-6;
  Matrix Jp(2, 4);
  for (int k = 0; k < 4; ++k) {
    Vector e = Vector::Zero(4);
    e[k] = eps;
    Jp.col(k) = (centre(q + e) - centre(q - e)) / (2 * eps);
  }
  Matrix Mref = mb * Jp.transpose() * Jp;
  Mref(0, 0) += m;
  Mref(1, 1) += m;
  Mref(2, 2) += IG;
  Mref(3, 3) += Ip;
  const ContactState s = sys->contact_state(q, v, 0);
  EXPECT_LT((s.M - Mref).cwiseAbs().maxCoeff(), 1e-8);
  // Coriolis: C v = Ṁ v − ½ ∂(vᵀMv)/∂q.
  auto M_at = [&](const Vector& x) { return sys->contact_state(x, v, 0).M; };
  const Matrix Mdot = (M_at(q + eps * v) - M_at(q - eps * v)) / (2 * eps);
  Vector grad(4);
  for (int k = 0; k < 4; ++k) {
    Vector e = Vector::Zero(4);
    e[k] = eps;
    grad[k] = (v.dot(M_at(q + e) * v) - v.dot(M_at(q - e) * v)) / (2 * eps);
  }
  const Vector coriolis = Mdot * v - 0.5 * grad;
  const Vector F0 = sys->contact_state(q, Vector::Zero(4), 0).F;
  EXPECT_LT((s.F - F0 - coriolis).cwiseAbs().maxCoeff(), 1e-7);
  // Gravity part: ∂V/∂q with V = m g y + m̄ g y_p.
  EXPECT_NEAR(F0[1], (m + mb) * 9.81, 1e-12);
  EXPECT_NEAR(F0[3], mb * 9.81 * Jp(1, 3), 1e-7);
}

// Brogliato, Kövecses & Acary 2020 Ex. 2 (rocking block): ∇h₂ = (0, 1, c_n),
// H_t2 = (1, 0, c_t) with c_n = (l/2) sin θ − (L/2) cos θ, c_t = (l/2) cos θ + (L/2) sin θ; the
// velocity terms c_nu = θ̇² c_t and c_tu = −θ̇² c_n; the regression numbers c_n = −0.1456819791,
// c_t = 0.5397006216.
// And the rocking block of the paper's §3: D_nn entries and B = −J_nuᵀM⁻¹F + c_nu under gravity.
TEST(Gallery, RockingBlockMatchesClosedForms) {
  auto sys = make_gallery_system("rocking_block");
  const ContactState s = sys->contact_state(sys->initial_q, sys->initial_v, 0);
  const auto& A2 = s.constraints[1];
  EXPECT_NEAR(A2.normal[2], -0.1456819791, 1e-10);
  EXPECT_NEAR(A2.tangent(2, 0), 0.5397006216, 1e-10);
  EXPECT_NEAR(A2.normal_bias, 0.09 * 0.5397006216, 1e-10);
  EXPECT_NEAR(A2.tangent_bias[0], 0.09 * 0.1456819791, 1e-10);
  EXPECT_NEAR(A2.tangent.col(0).dot(s.v), 0.0, 1e-14);  // A2 sticks
  EXPECT_NEAR(s.F[0], 1.0, 1e-15);                      // F = (1.0, 2·9.81, 0) on the left side
  EXPECT_NEAR(s.F[1], 2 * 9.81, 1e-12);

  const double m = 1.5, l = 0.8, L = 1.2, th = 0.3, w = 0.7, g = 9.81;
  auto blk = make_gallery_system(
      "rocking_block",
      {{"mass", m}, {"height", l}, {"width", L}, {"theta", th}, {"theta_dot", w}, {"Fx", 0.0}});
  const ContactState b = blk->contact_state(blk->initial_q, blk->initial_v, 0);
  const double IG = m * (l * l + L * L) / 12;
  const Matrix J = b.normal_jacobian();
  const Matrix D = J.transpose() * b.M.inverse() * J;
  const double s1 = l * std::sin(th), c1 = L * std::cos(th);
  EXPECT_NEAR(D(0, 0), 1 / m + (s1 + c1) * (s1 + c1) / (4 * IG), 1e-12);
  EXPECT_NEAR(D(0, 1), 1 / m + (s1 * s1 - c1 * c1) / (4 * IG), 1e-12);
  EXPECT_NEAR(D(1, 1), 1 / m + (s1 - c1) * (s1 - c1) / (4 * IG), 1e-12);
  const Vector B = -J.transpose() * b.M.inverse() * b.F + b.normal_bias();
  EXPECT_NEAR(B[0], -g + 0.5 * w * w * (l * std::cos(th) - L * std::sin(th)), 1e-12);
  EXPECT_NEAR(B[1], -g + 0.5 * w * w * (l * std::cos(th) + L * std::sin(th)), 1e-12);
}

// Brogliato 2014 §2.3.3 (Painlevé's rod): end columns ∇h = (0, 1, −l cos θ), H_t = (1, 0, l sin θ),
// c_n = l θ̇² sin θ; the end slides with x_dot and does not move normally.
TEST(Gallery, PainleveRodColumns) {
  const double L = 1.4, th = 0.6, w = 1.3, u = -0.8;
  auto sys = make_gallery_system("painleve_rod",
                                 {{"length", L}, {"theta", th}, {"theta_dot", w}, {"x_dot", u}});
  const ContactState s = sys->contact_state(sys->initial_q, sys->initial_v, 0);
  const auto& c = s.constraints[0];
  const double l = L / 2;
  EXPECT_NEAR(s.q[1], l * std::sin(th), 1e-15);
  EXPECT_TRUE(c.normal.isApprox(Vector3(0, 1, -l * std::cos(th)), 1e-14));
  EXPECT_TRUE(c.tangent.col(0).isApprox(Vector3(1, 0, l * std::sin(th)), 1e-14));
  EXPECT_NEAR(c.normal_bias, l * w * w * std::sin(th), 1e-14);
  EXPECT_NEAR(c.tangent.col(0).dot(s.v), u, 1e-14);
  EXPECT_NEAR(s.M(2, 2), L * L / 12, 1e-15);
}

// Brogliato 2014 §2.3.7, case R14 (m = 1.7, l = 0.9, θ = 0.5): normalized Delassus
// N₁₂ = −3 sin θ cos θ / √((1 + 3cos²θ)(1 + 3 sin²θ)); H_T = [[0,1],[1,0],[−(l/2)sin θ, (l/2)cos
// θ]].
TEST(Gallery, ConstrainedPendulumMatchesClosedForms) {
  auto sys = make_gallery_system("constrained_pendulum");
  const ContactState s = sys->contact_state(sys->initial_q, sys->initial_v, 0);
  const double th = 0.5, l = 0.9;
  EXPECT_EQ(s.constraints[0].kind, ConstraintKind::bilateral);
  const Matrix W = s.normal_jacobian();
  const Matrix Del = W.transpose() * s.M.inverse() * W;
  const double N12 = Del(0, 1) / std::sqrt(Del(0, 0) * Del(1, 1));
  const double c = std::cos(th), sn = std::sin(th);
  EXPECT_NEAR(N12, -3 * sn * c / std::sqrt((1 + 3 * c * c) * (1 + 3 * sn * sn)), 1e-12);
  Matrix HT(3, 2);
  // H_T of the material end points (docs/math/models.md), the wall column in moreau's frame: the
  // wall tangent is (n_y, −n_x) = (0, −1)
  HT << 0, 1, -1, 0, (l / 2) * sn, (l / 2) * c;
  EXPECT_LT((s.tangent_jacobian() - HT).cwiseAbs().maxCoeff(), 1e-14);
  EXPECT_NEAR(s.constraints[0].gap, 0.0, 1e-15);
  EXPECT_NEAR(s.constraints[1].gap, 0.0, 1e-15);
}

// Brogliato 2014 §2.3.1, case R3: masses (1, 2, 3) ⇒ N₁₂ = −√(m₁m₃/((m₁+m₂)(m₂+m₃))) = −√(1/5).
TEST(Gallery, BallChainNormalizedDelassus) {
  auto sys = make_gallery_system("ball_chain", {{"mass", 1.0}, {"mass_step", 1.0}});
  const ContactState s = sys->contact_state(sys->initial_q, sys->initial_v, 0);
  const Matrix W = s.normal_jacobian();
  const Matrix Del = W.transpose() * s.M.inverse() * W;
  EXPECT_NEAR(Del(0, 1) / std::sqrt(Del(0, 0) * Del(1, 1)), -std::sqrt(0.2), 1e-14);
  EXPECT_NEAR(s.constraints[1].gap, 0.0, 1e-15);
}

// Brogliato 2014 §2.3.6: n_qᵀH_T = (1/√m)[[0, 1], [1, 0]] with n_q = M⁻¹∇h/ρ in the paper's frame;
// moreau's wall tangent is (n_y, −n_x) = (0, −1), the paper's (0, 1) reversed, which negates the
// wall column: (1/√m)[[0, −1], [1, 0]].
TEST(Gallery, DiskInCornerCoupling) {
  const double m = 2.0;
  auto sys = make_gallery_system("disk_in_corner", {{"mass", m}});
  const ContactState s = sys->contact_state(sys->initial_q, sys->initial_v, 0);
  const Matrix W = s.normal_jacobian(), H = s.tangent_jacobian();
  const Matrix Mi = s.M.inverse();
  Matrix C = W.transpose() * Mi * H;
  for (int i = 0; i < 2; ++i) C.row(i) /= std::sqrt(W.col(i).dot(Mi * W.col(i)));
  Matrix ref(2, 2);
  ref << 0, -1, 1, 0;
  EXPECT_LT((C - ref / std::sqrt(m)).cwiseAbs().maxCoeff(), 1e-14);
}

// Brogliato, Kövecses & Acary 2020 Ex. 5: h₃ = (x₃ − x) cos θ + (y₃ − y) sin θ − L/2 and, at
// contact, H_t3 = (−sin θ, cos θ, L/2, 0, 0, sin θ) (the object's material point; the paper's
// v_rt,3 = −h₃θ̇ is zero at contact: docs/math/models.md).
TEST(Gallery, ThreeFingerGraspFinger3) {
  const double L = 1.0, th = 0.3;
  auto sys = make_gallery_system("three_finger_grasp", {{"theta", th}});
  const ContactState s = sys->contact_state(sys->initial_q, sys->initial_v, 0);
  Vector ref(6);
  ref << -std::sin(th), std::cos(th), L / 2, 0, 0, std::sin(th);
  EXPECT_LT((s.constraints[2].tangent.col(0) - ref).cwiseAbs().maxCoeff(), 1e-14);
  for (const auto& c : s.constraints) EXPECT_NEAR(c.gap, 0.0, 1e-14);
  Vector q = sys->initial_q;
  q << 0.1, -0.2, th, -0.7, -0.4, 0.65;
  const ContactState s2 = sys->contact_state(q, sys->initial_v, 0);
  EXPECT_NEAR(s2.constraints[2].gap, (0.65 - 0.1) * std::cos(th) + (0 + 0.2) * std::sin(th) - L / 2,
              1e-14);
}

TEST(Gallery, RejectsBadParameters) {
  EXPECT_THROW(make_gallery_system("no_such_system"), std::invalid_argument);
  EXPECT_THROW(make_gallery_system("painleve_rod", {{"masss", 1.0}}), std::invalid_argument);
  EXPECT_THROW(make_gallery_system("painleve_rod", {{"mu", -0.1}}), std::invalid_argument);
  EXPECT_THROW(make_gallery_system("painleve_rod", {{"mass", 0.0}}), std::invalid_argument);
  EXPECT_THROW(make_gallery_system("painleve_rod", {{"theta", std::nan("")}}),
               std::invalid_argument);
  EXPECT_THROW(make_gallery_system("falling_pencil", {{"alpha", 0.4}}), std::invalid_argument);
  EXPECT_THROW(make_gallery_system("ball_chain", {{"count", 2.5}}), std::invalid_argument);
  EXPECT_THROW(make_gallery_system("ball_chain", {{"mass_step", -1.0}}), std::invalid_argument);
  try {
    make_gallery_system("wheel", {{"radiuss", 1.0}});
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("radiuss"), std::string::npos);
  }
}
