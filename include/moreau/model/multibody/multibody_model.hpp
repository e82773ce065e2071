#pragma once
// A forest of kinematic trees in joint coordinates (Featherstone, Rigid Body Dynamics Algorithms,
// 2008; docs/math/multibody.md): every body has one parent (the world or a body added before it)
// and a chain of zero or more joints between the two (hinge, slide, ball, free), as MJCF gives
// them. A body with no joint is welded to its parent. A free body is a tree of one body with one
// free joint.
//
// Coordinates (docs/notation.md §Joint coordinates), joint by joint in dof order:
//   hinge  q: angle from the stored pose, rad        v: its rate, rad/s               (1, 1)
//   slide  q: displacement from the stored pose, m    v: its rate, m/s                 (1, 1)
//   ball   q: unit quaternion (w, x, y, z) of the     v: ω of the child frame relative
//             child frame relative to its stored pose    to the parent, CHILD axes     (4, 3)
//   free   q: (p, quaternion) of the body frame,      v: (ṗ, ω), ω in WORLD axes       (7, 6)
//             world
// q = 0 (identity quaternions) is the stored pose of hinge, slide and ball joints; the free
// joint's q is the body's world pose, as RigidWorld's bodies have it. Joint k of a body's chain
// acts in the frame left by joints 1 … k−1 (MuJoCo's convention): its axis and anchor are given in
// the body frame at the stored pose, and the rotation keeps the anchor in place.
//
// Equations of motion (the left-side convention of model/contact_state.hpp):
//   M(q) v̇ + b(q, v) − τ_passive(q, v) = τ + Σ Jᵀ λ,
// M from the composite-rigid-body algorithm (CRBA, Featherstone §6.2) plus the armature on the
// diagonal, b = C(q, v) v + g(q) from recursive Newton–Euler (RNEA, §5.3) with gravity, τ_passive
// = −K (q − q_ref) − D v of the joint springs and dampers. Dofs are numbered tree by tree, parents
// before children, so M is block-diagonal across trees and each block is factorized along its
// tree (LTDL, §6.3: tree_factorization.hpp).
#include <string>
#include <vector>

#include "moreau/model/multibody/spatial_algebra.hpp"
#include "moreau/model/rigid/pose.hpp"

namespace moreau {

// The joint types of a kinematic tree.
// (The order indexes the name tables of multibody_model.cpp.)
enum class JointType { hinge, slide, ball, free };

// Name of a joint type ("hinge", "slide", "ball", "free").
std::string to_string(JointType type);
// The joint type of a name (throws std::invalid_argument naming the name for an unknown one).
JointType joint_type_from_string(const std::string& name);

// One joint of a body's chain, with its limits and passive forces.
struct MultibodyJoint {
  std::string name = {};              // unique within the model (empty: "<body>.joint<k>")
  JointType type = JointType::hinge;  // hinge, slide, ball or free
  Vector3 axis = Vector3::UnitZ();    // hinge, slide: unit axis in the body frame
  Vector3 anchor = Vector3::Zero();   // hinge, ball: the point the rotation keeps, body frame, m
  // Limits on the coordinate (hinge rad, slide m; ball: only `upper`, the total rotation angle).
  bool limited = false;       // false: no limits
  double lower = 0.0;         // rad or m, ≤ upper
  double upper = 0.0;         // rad or m
  double stiffness = 0.0;     // K ≥ 0, N·m/rad or N/m (hinge, slide)
  double reference = 0.0;     // q_ref of the spring, rad or m (hinge, slide)
  double damping = 0.0;       // D ≥ 0, N·m·s/rad or N·s/m, on every velocity of the joint
  double armature = 0.0;      // ≥ 0, added to M's diagonal, kg·m² or kg
  double frictionloss = 0.0;  // dry friction bound f ≥ 0 on the joint force, N·m or N

