#pragma once
// Nonsmooth Gauss–Seidel on the body-block global problem
// (problems/body_block_friction_contact.hpp), in velocity form: the Delassus operator W = HᵀM⁻¹H is
// never formed. The velocity
//   v = v_free + Σ_c M⁻¹H_c r_c + Σ_j M⁻¹g_j p_j
// is kept up to date, and each sweep visits every bilateral row and then every contact:
//   bilateral j:  p_j ← p_j − u_j / W_jj,                 u_j = g_jᵀv + w_j,  W_jj = g_jᵀM⁻¹g_j
//   contact c:    r_c ← exact one-contact solution of (W_cc, u_c − W_cc r_c, μ_c)
//   (local_solver.hpp)
// and adds M⁻¹(Δ) to the velocities of the (at most two) bodies involved. This is the NSGS of
// Jean (1999) and Acary & Brogliato (2008, §13.3.2) written on v instead of on W r + q, which costs
// O(d·m) per contact instead of O(d²·(contacts sharing a body)). Redundant bilateral rows are
// handled by Gauss–Seidel itself (a consistent singular system converges).
//
// Islands: the contacts and rows are split into the connected components of the contact graph
// (dynamic bodies joined by a contact or a bilateral row; fixed bodies join nothing). Islands
// share no velocity, so each is swept on its own until its own residual is below the tolerance:
// a resting island stops after a sweep or two while a colliding one goes on.
//
// Stopping: the Gauss–Seidel residual of a sweep (each row's error taken when the sweep visits
// it, before its update) is below the tolerance; the problem's residual is then computed exactly
// at the end of the sweep and must be below the tolerance too:
//   e = ‖(natural-map error of each contact, u_j of each bilateral row)‖ / max(‖q‖, ‖r‖, ‖u‖)
// with q = Hᵀv_free + w: the residual of friction_contact.hpp for the condensed problem, extended
// by the bilateral rows. Each island stops on its own share of it, eᵢ ≤ tol·√(nᵢ/n)·max(sᵢ, ‖q‖)
// (nᵢ of the n rows, sᵢ the island's own max(‖qᵢ‖, ‖rᵢ‖, ‖uᵢ‖)), which bounds the whole problem's
// residual by tol; the result's residual is the whole problem's, and `iterations` the largest
// number of sweeps of an island. The running residual is measured on the first two sweeps and
// then every 1–8 sweeps, at half the distance to tol its rate of decrease predicts (it costs as
// much as the update itself). Over-relaxation is safeguarded: when the running residual has not
// fallen over 10 sweeps, ω is pulled halfway back to 1. Both are counted in sweeps, so a solve
// is deterministic.
//
// Coarse correction (issue 35). Gauss–Seidel carries information about one contact layer per
// sweep, so on a tall stack the error that one sweep leaves in the stack's slow modes (its lean)
// builds up from step to step. After a measured sweep above the tolerance, the island's faces
// (runs of consecutive contacts with the same two bodies in the same order, as detection lists a
// manifold: ≥ 3 in space, 2 in the plane, all inside their cones, or loaded and made so by
// replacing their impulses with their rigid-field part, which keeps the wrench on one of the two
// bodies, v updated: a sweep from zero leaves a face's first corner sliding; when the correction
// is then not taken, they are restored and it is tried with the sticking faces alone) get one
// correction in the space
// of rigid linear impulse fields over each face, δr_k = J_k δc_f with J_k the contact's rows on
// one of its bodies (Mb = 6 unknowns a face, 3 in the plane): the Galerkin coarse problem
// Pᵀ(W + C)P δc = −Pᵀũ of the sticking law u = 0 (Hackbusch 1985, Multi-Grid Methods and
// Applications, §2.2; Toselli & Widlund 2005, Domain Decomposition Methods, §2.2), its matrix
// assembled from the bodies' M⁻¹ blocks (W is never formed) and factorized by sparse Cholesky.
// Faces are taken in contact order while they do not close a cycle of the body graph, so the
// coarse matrix is positive definite; on a column it is block tridiagonal. The correction is
// halved until every face contact stays in its cone (not taken after 10 halvings), so that where
// the step opens or slides some face contacts it does not hold them with pulling impulses. On
// rigid bodies a face's point velocities are a rigid function of the two bodies' twists, so on a
// resting stack (w and the softening zero, or rigid across each face) this one solve is the exact
// sticking solution whatever the height; the sweeps then settle the split among each face's
// points, which is not unique, and the contacts outside the faces. It is repeated after later
// measured sweeps above the tolerance while each one at least halves the running residual (once
// one is not taken — no face, a failed factorization, no halving in the cones — it is not tried
// again in that solve), needs a sweep left in the budget,
// counts as one iteration, and skips islands with bilateral rows.
#include <limits>

