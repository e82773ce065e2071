#pragma once
// Hand-built ContactStates for the analysis tests (no dependency on the model gallery).
#include <cmath>
#include <string>

#include "moreau/model/contact_state.hpp"

namespace moreau::test {

inline constexpr double kG = 9.81;

inline ContactConstraint make_constraint(const std::string& name, ConstraintKind kind, double mu,
                                         const Vector& normal, const Matrix& tangent,
                                         double c_n = 0.0, Vector c_t = Vector(),
                                         double gap = 0.0) {
  ContactConstraint c;
  c.name = name;
  c.kind = kind;
  c.mu = mu;
  c.gap = gap;
  c.normal = normal;
  c.tangent = tangent;
  c.normal_bias = c_n;
  c.tangent_bias = c_t.size() ? c_t : Vector(Vector::Zero(tangent.cols()));
  return c;
}

inline ContactState make_state(int d, const Matrix& M, const Vector& F,
                               const Vector& v = Vector()) {
  ContactState s;
  s.dimension = d;
  s.q = Vector::Zero(M.rows());
  s.v = v.size() ? v : Vector(Vector::Zero(M.rows()));
  s.M = M;
  s.F = F;
  return s;
}

// Falling pencil (McGeer & Palmer 1989; unilateral-contact notes (4.6)–(4.8)): q = (x, y, θ) of
// the lower tip and the tilt, rod of mass m,
// half-length ℓ, inertia I_c about the centre; contact x = y = 0 (w_t = e_x, w_n = e_y, c = 0).
// F = B + G on the left: B = (mℓθ̇² sinθ, −mℓθ̇² cosθ, 0), G = (0, mg, −mgℓ sinθ).
inline ContactState pencil(double m, double l, double Ic, double theta, double theta_dot, double mu,
                           double x_dot = 0.0) {
  const double s = std::sin(theta), c = std::cos(theta);
  Matrix M(3, 3);
  M << m, 0, -m * l * c, 0, m, -m * l * s, -m * l * c, -m * l * s, Ic + m * l * l;
  Vector F(3);
  F << m * l * theta_dot * theta_dot * s, -m * l * theta_dot * theta_dot * c + m * kG,
      -m * kG * l * s;
  Vector v(3);
  v << x_dot, 0, theta_dot;
  ContactState st = make_state(2, M, F, v);
  Matrix t(3, 1);
  t << 1, 0, 0;
  st.constraints.push_back(
      make_constraint("floor/tip", ConstraintKind::unilateral, mu, Vector3(0, 1, 0), t));
  return st;
}

// Rod of Brogliato 2014 §2.3.3: q = (x, y, θ) of the centre, half-length l, I = ml²/3,
// h = y − l sinθ, ∇h = (0, 1, −l cosθ), H_T = (1, 0, l sinθ), c_n = l sinθ θ̇² (d/dt ∇hᵀ · q̇),
// gravity F = (0, mg, 0). The end slides with v_t = ẋ + l sinθ θ̇.
inline ContactState painleve_rod(double m, double l, double theta, double theta_dot, double v_t,
                                 double mu) {
  const double s = std::sin(theta), c = std::cos(theta);
  Matrix M = Vector3(m, m, m * l * l / 3.0).asDiagonal();
  Vector v(3);
  v << v_t - l * s * theta_dot, l * c * theta_dot, theta_dot;  // ∇hᵀ v = 0
  ContactState st = make_state(2, M, Vector3(0, m * kG, 0), v);
  Matrix t(3, 1);
  t << 1, 0, l * s;
  // c_t = d/dt(H_Tᵀ) q̇ = l cosθ θ̇².
  st.constraints.push_back(make_constraint("floor/end", ConstraintKind::unilateral, mu,
                                           Vector3(0, 1, -l * c), t, l * s * theta_dot * theta_dot,
                                           Vector::Constant(1, l * c * theta_dot * theta_dot)));
  return st;
}

// Rocking block of Brogliato, Kövecses & Acary 2020 §3: q = (x, y, θ), M = diag(m, m, I_G),
// I_G = m(l² + L²)/12, corners A1, A2 with ∇h₁ = (0, 1, (l/2)sθ + (L/2)cθ),
// ∇h₂ = (0, 1, (l/2)sθ − (L/2)cθ), H_t1 = (1, 0, (l/2)cθ − (L/2)sθ),
// H_t2 = (1, 0, (l/2)cθ + (L/2)sθ), c_n,i = θ̇² d(a_i)/dθ, c_t,i = θ̇² d(b_i)/dθ. F given on the
// left. Both corners marked closed (gap 0).
inline ContactState rocking_block(double m, double l, double L, double theta, double theta_dot,
                                  const Vector3& F, double mu1, double mu2) {
  const double s = std::sin(theta), c = std::cos(theta);
  const double IG = m * (l * l + L * L) / 12.0;
  Matrix M = Vector3(m, m, IG).asDiagonal();
  ContactState st = make_state(2, M, F, Vector3(0, 0, theta_dot));
  const double a1 = 0.5 * l * s + 0.5 * L * c, a2 = 0.5 * l * s - 0.5 * L * c;
  const double b1 = 0.5 * l * c - 0.5 * L * s, b2 = 0.5 * l * c + 0.5 * L * s;
  const double w2 = theta_dot * theta_dot;
  Matrix t1(3, 1), t2(3, 1);
  t1 << 1, 0, b1;
  t2 << 1, 0, b2;
  // da1/dθ = b1, da2/dθ = b2;  db1/dθ = −a1, db2/dθ = −a2... (b1 = (l/2)c − (L/2)s ⇒ b1' = −(l/2)s
  // − (L/2)c = −a1)
  st.constraints.push_back(make_constraint("A1", ConstraintKind::unilateral, mu1, Vector3(0, 1, a1),
                                           t1, w2 * b1, Vector::Constant(1, -w2 * a1)));
  st.constraints.push_back(make_constraint("A2", ConstraintKind::unilateral, mu2, Vector3(0, 1, a2),
                                           t2, w2 * b2,
                                           Vector::Constant(1, w2 * (-0.5 * l * s + 0.5 * L * c))));
  return st;
}

}  // namespace moreau::test
