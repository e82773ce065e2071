// Driver of the event-driven integrator (event_driven.hpp states the algorithm): smooth phases
// by Dormand–Prince with event location (event/event_location.hpp), the mode's dynamics
// (event/hybrid_dynamics.hpp), and at each event the impact phase (event/impact_phase.hpp) then
// the mode selection (event/mode_selection.hpp).
#include "moreau/sim/event_driven.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include <fmt/format.h>

#include "event/event_location.hpp"
#include "event/hybrid_dynamics.hpp"
#include "event/impact_phase.hpp"
#include "event/mode_selection.hpp"
#include "moreau/common/error.hpp"
#include "moreau/sim/impact_law.hpp"
#include "sim_internal.hpp"

namespace moreau {
namespace {

using namespace event;

// The event of one contact's mode change a → b, or none (unchanged, or a closing/opening that an
// impact explains).
std::optional<EventKind> transition_kind(const HybridMode& a, const HybridMode& b, bool impacted) {
  using M = ContactMode;
  if (a.mode == b.mode &&
      !(a.mode == M::slip && a.s.size() > 0 && b.s.size() > 0 && a.s.dot(b.s) < 0))
    return std::nullopt;
  if (a.mode == M::stick && b.mode == M::slip) return EventKind::stick_to_slip;
  if (a.mode == M::slip && b.mode == M::stick) return EventKind::slip_to_stick;
  if (a.mode == M::slip && b.mode == M::slip) return EventKind::slip_reversal;
  if (impacted) return std::nullopt;
  if (a.mode != M::separate && b.mode == M::separate) return EventKind::separation;
  if (a.mode == M::separate && b.mode != M::separate) return EventKind::contact;
  return std::nullopt;
}

// The exclusions after root r fired: λ_n → 0 (the contact leaves: no stick, no slip);
// |λ_t| = μλ_n (stick → slip: no stick); σ·u_t → 0 (no slip in the direction σ).
ModeExclusions exclusions_after(const Root& r, const Modes& modes) {
  ModeExclusions ex(modes.size());
  if (r.kind == RootKind::normal_force) ex[r.contact].stick = ex[r.contact].any_slip = true;
  if (r.kind == RootKind::stick_cone) ex[r.contact].stick = true;
  if (r.kind == RootKind::slip_velocity) ex[r.contact].slip = modes[r.contact].s;
  return ex;
}

// The first root crossing on a step: its time (the right end of the located bracket) and which
// root fired, or a missed closing (contact index), or neither (t_star = ∞).
struct Crossing {
  double t_star = std::numeric_limits<double>::infinity();
  std::size_t fired;
  Index missed = -1;
};

// The run's first contact state, after the system's begin_run(q0).
ContactState begin(const LagrangianSystem& sys, const Vector& q0, const Vector& v0) {
  sys.begin_run(q0);
  return sys.contact_state(q0, v0, 0.0);
}

class EventDrivenRun {
 public:
  EventDrivenRun(const LagrangianSystem& sys, const SimulationSettings& st, const Vector& q0,
                 const Vector& v0)
      : sys_(sys),
        st_(st),
        s0_(begin(sys, q0, v0)),
        np_(sys.position_size()),
        nv_(sys.velocity_size()),
        m_(s0_.size()),
        eps_g_(st.event_driven.contact_tolerance),
        hy_(sys, st),
        select_{.sys = sys, .st = st, .dynamics = hy_},
        impact_{.sys = sys, .st = st} {
    check_impact_laws(s0_, Integrator::event_driven);
    detail::start_result(res_, sys, Integrator::event_driven, s0_);
    if (q0.size() == sys.initial_q.size() && q0 == sys.initial_q)
      res_.warnings = sys.start_notes();  // what made the start pose valid
    for (const auto& c : s0_.constraints) {
      select_.mu.push_back(c.mu);
      select_.unilateral.push_back(c.kind == ConstraintKind::unilateral);
    }
    select_.dimension = s0_.dimension;
    select_.eps_g = impact_.eps_g = eps_g_;
    select_.tol_v = impact_.tol_v = st.event_driven.contact_tolerance;
    select_.tol_f = st.event_driven.force_tolerance;
    select_.limits = {.gap_tolerance = 0.0,
                      .velocity_tolerance = select_.tol_v,
                      .tolerance = select_.tol_f,
                      .max_lcp_size = 12,
                      .max_enumeration_contacts = 8,
                      .direction_starts = 4};
    impact_.fcs.tolerance = st.solver.tolerance;
    impact_.fcs.max_iterations = st.solver.max_iterations;
    y_.resize(np_ + nv_);
    y_ << q0, v0;
    modes_.resize(m_);
    armed_.assign(m_, 0);
  }

