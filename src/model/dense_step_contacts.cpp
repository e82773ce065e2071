// The dense contact layer of a Moreau–Jean step, for any LagrangianSystem
// (model/step_contacts.hpp): the constraints of contact_state(q, v, t), identity by constraint
// name, W = Hᵀ M⁻¹ H formed by solve_velocity_level (model/velocity_level.hpp).
#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include "moreau/model/lagrangian_system.hpp"
#include "dry_friction_step.hpp"
#include "moreau/model/step_free_velocity.hpp"
#include "moreau/model/velocity_level.hpp"

namespace moreau {
namespace {

// A projection row of a generic system: J = ∇hᵀ (n entries) and M⁻¹Jᵀ.
struct DenseRow {
  Vector J, MJ;
  double target = 0.0, diag = 0.0;
  bool bilateral = false;
  bool held = false;  // a closed contact held at its gap (projection), gap its g
  double gap = 0.0;
  double value(const Vector& dv) const { return target + J.dot(dv); }
  void add(Vector& dv, double step) const { dv += step * MJ; }
};

// Whether a default solve went through Newton: its report's message begins with the stage path,
// "stages: nsgs+newton…" then "; …" (solvers/fc/friction_contact_solver.cpp).
bool went_through_newton(const std::string& message) {
  return message.substr(0, message.find(';')).find("+newton") != std::string::npos;
}

class DenseStepContacts final : public StepContacts {
 public:
  DenseStepContacts(const LagrangianSystem& system, const StepContactSettings& settings,
                    const ContactSolverSettings& solver)
      : sys_(system), st_(settings), solver_(solver.name) {
    fcs_.tolerance = solver.tolerance;
    fcs_.max_iterations = solver.max_iterations;
    fcs_.keep_converged_guess = true;  // a mechanism at rest keeps its impulses
  }

  double detect(const Vector& q, const Vector& v, double t, double& penetration) override {
    ++detections_;
    s_ = st_.max_step > 0.0 ? sys_.step_state(q, v, t, st_.activation_factor * st_.max_step,
                                              st_.activation_margin, form_records_)
                            : sys_.contact_state(q, v, t);
    dimension_ = s_.dimension;
    double worst = 0.0;
    penetration = 0.0;
    for (const auto& c : s_.constraints) {
      if (c.kind == ConstraintKind::bilateral) {
        worst = std::max(worst, std::abs(c.gap));
      } else {
        worst = std::max(worst, -c.gap);
        penetration = std::max(penetration, -c.gap);
      }
    }
    return worst;
  }

  void name_detected() override {
    for (const auto& c : s_.constraints) id_of(c.name);
  }

  // Rows: every bilateral row (target h_b: the rows already held stay held, so that correcting
  // one joint does not open another that shares its bodies), unilateral g < margin (target
  // g − ½tol: aim slightly inside the admissible side).
  // A closed contact (0 ≤ g ≤ tol) is held as well: its row is ∇gᵀΔv = 0 (target 0), so the
  // correction lifts what penetrates without opening what rests. A pass that opened a resting
  // contact moved bodies against gravity without giving them a velocity: they fell back the next
  // step and struck, and the strike's own penetration (½h u_n⁻ under the θ = ½ position update)
  // was projected out again, lifting the other end. The humanoid of bench/models, lying on its
  // back, kept a three-step rocking of 2e-3 J that way, head against hands, and rolled over at
  // 4.5 s; held, it rests (kinetic energy below 1e-18 J from 2 s on) and needs no pass. (Holding
  // the slightly penetrating ones too, −tol ≤ g < 0, brought the rocking back: 741 passes instead
  // of 397 in its 3 s.) Held rows can contradict the others, as contact rows are often dependent
  // (a flat face's corners: rank 3 on 4 rows, one corner at −1e-12 aimed at +½tol and three held
  // at +1e-12); when the held solve leaves a row violated by more than tol (13 of the humanoid's
  // 397 passes), the pass is solved again with every contact unilateral, as before rows were held,
  // which can always be met.
  Vector projection(const Vector& /*q*/) override {
    const double tol = st_.projection_tolerance;
    MassSolver mass;
    mass.factorize(s_.M, sys_.mass_tree());
    std::vector<DenseRow> rows;
    for (const auto& c : s_.constraints) {
      const bool bil = c.kind == ConstraintKind::bilateral;
      if (!bil && c.gap >= st_.activation_margin) continue;
      DenseRow r;
      r.held = !bil && c.gap >= 0.0 && c.gap <= tol;
      r.gap = c.gap;
      r.bilateral = bil || r.held;
      r.J = c.normal;
      r.MJ = mass.solve(r.J);
      r.diag = r.J.dot(r.MJ);
      r.target = bil ? c.gap : r.held ? 0.0 : c.gap - 0.5 * tol;
      if (r.diag > 1e-300) rows.push_back(std::move(r));
    }
    const Vector dv = projected_gauss_seidel(rows, s_.M.rows(), tol);
    if (std::all_of(rows.begin(), rows.end(),
                    [&](const DenseRow& r) { return row_violation(r, dv) <= tol; }))
      return dv;
    for (DenseRow& r : rows)
      if (r.held) {
        r.bilateral = r.held = false;
        r.target = r.gap - 0.5 * tol;
      }
    return projected_gauss_seidel(rows, s_.M.rows(), tol);
  }