  // Entries of the joint in q: hinge, slide 1; ball 4; free 7.
  Index position_size() const {
    return type == JointType::free ? 7 : type == JointType::ball ? 4 : 1;
  }
  // Entries of the joint in v (its dofs): hinge, slide 1; ball 3; free 6.
  Index velocity_size() const {
    return type == JointType::free ? 6 : type == JointType::ball ? 3 : 1;
  }
};

// One body of a kinematic tree: its parent, placement, mass properties and joint chain.
struct MultibodyBody {
  std::string name;                   // unique within the model, non-empty
  Index parent = -1;                  // index of the parent body, −1 for the world
  Pose offset = {};                   // body frame in the parent's frame at q = 0 (world for roots)
  double mass = 0.0;                  // kg, ≥ 0
  Vector3 com = Vector3::Zero();      // centre of mass in the body frame, m
  Matrix3 inertia = Matrix3::Zero();  // about the centre of mass, body axes, kg·m², symmetric PSD
  std::vector<MultibodyJoint> joints = {};  // the chain from the parent to this body (may be empty)
};

// World-frame kinematics of a model at q (and v): filled by MultibodyModel::kinematics.
// Spatial vectors are Plücker coordinates in world axes about the world origin, angular first:
// a motion (ω; v_O) moves a point p at v_O + ω × p, a force is (n_O; f).
struct MultibodyKinematics {
  std::vector<Pose> pose;                          // per body: body frame → world
  std::vector<Matrix3> rotation;                   // per body: pose's rotation matrix R
  std::vector<Vector3> com;                        // per body: centre of mass, world, m
  Eigen::Matrix<double, 6, Eigen::Dynamic> S;      // 6 × nv: motion axis of every dof
  Eigen::Matrix<double, 6, Eigen::Dynamic> Sdot;   // 6 × nv: its rate Ṡ (with velocities)
  std::vector<Eigen::Matrix<double, 6, 1>> twist;  // per body: (ω; v_O) (with velocities)
  std::vector<spatial::CompactInertia> inertia;    // per body: I_O, world (with_inertias)
  bool with_velocities = false;                    // twist and Sdot filled
  bool with_inertias = false;                      // inertia filled (always with velocities)
};

// A forest of kinematic trees in joint coordinates (see the file comment).
class MultibodyModel {
 public:
  // Adds a body whose parent is the world (−1) or a body added before it (validated: name unique
  // and non-empty, mass ≥ 0, inertia symmetric PSD, unit quaternion, joints valid, a free joint
  // only alone on a body of the world). Returns its index.
  Index add_body(MultibodyBody body);
  // Gravity, m/s² (default (0, 0, −9.81)).
  void set_gravity(const Vector3& g) { gravity_ = g; }
  // Gravity g⃗, m/s².
  const Vector3& gravity() const { return gravity_; }

  // Every body, by index.
  const std::vector<MultibodyBody>& bodies() const { return bodies_; }
  // Body i.
  const MultibodyBody& body(Index i) const { return bodies_.at(static_cast<size_t>(i)); }
  // Number of bodies.
  Index body_count() const { return static_cast<Index>(bodies_.size()); }
  // Index of a body by name, −1 if absent.
  Index find_body(const std::string& name) const;

  // nq, the size of q (≥ nv: quaternions).
  Index position_size() const { return nq_; }
  // nv, the size of v (the dofs).
  Index velocity_size() const { return nv_; }
  // Offset of joint k of body b in q.
  Index position_offset(Index b, Index k) const { return layout_[b].q[k]; }
  // Offset of joint k of body b in v (its first dof).
  Index velocity_offset(Index b, Index k) const { return layout_[b].v[k]; }
  // λ(i): the dof before dof i on the way to the root (−1 at a root), < i.
  const std::vector<Index>& dof_parent() const { return dof_parent_; }
  // The body each dof moves (the body whose chain holds its joint).
  const std::vector<Index>& dof_body() const { return dof_body_; }
  // Trees: [first dof, end dof) of each tree's block of M, roots in body order.
  const std::vector<std::pair<Index, Index>>& tree_dofs() const { return trees_; }
  // Tree of each body.
  Index tree_of(Index b) const { return tree_[b]; }
  // The last dof on the way from body b to the root (its own last dof, else its nearest
  // ancestor's), −1 when b is welded to the world.
  Index last_dof(Index b) const { return last_dof_[b]; }

  // q at the stored pose: 0 for hinge and slide, identity for ball, the stored pose for free.
  Vector neutral_positions() const;

  // Poses, centres of mass and motion axes S at q.
  void kinematics(const Vector& q, MultibodyKinematics& out) const;
  // The same, with the twists V_b and the rates Ṡ at (q, v).
  void kinematics(const Vector& q, const Vector& v, MultibodyKinematics& out) const;
  // Adds the twists and the rates Ṡ at v, and the world inertias unless there, to kinematics at
  // q (out, filled by kinematics(q, out)): kinematics(q, v, out) is kinematics(q, out) then this.
  void velocity_kinematics(const Vector& v, MultibodyKinematics& out) const;
  // Adds the bodies' world inertias I_O to kinematics at q (nothing when they are there).
  void world_inertias(MultibodyKinematics& out) const;

