#pragma once
// A Lagrangian system with constraints (Brogliato, Kövecses & Acary 2020 (1); Brogliato 2014 §2):
//   M(q) q̈ + F(q, q̇, t) = Σ_i (∇h_i(q) λ_n,i + H_t,i(q) λ_t,i)
// with bilateral (h_i = 0) and unilateral (0 ≤ λ_n,i ⊥ h_i ≥ 0) constraints, each frictionless
// or with Coulomb friction. Every consumer (analysis, impact laws, simulators) reads a system
// through contact_state(q, v, t), which returns ALL constraints with their gaps (active or
// not), so that a simulator can locate closings by root finding on the gaps.
//
// Generalized velocities v may differ from q̇ (quaternions for spatial bodies): q̇ = position_rate.
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "moreau/model/contact_state.hpp"
#include "moreau/model/step_contacts.hpp"

namespace moreau {

// A mechanical system M(q) q̈ + F(q, q̇, t) = Σ (∇h λ_n + H_t λ_t) with its constraints.
// Dry friction |τ| ≤ bound on velocity `dof` (a joint's frictionloss).
struct DryFriction {
  std::string name = {};  // the joint's name
  Index dof = 0;          // index into v
  double bound = 0.0;     // f > 0, N·m or N
};

// The interface of a Lagrangian system with constraints (see the file comment).
class LagrangianSystem {
 public:
  virtual ~LagrangianSystem() = default;

  // Name of the system, as shown in output files and messages.
  virtual std::string name() const = 0;
  virtual int dimension() const = 0;        // 2 (planar) or 3 (spatial)
  virtual Index velocity_size() const = 0;  // n = size of v, M is n×n
  // Size of q (7 per spatial body with quaternions); velocity_size() unless overridden.
  virtual Index position_size() const { return velocity_size(); }
  // Names of the generalized coordinates, for output headers ("q0", "q1", … by default).
  virtual std::vector<std::string> position_names() const;
  // Names of the generalized velocities, for output headers ("v0", "v1", … by default).
  virtual std::vector<std::string> velocity_names() const;

  // What a run records at (q, v): q and v themselves unless overridden (a rigid world in joint
  // coordinates records every body's pose and velocity, then its joint coordinates).
  virtual Vector recorded_positions(const Vector& q) const { return q; }
  // The velocities a run records at (q, v) (see recorded_positions).
  virtual Vector recorded_velocities(const Vector& /*q*/, const Vector& v) const { return v; }
  // All a run records at (q, v) at once (the four calls unless overridden: a rigid world in joint
  // coordinates walks its tree once for all of them).
  virtual RecordedState recorded_state(const Vector& q, const Vector& v) const;
  // Names of recorded_positions (output columns); position_names() unless overridden.
  virtual std::vector<std::string> recorded_position_names() const { return position_names(); }
  // Names of recorded_velocities; velocity_names() unless overridden.
  virtual std::vector<std::string> recorded_velocity_names() const { return velocity_names(); }

  // The full contact data at (q, v, t): M, F and every constraint (gap, ∇h, H_t, c_n, c_t, μ, e).
  virtual ContactState contact_state(const Vector& q, const Vector& v, double t) const = 0;
  // The same without the dense parts: F, and each constraint's name, kind, gap, μ, e and law,
  // with M, ∇h and H_t left empty (what the simulators check at the initial state). Memory
  // O(n + m) where contact_state needs O(n² + n m); contact_state itself unless overridden.
  virtual ContactState constraint_summary(const Vector& q, const Vector& v, double t) const {
    return contact_state(q, v, t);
  }
  // What a Moreau–Jean step reads at (q, v, t): contact_state, less (some of) the unilateral
  // constraints with g + reach·min(u_n, 0) > margin, u_n = ∇hᵀv their gap rate (a step of length
  // h ≤ reach/c, c the activation factor, never activates them, so their rows need not be formed;
  // a rigid world in joint coordinates leaves out such shape contacts, and leaves M empty when no
  // constraint and no dry friction is left, since the step's free flight then forms M̂ at its
  // midpoint: model/step_free_velocity.hpp). with_record false: a system that forms the state's
  // record with it (ContactState::recorded) leaves it out, for a run that keeps no states.
  // contact_state itself unless overridden.
  virtual ContactState step_state(const Vector& q, const Vector& v, double t, double /*reach*/,
                                  double /*margin*/, bool /*with_record*/ = true) const {
    return contact_state(q, v, t);
  }

