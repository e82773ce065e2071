#include "moreau/sim/time_stepping.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>

#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "moreau/sim/velocity_level.hpp"
#include "sim_internal.hpp"

namespace moreau {
namespace {

// Contact identity (body pair + feature) is the constraint name; ids are handed out in order.
struct ContactIds {
  std::unordered_map<std::string, Index> ids;
  Index get(SimulationResult& res, const std::string& name) {
    auto it = ids.find(name);
    if (it != ids.end()) return it->second;
    const Index id = static_cast<Index>(res.contact_names.size());
    res.contact_names.push_back(name);
    ids.emplace(name, id);
    return id;
  }
};

// Post-stabilization (Acary & Brogliato 2008 §10.4.2, "projection onto the constraints"):
//   min ½ ΔvᵀMΔv  s.t.  g_i + ∇h_iᵀΔv ≥ 0 (unilateral, g_i < margin),  h_b + ∇h_bᵀΔv = 0,
// i.e. Δv = M⁻¹ J δ with the MLCP  0 ≤ δ_i ⊥ g_i + (JᵀM⁻¹J δ)_i ≥ 0, δ_b free, solved by
// projected Gauss–Seidel; q ← q + q̇(q, Δv), repeated while the constraints are nonlinear.
// Returns the largest violation left.
double project_positions(const LagrangianSystem& sys, Vector& q, const Vector& v, double t,
                         const SimulationSettings& st) {
  double worst = 0.0;
  for (int outer = 0; outer < 4; ++outer) {
    const ContactState s = sys.contact_state(q, v, t);
    std::vector<Index> rows;
    std::vector<bool> bil;
    worst = 0.0;
    for (Index i = 0; i < s.size(); ++i) {
      const auto& c = s.constraints[i];
      if (c.kind == ConstraintKind::bilateral) {
        worst = std::max(worst, std::abs(c.gap));
        if (std::abs(c.gap) > st.projection_tolerance) { rows.push_back(i); bil.push_back(true); }
      } else {
        worst = std::max(worst, -c.gap);
        if (c.gap < st.activation_margin) { rows.push_back(i); bil.push_back(false); }
      }
    }
    if (worst <= st.projection_tolerance || rows.empty()) return worst;
    const MassSolver mass(s.M);
    Matrix J(s.M.rows(), static_cast<Index>(rows.size()));
    Vector g(static_cast<Index>(rows.size()));
    for (std::size_t k = 0; k < rows.size(); ++k) {
      J.col(k) = s.constraints[rows[k]].normal;
      g[k] = s.constraints[rows[k]].gap;
      if (!bil[k]) g[k] -= 0.5 * st.projection_tolerance;  // aim slightly inside the admissible side
    }
    Matrix X(J.rows(), J.cols());
    for (Index k = 0; k < J.cols(); ++k) X.col(k) = mass.solve(Vector(J.col(k)));
    const Matrix A = J.transpose() * X;
    Vector delta = Vector::Zero(g.size());
    Vector w = g;
    for (int sweep = 0; sweep < 200; ++sweep) {
      double change = 0.0;
      for (Index k = 0; k < g.size(); ++k) {
        if (A(k, k) <= 1e-300) continue;
        const double rk = g[k] + A.row(k).dot(delta);
        double nd = delta[k] - rk / A(k, k);
        if (!bil[k]) nd = std::max(0.0, nd);
        change = std::max(change, std::abs(nd - delta[k]) * A(k, k));
        delta[k] = nd;
      }
      if (change < 1e-3 * st.projection_tolerance) break;
    }
    (void)w;
    const Vector dv = X * delta;
    q += sys.position_rate(q, dv);
    sys.normalize_position(q);
  }
  return worst;
}

}  // namespace

SimulationResult simulate_time_stepping(const LagrangianSystem& sys, const SimulationSettings& st,
                                        const Vector& q0, const Vector& v0,
                                        const ProgressCallback& progress) {
  SimulationResult res;
  Vector q = q0, v = v0;
  double t = 0.0;
  const double h = st.dt;
  ContactState s = sys.contact_state(q, v, t);
  detail::start_result(res, sys, "timestepping", s);
  res.contact_names.clear();
  res.force_quantity = "impulse";
  const int d = s.dimension;
  ContactIds ids;
  for (const auto& c : s.constraints) ids.get(res, c.name);

  FrictionContactSettings fcs;
  fcs.tolerance = st.solver_tolerance;
  fcs.max_iterations = st.solver_max_iterations;

  std::unordered_map<std::string, Vector> warm;      // impulses of the previous step by contact name
  std::unordered_map<std::string, std::string> prev_mode;  // by contact name
  std::unordered_map<std::string, std::pair<int, double>> ghosts;  // steps out of the index set, time left
  double emin = 0.0;
  detail::record_state(res, sys, t, q, v, emin);
  double next_record = st.record_interval;
  const long nsteps = static_cast<long>(std::ceil(st.t_end / h - 1e-9));
  int last_percent = -1;

  for (long k = 0; k < nsteps; ++k) {
    const double hk = std::min(h, st.t_end - t);
    if (k > 0) s = sys.contact_state(q, v, t);
    const MassSolver mass(s.M);
    const Vector vfree = v - mass.solve(hk * s.F);

    VelocityLevelInput in;
    std::vector<double> un_minus;
    for (Index i = 0; i < s.size(); ++i) {
      const auto& c = s.constraints[i];
      const double un = c.normal.dot(v);
      if (c.kind == ConstraintKind::bilateral) {
        in.bilateral.push_back(i);
      } else if (c.gap + 0.5 * hk * un <= st.activation_margin) {
        in.unilateral.push_back(i);
        un_minus.push_back(un);
      }
    }
    const Index nu = static_cast<Index>(in.unilateral.size());
    in.w_unilateral = Vector::Zero(d * nu);
    in.guess = Vector::Zero(d * nu);
    bool any_warm = false;
    for (Index a = 0; a < nu; ++a) {
      const auto& c = s.constraints[in.unilateral[a]];
      const double un = un_minus[a];
      const double e = (un < -st.zeno_velocity) ? c.restitution : 0.0;
      in.w_unilateral[d * a] = e * std::min(un, 0.0);
      auto it = warm.find(c.name);
      if (it != warm.end() && it->second.size() == d) {
        in.guess.segment(d * a, d) = it->second;
        any_warm = true;
      }
    }
    if (!any_warm) in.guess.resize(0);
    in.compliance = Vector::Zero(nu);  // softening γ/h (ġ + γλ with λ = r/h)
    for (Index a = 0; a < nu; ++a) in.compliance[a] = s.constraints[in.unilateral[a]].gamma / hk;
    in.w_bilateral.resize(static_cast<Index>(in.bilateral.size()));
    for (std::size_t b = 0; b < in.bilateral.size(); ++b)
      in.w_bilateral[b] = st.bilateral_feedback * s.constraints[in.bilateral[b]].gap / hk;

    const VelocityLevelSolution sol = solve_velocity_level(s, mass, vfree, in, st.solver, fcs);
    if (!sol.report.converged() && sol.report.residual > 1e3 * st.solver_tolerance) {
      ++res.solver_failures;
      if (res.solver_failures <= 20)
        res.events.push_back({t, "solver_failure", -1,
                              fmt::format("{} stopped with status {} at residual {:.3e}",
                                          sol.report.solver, to_string(sol.report.status),
                                          sol.report.residual)});
    }
    const Vector vnext = sol.v;
    q += hk * sys.position_rate(q, (1.0 - st.theta) * v + st.theta * vnext);
    sys.normalize_position(q);
    v = vnext;
    t = (k + 1 == nsteps) ? st.t_end : t + hk;
    if (st.projection) project_positions(sys, q, v, t, st);
    ++res.steps;

    // events: impacts, separations, stick/slip changes, by contact identity
    warm.clear();
    std::unordered_map<std::string, std::string> modes;
    double rn_max = 0.0;
    for (Index a = 0; a < nu; ++a) rn_max = std::max(rn_max, sol.r[d * a]);
    for (Index a = 0; a < nu; ++a) {
      const auto& c = s.constraints[in.unilateral[a]];
      const Vector ra = sol.r.segment(d * a, d);
      warm[c.name] = ra;
      const auto pit = prev_mode.find(c.name);
      const std::string pm = pit == prev_mode.end() ? "open" : pit->second;
      Vector u_plus = sol.u.segment(d * a, d);  // Hᵀv⁺ (without the restitution term)
      u_plus[0] -= in.w_unilateral[d * a] + in.compliance[a] * ra[0];
      const std::string m = detail::contact_mode(d, ra.data(), u_plus.data(), rn_max, st.mode_velocity,
                                                 pit == prev_mode.end() ? std::string() : pm);
      modes[c.name] = m;
      detail::push_step_event(res, t, ids.get(res, c.name), pm, m, un_minus[a], u_plus[0], ra[0], c.mu,
                              c.restitution, st.zeno_velocity);
    }
    // debounce (as in rigid_time_stepping.cpp): a closed contact out of the index set for at most
    // separation_steps steps keeps its mode; after that its separation is reported when it left
    for (const auto& [name, m] : modes) ghosts.erase(name);
    for (const auto& [name, m] : prev_mode) {
      if (m == "open" || modes.count(name)) continue;
      auto& [steps, left] = ghosts[name];
      if (steps == 0) left = t - hk;
      if (++steps <= st.separation_steps) {
        modes[name] = m;
      } else {
        res.events.push_back({left, "separation", ids.get(res, name), "left the index set"});
        ghosts.erase(name);
      }
    }
    prev_mode = std::move(modes);

    // penetration after projection
    const ContactState s1 = sys.contact_state(q, v, t);
    for (const auto& c : s1.constraints)
      if (c.kind == ConstraintKind::unilateral) res.max_penetration = std::max(res.max_penetration, -c.gap);

    const bool last = (k + 1 == nsteps);
    if (st.record_interval <= 0.0 || t >= next_record - 1e-12 || last) {
      detail::record_state(res, sys, t, q, v, emin);
      for (Index a = 0; a < nu; ++a) {
        const auto& c = s.constraints[in.unilateral[a]];
        ContactRecord rec;
        rec.t = t;
        rec.contact = ids.get(res, c.name);
        rec.gap = s1.size() == s.size() ? s1.constraints[in.unilateral[a]].gap : c.gap;
        rec.r_n = sol.r[d * a];
        rec.r_t = sol.r.segment(d * a + 1, d - 1);
        rec.mode = prev_mode[c.name];
        res.contacts.push_back(std::move(rec));
      }
      while (st.record_interval > 0.0 && next_record <= t + 1e-12) next_record += st.record_interval;
    }
    if (progress) {
      const int pc = static_cast<int>(100.0 * t / st.t_end);
      if (pc != last_percent) { last_percent = pc; progress(t / st.t_end); }
    }
  }
  std::stable_sort(res.events.begin(), res.events.end(),
                   [](const SimulationEvent& x, const SimulationEvent& y) { return x.t < y.t; });
  if (res.solver_failures > 0) {
    res.message = fmt::format("{} of {} steps ended without reaching the solver tolerance",
                              res.solver_failures, res.steps);
  }
  return res;
}

}  // namespace moreau
