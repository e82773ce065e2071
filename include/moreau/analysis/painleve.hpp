#pragma once
// Painlevé analysis of sliding contacts (unilateral-contact notes (4.15)–(4.17) and Painlevé's
// table; Brogliato 2014 (26), (87) and §4, Props 12–14; docs/math/painleve.md).
//
// ONE sliding contact, column convention M q̈ + F = w_n λ_n + w_t λ_t with Coulomb sliding
// λ_t = −σ μ λ_n (σ = sgn v_t, v_t = w_tᵀ q̇ in 2D):
//   a_n = w_nᵀ q̈ + c_n = α λ_n − β,
//   α = w_nᵀ M⁻¹ (w_n − σ μ w_t)          (the notes' (4.16); their pencil's α prints mℓ² where
//                                           m I_c belongs, docs/math/painleve.md)
//   β = w_nᵀ M⁻¹ F − c_n = −a_n(λ_n = 0)   (F on the LEFT, c_n = ẇ_nᵀ q̇)
// Contact persists with λ_n = β/α when that is ≥ 0; separation is consistent when −β > 0.
//   case           α    β     slip (λ_n = β/α > 0)   separation (a_n = −β > 0)
//   slip           +    +     yes                    no
//   separation     +    −     no                     yes
//   inconsistent   −    +     no                     no      (Painlevé: no rigid-body solution)
//   indeterminate  −    −     yes                    yes     (Painlevé: two solutions)
// Borderline statuses (|x| ≤ τ·scale counts as zero, τ = settings.zero_tolerance):
//   grazing    β = 0, α ≠ 0: λ_n = 0 and a_n = 0, decided by higher derivatives;
//   singular   α = 0, β > 0: λ_n → ∞ (no finite force: tangential impact / dynamic jamming);
//              α = 0, β < 0 is reported as separation (the only consistent choice);
//   degenerate α = 0 and β = 0.
// Critical friction μ_c: the smallest μ ≥ 0 with α(μ) = 0 for the given σ:
//   α(μ) = a − σ μ b with a = w_nᵀM⁻¹w_n > 0, b = w_nᵀM⁻¹w_t  ⇒  μ_c = a/(σ b) if σ b > 0, else +∞.
#include <functional>
#include <string>
#include <vector>

#include "moreau/common/types.hpp"
#include "moreau/model/contact_state.hpp"

