// `moreau impact`: placeholder registration until the subcommand lands.
#include "commands.hpp"

namespace moreau::cli {

void add_impact_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("impact", "(not available yet)");
  cmd->callback([] { throw std::runtime_error("'moreau impact' is not available in this build yet"); });
}

}  // namespace moreau::cli
