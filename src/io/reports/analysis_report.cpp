// The report of `moreau analyze` as JSON (see io/reports/analysis_report.hpp; docs/cli.md (moreau
// analyze) lists every key). The command line and the Python module both call analysis_report.
//
// Sections: system/state, contacts (all constraints, with active/sliding flags), problem (the
// acceleration-level data of contact/acceleration_problem.hpp), modes (analysis/contact_modes.hpp),
// painleve + mu_critical (analysis/painleve.hpp, primary contact) and painleve_contacts (every
// active unilateral 2D contact), sliding_lcp (the D = G + P of Brogliato 2014 (26) and its
// classification when every active unilateral contact slides), matrix_tests
// (linalg/matrix_class.hpp on the Delassus and the sliding matrix), quasi_velocities
// (analysis/kinetic_quasi_velocities.hpp) and, on request, all_sticking
// (analysis/all_sticking.hpp). A section that cannot be computed for this state (e.g. M singular
// for the mode LCP) holds {"error": "<sentence>"} instead.
//
// nlohmann::json keeps object keys sorted, so the order in which a section lists its keys does
// not show in the output.
#include <cmath>
#include <limits>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "moreau/io/reports/analysis_report.hpp"

#include "moreau/analysis/all_sticking.hpp"
#include "moreau/analysis/contact_modes.hpp"
#include "moreau/analysis/kinetic_quasi_velocities.hpp"
#include "moreau/analysis/painleve.hpp"
#include "moreau/contact/acceleration_problem.hpp"
#include "moreau/io/json/json_result.hpp"
#include "moreau/linalg/matrix_class.hpp"

