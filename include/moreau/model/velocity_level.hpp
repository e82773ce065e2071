#pragma once
// The velocity-level contact problem shared by Moreau–Jean time stepping and by impacts of the
// event-driven integrator (docs/simulation.md §"Velocity-level problem"):
//   M (v⁺ − v_free) = H_U r + H_B p,
//   u_U = H_Uᵀ v⁺ + w_U (+ c r_n on the normal entries of softened contacts),
//                              K_μ ∋ r ⊥ û_U ∈ K*_μ     (unilateral contacts U, exact Coulomb cone)
//   u_B = H_Bᵀ v⁺ + w_B = 0,   p ∈ ℝ                    (bilateral rows B, free multipliers)
// The bilateral rows are eliminated exactly by the Schur complement of the Delassus operator:
//   p = −W_BB⁺ (W_BU r + q_B),   W̃ = W_UU − W_UB W_BB⁺ W_BU,   q̃ = q_U − W_UB W_BB⁺ q_B,
// so the remaining problem (W̃, q̃, μ) is a plain frictional-contact problem solved by the
// registry (solvers/fc). W_BB⁺ is a pseudo-inverse, so redundant joints are accepted.
#include <optional>
#include <string>
#include <vector>

#include <Eigen/SparseCholesky>
#include <Eigen/SparseLU>

#include "moreau/model/contact_state.hpp"
#include "moreau/model/multibody/tree_factorization.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"

namespace moreau {

// Factorization of the mass matrix M (n×n, symmetric positive definite), sparse LDLᵀ so that
// block-diagonal masses of many bodies stay cheap, or along a kinematic tree (Featherstone's LTDL,
// model/multibody/tree_factorization.hpp) when the system gives M's tree. A non-symmetric matrix
// (the iteration matrix M + hθC + h²θ²K of sim/moreau_jean_osi.hpp with a non-symmetric C or K)
// is factorized by sparse LU instead.
class MassSolver {
 public:
  // Nothing factorized yet (factorize() before solve()).
  MassSolver() = default;
  // Factorizes M; throws std::invalid_argument when M is not positive definite (symmetric) or
  // singular (non-symmetric).
  explicit MassSolver(const Matrix& M) { factorize(M); }
  // Factorizes M (again). A symmetric M whose sparsity pattern is the last one's reuses its
  // fill-reducing ordering and symbolic analysis (a kinematic tree's M keeps its pattern as q
  // moves), so only the numeric LDLᵀ is redone.
  void factorize(const Matrix& M);
  // Factorizes M along its kinematic tree: `parent` holds each velocity's parent dof (−1 at a
  // root; M_ij ≠ 0 only when one of i, j is an ancestor of the other), as
  // LagrangianSystem::mass_tree() gives it; nullptr factorizes as factorize(M). Throws
  // std::invalid_argument, naming the velocity, when a pivot is not positive.
  void factorize(const Matrix& M, const std::vector<Index>* parent);
  // M⁻¹ b.
  Vector solve(const Vector& b) const;
  // b ← M⁻¹ b (along the tree without a copy).
  void solve_in_place(Eigen::Ref<Vector> b) const;
  // Whether the last factorization was along a kinematic tree.
  bool along_tree() const { return tree_used_; }
  // The tree factorization (meaningful when along_tree()).
  const TreeFactorization& tree() const { return tree_; }
  // M⁻¹ B for a sparse right-hand side B (n × k).
  Eigen::SparseMatrix<double> solve(const Eigen::SparseMatrix<double>& B) const;

 private:
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt_;
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu_;  // used when symmetric_ is false
  TreeFactorization tree_;                           // used when tree_used_ is true
  bool tree_used_ = false;
  bool symmetric_ = true;
  Eigen::SparseMatrix<double> pattern_;  // the symmetric M analysed last (its pattern), or empty
};

// Largest velocity count, and largest row count of W, at which solve_velocity_level forms W
// dense as Yᵀ D⁻¹ Y, Y = L⁻ᵀ H, when M is factorized along a tree (joint coordinates; docs/math/
// multibody.md §The tree factorization); above either, M⁻¹H and W sparse (a robot among many loose
// bodies: their contacts' W is block-sparse).
inline constexpr Index kDenseCondensation = 256;

// What a velocity-level step problem is built from: index sets, constant terms, warm start.
struct VelocityLevelInput {
  std::vector<Index> unilateral;  // constraint indices of U, in order
  Vector w_unilateral;           // d·|U|, m/s, constant local velocity (restitution e·u_n⁻ …)
  std::vector<Index> bilateral;  // constraint indices of B
  Vector w_bilateral;            // |B|, m/s
  Vector guess;                  // d·|U| warm start of r, or empty
  Vector compliance;             // |U| softening c ≥ 0 (ũ_n = u_n + c r_n), or empty (= 0)
};

// The post-step velocity, the impulses and the local velocities of a velocity-level problem.
struct VelocityLevelSolution {
  Vector v;                      // n, v⁺
  Vector r;                      // d·|U|, contact impulses, normal first, N·s
  Vector u;                      // d·|U|, local velocities H_Uᵀ v⁺ + w_U
  Vector p;                      // |B|, bilateral impulses, N·s
  FrictionContactResult report;  // the registry's report on the condensed problem
};

// Solves the problem above at the contact state s (M, normals, tangents) from v_free.
VelocityLevelSolution solve_velocity_level(const ContactState& s, const MassSolver& mass,
                                           const Vector& v_free, const VelocityLevelInput& input,
                                           const std::string& solver,
                                           const FrictionContactSettings& settings);

// The warm start's solution, when it already solves the problem to `tolerance`, found without
// forming W (the check a solver makes before its first iteration, at the cost of one solve with
// M instead of W's d|U| solves and products):
//   v⁺ = v_free + M⁻¹ H_U g,   u = H_Uᵀ v⁺ + w_U (+ c g_n),   q = H_Uᵀ v_free + w_U,
// and friction_contact_residual's natural-map error of (g, u) relative to max(‖q‖, ‖g‖, ‖u‖) at
// most `tolerance`. v⁺ and u are formed as solve_velocity_level's dense route forms them from its
// solution. Empty when there is no guess, when B is not empty, when M is not factorized along a
// tree or the problem is above the dense route's sizes (kDenseCondensation), when a μ is not
// ≥ 0 (left to the solver's checks), or when the residual is above the tolerance. The report
// names `solver`, with 0 iterations.
std::optional<VelocityLevelSolution> warm_start_solution(
    const ContactState& s, const MassSolver& mass, const Vector& v_free,
    const VelocityLevelInput& input, double tolerance, const std::string& solver);

// The columns [∇h_i, H_t,i] of the listed constraints as a sparse n×(d·|U|) matrix (one column
// per bilateral constraint when bilateral is true).
Eigen::SparseMatrix<double> contact_jacobian(const ContactState& s, const std::vector<Index>& which,
                                             bool bilateral);

}  // namespace moreau
