#pragma once
// A world of rigid bodies: bodies with shapes, joints, contact materials and gravity, with the
// generalized coordinates, the mass matrix and the forces the integrators need.
//
//   M(q) v̇ + F(q, v, t) = Σ_i J_iᵀ λ_i,      q̇ = position_rate(q, v)
// (the left-side convention of model/contact_state.hpp: F = −m g − f_applied + gyroscopic).
//
// Coordinates are stacked per DYNAMIC body in body order (static bodies have no coordinates):
//   planar:  q_i = (x, y, θ),              v_i = (v_x, v_y, ω)             (3, 3)
//   spatial: q_i = (p, w, x, y, z),        v_i = (v, ω), ω in WORLD axes   (7, 6)
// Mass blocks: planar diag(m, m, I_zz); spatial diag(m I₃, R I_body Rᵀ) (depends on q).
// Forces, with f = m g + f_applied and τ = τ_applied (RigidBody::applied_force, applied_torque):
// planar F_i = (−f_x, −f_y, −τ_z); spatial F_i = (−f, ω × (I_w ω) − τ) with I_w = R I Rᵀ
// (the gyroscopic term of the Newton–Euler equations in world axes: I_w ω̇ + ω × I_w ω = τ).
// Quaternion rate (ω in world axes): q̇_quat = ½ (0, ω) ⊗ q_quat.
// Contact detection lives in the contact layer (moreau/contact/collision/world_contacts.hpp).
#include <string>
#include <unordered_map>
#include <vector>

#include "moreau/model/rigid/contact_pair.hpp"
#include "moreau/model/rigid/actuator.hpp"
#include "moreau/model/rigid/keyframe.hpp"
#include "moreau/model/rigid/equality.hpp"
#include "moreau/model/rigid/joint.hpp"
#include "moreau/model/rigid/rigid_body.hpp"
#include "moreau/model/vocabulary.hpp"

namespace moreau {

// A block of BodyPairRows: k × m with k ≤ 6 rows (a contact has d, a weld 6) on one body's
// m ≤ 6 velocities, held in place (no heap storage: a step forms one per contact, and their
// heap blocks were a third of a robot's allocations).
using PairBlock = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, 6, 6>;
// A column of BodyPairRows (k ≤ 6 entries), held in place.
using PairColumn = Eigen::Matrix<double, Eigen::Dynamic, 1, Eigen::ColMajor, 6, 1>;

// Constraint rows that involve two bodies: J v = block_a v_a + block_b v_b (k rows), with the
// velocity-product term c = J̇ v and a position-level residual.
struct BodyPairRows {
  Index offset_a = -1;  // first column of body a in v, −1 when static / world
  Index offset_b = -1;  // same for body b
  PairBlock block_a;    // k × m (m = 3 planar, 6 spatial)
  PairBlock block_b;    // k × m
  PairColumn bias;      // k, c = J̇ v, m/s² (or rad/s²)
  PairColumn residual;  // k, g(q): joint residual, m or rad (contacts: gap then zeros)

  // k, the number of rows.
  Index rows() const { return bias.size(); }
  // J v (k).
  Vector apply(const Vector& v) const;
  // Appends the entries to a triplet list at row `row0` (transpose = false: k × n rows) or at
  // column `row0` (transpose = true: n × k, the H convention).
  void append_triplets(std::vector<Triplet>& out, Index row0, bool transpose) const;
  // Dense k × n matrix.
  Matrix dense(Index n) const;
};

// A 2D or 3D world of bodies with shapes, joints, contact materials and gravity (the one rigid-body
// model).
class RigidWorld {
 public:
  // An empty world of dimension 2 (planar) or 3 (spatial), with the default gravity.
  explicit RigidWorld(int dimension = 3);

  // 2 (planar) or 3 (spatial).
  int dimension() const { return dimension_; }
  // Coordinates per dynamic body: planar 3 (x, y, θ), spatial 7 (p, quaternion).
  Index body_position_size() const { return dimension_ == 2 ? 3 : 7; }
  // Velocities per dynamic body: planar 3 (v_x, v_y, ω), spatial 6 (v, ω).
  Index body_velocity_size() const { return dimension_ == 2 ? 3 : 6; }

