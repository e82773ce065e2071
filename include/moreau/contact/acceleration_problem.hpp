#pragma once
// Acceleration-level contact problem data for the ACTIVE constraints of a ContactState
// (Drake's ConstraintAccelProblemData; for one contact, the α and β of the unilateral-contact
// notes (4.16), docs/math/models.md).
//
// Column convention (contact_state.hpp): M q̈ + F = N λ_n + T λ_t, a_n = Nᵀq̈ + c_n,
// a_t = Tᵀq̈ + c_t. For a SLIDING contact i (‖v_t,i‖ > tolerance, s_i = v_t,i/‖v_t,i‖) Coulomb gives
// λ_t,i = −μ_i λ_n,i s_i, so its generalized force is (∇h_i − μ_i Q_i) λ_n,i with the sliding
// column Q_i = H_t,i s_i (Drake's (N − μQ)ᵀ, here as columns). Then
//   a_n = Nᵀ M⁻¹ (N − μQ) λ_n + Nᵀ M⁻¹(−F) + c_n      (non-sliding contacts: Q_i = 0, λ_t = 0)
// and the LCP matrix A = Nᵀ M⁻¹ (N − μQ) is non-symmetric; for one contact A = α and the free
// normal acceleration is −β (the notes' α, β; their pencil's α has the wrong denominator).
// Softening and Baumgarte per contact (as Drake's): 0 ≤ a_n + kN + γ λ_n ⊥ λ_n ≥ 0 with
// kN_i = 2α_i ġ_i + β_i² g_i (ġ_i = ∇h_iᵀ v, g_i the gap); a sticking contact's tangential rows
// take the velocity part of the same stabilization, a_t + kT = 0 with kT_i = 2α_i v_t,i (the
// event-driven integrator's stick rows, event_driven.hpp).
#include <vector>

#include "moreau/model/contact_state.hpp"

namespace moreau {

// Tolerances that decide which constraints are active (closed and persistent).
struct ActiveSetSettings {
  double gap_tolerance = 1e-9;       // m: |h| ≤ this is a closed contact
  double velocity_tolerance = 1e-9;  // m/s: |ġ| ≤ this is persistent; ‖v_t‖ > this is sliding
};

// Bilateral constraints always; unilateral ones with |h| ≤ gap_tolerance and |∇hᵀv| ≤
// velocity_tolerance.
std::vector<Index> active_constraints(const ContactState& state,
                                      const ActiveSetSettings& settings = {});

// Acceleration-level contact problem of a ContactState.
struct AccelerationProblem {
  int dimension = 2;                   // d, 2 or 3 (d − 1 tangents per contact)
  std::vector<Index> active;           // k indices into state.constraints
  std::vector<bool> bilateral;         // k
  std::vector<bool> sliding;           // k: ‖v_t‖ > velocity_tolerance (and μ > 0 or not)
  Matrix M;                            // n×n
  Vector F;                            // n (left side)
  bool mass_positive_definite = true;  // false ⇒ M⁺ (pseudo-inverse) is used below
  Matrix N;                            // n×k normal columns ∇h_i
  Matrix T;                            // n×(d−1)k tangent columns H_t,i
  Vector c_n;                          // k, m/s²
  Vector c_t;                          // (d−1)k, m/s²
  Vector mu;                           // k
  Vector gamma;                        // k, softening γ_i
  Vector kN;                           // k, 2α_i ġ_i + β_i² g_i, m/s²
  Vector kT;                           // (d−1)k, 2α_i v_t,i, m/s²
  Vector normal_velocity;              // k, ġ_i = ∇h_iᵀ v, m/s
  Vector tangent_velocity;             // (d−1)k, v_t,i = H_t,iᵀ v, m/s
  Matrix slip_direction;               // (d−1)×k, s_i (zero for non-sliding contacts)
  Matrix Q;                            // n×k, Q_i = H_t,i s_i (zero column for non-sliding)
  Matrix N_minus_muQ;                  // n×k, ∇h_i − μ_i Q_i
  Vector free_acceleration;            // n, q̈₀ = M⁻¹(−F)
  Vector free_normal_acceleration;     // k, Nᵀq̈₀ + c_n (= −β for one contact)
  Vector free_tangent_acceleration;    // (d−1)k, Tᵀq̈₀ + c_t
  Matrix mass_inverse_N;  // n×k, M⁻¹ N: the accelerations of unit normal multipliers
  Matrix mass_inverse_T;  // n×(d−1)k, M⁻¹ T
  Matrix delassus_nn;     // k×k, Nᵀ M⁻¹ N
  Matrix delassus_nt;     // k×(d−1)k, Nᵀ M⁻¹ T
  Matrix delassus_tt;     // (d−1)k×(d−1)k, Tᵀ M⁻¹ T
  Matrix sliding_matrix;  // k×k, Nᵀ M⁻¹ (N − μQ) (+ diag γ not included)

  // k, the number of active constraints.
  Index size() const { return static_cast<Index>(active.size()); }
};

// Validates the state (ContactState::validate) and builds the data above.
AccelerationProblem build_acceleration_problem(const ContactState& state,
                                               const ActiveSetSettings& settings = {});

// The same data for a given set of constraints (increasing indices into state.constraints, e.g.
// the closed contacts of a hybrid mode and the joints), whatever their gaps; a contact is sliding
// when ‖v_t‖ > velocity_tolerance. Throws std::invalid_argument on a bad index.
AccelerationProblem build_acceleration_problem(const ContactState& state, std::vector<Index> active,
                                               double velocity_tolerance);

// M⁻¹ B via Cholesky when M ≻ 0, else the pseudo-inverse M⁺ B (sets *positive_definite).
Matrix mass_solve(const Matrix& M, const Matrix& B, bool* positive_definite = nullptr);

}  // namespace moreau
