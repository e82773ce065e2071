#pragma once
// Polyhedral (pyramid) approximation of the Coulomb cone solved as one LCP by Lemke's method
// (Stewart & Trinkle 1996; Anitescu & Potra 1997). Per contact, r_T = Σ_j β_j d_j over k unit
// edge directions d_j = (cos 2πj/k, sin 2πj/k) (in 2D: d = ±1, k = 2, which is exact), and
//   0 ≤ r_n ⊥ u_n ≥ 0
//   0 ≤ β_j ⊥ λ + d_jᵀ u_T ≥ 0        (λ ≈ sliding speed)
//   0 ≤ λ  ⊥ μ r_n − Σ_j β_j ≥ 0
// with u = W r + q: an LCP of size nc·(k + 2), dense, for small problems only.
// The reported residual is the EXACT-cone friction_contact_residual of r, so in 3D it stays at
// the level of the pyramid error: the status is converged only when it is ≤ tolerance,
// numerical_failure (with a message) otherwise, and for problems above max_lcp_size.
#include <limits>

#include "moreau/problems/friction_contact.hpp"

namespace moreau {

// Settings of solve_lemke_pyramid (number of pyramid edges, pivots).
struct LemkePyramidSettings {
  double tolerance = 1e-8;  // on the exact-cone friction_contact_residual
  int edges = 8;            // k, edges of the pyramid (3D); 2D always uses 2
  int max_lcp_size = 1500;  // refuse larger LCPs (dense Lemke is O(n³))
  int max_pivots = 0;       // 0 → Lemke's default
};

// Solves the pyramid approximation above by Lemke's method.
FrictionContactResult solve_lemke_pyramid(const FrictionContactProblem& problem,
                                          const LemkePyramidSettings& settings = {});

}  // namespace moreau
