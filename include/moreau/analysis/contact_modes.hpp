#pragma once
// Contact modes at the acceleration level: Coulomb's law at the acceleration level (Brogliato,
// Kövecses & Acary 2020 (5)), the contact/slip/separation modes of the unilateral-contact notes,
// and Drake's softening and stabilization (docs/references.md; docs/math/contact_modes.md).
//
// For the constraints of a ContactState that are ACTIVE (bilateral always; unilateral with
// |h| ≤ gap_tolerance and |∇hᵀq̇| ≤ velocity_tolerance), find every consistent next mode:
// separate (λ = 0, a_n ≥ 0), stick (a = 0, ‖λ_t‖ ≤ μλ_n) or slip (a_n = 0, λ_t = −μλ_n a_t/‖a_t‖)
// for contacts with v_t = 0, and, for contacts already sliding (‖v_t‖ > velocity_tolerance),
// λ_t = −μ λ_n v_t/‖v_t‖ with the normal complementarity (Drake's (N − μQ) operator).
//
// Accelerations: M q̈ + F = J_n λ_n + J_t λ_t (M must be positive definite here; use
// all_sticking.hpp for singular M), a_n = J_nᵀq̈ + c_n, a_t = J_tᵀq̈ + c_t.
// Per-constraint softening and stabilisation (Drake's contact-surface constraints),
// acceleration-level reading:
//   w_n,i = a_n,i + 2α_i ġ_i + β_i² g_i + γ_i λ_n,i     (ġ_i = ∇h_iᵀq̇, g_i = gap)
// i.e. Baumgarte α, β shift the right-hand side and γ adds to the diagonal; 0 ≤ λ_n ⊥ w_n ≥ 0.
// Bilateral constraints: w_n,i = 0, λ_n,i free (frictionless; μ > 0 on an active bilateral
// constraint is refused with std::invalid_argument).
//
// 2D (exact): the friction LCP with split tangential force λ_t = β⁺ − β⁻ and the slack s
// (Glocker/Pfeiffer; Stewart–Trinkle with two directions), per sticking contact:
//   0 ≤ λ_n ⊥ w_n ≥ 0,   0 ≤ β⁺ ⊥ a_t + s ≥ 0,   0 ≤ β⁻ ⊥ −a_t + s ≥ 0,   0 ≤ s ⊥ μλ_n − β⁺ − β⁻ ≥
//   0
// sliding contacts contribute only λ_n with the column of (w_n − σμ w_t), frictionless contacts
// only λ_n. Bilateral rows are eliminated by a Schur complement (requires J_bᵀM⁻¹J_b invertible).
// All solutions: enumerate_lcp (solvers/lcp/enumeration.hpp) on that LCP (or, when it has more than
// max_lcp_size variables, the per-contact enumeration of contact_modes_by_enumeration, for at most
// max_enumeration_contacts active constraints; the message says so), then the physically
// distinct ones are kept: different q̈ or modes. Multipliers alone are not compared (with redundant
// constraints, e.g. a block resting flat or a particle in a 3D corner, only J λ = M q̈ + F is
// determined; the slack s is not unique when λ_n = 0): each reported solution carries one
// representative λ, and multipliers_unique is false when different λ_n were met for one motion.
// 3D: per-contact mode enumeration (3^k assignments, k ≤ max_enumeration_contacts): separate /
// stick (linear) / slip with unknown direction φ_i (λ_t,i = −μλ_n,i u(φ_i), a_t,i ∥ u(φ_i)),
// the directions solved by Newton's method from a grid of starting angles (at most 256 start
// combinations per assignment; every converged root
// is verified and kept). Already-sliding contacts use their known direction.
#include <string>
#include <vector>

#include "moreau/common/status.hpp"
#include "moreau/common/types.hpp"
#include "moreau/model/contact_state.hpp"
#include "moreau/model/vocabulary.hpp"
#include "moreau/problems/lcp.hpp"

namespace moreau {

// Settings of the contact-mode enumeration (tolerances).
struct ContactModeSettings {
  double gap_tolerance = 1e-9;       // m: |h| below this is a closed contact
  double velocity_tolerance = 1e-9;  // m/s: |ġ| and ‖v_t‖ below this count as zero
  double tolerance = 1e-9;           // relative feasibility tolerance of the mode solutions
  int max_lcp_size = 20;             // 2D: LCP size limit of the enumeration (2ⁿ sets)
  int max_enumeration_contacts = 8;  // 3D, and 2D above max_lcp_size: 3^k mode assignments
  int direction_starts = 16;         // 3D: starting angles per slipping contact
};

// One active constraint of a mode solution: its mode, sliding direction and multipliers.
struct ContactModeEntry {
  Index constraint = 0;                   // index in ContactState::constraints
  ContactMode mode = ContactMode::stick;  // separate, stick or slip in this solution
  bool already_sliding = false;           // v_t ≠ 0 at the state
  bool bilateral = false;                 // a bilateral constraint (always held; mode stick)
  Vector direction;     // d−1: unit direction of the sliding velocity (already sliding) or of
                        // a_t (stick → slip); empty for stick / separate
  double lambda_n = 0;  // N
  Vector lambda_t;      // d−1, N
  double a_n = 0;       // m/s² (w_n without softening)
  Vector a_t;           // d−1, m/s²
};

// Accelerations and multipliers of one consistent mode assignment.
struct ContactModeSolution {
  std::vector<ContactModeEntry> contacts;  // one per active constraint, in the order of `active`
  Vector qddot;                            // n
};

// Result of the contact-mode analysis: active and sliding constraints, every mode solution found.
struct ContactModeAnalysis {
  Status status = Status::not_run;             // converged (≥ 1 solution) or infeasible (none)
  std::vector<Index> active;                   // active constraint indices
  std::vector<Index> sliding;                  // those already sliding (subset of active)
  std::vector<ContactModeSolution> solutions;  // EVERY solution found
  Lcp lcp;                                     // 2D: the mode LCP that was enumerated (empty in 3D)
  std::vector<std::string>
      lcp_variables;               // 2D: name of each LCP variable ("lambda_n[3]", "beta+[3]", …)
  bool multipliers_unique = true;  // false: some motion admits several normal-force vectors
  std::string message;             // why there is no solution, or what was approximated

  // Exactly one consistent mode assignment (a well-posed state).
  bool unique() const { return solutions.size() == 1; }
  // At least one consistent mode assignment.
  bool exists() const { return !solutions.empty(); }
};

// Throws std::invalid_argument on bad input (ContactState::validate, M not positive definite).
ContactModeAnalysis contact_modes(const ContactState& state,
                                  const ContactModeSettings& settings = {});

// Cross-check helper: the same analysis by brute-force mode enumeration (3^k assignments of
// separate / stick / slip±, 2D only), independent of the LCP. Used by tests.
ContactModeAnalysis contact_modes_by_enumeration(const ContactState& state,
                                                 const ContactModeSettings& settings = {});

}  // namespace moreau
