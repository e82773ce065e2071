#pragma once
// A RigidWorld seen as a LagrangianSystem (model/lagrangian_system.hpp), for the event-driven
// integrator and the analysis tools (dense matrices: meant for small scenes).
//
// contact_state(q, v, t): M(q), F(q, v, t), then every joint row as a bilateral, frictionless
// constraint ("joint:<name>:<row>", tangent 0) and every contact detected with
// settings().margin (default +∞: every feature pair the narrow phase reports, so a box on a plane
// always yields its 4 (2D) or 8 (3D) corners and a rod its 2 ends, active or not) and every
// explicit contact pair, as a unilateral constraint (bilateral for a bilateral pair) with μ, e,
// γ, α, β of its material, ∇h = J_nᵀ, H_t = J_tᵀ and c_n, c_t from contact_rows (see
// world_contacts.hpp for which contact types have exact c terms).
//
// Spatial worlds: v (6 per body) and q (7 per body) differ in size; ContactState::q holds q
// (7 per body). ContactState::validate() currently requires q.size() == v.size(), so it
// rejects spatial states (reported to the lead).
//
// Joint coordinates (docs/math/multibody.md). A world with joints is simulated in the joint
// coordinates of its kinematic forest (model/multibody/rigid_world_forest.hpp): q and v are the
// forest's (a free body keeps its 7 and 6 entries and their names; a planar loose body its
// "<body>.x", "<body>.y", "<body>.theta"), M(q) comes from CRBA with the armature, and
// F = b(q, v) − τ_passive − Σ_b J_bᵀ (f_app, τ_app). Detection, contact rows and the rows of the
// joints that close cycles are those of the maximal model at the bodies' poses, mapped through the
// body Jacobians: J = Σ_b J_max,b J_b, c = c_max + Σ_b J_max,b J̇_b v. A joint limit is a
// frictionless unilateral row on its coordinate: ±e_s for a hinge or slide (gap in rad or m), −u
// on a ball's ω for its cone (u the axis of its rotation); its restitution is the joint's
// limit_restitution. The joints of the forest hold exactly and have no rows; joints with the same
// two bodies in a row are one chain (model/rigid/joint.hpp §Chains). A run records every body's
// pose and velocity (the maximal q and v, under today's names) followed by the joint coordinates
// and velocities of the hinge, slide and ball joints (recorded_positions). A world without joints
// has only free roots, whose coordinates are the maximal ones: it runs the maximal formulas
// unchanged.
#include <memory>

#include "moreau/contact/collision/world_contacts.hpp"
#include "moreau/model/lagrangian_system.hpp"
#include "moreau/model/multibody/rigid_world_forest.hpp"

namespace moreau {

// The state a keyframe gives (RigidWorldSystem::keyframe_state).
struct KeyframeState {
  Vector q;     // positions (nq)
  Vector v;     // velocities (nv)
  Vector ctrl;  // controls (one per actuator)
};

// A RigidWorld as a LagrangianSystem, its contacts found by collision detection.
class RigidWorldSystem : public LagrangianSystem {
 public:
  // The system of `world` (not null; its initial positions and velocities, with the world's
  // initial-state edits applied (RigidWorld::edit_initial_state), become initial_q, initial_v);
  // contacts are detected with `settings`.
  explicit RigidWorldSystem(std::shared_ptr<const RigidWorld> world,
                            CollisionSettings settings = {.margin = INFINITY},
                            std::string name = "rigid_world");

  std::string name() const override { return name_; }
  int dimension() const override { return world_->dimension(); }
  Index velocity_size() const override;
  Index position_size() const override;
  std::vector<std::string> position_names() const override;
  std::vector<std::string> velocity_names() const override;
  // Every body's pose (the maximal q), then the hinge, slide and ball coordinates.
  Vector recorded_positions(const Vector& q) const override;
  // Every body's (v_G, ω) (the maximal v), then the hinge, slide and ball velocities.
  Vector recorded_velocities(const Vector& q, const Vector& v) const override;
  // The four records from one walk of the forest (joint coordinates).
  RecordedState recorded_state(const Vector& q, const Vector& v) const override;
  std::vector<std::string> recorded_position_names() const override;
  std::vector<std::string> recorded_velocity_names() const override;

