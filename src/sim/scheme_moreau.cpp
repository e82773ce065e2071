// moreau's Moreau–Jean scheme as a step policy of the one loop (step_scheme.hpp; the math in
// sim/time_stepping.hpp).
#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "sim_internal.hpp"
#include "step_scheme.hpp"

namespace moreau::detail {
namespace {

// Detection at q, then post-stabilization (model/step_contacts.hpp): while the violation exceeds
// the tolerance, at most four projections q ← q + q̇(q, Δv), each followed by a new detection.
// Returns the penetration left; the last detection is the one the next step uses.
double detect_and_project(const LagrangianSystem& sys, StepContacts& layer, Vector& q,
                          const Vector& v, double t, const SimulationSettings& st) {
  double penetration = 0.0;
  for (int outer = 0;; ++outer) {
    const double worst = layer.detect(q, v, t, penetration);
    if (!st.time_stepping.projection || worst <= st.time_stepping.contacts.projection_tolerance ||
        outer == 4)
      return penetration;
    q += sys.position_rate(q, layer.projection(q));
    sys.normalize_position(q);
  }
}

// The contact layer's settings with the stepper's θ (for the implicit joint springs and dampers)
// and its dt (the longest step, for what detection may leave out).
StepContactSettings layer_settings(const TimeSteppingSettings& ts) {
  StepContactSettings out = ts.contacts;
  out.theta = ts.theta;
  out.max_step = ts.dt;
  return out;
}

class MoreauScheme final : public StepScheme {
 public:
  MoreauScheme(const LagrangianSystem& sys, const SimulationSettings& st, SimulationResult& res)
      : StepScheme(res),
        sys_(sys),
        st_(st),
        layer_(sys.step_contacts(layer_settings(st.time_stepping), st.solver)) {}

  void start(Vector& q, const Vector& v) override {
    res_.max_penetration = detect_and_project(sys_, *layer_, q, v, 0.0, st_);
    res_.dimension = layer_->dimension();
    layer_->name_detected();
  }

  // t_{k+1} = t_k + h with h = min(dt, t_end − t_k); the last step ends at t_end exactly.
  StepTimes times(long k, long n, double t) const override {
    const double h = std::min(st_.time_stepping.dt, st_.t_end - t);
    return {(k + 1 == n) ? st_.t_end : t + h, h};
  }

  Vector solve(const Vector& q, const Vector& v, double t, double, double h) override {
    active_ = &layer_->build(q, v, t, h);
    step_data(h);
    sol_ = layer_->solve(w_, compliance_, guess_);
    count_solve(res_, sol_, t, st_);
    return std::move(sol_.v);  // read by nothing else: the events use r and u
  }

  void check_impulses() const override {
    for (Index i = 0; i < sol_.r.size(); ++i)
      if (!std::isfinite(sol_.r[i])) {
        const Index id = active_->at(i / layer_->dimension()).id;
        const auto& names = layer_->names();
        throw NonFiniteError(fmt::format(
            "impulse of contact '{}' = {}",
            id >= 0 && id < static_cast<Index>(names.size()) ? names[id] : "?", sol_.r[i]));
      }
  }

  void settle(Vector& q, const Vector& v, double t, double h) override {
    contact_events(t);
    kept_ = ghosts(t, h);
    // contacts at the new q (projected): the next step's, and the penetration left
    res_.max_penetration =
        std::max(res_.max_penetration, detect_and_project(sys_, *layer_, q, v, t, st_));
  }

  // The step's active contacts: impulse, mode and the gap after the step (and projection).
  void record_contacts(double t) override {
    const int d = layer_->dimension();
    for (size_t a = 0; a < active_->size(); ++a) {
      const ContactHistory& cur = layer_->current()[a];
      ContactRecord rec;
      rec.t = t;
      rec.contact = cur.id;
      const ContactPlace place = layer_->place_after(static_cast<Index>(a));
      rec.gap = place.gap;
      rec.point = place.point;
      rec.normal = place.normal;
      rec.body_a = place.body_a;
      rec.body_b = place.body_b;
      rec.r_n = cur.r[0];
      rec.r_t = cur.r.segment(1, d - 1);
      rec.mode = cur.mode;
      res_.contacts.push_back(std::move(rec));
    }
  }

  void end_step() override { layer_->advance(kept_); }

  std::optional<RecordedState> take_recorded(const Vector& q, const Vector& v) override {
    return layer_->take_detected_record(q, v);
  }
  void form_records(bool on) override { layer_->form_records(on); }

