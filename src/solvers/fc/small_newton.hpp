#pragma once
// A semismooth Newton finish for small problems, inside Gauss–Seidel sweeps (private to
// src/solvers/fc; used by hybrid through NsgsSettings::newton_after).
//
// On a problem of a few coupled contacts (FCLIB's Rover files: one body on 4–5 contacts, W of
// rank 6 on 12–15 rows) NSGS converges linearly, about a digit a sweep, and the sweeps' exact
// one-contact solves are most of the time. After a few sweeps the contacts' modes (separated,
// sticking, sliding and the sliding direction) are those of the solution, and the Alart–Curnier
// function Φ (newton.hpp; Alart & Curnier 1991) is smooth near it, so Newton converges in 2–4
// iterations. Each iteration here is dense and allocation-free: J = A + B W on at most
// kSmallNewtonPolishRows rows, LU with partial pivoting, Armijo's line search on ½‖Φ‖²
// (σ = 1e-4, at most 20 halvings). The stopping test is the problem's residual
// friction_contact_residual(r, W r + q) ≤ ε, the same as the sweeps'.
#include <vector>

#include "moreau/problems/friction_contact.hpp"
#include "moreau/solvers/fc/local_solver.hpp"

namespace moreau::fc_detail {

// Rows (d·n_c) up to which the finish is tried.
inline constexpr Index kSmallNewtonPolishRows = 24;

// From (r, u = W r + q): true with r, u and e (the residual) at the converged iterate when the
// residual reaches `tolerance` within max_iterations; false, r and u untouched, when it does not
// (a line search that stalls, a singular J, the budget). iterations counts the Newton
// iterations made either way.
bool small_newton_finish(const FrictionContactProblem& p, const std::vector<ContactBlock>& blocks,
                         double tolerance, int max_iterations, Vector& r, Vector& u, double& e,
                         int& iterations);

}  // namespace moreau::fc_detail
