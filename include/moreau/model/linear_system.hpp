#pragma once
// A linear time-invariant Lagrangian system in generalized coordinates with linear relations
// (the `system` scene kind, docs/scene-format.md §System; Siconos' LagrangianLinearTIDS with
// LagrangianLinearTIR relations; the step: docs/simulation.md §The Siconos scheme):
//   M q̈ + C q̇ + K q = f + Σ_i H_iᵀ λ_i,
// with, per relation i, the gap g_i = n_iᵀ q + b_i (n_i the "normal" row, b_i the "offset"),
// 0, 1 or 2 tangent rows t_i (frictionless, 2D or 3D Coulomb friction), the Newton restitution
// e_i, the tangential restitution e_t,i and μ_i. In moreau's left-side convention
// (model/contact_state.hpp) F(q, q̇) = C q̇ + K q − f, ∇h_i = n_i, H_t,i = t_iᵀ.
#include <string>
#include <vector>

#include "moreau/model/lagrangian_system.hpp"

namespace moreau {

// One relation of a LinearSystem: g = normalᵀ q + offset ≥ 0, tangents as rows.
struct LinearRelation {
  std::string name;     // unique within the system
  Vector normal;        // n, the row of the gap
  double offset = 0.0;  // m, b of g = nᵀq + b
  Matrix tangents;      // 0, 1 or 2 rows of n entries (0 rows: frictionless)
  double e = 0.0;       // Newton restitution e ∈ [0, 1]
  double mu = 0.0;      // Coulomb coefficient (0 when there are no tangents)
  double e_t = 0.0;     // tangential restitution e_t ∈ [0, 1]
};

// The data of a LinearSystem, as the `system` scene object gives it.
struct LinearSystemData {
  std::vector<std::string> coordinates;   // n names
  Matrix mass;                            // M, n×n symmetric positive definite
  Matrix damping;                         // C, n×n (empty: 0)
  Matrix stiffness;                       // K, n×n (empty: 0)
  Vector force;                           // f, n (empty: 0)
  std::vector<LinearRelation> relations;  // the unilateral relations, in output order
};

// The system above. Every check of the data throws std::invalid_argument naming the key, e.g.
// "mass: not positive definite (smallest eigenvalue -1)", "relations[0].normal has 2 entries,
// expected 3".
class LinearSystem : public LagrangianSystem {
 public:
  // Checks the data (messages above) and fills empty C, K, f with zeros.
  LinearSystem(std::string name, LinearSystemData data);

  std::string name() const override { return name_; }
  // 3 when a relation has two tangent rows, else 2.
  int dimension() const override { return dimension_; }
  Index velocity_size() const override { return static_cast<Index>(data_.coordinates.size()); }
  // The coordinate names.
  std::vector<std::string> position_names() const override { return data_.coordinates; }
  // The coordinate names with "_dot" appended.
  std::vector<std::string> velocity_names() const override;
  // M, F = C v + K q − f and every relation (gap, ∇h = n, H_t = tᵀ, no bias terms).
  ContactState contact_state(const Vector& q, const Vector& v, double t) const override;
  // Exact: K and C.
  void force_jacobians(const Vector& q, const Vector& v, double t, Matrix& K,
                       Matrix& C) const override;
  // ½ vᵀ M v.
  double kinetic_energy(const Vector& q, const Vector& v) const override;
  // V = ½ qᵀ K q − fᵀ q (the potential of the conservative part; C dissipates).
  double potential_energy(const Vector& q) const override;

  // The data as given (empty C, K, f filled with zeros).
  const LinearSystemData& data() const { return data_; }

 private:
  std::string name_;
  LinearSystemData data_;
  int dimension_ = 2;
};

}  // namespace moreau
