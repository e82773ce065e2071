#include "moreau/sim/rigid_time_stepping.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "moreau/problems/body_block_friction_contact.hpp"
#include "moreau/solvers/fc/body_block_nsgs.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"
#include "sim_internal.hpp"

namespace moreau {
namespace {

// The world's bodies as blocks: dynamic index per body (−1 static), M_b⁻¹ per dynamic body.
struct BodyBlocks {
  Index m = 6;                             // velocities per body
  std::vector<Index> dynamic;              // per body of the world
  std::vector<BodyMassBlock> mass_inverse; // per dynamic body
  std::vector<Matrix3> inertia_inverse;    // per body of the world, body axes (constant)

  explicit BodyBlocks(const RigidWorld& world) : m(world.body_velocity_size()) {
    for (Index i = 0; i < world.body_count(); ++i) {
      const Index o = world.velocity_offset(i);
      dynamic.push_back(o < 0 ? -1 : o / m);
      const RigidBody& body = world.body(i);
      inertia_inverse.push_back(o < 0 || m == 3 ? Matrix3::Zero() : Matrix3(body.inertia.inverse()));
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
        B.topLeftCorner<3, 3>() = Vector3(1.0 / body.mass, 1.0 / body.mass, 1.0 / body.inertia(2, 2)).asDiagonal();
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
struct ProjectionRow {
  Index a = -1, b = -1;
  BilateralBodyRow Ja, Jb, MJa, MJb;  // rows and M⁻¹ Jᵀ (as rows)
  double target = 0.0;                // g (aimed), the row must reach g + J Δv ≥ 0 (= 0 bilateral)
  double diag = 0.0;                  // J M⁻¹ Jᵀ
  bool bilateral = false;
};

// Post-stabilization (Acary & Brogliato 2008 §10.4.2), as in time_stepping.cpp but on body blocks:
//   min ½ ΔvᵀMΔv  s.t.  g_i + J_n,i Δv ≥ 0 (contacts with g_i < margin),  h_j + g_j Δv = 0 (|h_j| > tol),
// by projected Gauss–Seidel on δ (Δv = M⁻¹ Jᵀ δ, δ_i ≥ 0 on contacts); then q ← q + q̇(q, Δv).
void project_once(const RigidWorld& world, BodyBlocks& blocks, const std::vector<Contact>& contacts, Vector& q,
                  const SimulationSettings& st) {
  blocks.update(world, q);
  const Index m = blocks.m;
  std::vector<ProjectionRow> rows;
  auto finish = [&](ProjectionRow& r) {
    if (r.a >= 0) {
      r.MJa.head(m) = (blocks.mass_inverse[r.a].topLeftCorner(m, m) * r.Ja.head(m).transpose()).transpose();
      r.diag += r.Ja.head(m).dot(r.MJa.head(m));
    }
    if (r.b >= 0) {
      r.MJb.head(m) = (blocks.mass_inverse[r.b].topLeftCorner(m, m) * r.Jb.head(m).transpose()).transpose();
      r.diag += r.Jb.head(m).dot(r.MJb.head(m));
    }
    if (r.diag > 1e-300) rows.push_back(r);
  };
  for (const Contact& c : contacts) {
    if (c.gap >= st.activation_margin) continue;
    ContactBodyRows Ja, Jb;
    contact_jacobian_blocks(world, q, c, Ja, Jb);
    ProjectionRow r;
    r.a = blocks.dynamic[c.body_a], r.b = blocks.dynamic[c.body_b];
    r.Ja = Ja.row(0), r.Jb = Jb.row(0);
    r.target = c.gap - 0.5 * st.projection_tolerance;  // aim slightly inside the admissible side
    finish(r);
  }
  const Vector v0 = Vector::Zero(world.velocity_size());
  for (Index j = 0; j < static_cast<Index>(world.joints().size()); ++j) {
    const BodyPairRows jr = world.joint_rows(q, v0, j);
    for (Index k = 0; k < jr.rows(); ++k) {
      if (std::abs(jr.residual[k]) <= st.projection_tolerance) continue;
      ProjectionRow r;
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
  Vector dv = Vector::Zero(world.velocity_size());
  std::vector<double> delta(rows.size(), 0.0);
  for (int sweep = 0; sweep < 200; ++sweep) {
    double change = 0.0;
    for (size_t i = 0; i < rows.size(); ++i) {
      const ProjectionRow& r = rows[i];
      double value = r.target;
      if (r.a >= 0) value += r.Ja.head(m).dot(dv.segment(r.a * m, m));
      if (r.b >= 0) value += r.Jb.head(m).dot(dv.segment(r.b * m, m));
      double nd = delta[i] - value / r.diag;
      if (!r.bilateral) nd = std::max(0.0, nd);
      const double step = nd - delta[i];
      if (step == 0.0) continue;
      delta[i] = nd;
      if (r.a >= 0) dv.segment(r.a * m, m) += step * r.MJa.head(m).transpose();
      if (r.b >= 0) dv.segment(r.b * m, m) += step * r.MJb.head(m).transpose();
      change = std::max(change, std::abs(step) * r.diag);
    }
    if (change < 1e-3 * st.projection_tolerance) break;
  }
  q += world.position_rate(q, dv);
  world.normalize_position(q);
}

// Largest violation at the detected contacts (penetration) and joints (|residual|).
double violation(const RigidWorld& world, const Vector& q, const std::vector<Contact>& contacts, double* penetration) {
  double pen = 0.0;
  for (const Contact& c : contacts) pen = std::max(pen, -c.gap);
  double worst = pen;
  if (!world.joints().empty()) {
    const Vector v0 = Vector::Zero(world.velocity_size());
    for (Index j = 0; j < static_cast<Index>(world.joints().size()); ++j)
      worst = std::max(worst, world.joint_rows(q, v0, j).residual.cwiseAbs().maxCoeff());
  }
  if (penetration) *penetration = pen;
  return worst;
}

// Contacts at q after at most four projections; returns the penetration left.
double detect_and_project(const RigidWorld& world, const CollisionSettings& cs, BodyBlocks& blocks, Vector& q,
                          const SimulationSettings& st, std::vector<Contact>& contacts) {
  double pen = 0.0;
  for (int outer = 0;; ++outer) {
    contacts = detect_contacts(world, q, cs);
    const double worst = violation(world, q, contacts, &pen);
    if (!st.projection || worst <= st.projection_tolerance || outer == 4) return pen;
    project_once(world, blocks, contacts, q, st);
  }
}

constexpr int kPlainSweeps = 20;  // NSGS sweeps of a step before over-relaxation starts

using ContactKey = std::tuple<Index, Index, Index, Index, int>;
ContactKey key_of(const Contact& c) { return {c.body_a, c.body_b, c.shape_a, c.shape_b, c.feature}; }
auto pair_of(const Contact& c) { return std::tie(c.body_a, c.body_b, c.shape_a, c.shape_b); }

// What a step leaves for the next one, per active contact (sorted like the detection).
struct ActiveContact {
  Contact contact;
  Index id = -1;                     // index into SimulationResult::contact_names
  Vector3 local_a = Vector3::Zero(); // witness point on A in A's body frame, m
  Vector3 impulse = Vector3::Zero(); // r in world axes (frame · r), N·s
  Vector3 r = Vector3::Zero();       // r in the contact frame, normal first
  std::string mode;                  // open, stick, slip
  int steps_out = 0;                 // > 0: left the index set that many steps ago (debounce)
  double left_t = 0.0;               // s, when it left
};

// Which contact of the last step continues contact c: the same two shapes, and a witness point
// on A (in A's body frame) within δ = max(¼ · spread of that pair's points, ½ · A's bounding
// radius) — the previous contact with the same feature number if there is one within δ, else the
// nearest. Each previous contact is taken once. Feature numbers alone are not enough: they can
// change between steps when a face–face contact swaps its reference face.
class ContactMatcher {
 public:
  explicit ContactMatcher(const std::vector<ActiveContact>& previous)
      : prev_(previous), used_(previous.size(), false) {}

  Index match(const Contact& c, const Vector3& local_a, double size_a) {
    while (lo_ < prev_.size() && pair_of(prev_[lo_].contact) < pair_of(c)) ++lo_;
    size_t hi = lo_;
    while (hi < prev_.size() && pair_of(prev_[hi].contact) == pair_of(c)) ++hi;
    if (lo_ != spread_lo_ || hi != spread_hi_) {  // the pair's spread, once per pair
      spread_lo_ = lo_, spread_hi_ = hi, spread_ = 0.0;
      for (size_t i = lo_; i < hi; ++i)
        for (size_t k = lo_; k < i; ++k) spread_ = std::max(spread_, (prev_[k].local_a - prev_[i].local_a).norm());
    }
    Index nearest = -1, same = -1;
    double nearest_d = INFINITY, same_d = INFINITY;
    for (size_t i = lo_; i < hi; ++i) {
      if (used_[i]) continue;
      const double d = (prev_[i].local_a - local_a).norm();
      if (d < nearest_d) nearest_d = d, nearest = static_cast<Index>(i);
      if (prev_[i].contact.feature == c.feature && d < same_d) same_d = d, same = static_cast<Index>(i);
    }
    const double delta = std::max(0.25 * spread_, 0.5 * size_a);
    const Index best = (same >= 0 && same_d <= delta) ? same : (nearest >= 0 && nearest_d <= delta ? nearest : -1);
    if (best >= 0) used_[best] = true;
    return best;
  }
  bool used(size_t i) const { return used_[i]; }

 private:
  const std::vector<ActiveContact>& prev_;
  std::vector<bool> used_;
  size_t lo_ = 0;
  size_t spread_lo_ = SIZE_MAX, spread_hi_ = SIZE_MAX;  // pair range of the cached spread
  double spread_ = 0.0;                                 // largest distance between its points
};

}  // namespace

SimulationResult simulate_rigid_time_stepping(const RigidWorldSystem& sys, const SimulationSettings& st,
                                              const Vector& q0, const Vector& v0, const ProgressCallback& progress) {
  const RigidWorld& world = sys.world();
  CollisionSettings cs = sys.settings();
  cs.with_names = false;
  const int d = world.dimension();
  const Index m = world.body_velocity_size();
  SimulationResult res;
  res.system = sys.name();
  res.integrator = "timestepping";
  res.dimension = d;
  res.position_names = sys.position_names();
  res.velocity_names = sys.velocity_names();
  res.force_quantity = "impulse";

  std::map<ContactKey, Index> ids;  // contact identity → index into contact_names
  auto id_of = [&](const Contact& c) {
    const auto [it, added] = ids.emplace(key_of(c), static_cast<Index>(res.contact_names.size()));
    if (added) res.contact_names.push_back(contact_name(world, c));
    return it->second;
  };

  Vector q = q0, v = v0;
  double t = 0.0;
  BodyBlocks blocks(world);
  std::vector<Contact> contacts;
  res.max_penetration = detect_and_project(world, cs, blocks, q, st, contacts);
  for (const Contact& c : contacts) id_of(c);

  FrictionContactSettings fcs;
  fcs.tolerance = st.solver_tolerance;
  fcs.max_iterations = st.solver_max_iterations;
  BodyBlockNsgsSettings ns;
  ns.tolerance = st.solver_tolerance;
  ns.max_iterations = st.solver_max_iterations;
  ns.relaxation = st.nsgs_relaxation;
  ns.relaxation_after = kPlainSweeps;

  std::vector<ActiveContact> previous;  // active contacts of the last step, sorted like the detection
  Vector p_previous;                    // joint impulses of the last step
  double emin = 0.0;
  detail::record_state(res, sys, t, q, v, emin);
  double next_record = st.record_interval;
  const long nsteps = static_cast<long>(std::ceil(st.t_end / st.dt - 1e-9));
  int last_percent = -1;
  const Index nj_rows = world.joint_row_count();

  for (long k = 0; k < nsteps; ++k) {
    const double hk = std::min(st.dt, st.t_end - t);
    blocks.update(world, q);
    BodyBlockFrictionContactProblem prob;
    prob.dimension = d;
    prob.v_free = blocks.free_velocity(v, world.forces(q, v, t), hk);
    prob.mass_inverse = std::move(blocks.mass_inverse);  // blocks.update() refills it when needed

    // index set I_k = {g + ½h u_n ≤ margin}, Newton restitution, warm start from the matched
    // contact of the last step (its world impulse expressed in the new frame)
    std::vector<ActiveContact> current;
    std::vector<Index> matched;  // index into previous, or −1
    std::vector<double> un_minus;
    ContactMatcher matcher(previous);
    bool any_warm = false;
    for (const Contact& c : contacts) {
      BodyBlockContact bc;
      contact_jacobian_blocks(world, q, c, bc.J_a, bc.J_b);
      bc.body_a = blocks.dynamic[c.body_a], bc.body_b = blocks.dynamic[c.body_b];
      double un = 0.0;
      if (bc.body_a >= 0) un += bc.J_a.row(0).head(m).dot(v.segment(bc.body_a * m, m));
      if (bc.body_b >= 0) un += bc.J_b.row(0).head(m).dot(v.segment(bc.body_b * m, m));
      if (c.gap + 0.5 * hk * un > st.activation_margin) continue;
      ActiveContact cur;
      cur.contact = c;
      const Pose pa = world.body_pose(q, c.body_a);
      cur.local_a = pa.orientation.conjugate() * (c.point_a - pa.position);
      const Index mi = matcher.match(c, cur.local_a, world.body(c.body_a).shapes[c.shape_a].bounding_radius());
      if (mi >= 0) {
        cur.id = previous[mi].id;
        cur.r = c.frame.transpose() * previous[mi].impulse;
        if (d == 2) cur.r[2] = 0.0;
        any_warm = true;
      }
      matched.push_back(mi);
      un_minus.push_back(un);
      prob.contacts.push_back(bc);
      current.push_back(std::move(cur));
    }
    const Index nc = static_cast<Index>(current.size());
    prob.w = Vector::Zero(d * nc);
    prob.mu.resize(nc);
    Vector guess = any_warm ? Vector(Vector::Zero(d * nc)) : Vector();
    bool softened = false;
    for (const ActiveContact& cur : current) softened = softened || cur.contact.material.gamma > 0.0;
    if (softened) prob.compliance.resize(nc);
    for (Index a = 0; a < nc; ++a) {
      const ContactMaterial& mat = current[a].contact.material;
      if (softened) prob.compliance[a] = mat.gamma / hk;  // ġ + γλ with λ = r/h
      if (un_minus[a] < -st.zeno_velocity) prob.w[d * a] = mat.restitution * std::min(un_minus[a], 0.0);
      prob.mu[a] = mat.mu;
      if (any_warm) guess.segment(d * a, d) = current[a].r.head(d);
    }
    // joints: every row bilateral, u_j = g_j v + κ h_j / h
    prob.w_bilateral.resize(nj_rows);
    for (Index j = 0, row = 0; j < static_cast<Index>(world.joints().size()); ++j) {
      const BodyPairRows jr = world.joint_rows(q, v, j);
      for (Index r = 0; r < jr.rows(); ++r, ++row) {
        BodyBlockBilateral g;
        g.body_a = jr.offset_a < 0 ? -1 : jr.offset_a / m;
        g.body_b = jr.offset_b < 0 ? -1 : jr.offset_b / m;
        if (g.body_a >= 0) g.g_a.head(m) = jr.block_a.row(r);
        if (g.body_b >= 0) g.g_b.head(m) = jr.block_b.row(r);
        prob.bilateral.push_back(g);
        prob.w_bilateral[row] = st.bilateral_feedback * jr.residual[r] / hk;
      }
    }

    // Body-block NSGS; when it stops above the tolerance (no joints), the registry solver on the
    // condensed problem from its iterate, and the better of the two is kept.
    BodyBlockSolution sol =
        solve_body_block_nsgs(prob, guess, p_previous.size() == nj_rows ? p_previous : Vector(), ns);
    if (!sol.converged() && nc > 0 && prob.bilateral.empty()) {
      // the fallback gets at most twice the NSGS time (and 10 ms): on large dynamic piles it
      // rarely does better, and an unbounded registry solve would dominate the run
      FrictionContactSettings fallback = fcs;
      fallback.time_limit = std::max(1e-2, 2.0 * sol.seconds);
      const FrictionContactResult alt = solve_friction_contact(prob.condensed(), st.solver, fallback, sol.r);
      if (alt.residual < sol.residual) {
        BodyBlockSolution e = evaluate_body_block(prob, alt.r, Vector(), st.solver_tolerance);
        e.solver = "body_block_nsgs+" + alt.solver;
        e.status = alt.status;
        e.iterations = sol.iterations + alt.iterations;
        sol = std::move(e);
      }
    }
    if (!sol.converged() && sol.residual > 1e3 * st.solver_tolerance) {
      ++res.solver_failures;
      if (res.solver_failures <= 20)
        res.events.push_back({t, "solver_failure", -1,
                              fmt::format("{} stopped with status {} at residual {:.3e}", sol.solver,
                                          to_string(sol.status), sol.residual)});
    }
    p_previous = sol.p;

    q += hk * world.position_rate(q, (1.0 - st.theta) * v + st.theta * sol.v);
    world.normalize_position(q);
    v = sol.v;
    t = (k + 1 == nsteps) ? st.t_end : t + hk;
    ++res.steps;

    // events by contact identity, as in time_stepping.cpp
    double rn_max = 0.0;
    for (Index a = 0; a < nc; ++a) rn_max = std::max(rn_max, sol.r[d * a]);
    for (Index a = 0; a < nc; ++a) {
      ActiveContact& cur = current[a];
      const Contact& c = cur.contact;
      if (cur.id < 0) cur.id = id_of(c);
      cur.r.setZero();
      cur.r.head(d) = sol.r.segment(d * a, d);
      cur.impulse = c.frame * cur.r;
      Vector3 u_plus = Vector3::Zero();  // Hᵀv⁺ (without the restitution term)
      u_plus.head(d) = sol.u.segment(d * a, d);
      u_plus[0] -= prob.w[d * a] + prob.compliance_of(a) * cur.r[0];
      const std::string pm = matched[a] >= 0 ? previous[matched[a]].mode : "open";
      cur.mode = detail::contact_mode(d, cur.r.data(), u_plus.data(), rn_max, st.mode_velocity,
                                      matched[a] >= 0 ? pm : std::string());
      detail::push_step_event(res, t, cur.id, pm, cur.mode, un_minus[a], u_plus[0], cur.r[0], c.material.mu,
                              c.material.restitution, st.zeno_velocity);
    }
    // Closed contacts that left the index set stay as ghosts for separation_steps steps: one that
    // comes back in time continues (no separation, no impact); else its separation is reported
    // at the time it left. (Moreau–Jean's index set flickers for a contact held by a force whose
    // gap grows at second order over a step, e.g. a rotating rod's end.)
    std::vector<ActiveContact> ghosts;
    for (size_t i = 0; i < previous.size(); ++i) {
      if (matcher.used(i) || previous[i].mode == "open") continue;
      ActiveContact g = previous[i];
      if (g.steps_out == 0) g.left_t = t - hk;
      if (++g.steps_out <= st.separation_steps) ghosts.push_back(std::move(g));
      else res.events.push_back({g.left_t, "separation", g.id, "left the index set"});
    }

    // contacts at the new q (projected): the next step's, and the penetration left
    res.max_penetration = std::max(res.max_penetration, detect_and_project(world, cs, blocks, q, st, contacts));

    const bool last = (k + 1 == nsteps);
    if (st.record_interval <= 0.0 || t >= next_record - 1e-12 || last) {
      detail::record_state(res, sys, t, q, v, emin);
      size_t ni = 0;
      for (const ActiveContact& cur : current) {
        ContactRecord rec;
        rec.t = t;
        rec.contact = cur.id;
        // gap after the step: the same contact in the new detection, else the one of the step
        while (ni < contacts.size() && contact_key_less(contacts[ni], cur.contact)) ++ni;
        rec.gap = ni < contacts.size() && contact_key_equal(contacts[ni], cur.contact) ? contacts[ni].gap : cur.contact.gap;
        rec.r_n = cur.r[0];
        rec.r_t = cur.r.segment(1, d - 1);
        rec.mode = cur.mode;
        res.contacts.push_back(std::move(rec));
      }
      while (st.record_interval > 0.0 && next_record <= t + 1e-12) next_record += st.record_interval;
    }
    previous = std::move(current);
    if (!ghosts.empty()) {
      for (auto& g : ghosts) previous.push_back(std::move(g));
      std::stable_sort(previous.begin(), previous.end(), [](const ActiveContact& x, const ActiveContact& y) {
        return pair_of(x.contact) < pair_of(y.contact);
      });
    }
    if (progress) {
      const int pc = static_cast<int>(100.0 * t / st.t_end);
      if (pc != last_percent) {
        last_percent = pc;
        progress(t / st.t_end);
      }
    }
  }
  std::stable_sort(res.events.begin(), res.events.end(),
                   [](const SimulationEvent& x, const SimulationEvent& y) { return x.t < y.t; });
  if (res.solver_failures > 0)
    res.message = fmt::format("{} of {} steps ended without reaching the solver tolerance", res.solver_failures,
                              res.steps);
  return res;
}

}  // namespace moreau
