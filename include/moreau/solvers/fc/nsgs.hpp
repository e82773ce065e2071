#pragma once
// Nonsmooth Gauss–Seidel (NSGS) for the local frictional contact problem, 2D and 3D
// (Jean & Moreau 1987; Jourdan, Alart & Jean 1998; Acary, Brémond & Huber 2018, §6):
// sweep over the contacts, and for contact i solve EXACTLY the one-contact problem
//   u_i = W_ii r_i + q̃_i,   q̃_i = q_i + Σ_{j≠i} W_ij r_j,
// with the true Coulomb cone (local_solver.hpp), then r_i ← ω r_i^new + (1 − ω) r_i.
// Departure from the classical loop: u = W r + q is kept up to date by column updates
// u += W_{:,i} (r_i^new − r_i), so q̃_i = u_i − W_ii r_i costs no row product, contacts whose
// impulse does not change cost nothing, and the exact residual is available after every sweep
// in O(m) (u is recomputed from scratch every 64 sweeps and before declaring convergence).
#include <cstdint>
#include <limits>

#include "moreau/problems/friction_contact.hpp"

namespace moreau {

// Order in which NSGS visits the contacts in a sweep.
enum class NsgsOrder {
  cyclic,        // contacts 0, 1, …, nc−1 every sweep
  shuffled,      // one random permutation, kept for every sweep
  shuffled_each  // a new random permutation every sweep
};

// Settings of solve_nsgs (tolerance, sweeps, order, relaxation).
struct NsgsSettings {
  double tolerance = 1e-8;                                      // on friction_contact_residual
  int max_iterations = 10000;                                   // sweeps
  double time_limit = std::numeric_limits<double>::infinity();  // s
  double relaxation = 1.0;                                      // ω in (0, 2)
  NsgsOrder order = NsgsOrder::cyclic;  // order of the contacts within a sweep
  std::uint32_t seed = 0;               // for the shuffled orders
  int check_every = 1;                  // residual evaluated every k sweeps
  // The one-contact solves seek a slide without a previous direction from the stick solution's
  // first (solve_one_contact_3d's stick_seed). Off in Newton's sweeps after a stalled line search,
  // whose paths it moved (FCLIB's Capsules-i100-1090 under auto: 38 whole-problem equivalents
  // became 284).
  bool stick_seed = true;
};

// True when solve_nsgs updates u through a dense copy of W's columns rather than its sparse
// ones: W has at most 96 rows and at least half of its entries stored. The results are the same
// to the bit either way for finite iterates (nsgs.cpp); only the time differs.
bool nsgs_uses_dense_columns(const SparseMatrix& W);

// Solves the local problem by NSGS (above) from the guess (zero when empty).
FrictionContactResult solve_nsgs(const FrictionContactProblem& problem,
                                 const NsgsSettings& settings = {}, const Vector& guess = Vector());

}  // namespace moreau
