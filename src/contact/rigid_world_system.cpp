#include "moreau/contact/rigid_world_system.hpp"

#include <algorithm>

#include "moreau/common/error.hpp"
#include "world_constraints.hpp"

namespace moreau {

RigidWorldSystem::RigidWorldSystem(std::shared_ptr<const RigidWorld> world,
                                   CollisionSettings settings, std::string name)
    : world_(std::move(world)), settings_(settings), name_(std::move(name)) {
  MOREAU_REQUIRE(world_ != nullptr, "RigidWorldSystem: world must not be null");
  if (!world_->has_joint_coordinates()) {
    for (const RigidBody& b : world_->bodies())
      MOREAU_REQUIRE(!b.massless,
                     "body '{}' has no mass and no joint: a massless link must hang "
                     "on joints between bodies with mass",
                     b.name);
    initial_q = world_->initial_positions();
    initial_v = world_->initial_velocities();
    apply_initial_state_edits();
    settle_start_pose();
    return;
  }
  forest_ = std::make_shared<const RigidWorldForest>(rigid_world_forest(*world_));
  limited_ = find_limited_joints();
  shapes_may_touch_ = shapes_may_touch(*world_, settings_);
  for (const RigidBody& b : world_->bodies()) {
    if (!b.is_static && !(b.applied_force.isZero(0.0) && b.applied_torque.isZero(0.0)))
      constant_loads_ = true;
    double radius = 0.0;
    for (const Shape& sh : b.shapes)
      radius = std::max(radius, sh.offset.position.norm() + sh.bounding_radius());
    shape_radius_.push_back(radius);
  }
  initial_q = forest_->q0;
  initial_v = forest_->v0;
  index_recorded_joints();
  index_joint_springs();
  // actuators, fixed tendons and joint couplings act on coordinates of the forest's joints
  auto require_tree_joint = [&](Index j, const std::string& entry) {
    MOREAU_REQUIRE(forest_->joint_body[j] >= 0,
                   "{}: joint '{}' closes a cycle of joints, so it has no coordinate to act on "
                   "(act on another joint of the cycle)",
                   entry, world_->joints()[j].name);
  };
  for (const Actuator& a : world_->actuators())
    require_tree_joint(a.joint, fmt::format("actuator '{}'", a.name));
  for (const Tendon& t : world_->tendons())
    for (const TendonJoint& term : t.joints)
      require_tree_joint(term.joint, fmt::format("tendon '{}'", t.name));
  for (const Coupling& c : world_->couplings())
    if (c.kind == CouplingKind::joint)
      for (const Index j : {c.first, c.second})
        if (j >= 0) require_tree_joint(j, fmt::format("coupling '{}'", c.name));
  for (Index t = 0; t < static_cast<Index>(world_->tendons().size()); ++t)
    tendon_length0_.push_back(tendon_length(initial_q, t));  // at the model's pose, as MuJoCo
  clamp_model_pose();
  apply_initial_state_edits();
  settle_start_pose();
}

// The world's initial-state edits on top of the model's state; their controls are held.
void RigidWorldSystem::apply_initial_state_edits() {
  model_q_ = initial_q;
  KeyframeState s =
      apply_keyframe(world_->initial_state_edits(), initial_q, initial_v, "initial state");
  initial_q = std::move(s.q);
  initial_v = std::move(s.v);
  initial_ctrl_ = std::move(s.ctrl);
  if (!world_->initial_state_edits().ctrl.empty()) ctrl_ = initial_ctrl_;
  for (const Keyframe& k : world_->keyframes()) keyframe_state(k);  // every name resolves
}

ContactState RigidWorldSystem::contact_state(const Vector& q, const Vector& v, double t) const {
  return state(q, v, t, true);
}
ContactState RigidWorldSystem::step_state(const Vector& q, const Vector& v, double t, double reach,
                                          double margin, bool with_record) const {
  return forest_ ? articulated_state(q, v, t, true, reach, margin, with_record)
                 : contact_state(q, v, t);
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
  if (qfrc_applied_.size() || xfrc_applied_.size()) s.F -= input_forces(q);
  for (Index j = 0; j < static_cast<Index>(world_->joints().size()); ++j) {
    const BodyPairRows r = world_->joint_rows(q, v, j);
    detail::push_joint_constraints(s.constraints, world_->joints()[j].name, r.residual,
                                   dense ? r.dense(n) : Matrix(), r.bias, d, n, dense);
  }
  std::vector<Contact> found = detect_contacts(*world_, q, settings_);
  drop_ignored_overlaps(found, true);
  for (const Contact& ct : found) {
    const BodyPairRows r = contact_rows(*world_, q, v, ct);
    detail::push_contact_constraint(s.constraints, *world_, ct, dense ? r.dense(n) : Matrix(),
                                    r.bias, d, dense);
  }
  return s;
}

void RigidWorldSystem::set_inputs(Vector qfrc, Matrix xfrc, Vector ctrl) {
  const Index nu = static_cast<Index>(world_->actuators().size());
  MOREAU_REQUIRE(ctrl.size() == 0 || ctrl.size() == nu,
                 "ctrl has {} entries, system '{}' has {} actuators", ctrl.size(), name_, nu);
  for (Index i = 0; i < ctrl.size(); ++i)
    MOREAU_REQUIRE(std::isfinite(ctrl[i]), "ctrl[{}] = {} (actuator '{}'): must be finite", i,
                   ctrl[i], world_->actuators()[i].name);
  const Index n = velocity_size();
  MOREAU_REQUIRE(qfrc.size() == 0 || qfrc.size() == n,
                 "qfrc_applied has {} entries, system '{}' has {} velocities", qfrc.size(), name_,
                 n);
  MOREAU_REQUIRE(xfrc.size() == 0 || (xfrc.rows() == world_->body_count() && xfrc.cols() == 6),
                 "xfrc_applied is {}×{}, system '{}' needs {}×6 (a wrench per body)", xfrc.rows(),
                 xfrc.cols(), name_, world_->body_count());
  for (Index i = 0; i < qfrc.size(); ++i)
    MOREAU_REQUIRE(std::isfinite(qfrc[i]), "qfrc_applied[{}] = {}: must be finite", i, qfrc[i]);
  for (Index i = 0; i < xfrc.rows(); ++i)
    for (Index k = 0; k < 6; ++k)
      MOREAU_REQUIRE(std::isfinite(xfrc(i, k)), "xfrc_applied[{}][{}] = {}: must be finite", i, k,
                     xfrc(i, k));
  // inputs that are all zero are held as none, so the forces skip their pass (the Simulator
  // sets its inputs at every step(n), zeros included: a twentieth of an arm's step)
  if ((qfrc.array() == 0.0).all()) qfrc.resize(0);
  if ((xfrc.array() == 0.0).all()) xfrc.resize(0, 0);
  qfrc_applied_ = std::move(qfrc);
  xfrc_applied_ = std::move(xfrc);
  ctrl_ = std::move(ctrl);
}

// τ + Σ_b J_bᵀ w_b: in maximal coordinates J_b selects the body's block (v_G, ω; planar v_x, v_y,
// ω_z), in joint coordinates it is the forest's body Jacobian.
Vector RigidWorldSystem::input_forces(const Vector& q) const {
  const Index n = velocity_size();
  Vector f = qfrc_applied_.size() ? qfrc_applied_ : Vector::Zero(n);
  if (xfrc_applied_.size() == 0 || (xfrc_applied_.array() == 0.0).all()) return f;
  const bool planar = world_->dimension() == 2;
  MultibodyKinematics k;
  if (forest_) forest_->model.kinematics(q, k);
  for (Index i = 0; i < world_->body_count(); ++i) {
    Eigen::Matrix<double, 6, 1> w = xfrc_applied_.row(i).transpose();
    if ((w.array() == 0.0).all() || world_->body(i).is_static) continue;
    if (planar) w.segment<3>(2).setZero();  // keeps f_x, f_y and τ_z
    if (forest_) {
      f += forest_->model.body_jacobian(k, forest_->body_of[i]).transpose() * w;
    } else if (planar) {
      f.segment<3>(world_->velocity_offset(i)) += Vector3(w[0], w[1], w[5]);
    } else {
      f.segment<6>(world_->velocity_offset(i)) += w;
    }
  }
  return f;
}

}  // namespace moreau
