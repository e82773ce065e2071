// Exact derivatives of inverse dynamics in joint coordinates (docs/math/multibody.md
// §Derivatives; the quantities of Carpentier & Mansard, "Analytical derivatives of rigid body
// dynamics algorithms", RSS 2018, taken here as directional derivatives of the world-frame RNEA of
// multibody_dynamics.cpp).
//
// Moving q along dof k (q ⊕ δ e_k) moves every body that k carries rigidly at the motion S_k, so a
// world quantity of such a body changes as the time derivative at the unit velocity e_k does:
//   ∂S_i/∂q_k = S_k ×ₘ S_i  when k carries S_i, else 0;
//   ∂I_b/∂q_k = W ×_f I_b − I_b (W ×ₘ ·),  W = S_k when k carries body b, else 0;
//   ∂c_b/∂q_k = W_lin + W_ang × c_b  (a point of the body, the centre of mass).
// "k carries S_i": k lies on the path from the root to i's joint, or in i's own ball joint (its
// axes are the child frame's); a free joint's axes S_lin = (0; e) are constant and its S_ang =
// (e; p × e) moves only with the origin p (its linear dofs). The same rule gives the velocity
// derivative of the axis rates Ṡ_i = V_j ×ₘ S_i (V_j the twist after i's joint; a free joint's
// Ṡ_ang = (0; ṗ × e)): ∂Ṡ_i/∂v_k = ∂S_i/∂q_k.
// RNEA's recursion (A_b = A_parent + Σ Ṡ_i v_i + S_i a_i, f_b = I_b A_b + V_b ×_f I_b V_b − w_b^O,
// F = Σ_subtree f, τ_i = S_iᵀ F_body(i)) differentiated term by term gives one column of ∂τ/∂q
// and one of ∂τ/∂v per dof k, each O(bodies of k's tree).
#include "moreau/model/multibody/multibody_model.hpp"
#include "moreau/model/rigid/rotation_vector.hpp"
#include "moreau/model/multibody/spatial_algebra.hpp"

