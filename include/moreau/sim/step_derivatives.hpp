#pragma once
// Derivatives of one Moreau–Jean step (sim/time_stepping.hpp, moreau's scheme) with respect to
// the state and the inputs before it, by implicit differentiation of the step's contact problem
// at its solution (docs/gradients.md).
//
// The step from (q, v) with inputs (ctrl, qfrc) solves, for the index set I and the bilateral
// rows B (model/velocity_level.hpp, model/step_free_velocity.hpp):
//   M̂ (v⁺ − v_free) = H_I r + H_B p (+ e_i p_i of dry joint friction),
//   u = H_Iᵀ v⁺ + w (+ c r_n),  K_μ ∋ r ⊥ û ∈ K*_μ,  H_Bᵀ v⁺ + κ g_B/h = 0,
//   q⁺ = normalize(q + h q̇(q, (1 − θ) v + θ v⁺)).
// At the solution each contact is in one mode, and the law is a smooth equation there
// (Acary & Brogliato 2008 §13.3; the same case split as the event-driven integrator's modes):
//   open (r_n = 0, u_n > 0):               r = 0;
//   stick (r inside K_μ, r_n > 0):         u = 0 (d rows);
//   slip (r on ∂K_μ, r_n > 0, u_t ≠ 0):    u_n = 0 and r_t = −μ r_n t̂, t̂ = u_t/‖u_t‖;
// a bilateral row and a sticking dry-friction dof are held rows (u_b = 0, v⁺_i = 0), a sliding
// dry-friction dof has a constant impulse −h f sign v⁺_i. Differentiating, with the data
// (M̂, M̂ v_free, H, w, g) of the step perturbed by dx and v⁺, r, p held in the data terms:
//   (M̂ + Σ_slip k H_t P H_tᵀ) dv⁺ − G dλ = dφ − Σ_slip k H_t P dψ_t,
//   Eᵀ dv⁺ + C dλ = −dψ_E,
// with φ(x) = M̂(x) v_free(x) − M̂(x) v⁺ + H(x) r_all, ψ_E(x) = E(x)ᵀ v⁺ + w(x) over the held
// rows E (their compliance C = c on softened normal rows), ψ_t(x) = H_t(x)ᵀ v⁺ over the sliding
// contacts, k = μ r_n/‖u_t‖, P = I − t̂t̂ᵀ, and G = E but a sliding contact's normal column
// H_n − μ H_t t̂ (its friction follows its normal impulse). Redundant held rows (a box flat on a
// floor: four corners, rank 6 of 12 rows) make the matrix singular; the system stays consistent
// and any solution has the unique dv⁺. It is solved by its Schur complement on the factorization
// of M̂ that the step's own solve formed (the small system in dλ and the sliding contacts' H_tᵀ dv⁺
// by a complete orthogonal decomposition: step_derivatives.cpp).
// φ's dynamics part −h (M(q) a + F(q, v)), a = (v⁺ − v)/h, is differentiated by the system's
// dynamics_derivatives (exact for joint coordinates: RNEA's derivatives) except in a free flight
// at the midpoint; dφ's contact part and dψ in q are central differences of the smooth data
// (detection and Jacobians at q ⊕ ±δ e_j, the same contacts by name); in ctrl and qfrc, of
// M̂ v_free and of w.
// Positions: dq⁺ = J_q dq + θ J_v dv⁺ in the tangent space at q⁺ (q ⊕ δ = integrate(q, δ, 1),
// LagrangianSystem::difference), J_q and J_v central differences of the position update.
// The post-step projection is not included (it moves q only when the step penetrates).
#include <functional>
#include <string>
#include <vector>

#include "moreau/model/lagrangian_system.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {

