// The `moreau` command line program: `moreau solve|analyze|impact|simulate ...`.
#include <cstdio>
#include <exception>
#include <stdexcept>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "moreau/version.hpp"

int main(int argc, char** argv) {
  CLI::App app{"moreau: rigid multibody systems with unilateral contacts, friction and impacts"};
  app.set_version_flag("--version", "moreau " MOREAU_VERSION);
  app.require_subcommand(1);
  moreau::cli::add_solve_command(app);
  moreau::cli::add_analyze_command(app);
  moreau::cli::add_impact_command(app);
  moreau::cli::add_simulate_command(app);
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
