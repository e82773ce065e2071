// The body-block contact layer of a Moreau–Jean step for a RigidWorld (model/step_contacts.hpp,
// docs/simulation.md §"Rigid worlds"): no dense matrix anywhere. M⁻¹ is kept per body (6×6, or
// 3×3 planar), the contact Jacobians as two fixed-size blocks per contact (world_contacts.hpp), and
// the step's frictional contact problem (problems/body_block_friction_contact.hpp) is solved by
// body-block NSGS in velocity form (solvers/fc/body_block_nsgs.hpp), warm-started from the contact
// each contact continues. When NSGS stops above the tolerance on a step without joints, the
// condensed problem is handed to the registry solver named in the settings, warm-started with the
// NSGS impulses and given a budget of work (solve_awake), and the better of the two is kept. With
// sleeping on (StepContactSettings::sleep, sleeping_islands.hpp), the contacts of sleeping islands
// are held: active, impulses kept, out of the problem. Contacts are detected once per step: the
// detection that ends a step (and checks the projection) is the one the next step uses.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numeric>
#include <tuple>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/problems/body_block_friction_contact.hpp"
#include "moreau/solvers/fc/body_block_nsgs.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"
#include "moreau/solvers/fc/solver_choice.hpp"
#include "sleeping_islands.hpp"

namespace moreau {
namespace {

// The world's bodies as blocks: dynamic index per body (−1 static), M_b⁻¹ per dynamic body.
struct BodyBlocks {
  Index m = 6;                              // velocities per body
  std::vector<Index> dynamic;               // per body of the world
  std::vector<BodyMassBlock> mass_inverse;  // per dynamic body
  std::vector<Matrix3> inertia_inverse;     // per body of the world, body axes (constant)

  explicit BodyBlocks(const RigidWorld& world) : m(world.body_velocity_size()) {
    for (Index i = 0; i < world.body_count(); ++i) {
      const Index o = world.velocity_offset(i);
      dynamic.push_back(o < 0 ? -1 : o / m);
      const RigidBody& body = world.body(i);
      inertia_inverse.push_back(o < 0 || m == 3 ? Matrix3::Zero()
                                                : Matrix3(body.inertia.inverse()));
    }
  }

  // M_b⁻¹ at q: planar diag(1/m, 1/m, 1/I_zz); spatial diag(I₃/m, R I⁻¹ Rᵀ) (rigid_world.hpp).
  void update(const RigidWorld& world, const Vector& q) {
    mass_inverse.assign(static_cast<size_t>(world.dynamic_body_count()), BodyMassBlock::Zero());
    for (Index i = 0; i < world.body_count(); ++i) {
      const Index b = dynamic[i];
      if (b < 0) continue;
      const RigidBody& body = world.body(i);
      BodyMassBlock& B = mass_inverse[b];
      if (m == 3) {
        B.topLeftCorner<3, 3>() =
            Vector3(1.0 / body.mass, 1.0 / body.mass, 1.0 / body.inertia(2, 2)).asDiagonal();
      } else {
        const Matrix3 R = world.body_pose(q, i).rotation();
        B.topLeftCorner<3, 3>() = Matrix3::Identity() / body.mass;
        const Matrix3 Iw = R * inertia_inverse[i] * R.transpose();
        B.bottomRightCorner<3, 3>() = 0.5 * (Iw + Iw.transpose());
      }
    }
  }