  ContactState contact_state(const Vector& q, const Vector& v, double t) const override;
  // Joint coordinates: the contacts that cannot activate are left out before their rows are
  // mapped through the tree (and named); contact_state otherwise.
  ContactState step_state(const Vector& q, const Vector& v, double t, double reach, double margin,
                          bool with_record = true) const override;
  // F and the constraints without M, ∇h and H_t: O(bodies + contacts) memory.
  ContactState constraint_summary(const Vector& q, const Vector& v, double t) const override;

  // K = C = 0: the weight and the applied loads are constant; the gyroscopic term ω × Iω of
  // spatial bodies is left out of the iteration matrix (Newton's method of
  // sim/moreau_jean_osi.hpp then converges linearly in it, for moderate h|ω|).
  void force_jacobians(const Vector& /*q*/, const Vector& /*v*/, double /*t*/, Matrix& K,
                       Matrix& C) const override {
    K = Matrix::Zero(velocity_size(), velocity_size());
    C = Matrix::Zero(velocity_size(), velocity_size());
  }

  // CRBA's M and F of a world with joints; the bodies' block-diagonal M and F otherwise (as
  // contact_state has them, without detecting contacts).
  void mass_and_forces(const Vector& q, const Vector& v, double t, Matrix& M,
                       Vector& F) const override;
  // One walk of the forest for both (a world with joints): the poses and M, then the velocities
  // and F.
  void mass_then_forces(const Vector& q, double t, Matrix& M,
                        const std::function<const Vector&(Matrix&)>& velocity,
                        Vector& F) const override;
  // Exact: in joint coordinates from RNEA's derivatives with the bodies' loads (applied and
  // xfrc) fixed in the world, the joint springs and dampers and the unsaturated actuators'
  // b₁, b₂ terms; for loose bodies from the gyroscopic term and the turning inertia.
  void dynamics_derivatives(const Vector& q, const Vector& v, double t, const Vector& a,
                            double q_step, double v_step, Matrix& d_dq,
                            Matrix& d_dv) const override;
  // Exact for shape contacts (3D and planar) between a plane and a shape with a core (a sphere,
  // a capsule's end, a box's or convex's vertex: the core point moves with its body, the normal
  // with the plane's), between a sphere and a sphere, a capsule or a box (the feature nearest
  // its centre), between two capsules with skew axes, and for hinge and slide limits (constant
  // rows) (contact_derivatives.cpp); false when another constraint (a joint or equality row, a
  // ball's limit, another pair of shapes) is asked.
  bool constraint_derivatives(const Vector& q, const Vector& v, double t, const ContactState& s,
                              const std::vector<Index>& which, const Vector& r, const Matrix& U,
                              Matrix& df, Matrix& dy) const override;
  // True for a world with joints: its free flight is second order (dense_step_contacts.cpp).
  bool midpoint_free_flight() const override { return forest_ != nullptr; }
  // The forest's dof parents (joint coordinates), else nullptr.
  const std::vector<Index>* mass_tree() const override {
    return forest_ ? &forest_->model.dof_parent() : nullptr;
  }
  // The forest's exponential map for a world with joints, RigidWorld's otherwise.
  Vector integrate(const Vector& q, const Vector& v, double h) const override;
  // The forest's difference for a world with joints, RigidWorld's otherwise.
  Vector difference(const Vector& q0, const Vector& q1) const override;
  // The joints' stiffness and damping on their dofs (a ball's on its three; free joints: damping).
  bool passive_diagonals(const Vector& q, const Vector& v, Vector& K, Vector& D) const override;
  // Every dof of a forest joint with frictionloss > 0 (a ball's three, a free joint's six).
  std::vector<DryFriction> dry_friction() const override;
  Vector position_rate(const Vector& q, const Vector& v) const override;
  void normalize_position(Vector& q) const override;
  double kinetic_energy(const Vector& q, const Vector& v) const override;
  // Gravity and the applied loads (RigidWorld::potential_energy at the bodies' poses) plus the
  // joint springs.
  double potential_energy(const Vector& q) const override;
  // Body blocks (src/contact/rigid_step_contacts.cpp) unless settings.body_blocks is
  // false or the world has a bilateral contact pair (the dense layer, which holds it as a
  // bilateral row like any ContactConstraint, model/dense_step_contacts.cpp).
  std::unique_ptr<StepContacts> step_contacts(const StepContactSettings& settings,
                                              const ContactSolverSettings& solver) const override;
  std::vector<ImpactLaw> contact_laws() const override;  // the law of every material