  // v_free of model/step_free_velocity.hpp (linearly implicit joint springs and dampers, the
  // midpoint rule for a step without constraints), W = Hᵀ M̂⁻¹ H; I_k = {g + ½h u_n ≤ margin};
  // bilateral rows u_b = ∇h_bᵀv⁺ + κ h_b/h; a contact continues the history entry of the same
  // name, warm-started when it was active.
  const std::vector<StepContact>& build(const Vector& q, const Vector& v, double t,
                                        double h) override {
    step_ = std::move(s_);
    ++detections_;        // s_ holds no detection now: names_after_ must not index it
    s_.recorded.reset();  // what the move left in s_ is no detection: no record until the next
    const ContactState& s = step_;
    h_ = h;
    std::vector<Index> entry(names_.size(), -1);  // history entry by contact id
    for (size_t i = 0; i < history_.size(); ++i) entry[history_[i].id] = static_cast<Index>(i);
    continued_.assign(history_.size(), false);
    in_ = VelocityLevelInput{};
    active_.clear();
    current_.clear();
    warm_ = false;
    for (Index i = 0; i < s.size(); ++i) {
      const auto& c = s.constraints[i];
      const double un = c.normal.dot(v);
      if (c.kind == ConstraintKind::bilateral) {
        in_.bilateral.push_back(i);
        continue;
      }
      if (c.gap + st_.activation_factor * h * un > st_.activation_margin) continue;
      in_.unilateral.push_back(i);
      StepContact a{id_of(c.name), -1, un, c.mu, c.restitution, c.gamma};
      ContactHistory cur;
      cur.id = a.id;
      if (a.id < static_cast<Index>(entry.size()) && entry[a.id] >= 0) {
        a.previous = entry[a.id];
        continued_[a.previous] = true;
        if (history_[a.previous].steps_out == 0) {  // ghosts carry no impulse of the last step
          cur.r = history_[a.previous].r;
          warm_ = true;
        }
      }
      active_.push_back(a);
      current_.push_back(cur);
    }
    in_.w_bilateral.resize(static_cast<Index>(in_.bilateral.size()));
    for (size_t b = 0; b < in_.bilateral.size(); ++b)
      in_.w_bilateral[b] = st_.bilateral_feedback * s.constraints[in_.bilateral[b]].gap / h;
    v_free_ = step_free_velocity(sys_, s.M, s.F, q, v, t, h, st_.theta,
                                 !in_.unilateral.empty() || !in_.bilateral.empty(), mass_);
    return active_;
  }

  const MassSolver* implicit_mass() const override { return &mass_; }

  void form_records(bool on) override { form_records_ = on; }

  std::optional<RecordedState> take_detected_record(const Vector& q, const Vector& v) override {
    const bool here =
        s_.recorded && s_.q.size() == q.size() && s_.v.size() == v.size() && s_.q == q && s_.v == v;
    if (!here) return std::nullopt;
    std::optional<RecordedState> out = std::move(s_.recorded);
    s_.recorded.reset();
    return out;
  }

  StepSolution solve(const Vector& w, const Vector& compliance, const Vector& guess) override {
    if (in_.unilateral.empty() && in_.bilateral.empty() && friction_.empty()) {
      // no row and no dry friction: v⁺ = v_free, what solve_velocity_level returns for an empty
      // problem, without its copies (an arm in free flight: 2 % of its step)
      StepSolution out;
      out.status = Status::converged;
      out.residual = 0.0;
      out.v = std::move(v_free_);  // read by nothing else until the next build() forms it anew
      newton_led_ = false;         // as solve_contacts after a solve that did not go through Newton
      return out;
    }
    in_.w_unilateral = w;
    in_.compliance = compliance;
    in_.guess = guess;
    VelocityLevelSolution sol =
        friction_.empty() ? solve_contacts()
                          : detail::solve_with_dry_friction(step_, mass_, v_free_, in_, friction_,
                                                            h_, friction_modes_, solver_, fcs_);
    StepSolution out = std::move(sol.report);
    out.v = std::move(sol.v);
    out.r = std::move(sol.r);
    out.u = std::move(sol.u);
    return out;
  }