  // v_free = v − h M⁻¹ F, body by body.
  Vector free_velocity(const Vector& v, const Vector& F, double h) const {
    Vector out = v;
    for (Index b = 0; b < static_cast<Index>(mass_inverse.size()); ++b)
      out.segment(b * m, m) -= h * (mass_inverse[b].topLeftCorner(m, m) * F.segment(b * m, m));
    return out;
  }
};

// One unilateral or bilateral row of the projection: J v = J_a v_a + J_b v_b (1 × m each).
struct BodyRow {
  Index m = 6, a = -1, b = -1;
  BilateralBodyRow Ja, Jb, MJa, MJb;  // rows and M⁻¹ Jᵀ (as rows)
  double target = 0.0;                // g (aimed) or h_j
  double diag = 0.0;                  // J M⁻¹ Jᵀ
  bool bilateral = false;
  double value(const Vector& dv) const {
    double value = target;
    if (a >= 0) value += Ja.head(m).dot(dv.segment(a * m, m));
    if (b >= 0) value += Jb.head(m).dot(dv.segment(b * m, m));
    return value;
  }
  void add(Vector& dv, double step) const {
    if (a >= 0) dv.segment(a * m, m) += step * MJa.head(m).transpose();
    if (b >= 0) dv.segment(b * m, m) += step * MJb.head(m).transpose();
  }
};

constexpr int kPlainSweeps = 20;  // NSGS sweeps of a step before over-relaxation starts
// With the "auto" solver, body-block NSGS stops crawling from this sweep on
// (BodyBlockNsgsSettings:: stall_after) and the fallback takes over (solve_awake).
constexpr int kStallSweeps = 100;
// NSGS sweeps of a step after one that Newton finished ("auto", solve_awake).
constexpr int kNewtonLedSweeps = 20;
// The tolerance of a Newton fallback, relative to the step's (solve_awake).
constexpr double kNewtonFallbackTightening = 1e-2;
// The polish of a converged Newton fallback (polish_newton): its tolerance relative to the
// step's, its iterations, and the fallbacks it pauses for after one that did not get there.
constexpr double kNewtonPolishTightening = 1e-4;
constexpr int kNewtonPolishIterations = 2;
constexpr int kNewtonPolishPause = 32;

using ContactKey = std::tuple<Index, Index, Index, Index, int>;
ContactKey key_of(const Contact& c) {
  return {c.body_a, c.body_b, c.shape_a, c.shape_b, c.feature};
}
auto pair_of(const Contact& c) { return std::tie(c.body_a, c.body_b, c.shape_a, c.shape_b); }

// A contact's identity beyond its ContactHistory entry (sorted like the detection).
struct Identity {
  Contact contact;
  Vector3 local_a = Vector3::Zero();  // witness point on A in A's body frame, m
  Vector3 impulse = Vector3::Zero();  // r in world axes (frame · r), N·s
};

// Which contact of the last step continues contact c: the same two shapes, and a witness point
// on A (in A's body frame) within δ = max(¼ · spread of that pair's points, ½ · A's bounding
// radius) — the previous contact with the same feature number if there is one within δ, else the
// nearest. Each previous contact is taken once. Feature numbers alone are not enough: they can
// change between steps when a face–face contact swaps its reference face.
class ContactMatcher {
 public:
  ContactMatcher(const std::vector<Identity>& previous, std::vector<bool>& used)
      : prev_(previous), used_(used) {
    used_.assign(previous.size(), false);
  }

  Index match(const Contact& c, const Vector3& local_a, double size_a) {
    while (lo_ < prev_.size() && pair_of(prev_[lo_].contact) < pair_of(c)) ++lo_;
    size_t hi = lo_;
    while (hi < prev_.size() && pair_of(prev_[hi].contact) == pair_of(c)) ++hi;
    if (lo_ != spread_lo_ || hi != spread_hi_) {  // the pair's spread, once per pair
      spread_lo_ = lo_, spread_hi_ = hi, spread_ = 0.0;
      for (size_t i = lo_; i < hi; ++i)
        for (size_t k = lo_; k < i; ++k)
          spread_ = std::max(spread_, (prev_[k].local_a - prev_[i].local_a).norm());
    }
    Index nearest = -1, same = -1;
    double nearest_d = INFINITY, same_d = INFINITY;
    for (size_t i = lo_; i < hi; ++i) {
      if (used_[i]) continue;
      const double d = (prev_[i].local_a - local_a).norm();
      if (d < nearest_d) nearest_d = d, nearest = static_cast<Index>(i);
      if (prev_[i].contact.feature == c.feature && d < same_d)
        same_d = d, same = static_cast<Index>(i);
    }
    const double delta = std::max(0.25 * spread_, 0.5 * size_a);
    const Index best =
        (same >= 0 && same_d <= delta) ? same : (nearest >= 0 && nearest_d <= delta ? nearest : -1);
    if (best >= 0) used_[best] = true;
    return best;
  }