  // The rigid world behind the system.
  const RigidWorld& world() const { return *world_; }
  // True when the world has joints: q and v are joint coordinates (see the file comment).
  bool articulated() const { return forest_ != nullptr; }
  // The kinematic forest of an articulated world (null otherwise).
  const RigidWorldForest* forest() const { return forest_.get(); }
  // The maximal coordinates of the world at q: every dynamic body's pose (RigidWorld's q).
  Vector maximal_positions(const Vector& q) const;
  // The state of a keyframe (model/rigid/keyframe.hpp): the model's initial q with the named
  // coordinates set (quaternions normalized), zero velocities and controls but the named ones.
  // Throws std::invalid_argument naming the keyframe and an entry that names no coordinate,
  // velocity or actuator of the system.
  KeyframeState keyframe_state(const Keyframe& k) const;
  // The controls of the initial-state edits (one per actuator; zero when none is named).
  const Vector& initial_ctrl() const { return initial_ctrl_; }
  // Inputs held between steps by a driver (sim/simulator.hpp): generalized forces τ (nv, empty for
  // none), body wrenches (body_count × 6: force then torque, world axes, at the centre of mass;
  // empty for none), applied as the bodies' loads are, and the actuators' controls (one per
  // actuator, empty for zeros). Validated (sizes, finite).
  void set_inputs(Vector qfrc_applied, Matrix xfrc_applied, Vector ctrl = Vector());
  // Their generalized force at q: τ + Σ_b J_bᵀ w_b (n; zero without inputs).
  Vector input_forces(const Vector& q) const;
  // The actuators' generalized force at (q, v) with the held controls (model/rigid/actuator.hpp),
  // n; with K and D given, adds each unsaturated actuator's spring −b₁gear² and damper −b₂gear²
  // (when ≥ 0) on its joint's entry.
  Vector actuator_forces(const Vector& q, const Vector& v, Vector* K = nullptr,
                         Vector* D = nullptr) const;
  // The actuators' forces f after clamping (one per actuator), at (q, v).
  Vector actuator_force_values(const Vector& q, const Vector& v) const;
  // The length L(q) of tendon t of an articulated world (model/rigid/equality.hpp), m.
  double tendon_length(const Vector& q, Index t) const;
  // The collision settings of contact detection.
  const CollisionSettings& settings() const { return settings_; }
  // The contacts behind the unilateral constraints of the last contact_state call order:
  // constraint k ≥ joint rows ↔ contacts[k − joint rows] of detect_contacts(world, q, settings),
  // without the start overlaps still ignored.
  std::vector<Contact> contacts(const Vector& q) const {
    std::vector<Contact> out = detect_contacts(*world_, maximal_positions(q), settings_);
    drop_ignored_overlaps(out, false);
    return out;
  }

