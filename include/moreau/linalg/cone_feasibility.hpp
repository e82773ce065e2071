#pragma once
// Feasibility of an affine family of contact forces against Coulomb cones:
//   find y ∈ ℝᵏ, with r = r0 + B y, such that for every contact i
//     r_n,i ≥ 0  (unilateral) and ‖r_t,i‖ ≤ μ_i r_n,i          (2D: |r_t,i| ≤ μ_i r_n,i, an LP)
//   (friction checked over the whole multiplier set, not the min-norm point: step 3 of
//   docs/math/all_sticking.md)
//
// Contact i occupies d consecutive entries of r, normal first ([r_n, r_t1(, r_t2)]).
// Bilateral contacts (|r_n| in the cone) are handled by branching on the sign of r_n,i.
//
// Method. 2D: one LP (exact). 3D: the disk of radius μ r_n is replaced by an inscribed regular
// polygon with K sides (a SUFFICIENT test: feasible ⇒ a certificate point that satisfies the
// exact disk) and by a circumscribed polygon (a NECESSARY test: infeasible ⇒ certificate of
// infeasibility of the exact problem). K doubles from 16 up to 4096 until the two tests agree;
// the remaining gap (cos(π/K)) is reported as undecided when they never do.
// Both LPs maximise the margin s (bounded by s ≤ max(1, ‖r0‖∞)):
//   unilateral: r_n,i ≥ s and, if μ_i > 0, (facet normal)ᵀ r_t,i ≤ μ_i r_n,i·c_K − s
//   (c_K = cos(π/K) inner, 1 outer; 2D: ±r_t,i ≤ μ_i r_n,i − s); frictionless contacts keep only
//   r_n,i ≥ s (unilateral) and their tangential entries are ignored;
// plus optional extra linear inequalities C y + c ≥ 0 (without margin). A feasible answer is a
// most-interior point of the cones.
#include <string>
#include <vector>

#include "moreau/common/types.hpp"

namespace moreau {

// Answer of the cone feasibility test.
enum class ConeFeasibility { feasible, infeasible, undecided };

// Settings of the cone feasibility test.
struct ConeFeasibilitySettings {
  double tolerance = 1e-9;  // accept margin ≥ −tolerance·scale as feasible (scale = max(1,‖r0‖∞))
  int max_facets = 4096;  // 3D polygon refinement limit
};

// Answer of the cone feasibility test with its certificate.
struct ConeFeasibilityResult {
  ConeFeasibility status = ConeFeasibility::undecided;  // feasible, infeasible or undecided
  Vector y;             // k, the certificate (feasible): r0 + B y satisfies every cone
  Vector r;             // d·m, r0 + B y
  double margin = 0;    // the maximised margin s (≥ 0 when feasible, < 0 when infeasible)
  int facets = 0;       // polygon sides used (3D)
  std::string message;  // why not feasible (infeasible / undecided); empty when feasible
};

// d ∈ {2, 3}; mu has one entry per contact (≥ 0); bilateral (may be empty = all unilateral) marks
// contacts whose normal force may take either sign. r0 has d·m entries, B is d·m × k (k may be 0).
ConeFeasibilityResult coulomb_cone_feasibility(int d, const Vector& r0, const Matrix& B,
                                               const Vector& mu,
                                               const std::vector<bool>& bilateral = {},
                                               const Matrix& C = {}, const Vector& c = {},
                                               const ConeFeasibilitySettings& settings = {});

// Name of an answer ("feasible", "infeasible", "undecided").
std::string to_string(ConeFeasibility status);

}  // namespace moreau
