// The free velocity and momentum of a Moreau–Jean step (the math in
// model/step_free_velocity.hpp).
#include "moreau/model/step_free_velocity.hpp"

namespace moreau {
namespace {

// M̂ = M + hθD + h²θ²K, with K and D the system's passive diagonals (false: none).
bool add_implicit_terms(const LagrangianSystem& sys, const Vector& q, const Vector& v, double h,
                        double theta, Matrix& M, Vector& K, Vector& D) {
  const bool passive = sys.passive_diagonals(q, v, K, D);
  if (passive) M.diagonal() += h * theta * D + h * h * theta * theta * K;
  return passive;
}

}  // namespace

Vector step_momentum(const LagrangianSystem& sys, const Matrix& M, const Vector& F, const Vector& q,
                     const Vector& v, double h, double theta, Matrix& implicit_mass) {
  implicit_mass = M;
  Vector K, D;
  const bool passive = add_implicit_terms(sys, q, v, h, theta, implicit_mass, K, D);
  Vector momentum = implicit_mass * v - h * F;
  if (passive) momentum -= h * h * theta * K.cwiseProduct(v);
  return momentum;
}

Vector step_free_velocity(const LagrangianSystem& sys, const Matrix& M, const Vector& F,
                          const Vector& q, const Vector& v, double t, double h, double theta,
                          bool constrained, MassSolver& mass, Matrix* implicit_mass) {
  Matrix M_hat = M;
  Vector K, D;
  const bool passive = add_implicit_terms(sys, q, v, h, theta, M_hat, K, D);
  mass.factorize(M_hat, sys.mass_tree());
  const Vector F_hat = passive ? Vector(F + h * theta * K.cwiseProduct(v)) : F;
  Vector v_free = v - mass.solve(h * F_hat);
  if (constrained || !sys.midpoint_free_flight()) {
    if (implicit_mass != nullptr) *implicit_mass = std::move(M_hat);
    return v_free;
  }
  const Vector v_m = 0.5 * (v + v_free);
  Matrix M_m;
  Vector F_m;
  sys.mass_and_forces(sys.integrate(q, v, 0.5 * h), v_m, t + 0.5 * h, M_m, F_m);
  if (passive) F_m += D.cwiseProduct(v - v_m) + (theta - 0.5) * h * K.cwiseProduct(v);
  add_implicit_terms(sys, q, v, h, theta, M_m, K, D);
  mass.factorize(M_m, sys.mass_tree());
  if (implicit_mass != nullptr) *implicit_mass = std::move(M_m);
  return v - mass.solve(h * F_m);
}

}  // namespace moreau
