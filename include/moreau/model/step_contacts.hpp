#pragma once
// The contact layer of one Moreau–Jean step (sim/time_stepping.hpp), behind one interface with two
// implementations (docs/simulation.md):
//   - dense (LagrangianSystem::step_contacts, any system): the constraints of contact_state(q, v,
//   t),
//     the Delassus operator W = Hᵀ M⁻¹ H formed and its bilateral rows Schur-eliminated
//     (model/velocity_level.hpp), the condensed problem solved by the registry;
//   - body blocks (RigidWorldSystem::step_contacts, contact/rigid_world_system.hpp):
//     M⁻¹ per body, two Jacobian blocks per contact, body-block NSGS
//     (solvers/fc/body_block_nsgs.hpp); W is never formed.
// The stepper owns the scheme (index set test, restitution, softening, events, modes, debounced
// separations, recording, the projection loop); the layer owns the constraints, the contact
// identity (which contact of the last step a contact continues) and the warm start.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "moreau/model/contact_state.hpp"
#include "moreau/model/vocabulary.hpp"
#include "moreau/problems/friction_contact.hpp"
#include "moreau/solvers/anderson_acceleration.hpp"

namespace moreau {

// The frictional-contact solver of the steps (and of the impacts) of a simulation: a name of the
// solvers/fc registry and its budget, counted in iterations.
struct ContactSolverSettings {
  // Registry name; "auto" = choose_friction_contact_solver.
  std::string name = "auto";
  double tolerance = 1e-10;   // on friction_contact_residual
  int max_iterations = 2000;  // iterations of the solver (sweeps for NSGS)
};

// The settings of a step's contact layer (a part of sim's TimeSteppingSettings).
struct StepContactSettings {
  double activation_margin = 1e-6;     // m, I_k = {g + c h u_n ≤ margin}
  double activation_factor = 0.5;      // c of I_k (Siconos' γ, default ½)
  double bilateral_feedback = 0.2;     // κ of u_b⁺ = −κ h_b/h
  double projection_tolerance = 1e-8;  // m, violation left by the post-stabilization
  double nsgs_relaxation = 1.7;        // ω ∈ (0, 2) of body-block NSGS (after 20 plain sweeps)
  // θ of the linearly implicit joint springs and dampers, M + hθD + h²θ²K (the stepper sets it to
  // its own θ; docs/simulation.md §Passive joint forces)
  double theta = 0.5;
  // s, the longest step the layer builds (the stepper's dt). When > 0, detection may leave out the
  // unilateral contacts that cannot enter such a step, g + c·max_step·min(u_n, 0) > margin
  // (LagrangianSystem::step_state), whose rows the step never reads; 0 keeps every contact.
  double max_step = 0.0;
  // Anderson memory of body-block NSGS on islands of ≥ 16 contacts (0 = off; BodyBlockNsgsSettings)
  int nsgs_anderson_memory = 0;
  // The coarse correction of body-block NSGS over the faces of stacks (BodyBlockNsgsSettings)
  bool nsgs_coarse_correction = true;
  bool body_blocks = true;  // false: the dense layer for every system
  // Threads of the body-block layer: the narrow phase and a coloured NSGS
  // (solvers/fc/body_block_nsgs.hpp); 1 = sequential. Reproducible for a given count.
  int threads = 1;
  // Sleeping (rigid worlds, body-block layer; docs/simulation.md §Sleeping): an island (bodies
  // joined by contacts) whose every body has moved slower than sleep_velocity (|v_G| and |ω|·R,
  // R the body's bounding radius) for sleep_time is put to sleep: its velocities are set to zero
  // and its contacts keep their impulses without being solved, until a contact joins one of its
  // bodies to an awake body, which wakes the whole island. Bodies with joints never sleep.
  bool sleep = false;
  double sleep_velocity = 1e-3;  // m/s
  double sleep_time = 0.25;      // s
};

// One contact of the step's index set (unilateral; bilateral rows stay inside the layer).
struct StepContact {
  Index id = -1;          // index into StepContacts::names()
  Index previous = -1;    // the entry of history() it continues, −1 when it is new
  double un_minus = 0.0;  // u_n(v_k), m/s
  // μ, e and the softening γ (m/(N·s)) of the constraint.
  // @{
  double mu = 0.0, restitution = 0.0, gamma = 0.0;
  // @}
};

// What a step leaves for the next one, per contact that was active (or is a ghost: closed, out of
// the index set for steps_out ≤ separation_steps steps, left at left_t).
struct ContactHistory {
  Index id = -1;                             // index into StepContacts::names()
  ContactMode mode = ContactMode::separate;  // after the step that left this entry
  Vector3 r = Vector3::Zero();               // impulse in its contact frame, normal first, N·s
  int steps_out = 0;                         // steps since it left the index set (0 while active)
  double left_t = 0.0;                       // s
};

// Where a step's contact is after the step: its gap and, for a contact between shapes, its world
// point and unit normal (ContactConstraint::point, world_normal; NaN otherwise).
struct ContactPlace {
  double gap = 0.0;  // m
  // World point midway between the witness points, m.
  Vector3 point = Vector3::Constant(std::numeric_limits<double>::quiet_NaN());
  // Unit normal, world axes.
  Vector3 normal = Vector3::Constant(std::numeric_limits<double>::quiet_NaN());
  // The bodies (ContactConstraint::body_a, body_b; −1 when not a contact between shapes).
  Index body_a = -1, body_b = -1;  // the second body
};

// The step's solution: v⁺ (v), r and u = Hᵀv⁺ + w (+ c r_n) per contact, and the solver report.
using StepSolution = FrictionContactResult;

// One row of the projection below, in velocity form: target + J Δv and Δv += step · M⁻¹Jᵀ are
// the Row's value() and add(); target is g (aimed) or h_b, diag = J M⁻¹ Jᵀ > 0.
// Post-stabilization (Acary & Brogliato 2008 §10.4.2, "projection onto the constraints"):
//   min ½ ΔvᵀMΔv  s.t.  g_i + J_n,i Δv ≥ 0 (unilateral, every detected contact),
//   h_b + ∇h_bᵀΔv = 0,
// i.e. Δv = M⁻¹ Jᵀ δ with the MLCP  0 ≤ δ_i ⊥ g_i + (J M⁻¹ Jᵀ δ)_i ≥ 0, δ_b free, solved by
// projected Gauss–Seidel keeping Δv up to date; the caller applies q ← q + q̇(q, Δv).
// A sweep ends the iteration when its updates are below 1e-3·tol or when no row it visited was
// violated by more than ½tol (a unilateral value ≥ −½tol, so with its target aimed ½tol inside,
// the linearized gap is ≥ 0; a bilateral |value| ≤ ½tol): a projection, not a minimum-norm one to
// round-off; the caller detects again and projects again while the violation exceeds tol.
// From the sixth sweep on, the sweeps are Anderson-accelerated (solvers/anderson_acceleration.hpp,
// memory kProjectionAndersonMemory; Δv is affine in δ and follows): in a packed pile the
// correction travels down a stack one contact per plain sweep, and 61 of the 827 projections of
// a 1000-sphere landing had stopped at the 200-sweep cap with the violation still above tol.
inline constexpr int kProjectionAndersonMemory = 10;  // memory m of the projection's acceleration
// How far a row of the projection is from met at Δv: |value| for a bilateral row, −value for a
// unilateral one (≤ 0 when met).
template <class Row>
double row_violation(const Row& r, const Vector& dv) {
  const double value = r.value(dv);
  return r.bilateral ? std::abs(value) : -value;
}

// Δv of the projection above over the rows (n velocity entries, violation tolerance tol).
template <class Row>
Vector projected_gauss_seidel(const std::vector<Row>& rows, Index n, double tolerance) {
  Vector dv = Vector::Zero(n);
  Vector delta = Vector::Zero(static_cast<Index>(rows.size()));
  AndersonAcceleration aa(kProjectionAndersonMemory);
  Vector before;
  for (int sweep = 0; sweep < 200; ++sweep) {
    const bool accelerate = sweep >= 5;
    if (accelerate) before = delta;
    double change = 0.0, violation = 0.0;
    for (size_t i = 0; i < rows.size(); ++i) {
      const Row& r = rows[i];
      const double value = r.value(dv);
      violation = std::max(violation, row_violation(r, dv));
      double nd = delta[static_cast<Index>(i)] - value / r.diag;
      if (!r.bilateral) nd = std::max(0.0, nd);
      const double step = nd - delta[static_cast<Index>(i)];
      if (step == 0.0) continue;
      delta[static_cast<Index>(i)] = nd;
      r.add(dv, step);
      change = std::max(change, std::abs(step) * r.diag);
    }
    if (change < 1e-3 * tolerance || violation <= 0.5 * tolerance) break;
    if (accelerate) aa.extrapolate(before, delta, dv);
  }
  return dv;
}

class MassSolver;  // model/velocity_level.hpp

// The contacts of one Moreau–Jean step, behind one interface: the dense W of any LagrangianSystem
// or the body blocks of a rigid world (see the comments of each member).
class StepContacts {
 public:
  virtual ~StepContacts() = default;