 private:
  const std::vector<Identity>& prev_;
  std::vector<bool>& used_;
  size_t lo_ = 0;
  size_t spread_lo_ = SIZE_MAX, spread_hi_ = SIZE_MAX;  // pair range of the cached spread
  double spread_ = 0.0;                                 // largest distance between its points
};

class BodyBlockStepContacts final : public StepContacts {
 public:
  BodyBlockStepContacts(const RigidWorldSystem& system, const StepContactSettings& settings,
                        const ContactSolverSettings& solver)
      : system_(system),
        world_(system.world()),
        cs_(system.settings()),
        st_(settings),
        solver_(solver.name),
        blocks_(world_),
        sleep_(world_, blocks_.dynamic, settings) {
    cs_.with_names = false;
    dimension_ = world_.dimension();
    fcs_.tolerance = solver.tolerance;
    fcs_.max_iterations = solver.max_iterations;
    ns_.tolerance = solver.tolerance;
    ns_.max_iterations = solver.max_iterations;
    ns_.relaxation = st_.nsgs_relaxation;
    ns_.relaxation_after = kPlainSweeps;
    ns_.anderson_memory = st_.nsgs_anderson_memory;
    ns_.coarse_correction = st_.nsgs_coarse_correction;
    ns_.threads = cs_.threads = std::max(1, st_.threads);
    if (solver_ == "auto") ns_.stall_after = kStallSweeps;
  }

  // Violation: penetration at the detected contacts and |residual| of the joints.
  double detect(const Vector& q, const Vector& /*v*/, double /*t*/, double& penetration) override {
    detector_.detect(world_, q, cs_, contacts_);
    system_.drop_ignored_overlaps(contacts_, true);
    penetration = 0.0;
    for (const Contact& c : contacts_) penetration = std::max(penetration, -c.gap);
    double worst = penetration;
    if (!world_.joints().empty()) {
      const Vector v0 = Vector::Zero(world_.velocity_size());
      for (Index j = 0; j < static_cast<Index>(world_.joints().size()); ++j)
        worst = std::max(worst, world_.joint_rows(q, v0, j).residual.cwiseAbs().maxCoeff());
    }
    return worst;
  }

  void name_detected() override {
    for (const Contact& c : contacts_) id_of(c);
  }

  Vector projection(const Vector& q) override;
  const std::vector<StepContact>& build(const Vector& q, const Vector& v, double t,
                                        double h) override;
  StepSolution solve(const Vector& w, const Vector& compliance, const Vector& guess) override;

  // The same contact (key) in the last detection, else the contact of the step.
  ContactPlace place_after(Index a) const override {
    const Contact& c = current_ids_[a].contact;
    // the first contact of the new detection (sorted by key) with c's key: at index a when the
    // contact set did not change (a resting stack), checked there before the binary search
    const Index n = static_cast<Index>(contacts_.size());
    const bool in_place = a < n && contact_key_equal(contacts_[a], c) &&
                          (a == 0 || contact_key_less(contacts_[a - 1], c));
    const auto it = in_place
                        ? contacts_.begin() + a
                        : std::lower_bound(contacts_.begin(), contacts_.end(), c, contact_key_less);
    const Contact& at = it != contacts_.end() && contact_key_equal(*it, c) ? *it : c;
    ContactPlace place{.gap = at.gap};
    if (at.joint < 0) {  // a joint limit has no shapes: no point, normal or bodies
      place.point = at.point();
      place.normal = at.frame.col(0);
      place.body_a = at.body_a, place.body_b = at.body_b;
    }
    return place;
  }

  // history ← current + ghosts; with ghosts, stably sorted by shape pair for the matcher.
  void advance(const std::vector<Index>& ghosts) override {
    for (size_t a = 0; a < current_.size(); ++a)
      current_ids_[a].impulse = current_ids_[a].contact.frame * current_[a].r;
    for (const Index g : ghosts) {
      current_.push_back(history_[g]);
      current_ids_.push_back(history_ids_[g]);
    }
    if (!ghosts.empty()) {
      std::vector<size_t> order(current_.size());
      std::iota(order.begin(), order.end(), size_t{0});
      std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
        return pair_of(current_ids_[x].contact) < pair_of(current_ids_[y].contact);
      });
      history_.clear(), history_ids_.clear();
      for (const size_t i : order)
        history_.push_back(current_[i]), history_ids_.push_back(current_ids_[i]);
    } else {
      history_ = std::move(current_);
      history_ids_ = std::move(current_ids_);
    }
    current_.clear(), current_ids_.clear();
  }

 private:
  Index id_of(const Contact& c) {
    const auto [it, added] = ids_.try_emplace(key_of(c), static_cast<Index>(names_.size()));
    if (added) names_.push_back(contact_name(world_, c));
    return it->second;
  }
  void build_joint_rows(const Vector& q, const Vector& v, double h);
  StepSolution solve_awake(const Vector& w, const Vector& compliance, const Vector& guess);
  void polish_newton(const FrictionContactProblem& condensed,
                     const FrictionContactSettings& fallback, FrictionContactResult& alt);
  std::vector<std::pair<Index, Index>> problem_pairs() const;

