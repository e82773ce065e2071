#pragma once
// The sparse LU of the semismooth Newton solvers (newton.cpp), kept across the stages of a
// schedule (friction_contact_solver.cpp, run_newton). Private to src/solvers/fc.
#include <Eigen/SparseLU>
#include <optional>

#include "moreau/solvers/fc/newton.hpp"
#include "newton_block_system.hpp"

namespace moreau::fc_detail {

// J = A + B W has the same pattern at every iteration of Alart–Curnier and of Fischer–Burmeister
// on one problem (the block pattern of newton_block_system.hpp, set once from W by `system`), so
// its COLAMD ordering is computed once and reused by the next stage; on Capsules-i101-404 one
// analysis took 4 ms of a 30 ms two-stage solve. Reuse it only for the same problem.
// A small problem whose W is mostly nonzero is solved dense instead (newton_system_is_dense).
struct NewtonWorkspace {
  Eigen::SparseLU<Eigen::SparseMatrix<double, Eigen::ColMajor>, KeptColamdOrdering>
      lu;                      // J's factors
  bool analyzed = false;       // lu holds the ordering of system's pattern
  int singular_in_a_row = 0;   // Newton matrices whose LU failed, since the last one that did not
  bool shift_at_once = false;  // NewtonSettings::shift_after_singular reached on this problem
  std::optional<NewtonBlockSystem> system;  // J formed in place (sparse route only)
  Matrix W;  // the dense copy of W (dense route only; formed by the first stage)
};

// How a Newton run stopped by NewtonSettings::cycle_window begins its message ("cycling from
// iteration k"); the newton schedule reads it to choose its next stage.
inline constexpr const char* kCyclingMessage = "cycling";

// solve_newton_ac and solve_newton_fb with the caller's workspace.
FrictionContactResult solve_newton_ac(const FrictionContactProblem& problem,
                                      const NewtonSettings& settings, const Vector& guess,
                                      NewtonWorkspace& workspace);
FrictionContactResult solve_newton_fb(const FrictionContactProblem& problem,
                                      const NewtonSettings& settings, const Vector& guess,
                                      NewtonWorkspace& workspace);

}  // namespace moreau::fc_detail