  // Adds a body (validated, name unique and non-empty: a default "body<i>" is given when empty).
  Index add_body(RigidBody body);
  // Adds a joint (validated: bodies exist, a ≠ b, a dynamic, limits lower ≤ upper); sets
  // relative_orientation from the initial poses. A limited joint to the world (body_b = −1) is
  // attached to the static body "world", added (without shapes) when there is none.
  Index add_joint(Joint joint);
  // Adds a tendon (equality.hpp), validated: fixed terms on revolute or prismatic joints that are
  // not closures, or a spatial path of ≥ 2 sites on existing bodies, one of them dynamic; limits
  // lower ≤ upper, e ∈ [0, 1]; name unique. Returns its index.
  Index add_tendon(Tendon tendon);
  // Adds a coupling (equality.hpp), validated: joints revolute or prismatic and not closures (or
  // tendons) that exist and differ, finite coefficients; name unique. Returns its index.
  Index add_coupling(Coupling coupling);
  // Adds an actuator (actuator.hpp), validated: a revolute or prismatic joint that is not a
  // closure, finite nonzero gear, finite gains, ordered ranges; name unique. Returns its index.
  Index add_actuator(Actuator actuator);
  // Every actuator, by index (ctrl's order).
  const std::vector<Actuator>& actuators() const { return actuators_; }
  // Adds a named state (keyframe.hpp), validated: a unique name (empty: key<k>), finite values.
  Index add_keyframe(Keyframe keyframe);
  // Every keyframe, in the order added.
  const std::vector<Keyframe>& keyframes() const { return keyframes_; }
  // The keyframe of that name, or null.
  const Keyframe* find_keyframe(const std::string& name) const;
  // The edits of the initial state (a keyframe without a name, validated as one): what a system
  // built from the world starts from. Entries given later override earlier ones.
  void edit_initial_state(const Keyframe& edits);
  // The initial-state edits (empty maps: the model's own initial state).
  const Keyframe& initial_state_edits() const { return initial_edits_; }
  // Every tendon, by index.
  const std::vector<Tendon>& tendons() const { return tendons_; }
  // Every coupling, by index.
  const std::vector<Coupling>& couplings() const { return couplings_; }
  // True when the world runs in joint coordinates: it has joints or tendons.
  bool has_joint_coordinates() const { return !joints_.empty() || !tendons_.empty(); }

  // Adds an explicit contact pair (contact_pair.hpp), validated: bodies and shapes exist, two
  // different bodies not both static, name unique (default "pair<i>"), material valid. Stored
  // with body b the static one, else the larger index (the order detection uses).
  Index add_contact_pair(ContactPair pair);
  // Every explicit contact pair, by index.
  const std::vector<ContactPair>& contact_pairs() const { return pairs_; }
  // Keeps detection from pairing any shape of body a with any of body b (MuJoCo's <contact>
  // <exclude>); explicit pairs still apply. Validated: bodies exist and differ.
  void exclude_collisions(Index body_a, Index body_b);
  // True when detection must not pair bodies a and b (either order).
  bool collisions_excluded(Index body_a, Index body_b) const;
  // Every excluded pair (smaller index first), sorted.
  const std::vector<std::pair<Index, Index>>& excluded_pairs() const { return excluded_; }
  // Index of the explicit pair of these two shapes (either order), −1 if none.
  Index find_contact_pair(Index body_a, Index shape_a, Index body_b, Index shape_b) const;
  // True when some explicit pair is bilateral.
  bool has_bilateral_pairs() const;

  // Gravity, m/s² (default (0, −9.81, 0) planar, (0, 0, −9.81) spatial).
  void set_gravity(const Vector3& g);
  // Gravity g⃗, m/s².
  const Vector3& gravity() const { return gravity_; }

  // Contact materials: a default and per-pair overrides (symmetric in a, b).
  void set_default_material(const ContactMaterial& m);
  // Sets the material of the pair (body_a, body_b), either order (validated).
  void set_material(Index body_a, Index body_b, const ContactMaterial& m);
  // Material of the pair (body_a, body_b): its override, else the default.
  const ContactMaterial& material(Index body_a, Index body_b) const;
  // Every material in use: the default first, then the per-pair overrides, then the materials
  // of the explicit contact pairs.
  std::vector<ContactMaterial> materials() const;
  // The per-pair overrides ((body a, body b), material), in the order they were set.
  const std::vector<std::pair<std::pair<Index, Index>, ContactMaterial>>& material_overrides()
      const {
    return pair_materials_;
  }
  // Material of the pairs without an override.
  const ContactMaterial& default_material() const { return default_material_; }

  // Every body, static ones included, by index.
  const std::vector<RigidBody>& bodies() const { return bodies_; }
  // Body i (throws std::out_of_range for an index not in [0, body_count())).
  const RigidBody& body(Index i) const { return bodies_.at(static_cast<size_t>(i)); }
  // Every joint, by index.
  const std::vector<Joint>& joints() const { return joints_; }
  // True when some joint links bodies a and b (either order).
  bool jointed(Index body_a, Index body_b) const;
  // Number of bodies, static ones included.
  Index body_count() const { return static_cast<Index>(bodies_.size()); }
  // Number of dynamic bodies (the ones with coordinates).
  Index dynamic_body_count() const { return dynamic_count_; }
  // Index of a body by name, −1 if absent.
  Index find_body(const std::string& name) const;

