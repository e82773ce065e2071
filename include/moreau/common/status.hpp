#pragma once
// Solver outcome. Not converging is a status, never an exception (docs/architecture.md
// §Conventions).
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace moreau {

// Outcome of a solver run (SolverReport::status).
enum class Status {
  not_run,            // the solver was not started (e.g. empty problem handled upstream)
  converged,          // residual <= tolerance
  max_iterations,     // iteration budget exhausted before the tolerance was met
  numerical_failure,  // singular pivot, NaN, line search failure, ...
  ray_termination,    // Lemke: secondary ray reached, no solution found by the method
  time_limit,         // wall-clock cap of the settings reached
  infeasible,         // the problem was proven to have no solution
};

// Name of a status ("converged", "max_iterations", …), as in files and Python.
std::string_view to_string(Status status);

// What every solver reports besides its solution.
struct SolverReport {
  std::string solver;               // name of the solver that produced the result
  Status status = Status::not_run;  // how the run ended (converged, max_iterations, …)
  int iterations = 0;               // iterations (pivots, sweeps, Newton steps) performed
  double residual = std::numeric_limits<double>::infinity();  // the problem family's residual
  std::vector<double> residual_history;                       // residual after each iteration
  double seconds = 0.0;                                       // wall time of the solve, s
  std::string message;                                        // detail for a failure, or empty

  // True when status is Status::converged.
  bool converged() const { return status == Status::converged; }
};

}  // namespace moreau
