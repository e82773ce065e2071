// Kinematics and dynamics of a MultibodyModel in world-frame spatial vectors (Featherstone 2008,
// ch. 2 for the notation; docs/math/multibody.md for the derivations):
//   motion m = (ω; v_O), force f = (n_O; f), both about the world origin O in world axes;
//   m₁ ×ₘ m₂ = (ω₁ × ω₂; ω₁ × v₂ + v₁ × ω₂),   m ×_f f = (ω × n + v × f; ω × f);
//   body inertia about O: I_O = [[I_G − m[c]×², m[c]×], [−m[c]×, m 1]], c the centre of mass
//   (world) and I_G = R I Rᵀ, so that ½ VᵀI_O V = ½ m |v_G|² + ½ ωᵀ I_G ω.
// A body's twist is V_b = V_parent + Σ_k S_k v_k over its chain, S_k the motion axis of dof k in
// world coordinates. Axes fixed in the moving frame (hinge, slide, ball) change as Ṡ = V ×ₘ S
// (§2.9); the free joint's axes are written with ω in world axes and the linear velocity of the
// body origin p: S_lin = (0; e_j) (constant) and S_ang = (e_j; p × e_j), so Ṡ_ang = (0; ṗ × e_j).
#include <cmath>

#include "moreau/model/multibody/multibody_model.hpp"
#include "moreau/model/multibody/spatial_algebra.hpp"

