#pragma once
// The default frictional-contact solver: what `moreau solve FILE` (no --solver), the simulators'
// "auto" and Python's default run. It is chosen from what the problem shows, before any solve:
// its size, the block sparsity of W, how strongly the contacts are coupled, and μ; the choice
// and the reason are reported (`moreau solve --json`: "solver_choice"). The rule and the figures
// it was fitted on are in docs/benchmarks.md §"The default solver".
#include <string>

#include "moreau/problems/friction_contact.hpp"

namespace moreau {

// What the default solver saw in a problem, and which solver it chose and why.
struct FrictionContactSolverChoice {
  std::string solver;         // registry name
  std::string reason;         // one sentence with the figures that decided
  Index contacts = 0;         // n_c
  double blocks_per_row = 0;  // mean count of nonzero d×d blocks in a block row of W (≥ 1)
  // max over contacts i of Σ_{j≠i} ‖W_ij‖_F / ‖W_ii‖_F: 0 for uncoupled contacts, large when a
  // contact shares its body with many others (stacks, dense W)
  double coupling = 0;
  double mu_max = 0;  // largest μ
};

// The features above and the choice (the problem is validated first).
FrictionContactSolverChoice explain_solver_choice(const FrictionContactProblem& problem);

// The default for one step of a mechanism (model/velocity_level.hpp: W = Hᵀ M⁻¹ H of a system
// with joints, solved every step from the last step's impulses): "nsgs_admm" for 2 to 64
// contacts, whose crawl goes to Newton from that warm start; otherwise the rule above. A robot
// touching the ground gives few contacts whose W has rank ≤ n_v, dense and redundant: the rule
// above sent the humanoid of bench/models to "hybrid", whose Newton stage starts from the NSGS
// iterate, and 179 of 600 steps ended above the tolerance.
std::string choose_velocity_level_solver(const FrictionContactProblem& problem);

}  // namespace moreau
