#pragma once
// A RigidWorld seen as a LagrangianSystem (model/lagrangian_system.hpp), for the event-driven
// integrator and the analysis tools (dense matrices: meant for small scenes).
//
// contact_state(q, v, t): M(q), F(q, v, t), then every joint row as a bilateral, frictionless
// constraint ("joint:<name>:<row>", tangent 0) and every contact detected with
// settings().margin (default +∞: every feature pair the narrow phase reports, so a box on a plane
// always yields its 4 (2D) or 8 (3D) corners and a rod its 2 ends, active or not) and every
// explicit contact pair, as a unilateral constraint (bilateral for a bilateral pair) with μ, e,
// γ, α, β of its material, ∇h = J_nᵀ, H_t = J_tᵀ and c_n, c_t from contact_rows (see
// world_contacts.hpp for which contact types have exact c terms).
//
// Spatial worlds: v (6 per body) and q (7 per body) differ in size; ContactState::q holds q
// (7 per body). ContactState::validate() currently requires q.size() == v.size(), so it
// rejects spatial states (reported to the lead).
#include <memory>

#include "moreau/contact/collision/world_contacts.hpp"
#include "moreau/model/lagrangian_system.hpp"

namespace moreau {

// A RigidWorld as a LagrangianSystem, its contacts found by collision detection.
class RigidWorldSystem : public LagrangianSystem {
 public:
  // The system of `world` (not null; its initial positions and velocities become initial_q,
  // initial_v); contacts are detected with `settings`.
  explicit RigidWorldSystem(std::shared_ptr<const RigidWorld> world,
                            CollisionSettings settings = {.margin = INFINITY},
                            std::string name = "rigid_world");

  std::string name() const override { return name_; }
  int dimension() const override { return world_->dimension(); }
  Index velocity_size() const override { return world_->velocity_size(); }
  Index position_size() const override { return world_->position_size(); }
  std::vector<std::string> position_names() const override { return world_->position_names(); }
  std::vector<std::string> velocity_names() const override { return world_->velocity_names(); }

  ContactState contact_state(const Vector& q, const Vector& v, double t) const override;
  // F and the constraints without M, ∇h and H_t: O(bodies + contacts) memory.
  ContactState constraint_summary(const Vector& q, const Vector& v, double t) const override;

  // K = C = 0: the weight and the applied loads are constant; the gyroscopic term ω × Iω of
  // spatial bodies is left out of the iteration matrix (Newton's method of
  // sim/moreau_jean_osi.hpp then converges linearly in it, for moderate h|ω|).
  void force_jacobians(const Vector& /*q*/, const Vector& /*v*/, double /*t*/, Matrix& K,
                       Matrix& C) const override {
    K = Matrix::Zero(velocity_size(), velocity_size());
    C = Matrix::Zero(velocity_size(), velocity_size());
  }

  Vector position_rate(const Vector& q, const Vector& v) const override {
    return world_->position_rate(q, v);
  }
  void normalize_position(Vector& q) const override { world_->normalize_position(q); }
  double kinetic_energy(const Vector& q, const Vector& v) const override {
    return world_->kinetic_energy(q, v);
  }
  double potential_energy(const Vector& q) const override { return world_->potential_energy(q); }
  // Body blocks (src/contact/rigid_step_contacts.cpp) unless settings.body_blocks is
  // false or the world has a bilateral contact pair (the dense layer, which holds it as a
  // bilateral row like any ContactConstraint, model/dense_step_contacts.cpp).
  std::unique_ptr<StepContacts> step_contacts(const StepContactSettings& settings,
                                              const ContactSolverSettings& solver) const override;
  std::vector<ImpactLaw> contact_laws() const override;  // the law of every material

  // The rigid world behind the system.
  const RigidWorld& world() const { return *world_; }
  // The collision settings of contact detection.
  const CollisionSettings& settings() const { return settings_; }
  // The contacts behind the unilateral constraints of the last contact_state call order:
  // constraint k ≥ joint rows ↔ contacts[k − joint rows] of detect_contacts(world, q, settings).
  std::vector<Contact> contacts(const Vector& q) const {
    return detect_contacts(*world_, q, settings_);
  }

 private:
  // contact_state with the dense parts (M and Jacobian rows) or without them.
  ContactState state(const Vector& q, const Vector& v, double t, bool dense) const;

  std::shared_ptr<const RigidWorld> world_;
  CollisionSettings settings_;
  std::string name_;
};

}  // namespace moreau