  // M(q), nv × nv: CRBA plus the armature (dense storage, zero across trees and non-ancestors).
  Matrix mass_matrix(const Vector& q) const;
  // M from kinematics already computed at q (k.S, k.com, k.pose).
  Matrix mass_matrix(const MultibodyKinematics& k) const;
  // The same into M (resized to nv × nv; a caller that keeps M allocates nothing).
  void mass_matrix(const MultibodyKinematics& k, Matrix& M) const;
  // The generalized force τ that gives the acceleration a at (q, v) without contacts, by RNEA:
  //   τ = M(q) a + b(q, v)   (gravity and Coriolis/centrifugal forces; no passive forces).
  Vector inverse_dynamics(const Vector& q, const Vector& v, const Vector& a) const;
  // The derivatives of τ(q, v, a) = RNEA(q, v, a) − Σ_b J_bᵀ w_b at (q, v, a): ∂τ/∂q in the tangent
  // space (columns: q ⊕ δ e_j = integrate(q, δ e_j, 1)) and ∂τ/∂v, nv × nv each, exact (the
  // directional derivatives of the world-frame RNEA: Carpentier & Mansard 2018's quantities;
  // docs/math/multibody.md §Derivatives). w: per body, a load (f; n) at its centre of mass, world
  // axes, fixed in the world as the body moves (the layout of body_jacobian's rows); empty: none.
  // k: kinematics with velocities at (q, v). The armature's a term depends on neither.
  void inverse_dynamics_derivatives(const MultibodyKinematics& k, const Vector& v, const Vector& a,
                                    const std::vector<Eigen::Matrix<double, 6, 1>>& w,
                                    Matrix& dtau_dq, Matrix& dtau_dv) const;
  // Whether moving q along dof k (q ⊕ δ e_k) turns dof i's motion axis: ∂S_i/∂q_k = S_k ×ₘ S_i
  // when it does, 0 otherwise (k on the way from i's joint to the root, or in i's own ball joint;
  // a free joint's angular axes move with its linear dofs only: multibody_derivatives.cpp).
  bool carries(Index k, Index i) const;
  // Whether dof k moves body b (k on the way from b to the root): b then moves rigidly at S_k.
  bool moves(Index k, Index b) const;
  // ∂τ_passive/∂q (tangent) of passive_forces (its ∂/∂v is −D, diagonal): −K on hinge and slide
  // springs, −K J_r⁻¹(θ u) on ball springs (J_r the right Jacobian of SO(3)).
  Matrix passive_force_position_derivative(const Vector& q) const;
  // b(q, v) = C(q, v) v + g(q): RNEA with a = 0.
  Vector bias_forces(const Vector& q, const Vector& v) const;
  // b from kinematics with velocities (RNEA with a = 0).
  Vector bias_forces(const MultibodyKinematics& k, const Vector& v) const;
  // The same into tau (resized to nv; a caller that keeps tau allocates nothing), and with
  // kinetic the kinetic energy T at (q, v) too: ½ Σ_b V_b·(I_b V_b) from the products I_b V_b
  // that RNEA forms anyway, plus the armature's ½ a v_i² (kinetic_energy's T, to round-off: about
  // the world origin both lose ε m |c|² absolute for a body at distance |c| from it, as RNEA's
  // forces do; kinetic_energy's body-axes form does not).
  void bias_forces(const MultibodyKinematics& k, const Vector& v, Vector& tau,
                   double* kinetic = nullptr) const;
  // τ_passive = −K (q − q_ref) − D v of the joint springs and dampers (ball springs: −K θ u for
  // the rotation θ u from the stored pose; free joints: damping only).
  Vector passive_forces(const Vector& q, const Vector& v) const;

