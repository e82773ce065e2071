#include "moreau/model/multibody/rigid_world_forest.hpp"

#include <deque>

#include "moreau/common/error.hpp"
#include "moreau/model/multibody/tree_factorization.hpp"

namespace moreau {
namespace {

// Pose of `to` in the frame of `from` (from⁻¹ ∘ to).
Pose relative_pose(const Pose& from, const Pose& to) {
  const Quaternion inv = from.orientation.conjugate();
  return Pose{inv * (to.position - from.position), (inv * to.orientation).normalized()};
}

// The tree joint of a world joint walked from `parent` to `child` (file comment).
std::vector<MultibodyJoint> tree_joints(const RigidWorld& world, const Joint& j, Index child,
                                        double& shift) {
  shift = 0.0;
  if (j.kind == JointKind::fixed) return {};
  const bool turned = child != j.body_a;
  const Pose pa = world.body(j.body_a).pose;
  const Pose pb = j.body_b >= 0 ? world.body(j.body_b).pose : Pose{};
  MultibodyJoint out;
  out.name = j.name;
  out.anchor = turned ? j.anchor_b : j.anchor_a;
  out.axis =
      turned ? Vector3(-(pb.orientation.conjugate() * (pa.orientation * j.axis_a))) : j.axis_a;
  const bool planar = world.dimension() == 2;
  switch (j.kind) {
    case JointKind::revolute:
      out.type = JointType::hinge;
      if (planar) out.axis = Vector3(0.0, 0.0, turned ? -1.0 : 1.0);
      break;
    case JointKind::prismatic: {
      out.type = JointType::slide;
      shift = (pa.orientation * j.axis_a).dot(pa.apply(j.anchor_a) - pb.apply(j.anchor_b));
      break;
    }
    case JointKind::ball:
      out.type = planar ? JointType::hinge : JointType::ball;
      if (planar) out.axis = Vector3(0.0, 0.0, turned ? -1.0 : 1.0);
      break;
    case JointKind::fixed:
      break;
  }
  out.limited = j.limited;
  out.lower = j.lower - shift;
  out.upper = j.upper - shift;
  out.stiffness = j.stiffness;
  out.reference = j.reference - shift;
  out.damping = j.damping;
  out.armature = j.armature;
  out.frictionloss = j.frictionloss;
  return {out};
}

}  // namespace

RigidWorldForest rigid_world_forest(const RigidWorld& world) {
  RigidWorldForest f;
  const Index nb = world.body_count();
  const bool planar = world.dimension() == 2;
  f.model.set_gravity(world.gravity());
  f.body_of.assign(static_cast<size_t>(nb), -1);
  f.joint_body.assign(world.joints().size(), -1);
  for (Index i = 0; i < nb; ++i) {  // the maximal layout's, read on every walk (MaximalView)
    f.position_offset.push_back(world.position_offset(i));
    f.velocity_offset.push_back(world.velocity_offset(i));
  }

  // incident joints per body, in file order; the world is −1 and shares the static bodies' role
  std::vector<std::vector<Index>> incident(static_cast<size_t>(nb));
  std::vector<Index> to_world;
  const auto& joints = world.joints();
  for (Index j = 0; j < static_cast<Index>(joints.size()); ++j) {
    incident[joints[j].body_a].push_back(j);
    if (joints[j].body_b >= 0)
      incident[joints[j].body_b].push_back(j);
    else
      to_world.push_back(j);
  }
  std::vector<bool> used(joints.size(), false);
  std::vector<double> shifts;  // per model body, the slide's s₀ (unused beyond the limits)

  auto add = [&](Index i, Index parent_world_body, std::vector<MultibodyJoint> chain, Index joint,
                 bool planar_root) {
    const RigidBody& rb = world.body(i);
    MultibodyBody b;
    b.name = rb.name;
    b.parent = parent_world_body < 0 ? -1 : f.body_of[parent_world_body];
    const Pose parent_pose = parent_world_body < 0 ? Pose{} : world.body(parent_world_body).pose;
    b.offset = planar_root ? Pose{} : relative_pose(parent_pose, rb.pose);
    if (!rb.is_static) {
      b.mass = rb.mass;
      b.inertia = rb.inertia;
      if (planar) {  // only I_zz is part of a planar body
        b.inertia = Matrix3::Zero();
        b.inertia(2, 2) = rb.inertia(2, 2);
      }
    }
    const bool holds_joint = joint >= 0 && !chain.empty();
    b.joints = std::move(chain);
    f.body_of[i] = f.model.add_body(std::move(b));
    if (holds_joint)  // the chain's joints, in order, are those of `joint` and the ones after it
      for (size_t k = 0; k < f.model.body(f.body_of[i]).joints.size(); ++k)
        f.joint_body[joint + static_cast<Index>(k)] = f.body_of[i];
    f.tree_joint.push_back(joint);
    f.planar_root.push_back(planar_root);
  };

  // breadth-first walk from `start` bodies (already in the forest); −1 stands for the world
  auto walk = [&](std::deque<Index> queue) {
    while (!queue.empty()) {
      const Index u = queue.front();
      queue.pop_front();
      for (const Index j : u < 0 ? to_world : incident[u]) {
        if (used[j] || joints[j].closure) continue;  // equalities always stay rows
        const Joint& joint = joints[j];
        const Index other = joint.body_a == u ? joint.body_b : joint.body_a;
        if (other >= 0 && f.body_of[other] >= 0) continue;  // a cycle: left for closure_joints
        used[j] = true;
        double shift = 0.0;
        std::vector<MultibodyJoint> chain = tree_joints(world, joint, other, shift);
        // the joints that follow with the same bodies continue the chain (joint.hpp §Chains)
        for (Index next = j + 1;
             next < static_cast<Index>(joints.size()) && !joints[next].closure &&
             joints[next].body_a == joint.body_a && joints[next].body_b == joint.body_b;
             ++next) {
          MOREAU_REQUIRE(other == joint.body_a,
                         "joint '{}': a chain of joints must hang body_a from body_b, but body "
                         "'{}' is reached from '{}' (a cycle through a chain)",
                         joints[next].name, world.body(joint.body_b).name,
                         world.body(joint.body_a).name);
          used[next] = true;
          for (MultibodyJoint& link : tree_joints(world, joints[next], other, shift))
            chain.push_back(std::move(link));
        }
        add(other, u, std::move(chain), j, false);
        queue.push_back(other);
      }
    }
  };

  std::deque<Index> ground{-1};
  for (Index i = 0; i < nb; ++i)
    if (world.body(i).is_static) {
      add(i, -1, {}, -1, false);
      ground.push_back(i);
    }
  walk(ground);
  for (Index i = 0; i < nb; ++i) {
    if (f.body_of[i] >= 0) continue;
    std::vector<MultibodyJoint> chain;
    const std::string& name = world.body(i).name;
    if (planar) {
      MultibodyJoint x{.name = name + ".x", .type = JointType::slide, .axis = Vector3::UnitX()};
      MultibodyJoint y{.name = name + ".y", .type = JointType::slide, .axis = Vector3::UnitY()};
      MultibodyJoint t{.name = name + ".theta", .type = JointType::hinge, .axis = Vector3::UnitZ()};
      chain = {x, y, t};
    } else {
      chain = {MultibodyJoint{.name = name, .type = JointType::free}};
    }
    add(i, -1, std::move(chain), -1, planar);
    walk({i});
  }
  for (Index j = 0; j < static_cast<Index>(joints.size()); ++j) {
    if (used[j]) continue;
    MOREAU_REQUIRE(!joints[j].limited,
                   "joint '{}' closes a cycle of joints and has limits: only the joints of the "
                   "kinematic tree can be limited (give the limit to another joint of the cycle)",
                   joints[j].name);
    f.closure_joints.push_back(j);
  }

  // q₀: the stored pose, except the roots, which carry their poses
  f.q0 = f.model.neutral_positions();
  for (Index i = 0; i < nb; ++i) {
    const Index b = f.body_of[i];
    if (!f.planar_root[b]) continue;
    const Pose& p = world.body(i).pose;
    const Index o = f.model.position_offset(b, 0);
    const Vector3 axis_angle =
        Eigen::AngleAxisd(p.orientation).angle() * Eigen::AngleAxisd(p.orientation).axis();
    f.q0.segment<3>(o) << p.position.x(), p.position.y(), axis_angle.z();
  }
  // v₀: M v₀ = Σ_b J_bᵀ M_b V_b
  const Index nv = f.model.velocity_size();
  f.v0 = Vector::Zero(nv);
  if (nv == 0) return f;
  MultibodyKinematics k;
  f.model.kinematics(f.q0, k);
  Vector rhs = Vector::Zero(nv);
  for (Index i = 0; i < nb; ++i) {
    const RigidBody& rb = world.body(i);
    if (rb.is_static) continue;
    const Index b = f.body_of[i];
    const Matrix3 R = k.pose[b].rotation();
    Eigen::Matrix<double, 6, 1> p;  // (m v_G; I_G ω)
    p << rb.mass * rb.linear_velocity,
        R * f.model.body(b).inertia * R.transpose() * rb.angular_velocity;
    rhs += f.model.body_jacobian(k, b).transpose() * p;
  }
  // the bodies' own inertia: the armature (a motor's rotor) is not part of their momentum
  Matrix M = f.model.mass_matrix(k);
  for (Index b = 0; b < f.model.body_count(); ++b)
    for (size_t c = 0; c < f.model.body(b).joints.size(); ++c) {
      const MultibodyJoint& j = f.model.body(b).joints[c];
      const Index o = f.model.velocity_offset(b, static_cast<Index>(c));
      M.diagonal().segment(o, j.velocity_size()).array() -= j.armature;
    }
  TreeFactorization factor;
  MOREAU_REQUIRE(factor.factor(M, f.model.dof_parent()),
                 "the joint-coordinate mass matrix is singular at velocity {} ({}): a body "
                 "without mass at the end of a chain?",
                 factor.pivot(), f.model.velocity_names()[factor.pivot()]);
  factor.solve_in_place(rhs);
  f.v0 = rhs;
  return f;
}

}  // namespace moreau
