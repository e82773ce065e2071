#pragma once
// Small dense linear programs, solved exactly (up to round-off) by the two-phase primal simplex
// method with Bland's anti-cycling rule. Used for friction feasibility over a multiplier null
// space (docs/math/all_sticking.md, step 3), the LP of Brogliato, Kövecses & Acary 2020 Prop 6(iv),
// MFCQ tests, and the polygonal (inner/outer) approximations of the 3D friction disk (see
// cone_feasibility.hpp).
//
//   minimize   cᵀx
//   subject to A_eq x = b_eq,   A_ub x ≤ b_ub,   lower ≤ x ≤ upper
//
// lower may hold −inf (free variable), upper +inf. Empty A_eq / A_ub mean no such rows.
// Sizes: a few hundred rows and columns at most (dense tableau).
#include <string>

#include "moreau/common/types.hpp"

namespace moreau {

// A linear program (objective, constraints, bounds) for solve_linear_program.
struct LinearProgram {
  Vector c;      // n
  Matrix A_eq;   // m_eq×n (or 0×n / empty)
  Vector b_eq;   // m_eq
  Matrix A_ub;   // m_ub×n (or empty)
  Vector b_ub;   // m_ub
  Vector lower;  // n, may be −inf; empty = all 0
  Vector upper;  // n, may be +inf; empty = all +inf
};

// Outcome of solve_linear_program.
enum class LpStatus { optimal, infeasible, unbounded, iteration_limit };

// Settings of solve_linear_program.
struct LpSettings {
  double tolerance = 1e-9;     // pivot / feasibility tolerance (relative to the data scale)
  int max_iterations = 50000;  // simplex pivots, both phases together
};

// Solution of a linear program with its status.
struct LpResult {
  LpStatus status = LpStatus::iteration_limit;  // optimal, infeasible, unbounded, iteration_limit
  Vector x;                                     // n, a vertex solution when optimal
  double objective = 0;                         // cᵀx when optimal
  int iterations = 0;                           // simplex pivots performed
};

// Throws std::invalid_argument on inconsistent sizes, NaN, or lower > upper.
LpResult solve_linear_program(const LinearProgram& lp, const LpSettings& settings = {});

// Name of a status ("optimal", "infeasible", …).
std::string to_string(LpStatus status);

}  // namespace moreau