  const RigidWorldSystem& system_;  // its inputs (set_inputs) join the world's forces
  const RigidWorld& world_;
  CollisionSettings cs_;
  StepContactSettings st_;
  std::string solver_;       // registry name of the fallback ("auto": chosen per step, solve_awake)
  bool newton_led_ = false;  // "auto": the last fallback was Newton and converged (solve_awake)
  BodyBlocks blocks_;
  detail::SleepingIslands sleep_;
  std::vector<Index> slot_;  // per active contact: its index in prob_, −1 when held asleep
  double h_ = 0.0;           // the step's length, s
  FrictionContactSettings fcs_;
  BodyBlockNsgsSettings ns_;
  std::map<ContactKey, Index> ids_;                  // contact identity → index into names()
  std::vector<Contact> contacts_;                    // the last detection
  ContactDetector detector_;                         // its working memory
  std::vector<Identity> current_ids_, history_ids_;  // alongside current_ and history_
  std::vector<StepContact> active_;
  BodyBlockFrictionContactProblem prob_;
  Vector p_previous_;     // joint impulses of the last step
  int polish_pause_ = 0;  // Newton fallbacks left without a polish (polish_newton)
};

// One projection (model/step_contacts.hpp) on body blocks: rows J_n of every detected contact
// (target g − ½tol) and g_j of the joint rows with |h_j| > tol (target h_j). A contact that is
// still open (0 < g ≤ the detection margin) takes no correction unless the others' would close
// it: with only the contacts within the activation margin as rows, a projection pushed spheres
// into neighbours a fraction of a millimetre away, and a 1000-sphere landing kept 0.12 mm of
// penetration after its four projections (1.6e-9 m with every detected contact).
Vector BodyBlockStepContacts::projection(const Vector& q) {
  blocks_.update(world_, q);
  const Index m = blocks_.m;
  std::vector<BodyRow> rows;
  auto finish = [&](BodyRow& r) {
    r.m = m;
    if (r.a >= 0) {
      r.MJa.head(m) =
          (blocks_.mass_inverse[r.a].topLeftCorner(m, m) * r.Ja.head(m).transpose()).transpose();
      r.diag += r.Ja.head(m).dot(r.MJa.head(m));
    }
    if (r.b >= 0) {
      r.MJb.head(m) =
          (blocks_.mass_inverse[r.b].topLeftCorner(m, m) * r.Jb.head(m).transpose()).transpose();
      r.diag += r.Jb.head(m).dot(r.MJb.head(m));
    }
    if (r.diag > 1e-300) rows.push_back(r);
  };
  for (const Contact& c : contacts_) {
    ContactBodyRows Ja, Jb;
    contact_jacobian_blocks(world_, q, c, Ja, Jb);
    BodyRow r;
    r.a = blocks_.dynamic[c.body_a], r.b = blocks_.dynamic[c.body_b];
    r.Ja = Ja.row(0), r.Jb = Jb.row(0);
    r.target = c.gap - 0.5 * st_.projection_tolerance;  // aim slightly inside the admissible side
    finish(r);
  }
  const Vector v0 = Vector::Zero(world_.velocity_size());
  for (Index j = 0; j < static_cast<Index>(world_.joints().size()); ++j) {
    const BodyPairRows jr = world_.joint_rows(q, v0, j);
    for (Index k = 0; k < jr.rows(); ++k) {
      if (std::abs(jr.residual[k]) <= st_.projection_tolerance) continue;
      BodyRow r;
      r.bilateral = true;
      r.a = jr.offset_a < 0 ? -1 : jr.offset_a / m;
      r.b = jr.offset_b < 0 ? -1 : jr.offset_b / m;
      r.Ja.setZero(), r.Jb.setZero();
      if (r.a >= 0) r.Ja.head(m) = jr.block_a.row(k);
      if (r.b >= 0) r.Jb.head(m) = jr.block_b.row(k);
      r.target = jr.residual[k];
      finish(r);
    }
  }
  return projected_gauss_seidel(rows, world_.velocity_size(), st_.projection_tolerance);
}

