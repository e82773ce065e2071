#pragma once
// Helpers shared by the frictional-contact solvers (private to src/solvers/fc).
#include <cmath>
#include <string>
#include <vector>

#include "moreau/common/error.hpp"
#include "moreau/common/first_solve_path.hpp"
#include "moreau/common/timer.hpp"
#include "moreau/problems/friction_contact.hpp"
#include "moreau/solvers/fc/local_solver.hpp"

namespace moreau::fc_detail {

// The default solver's choice (solver_choice.cpp) for a problem already validated.
std::string choose_solver_of_valid_problem(const FrictionContactProblem& p);

// Contacts up to which a problem counts as small: a Newton step's LU is cheap whatever its
// fill-in (nsgs_admm's crawl goes to Newton, choose_velocity_level_solver picks nsgs_admm).
inline constexpr Index kSmallDenseContacts = 64;

// Starting impulses: the guess if given (checked), zero otherwise.
MOREAU_FIRST_SOLVE_PATH inline Vector initial_r(const FrictionContactProblem& p,
                                                const Vector& guess) {
  const Index m = p.q.size();
  if (guess.size() == 0) return Vector::Zero(m);
  MOREAU_REQUIRE(guess.size() == m,
                 "initial guess r has {} entries, the problem has {} ({} contacts × {})",
                 guess.size(), m, p.contacts(), p.dimension);
  MOREAU_REQUIRE(all_finite(guess), "initial guess r has a NaN or infinite entry");
  return guess;
}

MOREAU_FIRST_SOLVE_PATH inline void check_common(double tolerance, int max_iterations,
                                                 double time_limit) {
  MOREAU_REQUIRE(tolerance >= 0.0, "tolerance must be ≥ 0, got {}", tolerance);
  MOREAU_REQUIRE(max_iterations >= 0, "max_iterations must be ≥ 0, got {}", max_iterations);
  MOREAU_REQUIRE(time_limit > 0.0, "time_limit must be > 0 s, got {}", time_limit);
}

// The start of every solver: the problem validated, the settings' tolerance, max_iterations and
// time_limit checked, and a result named after the solver.
template <typename Problem, typename Settings>
MOREAU_FIRST_SOLVE_PATH FrictionContactResult start(const Problem& problem,
                                                    const Settings& settings, const char* solver) {
  problem.validate();
  check_common(settings.tolerance, settings.max_iterations, settings.time_limit);
  FrictionContactResult res;
  res.solver = solver;
  return res;
}

// Diagonal blocks W_ii of every contact, read from the CSR rows.
MOREAU_FIRST_SOLVE_PATH inline std::vector<ContactBlock> diagonal_blocks(
    const FrictionContactProblem& p) {
  const int d = p.dimension;
  std::vector<ContactBlock> blocks(p.contacts());
  for (Index i = 0; i < p.contacts(); ++i) {
    Matrix3 B = Matrix3::Zero();
    for (int a = 0; a < d; ++a)
      for (SparseMatrix::InnerIterator it(p.W, d * i + a); it; ++it) {
        const Index c = it.col() - d * i;
        if (c >= 0 && c < d) B(a, c) = it.value();
      }
    blocks[i] = make_contact_block(d, B);
  }
  return blocks;
}

// Fills u = W r + q, the residual and the timing of a finished result.
MOREAU_FIRST_SOLVE_PATH inline void finish(FrictionContactResult& res,
                                           const FrictionContactProblem& p, Vector r,
                                           const Stopwatch& clock) {
  res.u = local_velocity(p, r);
  res.r = std::move(r);
  res.residual = friction_contact_residual(p, res.r, res.u);
  res.seconds = clock.seconds();
}
// The same, where the solver has just formed u = W r + q and its residual e afresh (what the
// overload above would form again, to the bit).
MOREAU_FIRST_SOLVE_PATH inline void finish(FrictionContactResult& res, Vector r, Vector u, double e,
                                           const Stopwatch& clock) {
  res.u = std::move(u);
  res.r = std::move(r);
  res.residual = e;
  res.seconds = clock.seconds();
}

// End-of-iteration bookkeeping of the iterative solvers (ADMM, global ADMM): records the residual
// eₖ of iteration k (residual_history, iterations = k) and says whether the loop stops, with the
// status, tested in this order:
//   eₖ not finite → numerical_failure (message nan_message),  eₖ ≤ ε → converged,
//   elapsed time > time_limit → time_limit.
// Otherwise returns false and leaves the status (max_iterations) as it is.
inline bool end_of_iteration(FrictionContactResult& res, int k, double e, double tolerance,
                             double time_limit, const Stopwatch& clock, const char* nan_message) {
  res.residual_history.push_back(e);
  res.iterations = k;
  if (!std::isfinite(e)) {
    res.status = Status::numerical_failure;
    res.message = nan_message;
    return true;
  }
  if (e <= tolerance) {
    res.status = Status::converged;
    return true;
  }
  if (clock.seconds() > time_limit) {
    res.status = Status::time_limit;
    return true;
  }
  return false;
}

}  // namespace moreau::fc_detail
