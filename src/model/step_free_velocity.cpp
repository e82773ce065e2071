// The free velocity and momentum of a Moreau–Jean step (the math in
// model/step_free_velocity.hpp).
#include "moreau/model/step_free_velocity.hpp"

namespace moreau {
namespace {

// M̂ = M + hθD + h²θ²K in place, with K and D the system's passive diagonals.
void add_implicit_terms(double h, double theta, const Vector& K, const Vector& D, Matrix& M) {
  M.diagonal() += h * theta * D + h * h * theta * theta * K;
}

}  // namespace

Vector step_momentum(const LagrangianSystem& sys, const Matrix& M, const Vector& F, const Vector& q,
                     const Vector& v, double h, double theta, Matrix& implicit_mass) {
  implicit_mass = M;
  Vector K, D;
  const bool passive = sys.passive_diagonals(q, v, K, D);
  if (passive) add_implicit_terms(h, theta, K, D, implicit_mass);
  Vector momentum = implicit_mass * v - h * F;
  if (passive) momentum -= h * h * theta * K.cwiseProduct(v);
  return momentum;
}

Vector step_free_velocity(const LagrangianSystem& sys, const Matrix& M, const Vector& F,
                          const Vector& q, const Vector& v, double t, double h, double theta,
                          bool constrained, MassSolver& mass, Matrix* implicit_mass) {
  Vector K, D;
  const bool passive = sys.passive_diagonals(q, v, K, D);
  // h F̂ = h (F + hθ K v), then M̂⁻¹ of it in place
  auto impulse = [&](double step) {
    return passive ? Vector(step * (F + h * theta * K.cwiseProduct(v))) : Vector(step * F);
  };
  if (constrained || !sys.midpoint_free_flight()) {
    Matrix M_hat = M;
    if (passive) add_implicit_terms(h, theta, K, D, M_hat);
    mass.factorize(M_hat, sys.mass_tree());
    Vector dv = impulse(h);
    mass.solve_in_place(dv);
    if (implicit_mass != nullptr) *implicit_mass = std::move(M_hat);
    return v - dv;
  }
  // the midpoint rule: M̂_m at q_m, factorized once for both halves of the step. M̂_m, F_m and
  // v_m are this thread's, kept from call to call (a robot's step allocates none of them unless
  // the caller takes M̂); a call made from inside another on the same thread (a system whose
  // mass_then_forces steps a model of its own) gets its own, as the outer one still reads them.
  thread_local Matrix M_kept;
  thread_local Vector F_kept, v_kept;
  thread_local bool in_use = false;
  Matrix M_own;
  Vector F_own, v_own;
  const bool nested = in_use;
  Matrix& M_m = nested ? M_own : M_kept;
  Vector& F_m = nested ? F_own : F_kept;
  Vector& v_m = nested ? v_own : v_kept;
  in_use = true;
  struct Release {
    bool& flag;
    bool keep;
    ~Release() { flag = keep; }
  } release{in_use, nested};
  sys.mass_then_forces(
      sys.integrate(q, v, 0.5 * h), t + 0.5 * h, M_m,
      [&](Matrix& M_mid) -> const Vector& {
        if (passive) add_implicit_terms(h, theta, K, D, M_mid);
        mass.factorize(M_mid, sys.mass_tree());
        v_m = F;  // v_m = v − M̂⁻¹ ½h F̂, formed in place
        if (passive) v_m += h * theta * K.cwiseProduct(v);
        v_m *= 0.5 * h;
        mass.solve_in_place(v_m);
        v_m = v - v_m;
        return v_m;
      },
      F_m);
  if (passive) F_m += D.cwiseProduct(v - v_m) + (theta - 0.5) * h * K.cwiseProduct(v);
  F_m *= h;
  mass.solve_in_place(F_m);
  if (implicit_mass != nullptr) *implicit_mass = std::move(M_m);
  return v - F_m;
}

}  // namespace moreau
