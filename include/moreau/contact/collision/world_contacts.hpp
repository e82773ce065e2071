#pragma once
// Contact detection in a RigidWorld and the contact Jacobians in generalized velocities.
//
// Local velocity of contact i: u_i = [u_n, u_t1(, u_t2)] = J_i v, the velocity of A's witness
// point relative to B's in the frame (n, t₁, t₂):
//   J_i v = Cᵀ ((v_A + ω_A × r_A) − (v_B + ω_B × r_B)),   r_X = x_X − p_X,  C = frame (d columns)
// Rows per body: planar [cᵀ, (r × c)_z] for each column c, spatial [cᵀ, (r × c)ᵀ].
// Velocity-product terms c_i = J̇_i v (Brogliato et al. 2020 (9); contact_state.hpp), for the
// POINT-ON-FACE model (the witness points are material, n and t attached to the body F that
// carries the face: B, or A when Contact::normal_on_a):
//   c_n = n·(ω_A×(ω_A×r_A) − ω_B×(ω_B×r_B)) + 2 (ω_F×n)·(v_PA − v_PB) − g ‖ω_F×n‖²
//   c_t = t·(ω_A×(ω_A×r_A) − ω_B×(ω_B×r_B)) + 2 (ω_F×t)·(v_PA − v_PB) + g (ω_F×(ω_F×t))·n
// (c_t exact at g = 0, where it is used). For rounded shapes (sphere, capsule, rounded convex)
// r_X, v_PX and g are taken at the material CORE point x_X ∓ r_X n (sphere centre, capsule
// axis point), which keeps its distance to the other surface while the body rolls, so c_n is
// exact for spheres and capsule ends on faces too; c_t of a rolling rounded body is approximate.
// which is exact for vertex–face and sphere-centre–face contacts (box/mesh corners, spheres,
// disks and capsule ends on planes and box faces), and for sphere–sphere / disk–disk contacts
// c_n is replaced by the exact centre-distance form c_n = ‖Δv − (Δv·n) n‖² / ‖Δp‖ (+ the ω×ω
// terms of off-centre spheres) and c_t by its exact form for witnesses that slide on the two
// surfaces as n turns (contact_rows in world_contacts.cpp). Edge–edge and curved–curved contacts
// other than these use the point-on-face formula (an approximation).
//
// Joint limits. A limited joint (model/rigid/joint.hpp) adds a frictionless contact (μ = 0, e = 0)
// per bound within the margin, between the joint's bodies, whose normal velocity is the rate of
// the joint coordinate s on the joint's manifold (where the joint rows hold):
//   prismatic   x = a's anchor, n = ±axis, gap = s − lower or upper − s (m);
//   revolute    x = a's anchor + ρ e (e ⊥ axis, ρ = 1 m), n = ±axis × e, gap = ρ (s − lower) or
//               ρ (upper − s): the relative velocity of the coincident points is (ω_a − ω_b) × ρ e
//               there, so u_n = ±ρ (ω_a − ω_b)·axis = ±ρ ṡ;
//   ball        the same with axis = the current rotation axis u of a relative to b (ṡ = u·Δω),
//               upper only (a cone of half angle upper).
// The gap of an angular limit is thus in radians times 1 m. A bound is reported while its gap is
// below max(margin, 0.1 rad or m), so that a fast joint cannot cross it between two detections.
// Names "<joint>/lower", "<joint>/upper".
//
// Global frictional contact problem (FCLIB convention): M v = H r + f, u = Hᵀ v + w, with
// H = [J_1ᵀ … J_ncᵀ] (n × d·nc) and M block diagonal.
#include <functional>
#include <vector>

#include "moreau/contact/collision/broad_phase.hpp"
#include "moreau/contact/collision/contact.hpp"
#include "moreau/contact/collision/narrow_phase.hpp"