  // J_b, 6 × nv: (v_G; ω) = J_b v, the velocity of body b's centre of mass and its angular
  // velocity, world axes (the layout of RigidWorld's v per body).
  Matrix body_jacobian(const MultibodyKinematics& k, Index b) const;
  // J̇_b v for every body, as (a_G; α) (6 each, world axes): the acceleration of the centre of
  // mass and the angular acceleration at v̇ = 0 without gravity, from kinematics with velocities
  // (a_G = a_O + α × c + ω × v_G for the spatial acceleration (α; a_O) = Σ Ṡ_i v_i).
  std::vector<Eigen::Matrix<double, 6, 1>> bias_accelerations(const MultibodyKinematics& k,
                                                              const Vector& v) const;
  // J_p, 3 × nv: the velocity of the point p (world) fixed to body b.
  Matrix point_jacobian(const MultibodyKinematics& k, Index b, const Vector3& p) const;

  // q̇(q, v): hinge, slide v; ball ½ quat ⊗ (0, ω); free (ṗ, ½ (0, ω) ⊗ quat).
  Vector position_rate(const Vector& q, const Vector& v) const;
  // q ⊕ h v: q(t + h) for constant v, quaternions rotated by the exact exponential (ball
  // quat ⊗ exp(½hω), free exp(½hω) ⊗ quat) and renormalized.
  Vector integrate(const Vector& q, const Vector& v, double h) const;
  // q₁ ⊖ q₀: the δ (nv) with integrate(q₀, δ, 1) = q₁ (Pinocchio's difference); a quaternion
  // block gives the rotation vector of the shortest rotation between the two.
  Vector difference(const Vector& q0, const Vector& q1) const;
  // The quaternions of q renormalized.
  void normalize(Vector& q) const;

  // T = ½ vᵀ M(q) v, J (armature included).
  double kinetic_energy(const Vector& q, const Vector& v) const;
  // The same from kinematics with velocities already computed at (q, v).
  double kinetic_energy(const MultibodyKinematics& k, const Vector& v) const;
  // V = −Σ m g⃗·p_G + spring_energy(q), J.
  double potential_energy(const Vector& q) const;
  // Σ ½ K (q − q_ref)² over hinge and slide springs, ½ K θ² over ball springs, J.
  double spring_energy(const Vector& q) const;

  // Names of q: hinge and slide "<joint>.q", ball "<joint>.qw" … ".qz", free "<joint>.x" …
  // ".qz" (a free joint takes its body's name).
  std::vector<std::string> position_names() const;
  // Names of v: hinge and slide "<joint>.v", ball "<joint>.wx" … ".wz", free "<joint>.vx" …
  // ".wz".
  std::vector<std::string> velocity_names() const;

  // Throws std::invalid_argument when q or v has the wrong size or a non-finite entry.
  void check_state(const Vector& q, const Vector& v) const;

 private:
  struct BodyLayout {
    std::vector<Index> q, v;  // per joint of the chain: offsets in q and v
  };
  void relayout();  // dof numbering tree by tree (see tree_dofs)
  std::vector<std::string> names(bool positions) const;  // position_names, velocity_names
  // f(joint, offset in q, offset in v) for every joint, body by body.
  template <class F>
  void for_each_joint(F f) const {
    for (size_t b = 0; b < bodies_.size(); ++b)
      for (size_t k = 0; k < bodies_[b].joints.size(); ++k)
        f(bodies_[b].joints[k], layout_[b].q[k], layout_[b].v[k]);
  }
  // RNEA at the kinematics k (with velocities) and v, with a (nullptr: a = 0), into tau; with
  // kinetic, T as bias_forces gives it.
  void rnea(const MultibodyKinematics& k, const Vector& v, const Vector* a, Vector& tau,
            double* kinetic = nullptr) const;
  // ½ Σ a v_i² over the dofs of joints with armature a.
  double armature_energy(const Vector& v) const;

  Vector3 gravity_ = Vector3(0.0, 0.0, -9.81);
  std::vector<MultibodyBody> bodies_;
  std::vector<BodyLayout> layout_;
  bool on_path(Index k, Index i) const;  // dof k on the way from dof i to the root (or i itself)

  std::vector<Index> tree_, last_dof_, dof_parent_, dof_body_;
  std::vector<Index> dof_joint_first_;   // per dof: its joint's first dof
  std::vector<JointType> dof_type_;      // per dof: its joint's type
  Vector armature_;                      // per dof: its joint's armature (M's diagonal addition)
  bool any_armature_ = false;            // some joint has armature
  std::vector<char> turned_offset_;      // per body: its offset's rotation is not the identity
  std::vector<char> principal_inertia_;  // per body: its inertia is diagonal in its axes
  std::vector<std::pair<Index, Index>> trees_;
  Index nq_ = 0, nv_ = 0;
};

}  // namespace moreau
