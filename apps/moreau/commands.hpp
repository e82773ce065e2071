#pragma once
// Subcommands of the `moreau` program; each lives in its own cmd_<name>.cpp and registers itself
// on the top-level CLI11 app. A subcommand reports bad input by throwing std::invalid_argument
// (or std::runtime_error for I/O); main() prints it as one line and exits with code 2.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "moreau/io/scene/scene.hpp"

namespace moreau::cli {

void add_solve_command(CLI::App& app);     // cmd_solve.cpp    (FCLIB problems)
void add_analyze_command(CLI::App& app);   // cmd_analyze.cpp  (contact analysis)
void add_impact_command(CLI::App& app);    // cmd_impact.cpp   (impact laws)
void add_simulate_command(CLI::App& app);  // cmd_simulate.cpp (simulation)
void add_sweep_command(CLI::App& app);     // cmd_sweep.cpp    (parameter sweeps on Dask)
void add_convert_command(CLI::App& app);   // cmd_convert.cpp  (MJCF, URDF → scene JSON)
void add_view_command(CLI::App& app);      // cmd_view.cpp     (the HTML viewer of a run)

// The command nearest to a mistyped one (edit distance, or the start of exactly one name), ""
// when none is near; and the one-line message for it: "'simulat' is not a command; did you mean
// 'simulate'? (commands: solve, analyze, …)". unknown_command.cpp.
std::string nearest_command(const std::string& typed, const std::vector<std::string>& commands);
std::string unknown_command_message(const std::string& typed,
                                    const std::vector<std::string>& commands);

// --floating-base and --ground (URDF), --keyframe, --srdf, --joint and --base-pose: how simulate
// and convert place and start a model (cmd_convert.cpp).
void add_model_import_options(CLI::App& cmd, ModelImportOptions& options);

// The folder holding the Python package moreau/ (its _simulate.py): $MOREAU_PYTHON_DIR, else
// next to the program (<bin>/../python: the build tree), else the source tree
// (<bin>/../../python), else the installed package (<bin>/../lib/python3/dist-packages); "" when
// none has it. python_package.cpp.
std::string find_python_package();

// Exit code of a run that did not finish its job: a solve that did not converge, a simulation that
// diverged (a NaN or an infinity stopped it).
inline constexpr int kExitNotFinished = 1;
// Exit code for bad input (missing/malformed file, invalid parameter).
inline constexpr int kExitBadInput = 2;
// How much the commands print: 0 quiet (standard output silenced, errors and warnings on stderr
// only, no progress bar), 1 normal, 2 verbose (a simulation also lists its events). Set by the
// global flags --quiet / --verbose before a command runs.
inline int verbosity = 1;

// The exit code main() returns when a command ends without an exception: 0, kExitNotFinished for
// a diverged simulation, or 128 + the signal of an interrupted run (io/os/interrupt_guard.hpp).
inline int exit_status = 0;

}  // namespace moreau::cli