namespace moreau {

// Outcome of the single-contact Painlevé classification (cases of the table above).
enum class PainleveCase {
  slip,
  separation,
  inconsistent,
  indeterminate,
  grazing,
  singular,
  degenerate
};
// Name of a case ("slip", "separation", "inconsistent", …).
std::string to_string(PainleveCase c);

// Settings of the Painlevé classification (tolerances).
struct PainleveSettings {
  double zero_tolerance = 1e-12;  // relative: |α| ≤ τ·a and |β| ≤ τ·max(1, |w_nᵀM⁻¹F|, |c_n|)
  double velocity_tolerance = 1e-12;  // |v_t| below this has no sliding direction (state overload)
};

// Painlevé classification of a sliding contact: case, α, β, σ, μ and λ_n.
struct PainleveResult {
  double alpha = 0;                              // 1/kg (generalized), α above
  double beta = 0;                               // m/s², β above
  int sigma = 1;                                 // sliding direction ±1
  double mu = 0;                                 // friction coefficient used
  PainleveCase kind = PainleveCase::degenerate;  // the case of the table above
  double lambda_n = 0;  // β/α when slip is consistent (slip, indeterminate), else 0, N
  double free_normal_acceleration = 0;  // a_n at λ_n = 0, = −β, m/s²
  double mu_critical = 0;               // μ_c for this σ (+inf when none)
};

// Single contact from raw data. M n×n SPD, F n, w_n n, w_t n, σ ∈ {−1, +1}, μ ≥ 0.
// Throws std::invalid_argument on wrong sizes, NaN, μ < 0, σ ∉ {±1}, non-symmetric or non-PD M.
PainleveResult painleve_single(const Matrix& M, const Vector& F, const Vector& w_n,
                               const Vector& w_t, double c_n, double mu, int sigma,
                               const PainleveSettings& settings = {});

// Constraint `contact` of a 2D ContactState; σ = sgn(H_tᵀ v) (throws when v_t = 0 unless
// sigma_override ∈ {±1} is given). Only the other constraints are ignored (single-contact theory).
PainleveResult painleve_single(const ContactState& state, Index contact, int sigma_override = 0,
                               const PainleveSettings& settings = {});

// μ_c only (+inf if α never vanishes for this σ).
double critical_friction(const Matrix& M, const Vector& w_n, const Vector& w_t, int sigma);

// The minimum of a 1-D function f over [lo, hi] (e.g. μ_c over a configuration parameter):
// evaluates a uniform grid of `grid` + 1 points, then refines every local grid minimum by golden
// section search to |Δx| ≤ x_tolerance. +inf values are allowed (no critical friction there).
struct ScalarMinimum {
  double x = 0;         // argmin
  double value = 0;     // f(x) (+inf if f is +inf on the whole grid)
  int evaluations = 0;  // number of calls of f (grid and refinement)
};
// Minimum of f over [lo, hi]: grid of `grid` + 1 points, golden-section refinement (above).
ScalarMinimum minimize_scalar(const std::function<double(double)>& f, double lo, double hi,
                              int grid = 400, double x_tolerance = 1e-10);

// μ_c of constraint `contact` (2D, first tangent column) of the states produced by state_at(s),
// minimised over the configuration parameter s ∈ [lo, hi] with minimize_scalar. For the uniform
// rod of Brogliato 2014 §2.3.3 with s = θ and σ = −1 the minimum is 4/3 at θ = atan 2.
ScalarMinimum minimize_critical_friction(const std::function<ContactState(double)>& state_at,
                                         Index contact, int sigma, double lo, double hi,
                                         int grid = 400);

// ---- several sliding contacts: the LCP 0 ≤ λ̄_n ⊥ D λ̄_n + b ≥ 0 of Brogliato 2014 (26) -------
// W = [∇h] (n×(m+p), bilateral first, frictionless bilateral), H_T (n×p: one tangent column per
// unilateral contact, 2D), ξ_i = sgn v_t,i ∈ {±1}, μ_i ≥ 0, c_n (m+p) the ẇ_nᵀq̇ terms:
//   P = −n_q,uᵀ H_T diag(μ_i ξ_i / ρ_i)             (87), p×p
//   D = G + P  (m = 0);  with m > 0 the bilateral rows of [N + P̃] are eliminated (Schur complement)
//   b_i = (c_n,i − ∇h_iᵀ M⁻¹ F)/ρ_i = a_n,i(λ = 0)/ρ_i     ([derived], on the contact set)
//   physical λ_n = diag(1/ρ) λ̄_n.
// For p = 1, m = 0: D = α/ρ² and b = −β/ρ with the single-contact α, β above.
struct SlidingContactLcp {
  Matrix G;         // p×p
  Matrix P;         // p×p (bilateral-eliminated part included in D only)
  Matrix D;         // p×p, G + P (m = 0)
  Vector b;         // p
  Vector rho;       // m+p
  Matrix coupling;  // (m+p)×p, n_qᵀ H_T
};
// Builds the sliding-contact LCP (D, b) of the formulas above from M, F, the constraint data,
// μ and the sliding directions ξ.
SlidingContactLcp sliding_contact_lcp(const Matrix& M, const Vector& F, const Matrix& W,
                                      Index bilateral_count, const Matrix& H_T, const Vector& c_n,
                                      const Vector& mu, const Vector& xi);

// Matrix-class tests of D and the explicit sufficient bounds of Brogliato 2014, Props 12–14.
struct SlidingLcpClassification {
  bool p_matrix = false;                // exact (all principal minors > 0): unique solution ∀ b
  double min_principal_minor = 0;       // the smallest principal minor of D
  bool positive_definite = false;       // xᵀDx > 0 (symmetric part)
  double min_symmetric_eigenvalue = 0;  // λ_min of the symmetric part (D + Dᵀ)/2
  bool copositive = false;              // exact
  bool strictly_copositive = false;     // existence ∀ b (Cottle–Pang–Stone)
  // P12 (p = 1): μ_c = 1/|c|, c = n_qᵀH_T/ρ; +inf when c = 0; NaN when p ≠ 1.
  double p12_mu_critical = 0;
  // P13 (P symmetric, P = εA with ε = 1): D(ε) = G + εP ≻ 0 for ε ∈ (−ε₋, ε₊) with
  // ε₊ = 1/λ_max(−G^{-½}PG^{-½}) (+inf if ≤ 0). Applicable only if P is symmetric; margin ε₊ − 1.
  bool p13_applicable = false;
  double p13_epsilon_star = 0;  // ε₊ (NaN when not applicable)
  double p13_margin = 0;        // ε₊ − 1 (> 0: D = G + P ≻ 0), NaN when not applicable
  // P14: ‖n_qᵀH_T‖·(Σ μ_i²ξ_i²/ρ_i²)^{½} < 1/‖G⁻¹‖ ⇒ D ≻ 0. Both Frobenius (the paper's ‖·‖₂)
  // and spectral versions: bound = right side, value = left side, margin = bound − value
  // (> 0: the sufficient condition holds). Only with m = 0 (NaN otherwise).
  // @{
  double p14_value_frobenius = 0, p14_bound_frobenius = 0, p14_margin_frobenius = 0;
  double p14_value_spectral = 0, p14_bound_spectral = 0, p14_margin_spectral = 0;
  // @}
};
// Matrix-class tests of D and the sufficient conditions P12–P14 for the LCP built above.
SlidingLcpClassification classify_sliding_lcp(const SlidingContactLcp& lcp, const Vector& mu,
                                              const Vector& xi, Index bilateral_count = 0);

}  // namespace moreau
