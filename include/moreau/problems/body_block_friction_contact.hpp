#pragma once
// The global frictional contact problem of a system of rigid bodies, kept in its block structure
// (docs/math/frictional_contact.md §"Body-block form"): one mass block per body, and contacts and
// bilateral rows that each touch at most two bodies,
//   M v = M v_free + Σ_c H_c r_c + Σ_j g_j p_j,        M = diag(M_1 … M_nb)
//   u_c = H_cᵀ v + w_c = J_{c,a} v_a + J_{c,b} v_b + w_c   (d rows, normal first)
//   K_μc ∋ r_c ⊥ û_c ∈ K*_μc                              (unilateral contacts, exact cone)
//   with, for a softened contact, u_n,c + c_c r_n,c in place of u_n,c (c_c = γ/h, see sim)
//   u_j = g_jᵀ v + w_j = g_{j,a} v_a + g_{j,b} v_b + w_j = 0,   p_j ∈ ℝ   (bilateral rows)
// Without bilateral rows this is the FCLIB global problem (friction_contact.hpp) with f = M v_free;
// to_global() and condensed() return those forms, so every residual and solver of the family
// applies to it. Planar systems (d = 2) use 3 velocities per body, spatial (d = 3) use 6; the
// fixed-size storage below is 3×6 and 6×6 and planar data live in its top-left corner.
#include <vector>

#include "moreau/problems/friction_contact.hpp"

namespace moreau {

using BodyMassBlock = Eigen::Matrix<double, 6, 6>;     // M_b⁻¹, planar in the top-left 3×3
using ContactBodyRows = Eigen::Matrix<double, 3, 6>;   // J_{c,b}: d × m, planar 2×3 top-left
using BilateralBodyRow = Eigen::Matrix<double, 1, 6>;  // g_{j,b}: 1 × m

// One contact of a body-block problem: its two bodies and their Jacobian blocks.
struct BodyBlockContact {
  // Index of body a, −1 for a fixed body (no velocity).
  Index body_a = -1, body_b = -1;  // index of body b, −1 for a fixed body (no velocity)
  ContactBodyRows J_a = ContactBodyRows::Zero();  // J_{c,a}: the d × m block of body a
  ContactBodyRows J_b = ContactBodyRows::Zero();  // J_{c,b}: the d × m block of body b
};

// One bilateral (joint) row of a body-block problem.
struct BodyBlockBilateral {
  // Index of body a, −1 for a fixed body (no velocity).
  Index body_a = -1, body_b = -1;  // index of body b, −1 for a fixed body (no velocity)
  BilateralBodyRow g_a = BilateralBodyRow::Zero();  // g_{j,a}: the 1 × m row of body a
  BilateralBodyRow g_b = BilateralBodyRow::Zero();  // g_{j,b}: the 1 × m row of body b
};

// Frictional contact problem kept in body blocks (no dense Delassus matrix).
struct BodyBlockFrictionContactProblem {
  int dimension = 3;                          // d: 2 (planar, m = 3) or 3 (spatial, m = 6)
  std::vector<BodyMassBlock> mass_inverse;    // nb blocks M_b⁻¹, SPD, 1/kg and 1/(kg·m²)
  Vector v_free;                              // nb·m, velocity without contact impulses, m/s
  std::vector<BodyBlockContact> contacts;     // nc
  Vector w;                                   // d·nc, constant local velocity, m/s
  Vector mu;                                  // nc, ≥ 0
  Vector compliance;                          // nc, ≥ 0, or empty (= 0): softening c_c, the cone
                                              // complementarity is on ũ_c = u_c + c_c r_n,c e_n
  std::vector<BodyBlockBilateral> bilateral;  // nb rows
  Vector w_bilateral;                         // nb, m/s (or rad/s)

  // m, the velocities per body: 3 planar, 6 spatial.
  Index body_size() const { return dimension == 2 ? 3 : 6; }
  // nb, the number of bodies.
  Index bodies() const { return static_cast<Index>(mass_inverse.size()); }
  // n = nb·m, the size of v.
  Index dofs() const { return bodies() * body_size(); }
  // nc, the number of contacts.
  Index contact_count() const { return static_cast<Index>(contacts.size()); }

  // Throws std::invalid_argument naming the field and value: d ∉ {2, 3}, sizes, body indices out
  // of range, μ < 0, non-finite entries.
  void validate() const;
  // Softening of contact c (0 when `compliance` is empty).
  double compliance_of(Index c) const { return compliance.size() == 0 ? 0.0 : compliance[c]; }
  // M, H, f = M v_free, w, μ (refuses bilateral rows and compliance).
  GlobalFrictionContactProblem to_global() const;
  // W = Σ_b J_{·,b} M_b⁻¹ J_{·,b}ᵀ + diag(c e_n e_nᵀ), q = Hᵀ v_free + w (refuses bilateral rows).
  FrictionContactProblem condensed() const;
};

}  // namespace moreau