  // Constraints at (q, v, t), kept for build() and projection(); returns the largest violation
  // (max of −g over contacts and |h_b| over bilateral rows) and the penetration (max −g).
  virtual double detect(const Vector& q, const Vector& v, double t, double& penetration) = 0;
  // Registers the identity (a name in names()) of every detected contact.
  virtual void name_detected() = 0;
  // Δv of one projection at the detected constraints (projected_gauss_seidel above).
  virtual Vector projection(const Vector& q) = 0;

  // The step problem at the last detection, (q, v, t) with step h: index set, contact identity
  // against history(), warm start (current()[a].r, and warm() says whether any), bilateral rows.
  virtual const std::vector<StepContact>& build(const Vector& q, const Vector& v, double t,
                                                double h) = 0;
  // Solves it with w (d per contact, normal entry e·u_n⁻), compliance c (one per contact) and
  // the warm start guess (d per contact, or empty).
  virtual StepSolution solve(const Vector& w, const Vector& compliance, const Vector& guess) = 0;
  // Where active contact a is at the last detection (the same contact), else at the step's.
  virtual ContactPlace place_after(Index a) const = 0;
  // history ← current() followed by the ghosts (entries of history()), in the layer's order.
  virtual void advance(const std::vector<Index>& ghosts) = 0;
  // The factorization of the step's iteration matrix M̂ that build() formed (the dense layer's;
  // its free flight's at the midpoint when the step has no constraints), or nullptr.
  virtual const MassSolver* implicit_mass() const { return nullptr; }
  // What a run records at (q, v), when the last detection was at exactly (q, v) and its state
  // carries the record (ContactState::recorded), handed over: the record is moved out, not
  // copied, and a second call finds none until the next detection. Else nothing.
  virtual std::optional<RecordedState> take_detected_record(const Vector& /*q*/,
                                                            const Vector& /*v*/) {
    return std::nullopt;
  }
  // Whether detect() forms the record of its state where the system can (default on): a run
  // that keeps no states turns it off, and take_detected_record then finds none.
  virtual void form_records(bool /*on*/) {}

  // d, 2 or 3, known after detect().
  int dimension() const { return dimension_; }
  // Whether build() found a warm start (the last step's r) for any contact.
  bool warm() const { return warm_; }
  // One entry per contact of the step built last, in build()'s order (r, mode set by the stepper).
  std::vector<ContactHistory>& current() { return current_; }
  // What the previous step left: its contacts, then the ghosts kept by advance().
  std::vector<ContactHistory>& history() { return history_; }
  // Entry i of history() is continued by a contact of the step built last.
  bool continued(size_t i) const { return continued_[i]; }
  // The identity of every contact seen so far, by id (StepContact::id, ContactHistory::id).
  const std::vector<std::string>& names() const { return names_; }

 protected:
  int dimension_ = 3;  // dimension()
  bool warm_ = false;  // warm()
  // current()
  std::vector<ContactHistory> current_, history_;  // history()
  std::vector<bool> continued_;                    // continued(i), one per history() entry
  std::vector<std::string> names_;                 // names()
};

}  // namespace moreau
