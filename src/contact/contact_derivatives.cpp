// Exact derivatives in q of a rigid world's contact rows (LagrangianSystem::constraint_derivatives;
// docs/gradients.md §How; the symbols of docs/notation.md).
//
// A contact's rows are those of the world force F = n r_n + T r_t applied at the witness points
// p_A on body A (+F) and p_B on body B (−F), n from B to A:
//   column of ∇h, H_t:  Σ_X σ_X J_X(p_X)ᵀ e  for e = n, t₁, t₂,   σ_A = +1, σ_B = −1,
//   J_X(p)ᵀ e = (S_iᵀ (p × e; e))_i over the dofs i on the way from X to the root,
// S_i the motion axes in world Plücker coordinates (model/multibody/multibody_model.hpp; a loose
// body is a free joint about its centre of mass x: S_lin = (0; e_j), S_ang = (e_j; x × e_j)).
// Moving q along dof k moves each body that k carries at W = S_k, turns the axes it carries
// (∂S_i = S_k ×ₘ S_i) and moves the contact's geometry:
//   plane (on body f, carrying n) against a core point c_o of the other body o (a sphere's centre,
//   a capsule's end, a vertex; witness p_o = c_o − s ρ n, s = +1 when o is A, ρ its rounding):
//     ∂n = W_f,ang × n,  ∂c_o = W_o,lin + W_o,ang × c_o,  ∂p_o = ∂c_o − s ρ ∂n,
//     ∂g = n·(v_A(p_A) − v_B(p_B)) at the motions W,  ∂p_f = ∂p_o − s (∂g n + g ∂n);
//   two spheres (centres c_A, c_B, L = |c_A − c_B|): ∂n = (1 − n nᵀ)(∂c_A − ∂c_B)/L,
//     ∂p_A = ∂c_A − ρ_A ∂n,  ∂p_B = ∂c_B + ρ_B ∂n.
// A hinge's or slide's limit row is the constant ±e_i: its derivatives are zero.
// The tangents turn with n by the least rotation: ∂t_j = (n × ∂n) × t_j. Then
//   ∂(J_X(p)ᵀ F)_i = ∂S_iᵀ (p × F; F) + S_iᵀ (∂p × F + p × ∂F; ∂F),
//   ∂(e·v_X(p)) = ∂e·v_X(p) + e·(∂V_lin + ∂V_ang × p + V_ang × ∂p),  V = Σ S_i u_i, ∂V = Σ ∂S_i
//   u_i.
#include <unordered_map>
#include <unordered_set>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/model/multibody/multibody_model.hpp"
#include "moreau/model/multibody/spatial_algebra.hpp"

namespace moreau {
namespace {

using spatial::cross_motion;
using spatial::Vector6;

// The velocity of the point p moving with the spatial motion W = (ω; v_O).
Vector3 point_motion(const Vector6& W, const Vector3& p) {
  return Vector3(W.tail<3>()) + Vector3(W.head<3>()).cross(p);
}

// The dofs, motion axes and carrying rules of the world's bodies (joint coordinates or loose).
struct BodyAxes {
  Eigen::Matrix<double, 6, Eigen::Dynamic> S;  // 6 × n
  std::vector<std::vector<Index>> path;        // per world body: the dofs that move it
  std::vector<Index> model_body;               // per world body: its forest body (−1: loose)
  std::vector<Index> block;                    // loose: per world body its first dof (−1 static)
  Index size = 6, linear = 3;  // loose: a body's dofs, the linear ones first (planar: 3, 2)
  const MultibodyModel* model = nullptr;