namespace moreau {
namespace {

using spatial::Vector6;

// I_O of body b at the pose of the kinematics (file comment; R its rotation), in its ten numbers:
// −m [c]×² = m (|c|² 1 − c cᵀ). I_G = R I Rᵀ is symmetric: its upper triangle is formed as
// (R I)_i · R_j and mirrored, and a diagonal I (principal axes: `diagonal`) scales R's columns.
spatial::CompactInertia compact_inertia(const MultibodyBody& body, bool diagonal, const Matrix3& R,
                                        const Vector3& c) {
  spatial::CompactInertia I;
  I.m = body.mass;
  I.h = body.mass * c;
  const Matrix3& J = body.inertia;
  Matrix3 RJ;
  if (diagonal)
    RJ = R * J.diagonal().asDiagonal();
  else
    RJ.noalias() = R * J;
  const double hc = I.h.dot(c);
  for (int i = 0; i < 3; ++i)
    for (int j = i; j < 3; ++j) {
      const double e = RJ.row(i).dot(R.row(j)) - I.h[i] * c[j] + (i == j ? hc : 0.0);
      I.I_O(i, j) = I.I_O(j, i) = e;
    }
  return I;
}

// I A + V ×_f (I V) for the compact inertia I, written out in scalars (the products of
// spatial_algebra.hpp, fused; a tenth of a robot's step): with (n; p) = I V,
// I m = (I_O ω + h × v; m v − h × ω) and V ×_f (n; p) = (ω × n + v × p; ω × p). With VIV, adds
// V·(I V) (twice the body's kinetic energy) to it.
Vector6 inertia_force(const spatial::CompactInertia& I, const Vector6& A, const Vector6& V,
                      double* VIV = nullptr) {
  const double* J = I.I_O.data();  // column-major
  const double hx = I.h.x(), hy = I.h.y(), hz = I.h.z(), m = I.m;
  // y = I x for the motion x = (ω; v)
  auto times = [&](const double* x, double* y) {
    y[0] = J[0] * x[0] + J[3] * x[1] + J[6] * x[2] + (hy * x[5] - hz * x[4]);
    y[1] = J[1] * x[0] + J[4] * x[1] + J[7] * x[2] + (hz * x[3] - hx * x[5]);
    y[2] = J[2] * x[0] + J[5] * x[1] + J[8] * x[2] + (hx * x[4] - hy * x[3]);
    y[3] = m * x[3] - (hy * x[2] - hz * x[1]);
    y[4] = m * x[4] - (hz * x[0] - hx * x[2]);
    y[5] = m * x[5] - (hx * x[1] - hy * x[0]);
  };
  double f[6], np[6];  // I A, and (n; p) = I V
  times(A.data(), f);
  times(V.data(), np);
  const double wx = V[0], wy = V[1], wz = V[2], vx = V[3], vy = V[4], vz = V[5];
  const double n0 = np[0], n1 = np[1], n2 = np[2], p0 = np[3], p1 = np[4], p2 = np[5];
  if (VIV) *VIV += (wx * n0 + wy * n1 + wz * n2) + (vx * p0 + vy * p1 + vz * p2);
  Vector6 out;
  out[0] = f[0] + (wy * n2 - wz * n1) + (vy * p2 - vz * p1);
  out[1] = f[1] + (wz * n0 - wx * n2) + (vz * p0 - vx * p2);
  out[2] = f[2] + (wx * n1 - wy * n0) + (vx * p1 - vy * p0);
  out[3] = f[3] + (wy * p2 - wz * p1);
  out[4] = f[4] + (wz * p0 - wx * p2);
  out[5] = f[5] + (wx * p1 - wy * p0);
  return out;
}

// out = a ×ₘ b (spatial_algebra.hpp's cross_motion) for b and out read and written in place, six
// contiguous entries each: a column of S and of Ṡ, without the temporaries.
void cross_motion_into(const Vector6& a, const double* b, double* out) {
  out[0] = a[1] * b[2] - a[2] * b[1];
  out[1] = a[2] * b[0] - a[0] * b[2];
  out[2] = a[0] * b[1] - a[1] * b[0];
  out[3] = (a[1] * b[5] - a[2] * b[4]) + (a[4] * b[2] - a[5] * b[1]);
  out[4] = (a[2] * b[3] - a[0] * b[5]) + (a[5] * b[0] - a[3] * b[2]);
  out[5] = (a[0] * b[4] - a[1] * b[3]) + (a[3] * b[1] - a[4] * b[0]);
}

Quaternion quat_at(const Vector& q, Index o) {
  return Quaternion(q[o], q[o + 1], q[o + 2], q[o + 3]);
}

// θ u of a unit quaternion (the rotation vector, |θ| ≤ π).
Vector3 rotation_log(Quaternion r) {
  if (r.w() < 0.0) r.coeffs() = -r.coeffs();
  const double s = r.vec().norm();
  if (s < 1e-12) return 2.0 * r.vec();
  return 2.0 * std::atan2(s, r.w()) * r.vec() / s;
}

}  // namespace

void MultibodyModel::kinematics(const Vector& q, MultibodyKinematics& out) const {
  const Index nb = body_count();
  out.pose.resize(static_cast<size_t>(nb));
  out.rotation.resize(static_cast<size_t>(nb));
  out.com.resize(static_cast<size_t>(nb));
  out.S.resize(6, nv_);
  out.with_velocities = out.with_inertias = false;
  for (Index b = 0; b < nb; ++b) {
    const MultibodyBody& body = bodies_[b];
    // products of unit quaternions (the offsets' and the hinges' are unit by construction) are
    // unit to round-off, which grows with the depth, not with time (q is read afresh each call);
    // R is the frame's orientation as a matrix, kept in step with it (a matrix turns a vector in
    // half the operations of a quaternion)
    Pose X = body.offset;
    Matrix3 R;
    if (body.parent >= 0) {
      const Pose& P = out.pose[body.parent];
      const Matrix3& R_P = out.rotation[body.parent];
      X.position = P.position + R_P * body.offset.position;
      // an offset without rotation (the common case) leaves the parent's orientation as it is
      if (!turned_offset_[b]) {
        X.orientation = P.orientation;
        R = R_P;
      } else {
        X.orientation = P.orientation * body.offset.orientation;
        R = X.orientation.toRotationMatrix();
      }
    } else {
      R = X.orientation.toRotationMatrix();
    }
    for (size_t k = 0; k < body.joints.size(); ++k) {
      const MultibodyJoint& j = body.joints[k];
      const Index o = layout_[b].q[k], ov = layout_[b].v[k];
      switch (j.type) {
        case JointType::hinge: {  // rotation by q about the axis through the anchor
          // (an anchor at the frame's origin, MJCF's default, leaves p where it is: a = p)
          const bool at_origin = j.anchor.isZero(0.0);
          const Vector3 u = R * j.axis;
          const Vector3 a = at_origin ? X.position : Vector3(X.position + R * j.anchor);
          const double half = 0.5 * q[o], c = std::cos(half), sn = std::sin(half);
          X.orientation =
              X.orientation * Quaternion(c, sn * j.axis.x(), sn * j.axis.y(), sn * j.axis.z());
          R = X.orientation.toRotationMatrix();
          if (!at_origin) X.position = a - R * j.anchor;
          out.S.col(ov) << u, a.cross(u);
          break;
        }
        case JointType::slide: {
          const Vector3 u = R * j.axis;
          X.position += q[o] * u;
          out.S.col(ov) << Vector3::Zero(), u;
          break;
        }
        case JointType::ball: {  // ω in the child's axes
          const Vector3 a = X.position + R * j.anchor;
          X.orientation = (X.orientation * quat_at(q, o)).normalized();
          R = X.orientation.toRotationMatrix();
          X.position = a - R * j.anchor;
          for (int c = 0; c < 3; ++c) out.S.col(ov + c) << R.col(c), a.cross(Vector3(R.col(c)));
          break;
        }
        case JointType::free: {  // (ṗ; ω world)
          X.position = q.segment<3>(o);
          X.orientation = quat_at(q, o + 3).normalized();
          R = X.orientation.toRotationMatrix();
          for (int c = 0; c < 3; ++c) {
            const Vector3 e = Vector3::Unit(c);
            out.S.col(ov + c) << Vector3::Zero(), e;
            out.S.col(ov + 3 + c) << e, X.position.cross(e);
          }
          break;
        }
      }
    }
    out.pose[b] = X;
    out.rotation[b] = R;
    out.com[b] = X.position + R * body.com;
  }
}

void MultibodyModel::kinematics(const Vector& q, const Vector& v, MultibodyKinematics& out) const {
  kinematics(q, out);
  velocity_kinematics(v, out);
}

void MultibodyModel::velocity_kinematics(const Vector& v, MultibodyKinematics& out) const {
  const Index nb = body_count();
  out.twist.resize(static_cast<size_t>(nb));  // every entry is written below
  out.Sdot.resize(6, nv_);
  for (Index b = 0; b < nb; ++b) {
    const MultibodyBody& body = bodies_[b];
    Vector6 V = body.parent < 0 ? Vector6::Zero() : out.twist[body.parent];
    for (size_t k = 0; k < body.joints.size(); ++k) {
      const MultibodyJoint& j = body.joints[k];
      const Index ov = layout_[b].v[k], n = j.velocity_size();
      if (j.type == JointType::free) {
        const Vector3 pdot = v.segment<3>(ov);
        for (int c = 0; c < 3; ++c) {
          out.Sdot.col(ov + c).setZero();
          out.Sdot.col(ov + 3 + c) << Vector3::Zero(), pdot.cross(Vector3::Unit(c));
        }
        V = out.S.middleCols(ov, 6) * v.segment<6>(ov);
        continue;
      }
      for (Index c = 0; c < n; ++c) V += out.S.col(ov + c) * v[ov + c];
      for (Index c = 0; c < n; ++c)
        cross_motion_into(V, out.S.col(ov + c).data(), out.Sdot.col(ov + c).data());
    }
    out.twist[b] = V;
  }
  world_inertias(out);
  out.with_velocities = true;
}

void MultibodyModel::world_inertias(MultibodyKinematics& out) const {
  if (out.with_inertias) return;
  const Index nb = body_count();
  out.inertia.resize(static_cast<size_t>(nb));
  for (Index b = 0; b < nb; ++b)
    out.inertia[b] =
        compact_inertia(bodies_[b], principal_inertia_[b], out.rotation[b], out.com[b]);
  out.with_inertias = true;
}

// CRBA (Featherstone §6.2) in world coordinates: composite inertias I^c_b = I_b + Σ children,
// then M_ij = S_jᵀ I^c_{body(i)} S_i for every j on the way from i to the root.
Matrix MultibodyModel::mass_matrix(const MultibodyKinematics& k) const {
  Matrix M;
  mass_matrix(k, M);
  return M;
}

void MultibodyModel::mass_matrix(const MultibodyKinematics& k, Matrix& M) const {
  const Index nb = body_count();
  thread_local std::vector<spatial::CompactInertia> Ic;  // scratch: no allocation per call
  Ic.resize(static_cast<size_t>(nb));
  for (Index b = 0; b < nb; ++b)
    Ic[b] = k.with_inertias
                ? k.inertia[b]
                : compact_inertia(bodies_[b], principal_inertia_[b], k.rotation[b], k.com[b]);
  for (Index b = nb - 1; b >= 0; --b)
    if (bodies_[b].parent >= 0) Ic[bodies_[b].parent] += Ic[b];
  M.setZero(nv_, nv_);
  for (Index i = 0; i < nv_; ++i) {
    const Vector6 F = Ic[dof_body_[i]] * k.S.col(i);
    for (Index j = i; j >= 0; j = dof_parent_[j]) M(i, j) = M(j, i) = k.S.col(j).dot(F);
  }
  if (any_armature_) M.diagonal() += armature_;
}

Matrix MultibodyModel::mass_matrix(const Vector& q) const {
  MultibodyKinematics k;
  kinematics(q, k);
  return mass_matrix(k);
}

// RNEA (Featherstone §5.3) in world coordinates, gravity as the base's acceleration (0; −g⃗):
//   A_b = A_parent + Σ_k (Ṡ_k v_k + S_k a_k),   f_b = I_b A_b + V_b ×_f I_b V_b,
//   f_parent += f_b (leaves to root),            τ_i = S_iᵀ f_{body(i)}.
void MultibodyModel::rnea(const MultibodyKinematics& k, const Vector& v, const Vector* a,
                          Vector& tau, double* kinetic) const {
  const Index nb = body_count();
  thread_local std::vector<Vector6> A, f;  // scratch: no allocation per call
  A.resize(static_cast<size_t>(nb));
  f.resize(static_cast<size_t>(nb));
  Vector6 base;
  base << Vector3::Zero(), -gravity_;
  double VIV = 0.0;  // Σ V_b·(I_b V_b), with kinetic
  for (Index b = 0; b < nb; ++b) {
    const MultibodyBody& body = bodies_[b];
    Vector6 Ab = body.parent < 0 ? base : A[body.parent];
    if (!body.joints.empty()) {  // the body's dofs are contiguous, ending at last_dof_[b]
      const Index first = layout_[b].v.front(), last = last_dof_[b];
      for (Index i = first; i <= last; ++i) Ab += k.Sdot.col(i) * v[i];
      if (a)
        for (Index i = first; i <= last; ++i) Ab += k.S.col(i) * (*a)[i];
    }
    A[b] = Ab;
    f[b] = inertia_force(k.inertia[b], Ab, k.twist[b], kinetic ? &VIV : nullptr);
  }
  for (Index b = nb - 1; b >= 0; --b)
    if (bodies_[b].parent >= 0) f[bodies_[b].parent] += f[b];
  tau.resize(nv_);
  for (Index i = 0; i < nv_; ++i) tau[i] = k.S.col(i).dot(f[dof_body_[i]]);
  if (kinetic) *kinetic = 0.5 * VIV + armature_energy(v);
}

Vector MultibodyModel::inverse_dynamics(const Vector& q, const Vector& v, const Vector& a) const {
  MultibodyKinematics k;
  kinematics(q, v, k);
  Vector tau;
  rnea(k, v, &a, tau);
  if (any_armature_) tau += armature_.cwiseProduct(a);
  return tau;
}

Vector MultibodyModel::bias_forces(const MultibodyKinematics& k, const Vector& v) const {
  Vector tau;
  rnea(k, v, nullptr, tau);
  return tau;
}

void MultibodyModel::bias_forces(const MultibodyKinematics& k, const Vector& v, Vector& tau,
                                 double* kinetic) const {
  rnea(k, v, nullptr, tau, kinetic);
}

Vector MultibodyModel::bias_forces(const Vector& q, const Vector& v) const {
  MultibodyKinematics k;
  kinematics(q, v, k);
  return bias_forces(k, v);
}

Vector MultibodyModel::passive_forces(const Vector& q, const Vector& v) const {
  Vector tau = Vector::Zero(nv_);
  for_each_joint([&](const MultibodyJoint& j, Index o, Index ov) {
    const Index n = j.velocity_size();
    tau.segment(ov, n) = -j.damping * v.segment(ov, n);
    if (j.stiffness == 0.0) return;
    if (j.type == JointType::hinge || j.type == JointType::slide)
      tau[ov] -= j.stiffness * (q[o] - j.reference);
    if (j.type == JointType::ball) tau.segment<3>(ov) -= j.stiffness * rotation_log(quat_at(q, o));
  });
  return tau;
}

Matrix MultibodyModel::body_jacobian(const MultibodyKinematics& k, Index b) const {
  Matrix J = Matrix::Zero(6, nv_);
  const Vector3 c = k.com[b];
  for (Index i = last_dof_[b]; i >= 0; i = dof_parent_[i]) {
    const Vector3 w = k.S.col(i).head<3>();
    J.col(i) << Vector3(k.S.col(i).tail<3>()) + w.cross(c), w;
  }
  return J;
}

Matrix MultibodyModel::point_jacobian(const MultibodyKinematics& k, Index b,
                                      const Vector3& p) const {
  Matrix J = Matrix::Zero(3, nv_);
  for (Index i = last_dof_[b]; i >= 0; i = dof_parent_[i])
    J.col(i) = Vector3(k.S.col(i).tail<3>()) + Vector3(k.S.col(i).head<3>()).cross(p);
  return J;
}

// T = ½ vᵀ M v without forming M (O(n), where CRBA is O(n·depth) and allocates n × n): per body
// ½ m |v_G|² + ½ ωᵀ (R I Rᵀ) ω from its twist (ω; v_O), v_G = v_O + ω × c, plus ½ a v_i² per dof
// of a joint with armature a (M's diagonal addition).
double MultibodyModel::kinetic_energy(const Vector& q, const Vector& v) const {
  MultibodyKinematics k;
  kinematics(q, v, k);
  return kinetic_energy(k, v);
}

double MultibodyModel::kinetic_energy(const MultibodyKinematics& k, const Vector& v) const {
  double T = 0.0;
  for (Index b = 0; b < body_count(); ++b) {
    const MultibodyBody& body = bodies_[b];
    const Vector3 w = k.twist[b].head<3>();
    const Vector3 vG = Vector3(k.twist[b].tail<3>()) + w.cross(k.com[b]);
    const Vector3 wb = k.rotation[b].transpose() * w;  // ω in body axes
    T += 0.5 * (body.mass * vG.squaredNorm() + wb.dot(body.inertia * wb));
  }
  return T + armature_energy(v);
}

double MultibodyModel::armature_energy(const Vector& v) const {
  return any_armature_ ? 0.5 * armature_.dot(v.cwiseProduct(v)) : 0.0;
}

double MultibodyModel::potential_energy(const Vector& q) const {
  MultibodyKinematics k;
  kinematics(q, k);
  double V = spring_energy(q);
  for (Index b = 0; b < body_count(); ++b) V -= bodies_[b].mass * gravity_.dot(k.com[b]);
  return V;
}

double MultibodyModel::spring_energy(const Vector& q) const {
  double V = 0.0;
  for_each_joint([&](const MultibodyJoint& j, Index o, Index) {
    if (j.type == JointType::hinge || j.type == JointType::slide)
      V += 0.5 * j.stiffness * (q[o] - j.reference) * (q[o] - j.reference);
    if (j.type == JointType::ball)
      V += 0.5 * j.stiffness * rotation_log(quat_at(q, o)).squaredNorm();
  });
  return V;
}

std::vector<Eigen::Matrix<double, 6, 1>> MultibodyModel::bias_accelerations(
    const MultibodyKinematics& k, const Vector& v) const {
  const Index nb = body_count();
  std::vector<Vector6> A(static_cast<size_t>(nb)), out(static_cast<size_t>(nb));
  for (Index b = 0; b < nb; ++b) {
    const MultibodyBody& body = bodies_[b];
    Vector6 Ab = body.parent < 0 ? Vector6::Zero() : A[body.parent];
    for (size_t c = 0; c < body.joints.size(); ++c)
      for (Index i = layout_[b].v[c]; i < layout_[b].v[c] + body.joints[c].velocity_size(); ++i)
        Ab += k.Sdot.col(i) * v[i];
    A[b] = Ab;
    const Vector3 w = k.twist[b].head<3>(), alpha = Ab.head<3>(), c = k.com[b];
    const Vector3 vG = Vector3(k.twist[b].tail<3>()) + w.cross(c);
    out[b] << Vector3(Ab.tail<3>()) + alpha.cross(c) + w.cross(vG), alpha;
  }
  return out;
}

}  // namespace moreau
