#include "mode_selection.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include <fmt/ranges.h>

namespace moreau::event {

bool ModeExclusion::allows(ContactMode mode, const Vector& s) const {
  if (mode == ContactMode::stick) return !stick;
  if (mode == ContactMode::slip) {
    if (any_slip) return false;
    if (slip.size() == s.size() && s.size() > 0 && slip.dot(s) > 0.5) return false;
  }
  return true;
}

namespace {

ClosedContacts closed_contacts(const ModeSelection& ctx, double t, const Vector& q, const Vector& v,
                               const ModeExclusions& excl) {
  ClosedContacts cc;
  cc.t = t;
  cc.q = q;
  cc.v = v;
  cc.excl = &excl;
  cc.base.assign(ctx.mu.size(), HybridMode{});
  cc.probe = ctx.dynamics(t, q, v, cc.base);
  for (Index i = 0; i < static_cast<Index>(ctx.mu.size()); ++i)
    if (ctx.unilateral[i] && cc.probe.g[i] <= 10.0 * ctx.eps_g && cc.probe.un[i] <= ctx.tol_v)
      cc.C.push_back(i);
  for (Index i : cc.C)
    cc.sliding.push_back(ctx.mu[i] > 0.0 && cc.probe.ut.col(i).norm() > ctx.tol_v);
  return cc;
}

// The state handed to analysis::contact_modes: our stabilization folded into the biases
// (c_n + 2α u_n + β² g, and c_t + 2α u_t on resting contacts, then g := 0 and per-constraint
// α = β = γ := 0) and the open contacts moved away (g := 1 + |g|), so that its equations are
// exactly those of HybridDynamics.
ContactState analysis_state(const ModeSelection& ctx, const ClosedContacts& cc) {
  ContactState a = ctx.sys.contact_state(cc.q, cc.v, cc.t);
  std::vector<bool> in_c(a.size(), false);
  for (Index i : cc.C) in_c[i] = true;
  for (Index i = 0; i < a.size(); ++i) {
    auto& c = a.constraints[i];
    if (!in_c[i]) {
      c.gamma = c.baumgarte_alpha = c.baumgarte_beta = 0.0;
      c.gap = 1.0 + std::abs(c.gap);
      continue;
    }
    const double un = c.normal.dot(cc.v);
    const Vector ut = c.tangent.transpose() * cc.v;
    const double al = baumgarte_alpha(c, ctx.st), be = baumgarte_beta(c, ctx.st);
    c.normal_bias += 2.0 * al * un + be * be * c.gap;
    c.gap = 0.0;
    if (c.mu > 0.0 && ut.norm() <= ctx.tol_v) c.tangent_bias += 2.0 * al * ut;
    c.gamma = c.baumgarte_alpha = c.baumgarte_beta = 0.0;
  }
  return a;
}

// One contact_modes solution read as hybrid modes with the degenerate alternatives of a
// switching boundary (a stick with ‖λ_t‖ = μλ_n also reads as slip opposite to λ_t; λ_n = 0 also
// reads as free), which is what the exclusions after a fired root need; filtered by the
// exclusions. Empty when some contact has no allowed alternative.
std::vector<Modes> alternatives(const ModeSelection& ctx, const ClosedContacts& cc,
                                const ContactModeSolution& sol) {
  double sc = 1.0;
  for (const auto& e : sol.contacts) sc = std::max(sc, std::abs(e.lambda_n));
  const double tb = 100.0 * ctx.tol_f * sc;  // proposal slack; consistent() decides with tol_f
  std::vector<Modes> alt(cc.C.size());
  for (std::size_t k = 0; k < cc.C.size(); ++k) {
    const Index i = cc.C[k];
    const ContactModeEntry& e = sol.contacts[k];
    Modes opts;
    if (e.mode == ContactMode::separate) {
      opts.push_back({ContactMode::separate, Vector()});
    } else {
      if (ctx.mu[i] == 0.0) {
        opts.push_back({ContactMode::slip, Vector()});
      } else if (e.mode == ContactMode::stick) {
        opts.push_back({ContactMode::stick, Vector()});
        const double lt = e.lambda_t.norm();
        if (lt > 0.0 && lt >= ctx.mu[i] * e.lambda_n - tb)
          opts.push_back({ContactMode::slip, -e.lambda_t / lt});
      } else {
        opts.push_back({ContactMode::slip, e.direction});
      }
      if (e.lambda_n <= tb) opts.push_back({ContactMode::separate, Vector()});
    }
    for (const auto& o : opts)
      if ((*cc.excl)[i].allows(o.mode, o.s)) alt[k].push_back(o);
    if (alt[k].empty()) return {};
  }
  return alt;
}

bool same_modes(const ClosedContacts& cc, const Modes& a, const Modes& b) {
  for (Index i : cc.C)
    if (a[i].mode != b[i].mode || a[i].s.size() != b[i].s.size() ||
        (b[i].s.size() > 0 && a[i].s.dot(b[i].s) < 0.5))
      return false;
  return true;
}

// The consistent assignments from analysis::contact_modes on the closed contacts: every
// combination of each solution's alternatives, verified by consistent(). Bilateral constraints
// are active in every solution and always held by the dynamics; they take no part here. Sets
// `unsupported` when contact_modes refuses the state (its limits, or a state it does not take).
void modes_by_analysis(const ModeSelection& ctx, const ClosedContacts& cc,
                       std::vector<Modes>& found, std::string& unsupported) {
  if (cc.C.empty()) {
    if (consistent(ctx, cc, cc.base)) found.push_back(cc.base);
    return;
  }
  ContactModeAnalysis an;
  try {
    an = contact_modes(analysis_state(ctx, cc), ctx.limits);
  } catch (const std::invalid_argument& e) {
    unsupported = fmt::format(
        "the mode choice at t = {} s with {} closed contacts failed: {}; use the time-stepping "
        "integrator",
        cc.t, cc.C.size(), e.what());
    return;
  }
  std::vector<std::size_t> entry;  // per closed contact: its entry in each solution
  for (std::size_t j = 0; j < an.active.size(); ++j)
    if (ctx.unilateral[an.active[j]]) entry.push_back(j);
  bool same_set = entry.size() == cc.C.size();
  for (std::size_t k = 0; same_set && k < cc.C.size(); ++k)
    same_set = an.active[entry[k]] == cc.C[k];
  if (!same_set) {
    unsupported = fmt::format(
        "the mode choice at t = {} s: the contacts closed at this state ({}) are not those that "
        "contact_modes takes as active ({} with bilateral constraints)",
        cc.t, fmt::join(cc.C, ", "), fmt::join(an.active, ", "));
    return;
  }
  for (const auto& sol : an.solutions) {
    ContactModeSolution closed;
    for (std::size_t j : entry) closed.contacts.push_back(sol.contacts[j]);
    const std::vector<Modes> alt = alternatives(ctx, cc, closed);
    if (alt.empty()) continue;
    std::vector<std::size_t> idx(cc.C.size(), 0);
    while (true) {
      Modes trial = cc.base;
      for (std::size_t k = 0; k < cc.C.size(); ++k) trial[cc.C[k]] = alt[k][idx[k]];
      const bool seen = std::any_of(found.begin(), found.end(),
                                    [&](const Modes& cm) { return same_modes(cc, cm, trial); });
      if (!seen && consistent(ctx, cc, trial)) found.push_back(trial);
      std::size_t k = 0;
      while (k < cc.C.size() && ++idx[k] == alt[k].size()) {
        idx[k] = 0;
        ++k;
      }
      if (k == cc.C.size()) break;
    }
  }
}

// Painlevé's table (docs/math/painleve.md): sliding contact with both slip and separation
// consistent and α = S_ii < 0 → case 4 (indeterminacy), choose separation.
void painleve_case_4(const ModeSelection& ctx, const ClosedContacts& cc,
                     const std::vector<Modes>& found, ModeChoice& out) {
  for (std::size_t k = 0; k < cc.C.size(); ++k) {
    const Index i = cc.C[k];
    if (!cc.sliding[k]) continue;
    const Vector ut = cc.probe.ut.col(i);
    const HybridMode slip{ContactMode::slip, ut / ut.norm()};
    if (!(*cc.excl)[i].allows(slip.mode, slip.s)) continue;
    bool slip_ok = false, free_ok = false;
    Modes free_choice;
    for (const auto& cm : found) {
      if (cm[i].mode == ContactMode::slip) slip_ok = true;
      if (cm[i].mode == ContactMode::separate) {
        free_ok = true;
        free_choice = cm;
      }
    }
    if (!(slip_ok && free_ok)) continue;
    Modes trial = cc.base;
    trial[i] = slip;
    const Dynamics dy = ctx.dynamics(cc.t, cc.q, cc.v, trial);
    // Both consistent with α ≥ 0 is no Painlevé situation: redundant contacts (a face resting on
    // its corners), where separating one contact or sliding it is the same motion.
    if (!(dy.S_min_diag < 0.0)) continue;
    out.painleve = fmt::format(
        "case 4 (indeterminacy): alpha = {:.6g} < 0, beta = {:.6g} < 0; policy: separation",
        dy.S_min_diag, -cc.probe.an[i]);
    out.painleve_case = 4;
    out.painleve_contact = i;
    out.modes = free_choice;
  }
}

// Painlevé case 3 (inconsistency): no consistent mode while some closed contact slides
// (α = S_ii < 0 of the last sliding contact, β = −a_n of the free motion > 0).
void painleve_case_3(const ModeSelection& ctx, const ClosedContacts& cc, ModeChoice& out) {
  Index i = -1;
  for (std::size_t k = 0; k < cc.C.size(); ++k)
    if (cc.sliding[k]) i = cc.C[k];
  if (i < 0) return;
  Modes trial = cc.base;
  for (std::size_t k = 0; k < cc.C.size(); ++k) {
    const Vector ut = cc.probe.ut.col(cc.C[k]);
    if (cc.sliding[k]) trial[cc.C[k]] = {ContactMode::slip, ut / ut.norm()};
  }
  const Dynamics dy = ctx.dynamics(cc.t, cc.q, cc.v, trial);
  out.painleve = fmt::format(
      "case 3 (inconsistency) at contact {}: alpha = {:.6g} < 0, beta = {:.6g} > 0; "
      "no rigid-body solution",
      i, dy.S_min_diag, -cc.probe.an[i]);
  out.painleve_case = 3;
  out.painleve_contact = i;
}

}  // namespace

bool consistent(const ModeSelection& ctx, const ClosedContacts& cc, const Modes& trial) {
  const Dynamics dy = ctx.dynamics(cc.t, cc.q, cc.v, trial);
  bool ok = dy.consistent;
  // force scale for the tolerances (a system may have no constraint at all)
  const double sc = std::max(1.0, dy.lambda_n.size() > 0 ? dy.lambda_n.cwiseAbs().maxCoeff() : 0.0);
  const double tol_f = ctx.tol_f;
  for (std::size_t k = 0; ok && k < cc.C.size(); ++k) {
    const Index i = cc.C[k];
    const auto& md = trial[i];
    if (md.mode == ContactMode::separate) {
      ok = dy.an[i] >= -1e-8 * std::max(1.0, dy.a.cwiseAbs().maxCoeff());
    } else if (md.mode == ContactMode::stick) {
      ok = dy.lambda_n[i] >= -tol_f * sc &&
           dy.lambda_t.col(i).norm() <= ctx.mu[i] * dy.lambda_n[i] + tol_f * sc;
    } else {
      ok = dy.lambda_n[i] >= -tol_f * sc;
      if (ok && !cc.sliding[k] && md.s.size() > 0)
        ok = md.s.dot(dy.at.col(i)) >= -1e-8 * std::max(1.0, dy.a.cwiseAbs().maxCoeff()) &&
             dy.lambda_n[i] > tol_f * sc;
    }
  }
  return ok;
}

ModeChoice choose_modes(const ModeSelection& ctx, double t, const Vector& q, const Vector& v,
                        const ModeExclusions& excl) {
  const ClosedContacts cc = closed_contacts(ctx, t, q, v, excl);
  ModeChoice out;
  std::vector<Modes> found;
  modes_by_analysis(ctx, cc, found, out.unsupported);
  if (!out.unsupported.empty()) return out;
  int best_score = -1;
  for (const auto& trial : found) {
    int score = 0;
    for (Index i : cc.C)
      score +=
          trial[i].mode == ContactMode::stick ? 100 : (trial[i].mode == ContactMode::slip ? 1 : 0);
    if (score > best_score) {
      best_score = score;
      out.modes = trial;
      out.ok = true;
    }
  }
  painleve_case_4(ctx, cc, found, out);
  if (!out.ok) painleve_case_3(ctx, cc, out);
  return out;
}

}  // namespace moreau::event
