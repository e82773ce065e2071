#pragma once
// A LagrangianSystem described by user callbacks (issue 3 "Models"; the data of the problem (9) of
// Brogliato, Kövecses & Acary 2020): M(q), F(q, v, t) and, per constraint, the gap h(q), the normal
// column ∇h(q), the tangent block H_t(q) (n×(d−1)) and the velocity-product terms
// c_n = (d/dt ∇hᵀ) v, c_t = (d/dt H_tᵀ) v. Convention of contact_state.hpp:
// M v̇ + F = Σ (∇h λ_n + H_t λ_t), F on the left (gravity with y up enters as +m g).
//
// One callback per constraint returns all its kinematics at once (they share most of the work);
// the kind, μ, e, γ and Baumgarte α, β are fixed data of the constraint.
#include <functional>
#include <string>
#include <vector>

#include "moreau/model/lagrangian_system.hpp"

namespace moreau {

// Kinematics of one constraint at (q, v): what the callback returns.
struct ConstraintKinematics {
  double gap = 0.0;          // h(q), m
  Vector normal;             // ∇h(q), n
  Matrix tangent;            // H_t(q), n×(d−1) (may be empty for a frictionless constraint)
  double normal_bias = 0.0;  // c_n, m/s²
  Vector tangent_bias;       // c_t, d−1 (empty ⇒ zeros)
};

// M(q): the n×n mass matrix at q.
using MassCallback = std::function<Matrix(const Vector& q)>;
// F(q, v, t): the n generalized forces on the left side of M v̇ + F = H r.
using ForceCallback = std::function<Vector(const Vector& q, const Vector& v, double t)>;
// Kinematics of one constraint at (q, v): gap, Jacobian rows and ġ terms (ConstraintKinematics).
using ConstraintCallback = std::function<ConstraintKinematics(const Vector& q, const Vector& v)>;

// One constraint of a CallbackSystem: kind, law data (μ, e, softening, Baumgarte) and kinematics.
struct CallbackConstraint {
  std::string name;  // empty: add_constraint names it c0, c1, … by position
  ConstraintKind kind = ConstraintKind::unilateral;  // bilateral (h = 0) or unilateral (h ≥ 0)
  double mu = 0.0;                                   // Coulomb coefficient
  double restitution = 0.0;                          // normal restitution e ∈ [0, 1]
  double tangential_restitution = 0.0;               // e_t ∈ [0, 1] (sim/moreau_jean_osi.hpp)
  double gamma = 0.0;                                // softening γ (as Drake's gammaN)
  double baumgarte_alpha = 0.0;   // Baumgarte α, 1/s: 0 ≤ g̈ + 2α ġ + β² g ⊥ λ ≥ 0
  double baumgarte_beta = 0.0;    // Baumgarte β, 1/s (velocity level: bias β g)
  ConstraintCallback kinematics;  // gap, ∇h, H_t, c_n, c_t at (q, v); must not be empty
};

// LagrangianSystem given by callbacks: M(q), F(q, v, t) and the constraints.
class CallbackSystem : public LagrangianSystem {
 public:
  // n = number of generalized velocities (= coordinates), d ∈ {2, 3}.
  CallbackSystem(std::string name, int dimension, Index n, MassCallback mass, ForceCallback force);

  // Appends a constraint; throws std::invalid_argument for an empty callback, μ < 0, e ∉ [0, 1],
  // γ < 0 or a non-finite α, β.
  void add_constraint(CallbackConstraint constraint);
  // Names of the n coordinates (velocities get "_dot" appended); throws unless n are given.
  void set_names(std::vector<std::string> coordinate_names);
  // Optional potential energy V(q) (for energy reports), J.
  void set_potential(std::function<double(const Vector&)> potential) {
    potential_ = std::move(potential);
  }

  std::string name() const override { return name_; }
  int dimension() const override { return dimension_; }
  Index velocity_size() const override { return n_; }
  // The names given to set_names, else "q0", "q1", ….
  std::vector<std::string> position_names() const override;
  // The names given to set_names with "_dot" appended, else "v0", "v1", ….
  std::vector<std::string> velocity_names() const override;
  double potential_energy(const Vector& q) const override {
    return potential_ ? potential_(q) : 0.0;
  }

  // Evaluates every callback; checks every size (std::invalid_argument naming the constraint) and
  // fills a ContactState that passes ContactState::validate().
  ContactState contact_state(const Vector& q, const Vector& v, double t) const override;

  // Number of constraints added.
  Index constraint_count() const { return static_cast<Index>(constraints_.size()); }

 private:
  std::string name_;
  int dimension_;
  Index n_;
  MassCallback mass_;
  ForceCallback force_;
  std::vector<CallbackConstraint> constraints_;
  std::vector<std::string> names_;
  std::function<double(const Vector&)> potential_;
};

}  // namespace moreau