// How step_derivatives solves and classifies (docs/gradients.md §Modes).
struct StepDerivativeSettings {
  // Of the step's contact problem solved here; 0: the scene's (its solver budget too).
  double solver_tolerance = 0.0;
  // A contact's impulse or velocity is zero for the mode test below this fraction of the step's
  // largest (impulse: max r_n; velocity: max |v|, |v⁺| and the free flight's change h M̂⁻¹F̂,
  // estimated with the diagonal of M̂).
  double mode_tolerance = 1e-8;
  // δ of the central differences in q where no exact derivative stands (contact pairs that
  // constraint_derivatives does not cover; systems without exact dynamics_derivatives)
  double difference_step = 1e-6;
  // δ of those in v (the same systems), ctrl and qfrc, times max(1, |x_j|) (the data is affine or
  // quadratic in them)
  double input_step = 1e-3;
};

// A contact of the differentiated step and its mode. A degenerate mode (r_n and u_n both zero:
// open/closed; u_t zero with r_t on the cone's boundary: stick/slip) has no derivative; the
// one-sided derivative taken is the closed side's, and stick's (docs/gradients.md §Modes).
struct ContactDerivativeMode {
  std::string name;                          // the constraint's name, as in contacts.csv
  ContactMode mode = ContactMode::separate;  // the mode differentiated
  bool degenerate = false;                   // on a mode boundary (see above)
  std::string boundary;                      // "open/closed" or "stick/slip" when degenerate
};

// A parameter of the model (a friction coefficient, a restitution, a mass, …) given as the
// system at p + δ and at p − δ, each with the inputs of the differentiated one and the same
// coordinates: ∂/∂p is taken by central differences of the step's data between them (μ through the
// sliding contacts' r_t = −μ r_n t̂, e through w_n = e u_n⁻, a mass through M and F).
struct StepParameter {
  std::string name;                         // as the caller names it ("/contact/default/mu")
  const LagrangianSystem* plus = nullptr;   // the system at p + δ
  const LagrangianSystem* minus = nullptr;  // the system at p − δ
  double delta = 0.0;                       // δ > 0
};

// The derivatives of (q⁺, v⁺) with respect to (q, v, ctrl, qfrc); positions in the tangent
// space (nv), so every matrix has nv rows; columns nv (q, v, qfrc) or nu (ctrl).
struct StepDerivatives {
  Vector q_next;  // the step's q⁺ (nq, without projection)
  Vector v_next;  // the step's v⁺ (nv)
  // ∂v⁺/∂q (tangent), ∂v⁺/∂v, ∂v⁺/∂ctrl, ∂v⁺/∂qfrc.
  // @{
  Matrix dv_dq, dv_dv, dv_dctrl, dv_dqfrc;
  // @}
  // ∂v⁺/∂p and ∂q⁺/∂p, one column per StepParameter.
  // @{
  Matrix dv_dparams, dq_dparams;
  // @}
  // ∂q⁺/∂q, ∂q⁺/∂v, ∂q⁺/∂ctrl, ∂q⁺/∂qfrc (tangent at q⁺).
  // @{
  Matrix dq_dq, dq_dv, dq_dctrl, dq_dqfrc;
  // @}
  std::vector<ContactDerivativeMode> contacts;  // the index set's contacts, in the step's order
  std::vector<std::string> dry_friction_stuck;  // the dry-friction joints held this step
  double solver_residual = 0.0;                 // the residual reached by the step's solve here
};

// Sets the inputs (ctrl, qfrc) of the system for a difference (the caller restores them).
using StepInputSetter = std::function<void(const Vector& ctrl, const Vector& qfrc)>;

// The derivatives of the step of length settings.time_stepping.dt from (q, v) at t, with the
// inputs ctrl (nu) and qfrc (nv) set on the system, under settings (see the file comment). Throws
// std::invalid_argument for a scheme other than moreau's or a parameter whose systems differ in
// size, and std::runtime_error naming the contact when a contact of the step is not detected at a
// perturbed q or in a parameter's system.
StepDerivatives step_derivatives(const LagrangianSystem& system, const Vector& q, const Vector& v,
                                 double t, const SimulationSettings& settings, const Vector& ctrl,
                                 const Vector& qfrc, const StepInputSetter& set_inputs,
                                 const StepDerivativeSettings& derivative_settings = {},
                                 const std::vector<StepParameter>& parameters = {});

}  // namespace moreau
