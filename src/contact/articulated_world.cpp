// A RigidWorld with joints in the joint coordinates of its kinematic forest
// (contact/rigid_world_system.hpp §Joint coordinates; docs/math/multibody.md): sizes, names,
// records, the configuration manifold, energies, and the contact state with the maximal model's
// rows mapped through the body Jacobians.
#include <algorithm>
#include <cmath>
#include <limits>

#include "moreau/common/error.hpp"
#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/model/multibody/pooled_kinematics.hpp"
#include "world_constraints.hpp"

namespace moreau {
namespace {

// The world's bodies at (q, v) of the forest: kinematics, the maximal q and v (RigidWorld's
// layout: spatial (v_G, ω); planar (v_x, v_y, ω_z)), and per dynamic body its J̇_b v and its rows
// of J_b in that layout, both formed on first use (a contact or a closure joint needs two bodies'
// rows, an arm in free flight none); without v, the poses alone.
struct MaximalView {
  const MultibodyModel& m;
  const RigidWorldForest& f;
  bool planar = false;
  PooledKinematics pooled;  // the walk's arrays, reused from step to step
  MultibodyKinematics& k = *pooled;
  Vector q, v;                      // maximal coordinates and velocities
  const Vector* v_joint = nullptr;  // the joint velocities (nullptr: poses alone)
  mutable std::vector<Matrix> J;    // per world body: m × nv, empty until jacobian(i)
  mutable std::vector<Eigen::Matrix<double, 6, 1>> bias;  // per model body, empty until jdot_v
  std::vector<Index> body_of_offset;  // world body of each maximal velocity block

  // with_maps false: the kinematics and the maximal q and v without the maps to the maximal
  // rows, for a state that neither detects contacts nor states closure rows; with_maximal false
  // (with_maps false too): the kinematics alone, q and v left empty, for such a state that no
  // record reads either (an arm's step in a run that keeps no states)
  MaximalView(const RigidWorld& world, const RigidWorldForest& forest, const Vector& q_joint,
              const Vector* v_joint, bool with_maps = true, bool with_maximal = true)
      : m(forest.model), f(forest), planar(world.dimension() == 2), v_joint(v_joint) {
    if (v_joint)
      m.kinematics(q_joint, *v_joint, k);
    else
      m.kinematics(q_joint, k);
    if (!with_maximal && !with_maps) return;
    const Index mb = world.body_velocity_size();
    q = Vector::Zero(world.position_size());
    v = Vector::Zero(world.velocity_size());
    if (with_maps) {
      J.assign(static_cast<size_t>(world.body_count()), Matrix());
      body_of_offset.assign(static_cast<size_t>(world.dynamic_body_count()), -1);
    }
    for (Index i = 0; i < world.body_count(); ++i) {
      const Index ov = f.velocity_offset[i];
      if (ov < 0) continue;
      const Index b = f.body_of[i], oq = f.position_offset[i];
      if (with_maps) body_of_offset[ov / mb] = i;
      const Pose& pose = k.pose[b];
      if (planar) {
        const Eigen::AngleAxisd aa(pose.orientation);
        q.segment<3>(oq) << pose.position.x(), pose.position.y(), aa.angle() * aa.axis().z();
      } else {
        q.segment<3>(oq) = pose.position;
        q.segment<4>(oq + 3) << pose.orientation.w(), pose.orientation.x(), pose.orientation.y(),
            pose.orientation.z();
      }
      if (!v_joint) continue;  // positions only
      // (v_G; ω) from the twist (ω; v_O): v_G = v_O + ω × c
      const Vector3 w = k.twist[b].head<3>();
      const Vector3 vG = point_velocity(i, k.com[b]);
      if (planar)
        v.segment<3>(ov) << vG.x(), vG.y(), w.z();
      else
        v.segment<6>(ov) << vG, w;
    }
  }

  // J̇_b v of world body i in the maximal layout (m rows; the bodies' bias accelerations are
  // formed at the first call).
  Vector jdot_v(Index i) const {
    if (bias.empty()) bias = m.bias_accelerations(k, *v_joint);
    const Index b = f.body_of[i], mb = planar ? 3 : 6;
    Vector out(mb);
    for (Index r = 0; r < mb; ++r) out[r] = bias[b][planar ? kPlanarRows[r] : r];
    return out;
  }

