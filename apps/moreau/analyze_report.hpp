#pragma once
// The report of `moreau analyze` as JSON (docs/cli.md (moreau analyze) lists every key). Header-only so
// that the command line (cmd_analyze.cpp) and the Python module (python/bind_analysis.cpp,
// moreau.analyze) produce the SAME dictionary.
//
// Sections: system/state, contacts (all constraints, with active/sliding flags), problem (the
// acceleration-level data of contact/acceleration_problem.hpp), modes (analysis/contact_modes.hpp),
// painleve + mu_critical (analysis/painleve.hpp, primary contact) and painleve_contacts (every
// active unilateral 2D contact), sliding_lcp (003's D = G + P and its classification when every
// active unilateral contact slides), matrix_tests (linalg/matrix_class.hpp on the Delassus and
// the sliding matrix), quasi_velocities (analysis/kinetic_quasi_velocities.hpp) and, on request,
// all_sticking (analysis/all_sticking.hpp). A section that cannot be computed for this state
// (e.g. M singular for the mode LCP) holds {"error": "<sentence>"} instead.
#include <cmath>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "moreau/analysis/all_sticking.hpp"
#include "moreau/analysis/contact_modes.hpp"
#include "moreau/analysis/kinetic_quasi_velocities.hpp"
#include "moreau/analysis/painleve.hpp"
#include "moreau/contact/acceleration_problem.hpp"
#include "moreau/linalg/matrix_class.hpp"