namespace moreau {

// What a system does with a start pose whose shapes interpenetrate by more than
// CollisionSettings::initial_tolerance (contact.initial_overlap, contact/rigid_world_system.hpp
// §Start pose): resolve separates them by a position projection in joint coordinates (a pair the
// projection cannot clear is ignored), ignore leaves them and takes no contact between the two
// bodies until they first separate, refuse throws std::invalid_argument naming the pair.
enum class InitialOverlap { resolve, ignore, refuse };
// "resolve", "ignore" or "refuse" (the scene's names).
const char* to_string(InitialOverlap mode);

// Settings of contact detection (margin, m, and the narrow phase's).
struct CollisionSettings {
  double margin = 1e-3;          // report contacts with gap ≤ margin, m (may be +∞)
  bool use_broad_phase = true;   // false: test every shape pair (reference)
  bool collide_jointed = false;  // false: moving bodies linked by a joint do not collide
  bool with_names = true;        // false: Contact::name left empty (contact_name() builds it)
  // false: no joint-limit contacts (a world in joint coordinates states its limits on the
  // coordinates themselves, contact/rigid_world_system.hpp)
  bool joint_limits = true;
  int threads = 1;  // narrow phase on this many threads (common/parallel.hpp); same contacts
  // false: two bodies of one articulation (articulations() below) never collide; a URDF robot's
  // default (contact.self_collision, docs/urdf.md §Self-collision)
  bool self_collision = true;
  // The start pose (contact.initial_overlap): what a system does with shapes that interpenetrate
  // at the start by more than initial_tolerance.
  InitialOverlap initial_overlap = InitialOverlap::resolve;
  // m: the deepest start overlap taken as touching (contact.tolerance).
  double initial_tolerance = 1e-6;
};

// The articulation of each body (an index shared by the bodies of one, or −1): the dynamic bodies
// linked to each other through joints, and a static body jointed to the dynamic bodies of exactly
// one articulation (a robot's welded base; a ground two separate pendulums hang from belongs to
// neither). Bodies with no joint are −1. CollisionSettings::self_collision = false skips pairs of
// one articulation.
std::vector<Index> articulations(const RigidWorld& world);

// Whether detection looks at the shapes a (of body a) and b (of body b) at all: two bodies, not
// both static, not excluded, not jointed to each other (unless settings.collide_jointed or one is
// static), not of one articulation (without settings.self_collision; `articulation` is then
// articulations(world)), their contype/conaffinity filters passing, and no explicit pair of theirs.
bool detected_pair(const RigidWorld& world, const CollisionSettings& settings,
                   const std::vector<Index>& articulation, Index a, Index shape_a, Index b,
                   Index shape_b);
// False when no two shapes of the world pass detected_pair and it has no explicit contact pair:
// detect_contacts then finds nothing but joint limits at any q (an arm without collision geoms).
bool shapes_may_touch(const RigidWorld& world, const CollisionSettings& settings);

// A test detection applies to each point it finds, before the point becomes a Contact: the two
// bodies (A first, as the Contact will have them), the explicit pair (−1: none) and the point;
// false leaves the point out. Called from the narrow phase's threads, so it must be safe to call
// concurrently.
using ContactFilter =
    std::function<bool(Index body_a, Index body_b, Index pair, const ContactPoint& point)>;

// An optional bound that detection applies before the narrow phase of a shape pair found by the
// broad phase: for bodies a and b, the largest gap a point may have and still be kept (∞: every
// point within the margin). It is used on the 3D pairs with a plane, whose points are the
// shape's vertices (or core points) one by one: the pair's narrow phase then runs with
// min(margin, bound) and builds only those points. The caller must give a bound above every gap
// its filter keeps, so that the contacts returned are the same. Called from the narrow phase's
// threads, so it must be safe to call concurrently.
using PairReach = std::function<double(Index body_a, Index body_b)>;

// Every contact of the world at q: the points of every explicit contact pair
// (RigidWorld::contact_pairs, whatever their gap), and the shape pairs found by detection within
// the margin (static–static, explicit and, by default, jointed pairs skipped).
// body_a < body_b unless body_a is dynamic and body_b static (B is then the static one), so
// normals of ground contacts point out of the ground. Order: by pair, then by feature. With
// `keep`, only the points it keeps; with `reach`, fewer points are built for `keep` to test.
std::vector<Contact> detect_contacts(const RigidWorld& world, const Vector& q,
                                     const CollisionSettings& settings = {},
                                     const ContactFilter& keep = {}, const PairReach& reach = {});

// detect_contacts with its working memory kept between calls: a stepper that detects at every
// step keeps one, so that a warm detection allocates (and page-faults) only for what it returns.
class ContactDetector {
 public:
  // The contacts of detect_contacts(world, q, settings, keep, reach), in its order, into `out` (its
  // previous contents replaced, its capacity reused).
  void detect(const RigidWorld& world, const Vector& q, const CollisionSettings& settings,
              std::vector<Contact>& out, const ContactFilter& keep = {},
              const PairReach& reach = {});

 private:
  std::vector<Pose> poses_;                      // pose of each shape
  std::vector<std::pair<Index, Index>> shapes_;  // (body, shape) of each
  std::vector<Aabb> boxes_;
  BroadPhaseBuffers broad_;
  std::vector<std::pair<Index, Index>> candidates_;
  std::vector<std::vector<Contact>> found_;  // per chunk of the narrow phase
  std::vector<Contact*> order_;              // the found contacts in detection order
  std::vector<Index> articulation_;          // articulations(world), without self-collision
};

// "A/B:<shape a>-<shape b>:<feature>" (Contact::name): stable while the same features touch;
// for an explicit pair its name at feature 0 (a point or a disk on a plane has only that one),
// "<name>/<feature>" at the others.
std::string contact_name(const RigidWorld& world, const Contact& contact);

// Order of detect_contacts' output (body_a, body_b, shape_a, shape_b, feature): a strict weak order
// that identifies a contact across steps without its name.
bool contact_key_less(const Contact& x, const Contact& y);
// Same key (pair and feature) in the order of contact_key_less: the same contact in two steps.
bool contact_key_equal(const Contact& x, const Contact& y);

// J_A and J_B of one contact (the rows of contact_rows without bias), fixed size: d × m in the
// top-left corner of a 3 × 6 matrix (planar 2 × 3), rows n, t₁(, t₂):
//   J_A = [cᵀ, (r_A × c)ᵀ],  J_B = −[cᵀ, (r_B × c)ᵀ]   (planar: [c_x, c_y, (r × c)_z]).
void contact_jacobian_blocks(const RigidWorld& world, const Vector& q, const Contact& contact,
                             Eigen::Matrix<double, 3, 6>& J_a, Eigen::Matrix<double, 3, 6>& J_b);

// Rows of one contact: d rows (normal first), blocks for the two bodies, bias c = J̇ v (see the
// file comment), residual (gap, 0, …).
BodyPairRows contact_rows(const RigidWorld& world, const Vector& q, const Vector& v,
                          const Contact& contact);

// H = [J_1ᵀ … J_ncᵀ], n × (d·nc), sparse (d = world.dimension()).
SparseMatrix assemble_contact_h(const RigidWorld& world, const Vector& q,
                                const std::vector<Contact>& contacts);

}  // namespace moreau