  SimulationResult run(const ProgressCallback& progress, const StopRequest* stop_request);
  // The state the run is at (after run(): where it ended).
  Vector end_q() const { return q(y_); }
  // Its velocities.
  Vector end_v() const { return v(y_); }

 private:
  Vector q(const Vector& y) const { return y.head(np_); }
  Vector v(const Vector& y) const { return y.tail(nv_); }
  bool unilateral(Index i) const { return select_.unilateral[i]; }

  // ẏ = (q̇(q, v), a) with a the mode's acceleration; *ok = the mode's dynamics is consistent.
  Vector rhs(double t, const Vector& y, bool* ok) const {
    const Vector qq = q(y), vv = v(y);
    const Dynamics dy = hy_(t, qq, vv, modes_);
    if (ok) *ok = dy.consistent && all_finite(dy.a);
    Vector f(np_ + nv_);
    f << sys_.position_rate(qq, vv), dy.a;
    return f;
  }

  // Appends the state and the closed contacts' forces; updates the largest penetration.
  void record() { record_at(t_, y_); }
  // The same for the state y at time t (a point of a step's dense output).
  void record_at(double t, const Vector& y) {
    detail::record_state(res_, sys_, t, q(y), v(y), emin_);
    const Dynamics dy = hy_(t, q(y), v(y), modes_);
    std::optional<ContactState> where;  // the contacts' points and normals, when one is closed
    for (Index i = 0; i < m_; ++i) {
      if (!unilateral(i) || modes_[i].mode == ContactMode::separate) continue;
      if (!where) where = sys_.contact_state(q(y), v(y), t);
      const ContactConstraint& c = where->constraints[static_cast<size_t>(i)];
      res_.contacts.push_back({.t = t,
                               .contact = i,
                               .gap = dy.g[i],
                               .r_n = dy.lambda_n[i],
                               .r_t = dy.lambda_t.col(i),
                               .mode = modes_[i].mode,
                               .point = c.point,
                               .normal = c.world_normal,
                               .body_a = c.body_a,
                               .body_b = c.body_b});
    }
    for (Index i = 0; i < m_; ++i)
      if (unilateral(i)) res_.max_penetration = std::max(res_.max_penetration, -dy.g[i]);
  }

  bool stop(SimulationStatus status, const std::string& message) {
    res_.status = status;
    res_.message = message;
    return false;
  }

  bool resolve(ModeExclusions excl, bool emit = true);
  bool tangential_impact_then_choose(ModeChoice& choice, std::vector<bool>& impacted,
                                     ModeExclusions& excl);
  Crossing first_crossing(const std::vector<Root>& roots, const ContactState& sc,
                          const DopriStep& step, double h);
  bool event_at(const Crossing& x, const std::vector<Root>& roots);