namespace moreau::report {

using nlohmann::json;

// Non-finite numbers become null (JSON has no inf/NaN); docs: null μ_c means +∞.
inline json num(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }
inline json vec(const Vector& x) {
  json a = json::array();
  for (Index i = 0; i < x.size(); ++i) a.push_back(num(x[i]));
  return a;
}
inline json mat(const Matrix& A) {
  json a = json::array();
  for (Index i = 0; i < A.rows(); ++i) a.push_back(vec(A.row(i).transpose()));
  return a;
}
inline json indices(const std::vector<Index>& v) {
  json a = json::array();
  for (Index i : v) a.push_back(i);
  return a;
}

inline json matrix_tests(const Matrix& A) {
  json j;
  j["size"] = A.rows();
  j["symmetric"] = is_symmetric(A);
  j["min_symmetric_eigenvalue"] = num(A.size() ? min_symmetric_eigenvalue(A) : 0.0);
  j["positive_definite"] = A.size() ? is_positive_definite(A) : true;
  j["positive_semidefinite"] = A.size() ? is_positive_semidefinite(A) : true;
  if (A.rows() <= kMaxExactSize && A.rows() > 0) {
    const PMatrixTest p = p_matrix_test(A);
    j["p_matrix"] = p.is_p_matrix;
    j["min_principal_minor"] = num(p.min_principal_minor);
    const CopositivityTest c = copositivity_test(A);
    j["copositive"] = c.copositive;
    j["strictly_copositive"] = c.strictly_copositive;
  }
  return j;
}

inline json painleve_json(const PainleveResult& r, Index contact, const std::string& name, bool sliding) {
  json j;
  j["contact"] = contact;
  j["name"] = name;
  j["sliding"] = sliding;
  j["sigma"] = r.sigma;
  j["mu"] = r.mu;
  j["alpha"] = num(r.alpha);
  j["beta"] = num(r.beta);
  j["case"] = to_string(r.kind);
  j["lambda_n"] = num(r.lambda_n);
  j["free_normal_acceleration"] = num(r.free_normal_acceleration);
  j["mu_critical"] = num(r.mu_critical);
  return j;
}

// The whole report for one state. `system` is a label for the output.
inline json analyze(const ContactState& state, const std::string& system, bool with_all_sticking) {
  state.validate();
  json out;
  out["system"] = system;
  out["dimension"] = state.dimension;
  out["t"] = state.t;
  out["q"] = vec(state.q);
  out["v"] = vec(state.v);

  const AccelerationProblem p = build_acceleration_problem(state);
  const Index d1 = state.dimension - 1;
  // contacts
  json contacts = json::array();
  std::vector<bool> active(state.size(), false), sliding(state.size(), false);
  for (Index j = 0; j < p.size(); ++j) {
    active[p.active[j]] = true;
    sliding[p.active[j]] = p.sliding[j];
  }
  for (Index i = 0; i < state.size(); ++i) {
    const auto& c = state.constraints[i];
    json cj;
    cj["index"] = i;
    cj["name"] = c.name;
    cj["kind"] = c.kind == ConstraintKind::bilateral ? "bilateral" : "unilateral";
    cj["mu"] = c.mu;
    cj["restitution"] = c.restitution;
    cj["gap"] = c.gap;
    cj["normal_velocity"] = c.normal.dot(state.v);
    cj["tangent_velocity"] = vec(c.tangent.transpose() * state.v);
    cj["active"] = static_cast<bool>(active[i]);
    cj["sliding"] = static_cast<bool>(sliding[i]);
    cj["normal"] = vec(c.normal);
    cj["tangent"] = mat(c.tangent.transpose());
    cj["normal_bias"] = c.normal_bias;
    cj["tangent_bias"] = vec(c.tangent_bias);
    contacts.push_back(cj);
  }
  out["contacts"] = contacts;
  out["active"] = indices(p.active);

  json pj;
  pj["M"] = mat(p.M);
  pj["F"] = vec(p.F);
  pj["mass_positive_definite"] = p.mass_positive_definite;
  pj["N"] = mat(p.N);
  pj["T"] = mat(p.T);
  pj["c_n"] = vec(p.c_n);
  pj["c_t"] = vec(p.c_t);
  pj["mu"] = vec(p.mu);
  pj["gamma"] = vec(p.gamma);
  pj["kN"] = vec(p.kN);
  pj["slip_direction"] = mat(p.slip_direction.transpose());
  pj["N_minus_muQ"] = mat(p.N_minus_muQ);
  pj["free_acceleration"] = vec(p.free_acceleration);
  pj["free_normal_acceleration"] = vec(p.free_normal_acceleration);
  pj["free_tangent_acceleration"] = vec(p.free_tangent_acceleration);
  pj["delassus_nn"] = mat(p.delassus_nn);
  pj["delassus_nt"] = mat(p.delassus_nt);
  pj["delassus_tt"] = mat(p.delassus_tt);
  pj["sliding_matrix"] = mat(p.sliding_matrix);
  out["problem"] = pj;

  // modes
  try {
    const ContactModeAnalysis m = contact_modes(state);
    json mj;
    mj["status"] = std::string(to_string(m.status));
    mj["count"] = m.solutions.size();
    mj["unique"] = m.unique();
    mj["exists"] = m.exists();
    mj["message"] = m.message;
    json sols = json::array();
    for (const auto& s : m.solutions) {
      json sj;
      sj["qddot"] = vec(s.qddot);
      json cs = json::array();
      for (const auto& e : s.contacts) {
        json ej;
        ej["index"] = e.constraint;
        ej["name"] = state.constraints[e.constraint].name;
        ej["mode"] = to_string(e.mode);
        ej["already_sliding"] = e.already_sliding;
        ej["lambda_n"] = num(e.lambda_n);
        ej["lambda_t"] = vec(e.lambda_t);
        ej["a_n"] = num(e.a_n);
        ej["a_t"] = vec(e.a_t);
        ej["direction"] = vec(e.direction);
        cs.push_back(ej);
      }
      sj["contacts"] = cs;
      sols.push_back(sj);
    }
    mj["solutions"] = sols;
    out["modes"] = mj;
  } catch (const std::exception& e) {
    out["modes"] = json{{"error", e.what()}};
  }

  // Painlevé: every active unilateral contact (2D); σ = sgn v_t when sliding, else both σ.
  json pcs = json::array();
  json primary = nullptr;
  double mu_c = std::numeric_limits<double>::quiet_NaN();
  if (state.dimension == 2) {
    for (Index j = 0; j < p.size(); ++j) {
      if (p.bilateral[j]) continue;
      const Index i = p.active[j];
      const auto& c = state.constraints[i];
      try {
        if (p.sliding[j]) {
          const PainleveResult r = painleve_single(state, i);
          json pjx = painleve_json(r, i, c.name, true);
          pcs.push_back(pjx);
          if (primary.is_null() || !primary["sliding"].get<bool>()) {
            primary = pjx;
            mu_c = r.mu_critical;
          }
        } else {
          const PainleveResult rp = painleve_single(state, i, +1), rm = painleve_single(state, i, -1);
          json pjx = painleve_json(rp, i, c.name, false);
          pjx["mu_critical"] = num(std::min(rp.mu_critical, rm.mu_critical));
          pjx["alpha_sigma_minus"] = num(rm.alpha);
          pjx["case_sigma_minus"] = to_string(rm.kind);
          pcs.push_back(pjx);
          if (primary.is_null()) {
            primary = pjx;
            mu_c = std::min(rp.mu_critical, rm.mu_critical);
          }
        }
      } catch (const std::exception& e) {
        pcs.push_back(json{{"contact", i}, {"name", c.name}, {"error", e.what()}});
      }
    }
  }
  out["painleve_contacts"] = pcs;
  out["painleve"] = primary;
  out["mu_critical"] = primary.is_null() ? json(nullptr) : num(mu_c);

  // 003's sliding LCP, when every active unilateral contact slides (2D).
  out["sliding_lcp"] = nullptr;
  if (state.dimension == 2 && p.size() > 0) {
    std::vector<Index> bil, uni;
    bool all_sliding = true;
    for (Index j = 0; j < p.size(); ++j) {
      if (p.bilateral[j]) bil.push_back(j);
      else {
        uni.push_back(j);
        all_sliding = all_sliding && p.sliding[j];
      }
    }
    if (!uni.empty() && all_sliding) {
      try {
        const Index n = state.dofs(), nb = static_cast<Index>(bil.size()), nu = static_cast<Index>(uni.size());
        Matrix W(n, nb + nu), HT(n, nu);
        Vector cn(nb + nu), mu(nu), xi(nu);
        for (Index k = 0; k < nb; ++k) {
          W.col(k) = p.N.col(bil[k]);
          cn[k] = p.c_n[bil[k]];
        }
        for (Index k = 0; k < nu; ++k) {
          const Index j = uni[k];
          W.col(nb + k) = p.N.col(j);
          cn[nb + k] = p.c_n[j];
          HT.col(k) = p.T.col(j * d1);
          mu[k] = p.mu[j];
          xi[k] = p.slip_direction(0, j) > 0 ? 1.0 : -1.0;
        }
        const SlidingContactLcp lcp = sliding_contact_lcp(state.M, state.F, W, nb, HT, cn, mu, xi);
        const SlidingLcpClassification cl = classify_sliding_lcp(lcp, mu, xi, nb);
        json lj;
        lj["G"] = mat(lcp.G);
        lj["P"] = mat(lcp.P);
        lj["D"] = mat(lcp.D);
        lj["b"] = vec(lcp.b);
        lj["rho"] = vec(lcp.rho);
        lj["xi"] = vec(xi);
        json cj;
        cj["p_matrix"] = cl.p_matrix;
        cj["min_principal_minor"] = num(cl.min_principal_minor);
        cj["positive_definite"] = cl.positive_definite;
        cj["min_symmetric_eigenvalue"] = num(cl.min_symmetric_eigenvalue);
        cj["copositive"] = cl.copositive;
        cj["strictly_copositive"] = cl.strictly_copositive;
        cj["p12_mu_critical"] = num(cl.p12_mu_critical);
        cj["p13_applicable"] = cl.p13_applicable;
        cj["p13_epsilon_star"] = num(cl.p13_epsilon_star);
        cj["p13_margin"] = num(cl.p13_margin);
        cj["p14_value_frobenius"] = num(cl.p14_value_frobenius);
        cj["p14_bound_frobenius"] = num(cl.p14_bound_frobenius);
        cj["p14_margin_frobenius"] = num(cl.p14_margin_frobenius);
        cj["p14_value_spectral"] = num(cl.p14_value_spectral);
        cj["p14_bound_spectral"] = num(cl.p14_bound_spectral);
        cj["p14_margin_spectral"] = num(cl.p14_margin_spectral);
        lj["classification"] = cj;
        out["sliding_lcp"] = lj;
      } catch (const std::exception& e) {
        out["sliding_lcp"] = json{{"error", e.what()}};
      }
    }
  }

  json mt;
  try {
    mt["delassus_nn"] = matrix_tests(p.delassus_nn);
    mt["sliding_matrix"] = matrix_tests(p.sliding_matrix);
  } catch (const std::exception& e) {
    mt["error"] = e.what();
  }
  out["matrix_tests"] = mt;

  try {
    const KineticQuasiVelocities k = kinetic_quasi_velocities(state);
    json kj;
    kj["constraints"] = indices(k.constraint_index);
    kj["bilateral_count"] = k.bilateral_count;
    kj["rho"] = vec(k.rho);
    kj["N"] = mat(k.N);
    kj["angles"] = mat(k.angles);
    kj["G"] = mat(k.G);
    const EnergySplit e = k.energy(state.v);
    kj["energy"] = json{{"total", e.total}, {"normal", e.normal}, {"tangential", e.tangential}};
    out["quasi_velocities"] = kj;
  } catch (const std::exception& e) {
    out["quasi_velocities"] = json{{"error", e.what()}};
  }

  if (with_all_sticking) {
    try {
      const AllStickingResult a = all_sticking(state);
      json aj;
      aj["status"] = to_string(a.status);
      aj["constraints"] = indices(a.constraints);
      aj["prop1"] = json{{"rank_J", a.prop1.rank_J},
                         {"columns", a.prop1.columns},
                         {"full_column_rank", a.prop1.full_column_rank},
                         {"kernel_condition", a.prop1.kernel_condition},
                         {"range_condition", a.prop1.range_condition},
                         {"kkt_invertible", a.prop1.kkt_invertible},
                         {"unique_acceleration", a.prop1.unique_acceleration}};
      aj["qddot"] = vec(a.qddot);
      aj["lambda_n"] = vec(a.lambda_n);
      aj["lambda_t"] = mat(a.lambda_t.transpose());
      aj["a_n"] = vec(a.a_n);
      aj["lambda_min_norm"] = vec(a.lambda_min_norm);
      aj["null_basis"] = mat(a.null_basis);
      aj["unique_acceleration"] = a.unique_acceleration;
      aj["detaching"] = indices(a.detaching);
      aj["at_cone_edge"] = indices(a.at_cone_edge);
      aj["min_margin"] = num(a.min_margin);
      aj["message"] = a.message;
      out["all_sticking"] = aj;
    } catch (const std::exception& e) {
      out["all_sticking"] = json{{"error", e.what()}};
    }
  }
  return out;
}

}  // namespace moreau::report