// v_free body by body; index set I_k = {g + ½h u_n ≤ margin}; warm start from the matched contact
// of the last step (its world impulse expressed in the new frame); joint rows.
const std::vector<StepContact>& BodyBlockStepContacts::build(const Vector& q, const Vector& v,
                                                             double t, double h) {
  const int d = dimension_;
  const Index m = blocks_.m;
  blocks_.update(world_, q);
  prob_ = BodyBlockFrictionContactProblem{};
  prob_.dimension = d;
  prob_.v_free =
      blocks_.free_velocity(v, Vector(world_.forces(q, v, t) - system_.input_forces(q)), h);
  prob_.mass_inverse = std::move(blocks_.mass_inverse);  // blocks_.update() refills it when needed
  active_.clear(), current_.clear(), current_ids_.clear(), slot_.clear();
  warm_ = false;
  h_ = h;
  if (sleep_.enabled()) {  // a detected contact with an awake body wakes a sleeping island
    std::vector<std::pair<Index, Index>> pairs;
    for (const Contact& c : contacts_)
      pairs.emplace_back(blocks_.dynamic[c.body_a], blocks_.dynamic[c.body_b]);
    sleep_.wake(pairs);
    sleep_.hold(prob_.v_free);
  }
  ContactMatcher matcher(history_ids_, continued_);
  for (const Contact& c : contacts_) {
    BodyBlockContact bc;
    bc.body_a = blocks_.dynamic[c.body_a], bc.body_b = blocks_.dynamic[c.body_b];
    // both sides asleep or fixed: held at rest (u_n = 0), kept out of the problem
    const bool held = sleep_.enabled() && (sleep_.asleep(bc.body_a) || sleep_.asleep(bc.body_b));
    double un = 0.0;
    if (!held) {
      contact_jacobian_blocks(world_, q, c, bc.J_a, bc.J_b);
      if (bc.body_a >= 0) un += bc.J_a.row(0).head(m).dot(v.segment(bc.body_a * m, m));
      if (bc.body_b >= 0) un += bc.J_b.row(0).head(m).dot(v.segment(bc.body_b * m, m));
    }
    if (c.gap + st_.activation_factor * h * un > st_.activation_margin) continue;
    Identity ident;
    ident.contact = c;
    const Pose pa = world_.body_pose(q, c.body_a);
    ident.local_a = pa.orientation.conjugate() * (c.point_a - pa.position);
    const double size =
        c.joint >= 0 ? 1.0 : world_.body(c.body_a).shapes[c.shape_a].bounding_radius();
    const Index mi = matcher.match(c, ident.local_a, size);
    ContactHistory cur;
    if (mi >= 0) {
      cur.id = history_[mi].id;
      cur.r = c.frame.transpose() * history_ids_[mi].impulse;
      if (d == 2) cur.r[2] = 0.0;
      warm_ = true;
    } else {
      cur.id = id_of(c);
    }
    const ContactMaterial& mat = c.material;
    active_.push_back({cur.id, mi, un, mat.mu, mat.restitution, mat.gamma});
    slot_.push_back(held ? -1 : prob_.contact_count());
    if (!held) prob_.contacts.push_back(bc);
    current_.push_back(cur);
    current_ids_.push_back(std::move(ident));
  }
  prob_.mu.resize(prob_.contact_count());
  for (size_t a = 0; a < active_.size(); ++a)
    if (slot_[a] >= 0) prob_.mu[slot_[a]] = active_[a].mu;
  build_joint_rows(q, v, h);
  return active_;
}

// Joints: every row bilateral, u_j = g_j v + κ h_j / h.
void BodyBlockStepContacts::build_joint_rows(const Vector& q, const Vector& v, double h) {
  const Index m = blocks_.m;
  prob_.w_bilateral.resize(world_.joint_row_count());
  for (Index j = 0, row = 0; j < static_cast<Index>(world_.joints().size()); ++j) {
    const BodyPairRows jr = world_.joint_rows(q, v, j);
    for (Index r = 0; r < jr.rows(); ++r, ++row) {
      BodyBlockBilateral g;
      g.body_a = jr.offset_a < 0 ? -1 : jr.offset_a / m;
      g.body_b = jr.offset_b < 0 ? -1 : jr.offset_b / m;
      if (g.body_a >= 0) g.g_a.head(m) = jr.block_a.row(r);
      if (g.body_b >= 0) g.g_b.head(m) = jr.block_b.row(r);
      prob_.bilateral.push_back(g);
      prob_.w_bilateral[row] = st_.bilateral_feedback * jr.residual[r] / h;
    }
  }
}

