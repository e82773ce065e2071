// The tendons and couplings of an articulated world as constraint rows in joint coordinates
// (model/rigid/equality.hpp; docs/math/multibody.md §Tendons and couplings).
#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/contact/rigid_world_system.hpp"
#include "world_constraints.hpp"

namespace moreau {
namespace {

// A scalar function of the state and its rows: value y(q), J = ∂ẏ/∂v (n), c = J̇ v.
struct ScalarRow {
  double value = 0.0;
  Vector J;
  double c = 0.0;
};

// The coordinate q_j of a revolute or prismatic tree joint j: y = q[o], J = e_ov, c = 0.
ScalarRow joint_row(const RigidWorldForest& f, Index j, const Vector& q) {
  const MultibodyModel& m = f.model;
  const Index b = f.joint_body[j];
  MOREAU_REQUIRE(b >= 0, "joint {} has no coordinate of the kinematic tree", j);
  const Index k = j - f.tree_joint[b];
  ScalarRow r;
  r.value = q[m.position_offset(b, k)];
  r.J = Vector::Zero(m.velocity_size());
  r.J[m.velocity_offset(b, k)] = 1.0;
  return r;
}

// A site x = R_b p + o_b of the tendon path: its J_x (3 × n) and J̇_x v (3), from the body's
// J_b rows (v_G; ω) and its bias (a_G; α): J_x = J_v − [r]× J_ω with r = x − x_G, and
// J̇_x v = a_G + α × r + ω × (ω × r). A site on the world or a static body has J_x = 0.
struct SitePoint {
  Vector3 x;
  Matrix J;
  Vector3 c;
};

SitePoint site_point(const RigidWorld& world, const RigidWorldForest& f,
                     const MultibodyKinematics& k,
                     const std::vector<Eigen::Matrix<double, 6, 1>>& bias, const Vector& v,
                     const TendonSite& s) {
  const MultibodyModel& m = f.model;
  SitePoint out{Vector3::Zero(), Matrix::Zero(3, m.velocity_size()), Vector3::Zero()};
  if (s.body < 0) {
    out.x = s.point;
    return out;
  }
  const Index b = f.body_of[s.body];
  out.x = k.pose[b].apply(s.point);
  if (world.body(s.body).is_static) return out;
  const Matrix Jb = m.body_jacobian(k, b);
  const Vector3 r = out.x - k.com[b];
  Matrix3 r_cross;
  r_cross << 0, -r.z(), r.y(), r.z(), 0, -r.x(), -r.y(), r.x(), 0;
  out.J = Jb.topRows(3) - r_cross * Jb.bottomRows(3);
  if (bias.empty()) return out;  // kinematics without velocities: no J̇_x v
  const Vector3 w = Jb.bottomRows(3) * v;
  out.c = bias[b].head<3>() + bias[b].tail<3>().cross(r) + w.cross(w.cross(r));
  return out;
}

// The length of tendon t and its rows (equality.hpp):
//   fixed     L = offset + Σ coef_j q_j, J = Σ coef_j e_j, c = 0;
//   spatial   L = Σ ℓ_k, ℓ_k = ‖Δ_k‖, Δ_k = x_{k+1} − x_k, u_k = Δ_k / ℓ_k:
//             J = Σ u_kᵀ (J_{k+1} − J_k),
//             c = Σ u_kᵀ (c_{k+1} − c_k) + (‖Δ̇_k‖² − (u_k·Δ̇_k)²) / ℓ_k   (d/dt u_k = (Δ̇_k −
//             u_k (u_k·Δ̇_k)) / ℓ_k).
ScalarRow tendon_row(const RigidWorld& world, const RigidWorldForest& f, Index t, const Vector& q,
                     const Vector& v, const MultibodyKinematics& k) {
  const Tendon& tendon = world.tendons()[t];
  const Index n = f.model.velocity_size();
  ScalarRow r;
  r.J = Vector::Zero(n);
  if (!tendon.joints.empty()) {
    r.value = tendon.offset;
    for (const TendonJoint& term : tendon.joints) {
      const ScalarRow j = joint_row(f, term.joint, q);
      r.value += term.coef * j.value;
      r.J += term.coef * j.J;
    }
    return r;
  }
  std::vector<Eigen::Matrix<double, 6, 1>> bias;
  if (k.with_velocities) bias = f.model.bias_accelerations(k, v);
  std::vector<SitePoint> sites;
  for (const TendonSite& s : tendon.path) sites.push_back(site_point(world, f, k, bias, v, s));
  for (size_t i = 0; i + 1 < sites.size(); ++i) {
    const Vector3 delta = sites[i + 1].x - sites[i].x;
    const double length = delta.norm();
    MOREAU_REQUIRE(length > 1e-12,
                   "tendon '{}': sites {} and {} of its path coincide, so its direction is "
                   "undefined",
                   tendon.name, i, i + 1);
    const Vector3 u = delta / length;
    const Matrix dJ = sites[i + 1].J - sites[i].J;
    r.value += length;
    r.J += dJ.transpose() * u;
    if (!k.with_velocities) continue;
    const Vector3 rate = dJ * v;
    r.c += u.dot(sites[i + 1].c - sites[i].c) +
           (rate.squaredNorm() - u.dot(rate) * u.dot(rate)) / length;
  }
  return r;
}

}  // namespace

double RigidWorldSystem::tendon_length(const Vector& q, Index t) const {
  MOREAU_REQUIRE(forest_ && t >= 0 && t < static_cast<Index>(world_->tendons().size()),
                 "tendon_length: no tendon {} in system '{}'", t, name_);
  MultibodyKinematics k;
  forest_->model.kinematics(q, k);
  return tendon_row(*world_, *forest_, t, q, Vector::Zero(forest_->model.velocity_size()), k).value;
}

// Coupling y = P(x), P(x) = Σ a_i x^i: g = y − P(x), J = J_y − P′(x) J_x,
// c = c_y − P′(x) c_x − P″(x) (J_x v)² (a tendon's y and x are L − L₀).
void RigidWorldSystem::append_coupling_constraints(const Vector& q, const Vector& v,
                                                   const MultibodyKinematics& k, bool dense,
                                                   std::vector<ContactConstraint>& out) const {
  const Index n = forest_->model.velocity_size();
  for (const Coupling& cp : world_->couplings()) {
    auto row = [&](Index i) {
      if (cp.kind == CouplingKind::joint) return joint_row(*forest_, i, q);
      ScalarRow r = tendon_row(*world_, *forest_, i, q, v, k);
      r.value -= tendon_length0_[static_cast<size_t>(i)];
      return r;
    };
    const ScalarRow y = row(cp.first);
    ScalarRow x{0.0, Vector::Zero(n), 0.0};
    if (cp.second >= 0) x = row(cp.second);
    const auto& a = cp.polycoef;
    const double P = a[0] + x.value * (a[1] + x.value * (a[2] + x.value * (a[3] + x.value * a[4])));
    const double dP = a[1] + x.value * (2 * a[2] + x.value * (3 * a[3] + x.value * 4 * a[4]));
    const double ddP = 2 * a[2] + x.value * (6 * a[3] + x.value * 12 * a[4]);
    const double xdot = x.J.dot(v);
    const Vector residual = Vector::Constant(1, y.value - P);
    const Matrix J = (y.J - dP * x.J).transpose();
    const Vector c = Vector::Constant(1, y.c - dP * x.c - ddP * xdot * xdot);
    detail::push_joint_constraints(out, cp.name, residual, J, c, world_->dimension(), n, dense,
                                   "coupling");
  }
}

// Bounds lower ≤ L ≤ upper: g = L − lower (row J, c) and g = upper − L (row −J, −c).
void RigidWorldSystem::append_tendon_limit_constraints(const Vector& q, const Vector& v,
                                                       const MultibodyKinematics& k, bool dense,
                                                       std::vector<ContactConstraint>& out) const {
  const Index n = forest_->model.velocity_size();
  const int d = world_->dimension();
  const double band = std::max(settings_.margin, 0.1);
  for (Index t = 0; t < static_cast<Index>(world_->tendons().size()); ++t) {
    const Tendon& tendon = world_->tendons()[t];
    if (!tendon.limited) continue;
    const ScalarRow r = tendon_row(*world_, *forest_, t, q, v, k);
    detail::push_bound_constraint(out, tendon.name, "/lower", r.value - tendon.lower, band, r.J,
                                  r.c, tendon.limit_restitution, d, n, dense);
    detail::push_bound_constraint(out, tendon.name, "/upper", tendon.upper - r.value, band, -r.J,
                                  -r.c, tendon.limit_restitution, d, n, dense);
  }
}

}  // namespace moreau