  // The layer's names only grow (an id is a name's index): append the new ones.
  void finish() override {
    const auto& names = layer_->names();
    for (size_t i = res_.contact_names.size(); i < names.size(); ++i)
      res_.contact_names.push_back(names[i]);
  }

 private:
  // Newton restitution w_n = e min(u_n⁻, 0) (plastic below the Zeno velocity), softening c = γ/h
  // (ġ + γλ with λ = r/h), and the warm start of the contacts the layer matched.
  void step_data(double h) {
    const int d = layer_->dimension();
    const Index nc = static_cast<Index>(active_->size());
    w_ = Vector::Zero(d * nc);
    compliance_.resize(nc);
    guess_ = layer_->warm() ? Vector(Vector::Zero(d * nc)) : Vector();
    for (Index a = 0; a < nc; ++a) {
      const StepContact& c = (*active_)[a];
      if (c.un_minus < -st_.zeno_velocity) w_[d * a] = c.restitution * std::min(c.un_minus, 0.0);
      compliance_[a] = c.gamma / h;
      if (layer_->warm()) guess_.segment(d * a, d) = layer_->current()[a].r.head(d);
    }
  }

  // Impulses, modes and events of the step's contacts, by contact identity: impacts,
  // separations, stick/slip changes (sim_internal.hpp), from u⁺ = Hᵀv⁺ without the restitution
  // and softening terms.
  void contact_events(double t) {
    const int d = layer_->dimension();
    const Index nc = static_cast<Index>(active_->size());
    double rn_max = 0.0;
    for (Index a = 0; a < nc; ++a) rn_max = std::max(rn_max, sol_.r[d * a]);
    for (Index a = 0; a < nc; ++a) {
      const StepContact& c = (*active_)[a];
      ContactHistory& cur = layer_->current()[a];
      cur.r.setZero();
      cur.r.head(d) = sol_.r.segment(d * a, d);
      Vector3 u_plus = Vector3::Zero();
      u_plus.head(d) = sol_.u.segment(d * a, d);
      u_plus[0] -= w_[d * a] + compliance_[a] * cur.r[0];
      const bool matched = c.previous >= 0;
      const ContactMode pm = matched ? layer_->history()[c.previous].mode : ContactMode::separate;
      cur.mode =
          contact_mode(d, cur.r.data(), u_plus.data(), rn_max, st_.time_stepping.mode_velocity,
                       matched ? std::optional<ContactMode>(pm) : std::nullopt);
      push_step_event(res_, st_, t, c.id, pm, cur.mode, c.un_minus, u_plus[0], cur.r[0], c.mu,
                      c.restitution);
    }
  }

  // Closed contacts that left the index set stay as ghosts for separation_steps steps: one that
  // comes back in time continues (no separation, no impact); else its separation is reported at
  // the time it left. (Moreau–Jean's index set flickers for a contact held by a force whose gap
  // grows at second order over a step, e.g. a rotating rod's end.) Returns the ghosts' entries.
  std::vector<Index> ghosts(double t, double h) {
    std::vector<Index> kept;
    std::vector<ContactHistory>& history = layer_->history();
    for (size_t i = 0; i < history.size(); ++i) {
      ContactHistory& g = history[i];
      if (layer_->continued(i) || g.mode == ContactMode::separate) continue;
      if (g.steps_out == 0) g.left_t = t - h;
      if (++g.steps_out <= st_.time_stepping.separation_steps)
        kept.push_back(static_cast<Index>(i));
      else
        log_event(res_, st_, g.left_t, EventKind::separation, g.id,
                  [] { return "left the index set"; });
    }
    return kept;
  }

  const LagrangianSystem& sys_;
  const SimulationSettings& st_;
  const std::unique_ptr<StepContacts> layer_;
  const std::vector<StepContact>* active_ = nullptr;  // the step's index set (owned by layer_)
  StepSolution sol_;                                  // the step's solution
  Vector w_, compliance_, guess_;                     // the step's problem data (step_data)
  std::vector<Index> kept_;                           // the step's ghosts (history entries)
};

}  // namespace

std::unique_ptr<StepScheme> make_moreau_scheme(const LagrangianSystem& system,
                                               const SimulationSettings& settings,
                                               SimulationResult& result) {
  return std::make_unique<MoreauScheme>(system, settings, result);
}

}  // namespace moreau::detail
