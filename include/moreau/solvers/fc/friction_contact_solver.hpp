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

// The default proximal term of the "newton" stages (FrictionContactSettings::newton_proximal):
// where W is singular (FCLIB's Capsules heaps and box stacks: redundant contacts) J is too, and
// the step J⁻¹Φ of the 1e-10 diagonal shift that otherwise rescues its LU is dominated by an
// arbitrary null-space direction set by rounding, and the iterations are chaotic (one problem 8,
// its neighbour 160, depending on the LU's pivot order). With ε = 1e-4 w̄ min(1, e) the paths are
// those of a Levenberg–Marquardt step, the same whichever way J is factorized. auto on FCLIB
// with it and the Newton system by components (iterations, 1 Dec 2026): local_problem_test
// 151 -> 11, BoxesStack1 165 -> 35, Capsules-i122-1617 91 -> 29, -i103-990 21 -> 14,
// OneObject-i1028-138 14 -> 9; -i100-889 11 -> 32, -i100-1090 31 -> 38, CubesStack-6x6x6
// 44 -> 55; in all 607 -> 309 over the twelve problems whose iterations changed
// (docs/benchmarks.md). 1e-3 delayed Capsules-i101-404's cycle (31 -> 53).
inline constexpr double kDefaultNewtonProximal = 1e-4;

// Settings shared by every solver of the registry.
struct FrictionContactSettings {
  double tolerance = 1e-8;     // on friction_contact_residual
  int max_iterations = 10000;  // iteration budget (sweeps, Newton or ADMM steps)
  double time_limit = std::numeric_limits<double>::infinity();  // wall-clock cap, s
  // The proximal term of the "newton" solver's stages (NewtonSettings::proximal; 0 = off):
  // kDefaultNewtonProximal (above), raised to kRedundantContactsProximal by the simulators' steps.
  double newton_proximal = kDefaultNewtonProximal;
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