  bool carries(Index k, Index i) const {
    if (model) return model->carries(k, i);
    const Index o = i - i % size;  // a loose body: its linear dofs carry its angular axes
    return k >= o && k < o + linear && i >= o + linear;
  }
  bool moves(Index k, Index X) const {
    if (model) return model_body[X] >= 0 && model->moves(k, model_body[X]);
    return block[X] >= 0 && k >= block[X] && k < block[X] + size;
  }
};

}  // namespace

bool RigidWorldSystem::constraint_derivatives(const Vector& q, const Vector& /*v*/, double /*t*/,
                                              const ContactState& s,
                                              const std::vector<Index>& which, const Vector& r,
                                              const Matrix& U, Matrix& df, Matrix& dy) const {
  const int d = world_->dimension();
  // a hinge's or slide's limit is a constant unit row on its coordinate: nothing moves
  std::unordered_set<std::string> constant_rows;
  for (const LimitedJoint& l : limited_)
    if (l.joint->type != JointType::ball)
      for (const char* side : {"/lower", "/upper"})
        constant_rows.insert(world_->joints()[l.index].name + side);
  for (const Index i : which) {
    const ContactConstraint& c = s.constraints[i];
    if (c.kind != ConstraintKind::unilateral) return false;
    if (!c.point.allFinite() && !constant_rows.count(c.name)) return false;
  }
  const Index n = velocity_size(), nb = world_->body_count();
  std::unordered_map<std::string, Contact> by_name;
  if (!which.empty())
    for (Contact& ct : shape_contacts(q)) by_name.emplace(ct.name, std::move(ct));

  BodyAxes ax;
  ax.S.resize(6, n);
  ax.path.resize(static_cast<size_t>(nb));
  ax.model_body.assign(static_cast<size_t>(nb), -1);
  ax.block.assign(static_cast<size_t>(nb), -1);
  if (forest_) {
    MultibodyKinematics k;
    forest_->model.kinematics(q, k);
    ax.S = k.S;
    ax.model = &forest_->model;
    for (Index X = 0; X < nb; ++X) {
      if (world_->velocity_offset(X) < 0) continue;
      const Index b = forest_->body_of[X];
      ax.model_body[X] = b;
      for (Index i = forest_->model.last_dof(b); i >= 0; i = forest_->model.dof_parent()[i])
        ax.path[X].push_back(i);
    }
  } else {
    // (x, y, z, ω) spatial, (x, y, θ) planar: the θ axis is z
    ax.size = world_->body_velocity_size();
    ax.linear = d;
    for (Index X = 0; X < nb; ++X) {
      const Index o = world_->velocity_offset(X);
      if (o < 0) continue;
      ax.block[X] = o;
      const Vector3 x = world_->body_pose(q, X).position;
      for (Index j = 0; j < ax.size; ++j) {
        const bool linear = j < d;
        const Vector3 e = Vector3::Unit(linear ? static_cast<int>(j) : d == 2 ? 2 : j - 3);
        if (linear)
          ax.S.col(o + j) << Vector3::Zero(), e;
        else
          ax.S.col(o + j) << e, x.cross(e);
        ax.path[X].push_back(o + j);
      }
    }
  }

  df = Matrix::Zero(n, n);
  dy = Matrix::Zero(d * static_cast<Index>(which.size()), n);
  for (size_t w = 0; w < which.size(); ++w) {
    const ContactConstraint& cc = s.constraints[which[w]];
    if (!cc.point.allFinite()) continue;  // a constant row (above)
    const auto found = by_name.find(cc.name);
    if (found == by_name.end()) return false;
    const Contact& ct = found->second;
    if (ct.joint >= 0) return false;
    const Index A = ct.body_a, B = ct.body_b;
    const Shape& sa = world_->body(A).shapes.at(static_cast<size_t>(ct.shape_a));
    const Shape& sb = world_->body(B).shapes.at(static_cast<size_t>(ct.shape_b));
    const Index f = ct.normal_on_a ? A : B;  // the plane's body
    const Shape& plane = ct.normal_on_a ? sa : sb;
    const Shape& other = ct.normal_on_a ? sb : sa;
    const bool spheres = sa.kind == ShapeKind::sphere && sb.kind == ShapeKind::sphere;
    if (!spheres && !(plane.kind == ShapeKind::plane && other.has_core())) return false;

    const Vector3 nrm = ct.frame.col(0);
    const Eigen::Matrix<double, 3, Eigen::Dynamic> T = ct.frame.middleCols(1, d - 1);
    const Index o = d * static_cast<Index>(w);
    const Vector3 F = nrm * r[o] + T * r.segment(o + 1, d - 1);
    const Vector u = U.col(static_cast<Index>(w));
    const Index bodies[2] = {A, B};
    const Vector3 points[2] = {ct.point_a, ct.point_b};
    const double sign[2] = {1.0, -1.0};
    // the bodies' twists at u and the relative velocity of the witness points
    Vector6 V[2];
    Vector3 rel = Vector3::Zero();
    for (int x = 0; x < 2; ++x) {
      V[x].setZero();
      for (const Index i : ax.path[bodies[x]]) V[x] += ax.S.col(i) * u[i];
      rel += sign[x] * point_motion(V[x], points[x]);
    }
    for (Index k = 0; k < n; ++k) {
      Vector6 W[2];
      for (int x = 0; x < 2; ++x)
        W[x] = ax.moves(k, bodies[x]) ? Vector6(ax.S.col(k)) : Vector6::Zero();
      if (W[0].isZero(0.0) && W[1].isZero(0.0)) continue;
      // the geometry's motion: ∂n and the witness points' ∂p
      Vector3 dn, dp[2];
      if (spheres) {
        const Vector3 ca = ct.point_a + sa.radius * nrm, cb = ct.point_b - sb.radius * nrm;
        const Vector3 dca = point_motion(W[0], ca), dcb = point_motion(W[1], cb);
        const double L = (ca - cb).norm();
        dn = (dca - dcb - nrm * nrm.dot(dca - dcb)) / L;
        dp[0] = dca - sa.radius * dn;
        dp[1] = dcb + sb.radius * dn;
      } else {
        const int of = ct.normal_on_a ? 0 : 1, oo = 1 - of;  // plane's side, the other's
        const double s_o = sign[oo], rho = other.core_radius();
        dn = Vector3(W[of].head<3>()).cross(nrm);
        const Vector3 core = points[oo] + s_o * rho * nrm;
        dp[oo] = point_motion(W[oo], core) - s_o * rho * dn;
        const double dg = nrm.dot(point_motion(W[0], ct.point_a) - point_motion(W[1], ct.point_b));
        dp[of] = dp[oo] - s_o * (dg * nrm + ct.gap * dn);
      }
      const Vector3 turn = nrm.cross(dn);  // the frame's least rotation
      const Eigen::Matrix<double, 3, Eigen::Dynamic> dT = skew(turn) * T;
      const Vector3 dF = dn * r[o] + dT * r.segment(o + 1, d - 1);
      Vector3 drel = Vector3::Zero();
      for (int x = 0; x < 2; ++x) {
        const Vector3& p = points[x];
        Vector6 at, dat;  // the force about O, and its change with the point and direction
        at << p.cross(F), F;
        dat << dp[x].cross(F) + p.cross(dF), dF;
        Vector6 dV = Vector6::Zero();
        for (const Index i : ax.path[bodies[x]]) {
          const Vector6 dS =
              ax.carries(k, i) ? cross_motion(ax.S.col(k), ax.S.col(i)) : Vector6::Zero();
          df(i, k) += sign[x] * (dS.dot(at) + ax.S.col(i).dot(dat));
          dV += dS * u[i];
        }
        drel += sign[x] * (point_motion(dV, p) + Vector3(V[x].head<3>()).cross(dp[x]));
      }
      dy(o, k) = dn.dot(rel) + nrm.dot(drel);
      for (int j = 0; j < d - 1; ++j) dy(o + 1 + j, k) = dT.col(j).dot(rel) + T.col(j).dot(drel);
    }
  }
  return true;
}

}  // namespace moreau