#include "moreau/problems/body_block_friction_contact.hpp"

namespace moreau {

// Settings of body-block NSGS (tolerance, sweeps, relaxation ω).
struct BodyBlockNsgsSettings {
  double tolerance = 1e-8;                                      // on the residual above
  int max_iterations = 1000;                                    // sweeps
  double time_limit = std::numeric_limits<double>::infinity();  // s
  // ω ∈ (0, 2): r_c ← P_K(ω r_c,local + (1 − ω) r_c) (over-relaxation; 1 = plain NSGS). A fixed
  // point is a solution only through the residual test, which does not depend on ω.
  double relaxation = 1.0;
  int relaxation_after = 0;  // plain sweeps (ω = 1) before ω applies: warm, easy steps stay plain
  // Threads. 1: islands one after the other, contacts in index order. ≥ 2: islands of fewer than
  // 256 contacts are solved in parallel, each in index order (the same bits as 1 thread); larger
  // islands get a coloured sweep, the contacts grouped by a greedy colouring of the contact graph
  // (two contacts sharing a dynamic body differ in colour), colour after colour, each colour's
  // contacts updated in parallel. The order depends only on the problem, so every thread count
  // ≥ 2 gives the same bits; 1 and 2 threads visit a large island's contacts in different orders
  // and agree within the tolerance.
  int threads = 1;
  // Anderson acceleration (solvers/anderson_acceleration.hpp) of the sweeps of islands of at least
  // anderson_contacts contacts, with this memory (0 = off), from the sweep after relaxation_after:
  // after each sweep the island's impulses become the combination of the last sweeps' results
  // whose differences best cancel the sweep's change, and the velocities follow (they are affine
  // in the impulses). Counted in sweeps: deterministic.
  int anderson_memory = 0;
  int anderson_contacts = 16;  // smallest island (contacts) that is accelerated
  // Crawl detection (0 = off): from this sweep on, an island whose running residual e falls at a
  // rate ρ per sweep, measured over the last stall_after/2 sweeps or more, that would need
  // log(tol/e)/log ρ sweeps, more than the budget left, stops there with status max_iterations
  // (a tall stack
  // carries one contact layer per sweep: a caller with a Newton fallback then spends its work
  // there rather than in sweeps that cannot reach the tolerance). Counted in sweeps only.
  int stall_after = 0;
  // The coarse correction above (islands without bilateral rows): off gives plain NSGS.
  bool coarse_correction = true;
};

// Result of body-block NSGS: the report, contact impulses and bilateral impulses p.
struct BodyBlockSolution : FrictionContactResult {
  Vector p;                    // bilateral impulses, one per row
  int coarse_corrections = 0;  // coarse corrections taken, summed over the islands
};

// Solves the problem from the warm start (r_guess d·nc, p_guess per bilateral row; empty = 0).
// Never throws on non-convergence: the status says why it stopped.
BodyBlockSolution solve_body_block_nsgs(const BodyBlockFrictionContactProblem& problem,
                                        const Vector& r_guess = Vector(),
                                        const Vector& p_guess = Vector(),
                                        const BodyBlockNsgsSettings& settings = {});

// v = v_free + M⁻¹(H r + G p), u = Hᵀv + w and the residual e above at (r, p) (p empty = 0);
// status converged when e ≤ tolerance.
BodyBlockSolution evaluate_body_block(const BodyBlockFrictionContactProblem& problem,
                                      const Vector& r, const Vector& p = Vector(),
                                      double tolerance = 1e-8);

}  // namespace moreau