  const LagrangianSystem& sys_;
  const SimulationSettings& st_;
  const EventDrivenSettings& ed_ = st_.event_driven;
  const ContactState s0_;
  const Index np_, nv_, m_;
  const double eps_g_;
  HybridDynamics hy_;
  ModeSelection select_;
  ImpactContext impact_;
  SimulationResult res_;
  double t_ = 0.0;
  Vector y_;  // (q, v)
  Modes modes_;
  std::vector<char> armed_;  // closing root of a free contact armed (event_location.hpp)
  double emin_ = 0.0;
  int events_here_ = 0;
  double last_event_t_ = -1.0;
};

// Policy "tangential_impact" at a Painlevé case 3: the impulsive transition, then the mode choice
// again (nothing excluded: the velocities jumped). False (run stops) when the impact fails.
bool EventDrivenRun::tangential_impact_then_choose(ModeChoice& choice, std::vector<bool>& impacted,
                                                   ModeExclusions& excl) {
  std::string how;
  Vector vv = v(y_);
  const Index pc = choice.painleve_contact;
  const bool applied = tangential_impact(impact_, t_, q(y_), vv, pc, how);
  if (applied) y_.tail(nv_) = vv;
  detail::log_event(res_, st_, t_, EventKind::painleve, pc,
                    [&] { return choice.painleve + "; policy: tangential impact: " + how; });
  if (!applied)
    return stop(SimulationStatus::painleve,
                choice.painleve + "; the tangential impact failed: " + how);
  if (pc >= 0) impacted[pc] = true;
  std::fill(excl.begin(), excl.end(), ModeExclusion{});
  choice = choose_modes(select_, t_, q(y_), v(y_), excl);
  return true;
}

// Resolves the state at an event: impacts (up to 3 passes), then the mode choice; emits the
// transition events. Returns false when the simulation must stop (status set).
bool EventDrivenRun::resolve(ModeExclusions excl, bool emit) {
  const Modes old = modes_;
  std::vector<bool> impacted(m_, false);
  std::string failure;
  for (int pass = 0; pass < 3; ++pass) {
    Vector vv = v(y_);
    const bool applied = apply_impacts(impact_, t_, q(y_), vv, impacted, res_, failure);
    if (!applied) break;
    y_.tail(nv_) = vv;
  }
  if (!failure.empty()) return stop(SimulationStatus::solver_failure, failure);
  if (std::find(impacted.begin(), impacted.end(), true) != impacted.end())
    std::fill(excl.begin(), excl.end(), ModeExclusion{});
  ModeChoice choice = choose_modes(select_, t_, q(y_), v(y_), excl);
  if (!choice.ok && choice.painleve_case == 3 &&
      ed_.painleve_policy == PainlevePolicy::tangential_impact &&
      !tangential_impact_then_choose(choice, impacted, excl))
    return false;
  if (!choice.painleve.empty())
    detail::log_event(res_, st_, t_, EventKind::painleve, choice.painleve_contact,
                      [&] { return choice.painleve; });
  if (!choice.ok) {
    if (!choice.unsupported.empty()) return stop(SimulationStatus::unsupported, choice.unsupported);
    if (choice.painleve.empty())
      return stop(SimulationStatus::no_consistent_mode, "no consistent contact mode at this state");
    return stop(SimulationStatus::painleve, choice.painleve);
  }
  modes_ = choice.modes;
  // Arming of the closing roots of the free contacts from the state after the event.
  const ContactState sa = sys_.contact_state(q(y_), v(y_), t_);
  for (Index i = 0; i < m_; ++i) armed_[i] = arms(sa.constraints[i], v(y_), eps_g_) ? 1 : 0;
  for (Index i = 0; i < m_; ++i) {
    if (!unilateral(i)) continue;
    const std::optional<EventKind> kind = transition_kind(old[i], modes_[i], impacted[i]);
    if (!kind || !emit) continue;
    detail::log_event(res_, st_, t_, *kind, i, [&] {
      return fmt::format("{} -> {}", to_string(old[i].mode), to_string(modes_[i].mode));
    });
  }
  return true;
}

// Roots on [t, t+h]: each root with φ(t) > 0 ≥ φ(t+h) located on the dense output (Illinois),
// the earliest wins. Missed closing (safety net): a free contact ending the step below −10ε
// without a located root (e.g. it entered the step disarmed and not moving away) is backtracked
// on the dense output to the crossing of g = −10ε and handled as a closing there.
Crossing EventDrivenRun::first_crossing(const std::vector<Root>& roots, const ContactState& sc,
                                        const DopriStep& step, double h) {
  const double t = t_;
  auto state_at = [&](double tt) { return tt >= t + h ? step.y1 : step.dense.at(tt); };
  auto values_at = [&](double tt) {
    const Vector yy = state_at(tt);
    const Dynamics dy = hy_(tt, q(yy), v(yy), modes_);
    std::vector<double> out(roots.size());
    for (std::size_t j = 0; j < roots.size(); ++j)
      out[j] = root_value(roots[j], dy, modes_, select_.mu, eps_g_);
    return out;
  };
  Crossing x;
  x.fired = roots.size();
  const std::vector<double> f0 = values_at(t), f1 = values_at(t + h);
  for (std::size_t j = 0; j < roots.size(); ++j) {
    if (!(f0[j] > 0.0 && f1[j] <= 0.0)) continue;
    const double b = locate([&](double c) { return values_at(c)[j]; }, t, t + h, f0[j], f1[j], t);
    if (b < x.t_star) {
      x.t_star = b;
      x.fired = j;
    }
  }
  if (x.fired < roots.size()) return x;
  const ContactState s1 = sys_.contact_state(q(step.y1), v(step.y1), t + h);
  for (Index i = 0; i < m_; ++i) {
    if (!unilateral(i) || modes_[i].mode != ContactMode::separate) continue;
    if (s1.constraints[i].gap >= -10.0 * eps_g_) continue;
    auto chi = [&](double tt) {
      const Vector yy = state_at(tt);
      return sys_.contact_state(q(yy), v(yy), tt).constraints[i].gap + 10.0 * eps_g_;
    };
    const double c0 = sc.constraints[i].gap + 10.0 * eps_g_;
    if (!(c0 > 0.0)) continue;  // already below at the start: counted as penetration
    const double b = locate(chi, t, t + h, c0, s1.constraints[i].gap + 10.0 * eps_g_, t);
    if (b < x.t_star) {
      x.t_star = b;
      x.missed = i;
    }
  }
  return x;
}

// At an event (the state already moved there): record, exclusions, resolve, chattering and
// event-count limits. False when the run stops.
bool EventDrivenRun::event_at(const Crossing& x, const std::vector<Root>& roots) {
  record();
  const Root r = x.fired < roots.size() ? roots[x.fired] : Root{RootKind::closing, x.missed};
  if (!resolve(exclusions_after(r, modes_))) return false;
  if (std::abs(t_ - last_event_t_) < 1e-12) {
    if (++events_here_ > 50)
      return stop(SimulationStatus::event_limit,
                  fmt::format("more than 50 events at t = {} s (chattering)", t_));
  } else {
    events_here_ = 0;
    last_event_t_ = t_;
  }
  if (res_.event_total() > ed_.max_events)
    return stop(SimulationStatus::event_limit, fmt::format("more than {} events", ed_.max_events));
  record();
  return true;
}

SimulationResult EventDrivenRun::run(const ProgressCallback& progress,
                                     const StopRequest* stop_request) {
  // Initial state: impacts / modes. When they change the velocities (an impact or a tangential
  // impact at t = 0) the state before is recorded first, so that the energy summary sees the jump.
  const Vector y_pre = y_;
  const bool ok =
      resolve(ModeExclusions(m_), false);  // the initial mode choice is not a transition
  if (y_ != y_pre) detail::record_state(res_, sys_, t_, q(y_pre), v(y_pre), emin_);
  record();
  if (!ok) return res_;
  double h = std::min(ed_.max_step, 1e-3 * st_.t_end);
  long grid_k = 1;  // the next grid time k·record_interval to record
  int last_percent = -1, reported_failures = 0;
  const RightHandSide f = [this](double t, const Vector& y, bool* ok) { return rhs(t, y, ok); };
  Vector k1 = rhs(t_, y_, nullptr);

  try {  // a NaN or an infinity, from the model or in a step (NonFiniteError): diverged
    while (t_ < st_.t_end - 1e-14 * std::max(1.0, st_.t_end)) {
      h = std::min({h, ed_.max_step, st_.t_end - t_});
      const ContactState sc = sys_.contact_state(q(y_), v(y_), t_);
      for (Index i = 0; i < m_; ++i)  // a free contact once armed stays armed until the next event
        if (!armed_[i] && arms(sc.constraints[i], v(y_), eps_g_)) armed_[i] = 1;
      const std::vector<Root> roots = roots_of(sc, modes_, armed_);
      const DopriStep step = dopri_step(f, t_, y_, k1, h, ed_.atol, ed_.rtol);
      const double en = step.error;
      if (!std::isfinite(en) || en > 1.0 || !step.ok) {  // rejected: h ← h·max(0.2, 0.9 en^(−1/5))
        ++res_.rejected_steps;
        h *= (std::isfinite(en) && step.ok) ? std::max(0.2, 0.9 * std::pow(en, -0.2)) : 0.25;
        if (h < 1e-14 * std::max(1.0, t_)) {
          stop(SimulationStatus::step_failure, fmt::format("step size underflow at t = {} s", t_));
          break;
        }
        continue;
      }
      const Crossing x = first_crossing(roots, sc, step, h);
      ++res_.steps;
      auto state_at = [&](double tt) { return tt >= t_ + h ? step.y1 : step.dense.at(tt); };
      // record_interval > 0: the grid times t = k·interval that this step passes, before its
      // end or its event, from the dense output (an event's rows follow, pre and post)
      if (st_.record_interval > 0.0) {
        const bool ends_at_event = x.fired < roots.size() || x.missed >= 0;
        const double until = ends_at_event ? x.t_star : t_ + h;
        for (;; ++grid_k) {
          const double tg = static_cast<double>(grid_k) * st_.record_interval;
          const bool inside =
              ends_at_event ? tg < until : tg <= until + 1e-14 * std::max(1.0, until);
          if (!inside || tg > st_.t_end * (1.0 + 1e-15)) break;
          record_at(tg, tg >= t_ + h ? step.y1 : step.dense.at(tg));
        }
      }
      if (x.fired < roots.size() && roots[x.fired].kind == RootKind::apex) {
        // Apex of a disarmed free contact: opened (g > 0) → arm its closing root and restart the
        // step from the apex (no event); never opened (g ≤ 0) → it closes here without impact.
        const Index i = roots[x.fired].contact;
        y_ = state_at(x.t_star);
        t_ = x.t_star;
        const ContactState sa = sys_.contact_state(q(y_), v(y_), t_);
        if (sa.constraints[i].gap > 0.0) {
          armed_[i] = 1;
          k1 = rhs(t_, y_, nullptr);
          continue;
        }
        detail::log_event(res_, st_, t_, EventKind::zeno, i, [&] {
          return fmt::format(
              "accumulation rule: the contact did not open since it last closed (apex g = {:.3g} "
              "m <= 0); closed without impact, u_n = {:.3g} m/s",
              sa.constraints[i].gap, sa.constraints[i].normal.dot(v(y_)));
        });
      }
      if (x.fired < roots.size() || x.missed >= 0) {
        // (after an apex t_ = t_star already, so this reads the dense output at t_star, as it
        // always has)
        y_ = state_at(x.t_star);
        t_ = x.t_star;
        if (!event_at(x, roots)) break;
        k1 = rhs(t_, y_, nullptr);
        h = std::max(h, 1e-6 * ed_.max_step);
      } else {
        t_ += h;
        y_ = step.y1;
        Vector qn = y_.head(np_);
        sys_.normalize_position(qn);
        y_.head(np_) = qn;
        k1 = step.k7;
        // the accepted state and its acceleration (the catch below names the coordinate)
        require_finite(q(y_), "q", true);
        require_finite(v(y_), "v");
        require_finite(k1.tail(nv_), "acceleration v̇");
        // every step, or (grid recording) the final state when the grid did not end on it
        if (st_.record_interval <= 0.0 ||
            (t_ >= st_.t_end - 1e-14 && res_.t.back() < t_ - 1e-9 * std::max(1.0, t_)))
          record();
        h *= std::min(5.0, std::max(0.2, 0.9 * std::pow(std::max(en, 1e-10), -0.2)));  // accepted
      }
      detail::report_progress(progress, res_, t_, st_.t_end, last_percent, reported_failures);
      // a stop request ends the run after this step, its state recorded
      if (stop_request != nullptr && stop_request->load() &&
          t_ < st_.t_end - 1e-14 * std::max(1.0, st_.t_end)) {
        if (res_.t.empty() || res_.t.back() != t_) record();  // the state at the stop
        stop(SimulationStatus::interrupted, fmt::format("interrupted at t = {} s", t_));
        break;
      }
    }
  } catch (const NonFiniteError& e) {
    stop(SimulationStatus::diverged, detail::diverged_message(sys_, t_, e));
  }
  return std::move(res_);
}

}  // namespace

SimulationResult simulate_event_driven(const LagrangianSystem& sys, const SimulationSettings& st,
                                       const Vector& q0, const Vector& v0,
                                       const ProgressCallback& progress, const StopRequest* stop) {
  return EventDrivenRun(sys, st, q0, v0).run(progress, stop);
}

SimulationResult simulate_event_driven(const LagrangianSystem& sys, const SimulationSettings& st,
                                       const Vector& q0, const Vector& v0, Vector& q_end,
                                       Vector& v_end) {
  EventDrivenRun run(sys, st, q0, v0);
  SimulationResult res = run.run({}, nullptr);
  q_end = run.end_q();
  v_end = run.end_v();
  return res;
}

}  // namespace moreau
