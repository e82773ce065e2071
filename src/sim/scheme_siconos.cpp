// Siconos' MoreauJeanOSI as a step policy of the one loop (step_scheme.hpp; the math in
// sim/moreau_jean_osi.hpp).
#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "moreau/model/velocity_level.hpp"
#include "sim_internal.hpp"
#include "step_scheme.hpp"

namespace moreau::detail {
namespace {

// The unilateral contacts of a step, fixed at its start: constraint names, U_k = H(q_k)ᵀ v_k
// (d entries, normal first) and the law data.
struct ActiveContact {
  std::string name;
  Index id = -1;  // contact index of the result (contact_names)
  Vector u_k;     // d, m/s
  double e = 0.0, e_t = 0.0, mu = 0.0;
};

// Σ over the constraints `which` of cs: H P (normal and tangent columns, d entries of P per
// contact) and the bilateral columns times p.
Vector generalized_impulse(const ContactState& cs, const std::vector<Index>& unilateral,
                           const Vector& P, const std::vector<Index>& bilateral, const Vector& p) {
  const int d = cs.dimension;
  Vector out = Vector::Zero(cs.M.rows());
  for (size_t a = 0; a < unilateral.size(); ++a) {
    const ContactConstraint& c = cs.constraints[unilateral[a]];
    out += c.normal * P[d * a] + c.tangent * P.segment(d * a + 1, d - 1);
  }
  for (size_t b = 0; b < bilateral.size(); ++b) out += cs.constraints[bilateral[b]].normal * p[b];
  return out;
}

class SiconosScheme final : public StepScheme {
 public:
  SiconosScheme(const LagrangianSystem& sys, const SimulationSettings& st, SimulationResult& res)
      : StepScheme(res), sys_(sys), st_(st), ts_(st.time_stepping) {
    fcs_.tolerance = st.solver.tolerance;
    fcs_.max_iterations = st.solver.max_iterations;
  }

  void start(Vector& q, const Vector& v) override {
    s_ = sys_.contact_state(q, v, 0.0);
    res_.dimension = s_.dimension;
    track(s_);
  }

  // t_k = k·h (t_N = t_end), h = t_{k+1} − t_k.
  StepTimes times(long k, long n, double t) const override {
    const double t_next =
        (k + 1 == n) ? st_.t_end : static_cast<double>(k + 1) * st_.time_stepping.dt;
    return {t_next, t_next - t};
  }

  Vector solve(const Vector& q, const Vector& v, double, double t_next, double h) override {
    Vector v_next = newton_step(q, v, s_, t_next, h);
    count_solve(res_, report_, t_next, st_);
    return v_next;
  }

  void check_impulses() const override {
    for (Index i = 0; i < P_.size(); ++i)
      if (!std::isfinite(P_[i]))
        throw NonFiniteError(fmt::format("impulse of contact '{}' = {}",
                                         active_.at(i / res_.dimension).name, P_[i]));
  }

  // The state after the step: the next step's start, and the gaps after this one.
  void settle(Vector& q, const Vector& v, double t, double) override {
    s_ = sys_.contact_state(q, v, t);
    track(s_);
    contact_events(t);
  }

  void record_contacts(double t) override;

  std::string failure_note() const override {
    return newton_failures_ > 0 ? fmt::format(" ({} of them in Newton's method)", newton_failures_)
                                : "";
  }

 private:
  // The contact id of a constraint name (new names are appended to the result's names).
  Index id_of(const std::string& name) {
    const auto [it, added] = ids_.try_emplace(name, static_cast<Index>(res_.contact_names.size()));
    if (added) {
      res_.contact_names.push_back(name);
      mode_.push_back(ContactMode::separate);
      last_r_.emplace_back();
    }
    return it->second;
  }
  // Registers the unilateral constraints of s and their penetration (max −g).
  void track(const ContactState& s) {
    for (const ContactConstraint& c : s.constraints)
      if (c.kind == ConstraintKind::unilateral) {
        id_of(c.name);
        res_.max_penetration = std::max(res_.max_penetration, -c.gap);
      }
  }
  Vector newton_step(const Vector& q, const Vector& v, const ContactState& s, double t_next,
                     double h);
  // Impacts, stick/slip changes and separations of the step that ended at t.
  void contact_events(double t);