namespace moreau {
namespace {

using json_io::largest_number;
using json_io::optional_number;
using json_io::require_finite_result;
using nlohmann::json;

// Numbers go in as they are: require_finite_result (io/json/json_result.hpp) refuses the report
// when one is NaN or ±∞. Only the keys docs/cli.md documents as null when not finite (μ_c = +∞,
// the P12–P14 figures where they do not apply, the all-sticking margin with no contact) go in
// through opt, as null.
json opt(double x) { return optional_number(x); }
json vec(const Vector& x) {
  json a = json::array();
  for (Index i = 0; i < x.size(); ++i) a.push_back(x[i]);
  return a;
}
json mat(const Matrix& A) {
  json a = json::array();
  for (Index i = 0; i < A.rows(); ++i) a.push_back(vec(A.row(i).transpose()));
  return a;
}
json indices(const std::vector<Index>& v) {
  json a = json::array();
  for (Index i : v) a.push_back(i);
  return a;
}

// A section of the report: what build() returns, or {"error": "<what it threw>"} when the
// section cannot be computed for this state.
template <typename Build>
json section(Build&& build) {
  try {
    return build();
  } catch (const std::exception& e) {
    return json{{"error", e.what()}};
  }
}

json matrix_tests(const Matrix& A) {
  json j;
  j["size"] = A.rows();
  j["symmetric"] = is_symmetric(A);
  j["min_symmetric_eigenvalue"] = A.size() ? min_symmetric_eigenvalue(A) : 0.0;
  j["positive_definite"] = A.size() ? is_positive_definite(A) : true;
  j["positive_semidefinite"] = A.size() ? is_positive_semidefinite(A) : true;
  if (A.rows() <= kMaxExactSize && A.rows() > 0) {
    const PMatrixTest p = p_matrix_test(A);
    j["p_matrix"] = p.is_p_matrix;
    j["min_principal_minor"] = p.min_principal_minor;
    const CopositivityTest c = copositivity_test(A);
    j["copositive"] = c.copositive;
    j["strictly_copositive"] = c.strictly_copositive;
  }
  return j;
}

json painleve_json(const PainleveResult& r, Index contact, const std::string& name, bool sliding) {
  return json{{"contact", contact},
              {"name", name},
              {"sliding", sliding},
              {"sigma", r.sigma},
              {"mu", r.mu},
              {"alpha", r.alpha},
              {"beta", r.beta},
              {"case", to_string(r.kind)},
              {"lambda_n", r.lambda_n},
              {"free_normal_acceleration", r.free_normal_acceleration},
              {"mu_critical", opt(r.mu_critical)}};
}

// contacts: every constraint i of the state, with its flags in the active set of p.
json contacts_json(const ContactState& state, const AccelerationProblem& p) {
  std::vector<bool> active(state.size(), false), sliding(state.size(), false);
  for (Index j = 0; j < p.size(); ++j) {
    active[p.active[j]] = true;
    sliding[p.active[j]] = p.sliding[j];
  }
  json contacts = json::array();
  for (Index i = 0; i < state.size(); ++i) {
    const auto& c = state.constraints[i];
    contacts.push_back(
        json{{"index", i},
             {"name", c.name},
             {"kind", c.kind == ConstraintKind::bilateral ? "bilateral" : "unilateral"},
             {"mu", c.mu},
             {"restitution", c.restitution},
             {"gap", c.gap},
             {"normal_velocity", c.normal.dot(state.v)},
             {"tangent_velocity", vec(c.tangent.transpose() * state.v)},
             {"active", static_cast<bool>(active[i])},
             {"sliding", static_cast<bool>(sliding[i])},
             {"normal", vec(c.normal)},
             {"tangent", mat(c.tangent.transpose())},
             {"normal_bias", c.normal_bias},
             {"tangent_bias", vec(c.tangent_bias)}});
  }
  return contacts;
}

// problem: the acceleration-level data (contact/acceleration_problem.hpp).
json problem_json(const AccelerationProblem& p) {
  return json{{"M", mat(p.M)},
              {"F", vec(p.F)},
              {"mass_positive_definite", p.mass_positive_definite},
              {"N", mat(p.N)},
              {"T", mat(p.T)},
              {"c_n", vec(p.c_n)},
              {"c_t", vec(p.c_t)},
              {"mu", vec(p.mu)},
              {"gamma", vec(p.gamma)},
              {"kN", vec(p.kN)},
              {"slip_direction", mat(p.slip_direction.transpose())},
              {"N_minus_muQ", mat(p.N_minus_muQ)},
              {"free_acceleration", vec(p.free_acceleration)},
              {"free_normal_acceleration", vec(p.free_normal_acceleration)},
              {"free_tangent_acceleration", vec(p.free_tangent_acceleration)},
              {"delassus_nn", mat(p.delassus_nn)},
              {"delassus_nt", mat(p.delassus_nt)},
              {"delassus_tt", mat(p.delassus_tt)},
              {"sliding_matrix", mat(p.sliding_matrix)}};
}

// modes: every consistent contact mode (analysis/contact_modes.hpp); throws if not computable.
json modes_json(const ContactState& state) {
  const ContactModeAnalysis m = contact_modes(state);
  json sols = json::array();
  for (const auto& s : m.solutions) {
    json cs = json::array();
    for (const auto& e : s.contacts)
      cs.push_back(json{{"index", e.constraint},
                        {"name", state.constraints[e.constraint].name},
                        {"mode", to_string(e.mode)},
                        {"already_sliding", e.already_sliding},
                        {"lambda_n", e.lambda_n},
                        {"lambda_t", vec(e.lambda_t)},
                        {"a_n", e.a_n},
                        {"a_t", vec(e.a_t)},
                        {"direction", vec(e.direction)}});
    sols.push_back(json{{"qddot", vec(s.qddot)}, {"contacts", cs}});
  }
  return json{{"status", std::string(to_string(m.status))},
              {"count", m.solutions.size()},
              {"unique", m.unique()},
              {"exists", m.exists()},
              {"message", m.message},
              {"solutions", sols}};
}

// painleve_contacts, painleve and mu_critical: every active unilateral contact (2D); σ = sgn v_t
// when sliding, else both σ (μ_c the smaller). The primary contact is the first sliding one,
// else the first one.
void painleve_sections(const ContactState& state, const AccelerationProblem& p, json& out) {
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
          const PainleveResult rp = painleve_single(state, i, +1),
                               rm = painleve_single(state, i, -1);
          json pjx = painleve_json(rp, i, c.name, false);
          pjx["mu_critical"] = opt(std::min(rp.mu_critical, rm.mu_critical));
          pjx["alpha_sigma_minus"] = rm.alpha;
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
  out["mu_critical"] = primary.is_null() ? json(nullptr) : opt(mu_c);
}

// The matrix-class classification of the sliding LCP (Brogliato 2014 (26); analysis/painleve.hpp).
json classification_json(const SlidingLcpClassification& cl) {
  return json{{"p_matrix", cl.p_matrix},
              {"min_principal_minor", cl.min_principal_minor},
              {"positive_definite", cl.positive_definite},
              {"min_symmetric_eigenvalue", cl.min_symmetric_eigenvalue},
              {"copositive", cl.copositive},
              {"strictly_copositive", cl.strictly_copositive},
              {"p12_mu_critical", opt(cl.p12_mu_critical)},
              {"p13_applicable", cl.p13_applicable},
              {"p13_epsilon_star", opt(cl.p13_epsilon_star)},
              {"p13_margin", opt(cl.p13_margin)},
              {"p14_value_frobenius", opt(cl.p14_value_frobenius)},
              {"p14_bound_frobenius", opt(cl.p14_bound_frobenius)},
              {"p14_margin_frobenius", opt(cl.p14_margin_frobenius)},
              {"p14_value_spectral", opt(cl.p14_value_spectral)},
              {"p14_bound_spectral", opt(cl.p14_bound_spectral)},
              {"p14_margin_spectral", opt(cl.p14_margin_spectral)}};
}

// sliding_lcp: the sliding LCP of Brogliato 2014 (26) when every active unilateral contact slides
// (2D), null otherwise.
json sliding_lcp_json(const ContactState& state, const AccelerationProblem& p) {
  if (state.dimension != 2 || p.size() == 0) return nullptr;
  std::vector<Index> bil, uni;
  bool all_sliding = true;
  for (Index j = 0; j < p.size(); ++j) {
    if (p.bilateral[j])
      bil.push_back(j);
    else {
      uni.push_back(j);
      all_sliding = all_sliding && p.sliding[j];
    }
  }
  if (uni.empty() || !all_sliding) return nullptr;
  return section([&] {
    const Index d1 = state.dimension - 1;
    const Index n = state.dofs(), nb = static_cast<Index>(bil.size()),
                nu = static_cast<Index>(uni.size());
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
    return json{{"G", mat(lcp.G)},
                {"P", mat(lcp.P)},
                {"D", mat(lcp.D)},
                {"b", vec(lcp.b)},
                {"rho", vec(lcp.rho)},
                {"xi", vec(xi)},
                {"classification", classification_json(cl)}};
  });
}

// quasi_velocities: analysis/kinetic_quasi_velocities.hpp; throws if not computable.
json quasi_velocities_json(const ContactState& state) {
  const KineticQuasiVelocities k = kinetic_quasi_velocities(state);
  const EnergySplit e = k.energy(state.v);
  return json{
      {"constraints", indices(k.constraint_index)},
      {"bilateral_count", k.bilateral_count},
      {"rho", vec(k.rho)},
      {"N", mat(k.N)},
      {"angles", mat(k.angles)},
      {"G", mat(k.G)},
      {"energy", json{{"total", e.total}, {"normal", e.normal}, {"tangential", e.tangential}}}};
}

// all_sticking: analysis/all_sticking.hpp; throws if not computable.
json all_sticking_json(const ContactState& state) {
  const AllStickingResult a = all_sticking(state);
  return json{{"status", to_string(a.status)},
              {"constraints", indices(a.constraints)},
              {"prop1", json{{"rank_J", a.prop1.rank_J},
                             {"columns", a.prop1.columns},
                             {"full_column_rank", a.prop1.full_column_rank},
                             {"kernel_condition", a.prop1.kernel_condition},
                             {"range_condition", a.prop1.range_condition},
                             {"kkt_invertible", a.prop1.kkt_invertible},
                             {"unique_acceleration", a.prop1.unique_acceleration}}},
              {"qddot", vec(a.qddot)},
              {"lambda_n", vec(a.lambda_n)},
              {"lambda_t", mat(a.lambda_t.transpose())},
              {"a_n", vec(a.a_n)},
              {"lambda_min_norm", vec(a.lambda_min_norm)},
              {"null_basis", mat(a.null_basis)},
              {"unique_acceleration", a.unique_acceleration},
              {"detaching", indices(a.detaching)},
              {"at_cone_edge", indices(a.at_cone_edge)},
              {"min_margin", opt(a.min_margin)},
              {"message", a.message}};
}

// The numbers of the state (q, v, t, M, F and the constraints' data), for the message of a
// report that is not finite.
json state_numbers(const ContactState& state) {
  json constraints = json::array();
  for (const auto& c : state.constraints)
    constraints.push_back(json{{"gap", c.gap},
                               {"normal", vec(c.normal)},
                               {"tangent", mat(c.tangent.transpose())},
                               {"normal_bias", c.normal_bias},
                               {"tangent_bias", vec(c.tangent_bias)}});
  return json{{"t", state.t},      {"q", vec(state.q)}, {"v", vec(state.v)},
              {"M", mat(state.M)}, {"F", vec(state.F)}, {"constraints", constraints}};
}

// The whole report for one state, its numbers as they are. `system` is a label for the output.
json unchecked_report(const ContactState& state, const std::string& system,
                      bool with_all_sticking) {
  state.validate();
  json out;
  out["system"] = system;
  out["dimension"] = state.dimension;
  out["t"] = state.t;
  out["q"] = vec(state.q);
  out["v"] = vec(state.v);

  const AccelerationProblem p = build_acceleration_problem(state);
  out["contacts"] = contacts_json(state, p);
  out["active"] = indices(p.active);
  out["problem"] = problem_json(p);
  out["modes"] = section([&] { return modes_json(state); });
  painleve_sections(state, p, out);
  out["sliding_lcp"] = sliding_lcp_json(state, p);

  // matrix_tests keeps the Delassus entry when only the sliding matrix fails.
  json mt;
  try {
    mt["delassus_nn"] = matrix_tests(p.delassus_nn);
    mt["sliding_matrix"] = matrix_tests(p.sliding_matrix);
  } catch (const std::exception& e) {
    mt["error"] = e.what();
  }
  out["matrix_tests"] = mt;

  out["quasi_velocities"] = section([&] { return quasi_velocities_json(state); });
  if (with_all_sticking) out["all_sticking"] = section([&] { return all_sticking_json(state); });
  return out;
}

}  // namespace

nlohmann::json analysis_report(const ContactState& state, const std::string& system,
                               bool with_all_sticking, const std::string& source) {
  json out = unchecked_report(state, system, with_all_sticking);
  require_finite_result(out, source, "analysis report",
                        fmt::format("the arithmetic overflowed (the state's largest number is {})",
                                    largest_number(state_numbers(state))));
  return out;
}

}  // namespace moreau
