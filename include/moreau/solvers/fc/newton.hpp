#pragma once
// Semismooth Newton methods on the whole local frictional contact problem, 2D and 3D.
//
// "newton_ac": the Alart–Curnier function (Alart & Curnier 1991; Christensen, Klarbring, Pang
// & Strömberg 1998), per contact with u = W r + q and scalings ρ_n, ρ_t > 0:
//   Φ_n = r_n − max(0, r_n − ρ_n u_n)
//   Φ_T = r_T − P_{B(0, μ max(0, r_n − ρ_n u_n))}(r_T − ρ_t u_T)
// Φ(r) = 0 iff r solves the Coulomb problem. With the generalized Jacobian ∂Φ = A + B W
// (A = ∂Φ/∂r, B = ∂Φ/∂u, block diagonal), each iteration solves (A + B W) δ = −Φ by sparse LU
// (W is not symmetric in general and A + B W never is) and backtracks on ½‖Φ‖² (Armijo).
// ρ_n = 1/W_nn, ρ_t = 1/max(W_t1t1, W_t2t2) per contact (Siconos' "spectral" choice is similar).
//
// "newton_fb": the same Newton loop on the Fischer–Burmeister function of the second-order cone
// complementarity problem in De Saxcé's form (Fukushima, Luo & Tseng 2002; Acary, Brémond &
// Huber 2018, §5.2): with x = (μ r_n, r_T) ∈ K¹ and y = (û_n/μ, u_T) ∈ K¹,
//   φ(x, y) = x + y − z,  z = (x² + y²)^{1/2}   (Jordan algebra of the Lorentz cone),
// differentiated with z² = x² + y² ⇒ L_z dz = L_x dx + L_y dy (L_a the arrow matrix of a);
// x² + y² is shifted by ε e (ε = 1e-24·scale²) so that L_z stays invertible. Contacts with μ = 0
// use the scalar FB function on (r_n, u_n) and Φ_T = r_T.
//
// Safeguards (departures from the textbook methods): when the line search stalls or the LU
// fails, a few NSGS sweeps are taken from the current iterate (a hybrid in the spirit of
// Siconos' NSN_HYBRID strategies), and the LU is retried with a tiny diagonal shift.
#include <limits>

#include "moreau/problems/friction_contact.hpp"

namespace moreau {

// Alart–Curnier's penalties (ρ_n, ρ_t) of contact i, from its diagonal block W_ii: `diagonal`
// ρ_n = 1/W_nn, ρ_t = 1/max_t W_tt; `spectral` ρ_n = ρ_t = 1/√(λ_min λ_max) of the symmetric part
// of W_ii (λ_min floored at 1e-12 λ_max). Neither is better on every problem (docs/benchmarks.md
// §FCLIB: spectral solves Capsules-i101-404 in 14 iterations where diagonal cycles, and is 4–6×
// slower on BoxesStack1 and OneObject).
enum class AlartCurnierPenalty { diagonal, spectral };

// Settings of the semismooth Newton solvers (tolerance, iterations, line search).
struct NewtonSettings {
  double tolerance = 1e-8;                                      // on friction_contact_residual
  int max_iterations = 200;                                     // Newton iterations
  double time_limit = std::numeric_limits<double>::infinity();  // s
  double armijo = 1e-4;           // sufficient decrease σ of ½‖Φ‖²
  int max_backtracks = 20;        // halvings of the step
  int nsgs_fallback_sweeps = 10;  // NSGS sweeps taken when the line search stalls (0 = none)
  // Cycle stop (0 = off): end with max_iterations ("cycling") once the residual of each of the
  // last cycle_window iterations is within 25 % of the one two iterations before, the 2-cycle in
  // which the semismooth Newton iterate can get caught (Alart–Curnier on Capsules-i101-404 from
  // iteration 9 on).
  int cycle_window = 0;
  // Penalties of the Alart–Curnier function (unused by Fischer–Burmeister).
  AlartCurnierPenalty penalty = AlartCurnierPenalty::diagonal;
  // Proximal term of the Newton system (0 = off): J + εB with ε = proximal · max diag(W) ·
  // min(1, e) (e the relative residual), the Newton step of the problem (W + εI, q − ε r) at r,
  // which has the same residual there. It keeps the system nonsingular when redundant sticking
  // contacts make W singular (face-on-face stacks) and vanishes at convergence (newton.cpp).
  double proximal = 0.0;
  // Sparse route (below): after this many Newton matrices in a row whose LU failed (a zero pivot
  // or a non-finite δ, each retried with J + shift·I), the later ones of the solve, its stages
  // included, are factorized with the shift at once (0 = never). Where W is singular J stays so
  // (FCLIB's Capsules: every iteration), and each iteration paid for the failed factorization
  // first; a singular J once is too often a passing one to change course on.
  int shift_after_singular = 2;
  // Where W's contact graph has several connected components (independent heaps, columns), J is
  // block diagonal too: solve J δ = −Φ component by component, the small ones (at most 96 rows)
  // dense, the rest as one sparse system (solvers/fc/newton_components.hpp). The same δ up to
  // rounding; false: one sparse LU of the whole J.
  bool by_components = true;
};

// The Newton system J δ = −Φ is formed and factorized dense (LU with partial pivoting) when W
// has at most kSmallNewtonRows rows, or at most kDenseNewtonRows rows and at least half of its
// entries nonzero; else sparse (sparse LU, its ordering kept across the stages of the "newton"
// schedule), component by component where W has several (NewtonSettings::by_components). Then
// the sparse
// route's symbolic work (the products B·W, the sums, the ordering, the supernodes) costs more than
// the O(m³) factorization: a mechanism's contacts all share its tree (the humanoid of bench/models:
// 6–42 rows, W full: 11 µs an iteration dense, 22 µs sparse), or one object is touched at many
// points.
inline constexpr Index kDenseNewtonRows = 192;
// Below this, dense whatever the fill: a robot's joint limits in a 3D world are frictionless
// contacts whose tangent rows are zero, so their W is sparse, but the sparse route's ordering and
// symbolic analysis of a few rows cost more than their LU (the published Panda at its limits:
// ~20 µs a Newton iteration sparse).
inline constexpr Index kSmallNewtonRows = 24;
// Whether solve_newton_ac and solve_newton_fb take the dense route on this problem (above).
bool newton_system_is_dense(const FrictionContactProblem& problem);
// How many of W's components the route by components factorizes dense (NewtonSettings::
// by_components): 0 when the route is not taken (W dense, one component, or none of at most 96
// rows).
Index newton_dense_components(const FrictionContactProblem& problem);

// Semismooth Newton on the Alart–Curnier function (registry name "newton_ac").
FrictionContactResult solve_newton_ac(const FrictionContactProblem& problem,
                                      const NewtonSettings& settings = {},
                                      const Vector& guess = Vector());

// Semismooth Newton on the Fischer–Burmeister function of the cone (registry name "newton_fb").
FrictionContactResult solve_newton_fb(const FrictionContactProblem& problem,
                                      const NewtonSettings& settings = {},
                                      const Vector& guess = Vector());

}  // namespace moreau
