#pragma once
// The state of the semismooth Newton solvers (newton.cpp) on one problem, kept across the stages
// of a schedule (friction_contact_solver.cpp, run_newton). Private to src/solvers/fc.
#include <memory>

#include "moreau/solvers/fc/newton.hpp"
#include "newton_block_system.hpp"
#include "newton_components.hpp"

namespace moreau::fc_detail {

// Which route a problem's Newton systems take is a function of the problem (newton.cpp): dense
// (newton_system_is_dense), by components (newton_components.hpp, unless a stage's settings turn
// it off) or sparse. Reuse a workspace only for the same problem.
struct NewtonWorkspace {
  SparseNewtonLU sparse;  // the sparse route's J and LU
  Matrix W;               // the dense copy of W (dense route only; formed by the first stage)
  std::unique_ptr<ComponentNewtonSystem> components;  // the route by components, when taken
  bool components_decided = false;  // components was set from the problem (empty: not taken)
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
