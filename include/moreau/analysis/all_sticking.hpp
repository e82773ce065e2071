#pragma once
// The all-sticking contact problem (Brogliato, Kövecses & Acary 2020: problem (9), §2–§5 and the
// algorithm of §4.2; docs/math/all_sticking.md).
//
// Every constraint of the ContactState that is bilateral, or unilateral and closed
// (|h| ≤ gap_tolerance), is assumed sticking (v_t = 0). Unknowns q̈, λ_nb, λ_tb, λ_nu, λ_tu:
//   (a) M q̈ + F = J_nb λ_nb + J_tb λ_tb + J_nu λ_nu + J_tu λ_tu
//   (b–d) J_tbᵀq̈ + c_tb = 0,  J_tuᵀq̈ + c_tu = 0,  J_nbᵀq̈ + c_nb = 0
//   (e) 0 ≤ λ_nu ⊥ J_nuᵀq̈ + c_nu ≥ 0
//   (f) λ_t,i ∈ |λ_n,i| D_μi  (disk of radius μ_i|λ_n,i|; frictionless: λ_t,i = 0, its tangent
//       rows are dropped)
// M = Mᵀ ⪰ 0 may be singular, constraints may be redundant.
//
// Method (moreau's own exact realisation of the §4.2 algorithm, docs/math/all_sticking.md):
//  1. Prop 1 tests on J_eq = [J_nb J_tb J_tu] (all equality rows): rank J_eq, ker M ∩ ker J_eqᵀ =
//     {0} (rank [M; J_eqᵀ] = n), the joint range condition c_eq ∈ im J_eqᵀ.
//  2. Unilateral normals: enumerate the complementarity index sets of (e) (the set of contacts with
//     a_n = 0), smallest detachment first, for small m_u (≤ max_enumeration); each candidate set
//     gives the KKT system K z = r, solved in the minimum-norm sense (pseudo-inverse, Prop 14),
//     with the multiplier null space basis. q̈ is unique whenever ker M ∩ ker J_actᵀ = {0}.
//     The unilateral sign conditions λ_nu ≥ 0 and a_nu ≥ 0 and friction (f) are checked
//     jointly over the null space (LP in 2D, polygon-refined LPs in 3D: cone_feasibility.hpp).
//  3. Statuses: sticking / sticking_with_detachment (some admissible solution), friction_infeasible
//  (accelerations and
//     normal forces exist but no multiplier in the set satisfies Coulomb), no_acceleration_solution
//     (the (65a,b) system has no solution: inconsistent equalities or no complementary set).
// Lists: contacts that detach (a_n > tolerance in the chosen solution) and contacts at the edge of
// their cone (margin μλ_n − ‖λ_t‖ ≤ edge_tolerance·scale in every admissible solution found — the
// reported witness maximises the smallest margin).
#include <string>
#include <vector>

#include "moreau/common/types.hpp"
#include "moreau/model/contact_state.hpp"

namespace moreau {

// sticking: every considered contact stays closed and sticks (a_n = 0 for all);
// sticking_with_detachment: the contacts that stay closed stick, the listed ones detach;
// friction_infeasible: accelerations and normal forces exist, Coulomb fails everywhere on the set;
// no_acceleration_solution: (65a,b) has no solution at all.
enum class AllStickingStatus {
  sticking,
  sticking_with_detachment,
  friction_infeasible,
  no_acceleration_solution
};
// Name of a status, as printed by the CLI and Python ("sticking", …).
std::string to_string(AllStickingStatus status);

// Settings of all_sticking (tolerances, SI units).
struct AllStickingSettings {
  double gap_tolerance = 1e-9;   // m
  double tolerance = 1e-9;       // relative residual / sign tolerance
  double edge_tolerance = 1e-7;  // relative cone-edge tolerance on μλ_n − ‖λ_t‖
  int max_enumeration = 12;      // unilateral contacts for the index-set enumeration
};

// Prop 1 of Brogliato, Kövecses & Acary 2020 on the equality part (bilateral normals and all
// sticking tangents).
struct Prop1Report {
  Index rank_J = 0;                  // rank of J_eq
  Index columns = 0;                 // its number of columns
  bool full_column_rank = false;     // Prop 1(i) first condition
  bool kernel_condition = false;     // ker M ∩ ker J_eqᵀ = {0}
  bool range_condition = false;      // c_eq ∈ im J_eqᵀ (jointly; the paper states it per block)
  bool kkt_invertible = false;       // (i): both first two
  bool unique_acceleration = false;  // (ii): kernel ∧ range
};

// Result of all_sticking: status, lists and witness (see the fields).
struct AllStickingResult {
  AllStickingStatus status = AllStickingStatus::no_acceleration_solution;  // which case holds
  std::vector<Index> constraints;  // constraint indices considered (bilateral + closed)
  Prop1Report prop1;               // Prop 1 tests on the equality rows J_eq
  // Witness (valid when status ≠ no_acceleration_solution):
  Vector qddot;     // n
  Vector lambda_n;  // one per considered constraint, N
  Matrix lambda_t;  // (d−1)×(#considered), N
  Vector a_n;       // normal accelerations of the witness, m/s²
  // The multiplier set of the chosen complementary set: λ = λ_min_norm + null_basis·y.
  // λ is stacked per considered constraint [λ_n, λ_t…] (d entries each).
  Vector lambda_min_norm;            // d·m
  Matrix null_basis;                 // d·m × k
  bool unique_acceleration = false;  // q̈ is the same for every solution of (65a,b)
  std::vector<Index> detaching;      // constraints of the chosen complementary set with λ = 0
                                     // (a_n ≥ 0; they cannot stay closed AND sticking)
  std::vector<Index> at_cone_edge;   // constraint indices with zero friction margin
  double min_margin = 0;             // min_i (μ_i λ_n,i − ‖λ_t,i‖) of the witness, N
  std::string message;               // one sentence saying what the status means here
};

// Solves the all-sticking problem of `state` (algorithm above); the status says which case holds.
AllStickingResult all_sticking(const ContactState& state, const AllStickingSettings& settings = {});

// Direct KKT (14a)/(65a) with ALL considered constraints kept as equalities (no detachment):
// [[M, −J], [Jᵀ, 0]] (q̈; λ) = (−F; −c), minimum-norm solution. Cross-check helper for the case
// M ≻ 0 with independent constraints (then the solution is unique). Throws if it has no solution.
struct KktSolution {
  Vector qddot;       // n
  Vector lambda;      // d·m, stacked per constraint [λ_n, λ_t…]
  Matrix null_basis;  // d·m × k, multiplier rows of the KKT null space (λ + null_basis·y)
};
// The direct KKT solution above for the given constraint indices (into the ContactState).
KktSolution all_sticking_kkt(const ContactState& state, const std::vector<Index>& constraints);

}  // namespace moreau