  // J_b of world body i in the maximal layout (m × nv), formed once.
  const Matrix& jacobian(Index i) const {
    if (J[i].size() == 0) {
      const Matrix Jb = m.body_jacobian(k, f.body_of[i]);
      if (planar) {
        J[i].resize(3, Jb.cols());
        for (int r = 0; r < 3; ++r) J[i].row(r) = Jb.row(kPlanarRows[r]);
      } else {
        J[i] = Jb;
      }
    }
    return J[i];
  }

  // The velocity of the point x (world) of world body i from its twist (ω; v_O): v_O + ω × x
  // (a static body's twist is zero).
  Vector3 point_velocity(Index i, const Vector3& x) const {
    const auto& V = k.twist[f.body_of[i]];
    return V.tail<3>() + V.head<3>().cross(x);
  }

  // J = block_a J_a + block_b J_b and c = bias + block_a J̇_a v + block_b J̇_b v of maximal rows.
  // J_b is zero but on the dofs of b's chain to its root (MultibodyModel::last_dof, dof_parent):
  // each row is formed on those columns only (a humanoid's foot: 9 of 27).
  void map(const BodyPairRows& r, Index mb, Index nv, Matrix& Jout, Vector& c) const {
    Jout.setZero(r.rows(), nv);
    c = r.bias;
    for (const auto& [offset, block] :
         {std::pair{r.offset_a, &r.block_a}, std::pair{r.offset_b, &r.block_b}}) {
      if (offset < 0) continue;
      const Index i = body_of_offset[offset / mb];
      const Matrix& Jb = jacobian(i);
      const PairBlock& B = *block;  // rows × mb (6, or 3 planar): a loop, not a GEMV each
      for (Index col = m.last_dof(f.body_of[i]); col >= 0; col = m.dof_parent()[col])
        for (Index row = 0; row < B.rows(); ++row) {
          double sum = 0.0;
          for (Index e = 0; e < mb; ++e) sum += B(row, e) * Jb(e, col);
          Jout(row, col) += sum;
        }
      if (v_joint) c.noalias() += *block * jdot_v(i);
    }
  }

