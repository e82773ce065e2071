#pragma once
// Mixed linear complementarity problem (Siconos' convention): find u ∈ ℝⁿ, v ∈ ℝᵐ with
//   A u + C v + a = 0                  (n equalities)
//   w = D u + B v + b,  0 ≤ v ⊥ w ≥ 0  (m complementarities)
#include "moreau/common/status.hpp"
#include "moreau/common/types.hpp"

namespace moreau {

// Mixed linear complementarity problem (equality and complementarity blocks).
struct Mlcp {
  Matrix A;  // n×n, equality block
  Matrix B;  // m×m, complementarity block
  Matrix C;  // n×m
  Matrix D;  // m×n
  Vector a;  // n
  Vector b;  // m

  // n, the number of equalities (size of u).
  Index equalities() const { return a.size(); }
  // m, the number of complementarities (size of v and w).
  Index complementarities() const { return b.size(); }
  // Throws std::invalid_argument naming the block whose size is wrong or that has NaN/inf.
  void validate() const;
};

// Solution of an MLCP with the solver report.
struct MlcpResult : SolverReport {
  Vector u;  // n, free variables
  Vector v;  // m, complementarity variables
  Vector w;  // m, w = D u + B v + b
};

// The one MLCP residual:
//   sqrt(‖A u + C v + a‖² + ‖min(v, w)‖²) / max(‖a‖, ‖b‖, ‖v‖, ‖w‖)
// (no division below 1e-300; +∞ or NaN when u or v has a non-finite entry, never 0).
double mlcp_residual(const Mlcp& problem, const Vector& u, const Vector& v);

}  // namespace moreau
