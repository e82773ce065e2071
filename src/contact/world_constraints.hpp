#pragma once
// The constraints of a rigid world's contact state from their rows (internal to the contact
// layer): one builder for the maximal model (rigid_world_system.cpp) and the joint-coordinate one
// (articulated_world.cpp), which differ only in the rows J (k × n) and c they pass.
#include <string>
#include <vector>

#include "moreau/contact/collision/world_contacts.hpp"
#include "moreau/model/contact_state.hpp"

namespace moreau::detail {

// The k rows of joint `joint` as bilateral, frictionless constraints "<prefix>:<name>:<row>"
// (prefix "joint", or "coupling") with residuals g (k), rows J (k × n, used when dense) and c (k).
inline void push_joint_constraints(std::vector<ContactConstraint>& out, const std::string& joint,
                                   const Eigen::Ref<const Vector>& residual, const Matrix& J,
                                   const Eigen::Ref<const Vector>& c, int d, Index n, bool dense,
                                   const char* prefix = "joint") {
  for (Index k = 0; k < residual.size(); ++k) {
    ContactConstraint cc;
    cc.name = std::string(prefix) + ":" + joint + ":" + std::to_string(k);
    cc.kind = ConstraintKind::bilateral;
    cc.gap = residual[k];
    if (dense) cc.normal = J.row(k).transpose(), cc.tangent = Matrix::Zero(n, d - 1);
    cc.normal_bias = c[k];
    cc.tangent_bias = Vector::Zero(d - 1);
    out.push_back(std::move(cc));
  }
}

// A unilateral, frictionless bound g ≥ 0 named owner + side (e.g. "elbow" + "/upper") with row J
// (n, used when dense), c and restitution e, stated while g is within `band` (the joint limits'
// rule, world_contacts.cpp); the name is formed only for a bound that is stated (this runs for
// every limited joint and tendon at every step).
inline void push_bound_constraint(std::vector<ContactConstraint>& out, const std::string& owner,
                                  const char* side, double gap, double band, const Vector& row,
                                  double c, double restitution, int d, Index n, bool dense) {
  if (!(gap <= band)) return;
  ContactConstraint cc;
  cc.name = owner + side;
  cc.kind = ConstraintKind::unilateral;
  cc.restitution = restitution;
  cc.gap = gap;
  if (dense) cc.normal = row, cc.tangent = Matrix::Zero(n, d - 1);
  cc.normal_bias = c;
  cc.tangent_bias = Vector::Zero(d - 1);
  out.push_back(std::move(cc));
}

// A detected contact as a constraint with its material, rows J (d × n, used when dense) and c (d).
inline void push_contact_constraint(std::vector<ContactConstraint>& out, const RigidWorld& world,
                                    const Contact& ct, const Matrix& J,
                                    const Eigen::Ref<const Vector>& c, int d, bool dense) {
  ContactConstraint cc;
  cc.name = ct.name;
  cc.kind = ct.pair >= 0 ? world.contact_pairs()[ct.pair].kind : ConstraintKind::unilateral;
  cc.mu = ct.material.mu;
  cc.restitution = ct.material.restitution;
  cc.law = ct.material.law;
  cc.gap = ct.gap;
  if (ct.joint < 0) {  // a joint limit has no shapes: no point, normal or bodies
    cc.point = ct.point();
    cc.world_normal = ct.frame.col(0);
    cc.body_a = ct.body_a, cc.body_b = ct.body_b;
  }
  if (dense) cc.normal = J.row(0).transpose(), cc.tangent = J.bottomRows(d - 1).transpose();
  cc.normal_bias = c[0];
  cc.tangent_bias = c.tail(d - 1);
  cc.gamma = ct.material.gamma;
  cc.baumgarte_alpha = ct.material.alpha;
  cc.baumgarte_beta = ct.material.beta;
  out.push_back(std::move(cc));
}

}  // namespace moreau::detail