  // The Jacobians of F in velocity coordinates, for the implicit θ-method of
  // sim/moreau_jean_osi.hpp (Siconos' K = ∂F/∂q and C = ∂F/∂q̇, F on the left side here):
  //   K_ij = ∂F_i(q ⊕ δ, v, t)/∂δ_j with q ⊕ δ = q + q̇(q, δ),   C_ij = ∂F_i(q, v, t)/∂v_j,
  // both n×n. Central finite differences of contact_state(…).F (step ∛ε·max(1, |x_j|)) unless
  // overridden: exact (0) for a constant F; a linear system (model/linear_system.hpp) returns
  // its K and C.
  virtual void force_jacobians(const Vector& q, const Vector& v, double t, Matrix& K,
                               Matrix& C) const;

  // The joint springs and dampers (and actuator gains) that a step integrates linearly implicitly
  // (docs/simulation.md §Passive joint forces): diagonals K and D (n each, ≥ 0) such that F holds
  // K (q − q_ref) + D v on them at (q, v). False (nothing implicit) unless overridden.
  virtual bool passive_diagonals(const Vector& /*q*/, const Vector& /*v*/, Vector& /*K*/,
                                 Vector& /*D*/) const {
    return false;
  }

  // Dry friction on single velocities (joint frictionloss, docs/simulation.md §Dry joint
  // friction): per entry, |τ_i| ≤ f_i with τ_i opposing v_i, stick and slip decided exactly by the
  // dense step layer. None unless overridden.
  virtual std::vector<DryFriction> dry_friction() const { return {}; }

  // M(q) and F(q, v, t) alone, without the constraints (from contact_state unless overridden).
  virtual void mass_and_forces(const Vector& q, const Vector& v, double t, Matrix& M,
                               Vector& F) const;
  // M(q), then F(q, v, t) at the velocity v = velocity(M) that M decides (the midpoint free
  // flight of model/step_free_velocity.hpp takes v_m from M(q_m)). velocity may change M in place
  // (M is left as it leaves it) and returns a reference that stays valid until F is formed. By
  // default mass_and_forces at (q, 0), then at (q, v); a system whose M and F share a walk of its
  // kinematics (joint coordinates) overrides it with one walk.
  virtual void mass_then_forces(const Vector& q, double t, Matrix& M,
                                const std::function<const Vector&(Matrix&)>& velocity,
                                Vector& F) const;
  // ∂/∂q and ∂/∂v of M(q) a + F(q, v, t) at (q, v, t, a), n × n each, q moved in the tangent
  // space (column j: q ⊕ δ e_j = integrate(q, δ e_j, 1)); what the implicit differentiation of a
  // step needs (sim/step_derivatives.hpp). Central differences of mass_and_forces (δ = q_step in q,
  // v_step·max(1, |v_j|) in v) unless overridden: a rigid world in joint coordinates gives them
  // exactly (MultibodyModel::inverse_dynamics_derivatives).
  virtual void dynamics_derivatives(const Vector& q, const Vector& v, double t, const Vector& a,
                                    double q_step, double v_step, Matrix& d_dq, Matrix& d_dv) const;
  // The derivatives in q (tangent, as dynamics_derivatives) of the rows of the constraints
  // `which` (indices into s = contact_state(q, v, t), d rows each: ∇h_i, then H_t,i's columns),
  // the impulses r (d per constraint) and velocities U (n × |which|: one per constraint) held:
  //   df = ∂/∂q Σ_i (∇h_i r_i,0 + H_t,i r_i,t)               (n × n),
  //   dy = ∂/∂q (∇h_iᵀ u_i, H_t,iᵀ u_i) for each i in order  (d·|which| × n),
  // with the tangent columns turned with the normal by the least rotation (n × ∂n) × (the
  // derivative of a step does not depend on how the tangents spin about n: docs/gradients.md).
  // False, with df and dy unspecified, when they are not available exactly for every constraint
  // asked (the caller then differences contact_state); false unless overridden.
  virtual bool constraint_derivatives(const Vector& /*q*/, const Vector& /*v*/, double /*t*/,
                                      const ContactState& /*s*/,
                                      const std::vector<Index>& /*which*/, const Vector& /*r*/,
                                      const Matrix& /*U*/, Matrix& /*df*/, Matrix& /*dy*/) const {
    return false;
  }
  // The kinematic tree of M: per velocity, its parent velocity (−1 at a root), with M_ij ≠ 0 only
  // when one of i, j is an ancestor of the other, so that M factorizes along it without fill-in
  // (model/multibody/tree_factorization.hpp); nullptr (no such structure) unless overridden.
  virtual const std::vector<Index>* mass_tree() const { return nullptr; }
  // True when the dense step layer takes the free flight at the step's midpoint, second order
  // without contacts (model/dense_step_contacts.cpp); false unless overridden.
  virtual bool midpoint_free_flight() const { return false; }
  // q ⊕ h v, the configuration after moving at v for h: q + h q̇(q, v), normalized, unless
  // overridden (exact exponential maps for quaternions).
  virtual Vector integrate(const Vector& q, const Vector& v, double h) const {
    Vector out = q + h * position_rate(q, v);
    normalize_position(out);
    return out;
  }

