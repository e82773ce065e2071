// `moreau solve`: placeholder registration until the subcommand lands.
#include "commands.hpp"

namespace moreau::cli {

void add_solve_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("solve", "(not available yet)");
  cmd->callback([] { throw std::runtime_error("'moreau solve' is not available in this build yet"); });
}

}  // namespace moreau::cli