// The step's solution over every active contact: the awake ones solved (solve_awake), the held
// ones (both sides asleep or fixed) keep their warm-start impulse with u = w + c r_n e_n (v = 0);
// then the sleeping islands are updated from v⁺.
StepSolution BodyBlockStepContacts::solve(const Vector& w, const Vector& compliance,
                                          const Vector& guess) {
  const int d = dimension_;
  const Index n_all = static_cast<Index>(slot_.size()), n_awake = prob_.contact_count();
  if (n_awake == n_all) {
    StepSolution sol = solve_awake(w, compliance, guess);
    if (sleep_.enabled()) sleep_.update(sol.v, problem_pairs(), h_);
    return sol;
  }
  Vector wa(d * n_awake), ca(n_awake), ga(guess.size() ? d * n_awake : 0);
  for (Index a = 0; a < n_all; ++a) {
    const Index s = slot_[a];
    if (s < 0) continue;
    wa.segment(d * s, d) = w.segment(d * a, d);
    ca[s] = compliance[a];
    if (ga.size()) ga.segment(d * s, d) = guess.segment(d * a, d);
  }
  StepSolution sol = solve_awake(wa, ca, ga);
  Vector r(d * n_all), u(d * n_all);
  for (Index a = 0; a < n_all; ++a) {
    const Index s = slot_[a];
    if (s >= 0) {
      r.segment(d * a, d) = sol.r.segment(d * s, d);
      u.segment(d * a, d) = sol.u.segment(d * s, d);
    } else {
      r.segment(d * a, d) = guess.size() ? Vector(guess.segment(d * a, d)) : Vector::Zero(d);
      u.segment(d * a, d) = w.segment(d * a, d);
      u[d * a] += compliance[a] * r[d * a];
    }
  }
  sol.r = std::move(r), sol.u = std::move(u);
  sleep_.update(sol.v, problem_pairs(), h_);
  return sol;
}

// A converged Newton fallback, polished: at most kNewtonPolishIterations more iterations from its
// solution towards kNewtonPolishTightening of the step's tolerance, kept when they get there.
// Where they do (Newton's quadratic convergence), the next steps' warm-started NSGS stays within
// the tolerance for longer: a column of 40 cubes went to Newton on 1,786 of 5,000 steps, and on 1
// with the polish (1,848 → 5,266 steps/s). Where they do not (80 cubes: the proximal term slows
// the last digits), the polish pauses for kNewtonPolishPause fallbacks, so that it costs little.
void BodyBlockStepContacts::polish_newton(const FrictionContactProblem& condensed,
                                          const FrictionContactSettings& fallback,
                                          FrictionContactResult& alt) {
  if (polish_pause_ > 0) {
    --polish_pause_;
    return;
  }
  FrictionContactSettings polish = fallback;
  polish.tolerance = kNewtonPolishTightening * fcs_.tolerance;
  polish.max_iterations = kNewtonPolishIterations;
  FrictionContactResult tight = solve_friction_contact(condensed, "newton", polish, alt.r);
  tight.iterations += alt.iterations;
  if (tight.converged()) {
    alt = std::move(tight);
    return;
  }
  alt.iterations = tight.iterations;  // the work spent counts
  polish_pause_ = kNewtonPolishPause;
}

// The (dynamic) body pairs of the problem's contacts and joint rows.
std::vector<std::pair<Index, Index>> BodyBlockStepContacts::problem_pairs() const {
  std::vector<std::pair<Index, Index>> pairs;
  for (const BodyBlockContact& c : prob_.contacts) pairs.emplace_back(c.body_a, c.body_b);
  for (const BodyBlockBilateral& g : prob_.bilateral) pairs.emplace_back(g.body_a, g.body_b);
  return pairs;
}