  static constexpr int kPlanarRows[] = {0, 1, 5};  // planar: v_x, v_y, ω_z of (v_G; ω)
};

}  // namespace

Index RigidWorldSystem::velocity_size() const {
  return forest_ ? forest_->model.velocity_size() : world_->velocity_size();
}
Index RigidWorldSystem::position_size() const {
  return forest_ ? forest_->model.position_size() : world_->position_size();
}

// Forest names, with a planar root's three joints named as the loose body's columns
// ("<body>.x", "<body>.y", "<body>.theta"; "<body>.vx", "<body>.vy", "<body>.omega"): only the
// bodies the forest marks as planar roots, whatever the other joints are called.
std::vector<std::string> RigidWorldSystem::forest_names(bool positions) const {
  const MultibodyModel& m = forest_->model;
  std::vector<std::string> names = positions ? m.position_names() : m.velocity_names();
  static const char* const q_suffix[] = {".x", ".y", ".theta"};
  static const char* const v_suffix[] = {".vx", ".vy", ".omega"};
  for (Index b = 0; b < m.body_count(); ++b) {
    if (!forest_->planar_root[b]) continue;
    for (Index k = 0; k < 3; ++k) {
      const Index o = positions ? m.position_offset(b, k) : m.velocity_offset(b, k);
      names[o] = m.body(b).name + (positions ? q_suffix : v_suffix)[k];
    }
  }
  return names;
}

std::vector<std::string> RigidWorldSystem::position_names() const {
  return forest_ ? forest_names(true) : world_->position_names();
}
std::vector<std::string> RigidWorldSystem::velocity_names() const {
  return forest_ ? forest_names(false) : world_->velocity_names();
}

void RigidWorldSystem::index_recorded_joints() {
  const MultibodyModel& m = forest_->model;
  const auto qn = m.position_names(), vn = m.velocity_names();
  for (Index b = 0; b < m.body_count(); ++b) {
    if (forest_->planar_root[b]) continue;
    const auto& joints = m.body(b).joints;
    for (size_t k = 0; k < joints.size(); ++k) {
      if (joints[k].type == JointType::free) continue;
      const Index o = m.position_offset(b, static_cast<Index>(k));
      const Index ov = m.velocity_offset(b, static_cast<Index>(k));
      for (Index i = 0; i < joints[k].position_size(); ++i)
        recorded_q_.push_back({o + i, qn[o + i]});
      for (Index i = 0; i < joints[k].velocity_size(); ++i)
        recorded_v_.push_back({ov + i, vn[ov + i]});
    }
  }
}

Index recorded_position_size(const RigidWorld& world) {
  if (!world.has_joint_coordinates()) return world.position_size();
  Index n = world.position_size();
  const RigidWorldForest f = rigid_world_forest(world);
  for (Index b = 0; b < f.model.body_count(); ++b)
    for (const MultibodyJoint& j : f.model.body(b).joints)
      if (!f.planar_root[b] && j.type != JointType::free) n += j.position_size();
  return n;
}

// The limited joints of the forest, found once when the system is built.
std::vector<RigidWorldSystem::LimitedJoint> RigidWorldSystem::find_limited_joints() const {
  std::vector<LimitedJoint> out;
  if (!forest_) return out;
  const MultibodyModel& m = forest_->model;
  for (Index j = 0; j < static_cast<Index>(world_->joints().size()); ++j) {
    const Index b = forest_->joint_body[j];
    if (!world_->joints()[j].limited || b < 0) continue;
    const Index k = j - forest_->tree_joint[b];
    out.push_back({j, &m.body(b).joints[static_cast<size_t>(k)], m.position_offset(b, k),
                   m.velocity_offset(b, k)});
  }
  return out;
}

// The limits of the forest's joints on their coordinates (rigid_world_system.hpp; the band of
// world_contacts.cpp: a bound is stated while its gap is below max(margin, 0.1 rad or m)):
//   hinge, slide   g = s − lower (row +e_s) and g = upper − s (row −e_s), c = 0;
//   ball           g = upper − θ, θ = 2 atan2(‖vec‖, w) the rotation angle of the joint's
//                  quaternion and u its axis (child axes, as ω): row −u on (ω_x, ω_y, ω_z), and
//                  c = −u̇·ω = −½ cot(θ/2) ‖ω − (u·ω) u‖² (θ̇ = u·ω; u̇ from the rotation
//                  vector's rate φ̇ = J_r⁻¹(φ) ω).
void RigidWorldSystem::append_limit_constraints(const Vector& q, const Vector& v, bool dense,
                                                double reach, double margin,
                                                std::vector<ContactConstraint>& out) const {
  const MultibodyModel& m = forest_->model;
  const int d = world_->dimension();
  const Index n = m.velocity_size();
  const double band = std::max(settings_.margin, 0.1);
  for (const LimitedJoint& l : limited_) {
    const Joint& wj = world_->joints()[l.index];
    const MultibodyJoint& mj = *l.joint;
    const Index o = l.q, ov = l.v;
    auto push = [&](const char* side, double gap, const Vector& row, double c) {
      detail::push_bound_constraint(out, wj.name, side, gap, band, row, c, wj.limit_restitution, d,
                                    n, dense);
    };
    // a step's reach: g + reach·min(u, 0) > margin (1 nm of slack, as for the contacts in
    // articulated_state) leaves the bound out of every step that the state serves
    auto reached = [&](double gap, double u) {
      return reach < 0.0 || gap + reach * std::min(u, 0.0) <= margin + 1e-9;
    };
    // a hinge or slide far from both bounds, or out of reach of both: no row to form (a robot's
    // joints mostly are)
    const bool ball = mj.type == JointType::ball;
    bool lower = false, upper = false;  // a hinge's or slide's bounds to state
    if (!ball) {
      if (!(q[o] - mj.lower <= band) && !(mj.upper - q[o] <= band)) continue;
      lower = reached(q[o] - mj.lower, v[ov]);
      upper = reached(mj.upper - q[o], -v[ov]);
      if (!lower && !upper) continue;
    }
    Vector row = Vector::Zero(n);
    if (ball) {
      const Quaternion r = Quaternion(q[o], q[o + 1], q[o + 2], q[o + 3]).normalized();
      const double sin_half = r.vec().norm();
      if (sin_half < 1e-12) continue;  // θ = 0: far from upper > 0, and no axis
      const double theta = 2.0 * std::atan2(sin_half, std::abs(r.w()));
      const Vector3 u = (r.w() < 0 ? -1.0 : 1.0) * r.vec() / sin_half;
      const Vector3 w = v.segment<3>(ov);
      row.segment<3>(ov) = -u;
      const Vector3 w_perp = w - u.dot(w) * u;
      if (reached(mj.upper - theta, -u.dot(w)))
        push("/upper", mj.upper - theta, row, -0.5 / std::tan(0.5 * theta) * w_perp.squaredNorm());
      continue;
    }
    row[ov] = 1.0;
    if (lower) push("/lower", q[o] - mj.lower, row, 0.0);
    if (upper) push("/upper", mj.upper - q[o], -row, 0.0);
  }
}

Vector RigidWorldSystem::maximal_positions(const Vector& q) const {
  if (!forest_) return q;
  return MaximalView(*world_, *forest_, q, nullptr).q;
}

namespace {

// (maximal; x_i for each recorded joint entry i of x): a record's world part, then its joints'.
// maximal itself when nothing is appended (a forest of free roots, planar roots and welds: no
// joint coordinate is recorded); else a new vector (growing maximal by realloc cost the arm's
// step more than this copy: its block seldom grows in place).
Vector joint_records(Vector maximal, const Vector& x,
                     const std::vector<std::pair<Index, std::string>>& recorded) {
  if (recorded.empty()) return maximal;
  const Index n = maximal.size();
  Vector out(n + static_cast<Index>(recorded.size()));
  out.head(n) = maximal;
  for (size_t i = 0; i < recorded.size(); ++i)
    out[n + static_cast<Index>(i)] = x[recorded[i].first];
  return out;
}

}  // namespace

// The world's poses, then the recorded joint coordinates.
Vector RigidWorldSystem::recorded_positions(const Vector& q) const {
  if (!forest_) return q;
  return joint_records(maximal_positions(q), q, recorded_q_);
}

// The world's velocities, then the recorded joint velocities.
Vector RigidWorldSystem::recorded_velocities(const Vector& q, const Vector& v) const {
  if (!forest_) return v;
  return joint_records(std::move(MaximalView(*world_, *forest_, q, &v).v), v, recorded_v_);
}

// One MaximalView at (q, v) gives the poses, the velocities and T; V = the world's potential at
// those poses plus the joint springs'.
RecordedState RigidWorldSystem::recorded_state(const Vector& q, const Vector& v) const {
  if (!forest_) return LagrangianSystem::recorded_state(q, v);
  MaximalView view(*world_, *forest_, q, &v, false);
  const double T = forest_->model.kinetic_energy(view.k, v);
  return record_of(std::move(view.q), std::move(view.v), T, q, v);
}

RecordedState RigidWorldSystem::record_of(Vector maximal_q, Vector maximal_v, double T,
                                          const Vector& q, const Vector& v) const {
  RecordedState r;
  r.kinetic = T;
  r.potential = world_->potential_energy(maximal_q) +
                (joint_springs_ ? forest_->model.spring_energy(q) : 0.0);
  r.q = joint_records(std::move(maximal_q), q, recorded_q_);
  r.v = joint_records(std::move(maximal_v), v, recorded_v_);
  return r;
}

std::vector<std::string> RigidWorldSystem::recorded_position_names() const {
  std::vector<std::string> names = world_->position_names();
  for (const auto& [i, n] : recorded_q_) names.push_back(n);
  return names;
}
std::vector<std::string> RigidWorldSystem::recorded_velocity_names() const {
  std::vector<std::string> names = world_->velocity_names();
  for (const auto& [i, n] : recorded_v_) names.push_back(n);
  return names;
}

void RigidWorldSystem::articulated_forces(const MultibodyKinematics& k, const Vector& q,
                                          const Vector& v, Vector& F, double* kinetic) const {
  const MultibodyModel& m = forest_->model;
  m.bias_forces(k, v, F, kinetic);
  if (joint_springs_) F -= m.passive_forces(q, v);
  if (qfrc_applied_.size() || xfrc_applied_.size()) F -= input_forces(q);
  if (!world_->actuators().empty()) F -= actuator_forces(q, v);
  if (!constant_loads_) return;
  const std::vector<Eigen::Matrix<double, 6, 1>> loads = articulated_loads(false);
  for (Index b = 0; b < m.body_count(); ++b)
    if (!loads[b].isZero(0.0)) F -= m.body_jacobian(k, b).transpose() * loads[b];
}

std::vector<Eigen::Matrix<double, 6, 1>> RigidWorldSystem::articulated_loads(bool inputs) const {
  std::vector<Eigen::Matrix<double, 6, 1>> loads(static_cast<size_t>(forest_->model.body_count()),
                                                 Eigen::Matrix<double, 6, 1>::Zero());
  const bool with_inputs = inputs && xfrc_applied_.size() > 0;
  for (Index i = 0; i < world_->body_count(); ++i) {
    const RigidBody& b = world_->body(i);
    if (b.is_static) continue;
    // (f, τ) at the centre of mass against J_b's rows (v_G; ω); a planar body's f_z and τ_x, τ_y
    // are zero, so the full 6 rows give the planar load too
    Eigen::Matrix<double, 6, 1> load;
    load << b.applied_force, b.applied_torque;
    if (with_inputs) load += xfrc_applied_.row(i).transpose();
    if (world_->dimension() == 2) load.segment<3>(2).setZero();  // keeps f_x, f_y and τ_z
    loads[forest_->body_of[i]] += load;
  }
  return loads;
}

void RigidWorldSystem::mass_and_forces(const Vector& q, const Vector& v, double t, Matrix& M,
                                       Vector& F) const {
  if (!forest_) {  // loose bodies: the world's M and F plus the inputs, without detection
    world_->check_state(q, v);
    M = world_->dense_mass_matrix(q);
    F = world_->forces(q, v, t);
    if (qfrc_applied_.size() || xfrc_applied_.size()) F -= input_forces(q);
    return;
  }
  mass_then_forces(
      q, t, M, [&](Matrix&) -> const Vector& { return v; }, F);
}

void RigidWorldSystem::mass_then_forces(const Vector& q, double t, Matrix& M,
                                        const std::function<const Vector&(Matrix&)>& velocity,
                                        Vector& F) const {
  if (!forest_) return LagrangianSystem::mass_then_forces(q, t, M, velocity, F);
  const MultibodyModel& m = forest_->model;
  const PooledKinematics k;
  m.kinematics(q, *k);
  m.world_inertias(*k);  // shared by CRBA and RNEA
  m.mass_matrix(*k, M);
  const Vector& v = velocity(M);
  m.velocity_kinematics(v, *k);
  articulated_forces(*k, q, v, F);
}

Vector RigidWorldSystem::integrate(const Vector& q, const Vector& v, double h) const {
  return forest_ ? forest_->model.integrate(q, v, h) : world_->integrate_position(q, v, h);
}

Vector RigidWorldSystem::difference(const Vector& q0, const Vector& q1) const {
  return forest_ ? forest_->model.difference(q0, q1) : world_->difference_position(q0, q1);
}

void RigidWorldSystem::index_joint_springs() {
  const MultibodyModel& m = forest_->model;
  joint_stiffness_ = Vector::Zero(m.velocity_size());
  joint_damping_ = Vector::Zero(m.velocity_size());
  for (Index b = 0; b < m.body_count(); ++b)
    for (size_t k = 0; k < m.body(b).joints.size(); ++k) {
      const MultibodyJoint& j = m.body(b).joints[k];
      const Index ov = m.velocity_offset(b, static_cast<Index>(k)), n = j.velocity_size();
      if (j.type != JointType::free) joint_stiffness_.segment(ov, n).setConstant(j.stiffness);
      joint_damping_.segment(ov, n).setConstant(j.damping);
      joint_springs_ = joint_springs_ || j.stiffness > 0.0 || j.damping > 0.0;
      joint_friction_ = joint_friction_ || j.frictionloss > 0.0;
    }
}

bool RigidWorldSystem::passive_diagonals(const Vector& q, const Vector& v, Vector& K,
                                         Vector& D) const {
  if (!forest_) return false;
  const bool actuated = !world_->actuators().empty();
  if (!joint_springs_ && !actuated) return false;  // a passive arm: nothing to form
  K = joint_stiffness_;
  D = joint_damping_;
  if (!actuated) return true;
  actuator_forces(q, v, &K, &D);
  return joint_springs_ || !K.isZero(0.0) || !D.isZero(0.0);
}

namespace {

// Actuator a at (q, v) with control c (model/rigid/actuator.hpp): s, ṡ of its joint, l = gear s,
// f = gain·clamp(c) + b₀ + b₁ l + b₂ l̇, clamped to the force range when limited.
struct ActuatorState {
  double force = 0.0;      // f after clamping, N or N·m
  bool saturated = false;  // the force range clamped it
  Index dof = 0;           // its joint's velocity index
};

ActuatorState actuator_state(const RigidWorldForest& f, const Actuator& a, double c,
                             const Vector& q, const Vector& v) {
  const MultibodyModel& m = f.model;
  const Index b = f.joint_body[a.joint], k = a.joint - f.tree_joint[b];
  const Index o = m.position_offset(b, k), ov = m.velocity_offset(b, k);
  if (a.ctrl_limited) c = std::clamp(c, a.ctrl_lower, a.ctrl_upper);
  const double force =
      a.gain * c + a.bias[0] + a.bias[1] * a.gear * q[o] + a.bias[2] * a.gear * v[ov];
  const bool saturated = a.force_limited && (force < a.force_lower || force > a.force_upper);
  return {saturated ? std::clamp(force, a.force_lower, a.force_upper) : force, saturated, ov};
}

}  // namespace

// τ = Σ gear f on each actuator's joint. Unsaturated, ∂(−τ)/∂s = −b₁gear² and ∂(−τ)/∂ṡ = −b₂gear²
// are its implicit spring and damper (a saturated force is a constant for the step).
Vector RigidWorldSystem::actuator_forces(const Vector& q, const Vector& v, Vector* K,
                                         Vector* D) const {
  Vector tau = Vector::Zero(forest_->model.velocity_size());
  const auto& actuators = world_->actuators();
  for (size_t i = 0; i < actuators.size(); ++i) {
    const Actuator& a = actuators[i];
    const double c = ctrl_.size() ? ctrl_[static_cast<Index>(i)] : 0.0;
    const ActuatorState st = actuator_state(*forest_, a, c, q, v);
    tau[st.dof] += a.gear * st.force;
    if (st.saturated) continue;
    const double stiffness = -a.bias[1] * a.gear * a.gear, damping = -a.bias[2] * a.gear * a.gear;
    if (K && stiffness > 0.0) (*K)[st.dof] += stiffness;
    if (D && damping > 0.0) (*D)[st.dof] += damping;
  }
  return tau;
}

// Loose bodies (RigidWorld::forces, inputs constant): per spatial body, the angular rows
// I_G α + ω × I_G ω − τ with I_G = R I Rᵀ turned by q ⊕ δ as exp([δ]×) I_G exp(−[δ]×), so
// ∂(I_G x)/∂δ = I_G [x]× − [I_G x]×:
//   ∂/∂δ = I_G [α]× − [I_G α]× + [ω]× (I_G [ω]× − [I_G ω]×),   ∂/∂ω = [ω]× I_G − [I_G ω]×;
// the linear rows m a − f and every planar row are constant.
void RigidWorldSystem::loose_dynamics_derivatives(const Vector& q, const Vector& v, const Vector& a,
                                                  Matrix& d_dq, Matrix& d_dv) const {
  world_->check_state(q, v);
  const Index n = velocity_size();
  d_dq = Matrix::Zero(n, n);
  d_dv = Matrix::Zero(n, n);
  if (world_->dimension() == 2) return;
  for (Index i = 0; i < world_->body_count(); ++i) {
    const Index o = world_->velocity_offset(i);
    if (o < 0) continue;
    const Matrix3 R = world_->body_pose(q, i).rotation();
    const Matrix3 I = R * world_->body(i).inertia * R.transpose();
    const Vector3 w = v.segment<3>(o + 3), alpha = a.segment<3>(o + 3);
    const Matrix3 turn_w = I * skew(w) - skew(I * w);
    d_dq.block<3, 3>(o + 3, o + 3) = I * skew(alpha) - skew(I * alpha) + skew(w) * turn_w;
    d_dv.block<3, 3>(o + 3, o + 3) = skew(w) * I - skew(I * w);
  }
}

// ∂/∂q, ∂/∂v of M a + F, F = b − τ_passive − qfrc − Σ J_bᵀ w_b − τ_act (articulated_forces):
// RNEA's with the loads w (applied and xfrc), −∂τ_passive (K J on springs, D on dampers) and
// −∂τ_act = (gear² b₁, gear² b₂)·(−1) on each unsaturated actuator's dof.
void RigidWorldSystem::dynamics_derivatives(const Vector& q, const Vector& v, double /*t*/,
                                            const Vector& a, double /*q_step*/, double /*v_step*/,
                                            Matrix& d_dq, Matrix& d_dv) const {
  if (!forest_) return loose_dynamics_derivatives(q, v, a, d_dq, d_dv);
  const MultibodyModel& m = forest_->model;
  MultibodyKinematics k;
  m.kinematics(q, v, k);
  m.inverse_dynamics_derivatives(k, v, a, articulated_loads(true), d_dq, d_dv);
  d_dq -= m.passive_force_position_derivative(q);
  for (Index b = 0; b < m.body_count(); ++b)
    for (size_t j = 0; j < m.body(b).joints.size(); ++j) {
      const MultibodyJoint& joint = m.body(b).joints[j];
      const Index ov = m.velocity_offset(b, static_cast<Index>(j));
      d_dv.diagonal().segment(ov, joint.velocity_size()).array() += joint.damping;
    }
  const auto& actuators = world_->actuators();
  for (size_t i = 0; i < actuators.size(); ++i) {
    const Actuator& act = actuators[i];
    const double c = ctrl_.size() ? ctrl_[static_cast<Index>(i)] : 0.0;
    const ActuatorState st = actuator_state(*forest_, act, c, q, v);
    if (st.saturated) continue;
    d_dq(st.dof, st.dof) -= act.gear * act.gear * act.bias[1];
    d_dv(st.dof, st.dof) -= act.gear * act.gear * act.bias[2];
  }
}

Vector RigidWorldSystem::actuator_force_values(const Vector& q, const Vector& v) const {
  const auto& actuators = world_->actuators();
  Vector out(static_cast<Index>(actuators.size()));
  for (size_t i = 0; i < actuators.size(); ++i) {
    const double c = ctrl_.size() ? ctrl_[static_cast<Index>(i)] : 0.0;
    out[static_cast<Index>(i)] = actuator_state(*forest_, actuators[i], c, q, v).force;
  }
  return out;
}

std::vector<DryFriction> RigidWorldSystem::dry_friction() const {
  std::vector<DryFriction> out;
  if (!forest_) return out;
  const MultibodyModel& m = forest_->model;
  for (Index b = 0; b < m.body_count(); ++b)
    for (size_t k = 0; k < m.body(b).joints.size(); ++k) {
      const MultibodyJoint& j = m.body(b).joints[k];
      if (!(j.frictionloss > 0.0)) continue;
      const Index ov = m.velocity_offset(b, static_cast<Index>(k));
      for (Index i = 0; i < j.velocity_size(); ++i) out.push_back({j.name, ov + i, j.frictionloss});
    }
  return out;
}

Vector RigidWorldSystem::position_rate(const Vector& q, const Vector& v) const {
  return forest_ ? forest_->model.position_rate(q, v) : world_->position_rate(q, v);
}
void RigidWorldSystem::normalize_position(Vector& q) const {
  if (forest_)
    forest_->model.normalize(q);
  else
    world_->normalize_position(q);
}
double RigidWorldSystem::kinetic_energy(const Vector& q, const Vector& v) const {
  return forest_ ? forest_->model.kinetic_energy(q, v) : world_->kinetic_energy(q, v);
}
double RigidWorldSystem::potential_energy(const Vector& q) const {
  if (!forest_) return world_->potential_energy(q);
  return world_->potential_energy(maximal_positions(q)) + forest_->model.spring_energy(q);
}

// M from CRBA; F = b − τ_passive − Σ J_bᵀ (f_app, τ_app); then the closure joints' rows and the
// contacts, as RigidWorldSystem::state orders them, mapped to joint coordinates.
std::vector<Contact> RigidWorldSystem::shape_contacts(const Vector& q, Vector* world_q,
                                                      const ContactFilter& keep) const {
  if (!forest_) {
    if (world_q) *world_q = q;
    return detect_contacts(*world_, q, settings_, keep);
  }
  CollisionSettings cs = settings_;
  cs.joint_limits = false;
  Vector maximal = MaximalView(*world_, *forest_, q, nullptr).q;
  std::vector<Contact> found = detect_contacts(*world_, maximal, cs, keep);
  if (world_q) *world_q = std::move(maximal);
  return found;
}

ContactState RigidWorldSystem::articulated_state(const Vector& q, const Vector& v, double t,
                                                 bool dense, double reach, double margin,
                                                 bool with_record) const {
  const MultibodyModel& m = forest_->model;
  m.check_state(q, v);
  const int d = world_->dimension();
  const Index n = m.velocity_size(), mb = world_->body_velocity_size();
  const bool maximal = shapes_may_touch_ || !forest_->closure_joints.empty();
  const bool record = reach >= 0.0 && with_record;              // a step's state carries its record
  MaximalView view(*world_, *forest_, q, &v, maximal, record);  // its q and v go to the record
  ContactState s;
  s.dimension = d;
  s.t = t;
  s.q = q;
  s.v = v;
  double T = 0.0;  // the record's, from the forces' products (a step's state records)
  articulated_forces(view.k, q, v, s.F, record ? &T : nullptr);
  Matrix J;
  Vector c;
  for (const Index j : forest_->closure_joints) {
    const BodyPairRows r = world_->joint_rows(view.q, view.v, j);
    view.map(r, mb, n, J, c);
    detail::push_joint_constraints(s.constraints, world_->joints()[j].name, r.residual, J, c, d, n,
                                   dense);
  }
  append_coupling_constraints(q, v, view.k, dense, s.constraints);
  CollisionSettings cs = settings_;
  cs.joint_limits = false;  // stated on the coordinates below
  // with a reach: the points of unilateral contacts that no step of the reach activates are left
  // out by detection itself (1 nm of slack for the round-off between this gap rate and the
  // mapped row's)
  // (both only for a world whose shapes may touch: each is a closure of four references, which
  // std::function holds on the heap, and an arm without contacts would form them every step)
  ContactFilter keep;
  if (reach >= 0.0 && shapes_may_touch_)
    keep = [&](Index a, Index b, Index pair, const ContactPoint& p) {
      if (p.gap <= margin + 1e-9) return true;
      if (pair >= 0 && world_->contact_pairs()[pair].kind != ConstraintKind::unilateral)
        return true;
      const double un =
          p.normal.dot(view.point_velocity(a, p.point_a) - view.point_velocity(b, p.point_b));
      return p.gap + reach * std::min(un, 0.0) <= margin + 1e-9;
    };
  // and the pairs with a plane build only the points that can be kept: |u_n| ≤ s_a + s_b with
  // s_i = |v(o_i)| + |ω_i| R_i a bound on the speed of every point of body i's shapes (o_i its
  // frame's origin, R_i = shape_radius_), so a kept point has g ≤ margin + 1e-9 + reach (s_a +
  // s_b); the bound adds another 1e-9 and a relative 1e-9 on the speeds for the round-off
  PairReach bound;
  if (reach >= 0.0 && shapes_may_touch_)
    bound = [&](Index a, Index b) {
      auto speed = [&](Index i) {
        if (world_->body(i).is_static) return 0.0;
        if (!std::isfinite(shape_radius_[i])) return std::numeric_limits<double>::infinity();
        const Index mb_i = forest_->body_of[i];
        const Vector3 w = view.k.twist[mb_i].head<3>();
        return view.point_velocity(i, view.k.pose[mb_i].position).norm() +
               w.norm() * shape_radius_[i];
      };
      return margin + 2e-9 + reach * (speed(a) + speed(b)) * (1.0 + 1e-9);
    };
  std::vector<Contact> found;
  if (shapes_may_touch_) found = detect_contacts(*world_, view.q, cs, keep, bound);
  drop_ignored_overlaps(found, true);
  for (const Contact& ct : found) {
    const BodyPairRows r = contact_rows(*world_, view.q, view.v, ct);
    view.map(r, mb, n, J, c);
    detail::push_contact_constraint(s.constraints, *world_, ct, J, c, d, dense);
  }
  append_limit_constraints(q, v, dense, reach, margin, s.constraints);
  append_tendon_limit_constraints(q, v, view.k, dense, s.constraints);
  // A step's state without constraints or dry friction leaves M out: the step's free flight
  // forms M̂ at its midpoint (model/step_free_velocity.hpp), and nothing else reads it.
  const bool free_flight = reach >= 0.0 && s.constraints.empty() && !joint_friction_;
  if (dense && !free_flight) s.M = m.mass_matrix(view.k);
  // a step's state carries its record: the run records the state a step ends at, which is the
  // state the next step detects at (sim/time_stepping.cpp), and the view already walked the tree
  if (record) s.recorded = record_of(std::move(view.q), std::move(view.v), T, q, v);
  return s;
}

}  // namespace moreau