  // The step's contact problem (model/velocity_level.hpp). With "auto", after a step whose
  // Gauss–Seidel probe crawled and went to Newton, Newton runs from the warm start at once,
  // with the proximal term the default gives it (a robot's contact set persists from step to
  // step, and the probe would crawl again: the humanoid of bench/models went to Newton on 55 % of
  // its steps, most of them in runs), for as long as it converges; a step where it does not goes
  // back to the default from the same warm start. (One contact keeps the exact one-contact
  // solver of the default.)
  VelocityLevelSolution solve_contacts() {
    int spent = 0;  // a led attempt's iterations, which count in the step's work
    if (solver_ == "auto" && newton_led_ && in_.unilateral.size() >= 2) {
      // Newton would stop at once at a warm start within the tolerance: check it without W
      if (std::optional<VelocityLevelSolution> warm =
              warm_start_solution(step_, mass_, v_free_, in_, fcs_.tolerance, "newton"))
        return std::move(*warm);
      FrictionContactSettings settings = fcs_;
      settings.newton_proximal = kRedundantContactsProximal;
      VelocityLevelSolution led =
          solve_velocity_level(step_, mass_, v_free_, in_, "newton", settings);
      if (led.report.converged()) return led;
      spent = led.report.iterations;
    }
    VelocityLevelSolution sol = solve_velocity_level(step_, mass_, v_free_, in_, solver_, fcs_);
    sol.report.iterations += spent;
    newton_led_ =
        solver_ == "auto" && sol.report.converged() && went_through_newton(sol.report.message);
    return sol;
  }

  ContactPlace place_after(Index a) const override {
    const Index i = in_.unilateral[a];
    // after the step: the same constraint of the new detection, found by name (at the same index
    // in the common case, else through an index of the new detection's names, formed once per
    // detection: a joint bound entering or leaving a step's reach shifts the indices); the
    // step's own when the new detection does not have it
    const std::string& name = step_.constraints[i].name;
    const ContactConstraint* after = nullptr;
    if (i < s_.size() && s_.constraints[i].name == name) {
      after = &s_.constraints[i];
    } else {
      if (names_after_of_ != detections_) {
        names_after_.clear();
        for (Index k = 0; k < s_.size(); ++k) names_after_.emplace(s_.constraints[k].name, k);
        names_after_of_ = detections_;
      }
      const auto it = names_after_.find(name);
      if (it != names_after_.end()) after = &s_.constraints[it->second];
    }
    const ContactConstraint& c = after ? *after : step_.constraints[i];
    return {.gap = c.gap,
            .point = c.point,
            .normal = c.world_normal,
            .body_a = c.body_a,
            .body_b = c.body_b};
  }

  void advance(const std::vector<Index>& ghosts) override {
    std::vector<ContactHistory> next = std::move(current_);
    for (const Index g : ghosts) next.push_back(history_[g]);
    history_ = std::move(next);
    current_.clear();
  }

 private:
  Index id_of(const std::string& name) {
    // try_emplace: no node (a copy of the name) is built for a name already known
    const auto [it, added] = ids_.try_emplace(name, static_cast<Index>(names_.size()));
    if (added) names_.push_back(name);
    return it->second;
  }

  const LagrangianSystem& sys_;
  StepContactSettings st_;
  std::string solver_;  // registry name
  FrictionContactSettings fcs_;
  std::unordered_map<std::string, Index> ids_;
  ContactState s_, step_;  // the last detection, the step's state
  MassSolver mass_;        // M̂ of the step being built (its symbolic analysis kept across steps)
  Vector v_free_;
  double h_ = 0.0;  // the step being built
  VelocityLevelInput in_;
  std::vector<DryFriction> friction_ = sys_.dry_friction();  // joint frictionloss entries
  std::vector<int> friction_modes_;  // their modes after the last step (dry_friction_step.hpp)
  std::vector<StepContact> active_;
  bool newton_led_ = false;   // "auto": the last step went through Newton (solve_contacts)
  bool form_records_ = true;  // form_records()
  long detections_ = 0;       // changes of s_ so far (detect, build)
  mutable std::unordered_map<std::string, Index> names_after_;  // s_'s names (place_after)
  mutable long names_after_of_ = -1;  // the detection names_after_ indexes
};

}  // namespace

std::unique_ptr<StepContacts> LagrangianSystem::step_contacts(
    const StepContactSettings& settings, const ContactSolverSettings& solver) const {
  return std::make_unique<DenseStepContacts>(*this, settings, solver);
}

}  // namespace moreau
