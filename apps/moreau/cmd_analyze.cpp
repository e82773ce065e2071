// `moreau analyze (SCENE.json | --gallery NAME [--param key=value ...]) [--json] [--all-sticking]`:
// contact analysis of one state (issue 3): active contacts, acceleration-level problem matrices
// (as Drake's ConstraintAccelProblemData), contact modes, the Painlevé case with α, β and μ_c
// (docs/math/painleve.md), the sliding LCP of Brogliato 2014 (26) with its matrix-class tests
// and, with --all-sticking, the all-sticking problem of Brogliato, Kövecses & Acary 2020
// (docs/references.md). The JSON keys are listed in docs/cli.md (moreau analyze).
//
// Input files: io/reports/analysis_input.hpp.
// Bad input: one line naming the field and value, exit code 2 (main.cpp).
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "moreau/common/error.hpp"
#include "moreau/io/reports/analysis_input.hpp"
#include "moreau/io/reports/analysis_report.hpp"
#include "moreau/contact/gallery.hpp"

namespace moreau::cli {
namespace {

using nlohmann::json;

double parse_number(const std::string& field, const std::string& text) {
  std::size_t pos = 0;
  double x = 0.0;
  try {
    x = std::stod(text, &pos);
  } catch (const std::exception&) {
    throw_invalid("{}: value '{}' is not a number", field, text);
  }
  MOREAU_REQUIRE(pos == text.size(), "{}: value '{}' is not a number", field, text);
  MOREAU_REQUIRE(std::isfinite(x), "{}: value '{}' must be finite", field, text);
  return x;
}

void print_text(const json& r, std::FILE* out) {
  fmt::print(out, "system {} (d = {}), t = {}\n", r["system"].get<std::string>(),
             r["dimension"].get<int>(), r["t"].get<double>());
  fmt::print(out, "q = {}\nv = {}\n", r["q"].dump(), r["v"].dump());
  fmt::print(out, "contacts:\n");
  for (const auto& c : r["contacts"])
    fmt::print(out, "  [{}] {:<16} {:<10} mu={:<6} gap={:<12.6g} vn={:<12.6g} vt={} {}{}\n",
               c["index"].get<int>(), c["name"].get<std::string>(), c["kind"].get<std::string>(),
               c["mu"].get<double>(), c["gap"].get<double>(), c["normal_velocity"].get<double>(),
               c["tangent_velocity"].dump(), c["active"].get<bool>() ? "active" : "inactive",
               c["sliding"].get<bool>() ? " sliding" : "");
  const json& p = r["problem"];
  fmt::print(out, "problem (active contacts {}):\n", r["active"].dump());
  fmt::print(out, "  M = {}\n  F = {}\n", p["M"].dump(), p["F"].dump());
  fmt::print(out, "  Delassus N M⁻¹ N = {}\n  N M⁻¹ T = {}\n  T M⁻¹ T = {}\n",
             p["delassus_nn"].dump(), p["delassus_nt"].dump(), p["delassus_tt"].dump());
  fmt::print(out, "  sliding matrix N M⁻¹ (N − μQ) = {}\n", p["sliding_matrix"].dump());
  fmt::print(out, "  free acceleration = {}\n  free normal acceleration = {}\n",
             p["free_acceleration"].dump(), p["free_normal_acceleration"].dump());
  const json& m = r["modes"];
  if (m.contains("error")) {
    fmt::print(out, "modes: not computed ({})\n", m["error"].get<std::string>());
  } else {
    fmt::print(out, "modes: {} solution(s) ({})\n", m["count"].get<int>(),
               m["status"].get<std::string>());
    int k = 0;
    for (const auto& s : m["solutions"]) {
      fmt::print(out, "  solution {}: q̈ = {}\n", k++, s["qddot"].dump());
      for (const auto& e : s["contacts"])
        fmt::print(out, "    [{}] {:<16} {:<8} λn = {:<12.6g} λt = {} an = {:.6g}\n",
                   e["index"].get<int>(), e["name"].get<std::string>(),
                   e["mode"].get<std::string>(), e["lambda_n"].get<double>(), e["lambda_t"].dump(),
                   e["a_n"].get<double>());
    }
  }
  if (r["painleve"].is_null()) {
    fmt::print(out, "painleve: no active unilateral 2D contact\n");
  } else {
    const json& pj = r["painleve"];
    fmt::print(
        out, "painleve (contact {}, {}, sigma = {}): alpha = {}, beta = {}, case = {}, mu_c = {}\n",
        pj["contact"].get<int>(), pj["sliding"].get<bool>() ? "sliding" : "not sliding",
        pj["sigma"].get<int>(), pj["alpha"].dump(), pj["beta"].dump(),
        pj["case"].get<std::string>(),
        r["mu_critical"].is_null() ? std::string("inf") : r["mu_critical"].dump());
  }
  if (!r["sliding_lcp"].is_null() && !r["sliding_lcp"].contains("error")) {
    const json& l = r["sliding_lcp"];
    fmt::print(out, "sliding LCP (Brogliato 2014 (26)): D = {}, b = {}\n  classification: {}\n",
               l["D"].dump(), l["b"].dump(), l["classification"].dump());
  }
  fmt::print(out, "matrix tests: {}\n", r["matrix_tests"].dump());
  if (r["quasi_velocities"].contains("error"))
    fmt::print(out, "quasi-velocities: not computed ({})\n",
               r["quasi_velocities"]["error"].get<std::string>());
  else
    fmt::print(out, "quasi-velocities: rho = {}, N = {}, G = {}\n",
               r["quasi_velocities"]["rho"].dump(), r["quasi_velocities"]["N"].dump(),
               r["quasi_velocities"]["G"].dump());
  if (r.contains("all_sticking")) {
    const json& a = r["all_sticking"];
    if (a.contains("error"))
      fmt::print(out, "all-sticking: not computed ({})\n", a["error"].get<std::string>());
    else
      fmt::print(
          out,
          "all-sticking: {} (q̈ = {}, λn = {}, λt = {}, detaching {}, at cone edge {}, margin {})\n",
          a["status"].get<std::string>(), a["qddot"].dump(), a["lambda_n"].dump(),
          a["lambda_t"].dump(), a["detaching"].dump(), a["at_cone_edge"].dump(),
          a["min_margin"].dump());
  }
}

}  // namespace

void add_analyze_command(CLI::App& app) {
  struct Options {
    std::string scene, gallery;
    std::vector<std::string> params;
    bool json = false, all_sticking = false, list = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd =
      app.add_subcommand("analyze", "contact analysis of one state: modes, Painlevé, all-sticking");
  cmd->footer(
      "Examples:\n"
      "  moreau analyze --gallery painleve_rod --param mu=2 theta=1.1071487\n"
      "  moreau analyze examples/scenes/analysis/two_finger.json --all-sticking --json\n"
      "  moreau analyze --list");
  cmd->add_option("scene", opt->scene,
                  "scene JSON file (gallery form or explicit M, F, constraints)");
  cmd->add_option("--gallery,-g", opt->gallery, "gallery system name (see --list)");
  // --param a=1 b=2 and --param a=1 --param b=2 alike (a scene file cannot follow: --param needs
  // --gallery, which excludes one)
  cmd->add_option("--param,-p", opt->params,
                  "gallery parameters key=value, several after one --param or repeated")
      ->allow_extra_args(true);
  cmd->add_flag("--json", opt->json, "print the report as JSON");
  cmd->add_flag("--all-sticking", opt->all_sticking,
                "also solve the all-sticking problem (Brogliato, Kövecses & Acary 2020)");
  cmd->add_flag("--list", opt->list, "list the gallery systems and their parameters");
  cmd->callback([opt] {
    if (opt->list) {
      for (const auto& e : gallery_catalog()) {
        fmt::print("{}: {}\n", e.name, e.description);
        for (const auto& p : e.parameters)
          fmt::print("    {:<18} = {:<10g} {}\n", p.name, p.default_value, p.description);
      }
      return;
    }
    MOREAU_REQUIRE(opt->scene.empty() != opt->gallery.empty(),
                   "analyze: give exactly one of SCENE.json or --gallery NAME");
    MOREAU_REQUIRE(opt->gallery.size() || opt->params.empty(), "analyze: --param needs --gallery");
    AnalysisInput loaded;
    if (!opt->gallery.empty()) {
      GalleryParams params;
      for (const auto& kv : opt->params) {
        const auto eq = kv.find('=');
        MOREAU_REQUIRE(eq != std::string::npos && eq > 0,
                       "--param '{}' must have the form key=value", kv);
        const std::string key = kv.substr(0, eq);
        params[key] = parse_number(fmt::format("--param {}", key), kv.substr(eq + 1));
      }
      loaded = analysis_input_from_gallery(opt->gallery, params);
    } else {
      loaded = load_analysis_input(opt->scene);
    }
    // io refuses a report with a number that is not finite (the file and the field named)
    const json report =
        analysis_report(loaded.state, loaded.label, opt->all_sticking, loaded.source);
    if (opt->json)
      std::cout << report.dump(2) << "\n";
    else
      print_text(report, stdout);
  });
}

}  // namespace moreau::cli