  // q₁ ⊖ q₀: the tangent vector δ (velocity_size()) with integrate(q₀, δ, 1) = q₁, the inverse of
  // q ⊕ δ (Pinocchio's difference); q₁ − q₀ unless overridden (rotation vectors of quaternions).
  virtual Vector difference(const Vector& q0, const Vector& q1) const { return q1 - q0; }
  // q̇ as a function of (q, v); identity unless overridden.
  virtual Vector position_rate(const Vector& /*q*/, const Vector& v) const { return v; }
  // What the system changed in its initial state to make it valid, one line each (a run lists
  // them in its warnings); none unless overridden.
  virtual const std::vector<std::string>& start_notes() const;
  // A run starts at q: the system resets what it remembers along a run (a rigid world: the
  // start overlaps it ignores); nothing unless overridden.
  virtual void begin_run(const Vector& /*q*/) const {}
  // Re-normalizes q after a step (unit quaternions); identity unless overridden.
  virtual void normalize_position(Vector& /*q*/) const {}
  // Kinetic energy T = ½ vᵀ M(q) v, J.
  virtual double kinetic_energy(const Vector& q, const Vector& v) const;
  // Potential energy V(q), J (gravity or what the system defines); 0 unless overridden.
  virtual double potential_energy(const Vector& /*q*/) const { return 0.0; }

  // The contact layer of Moreau–Jean steps (model/step_contacts.hpp): dense W unless overridden
  // (rigid worlds: body blocks unless settings.body_blocks is false).
  virtual std::unique_ptr<StepContacts> step_contacts(const StepContactSettings& settings,
                                                      const ContactSolverSettings& solver) const;
  // Impact laws of contacts that may appear later than the initial state (a rigid world's
  // materials); none unless overridden.
  virtual std::vector<ImpactLaw> contact_laws() const { return {}; }

  // Optional initial state (gallery systems carry one).
  Vector initial_q;  // q₀ (empty when the system has none)
  Vector initial_v;  // v₀ (empty when the system has none)
};

// Shared ownership of an immutable system (integrators and Python hold systems this way).
using LagrangianSystemPtr = std::shared_ptr<const LagrangianSystem>;

}  // namespace moreau