  // Start pose. Built, the system's initial q is made valid (settings().initial_overlap):
  // 1. a limited hinge or slide whose zero (the model's pose) lies outside its range starts at
  //    the nearest end of the range;
  // 2. the world's initial-state edits (keyframe, joint values) apply;
  // 3. a hinge or slide they put outside its range is clamped into it (refuse: refused);
  // 4. bodies whose shapes interpenetrate by more than initial_tolerance are separated by a
  //    position projection in joint coordinates (resolve), take no contact until they first
  //    separate (ignore, and a pair resolve cannot clear), or are refused (std::invalid_argument
  //    naming the pair and the depth).
  // What was changed or ignored, one line each (each pair with its depth), for the run's warnings.
  const std::vector<std::string>& start_notes() const override { return start_notes_; }
  // A run starting at the initial q ignores the start's overlapping pairs again.
  void begin_run(const Vector& q) const override;
  // Removes the contacts of body pairs that overlapped at the start and have not yet separated;
  // with `update`, a pair none of whose contacts penetrates is forgotten (it has separated).
  void drop_ignored_overlaps(std::vector<Contact>& contacts, bool update) const;
  // Projections (each after a new detection) that resolve may take.
  static constexpr int kStartProjections = 20;

 private:
  // contact_state with the dense parts (M and Jacobian rows) or without them.
  ContactState state(const Vector& q, const Vector& v, double t, bool dense) const;
  // The same for an articulated world (articulated_world.cpp).
  // `reach` and `margin` as step_state (reach < 0: every contact).
  ContactState articulated_state(const Vector& q, const Vector& v, double t, bool dense,
                                 double reach = -1.0, double margin = 0.0,
                                 bool with_record = true) const;
  // What a run records at (q, v) with kinetic energy T, from the world's maximal coordinates
  // and velocities there (taken: recorded as they are when the forest records no joint coordinate)
  // (articulated_world.cpp).
  RecordedState record_of(Vector maximal_q, Vector maximal_v, double T, const Vector& q,
                          const Vector& v) const;
  // F = b − τ_passive − Σ J_bᵀ (f_app, τ_app) at the kinematics k into F (articulated_world.cpp;
  // a caller that keeps F allocates nothing for it); with kinetic, T at (q, v) too
  // (MultibodyModel::bias_forces).
  void articulated_forces(const MultibodyKinematics& k, const Vector& q, const Vector& v, Vector& F,
                          double* kinetic = nullptr) const;
  // dynamics_derivatives of loose bodies (no forest), exact.
  void loose_dynamics_derivatives(const Vector& q, const Vector& v, const Vector& a, Matrix& d_dq,
                                  Matrix& d_dv) const;
  // The shape contacts detected at q as contact_state detects them (joint coordinates: at the
  // forest's poses, without the joints' limits), before the ignored overlaps are dropped; the
  // bodies' poses as RigidWorld's q in *world_q when given; only the points `keep` accepts.
  std::vector<Contact> shape_contacts(const Vector& q, Vector* world_q = nullptr,
                                      const ContactFilter& keep = {}) const;
  // Per body of the forest: the world loads (f; τ) at its centre of mass, world axes: the
  // bodies' applied force and torque, plus xfrc_applied when `inputs` (planar: f_x, f_y, τ_z).
  std::vector<Eigen::Matrix<double, 6, 1>> articulated_loads(bool inputs) const;
  // A limited joint of the forest: the world's joint, its forest joint and its offsets in q, v.
  struct LimitedJoint {
    Index index;                  // in world().joints()
    const MultibodyJoint* joint;  // its joint in the forest (limits measured from q = 0)
    Index q, v;                   // its first coordinate and velocity
  };
  // Every limited joint of the forest (none without joint coordinates), for limited_.
  std::vector<LimitedJoint> find_limited_joints() const;
  // The limit constraints of the forest's joints at (q, v), appended to out. With a reach ≥ 0
  // (a step's state), a bound that no step of that reach activates is left out, by the test the
  // step's index set applies (g + reach·min(u, 0) ≤ margin, u = its row·v).
  void append_limit_constraints(const Vector& q, const Vector& v, bool dense, double reach,
                                double margin, std::vector<ContactConstraint>& out) const;
  // The rows of the couplings (bilateral, "coupling:<name>:0") at (q, v) with kinematics k,
  // appended to out (articulated_equalities.cpp).
  void append_coupling_constraints(const Vector& q, const Vector& v, const MultibodyKinematics& k,
                                   bool dense, std::vector<ContactConstraint>& out) const;
  // The bounds of the limited tendons ("<tendon>/lower", "<tendon>/upper"), appended to out.
  void append_tendon_limit_constraints(const Vector& q, const Vector& v,
                                       const MultibodyKinematics& k, bool dense,
                                       std::vector<ContactConstraint>& out) const;
  // The forest's position (true) or velocity names, planar roots named as loose bodies.
  std::vector<std::string> forest_names(bool positions) const;
  // Applies the world's initial-state edits to initial_q, initial_v (the model's q kept).
  void apply_initial_state_edits();
  // q, v and ctrl of a keyframe's entries applied to q_base, v_base and zero controls (see
  // keyframe_state); `what` names it in messages.
  KeyframeState apply_keyframe(const Keyframe& k, const Vector& q_base, const Vector& v_base,
                               const std::string& what) const;
  // The recorded joint entries: (index in q or v, name), hinge, slide and ball joints.
  void index_recorded_joints();
  // joint_stiffness_, joint_damping_, joint_springs_ and joint_friction_ from the forest's joints.
  void index_joint_springs();
  // Steps 1 and 3–4 of the start pose (see start_notes; rigid_world_start_pose.cpp).
  void clamp_model_pose();
  void settle_start_pose();

