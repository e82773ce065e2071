#pragma once
// Small hand-written LagrangianSystems for the simulator tests (CallbackSystem).
#include <cmath>
#include <memory>

#include "moreau/model/callback_system.hpp"

namespace moreau::test {

inline constexpr double kG = 9.81;  // m/s²

// Ball of radius r and mass m on the floor y = 0, vertical motion only: q = (y), gap y − r.
inline std::shared_ptr<CallbackSystem> bouncing_ball(double e, double r = 0.1, double m = 1.0) {
  auto s = std::make_shared<CallbackSystem>(
      "ball", 2, 1, [m](const Vector&) { return Matrix::Constant(1, 1, m); },
      [m](const Vector&, const Vector&, double) { return Vector::Constant(1, m * kG); });
  CallbackConstraint c;
  c.name = "floor/ball";
  c.restitution = e;
  c.kinematics = [r](const Vector& q, const Vector&) {
    ConstraintKinematics k;
    k.gap = q[0] - r;
    k.normal = Vector::Ones(1);
    k.tangent = Matrix::Zero(1, 1);
    return k;
  };
  s->add_constraint(c);
  s->set_potential([m](const Vector& q) { return m * kG * q[0]; });
  return s;
}

// Particle of mass m on a plane through the origin inclined by α: q = (x, y),
// n = (−sin α, cos α), t = (cos α, sin α), gap = n·p.
inline std::shared_ptr<CallbackSystem> particle_on_incline(double alpha, double mu,
                                                           double m = 1.0) {
  auto s = std::make_shared<CallbackSystem>(
      "incline", 2, 2, [m](const Vector&) { return Matrix(m * Matrix::Identity(2, 2)); },
      [m](const Vector&, const Vector&, double) { return Vector2(0.0, m * kG).eval(); });
  CallbackConstraint c;
  c.name = "slope/block";
  c.mu = mu;
  c.kinematics = [alpha](const Vector& q, const Vector&) {
    ConstraintKinematics k;
    k.normal = Vector2(-std::sin(alpha), std::cos(alpha));
    k.tangent = Matrix(2, 1);
    k.tangent << std::cos(alpha), std::sin(alpha);
    k.gap = k.normal.dot(q);
    return k;
  };
  s->add_constraint(c);
  s->set_potential([m](const Vector& q) { return m * kG * q[1]; });
  return s;
}

// Planar uniform rod (mass m, length 2ℓ), q = (X, Y, θ) of its centre, lower tip at
// (X + ℓ sin θ, Y − ℓ cos θ) on the floor y = 0 (the falling pencil of McGeer & Palmer 1989 with
// the centre as reference):
//   ∇h = (0, 1, ℓ sin θ),  c_n = ℓ cos θ θ̇²,  H_t = (1, 0, ℓ cos θ),  c_t = −ℓ sin θ θ̇².
inline std::shared_ptr<CallbackSystem> rod_on_floor(double mu, double e = 0.0, double m = 1.0,
                                                    double ell = 0.5) {
  const double Ic = m * ell * ell / 3.0;  // uniform rod of length 2ℓ
  auto s = std::make_shared<CallbackSystem>(
      "rod", 2, 3,
      [m, Ic](const Vector&) {
        Matrix M = Matrix::Zero(3, 3);
        M.diagonal() << m, m, Ic;
        return M;
      },
      [m](const Vector&, const Vector&, double) { return Vector3(0.0, m * kG, 0.0).eval(); });
  CallbackConstraint c;
  c.name = "floor/tip";
  c.mu = mu;
  c.restitution = e;
  c.kinematics = [ell](const Vector& q, const Vector& v) {
    ConstraintKinematics k;
    const double th = q[2], w = v[2];
    k.gap = q[1] - ell * std::cos(th);
    k.normal = Vector3(0.0, 1.0, ell * std::sin(th));
    k.tangent = Matrix(3, 1);
    k.tangent << 1.0, 0.0, ell * std::cos(th);
    k.normal_bias = ell * std::cos(th) * w * w;
    k.tangent_bias = Vector::Constant(1, -ell * std::sin(th) * w * w);
    return k;
  };
  s->add_constraint(c);
  s->set_potential([m](const Vector& q) { return m * kG * q[1]; });
  return s;
}

// Newton's cradle on a line: k balls of radius r, unit masses, no gravity, q = (x_1 … x_k),
// contact i between balls i and i+1: gap x_{i+1} − x_i − 2r, e = 1, frictionless.
inline std::shared_ptr<CallbackSystem> cradle(int k, double r, double e = 1.0) {
  auto s = std::make_shared<CallbackSystem>(
      "cradle", 2, k, [k](const Vector&) { return Matrix(Matrix::Identity(k, k)); },
      [k](const Vector&, const Vector&, double) { return Vector(Vector::Zero(k)); });
  for (int i = 0; i + 1 < k; ++i) {
    CallbackConstraint c;
    c.name = "ball" + std::to_string(i) + "/ball" + std::to_string(i + 1);
    c.restitution = e;
    c.kinematics = [i, k, r](const Vector& q, const Vector&) {
      ConstraintKinematics kin;
      kin.gap = q[i + 1] - q[i] - 2.0 * r;
      kin.normal = Vector::Zero(k);
      kin.normal[i] = -1.0;
      kin.normal[i + 1] = 1.0;
      kin.tangent = Matrix::Zero(k, 1);
      return kin;
    };
    s->add_constraint(c);
  }
  return s;
}

}  // namespace moreau::test
