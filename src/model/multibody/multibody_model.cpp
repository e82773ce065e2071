// The model's structure: validation, the dof layout, names, and the configuration-space
// operations on q (rate, integration on the manifold, normalization). Dynamics are in
// multibody_dynamics.cpp.
#include <cmath>
#include <unordered_set>

#include "moreau/common/error.hpp"
#include "moreau/model/multibody/multibody_model.hpp"
#include "moreau/model/rigid/rotation_vector.hpp"

namespace moreau {
namespace {

bool finite3(const Vector3& x) { return x.allFinite(); }

Quaternion quat_at(const Vector& q, Index o) {
  return Quaternion(q[o], q[o + 1], q[o + 2], q[o + 3]);
}
void set_quat(Vector& q, Index o, const Quaternion& r) {
  q.segment<4>(o) << r.w(), r.x(), r.y(), r.z();
}

void validate_joint(const MultibodyJoint& j, const std::string& where, bool alone, bool root) {
  if (j.type == JointType::free) {
    MOREAU_REQUIRE(root && alone, "{}: a free joint must be the only joint of a body of the world",
                   where);
  }
  if (j.type == JointType::hinge || j.type == JointType::slide) {
    MOREAU_REQUIRE(finite3(j.axis) && j.axis.norm() > 1e-12,
                   "{}.axis: must be a non-zero finite vector, got ({}, {}, {})", where, j.axis.x(),
                   j.axis.y(), j.axis.z());
  }
  MOREAU_REQUIRE(finite3(j.anchor), "{}.anchor: must be finite", where);
  if (j.limited) {
    MOREAU_REQUIRE(!std::isnan(j.lower) && !std::isnan(j.upper) && j.lower <= j.upper,
                   "{}.range: lower must not exceed upper, got [{}, {}]", where, j.lower, j.upper);
  }
  const std::pair<const char*, double> nonnegative[] = {{"stiffness", j.stiffness},
                                                        {"damping", j.damping},
                                                        {"armature", j.armature},
                                                        {"frictionloss", j.frictionloss}};
  for (const auto& [field, value] : nonnegative)
    MOREAU_REQUIRE(std::isfinite(value) && value >= 0.0, "{}.{}: must be finite and ≥ 0, got {}",
                   where, field, value);
  MOREAU_REQUIRE(std::isfinite(j.reference), "{}.reference: must be finite, got {}", where,
                 j.reference);
}

}  // namespace

std::string to_string(JointType type) {
  switch (type) {
    case JointType::hinge:
      return "hinge";
    case JointType::slide:
      return "slide";
    case JointType::ball:
      return "ball";
    case JointType::free:
      return "free";
  }
  return "?";
}

JointType joint_type_from_string(const std::string& name) {
  if (name == "hinge") return JointType::hinge;
  if (name == "slide") return JointType::slide;
  if (name == "ball") return JointType::ball;
  if (name == "free") return JointType::free;
  throw_invalid("unknown joint type '{}' (expected hinge, slide, ball, free)", name);
}

Index MultibodyModel::find_body(const std::string& name) const {
  for (Index b = 0; b < body_count(); ++b)
    if (bodies_[b].name == name) return b;
  return -1;
}

Index MultibodyModel::add_body(MultibodyBody body) {
  const std::string where = fmt::format("body '{}'", body.name);
  MOREAU_REQUIRE(!body.name.empty(), "body {}: the name must not be empty", body_count());
  MOREAU_REQUIRE(find_body(body.name) < 0, "{}: the name is already taken", where);
  MOREAU_REQUIRE(body.parent >= -1 && body.parent < body_count(),
                 "{}.parent: must be −1 (the world) or a body added before it, got {}", where,
                 body.parent);
  MOREAU_REQUIRE(std::isfinite(body.mass) && body.mass >= 0.0, "{}.mass: must be ≥ 0, got {}",
                 where, body.mass);
  MOREAU_REQUIRE(finite3(body.com), "{}.com: must be finite", where);
  MOREAU_REQUIRE(body.inertia.allFinite() && (body.inertia - body.inertia.transpose()).norm() <=
                                                 1e-9 * std::max(1.0, body.inertia.norm()),
                 "{}.inertia: must be finite and symmetric", where);
  const double lowest = Eigen::SelfAdjointEigenSolver<Matrix3>(body.inertia).eigenvalues()[0];
  MOREAU_REQUIRE(lowest >= -1e-12 * std::max(1.0, body.inertia.norm()),
                 "{}.inertia: must be positive semidefinite, its smallest eigenvalue is {}", where,
                 lowest);
  MOREAU_REQUIRE(
      finite3(body.offset.position) && std::abs(body.offset.orientation.norm() - 1.0) <= 1e-6,
      "{}.offset: position must be finite and the quaternion unit (norm {})", where,
      body.offset.orientation.norm());
  body.offset.orientation.normalize();
  std::unordered_set<std::string> names;
  for (const MultibodyBody& b : bodies_)
    for (const MultibodyJoint& j : b.joints) names.insert(j.name);
  for (size_t k = 0; k < body.joints.size(); ++k) {
    MultibodyJoint& j = body.joints[k];
    if (j.name.empty())
      j.name = j.type == JointType::free ? body.name : fmt::format("{}.joint{}", body.name, k);
    validate_joint(j, fmt::format("{}: joint '{}'", where, j.name), body.joints.size() == 1,
                   body.parent < 0);
    MOREAU_REQUIRE(names.insert(j.name).second, "{}: joint name '{}' is already taken", where,
                   j.name);
    if (j.type == JointType::hinge || j.type == JointType::slide) j.axis.normalize();
  }
  bodies_.push_back(std::move(body));
  relayout();
  return body_count() - 1;
}

// Trees in the order of their roots; in each tree, bodies in index order (parents first) and
// each body's chain in order, so that λ(i) < i and every tree's dofs are one block.
void MultibodyModel::relayout() {
  const Index nb = body_count();
  tree_.assign(static_cast<size_t>(nb), -1);
  trees_.clear();
  for (Index b = 0; b < nb; ++b) {
    const Index p = bodies_[b].parent;
    if (p < 0) {
      tree_[b] = static_cast<Index>(trees_.size());
      trees_.push_back({0, 0});
    } else {
      tree_[b] = tree_[p];
    }
  }
  layout_.assign(static_cast<size_t>(nb), BodyLayout{});
  last_dof_.assign(static_cast<size_t>(nb), -1);
  dof_parent_.clear();
  dof_body_.clear();
  dof_joint_first_.clear();
  dof_type_.clear();
  std::vector<double> armature;
  turned_offset_.assign(static_cast<size_t>(nb), 0);
  principal_inertia_.assign(static_cast<size_t>(nb), 0);
  for (Index b = 0; b < nb; ++b) {
    const Quaternion& r = bodies_[b].offset.orientation;
    const Matrix3& J = bodies_[b].inertia;
    turned_offset_[b] = !(r.w() == 1.0 && r.x() == 0.0 && r.y() == 0.0 && r.z() == 0.0);
    principal_inertia_[b] = J(0, 1) == 0.0 && J(0, 2) == 0.0 && J(1, 2) == 0.0;
  }
  nq_ = nv_ = 0;
  for (Index t = 0; t < static_cast<Index>(trees_.size()); ++t) {
    trees_[t].first = nv_;
    for (Index b = 0; b < nb; ++b) {
      if (tree_[b] != t) continue;
      const Index p = bodies_[b].parent;
      Index previous = p < 0 ? -1 : last_dof_[p];
      for (const MultibodyJoint& j : bodies_[b].joints) {
        layout_[b].q.push_back(nq_);
        layout_[b].v.push_back(nv_);
        nq_ += j.position_size();
        const Index joint_first = nv_;
        for (Index k = 0; k < j.velocity_size(); ++k) {
          dof_parent_.push_back(previous);
          dof_body_.push_back(b);
          dof_joint_first_.push_back(joint_first);
          dof_type_.push_back(j.type);
          armature.push_back(j.armature);
          previous = nv_++;
        }
      }
      last_dof_[b] = previous;
    }
    trees_[t].second = nv_;
  }
  armature_ = Eigen::Map<const Vector>(armature.data(), nv_);
  any_armature_ = !armature_.isZero(0.0);
}

Vector MultibodyModel::neutral_positions() const {
  Vector q = Vector::Zero(nq_);
  for (Index b = 0; b < body_count(); ++b) {
    const MultibodyBody& body = bodies_[b];
    for (size_t k = 0; k < body.joints.size(); ++k) {
      const Index o = layout_[b].q[k];
      if (body.joints[k].type == JointType::ball) set_quat(q, o, Quaternion::Identity());
      if (body.joints[k].type == JointType::free) {  // the body's stored world pose
        q.segment<3>(o) = body.offset.position;
        set_quat(q, o + 3, body.offset.orientation);
      }
    }
  }
  return q;
}

Vector MultibodyModel::position_rate(const Vector& q, const Vector& v) const {
  // hinges and slides alone (nq = nv: every ball and free joint has more coordinates than
  // velocities), numbered alike in q and v (relayout): q̇ = v
  if (nq_ == nv_) return v;
  Vector qd = Vector::Zero(nq_);
  for_each_joint([&](const MultibodyJoint& joint, Index o, Index ov) {
    switch (joint.type) {
      case JointType::hinge:
      case JointType::slide:
        qd[o] = v[ov];
        break;
      case JointType::ball: {  // ½ quat ⊗ (0, ω_child)
        const Quaternion r = quat_at(q, o) * Quaternion(0.0, v[ov], v[ov + 1], v[ov + 2]);
        qd.segment<4>(o) << 0.5 * r.w(), 0.5 * r.x(), 0.5 * r.y(), 0.5 * r.z();
        break;
      }
      case JointType::free: {  // (ṗ, ½ (0, ω_world) ⊗ quat)
        qd.segment<3>(o) = v.segment<3>(ov);
        const Quaternion r = Quaternion(0.0, v[ov + 3], v[ov + 4], v[ov + 5]) * quat_at(q, o + 3);
        qd.segment<4>(o + 3) << 0.5 * r.w(), 0.5 * r.x(), 0.5 * r.y(), 0.5 * r.z();
        break;
      }
    }
  });
  return qd;
}

Vector MultibodyModel::integrate(const Vector& q, const Vector& v, double h) const {
  if (nq_ == nv_) return q + h * v;  // hinges and slides alone (position_rate)
  Vector out = q;
  for_each_joint([&](const MultibodyJoint& joint, Index o, Index ov) {
    switch (joint.type) {
      case JointType::hinge:
      case JointType::slide:
        out[o] += h * v[ov];
        break;
      case JointType::ball:
        set_quat(out, o,
                 (quat_at(q, o) * rotation_exp(h * Vector3(v.segment<3>(ov)))).normalized());
        break;
      case JointType::free:
        out.segment<3>(o) += h * v.segment<3>(ov);
        set_quat(
            out, o + 3,
            (rotation_exp(h * Vector3(v.segment<3>(ov + 3))) * quat_at(q, o + 3)).normalized());
        break;
    }
  });
  return out;
}

// Per joint: hinge and slide q₁ − q₀; ball log(quat₀⁻¹ ⊗ quat₁) (the body's axes, as
// integrate's quat ⊗ exp(δ)); free (p₁ − p₀, log(quat₁ ⊗ quat₀⁻¹)) (world axes, exp(δ) ⊗ quat).
Vector MultibodyModel::difference(const Vector& q0, const Vector& q1) const {
  Vector d = Vector::Zero(nv_);
  for_each_joint([&](const MultibodyJoint& joint, Index o, Index ov) {
    switch (joint.type) {
      case JointType::hinge:
      case JointType::slide:
        d[ov] = q1[o] - q0[o];
        break;
      case JointType::ball:
        d.segment<3>(ov) = rotation_log(quat_at(q0, o).conjugate() * quat_at(q1, o));
        break;
      case JointType::free:
        d.segment<3>(ov) = q1.segment<3>(o) - q0.segment<3>(o);
        d.segment<3>(ov + 3) = rotation_log(quat_at(q1, o + 3) * quat_at(q0, o + 3).conjugate());
        break;
    }
  });
  return d;
}

void MultibodyModel::normalize(Vector& q) const {
  if (nq_ == nv_) return;  // no quaternion (position_rate)
  for_each_joint([&](const MultibodyJoint& joint, Index o, Index) {
    if (joint.type == JointType::ball) q.segment<4>(o).normalize();
    if (joint.type == JointType::free) q.segment<4>(o + 3).normalize();
  });
}

// Names in dof order: per joint, its name followed by the suffixes of its type.
std::vector<std::string> MultibodyModel::names(bool positions) const {
  static const std::vector<const char*> q_suffixes[] = {
      {".q"}, {".q"}, {".qw", ".qx", ".qy", ".qz"}, {".x", ".y", ".z", ".qw", ".qx", ".qy", ".qz"}};
  static const std::vector<const char*> v_suffixes[] = {
      {".v"}, {".v"}, {".wx", ".wy", ".wz"}, {".vx", ".vy", ".vz", ".wx", ".wy", ".wz"}};
  std::vector<std::string> out;
  for (Index t = 0; t < static_cast<Index>(trees_.size()); ++t)
    for (Index b = 0; b < body_count(); ++b) {
      if (tree_[b] != t) continue;
      for (const MultibodyJoint& j : bodies_[b].joints)
        for (const char* suffix : (positions ? q_suffixes : v_suffixes)[static_cast<int>(j.type)])
          out.push_back(j.name + suffix);
    }
  return out;
}

std::vector<std::string> MultibodyModel::position_names() const { return names(true); }
std::vector<std::string> MultibodyModel::velocity_names() const { return names(false); }

void MultibodyModel::check_state(const Vector& q, const Vector& v) const {
  MOREAU_REQUIRE(q.size() == nq_, "q has {} entries, the model has {} coordinates", q.size(), nq_);
  MOREAU_REQUIRE(v.size() == nv_, "v has {} entries, the model has {} velocities", v.size(), nv_);
  for (Index i = 0; i < nq_; ++i)
    MOREAU_REQUIRE(std::isfinite(q[i]), "q[{}] ({}) is not finite: {}", i, position_names()[i],
                   q[i]);
  for (Index i = 0; i < nv_; ++i)
    MOREAU_REQUIRE(std::isfinite(v[i]), "v[{}] ({}) is not finite: {}", i, velocity_names()[i],
                   v[i]);
}

}  // namespace moreau
