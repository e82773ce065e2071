#pragma once
// Energetic consistency of impact laws (Brogliato 2014 §3.1.2, §3.2.2 and §3.2.5, with the
// corrections listed in docs/math/impact.md): the exact kinetic-energy change of a restitution law
// and the paper's sufficient conditions, each reported with the quantity tested, its bound and the
// margin (bound − value, > 0 when the condition holds).
//
// Frictionless kinematic law q̇_norm⁺ = −E q̇_norm⁻ with G (p'×p', SPD) frozen:
//   T_L = T⁺ − T⁻ = ½ q̇ᵀ(EᵀG⁻¹E − G⁻¹) q̇   (49),   q̇ := q̇_norm⁻ ≤ 0 (approaching).
// Norms: ‖·‖_F (Frobenius, the paper's ‖·‖₂) and ‖·‖_σ (spectral, less conservative) for the
// norm bounds.
#include <string>
#include <vector>

#include "moreau/analysis/kinetic_quasi_velocities.hpp"
#include "moreau/common/types.hpp"

namespace moreau {

// One energetic-consistency criterion: name, statement, whether it holds, value and bound.
struct ConsistencyCriterion {
  std::string name;       // "P2", "P5", "P6", "P7_frobenius", "P7_spectral", "P8_i", ...
  std::string statement;  // the condition in words/symbols
  bool applicable =
      true;  // false when the proposition's hypothesis fails (e.g. P5: G⁻¹E not symmetric)
  bool exact = false;  // necessary and sufficient (P2, P8) or only sufficient
  bool holds = false;  // the condition is satisfied
  double value = 0.0;  // left-hand side
  double bound = 0.0;  // right-hand side
  double margin = 0.0;  // bound − value (value − bound for "≥" conditions): > 0 ⇔ holds strictly
};

// min{ xᵀAx : x ≥ 0, ‖x‖₂ = 1 } for the symmetric part of A, by enumerating principal submatrices
// whose eigenvector for some eigenvalue is entrywise positive (KKT points on the faces of R₊ⁿ).
// A is copositive iff minimum ≥ 0 and strictly copositive iff minimum > 0 (size ≤ 16).
struct CopositivityResult {
  double minimum = 0.0;     // the minimum above
  Vector minimizer;         // x ≥ 0, ‖x‖ = 1 attaining it
  bool copositive = false;  // A copositive: minimum ≥ 0 (up to the relative tolerance)
  bool strictly = false;    // A strictly copositive: minimum > 0 (beyond the tolerance)
};
// The copositivity test above (exact, by enumeration; A square, size ≤ 16).
CopositivityResult copositivity(const Matrix& A, double tolerance = 1e-12);

// T_L of (49) for the normal quasi-velocity q̇ = q̇_norm⁻.
double frictionless_energy_change(const Matrix& G, const Matrix& E, const Vector& qdot_norm);

// P2 (copositivity of G⁻¹ − EᵀG⁻¹E, exact), PD test of that matrix, P5, P6, P7 (both norms),
// P8 (i)–(iii) and P4's ε* for E = √ε·…: the list of criteria, plus the worst pre-impact velocity.
struct ConsistencyReport {
  std::vector<ConsistencyCriterion> criteria;  // one per proposition tested (see at())
  double max_energy_gain = 0.0;  // max T_L over q̇_norm⁻ ≤ 0 with ‖q̇_norm⁻‖ = 1 (≤ 0: consistent)
  Vector worst_velocity;  // the q̇_norm⁻ attaining it
  // The criterion with this name; throws std::invalid_argument when absent.
  const ConsistencyCriterion& at(const std::string& name) const;
};
// Energetic consistency criteria of the frictionless impact law with restitution matrix E
// and G = Delassus matrix (the report above).
ConsistencyReport frictionless_consistency(const Matrix& G, const Matrix& E);

// P9 for a full restitution matrix 𝓔 (n×n) in the metric D = diag(N⁻¹, D_t):
//   ‖𝓔‖ < 1/√(‖D⁻¹‖‖D‖) ⇒ T_L ≤ 0, in both norms.
ConsistencyReport restitution_matrix_consistency(const KineticQuasiVelocities& k, const Matrix& E);

// Frictional impacts (77)–(84) as corrected in docs/math/impact.md ((77) has G where G⁻¹ belongs,
// so that M(q,μ) = G⁻¹ exactly), one tangent per contact (H_T n×p'), friction μ (p'), E_nn, and a
// pre-impact state (q̇_norm⁻, q̇_tan⁻):
//   Lemma 1(i): ‖G⁻¹‖‖n_qᵀH_T‖‖[μ̄]‖ < 1,  [μ̄] = diag(μ_i/ρ_i);
//   Lemma 2 (corrected): ‖E_nn‖(2 + ‖E_nn‖) < 1/(‖G⁻¹‖‖G‖);
//   Theorem 2 (83) (corrected): (i) λ_min(sym M̄) > λ_max(K) and
//     (ii) ‖q̇_norm⁻‖/‖q̇_tan⁻‖ ≥ 2‖D_t t_qᵀH_T‖‖[μ̄]‖‖I+E_nn‖‖E(q)‖ / (λ_min(M̄) − λ_max(K)),
//   M̄ = (I − E_nn)ᵀG⁻¹(I + E_nn), E(q) = (G − n_qᵀH_T[μ̄]ξ)^†,
//   K = (I+E_nn)ᵀE(q)ᵀ[μ̄]ξ H_Tᵀ t_q D_t t_qᵀ H_T [μ̄]ξ E(q)(I+E_nn).
// Spectral norms. xi: slip signs ξ_i ∈ {−1, +1} of the mode examined (empty = all +1).
ConsistencyReport frictional_consistency(const KineticQuasiVelocities& k, const Matrix& H_T,
                                         const Vector& mu, const Matrix& E_nn,
                                         const Vector& qdot_norm, const Vector& qdot_tan,
                                         const Vector& xi = Vector());

}  // namespace moreau
