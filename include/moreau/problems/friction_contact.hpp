#pragma once
// Frictional contact problems, 2D and 3D, in the form FCLIB and Siconos use
// (docs/math/frictional_contact.md). Contact vectors are normal first: [r_n, r_t1(, r_t2)].
//
// Local form: given the Delassus operator W, the free velocity q and μ, find (u, r) with
//   u = W r + q,   û = u + Σ_i μ_i ‖u_{T,i}‖ e_{n,i},   K_μ ∋ r ⊥ û ∈ K*_μ   (each contact i)
// Global form: given M, H, f, w, μ, find (v, u, r) with
//   M v = H r + f,   u = Hᵀ v + w,   and the same cone complementarity on (r, û).
#include "moreau/common/status.hpp"
#include "moreau/common/types.hpp"

namespace moreau {

// Local frictional contact problem: W, q and μ (FCLIB local form).
struct FrictionContactProblem {
  int dimension = 3;  // 2 or 3: entries per contact
  SparseMatrix W;     // Delassus operator, (d·nc)×(d·nc), m/s per N·s
  Vector q;           // free local velocity, d·nc, m/s
  Vector mu;          // friction coefficient per contact, nc, ≥ 0

  // nc, the number of contacts.
  Index contacts() const { return mu.size(); }
  // Throws std::invalid_argument naming the field and value: sizes, d ∉ {2,3}, μ < 0, NaN.
  void validate() const;
};

// Global frictional contact problem: M, H, f, w and μ (FCLIB global form).
struct GlobalFrictionContactProblem {
  int dimension = 3;  // 2 or 3
  SparseMatrix M;     // mass matrix, n×n
  SparseMatrix H;     // n×(d·nc), transpose of the contact Jacobian
  Vector f;           // n, applied impulse term
  Vector w;           // d·nc, constant local velocity term
  Vector mu;          // nc

  // nc, the number of contacts.
  Index contacts() const { return mu.size(); }
  // n, the number of generalized velocities.
  Index dofs() const { return f.size(); }
  // Throws std::invalid_argument naming the field and value: sizes, d ∉ {2,3}, μ < 0, NaN.
  void validate() const;
};

// Solution of a frictional contact problem with the solver report.
struct FrictionContactResult : SolverReport {
  Vector r;  // d·nc, contact impulses (or forces), normal first
  Vector u;  // d·nc, local velocities u = W r + q (or Hᵀ v + w)
  Vector v;  // n, global velocities (global problems only, empty otherwise)
};

// u = W r + q, row by row of W (CSR): the same sums in the same order as Eigen's product
// (each row's terms from zero, then q added), without its temporary.
Vector local_velocity(const FrictionContactProblem& problem, const Vector& r);

// The one residual of the frictional contact family (the natural-map error Siconos reports):
//   e = ‖r − P_K(r − û)‖₂ / max(‖q‖₂, ‖r‖₂, ‖u‖₂)   with u = W r + q,
// the norm taken over all contacts; the division is skipped when the max is below 1e-300, and
// an iterate with a non-finite entry gets +∞ or NaN (never the 0 of err / ∞).
double friction_contact_residual(const FrictionContactProblem& problem, const Vector& r);
// Same with u already computed (u = W r + q), to avoid a product in solver loops.
double friction_contact_residual(const FrictionContactProblem& problem, const Vector& r,
                                 const Vector& u);
// Unnormalized ‖r_i − P_K(r_i − û_i)‖ of contact i (d entries starting at d·i).
double friction_contact_local_error(int dimension, double mu, const double* r, const double* u);

// Global residual: with u = Hᵀ v + w,
//   e = natural-map error of (r, u) / max(‖w‖, ‖r‖, ‖u‖)
//       + ‖M v − H r − f‖ / max(‖f‖, ‖M v‖, ‖H r‖)
double global_friction_contact_residual(const GlobalFrictionContactProblem& problem,
                                        const Vector& v, const Vector& r);

}  // namespace moreau
