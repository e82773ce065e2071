#pragma once
// Mode selection of the event-driven integrator (not public API): the next hybrid mode of the
// closed contacts at an event, from analysis::contact_modes (its LCP in 2D, its per-contact
// enumeration in 3D and above its LCP limit), with the selection rules on top: exclusions of the
// mode a fired root left, most sticking then sliding contacts, Painlevé cases 3 and 4
// (Painlevé's table, docs/math/painleve.md).
#include <string>
#include <vector>

#include "hybrid_dynamics.hpp"
#include "moreau/analysis/contact_modes.hpp"

namespace moreau::event {

// The modes of one contact that a fired root rules out at the next mode choice.
struct ModeExclusion {
  bool stick = false;     // stick (λ_n → 0 or |λ_t| = μλ_n fired)
  bool any_slip = false;  // every slip (λ_n → 0 fired: the contact leaves)
  Vector slip;  // non-empty: slip in this direction (σ·u_t → 0 fired: no slip that way)

  bool allows(ContactMode mode, const Vector& s) const;
};
using ModeExclusions = std::vector<ModeExclusion>;  // one per constraint

// What the mode choice needs to know of the run.
struct ModeSelection {
  const LagrangianSystem& sys;
  const SimulationSettings& st;
  const HybridDynamics& dynamics;
  int dimension = 2;
  std::vector<double> mu{};                // m
  std::vector<bool> unilateral{};          // m
  double eps_g = 0, tol_v = 0, tol_f = 0;  // contact (gap and velocity) and force tolerances
  // The one set of limits and tolerances of the mode choice, handed to analysis::contact_modes:
  // gap_tolerance 0 (the closed set is chosen here), velocity_tolerance tol_v, tolerance tol_f,
  // max_lcp_size (its 2D LCP), max_enumeration_contacts (active constraints its enumeration
  // takes; beyond, status "unsupported").
  ContactModeSettings limits{};
};

// The closed contacts at one state and their free-mode probe.
struct ClosedContacts {
  double t = 0;
  Vector q, v;
  Modes base;                 // m, every contact free
  Dynamics probe;             // dynamics of base
  std::vector<Index> C;       // closed: unilateral, g ≤ 10ε and u_n ≤ tol_v
  std::vector<bool> sliding;  // per C: μ > 0 and ‖u_t‖ > tol_v
  const ModeExclusions* excl = nullptr;
};

// Consistency of one assignment with the mode dynamics on the closed contacts:
//   free: a_n ≥ 0;  stick: λ_n ≥ 0, ‖λ_t‖ ≤ μλ_n;  slip: λ_n ≥ 0, and for a contact not yet
//   sliding also s·a_t ≥ 0 and λ_n > 0 (tolerances tol_f relative to max λ_n, 1e-8 on a).
bool consistent(const ModeSelection& ctx, const ClosedContacts& cc, const Modes& trial);

struct ModeChoice {
  bool ok = false;  // a consistent mode was found (modes)
  Modes modes;
  std::string painleve;  // a Painlevé situation met (case 3 or 4), for the event's detail
  int painleve_case = 0;
  Index painleve_contact = -1;
  std::string
      unsupported;  // set (ok false) when the closed contacts exceed what the choice handles
};

// The consistent assignment with the most sticking, then sliding, closed contacts (first on
// ties); open contacts free. Painlevé: a sliding contact with slip and separation both consistent
// → case 4 (indeterminacy), separation chosen; nothing consistent with a sliding contact → case 3.
ModeChoice choose_modes(const ModeSelection& ctx, double t, const Vector& q, const Vector& v,
                        const ModeExclusions& excl);

}  // namespace moreau::event