  const LagrangianSystem& sys_;
  const SimulationSettings& st_;
  const TimeSteppingSettings& ts_;
  FrictionContactSettings fcs_;
  ContactState s_;  // the constraints at the start of the next step (after the last one)
  std::unordered_map<std::string, Index> ids_;
  std::vector<ContactMode> mode_;  // by contact id, after the last step
  std::vector<Vector> last_r_;     // by contact id, the last step's impulse (warm start; empty
                                   // when it was not active)
  std::vector<ActiveContact> active_;
  Vector P_, u_plus_;
  FrictionContactResult report_;
  int newton_failures_ = 0;
};

// v_{k+1} by Newton's method on R(v) = 0 (sim/moreau_jean_osi.hpp), each iterate's contact
// problem with the iteration matrix W in place of M; fills P_, u_plus_ and report_.
Vector SiconosScheme::newton_step(const Vector& q, const Vector& v, const ContactState& s,
                                  double t_next, double h) {
  const double theta = ts_.theta;
  const int d = s.dimension;
  const bool linearized = ts_.newton == NewtonLoop::linearized;
  // the active set at the start of the step: g + c h U_N ≤ m (U_N = ∇hᵀ v_k)
  active_.clear();
  std::vector<Index> bilateral;  // indices into s
  for (Index i = 0; i < s.size(); ++i) {
    const ContactConstraint& c = s.constraints[i];
    if (c.kind == ConstraintKind::bilateral) {
      bilateral.push_back(i);
      continue;
    }
    const double un = c.normal.dot(v);
    if (c.gap + ts_.contacts.activation_factor * h * un > ts_.contacts.activation_margin) continue;
    ActiveContact a{c.name, id_of(c.name), Vector(d), c.restitution, c.tangential_restitution,
                    c.mu};
    a.u_k[0] = un;
    a.u_k.tail(d - 1) = c.tangent.transpose() * v;
    active_.push_back(std::move(a));
  }
  const Index na = static_cast<Index>(active_.size());
  // the law's constant term: e U_N,k, and e_t U_T,k when e_t > 0
  Vector w = Vector::Zero(d * na);
  for (Index a = 0; a < na; ++a) {
    w[d * a] = active_[a].e * active_[a].u_k[0];
    if (active_[a].e_t > 0.0)
      w.segment(d * a + 1, d - 1) = active_[a].e_t * active_[a].u_k.tail(d - 1);
  }
  Vector guess = Vector::Zero(d * na);
  bool warm = false;
  for (Index a = 0; a < na; ++a) {
    const Vector& r = last_r_[active_[a].id];
    if (r.size() == d) {
      guess.segment(d * a, d) = r;
      warm = true;
    }
  }

  // The indices in c of the active contacts and the bilateral constraints, by name; false when c
  // lacks one of them.
  std::vector<Index> uni, bil;  // indices into the constraint state of the last solve
  const auto match = [&](const ContactState& c) {
    std::unordered_map<std::string, Index> at;
    for (Index i = 0; i < c.size(); ++i) at.emplace(c.constraints[i].name, i);
    uni.clear();
    bil.clear();
    for (const ActiveContact& a : active_) {
      const auto it = at.find(a.name);
      if (it == at.end()) return false;
      uni.push_back(it->second);
    }
    for (const Index b : bilateral) {
      const auto it = at.find(s.constraints[b].name);
      if (it == at.end()) return false;
      bil.push_back(it->second);
    }
    return true;
  };

  Vector vi = v;
  VelocityLevelSolution sol;
  double residual = INFINITY;
  for (int it = 0;; ++it) {
    Vector qi = q + h * sys_.position_rate(q, theta * vi + (1.0 - theta) * v);
    sys_.normalize_position(qi);
    ContactState si = sys_.contact_state(qi, vi, t_next);
    // the constraints of this iterate (linearized: those at q_k), matched to the active set by
    // name; when the iterate no longer detects one of them, those at q_k
    const ContactState* cs = &si;
    if (linearized || !match(si)) {
      cs = &s;
      match(s);
    }
    const Vector R = si.M * (vi - v) + h * (theta * si.F + (1.0 - theta) * s.F);
    if (it > 0) {  // the residual of the last solution, its impulses on this iterate's H
      residual = (R - generalized_impulse(*cs, uni, sol.r, bil, sol.p)).norm();
      if (residual <= ts_.newton_tolerance || it > ts_.newton_max_iterations) break;
    }
    Matrix K, C;
    sys_.force_jacobians(qi, vi, t_next, K, C);
    const MassSolver iteration_matrix(si.M + h * theta * C + h * h * theta * theta * K);
    const Vector v_free = vi - iteration_matrix.solve(R);
    VelocityLevelInput in;
    in.unilateral = uni;
    in.w_unilateral = w;
    in.bilateral = bil;
    in.w_bilateral = Vector::Zero(static_cast<Index>(bil.size()));
    if (it > 0)
      in.guess = sol.r;
    else if (warm)
      in.guess = guess;
    // the contact problem with W in place of M: solve_velocity_level takes the matrix through
    // its factorization and reads only the size of cs->M
    sol = solve_velocity_level(*cs, iteration_matrix, v_free, in, st_.solver.name, fcs_);
    vi = sol.v;
    if (linearized) {
      residual = 0.0;
      break;
    }
  }
  if (residual > ts_.newton_tolerance) {
    ++newton_failures_;
    ++res_.solver_failures;
    res_.worst_solver_residual = std::max(res_.worst_solver_residual, residual);
    if (res_.solver_failures <= 20)
      log_event(res_, st_, t_next, EventKind::solver_failure, -1, [&] {
        return fmt::format(
            "Newton's method stopped after {} iterations at ‖R‖ = {:.3e} (newton_tolerance {:.1e})",
            ts_.newton_max_iterations, residual, ts_.newton_tolerance);
      });
  }
  P_ = sol.r;
  u_plus_ = sol.u - w;  // Hᵀ v_{k+1} without the restitution term
  report_ = std::move(sol.report);
  return vi;
}

void SiconosScheme::contact_events(double t) {
  const int d = res_.dimension;
  double rn_max = 0.0;
  for (size_t a = 0; a < active_.size(); ++a) rn_max = std::max(rn_max, P_[d * a]);
  std::vector<bool> seen(mode_.size(), false);
  for (size_t a = 0; a < active_.size(); ++a) {
    const ActiveContact& c = active_[a];
    const ContactMode pm = mode_[c.id];
    const ContactMode m =
        contact_mode(d, P_.data() + d * a, u_plus_.data() + d * a, rn_max, ts_.mode_velocity, pm);
    push_step_event(res_, st_, t, c.id, pm, m, c.u_k[0], u_plus_[d * a], P_[d * a], c.mu, c.e);
    mode_[c.id] = m;
    seen[c.id] = true;
    last_r_[c.id] = P_.segment(d * a, d);
  }
  for (size_t id = 0; id < mode_.size(); ++id)
    if (!seen[id]) {
      if (mode_[id] != ContactMode::separate)
        log_event(res_, st_, t, EventKind::separation, static_cast<Index>(id),
                  [] { return "left the index set"; });
      mode_[id] = ContactMode::separate;
      last_r_[id] = Vector();
    }
}

// Every unilateral constraint at t (the state s after the step): its impulse of the step (0
// when it was not active), its gap, its mode.
void SiconosScheme::record_contacts(double t) {
  const int d = res_.dimension;
  std::unordered_map<std::string, size_t> slot;
  for (size_t a = 0; a < active_.size(); ++a) slot.emplace(active_[a].name, a);
  for (const ContactConstraint& c : s_.constraints) {
    if (c.kind == ConstraintKind::bilateral) continue;
    ContactRecord rec;
    rec.t = t;
    rec.contact = id_of(c.name);
    rec.gap = c.gap;
    rec.point = c.point;
    rec.normal = c.world_normal;
    rec.body_a = c.body_a;
    rec.body_b = c.body_b;
    rec.r_t = Vector::Zero(d - 1);
    const auto it = slot.find(c.name);
    if (it != slot.end()) {
      rec.r_n = P_[d * it->second];
      rec.r_t = P_.segment(d * it->second + 1, d - 1);
    }
    rec.mode = mode_[rec.contact];
    res_.contacts.push_back(std::move(rec));
  }
}

}  // namespace

std::unique_ptr<StepScheme> make_siconos_scheme(const LagrangianSystem& system,
                                                const SimulationSettings& settings,
                                                SimulationResult& result) {
  return std::make_unique<SiconosScheme>(system, settings, result);
}

}  // namespace moreau::detail
