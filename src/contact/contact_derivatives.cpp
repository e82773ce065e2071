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
//   two core points c_A, c_B (L = |c_A − c_B|; a sphere's centre, a capsule's end or a box's
//   corner moves with its body, the nearest point of a capsule's axis or a box's edge slides on
//   it, and two capsules' axis points slide together): ∂n = (1 − n nᵀ)(∂c_A − ∂c_B)/L,
//     ∂p_A = ∂c_A − ρ_A ∂n,  ∂p_B = ∂c_B + ρ_B ∂n.
// A hinge's or slide's limit row is the constant ±e_i: its derivatives are zero.
// The tangents turn with n by the least rotation: ∂t_j = (n × ∂n) × t_j. Then
//   ∂(J_X(p)ᵀ F)_i = ∂S_iᵀ (p × F; F) + S_iᵀ (∂p × F + p × ∂F; ∂F),
//   ∂(e·v_X(p)) = ∂e·v_X(p) + e·(∂V_lin + ∂V_ang × p + V_ang × ∂p),  V = Σ S_i u_i, ∂V = Σ ∂S_i
//   u_i.
#include <algorithm>
#include <limits>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/model/multibody/multibody_model.hpp"
#include "moreau/model/multibody/spatial_algebra.hpp"

namespace moreau {
namespace {

using spatial::cross_motion;
using spatial::Vector6;

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

// How a contact's geometry moves with its bodies (the file comment's cases).
struct ContactGeometry {
  bool face = false;  // a flat face of side `carrier` (0: A, 1: B) against the other's core point
  int carrier = 1;    // face: the side whose face carries n
  Vector3 core;       // face: the other side's core point (moves with its body)
  double rho = 0.0;   // face: the other side's rounding
  struct Side {       // points: a side's core point, its rounding, and when it slides
    Vector3 c = Vector3::Zero();
    double rho = 0.0;
    bool segment = false;  // c = m + s e on a segment (a capsule's axis, a box's edge)
    Vector3 m = Vector3::Zero(), e = Vector3::Zero();
  };
  Side side[2];
};

// The core feature of shape sh (world pose P) nearest the point x, when it is one whose motion
// is known: a sphere's centre, a capsule's axis point or end, a box's vertex, edge or face (a face
// sets `face`). False for other shapes, a point inside a box, or when `segment_allowed` is false
// and the feature slides.
bool core_feature(const Shape& sh, const Pose& P, const Vector3& x, bool segment_allowed,
                  ContactGeometry::Side& out, bool& face) {
  face = false;
  out.rho = sh.core_radius();
  if (sh.kind == ShapeKind::sphere) {
    out.c = P.position;
    return true;
  }
  if (sh.kind == ShapeKind::capsule) {
    const Vector3 e = P.orientation * Vector3::UnitX();
    const double s = e.dot(x - P.position), h = sh.half_length;
    if (std::abs(s) >= h) {  // an end
      out.c = P.position + (s > 0 ? h : -h) * e;
      return true;
    }
    out.segment = true, out.m = P.position, out.e = e;
    out.c = P.position + s * e;
    return segment_allowed;
  }
  if (sh.kind == ShapeKind::box) {
    const Vector3 local = P.orientation.conjugate() * (x - P.position);
    const Vector3& he = sh.half_extents;
    Vector3 nearest = local.cwiseMax(-he).cwiseMin(he);
    int clamped = 0, free_axis = 0;
    for (int i = 0; i < 3; ++i) {
      if (std::abs(local[i]) > he[i])
        ++clamped;
      else
        free_axis = i;
    }
    if (clamped == 0) return false;  // inside
    face = clamped == 1;
    if (clamped == 2) {  // an edge along the free axis
      out.segment = true;
      Vector3 mid = nearest;
      mid[free_axis] = 0.0;
      out.m = P.apply(mid), out.e = P.orientation * Vector3::Unit(free_axis);
    }
    out.c = P.apply(nearest);
    return !out.segment || segment_allowed;
  }
  return false;
}

// The geometry of contact ct between shapes sa (pose Pa) and sb (Pb), checked against the
// detected normal and witness points; false when its motion is not one of the known cases.
bool classify(const Contact& ct, const Shape& sa, const Pose& Pa, const Shape& sb, const Pose& Pb,
              ContactGeometry& g) {
  const Vector3 n = ct.frame.col(0);
  const Vector3 points[2] = {ct.point_a, ct.point_b};
  const double scale = 1e-7 * (1.0 + ct.point_a.norm());
  const Shape* shapes[2] = {&sa, &sb};
  const int carrier = ct.normal_on_a ? 0 : 1;
  if (shapes[carrier]->kind == ShapeKind::plane && shapes[1 - carrier]->has_core()) {
    const int o = 1 - carrier;
    const double s_o = o == 0 ? 1.0 : -1.0;
    g.face = true, g.carrier = carrier, g.rho = shapes[o]->core_radius();
    g.core = points[o] + s_o * g.rho * n;
    return true;
  }
  const Pose poses[2] = {Pa, Pb};
  if (sa.kind == ShapeKind::capsule && sb.kind == ShapeKind::capsule) {
    // two axes: each core point (the witness moved back by its radius) is an end or slides
    for (int x = 0; x < 2; ++x) {
      ContactGeometry::Side& sd = g.side[x];
      const double h = shapes[x]->half_length;
      sd.rho = shapes[x]->radius;
      sd.m = poses[x].position, sd.e = poses[x].orientation * Vector3::UnitX();
      const Vector3 c = points[x] + (x == 0 ? 1.0 : -1.0) * sd.rho * n;
      const double t = sd.e.dot(c - sd.m);
      if ((c - (sd.m + t * sd.e)).norm() > scale) return false;
      sd.segment = std::abs(t) < h - 1e-9 * (1.0 + h);
      sd.c = sd.segment ? Vector3(sd.m + t * sd.e) : Vector3(sd.m + (t > 0 ? h : -h) * sd.e);
    }
    if (g.side[0].segment && g.side[1].segment &&
        std::abs(g.side[0].e.dot(g.side[1].e)) > 1.0 - 1e-9)
      return false;  // parallel axes: the nearest points are not unique
  } else {
    // a sphere against a sphere, a capsule or a box: the feature nearest the sphere's centre
    const int sphere = sa.kind == ShapeKind::sphere ? 0 : sb.kind == ShapeKind::sphere ? 1 : -1;
    if (sphere < 0) return false;
    const int other = 1 - sphere;
    bool face = false, unused = false;
    if (!core_feature(*shapes[sphere], poses[sphere], Vector3::Zero(), false, g.side[sphere],
                      unused) ||
        !core_feature(*shapes[other], poses[other], g.side[sphere].c, true, g.side[other], face))
      return false;
    if (face) {  // the box's face carries n; the sphere's centre is the core point
      const double s_o = sphere == 0 ? 1.0 : -1.0;
      g.face = true, g.carrier = other, g.rho = g.side[sphere].rho, g.core = g.side[sphere].c;
      return (points[sphere] - (g.core - s_o * g.rho * n)).norm() <= scale;
    }
  }
  const Vector3 gap = g.side[0].c - g.side[1].c;
  if (gap.norm() <= 1e-12) return false;
  return (gap.normalized() - n).norm() <= 1e-6 &&
         (points[0] - (g.side[0].c - g.side[0].rho * n)).norm() <= scale &&
         (points[1] - (g.side[1].c + g.side[1].rho * n)).norm() <= scale;
}

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
  Vector qw;  // the bodies' poses (maximal coordinates)
  if (!which.empty()) {
    // only the points that may be the constraints asked: their pairs of bodies, their gaps
    std::set<std::pair<Index, Index>> pairs;
    double gap = -std::numeric_limits<double>::infinity();
    for (const Index i : which) {
      const ContactConstraint& c = s.constraints[i];
      if (!c.point.allFinite()) continue;
      pairs.insert(std::minmax(c.body_a, c.body_b));
      gap = std::max(gap, c.gap);
    }
    const ContactFilter keep = [&](Index a, Index b, Index, const ContactPoint& p) {
      return p.gap <= gap + 1e-9 && pairs.count(std::minmax(a, b)) > 0;
    };
    for (Contact& ct : shape_contacts(q, &qw, keep)) by_name.emplace(ct.name, std::move(ct));
  }
  auto world_q_pose = [&](Index X) { return world_->body_pose(qw, X); };

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
    ContactGeometry geo;
    if (!classify(ct, sa, world_q_pose(A).compose(sa.offset), sb,
                  world_q_pose(B).compose(sb.offset), geo))
      return false;

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
      rel += sign[x] * spatial::point_velocity(V[x], points[x]);
    }
    for (Index k = 0; k < n; ++k) {
      Vector6 W[2];
      for (int x = 0; x < 2; ++x)
        W[x] = ax.moves(k, bodies[x]) ? Vector6(ax.S.col(k)) : Vector6::Zero();
      if (W[0].isZero(0.0) && W[1].isZero(0.0)) continue;
      // the geometry's motion: ∂n and the witness points' ∂p
      Vector3 dn, dp[2];
      if (geo.face) {
        const int of = geo.carrier, oo = 1 - of;  // the face's side, the other's
        const double s_o = sign[oo];
        dn = Vector3(W[of].head<3>()).cross(nrm);
        dp[oo] = spatial::point_velocity(W[oo], geo.core) - s_o * geo.rho * dn;
        const double dg = nrm.dot(spatial::point_velocity(W[0], ct.point_a) -
                                  spatial::point_velocity(W[1], ct.point_b));
        dp[of] = dp[oo] - s_o * (dg * nrm + ct.gap * dn);
      } else {  // two core points: material ones first, then one or two sliding on segments
        Vector3 dc[2];
        if (geo.side[0].segment && geo.side[1].segment) {
          // c_A = m_A + s a, c_B = m_B + t b with a·w = b·w = 0, w = c_A − c_B: differentiated,
          // [1, −a·b; a·b, −1] (ds, dt) = −(∂a·w + a·g₀, ∂b·w + b·g₀), g₀ = ∂m_A + s ∂a − ∂m_B − t
          // ∂b
          const ContactGeometry::Side &sa_ = geo.side[0], &sb_ = geo.side[1];
          const Vector3 w_ab = sa_.c - sb_.c;
          const double s_a = sa_.e.dot(sa_.c - sa_.m), t_b = sb_.e.dot(sb_.c - sb_.m);
          const Vector3 dma = spatial::point_velocity(W[0], sa_.m),
                        dmb = spatial::point_velocity(W[1], sb_.m);
          const Vector3 da = Vector3(W[0].head<3>()).cross(sa_.e);
          const Vector3 db = Vector3(W[1].head<3>()).cross(sb_.e);
          const Vector3 g0 = dma + s_a * da - dmb - t_b * db;
          const double ab = sa_.e.dot(sb_.e);
          Eigen::Matrix2d K;
          K << 1.0, -ab, ab, -1.0;
          const Eigen::Vector2d st = K.inverse() * -Eigen::Vector2d(da.dot(w_ab) + sa_.e.dot(g0),
                                                                    db.dot(w_ab) + sb_.e.dot(g0));
          dc[0] = dma + st[0] * sa_.e + s_a * da;
          dc[1] = dmb + st[1] * sb_.e + t_b * db;
        } else {
          const int first = geo.side[0].segment ? 1 : 0;
          for (const int x : {first, 1 - first}) {
            const ContactGeometry::Side& sd = geo.side[x];
            if (!sd.segment) {
              dc[x] = spatial::point_velocity(W[x], sd.c);
              continue;
            }
            // c = m + s e, s = e·(c_other − m)
            const Vector3 dm = spatial::point_velocity(W[x], sd.m);
            const Vector3 de = Vector3(W[x].head<3>()).cross(sd.e);
            const Vector3& other = geo.side[1 - x].c;
            const double s_x = sd.e.dot(other - sd.m);
            const double ds = de.dot(other - sd.m) + sd.e.dot(dc[1 - x] - dm);
            dc[x] = dm + ds * sd.e + s_x * de;
          }
        }
        const double L = (geo.side[0].c - geo.side[1].c).norm();
        const Vector3 rel_c = dc[0] - dc[1];
        dn = (rel_c - nrm * nrm.dot(rel_c)) / L;
        dp[0] = dc[0] - geo.side[0].rho * dn;
        dp[1] = dc[1] + geo.side[1].rho * dn;
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
        drel += sign[x] * (spatial::point_velocity(dV, p) + Vector3(V[x].head<3>()).cross(dp[x]));
      }
      dy(o, k) = dn.dot(rel) + nrm.dot(drel);
      for (int j = 0; j < d - 1; ++j) dy(o + 1 + j, k) = dT.col(j).dot(rel) + T.col(j).dot(drel);
    }
  }
  return true;
}

}  // namespace moreau
