#include "moreau/model/lagrangian_system.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace moreau {

std::vector<std::string> LagrangianSystem::position_names() const {
  std::vector<std::string> names;
  for (Index i = 0; i < position_size(); ++i) names.push_back(fmt::format("q{}", i));
  return names;
}

std::vector<std::string> LagrangianSystem::velocity_names() const {
  std::vector<std::string> names;
  for (Index i = 0; i < velocity_size(); ++i) names.push_back(fmt::format("v{}", i));
  return names;
}

const std::vector<std::string>& LagrangianSystem::start_notes() const {
  static const std::vector<std::string> none;
  return none;
}

RecordedState LagrangianSystem::recorded_state(const Vector& q, const Vector& v) const {
  return {recorded_positions(q), recorded_velocities(q, v), kinetic_energy(q, v),
          potential_energy(q)};
}

// T = ½ vᵀ M(q) v
double LagrangianSystem::kinetic_energy(const Vector& q, const Vector& v) const {
  const ContactState s = contact_state(q, v, 0.0);
  return 0.5 * v.dot(s.M * v);
}

// Central differences, step ε_j = ∛ε_machine · max(1, |x_j|) (error O(ε_j²) for smooth F).
void LagrangianSystem::force_jacobians(const Vector& q, const Vector& v, double t, Matrix& K,
                                       Matrix& C) const {
  const Index n = velocity_size();
  const double base = std::cbrt(std::numeric_limits<double>::epsilon());
  K.resize(n, n);
  C.resize(n, n);
  for (Index j = 0; j < n; ++j) {
    const double ev = base * std::max(1.0, std::abs(v[j]));
    Vector vp = v, vm = v;
    vp[j] += ev;
    vm[j] -= ev;
    C.col(j) = (contact_state(q, vp, t).F - contact_state(q, vm, t).F) / (2.0 * ev);
    const double eq = base * std::max(1.0, j < q.size() ? std::abs(q[j]) : 1.0);
    Vector delta = Vector::Zero(n);  // a step of velocity coordinate j, mapped into q by q̇(q, ·)
    delta[j] = eq;
    Vector qp = q + position_rate(q, delta), qm = q - position_rate(q, delta);
    normalize_position(qp);
    normalize_position(qm);
    K.col(j) = (contact_state(qp, v, t).F - contact_state(qm, v, t).F) / (2.0 * eq);
  }
}

// Central differences of M(q ⊕ ±δ e_j) a + F and of F(v ± δ_j e_j).
void LagrangianSystem::dynamics_derivatives(const Vector& q, const Vector& v, double t,
                                            const Vector& a, double q_step, double v_step,
                                            Matrix& d_dq, Matrix& d_dv) const {
  const Index n = velocity_size();
  d_dq.resize(n, n);
  d_dv.resize(n, n);
  Matrix M;
  Vector F;
  auto value = [&](const Vector& qs, const Vector& vs) {
    mass_and_forces(qs, vs, t, M, F);
    return Vector(M * a + F);
  };
  for (Index j = 0; j < n; ++j) {
    const Vector e = Vector::Unit(n, j) * q_step;
    d_dq.col(j) = (value(integrate(q, e, 1.0), v) - value(integrate(q, -e, 1.0), v)) / (2 * q_step);
    const double dj = v_step * std::max(1.0, std::abs(v[j]));
    const Vector ev = Vector::Unit(n, j) * dj;
    d_dv.col(j) = (value(q, v + ev) - value(q, v - ev)) / (2 * dj);
  }
}

void LagrangianSystem::mass_and_forces(const Vector& q, const Vector& v, double t, Matrix& M,
                                       Vector& F) const {
  ContactState s = contact_state(q, v, t);
  M = std::move(s.M);
  F = std::move(s.F);
}

void LagrangianSystem::mass_then_forces(const Vector& q, double t, Matrix& M,
                                        const std::function<const Vector&(Matrix&)>& velocity,
                                        Vector& F) const {
  mass_and_forces(q, Vector::Zero(velocity_size()), t, M, F);
  const Vector& v = velocity(M);
  Matrix unused;
  mass_and_forces(q, v, t, unused, F);
}

}  // namespace moreau
