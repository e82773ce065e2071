#pragma once
// Independent components of a local frictional-contact problem (private to src/solvers/fc).
//
// Contacts i and j are coupled when the block W_ij (or W_ji) has a nonzero entry; the connected
// components of that graph are independent problems: with the contacts numbered component by
// component, W is block diagonal, u_C = W_CC r_C + q_C reads only the component's impulses, and
// the problem's solution is the components' solutions side by side. FCLIB's CubesStack files are
// 36 and 100 columns of cubes that touch nothing but the column below; its Capsules files 32–39
// heaps. Solving each on its own lets each take the solver its own features call for and stop
// at its own convergence: a whole-problem Newton step's line search is damped by the worst
// component, and its LU orders all of them at once.
#include <vector>

#include "moreau/problems/friction_contact.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"

namespace moreau::fc_detail {

// The connected components of the contact graph of W, each as its contacts in increasing
// order, the components ordered by their first contact. One pass over W's nonzeros
// (DisjointSets).
std::vector<std::vector<Index>> contact_components(const FrictionContactProblem& p);

// The problem restricted to the given contacts (in that order): W_CC, q_C, μ_C. local[i] is
// contact i's index among `contacts` (formed once for all the components, so that K of them cost
// O(n), not O(K n)); a nonzero coupling a contact outside them throws.
FrictionContactProblem component_problem(const FrictionContactProblem& p,
                                         const std::vector<Index>& contacts,
                                         const std::vector<Index>& local);

// The default solver on a problem of several components (see the file comment): each component
// solved by `solve_one` (the default's choice for that component) from its part of the guess,
// the impulses put side by side. The result's residual is the whole problem's, e = ‖(e_C)‖ / s
// with e_C component C's natural-map error and s = max(‖q‖, ‖r‖, ‖u‖). Each component is first
// solved to the tolerance ε on its own scale s_C, which bounds e by √3 ε only (Σ e_C² ≤
// ε² Σ s_C² ≤ ε² (‖q‖² + ‖r‖² + ‖u‖²) ≤ 3 ε² s²). While e > ε (at most three times), every
// component above its share, ‖e_C‖ > ε s / √K (K components), resumes from its impulses with
// that share as its tolerance, ε_C = ε s / (√K s_C), so that Σ e_C² ≤ ε² s² up to the change of
// the scales s_C and s with the impulses (the whole residual, recomputed, decides the status).
// iterations counts whole-problem equivalents, Σ it_C n_C / n over the component solves, and
// stays within max_iterations: a component gets what is left of it (in its own iterations,
// (max_iterations n − Σ it_C n_C) / n_C, and at most max_iterations); the time limit is shared.
using ComponentSolve = FrictionContactResult (*)(const FrictionContactProblem&,
                                                 const FrictionContactSettings&, const Vector&);
FrictionContactResult solve_by_components(const FrictionContactProblem& p,
                                          const std::vector<std::vector<Index>>& components,
                                          const FrictionContactSettings& settings,
                                          const Vector& guess, ComponentSolve solve_one);

}  // namespace moreau::fc_detail
