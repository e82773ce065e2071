// `moreau impact SPEC.json [--json]`: runs an impact law on rigid bodies and point contacts
// (format in docs/cli.md (moreau impact)). Prints a short report, or the full result as JSON with
// --json.
#include <iostream>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "moreau/io/reports/impact_spec.hpp"

namespace moreau::cli {

namespace {

std::string vec(const nlohmann::json& a) {
  return fmt::format("({:.6f}, {:.6f}, {:.6f})", a[0].get<double>(), a[1].get<double>(),
                     a[2].get<double>());
}

void print_report(const nlohmann::json& r) {
  std::cout << fmt::format(
      "law {}{}: {}\n", r["law"].get<std::string>(),
      r.contains("variant") ? " (" + r["variant"].get<std::string>() + ")" : "",
      r["status"].get<std::string>());
  if (r.contains("message")) std::cout << "  " << r["message"].get<std::string>() << "\n";
  for (const auto& b : r["bodies"])
    std::cout << fmt::format("body {}: velocity {} angular velocity {}\n",
                             b["name"].get<std::string>(), vec(b["velocity"]),
                             vec(b["angular_velocity"]));
  for (size_t i = 0; i < r["contacts"].size(); ++i) {
    const auto& c = r["contacts"][i];
    std::cout << fmt::format("contact {} ({}–{}): impulse {}\n", i,
                             c["bodies"][0].get<std::string>(), c["bodies"][1].get<std::string>(),
                             vec(c["impulse"]));
    for (const auto& e : c["events"])
      std::cout << fmt::format("  {:<22} at normal impulse {:.6f}\n", e["kind"].get<std::string>(),
                               e["normal_impulse"].get<double>());
  }
  const auto& T = r["kinetic_energy"];
  std::cout << fmt::format("kinetic energy {:.6f} -> {:.6f}\n", T["before"].get<double>(),
                           T["after"].get<double>());
  if (r.contains("step"))
    std::cout << fmt::format("impulse step {:.3g}, {} steps, error estimate {}\n",
                             r["step"].get<double>(), r["steps"].get<long>(),
                             r["error_estimate"].is_null()
                                 ? std::string("n/a")
                                 : fmt::format("{:.2g}", r["error_estimate"].get<double>()));
}

}  // namespace

void add_impact_command(CLI::App& app) {
  struct Options {
    std::string spec;
    bool json = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "impact",
      "Impact of rigid bodies: compliant 3D (Jia 2010) or rigid laws (Brogliato 2014); "
      "papers in docs/references.md");
  cmd->footer(
      "Examples:\n"
      "  moreau impact examples/impact/ball_004.json\n"
      "  moreau impact examples/impact/chain3_moreau.json --json");
  cmd->add_option("spec", opt->spec, "SPEC.json describing the law, bodies and contacts")
      ->required();
  cmd->add_flag("--json", opt->json, "print the full result as JSON");
  cmd->callback([opt] {
    // io reads the file and refuses a result with a number that is not finite (the file and the
    // field named), so the document printed here holds finite numbers only.
    const nlohmann::json result = run_impact_file(opt->spec);
    if (opt->json)
      std::cout << result.dump(2) << "\n";
    else
      print_report(result);
  });
}

}  // namespace moreau::cli
