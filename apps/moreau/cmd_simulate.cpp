// `moreau simulate`: placeholder registration until the subcommand lands.
#include "commands.hpp"

namespace moreau::cli {

void add_simulate_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("simulate", "(not available yet)");
  cmd->callback([] { throw std::runtime_error("'moreau simulate' is not available in this build yet"); });
}

}  // namespace moreau::cli
