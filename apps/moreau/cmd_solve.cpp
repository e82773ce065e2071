// `moreau solve FILE.hdf5`: reads an FCLIB problem (local u = W r + q, or global
// M v = H r + f, u = Hᵀ v + w), solves it with a frictional-contact solver from the registry
// (moreau/solvers/fc/friction_contact_solver.hpp) and reports status, iterations, the residual
// e = ‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖) and the time. See docs/cli.md (moreau solve).
//
// Exit codes: 0 converged (for --compare: at least one solver converged), 1 not converged,
// 2 bad input (missing or malformed file, unknown solver, invalid option; thrown to main()).
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "moreau/common/error.hpp"
#include "moreau/io/json/json_result.hpp"
#include "moreau/io/problems/fclib.hpp"
#include "moreau/io/os/interrupt_guard.hpp"
#include "moreau/io/os/keep_freed_memory.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"
#include "moreau/solvers/fc/solver_choice.hpp"

namespace moreau::cli {

namespace {

struct SolveOptions {
  std::string file;
  std::string solver = "auto";
  double tolerance = 1e-8;
  int max_iterations = FrictionContactSettings{}.max_iterations;
  double time_limit = std::numeric_limits<double>::infinity();
  bool json = false;
  bool compare = false;
  bool list_solvers = false;
  std::string write_solution;
};

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

bool contains(const std::vector<std::string>& names, const std::string& name) {
  for (const auto& n : names)
    if (n == name) return true;
  return false;
}

// Global problems: a name of the global registry other than "auto" runs on the global form;
// anything else (a local solver name, "auto") runs on the condensed problem.
std::string global_solver_name(const std::string& solver, int dimension) {
  if (starts_with(solver, "condensed:")) return solver;
  if (solver != "auto" && contains(global_friction_contact_solver_names(dimension), solver))
    return solver;
  return "condensed:" + solver;
}

FrictionContactResult run(const FclibFile& file, const std::string& solver,
                          const FrictionContactSettings& settings) {
  if (file.is_global())
    return solve_global_friction_contact(file.global, global_solver_name(solver, file.dimension()),
                                         settings);
  return solve_friction_contact(file.local, solver, settings);
}

// Names run by --compare: every solver of the problem's dimension (not "auto").
std::vector<std::string> compare_names(const FclibFile& file) {
  std::vector<std::string> names;
  const std::vector<std::string> all = file.is_global()
                                           ? global_friction_contact_solver_names(file.dimension())
                                           : friction_contact_solver_names(file.dimension());
  for (const auto& n : all)
    if (n != "auto" && n != "condensed:auto") names.push_back(n);
  return names;
}

// One solver's result. A residual that is not finite is null only where the document says so:
// for a solver that failed numerically, and in --compare's rows for any solver that did not
// converge (its status and message say why). Any other number that is not finite is refused by
// require_finite_result with the file and the field.
nlohmann::json to_json(const FrictionContactResult& r, bool compare_row = false) {
  nlohmann::json j;
  j["solver"] = r.solver;
  j["status"] = std::string(to_string(r.status));
  j["converged"] = r.converged();
  j["iterations"] = r.iterations;
  const bool may_be_null = r.status == Status::numerical_failure || (compare_row && !r.converged());
  j["residual"] = may_be_null ? json_io::optional_number(r.residual) : nlohmann::json(r.residual);
  j["seconds"] = r.seconds;
  if (!r.message.empty()) j["message"] = r.message;
  return j;
}

// "NAME(i, j) = x" (or "NAME[i] = x") of the entry largest in magnitude of the problem's data, for
// the message of a result that is not finite.
std::string largest_entry(const FclibFile& f) {
  std::string where = "none";
  double largest = -1.0;
  auto sparse = [&](const char* name, const SparseMatrix& A) {
    for (Index k = 0; k < A.outerSize(); ++k)
      for (SparseMatrix::InnerIterator it(A, k); it; ++it)
        if (std::abs(it.value()) > largest) {
          largest = std::abs(it.value());
          where = fmt::format("{}({}, {}) = {:g}", name, it.row(), it.col(), it.value());
        }
  };
  auto dense = [&](const char* name, const Vector& x) {
    for (Index i = 0; i < x.size(); ++i)
      if (std::abs(x[i]) > largest) {
        largest = std::abs(x[i]);
        where = fmt::format("{}[{}] = {:g}", name, i, x[i]);
      }
  };
  if (f.is_global()) {
    sparse("M", f.global.M);
    sparse("H", f.global.H);
    dense("f", f.global.f);
    dense("w", f.global.w);
    dense("mu", f.global.mu);
  } else {
    sparse("W", f.local.W);
    dense("q", f.local.q);
    dense("mu", f.local.mu);
  }
  return where;
}

std::string problem_line(const FclibFile& f) {
  if (f.is_global())
    return fmt::format("global, {} contacts, {}D, {} dofs (M {} nonzeros, H {} nonzeros)",
                       f.contacts(), f.dimension(), f.global.dofs(), f.global.M.nonZeros(),
                       f.global.H.nonZeros());
  return fmt::format("local, {} contacts, {}D (W {}×{}, {} nonzeros)", f.contacts(), f.dimension(),
                     f.local.W.rows(), f.local.W.cols(), f.local.W.nonZeros());
}

void list_solvers() {
  for (int d : {3, 2}) {
    fmt::print("{}D local solvers:\n", d);
    for (const auto& n : friction_contact_solver_names(d))
      fmt::print("  {:<22} {}\n", n, friction_contact_solver_description(n));
  }
  fmt::print("global solvers (3D; local names run on the condensed problem):\n");
  for (const auto& n : global_friction_contact_solver_names(3))
    fmt::print("  {:<22} {}\n", n, friction_contact_solver_description(n));
}

// Writes the problem with `result` as its /solution (r, u and, for global problems, v).
void write_solution(const std::string& out, FclibFile file, const FrictionContactResult& result) {
  FclibSolution s;
  s.r = result.r;
  s.u = result.u;
  if (file.is_global()) s.v = result.v;
  MOREAU_REQUIRE(s.r.size() == file.dimension() * file.contacts(),
                 "solver {} returned no solution to write (r has {} entries)", result.solver,
                 s.r.size());
  file.solution = std::move(s);
  if (file.info.description.empty() || file.info.description.back() != '\n')
    file.info.description += '\n';
  file.info.description += fmt::format("Solution by moreau solver {}: {}, residual {:.3e}.\n",
                                       result.solver, to_string(result.status), result.residual);
  write_fclib(out, file);
}

int execute(const SolveOptions& o) {
  keep_freed_memory();  // what the file's read frees, for the solve
  if (o.list_solvers) {
    list_solvers();
    return 0;
  }
  MOREAU_REQUIRE(!o.file.empty(), "moreau solve: give an FCLIB file (or --list-solvers)");
  MOREAU_REQUIRE(o.tolerance > 0.0 && std::isfinite(o.tolerance),
                 "--tol must be a finite number > 0, got {}", o.tolerance);
  MOREAU_REQUIRE(o.max_iterations > 0, "--max-iter must be > 0, got {}", o.max_iterations);
  MOREAU_REQUIRE(o.time_limit > 0.0, "--time-limit must be > 0 s, got {}", o.time_limit);
  MOREAU_REQUIRE(!(o.compare && !o.write_solution.empty()),
                 "--write-solution cannot be combined with --compare");

  const FclibFile file = read_fclib(o.file);
  const FrictionContactSettings settings{
      .tolerance = o.tolerance, .max_iterations = o.max_iterations, .time_limit = o.time_limit};

  // SIGINT/SIGTERM: the current solve finishes, --compare runs no further solver, what was
  // solved is reported and written, and the exit code is 128 + the signal (interrupt_guard.hpp).
  const InterruptGuard interrupt;
  std::vector<FrictionContactResult> results;
  if (o.compare) {
    MOREAU_REQUIRE(o.solver == "auto", "--compare runs every solver: drop --solver");
    for (const auto& name : compare_names(file)) {
      results.push_back(run(file, name, settings));
      if (interrupt.signal_received() != 0) break;
    }
  } else {
    results.push_back(run(file, o.solver, settings));
  }
  // Without --solver: which solver the default chose and why (on the condensed problem for a
  // global file, as "condensed:auto" solves it).
  std::optional<FrictionContactSolverChoice> choice;
  if (!o.compare && o.solver == "auto")
    choice = explain_solver_choice(file.is_global() ? condense(file.global) : file.local);
  // The reported result: the single one, or for --compare the fastest converged one.
  std::size_t best = 0;
  for (std::size_t k = 1; k < results.size(); ++k) {
    const auto &a = results[k], &b = results[best];
    // a NaN residual is the worst (a comparison with NaN is always false)
    const bool lower = std::isnan(b.residual) ? !std::isnan(a.residual) : a.residual < b.residual;
    if ((a.converged() && !b.converged()) ||
        (a.converged() == b.converged() && (a.converged() ? a.seconds < b.seconds : lower)))
      best = k;
  }
  const FrictionContactResult& main_result = results[best];

  if (!o.write_solution.empty())
    interrupt.hold_signals([&] { write_solution(o.write_solution, file, main_result); });

  if (o.json) {
    nlohmann::json j = to_json(main_result);
    j["file"] = o.file;
    j["form"] = file.is_global() ? "global" : "local";
    j["contacts"] = file.contacts();
    j["dimension"] = file.dimension();
    j["tolerance"] = o.tolerance;
    j["max_iterations"] = o.max_iterations;
    if (file.is_global()) j["dofs"] = file.global.dofs();
    if (!o.write_solution.empty()) j["solution_file"] = o.write_solution;
    if (choice)
      j["solver_choice"] = {
          {"solver", choice->solver},     {"reason", choice->reason},
          {"contacts", choice->contacts}, {"blocks_per_row", choice->blocks_per_row},
          {"coupling", choice->coupling}, {"mu_max", choice->mu_max}};
    if (o.compare) {
      j["results"] = nlohmann::json::array();
      for (const auto& r : results) j["results"].push_back(to_json(r, true));
    }
    // JSON has no NaN or infinity (nlohmann would write null): refused with the file and the field
    json_io::require_finite_result(
        j, o.file, "solve result",
        fmt::format("the arithmetic overflowed (the problem's largest entry is {})",
                    largest_entry(file)));
    std::cout << j.dump(2) << '\n';
  } else {
    fmt::print("file        {}\n", o.file);
    if (!file.info.title.empty()) fmt::print("title       {}\n", file.info.title);
    fmt::print("problem     {}\n", problem_line(file));
    if (o.compare) {
      fmt::print("tolerance   {:g}, at most {} iterations\n\n", o.tolerance, o.max_iterations);
      fmt::print("{:<24} {:<18} {:>10} {:>12} {:>10}\n", "solver", "status", "iterations",
                 "residual", "seconds");
      for (std::size_t k = 0; k < results.size(); ++k) {
        const auto& r = results[k];
        fmt::print("{:<24} {:<18} {:>10} {:>12.3e} {:>10.4f}{}\n", r.solver, to_string(r.status),
                   r.iterations, r.residual, r.seconds,
                   k == best && r.converged() ? "  fastest" : "");
      }
    } else {
      fmt::print("solver      {}\n", main_result.solver);
      if (choice) fmt::print("chosen      {}\n", choice->reason);
      fmt::print("status      {}\n", to_string(main_result.status));
      if (!main_result.message.empty()) fmt::print("message     {}\n", main_result.message);
      fmt::print("iterations  {}\n", main_result.iterations);
      fmt::print("residual    {:.3e} (tolerance {:g})\n", main_result.residual, o.tolerance);
      fmt::print("seconds     {:.4f}\n", main_result.seconds);
    }
    if (!o.write_solution.empty()) fmt::print("solution    written to {}\n", o.write_solution);
  }
  if (const int sig = interrupt.signal_received(); sig != 0) {
    std::fprintf(stderr, "moreau: interrupted after %zu solve(s)\n", results.size());
    return 128 + sig;
  }
  return main_result.converged() ? 0 : kExitNotFinished;
}

}  // namespace

void add_solve_command(CLI::App& app) {
  auto options = std::make_shared<SolveOptions>();
  auto* cmd = app.add_subcommand(
      "solve", "Solve an FCLIB frictional contact problem (HDF5, local or global form)");
  cmd->footer(
      "Examples:\n"
      "  moreau solve Box_Stacks-i0122-82-5-local.hdf5\n"
      "  moreau solve Box_Stacks-i0122-82-5-local.hdf5 --compare --max-iter 500\n"
      "  moreau solve problem.hdf5 --solver nsgs --tol 1e-10 --write-solution solved.hdf5 --json\n"
      "Exit codes: 0 converged, 1 not converged, 2 bad input, 130/143 interrupted.");
  cmd->add_option("file", options->file, "FCLIB problem file (.hdf5)");
  cmd->add_option("--solver", options->solver,
                  "Solver name (see --list-solvers); 'auto' picks one for the problem")
      ->capture_default_str();
  cmd->add_option("--tol", options->tolerance, "Tolerance on the natural-map residual")
      ->capture_default_str();
  cmd->add_option("--max-iter", options->max_iterations, "Iteration budget")->capture_default_str();
  cmd->add_option("--time-limit", options->time_limit, "Wall-clock cap per solve, seconds");
  cmd->add_flag("--json", options->json, "Print one JSON object instead of text");
  cmd->add_option("--write-solution", options->write_solution,
                  "Write the problem with the solution (r, u, v) to this FCLIB file");
  cmd->add_flag("--compare", options->compare, "Run every solver and print a table");
  cmd->add_flag("--list-solvers", options->list_solvers, "List the solver names and exit");
  cmd->callback([options] {
    const int code = execute(*options);
    std::fflush(stdout);
    std::cout.flush();
    // main() returns 0 after a successful parse; non-convergence is reported by exit code 1.
    if (code != 0) std::exit(code);
  });
}

}  // namespace moreau::cli
