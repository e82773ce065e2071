#include "moreau/contact/rigid_world_system.hpp"

#include "moreau/common/error.hpp"

namespace moreau {

RigidWorldSystem::RigidWorldSystem(std::shared_ptr<const RigidWorld> world,
                                   CollisionSettings settings, std::string name)
    : world_(std::move(world)), settings_(settings), name_(std::move(name)) {
  MOREAU_REQUIRE(world_ != nullptr, "RigidWorldSystem: world must not be null");
  initial_q = world_->initial_positions();
  initial_v = world_->initial_velocities();
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
    const Matrix J = dense ? r.dense(n) : Matrix();
    for (Index k = 0; k < r.rows(); ++k) {
      ContactConstraint c;
      c.name = "joint:" + world_->joints()[j].name + ":" + std::to_string(k);
      c.kind = ConstraintKind::bilateral;
      c.gap = r.residual[k];
      if (dense) c.normal = J.row(k).transpose(), c.tangent = Matrix::Zero(n, d - 1);
      c.normal_bias = r.bias[k];
      c.tangent_bias = Vector::Zero(d - 1);
      s.constraints.push_back(std::move(c));
    }
  }
  for (const Contact& ct : detect_contacts(*world_, q, settings_)) {
    const BodyPairRows r = contact_rows(*world_, q, v, ct);
    const Matrix J = dense ? r.dense(n) : Matrix();
    ContactConstraint c;
    c.name = ct.name;
    c.kind = ct.pair >= 0 ? world_->contact_pairs()[ct.pair].kind : ConstraintKind::unilateral;
    c.mu = ct.material.mu;
    c.restitution = ct.material.restitution;
    c.law = ct.material.law;
    c.gap = ct.gap;
    if (dense) c.normal = J.row(0).transpose(), c.tangent = J.bottomRows(d - 1).transpose();
    c.normal_bias = r.bias[0];
    c.tangent_bias = r.bias.tail(d - 1);
    c.gamma = ct.material.gamma;
    c.baumgarte_alpha = ct.material.alpha;
    c.baumgarte_beta = ct.material.beta;
    s.constraints.push_back(std::move(c));
  }
  return s;
}

}  // namespace moreau
