#pragma once
// Entry point to every frictional-contact solver by name (2D and 3D, local and global form).
// Individual solvers have their own headers and settings; this registry is what the command
// line, the Python module, the simulators and the benchmarks call.
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "moreau/problems/friction_contact.hpp"

namespace moreau {

// Settings shared by every solver of the registry.
struct FrictionContactSettings {
  double tolerance = 1e-8;     // on friction_contact_residual
  int max_iterations = 10000;  // iteration budget (sweeps, Newton or ADMM steps)
  double time_limit = std::numeric_limits<double>::infinity();  // wall-clock cap, s
  // The proximal term of the "newton" solver's stages (NewtonSettings::proximal; 0 = off). The
  // rigid time step's fallback turns it on for stacks (contact/rigid_step_contacts.cpp).
  double newton_proximal = 0.0;
  // A guess whose residual already meets the tolerance is returned as the solution, with no
  // iteration of the named solver. The dense step contacts turn it on (a mechanism at rest keeps
  // its impulses from step to step); off, each solver runs from the guess as it would (Siconos'
  // scheme is reproduced to 1e-12 that way).
  bool keep_converged_guess = false;
};

// The proximal term the simulators give the "newton" stages where contacts are redundant (face
// contacts of a column, W singular while they stick: contact/rigid_step_contacts.cpp; a robot's
// feet, W of rank ≤ n_v: model/velocity_level.cpp). 1e-3 measured on both (issue 35).
inline constexpr double kRedundantContactsProximal = 1e-3;

// Names accepted by solve_friction_contact for problems of the given dimension (2 or 3).
std::vector<std::string> friction_contact_solver_names(int dimension);
// One-line description of a solver, for `moreau solve --list-solvers`.
std::string friction_contact_solver_description(std::string_view name);

// The solver picked when the user names none: fast and robust for this problem.
std::string choose_friction_contact_solver(const FrictionContactProblem& problem);

// Solves with the named solver ("auto" = choose_friction_contact_solver). Throws
// std::invalid_argument for an unknown name or an invalid problem; non-convergence is a status.
FrictionContactResult solve_friction_contact(const FrictionContactProblem& problem,
                                             std::string_view solver,
                                             const FrictionContactSettings& settings = {},
                                             const Vector& guess = Vector());

// Condensed local form of a global problem when M is invertible:
//   W = Hᵀ M⁻¹ H,   q = Hᵀ M⁻¹ f + w.
FrictionContactProblem condense(const GlobalFrictionContactProblem& problem);

// Global problems: "condensed:<local solver>" condenses then recovers v = M⁻¹(H r + f);
// other names work on the global form directly.
std::vector<std::string> global_friction_contact_solver_names(int dimension);
// Solves a global problem with the named solver (names above); non-convergence is a status.
FrictionContactResult solve_global_friction_contact(const GlobalFrictionContactProblem& problem,
                                                    std::string_view solver,
                                                    const FrictionContactSettings& settings = {},
                                                    const Vector& guess_r = Vector());

}  // namespace moreau
