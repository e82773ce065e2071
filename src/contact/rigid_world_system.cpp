#include "moreau/contact/rigid_world_system.hpp"

#include "moreau/common/error.hpp"
#include "world_constraints.hpp"

namespace moreau {

RigidWorldSystem::RigidWorldSystem(std::shared_ptr<const RigidWorld> world,
                                   CollisionSettings settings, std::string name)
    : world_(std::move(world)), settings_(settings), name_(std::move(name)) {
  MOREAU_REQUIRE(world_ != nullptr, "RigidWorldSystem: world must not be null");
  if (!world_->has_joint_coordinates()) {
    initial_q = world_->initial_positions();
    initial_v = world_->initial_velocities();
    return;
  }
  forest_ = std::make_shared<const RigidWorldForest>(rigid_world_forest(*world_));
  initial_q = forest_->q0;
  initial_v = forest_->v0;
  index_recorded_joints();
  for (Index t = 0; t < static_cast<Index>(world_->tendons().size()); ++t)
    tendon_length0_.push_back(tendon_length(initial_q, t));
}

ContactState RigidWorldSystem::contact_state(const Vector& q, const Vector& v, double t) const {
  return state(q, v, t, true);
}
ContactState RigidWorldSystem::constraint_summary(const Vector& q, const Vector& v,
                                                  double t) const {
  return state(q, v, t, false);
}

// M, F, then the joint rows (bilateral) and the contacts (unilateral), see the header; without
// M and the Jacobian rows unless dense.
ContactState RigidWorldSystem::state(const Vector& q, const Vector& v, double t, bool dense) const {
  if (forest_) return articulated_state(q, v, t, dense);
  world_->check_state(q, v);
  const int d = world_->dimension();
  const Index n = world_->velocity_size();
  ContactState s;
  s.dimension = d;
  s.t = t;
  s.q = q;
  s.v = v;
  if (dense) s.M = world_->dense_mass_matrix(q);
  s.F = world_->forces(q, v, t);
  for (Index j = 0; j < static_cast<Index>(world_->joints().size()); ++j) {
    const BodyPairRows r = world_->joint_rows(q, v, j);
    detail::push_joint_constraints(s.constraints, world_->joints()[j].name, r.residual,
                                   dense ? r.dense(n) : Matrix(), r.bias, d, n, dense);
  }
  for (const Contact& ct : detect_contacts(*world_, q, settings_)) {
    const BodyPairRows r = contact_rows(*world_, q, v, ct);
    detail::push_contact_constraint(s.constraints, *world_, ct, dense ? r.dense(n) : Matrix(),
                                    r.bias, d, dense);
  }
  return s;
}

}  // namespace moreau
