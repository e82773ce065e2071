// The `moreau` command line program: `moreau solve|analyze|impact|simulate|sweep|view ...`.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "moreau/version.hpp"

int main(int argc, char** argv) {
  CLI::App app{"moreau: rigid multibody systems with unilateral contacts, friction and impacts"};
  app.set_version_flag("--version", "moreau " MOREAU_VERSION);
  app.require_subcommand(1);
  // --quiet / --verbose before or after the subcommand (fallthrough), set before it runs
  app.fallthrough();
  bool quiet = false, verbose = false;
  auto* q = app.add_flag("--quiet,-q", quiet,
                         "Print nothing on standard output (errors and warnings still on stderr)");
  app.add_flag("--verbose,-v", verbose, "Print more: a simulation also lists every event")
      ->excludes(q);
  app.parse_complete_callback([&] {
    moreau::cli::verbosity = quiet ? 0 : verbose ? 2 : 1;
    if (quiet && std::freopen("/dev/null", "w", stdout) == nullptr)
      std::fprintf(stderr, "moreau: --quiet: cannot silence standard output\n");
  });
  app.footer(
      "Examples:\n"
      "  moreau simulate examples/scenes/falling_pencil.json --out out/demo\n"
      "  moreau solve problem.hdf5 --compare\n"
      "  moreau analyze --gallery painleve_rod --param mu=2 theta=1.1\n"
      "  moreau impact examples/impact/ball_004.json --json\n"
      "  moreau view out/demo\n"
      "Exit codes: 0 done, 1 not converged or diverged, 2 bad input, 130/143 interrupted.\n"
      "Each command has its own --help; docs/cli.md has the details.");
  moreau::cli::add_solve_command(app);
  moreau::cli::add_analyze_command(app);
  moreau::cli::add_impact_command(app);
  moreau::cli::add_simulate_command(app);
  moreau::cli::add_sweep_command(app);
  moreau::cli::add_convert_command(app);
  moreau::cli::add_view_command(app);
  // A mistyped command (`moreau simulat`): CLI11 would say "A subcommand is required"; the
  // program has no positional argument, so the first word that is not an option names a command.
  std::vector<std::string> commands;
  for (const CLI::App* c : app.get_subcommands([](const CLI::App*) { return true; }))
    commands.push_back(c->get_name());
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    if (word.empty() || word[0] == '-') continue;
    if (std::find(commands.begin(), commands.end(), word) == commands.end()) {
      std::fprintf(stderr, "moreau: error: %s\n",
                   moreau::cli::unknown_command_message(word, commands).c_str());
      return moreau::cli::kExitBadInput;
    }
    break;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return moreau::cli::kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "moreau: error: %s\n", e.what());
    return moreau::cli::kExitBadInput;
  }
  return moreau::cli::exit_status;
}