  // Size of q: dynamic_body_count() × body_position_size().
  Index position_size() const { return dynamic_count_ * body_position_size(); }
  // n, the size of v: dynamic_body_count() × body_velocity_size().
  Index velocity_size() const { return dynamic_count_ * body_velocity_size(); }
  // Offset of body i in q, −1 for static bodies.
  Index position_offset(Index i) const;
  // Offset of body i in v, −1 for static bodies.
  Index velocity_offset(Index i) const;
  // "rod.x", "rod.y", "rod.theta" (planar); "ball.x" … "ball.z", "ball.qw" … "ball.qz".
  std::vector<std::string> position_names() const;
  // "rod.vx", "rod.vy", "rod.omega" (planar); "ball.vx" … "ball.vz", "ball.wx" … "ball.wz".
  std::vector<std::string> velocity_names() const;

  // Initial q from the bodies' poses.
  Vector initial_positions() const;
  // Initial v from the bodies' velocities.
  Vector initial_velocities() const;

  // Kinematics at q (static bodies: their fixed pose and zero velocity).
  Pose body_pose(const Vector& q, Index i) const;
  // Velocity of body i's centre of mass, world axes, m/s (planar: (v_x, v_y, 0)).
  Vector3 body_linear_velocity(const Vector& v, Index i) const;
  Vector3 body_angular_velocity(const Vector& v, Index i) const;  // world axes (planar: (0,0,ω))

  // Mass matrix blocks, one per dynamic body (m × m, see the file comment), and assembled.
  std::vector<Matrix> mass_matrix_blocks(const Vector& q) const;
  SparseMatrix mass_matrix(const Vector& q) const;  // n × n, block diagonal
  Matrix dense_mass_matrix(const Vector& q) const;  // the same as a dense matrix
  // F(q, v, t) on the left side (see the file comment), n.
  Vector forces(const Vector& q, const Vector& v, double t) const;

  // q̇ from (q, v): planar identity, spatial (v, ½ (0, ω) ⊗ quat).
  Vector position_rate(const Vector& q, const Vector& v) const;
  // q ← q / ‖quat‖ per spatial body (no-op planar).
  void normalize_position(Vector& q) const;
  // q(t + h) for constant v over the step: positions p + h v, rotation by the exact exponential
  // quat ← exp(½ h (0, ω)) ⊗ quat (unit norm preserved to rounding), planar θ + h ω.
  Vector integrate_position(const Vector& q, const Vector& v, double h) const;
  // q₁ ⊖ q₀: the δ with integrate_position(q₀, δ, 1) = q₁ (rotation vectors, world axes).
  Vector difference_position(const Vector& q0, const Vector& q1) const;

  // T = ½ vᵀ M(q) v, J.
  double kinetic_energy(const Vector& q, const Vector& v) const;
  // V = −Σ (m g⃗ + f_applied)·p − Σ τ_z θ (planar) over the dynamic bodies, J. A spatial
  // applied torque has no potential: its work is not in V (energy reports count it as a gain).
  double potential_energy(const Vector& q) const;

  // Joint j: rows (residual g, J blocks, c = J̇ v) as documented in joint.hpp.
  BodyPairRows joint_rows(const Vector& q, const Vector& v, Index j) const;
  Index joint_row_count() const;  // total rows over all joints
  // The coordinate s of joint j at q that its limits bound (joint.hpp): revolute angle (rad, in
  // (−π, π]), prismatic displacement (m), ball rotation angle (rad, in [0, π]); 0 for fixed.
  double joint_coordinate(const Vector& q, Index j) const;
  // The rotation of body a relative to its starting pose on body b, in a's frame (w ≥ 0):
  // Rot = R_rel R_bᵀ R_a; revolute and ball coordinates are its angle.
  Quaternion joint_rotation(const Vector& q, Index j) const;

  // Throws std::invalid_argument when q, v have the wrong size or non-finite entries.
  void check_state(const Vector& q, const Vector& v) const;

 private:
  int dimension_;
  Vector3 gravity_;
  std::vector<RigidBody> bodies_;
  std::unordered_map<std::string, Index> body_index_;  // name → index (find_body in O(1))
  std::vector<Joint> joints_;
  std::vector<std::pair<Index, Index>> jointed_;  // the joints' body pairs (smaller first), sorted
  void index_jointed();                           // forms jointed_ from joints_
  std::vector<Tendon> tendons_;
  std::vector<Coupling> couplings_;
  std::vector<Actuator> actuators_;
  std::vector<Keyframe> keyframes_;
  Keyframe initial_edits_;
  std::vector<ContactPair> pairs_;
  std::vector<std::pair<Index, Index>> excluded_;  // body pairs detection skips (smaller first)
  std::vector<Index> offsets_;                     // per body: dynamic index or −1
  Index dynamic_count_ = 0;
  ContactMaterial default_material_;
  std::vector<std::pair<std::pair<Index, Index>, ContactMaterial>> pair_materials_;
};

}  // namespace moreau