// Body-block NSGS; when it stops above the tolerance (no joints), the registry solver on the
// condensed problem from its iterate, and the better of the two is kept.
StepSolution BodyBlockStepContacts::solve_awake(const Vector& w, const Vector& compliance,
                                                const Vector& guess) {
  const Index nc = prob_.contact_count();
  prob_.w = w;
  if (nc > 0 && compliance.maxCoeff() > 0.0) prob_.compliance = compliance;  // ġ + γλ with λ = r/h
  const Index nj_rows = world_.joint_row_count();
  // After a step that Newton finished, NSGS gets a few sweeps only (a warm start it keeps within
  // the tolerance converges in 1–3), and Newton the rest: a tall stack's NSGS would crawl.
  BodyBlockNsgsSettings ns = ns_;
  if (newton_led_) ns.max_iterations = std::min(ns.max_iterations, kNewtonLedSweeps);
  BodyBlockSolution sol = solve_body_block_nsgs(
      prob_, guess, p_previous_.size() == nj_rows ? p_previous_ : Vector(), ns);
  if (sol.converged() || nc == 0 || !prob_.bilateral.empty()) {
    p_previous_ = sol.p;
    return std::move(static_cast<StepSolution&>(sol));
  }
  // "auto" chooses the fallback by the condensed problem's features (solver_choice.hpp): a tall
  // stack's strongly coupled, sparse W gets semismooth Newton, whose iteration count does not
  // grow with the height (issue 35); a pile's weakly coupled one hybrid, as before.
  const FrictionContactProblem condensed = prob_.condensed();
  const std::string name = solver_ == "auto" ? choose_friction_contact_solver(condensed) : solver_;
  if (name != "newton" && sol.iterations < ns_.max_iterations &&
      sol.status == Status::max_iterations) {
    // NSGS was cut short (its crawl test, or the few sweeps after a Newton step) on a problem
    // that is not a stack's: it goes on from its iterate with the rest of its budget, as it did
    // before the crawl test (a packing pile converges late, not never)
    BodyBlockNsgsSettings rest = ns_;
    rest.stall_after = 0;
    rest.max_iterations = ns_.max_iterations - static_cast<int>(sol.iterations);
    BodyBlockSolution more = solve_body_block_nsgs(prob_, sol.r, sol.p, rest);
    more.iterations += sol.iterations;
    sol = std::move(more);
    newton_led_ = false;
  }
  if (!sol.converged()) {
    // The fallback after a non-converged body-block NSGS: the registry solver, with a budget of
    // work, not wall time (a step's result never depends on the machine's load): one iteration
    // per 10 NSGS sweeps, and at least kFallbackContactUpdates / n_c iterations, so that a small
    // problem (a box stack) gets the registry's whole budget while a large dynamic pile, where the
    // fallback rarely does better, is not dominated by it. A crawl cut short counts as the whole
    // budget spent.
    constexpr Index kFallbackContactUpdates = 20000;
    FrictionContactSettings fallback = fcs_;
    const Index spent = name == "newton" && solver_ == "auto" ? ns_.max_iterations : sol.iterations;
    const Index by_work = std::max<Index>(spent / 10, kFallbackContactUpdates / nc);
    fallback.max_iterations =
        static_cast<int>(std::max<Index>(1, std::min<Index>(fcs_.max_iterations, by_work)));
    // Newton converges quadratically near the solution: two more digits cost about one
    // iteration and keep the next steps' warm start inside the tolerance for longer
    if (name == "newton") {
      fallback.tolerance = kNewtonFallbackTightening * fcs_.tolerance;
      fallback.newton_proximal = kRedundantContactsProximal;  // without it Newton stalled
    }
    FrictionContactResult alt = solve_friction_contact(condensed, name, fallback, sol.r);
    if (name == "newton" && alt.converged()) polish_newton(condensed, fallback, alt);
    newton_led_ = solver_ == "auto" && name == "newton" && alt.converged();
    if (alt.residual < sol.residual) {
      BodyBlockSolution e = evaluate_body_block(prob_, alt.r, Vector(), fcs_.tolerance);
      e.solver = "body_block_nsgs+" + alt.solver;
      e.status = alt.status;
      e.iterations = sol.iterations + alt.iterations;
      sol = std::move(e);
    }
  }
  p_previous_ = sol.p;
  return std::move(static_cast<StepSolution&>(sol));
}

}  // namespace

std::unique_ptr<StepContacts> RigidWorldSystem::step_contacts(
    const StepContactSettings& settings, const ContactSolverSettings& solver) const {
  if (!settings.body_blocks || world_->has_bilateral_pairs() || articulated())
    return LagrangianSystem::step_contacts(settings, solver);
  return std::make_unique<BodyBlockStepContacts>(*this, settings, solver);
}

std::vector<ImpactLaw> RigidWorldSystem::contact_laws() const {
  std::vector<ImpactLaw> laws;
  for (const ContactMaterial& mat : world_->materials()) laws.push_back(mat.law);
  return laws;
}

}  // namespace moreau
