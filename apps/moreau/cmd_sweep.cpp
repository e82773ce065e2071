// `moreau sweep SWEEP.json [--scheduler ADDRESS] [--workers N] [--resume] [-o TABLE]`: parameter
// sweeps on Dask distributed (docs/sweeps.md). The engine is Python (python/moreau/_sweep.py, its
// main()): this command replaces itself with that interpreter (exec), so
// that Ctrl-C, the exit status and the terminal go to it directly, with PYTHONPATH set to the
// package and MOREAU_CLI to this program (each point runs `moreau simulate|impact|analyze --json`).
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "commands.hpp"

namespace moreau::cli {
namespace {

struct SweepOptions {
  std::string sweep, scheduler, out;
  int workers = 0;  // 0 = one per core
  bool resume = false;
  std::string python = "/usr/bin/python3";
};

[[noreturn]] void run(const SweepOptions& opt) {
  const std::string package = find_python_package();
  if (package.empty())
    throw std::runtime_error(
        "sweep: the Python package moreau (python/moreau/_sweep.py) was not found next to the "
        "program; set MOREAU_PYTHON_DIR to the folder that holds moreau/");
  std::error_code ec;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  const char* old_path = std::getenv("PYTHONPATH");
  const std::string path = package + (old_path && *old_path ? ":" + std::string(old_path) : "");
  setenv("PYTHONPATH", path.c_str(), 1);
  if (!ec && std::getenv("MOREAU_CLI") == nullptr) setenv("MOREAU_CLI", self.c_str(), 1);
  std::vector<std::string> args = {opt.python, "-c",
                                   "import sys, moreau._sweep as s; sys.exit(s.main(sys.argv[1:]))",
                                   opt.sweep};
  if (!opt.scheduler.empty()) args.insert(args.end(), {"--scheduler", opt.scheduler});
  if (opt.workers > 0) args.insert(args.end(), {"--workers", std::to_string(opt.workers)});
  if (opt.resume) args.push_back("--resume");
  if (!opt.out.empty()) args.insert(args.end(), {"-o", opt.out});
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  execv(opt.python.c_str(), argv.data());
  throw std::runtime_error(
      fmt::format("sweep: cannot run {}: {}", opt.python, std::strerror(errno)));
}

}  // namespace

void add_sweep_command(CLI::App& app) {
  auto opt = std::make_shared<SweepOptions>();
  auto* cmd = app.add_subcommand("sweep", "Run a parameter sweep or Monte Carlo study on Dask");
  cmd->add_option("sweep", opt->sweep, "SWEEP.json (docs/sweeps.md)")->required();
  cmd->add_option("--scheduler", opt->scheduler,
                  "address of a running Dask scheduler, e.g. tcp://host:8786 (default: a local "
                  "cluster)");
  cmd->add_option("--workers", opt->workers, "local worker processes (default: one per core)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--resume", opt->resume, "skip the points already in the table");
  cmd->add_option("-o,--out", opt->out,
                  "table, CSV (an HDF5 copy goes next to it as .h5); default <sweep>.csv");
  cmd->add_option("--python", opt->python, "Python interpreter with python3-distributed");
  cmd->footer(
      "Examples:\n"
      "  moreau sweep examples/sweeps/ball_004_mu.json -o out/ball_mu.csv\n"
      "  moreau sweep study.json --scheduler tcp://10.0.0.1:8786 --resume -o study.csv\n"
      "Ctrl-C cancels the pending points and writes the table so far (exit 130); --resume "
      "continues.");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace moreau::cli