  std::shared_ptr<const RigidWorldForest> forest_;  // non-null when the world has joints
  std::vector<std::pair<Index, std::string>> recorded_q_, recorded_v_;
  bool shapes_may_touch_ = true;  // shapes_may_touch(world, settings): else detection is skipped
  bool constant_loads_ = false;   // some body has an applied force or torque (articulated_loads)
  // per body of the world: max over its shapes of |offset| + bounding radius, m (∞ with a plane);
  // every point of its shapes is within this distance of its frame's origin (articulated_state)
  std::vector<double> shape_radius_;
  // the joints' own stiffness and damping on each velocity (a free joint's stiffness 0), formed
  // once; joint_springs_ says whether any is nonzero (passive_diagonals)
  Vector joint_stiffness_, joint_damping_;
  bool joint_springs_ = false;
  bool joint_friction_ = false;  // some joint has frictionloss > 0 (dry_friction is not empty)
  std::vector<double> tendon_length0_;    // per tendon: L at the initial q (couplings' L₀)
  Vector model_q_;                        // the model's own initial q, before the edits
  Vector initial_ctrl_;                   // the initial-state edits' controls (nu)
  Vector qfrc_applied_;                   // set_inputs: n, or empty (none, or all zero)
  Matrix xfrc_applied_;                   // set_inputs: body_count × 6, or empty (as qfrc)
  Vector ctrl_;                           // set_inputs: one per actuator, or empty
  std::vector<LimitedJoint> limited_;     // find_limited_joints()
  std::vector<std::string> start_notes_;  // start_notes()
  std::vector<std::pair<Index, Index>> start_ignored_;  // body pairs overlapping at the start
  // The run's memory: start overlaps not yet separated (sorted), reset by begin_run().
  mutable std::vector<std::pair<Index, Index>> ignoring_;

  std::shared_ptr<const RigidWorld> world_;
  CollisionSettings settings_;
  std::string name_;
};

// The number of positions a run of `world` records (RigidWorldSystem::recorded_positions): its
// bodies' coordinates, plus the joint coordinates of its forest when it has joints.
Index recorded_position_size(const RigidWorld& world);

}  // namespace moreau
