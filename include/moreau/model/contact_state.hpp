#pragma once
// The contact data of a Lagrangian system at one state (q, q̇, t): what the analysis tools,
// the impact laws and the simulators read. Plain data, produced by the model layer
// (LagrangianSystem::contact_state) or filled by hand.
//
// Convention (Brogliato, Kövecses & Acary 2020 (1); Brogliato 2014 §2.1): generalized-coordinate
// Jacobians are COLUMNS,
//   M(q) q̈ + F(q, q̇, t) = Σ_i (∇h_i λ_n,i + H_t,i λ_t,i),
// F on the left (gravity with y up enters as +m g, an applied force f as −f). The local
// normal velocity of constraint i is ∇h_iᵀ q̇, its acceleration ∇h_iᵀ q̈ + c_n,i with
// c_n,i = (d/dt ∇h_iᵀ) q̇; the same for the tangent block H_t,i with c_t,i.
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "moreau/common/types.hpp"
#include "moreau/model/vocabulary.hpp"

namespace moreau {

// A bilateral (equality) or unilateral (gap ≥ 0) constraint.
enum class ConstraintKind { bilateral, unilateral };

// One constraint of a ContactState: kind, gap, Jacobian rows, ġ terms, μ, law data.
struct ContactConstraint {
  std::string name;                                  // e.g. "floor/tip", "joint_1"
  ConstraintKind kind = ConstraintKind::unilateral;  // unilateral (g ≥ 0) or bilateral
  double mu = 0.0;                                   // Coulomb coefficient, 0 = frictionless
  double restitution = 0.0;                          // normal restitution e ∈ [0, 1]
  double tangential_restitution = 0.0;  // e_t ∈ [0, 1] of Siconos' NewtonImpactFrictionNSL
                                        // (sim/moreau_jean_osi.hpp; other laws ignore it)
  ImpactLaw law = ImpactLaw::newton;    // impact law (its rules:
                                        // sim/impact_law.hpp)
  double gap = 0.0;                     // h(q), m (0 for an active contact)
  Vector normal;                        // ∇h(q), n
  Matrix tangent;                       // H_t(q), n×(d−1)
  double normal_bias = 0.0;             // c_n = (d/dt ∇hᵀ) q̇, m/s²
  Vector tangent_bias;                  // c_t, d−1, m/s²
  // Drake-style softening and Baumgarte stabilization of this constraint (docs/references.md):
  double gamma = 0.0;            // velocity-level softening: 0 ≤ ġ + γλ ⊥ λ ≥ 0
  double baumgarte_alpha = 0.0;  // acceleration level: 0 ≤ g̈ + 2α ġ + β² g ⊥ λ ≥ 0
  double baumgarte_beta = 0.0;   // β of the same (0: the run's setting)
  // Where a contact between shapes is, in world axes: the point midway between its witness
  // points (m) and its unit normal n, from the second shape towards the first. NaN for one that
  // is not a shape contact (a joint row, a model written as formulas).
  Vector3 point = Vector3::Constant(std::numeric_limits<double>::quiet_NaN());
  // The unit normal of the same (NaN when point is).
  Vector3 world_normal = Vector3::Constant(std::numeric_limits<double>::quiet_NaN());
  // The bodies of a contact between shapes (indices of the rigid world; −1 otherwise): n points
  // from body_b towards body_a.
  Index body_a = -1, body_b = -1;  // the second body
};

// What a run records of one state (q, v).
struct RecordedState {
  Vector q;                // LagrangianSystem::recorded_positions(q)
  Vector v;                // LagrangianSystem::recorded_velocities(q, v)
  double kinetic = 0.0;    // T(q, v), J
  double potential = 0.0;  // V(q), J
};

// A system's state at one instant as the analysis and contact layers read it: M, F, constraints.
struct ContactState {
  int dimension = 2;  // 2 (planar: one tangent) or 3 (spatial: two tangents)
  double t = 0.0;     // s
  Vector q;           // generalized coordinates, n
  Vector v;           // generalized velocities q̇, n
  Matrix M;           // mass matrix, n×n, symmetric positive semidefinite (may be singular);
                      // 0×0 in a step state that the free flight alone reads (step_state)
  Vector F;           // n, see the convention above
  std::vector<ContactConstraint> constraints;  // m constraints, unilateral and bilateral
  // What a run records at (q, v), when the system formed it with the state from the same
  // kinematics (a rigid world in joint coordinates does in step_state); empty otherwise.
  std::optional<RecordedState> recorded;

  // n: generalized velocities (q may be longer: quaternions).
  Index dofs() const { return v.size(); }
  // m: the number of constraints.
  Index size() const { return static_cast<Index>(constraints.size()); }
  // Stacked blocks over all constraints, in order: J_n = [∇h_1 … ∇h_m] (n×m),
  // J_t = [H_t,1 … H_t,m] (n×(d−1)m), c_n (m), c_t ((d−1)m), μ (m).
  Matrix normal_jacobian() const;   // J_n, n×m
  Matrix tangent_jacobian() const;  // J_t, n×(d−1)m
  Vector normal_bias() const;       // c_n, m
  Vector tangent_bias() const;      // c_t, (d−1)m
  Vector friction() const;          // μ, m
  // Throws std::invalid_argument naming the field: sizes, NaN, μ < 0, e ∉ [0,1],
  // non-symmetric M (relative tolerance 1e-10), d ∉ {2, 3}.
  void validate() const;
};

}  // namespace moreau