namespace moreau {
namespace {

using spatial::cross_force;
using spatial::cross_motion;
using spatial::Vector6;

// A world load (f; n) at the point c as a spatial force about O: (n + c × f; f).
Vector6 load_about_origin(const Vector6& w, const Vector3& c) {
  Vector6 out;
  out << Vector3(w.tail<3>()) + c.cross(Vector3(w.head<3>())), w.head<3>();
  return out;
}

}  // namespace

bool MultibodyModel::on_path(Index k, Index i) const {
  while (i > k) i = dof_parent_[i];
  return i == k;
}

// The file comment's rule.
bool MultibodyModel::carries(Index k, Index i) const {
  const Index first = dof_joint_first_[i];
  if (dof_type_[i] == JointType::free)
    return dof_joint_first_[k] == first && k - first < 3 && i - first >= 3;
  if (dof_type_[i] == JointType::ball && dof_joint_first_[k] == first) return true;
  return on_path(k, i);
}

bool MultibodyModel::moves(Index k, Index b) const {
  return last_dof_[b] >= 0 && on_path(k, last_dof_[b]);
}

void MultibodyModel::inverse_dynamics_derivatives(const MultibodyKinematics& k, const Vector& v,
                                                  const Vector& a, const std::vector<Vector6>& w,
                                                  Matrix& dtau_dq, Matrix& dtau_dv) const {
  const Index nb = body_count();
  // RNEA forward and backward (multibody_dynamics.cpp), keeping A_b, I_b V_b, F_b and V_j per dof.
  std::vector<Vector6> A(static_cast<size_t>(nb)), IV(static_cast<size_t>(nb)),
      F(static_cast<size_t>(nb)), Vj(static_cast<size_t>(nv_));
  Vector6 base;
  base << Vector3::Zero(), -gravity_;
  for (Index b = 0; b < nb; ++b) {
    const MultibodyBody& body = bodies_[b];
    Vector6 Ab = body.parent < 0 ? base : A[body.parent];
    Vector6 V = body.parent < 0 ? Vector6::Zero() : k.twist[body.parent];
    for (size_t c = 0; c < body.joints.size(); ++c) {
      const Index o = layout_[b].v[c], n = body.joints[c].velocity_size();
      V = body.joints[c].type == JointType::free
              ? Vector6(k.S.middleCols(o, 6) * v.segment<6>(o))
              : Vector6(V + k.S.middleCols(o, n) * v.segment(o, n));
      for (Index i = o; i < o + n; ++i) {
        Vj[i] = V;
        Ab += k.Sdot.col(i) * v[i] + k.S.col(i) * a[i];
      }
    }
    A[b] = Ab;
    const auto& I = k.inertia[b];
    IV[b] = I * k.twist[b];
    F[b] = I * Ab + cross_force(k.twist[b], IV[b]);
    if (!w.empty()) F[b] -= load_about_origin(w[b], k.com[b]);
  }
  for (Index b = nb - 1; b >= 0; --b)
    if (bodies_[b].parent >= 0) F[bodies_[b].parent] += F[b];

  dtau_dq = Matrix::Zero(nv_, nv_);
  dtau_dv = Matrix::Zero(nv_, nv_);
  std::vector<Vector6> dV(static_cast<size_t>(nb)), dA(static_cast<size_t>(nb)),
      dF(static_cast<size_t>(nb)), gV(static_cast<size_t>(nb)), gA(static_cast<size_t>(nb)),
      gF(static_cast<size_t>(nb)), dS(static_cast<size_t>(nv_));
  for (Index kk = 0; kk < nv_; ++kk) {
    const Index tree = tree_[dof_body_[kk]];
    const auto [first, end] = trees_[tree];
    const Vector6 Sk = k.S.col(kk);
    for (Index i = first; i < end; ++i)
      dS[i] = carries(kk, i) ? cross_motion(Sk, k.S.col(i)) : Vector6::Zero();
    // forward: d· = ∂/∂q_k, g· = ∂/∂v_k
    for (Index b = 0; b < nb; ++b) {
      if (tree_[b] != tree) continue;
      const MultibodyBody& body = bodies_[b];
      Vector6 dVb = body.parent < 0 ? Vector6::Zero() : dV[body.parent];
      Vector6 dAb = body.parent < 0 ? Vector6::Zero() : dA[body.parent];
      Vector6 gVb = body.parent < 0 ? Vector6::Zero() : gV[body.parent];
      Vector6 gAb = body.parent < 0 ? Vector6::Zero() : gA[body.parent];
      for (size_t c = 0; c < body.joints.size(); ++c) {
        const Index o = layout_[b].v[c], n = body.joints[c].velocity_size();
        const bool free = body.joints[c].type == JointType::free;
        for (Index i = o; i < o + n; ++i) {
          dVb += dS[i] * v[i];
          if (i == kk) gVb += Sk;
        }
        for (Index i = o; i < o + n; ++i) {
          // Ṡ_i = V_j ×ₘ S_i: ∂/∂q_k = ∂V_j ×ₘ S_i + V_j ×ₘ ∂S_i (a free joint's Ṡ has no q)
          if (!free) dAb += (cross_motion(dVb, k.S.col(i)) + cross_motion(Vj[i], dS[i])) * v[i];
          dAb += dS[i] * a[i];
          gAb += dS[i] * v[i];
          if (i == kk) gAb += k.Sdot.col(i);
        }
      }
      dV[b] = dVb, dA[b] = dAb, gV[b] = gVb, gA[b] = gAb;
      const auto& I = k.inertia[b];
      const Vector6& V = k.twist[b];
      // W = S_k when k carries the body: ∂I x = W ×_f (I x) − I (W ×ₘ x)
      const bool moved = moves(kk, b);
      Vector6 dIA = Vector6::Zero(), dIV = Vector6::Zero();
      if (moved) {
        dIA = cross_force(Sk, I * A[b]) - I * cross_motion(Sk, A[b]);
        dIV = cross_force(Sk, IV[b]) - I * cross_motion(Sk, V);
      }
      dF[b] = dIA + I * dAb + cross_force(dVb, IV[b]) + cross_force(V, dIV + I * dVb);
      if (moved && !w.empty()) {  // the load's point moves at W: ∂(c × f) = (W_lin + W_ang × c) × f
        const Vector3 dc = spatial::point_velocity(Sk, k.com[b]);
        dF[b].head<3>() -= dc.cross(Vector3(w[b].head<3>()));
      }
      gF[b] = I * gAb + cross_force(gVb, IV[b]) + cross_force(V, I * gVb);
    }
    for (Index b = nb - 1; b >= 0; --b)
      if (tree_[b] == tree && bodies_[b].parent >= 0)
        dF[bodies_[b].parent] += dF[b], gF[bodies_[b].parent] += gF[b];
    for (Index i = first; i < end; ++i) {
      const Index b = dof_body_[i];
      dtau_dq(i, kk) = dS[i].dot(F[b]) + k.S.col(i).dot(dF[b]);
      dtau_dv(i, kk) = k.S.col(i).dot(gF[b]);
    }
  }
}

Matrix MultibodyModel::passive_force_position_derivative(const Vector& q) const {
  Matrix out = Matrix::Zero(nv_, nv_);
  for_each_joint([&](const MultibodyJoint& j, Index o, Index ov) {
    if (j.stiffness == 0.0) return;
    if (j.type == JointType::hinge || j.type == JointType::slide) out(ov, ov) = -j.stiffness;
    if (j.type == JointType::ball) {
      const Vector3 theta =
          rotation_log(Quaternion(q[o], q[o + 1], q[o + 2], q[o + 3]).normalized());
      out.block<3, 3>(ov, ov) = -j.stiffness * rotation_log_jacobian(theta);
    }
  });
  return out;
}

}  // namespace moreau
