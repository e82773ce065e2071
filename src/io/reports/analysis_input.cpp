// Input files of `moreau analyze`; see analysis_input.hpp.
#include "moreau/io/reports/analysis_input.hpp"

#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "moreau/io/json/json_reader.hpp"

namespace moreau {
namespace {

using namespace json_io;

// One constraint of an explicit state: ∇h (n), H_t (n×(d−1)), biases, μ, e, softening.
ContactConstraint explicit_constraint(const json& c, const std::string& path, Index n, int d,
                                      std::size_t i) {
  check_keys(c, path,
             {"name", "kind", "mu", "e", "gap", "normal", "tangent", "normal_bias", "tangent_bias",
              "gamma", "baumgarte_alpha", "baumgarte_beta"});
  ContactConstraint cc;
  cc.name = string_field(c, path, "name", fmt::format("c{}", i));
  const std::string kind = string_field(c, path, "kind", "unilateral");
  MOREAU_REQUIRE(kind == "unilateral" || kind == "bilateral",
                 "{}.kind = \"{}\": must be \"unilateral\" or \"bilateral\"", path, kind);
  cc.kind = kind == "bilateral" ? ConstraintKind::bilateral : ConstraintKind::unilateral;
  cc.mu = number(c, path, "mu", 0.0);
  MOREAU_REQUIRE(cc.mu >= 0.0, "{}.mu = {}: must be ≥ 0", path, cc.mu);
  cc.restitution = number(c, path, "e", 0.0);
  cc.gap = number(c, path, "gap", 0.0);
  cc.normal_bias = number(c, path, "normal_bias", 0.0);
  cc.gamma = number(c, path, "gamma", 0.0);
  cc.baumgarte_alpha = number(c, path, "baumgarte_alpha", 0.0);
  cc.baumgarte_beta = number(c, path, "baumgarte_beta", 0.0);
  MOREAU_REQUIRE(c.contains("normal"), "{}.normal: missing required field", path);
  cc.normal = numbers(c["normal"], join(path, "normal"), n);
  const Index d1 = d - 1;
  if (!c.contains("tangent"))
    cc.tangent = Matrix::Zero(n, d1);
  else if (d1 == 1)
    cc.tangent = numbers(c["tangent"], join(path, "tangent"), n);
  else
    cc.tangent = matrix(c["tangent"], join(path, "tangent"), 2, n).transpose();
  cc.tangent_bias = c.contains("tangent_bias")
                        ? numbers(c["tangent_bias"], join(path, "tangent_bias"), d1)
                        : Vector(Vector::Zero(d1));
  return cc;
}

// M q̈ + F = Σ (∇h λ_n + H_t λ_t) at (q, v, t), given entry by entry.
ContactState explicit_state(const json& s) {
  check_keys(s, "", {"name", "description", "dimension", "M", "F", "q", "v", "t", "constraints"});
  ContactState st;
  st.dimension = int_field(s, "", "dimension", 2);
  MOREAU_REQUIRE(st.dimension == 2 || st.dimension == 3, "dimension = {}: must be 2 or 3",
                 st.dimension);
  MOREAU_REQUIRE(s.contains("M"),
                 "M: missing (give 'gallery', or explicit M, F, v and constraints)");
  st.M = matrix(s["M"], "M");
  const Index n = st.M.rows();
  MOREAU_REQUIRE(st.M.cols() == n, "M is {}×{}: must be square", n, st.M.cols());
  MOREAU_REQUIRE(s.contains("F"), "F: missing required field");
  st.F = numbers(s["F"], "F", n);
  st.q = s.contains("q") ? numbers(s["q"], "q", n) : Vector(Vector::Zero(n));
  st.v = s.contains("v") ? numbers(s["v"], "v", n) : Vector(Vector::Zero(n));
  st.t = number(s, "", "t", 0.0);
  MOREAU_REQUIRE(s.contains("constraints") && s["constraints"].is_array(),
                 "constraints: must be an array");
  for (std::size_t i = 0; i < s["constraints"].size(); ++i)
    st.constraints.push_back(explicit_constraint(
        s["constraints"][i], fmt::format("constraints[{}]", i), n, st.dimension, i));
  st.validate();
  return st;
}

// A gallery system's contact state at (q, v) of the input (`doc`; null: its initial state).
AnalysisInput gallery_state(const std::string& name, const GalleryParams& params, const json* doc) {
  auto sys = make_gallery_system(name, params);
  const Vector q =
      doc && doc->contains("q") ? numbers((*doc)["q"], "q", sys->position_size()) : sys->initial_q;
  const Vector v =
      doc && doc->contains("v") ? numbers((*doc)["v"], "v", sys->velocity_size()) : sys->initial_v;
  return {sys->contact_state(q, v, 0.0), name, "--gallery " + name};
}

AnalysisInput gallery_input(const json& s) {
  check_keys(s, "", {"name", "description", "gallery", "params", "q", "v"});
  GalleryParams params;
  if (s.contains("params")) {
    MOREAU_REQUIRE(s["params"].is_object(), "params = {}: must be an object", show(s["params"]));
    for (const auto& [k, val] : s["params"].items()) params[k] = as_number(val, "params." + k);
  }
  return gallery_state(string_field(s, "", "gallery", ""), params, &s);
}

}  // namespace

AnalysisInput analysis_input_from_gallery(const std::string& name, const GalleryParams& params) {
  return gallery_state(name, params, nullptr);
}

namespace {

// The input read and its state checked (sizes, finite entries: a gallery system's parameters can
// overflow its state), so that every error of the file starts with its source.
AnalysisInput analysis_input_from_document(const json& s, const std::string& source) {
  MOREAU_REQUIRE(s.is_object(), "an analyze input must be a JSON object");
  AnalysisInput input =
      s.contains("gallery")
          ? gallery_input(s)
          : AnalysisInput{explicit_state(s), string_field(s, "", "name", source), source};
  input.state.validate();
  input.source = source;  // the file, also for a gallery system named in it
  return input;
}

}  // namespace

AnalysisInput load_analysis_input(const std::string& path) {
  return with_source(path, [&] { return analysis_input_from_document(read_file(path), path); });
}

AnalysisInput parse_analysis_input_text(const std::string& text, const std::string& source) {
  return with_source(
      source, [&] { return analysis_input_from_document(parse_text(text, source), source); });
}

}  // namespace moreau
