// `moreau analyze`: placeholder registration until the subcommand lands.
#include "commands.hpp"

namespace moreau::cli {

void add_analyze_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("analyze", "(not available yet)");
  cmd->callback([] { throw std::runtime_error("'moreau analyze' is not available in this build yet"); });
}

}  // namespace moreau::cli
