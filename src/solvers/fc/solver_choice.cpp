// The default frictional-contact solver (solver_choice.hpp): features of W in one pass over its
// nonzeros, then the rule.
#include "moreau/solvers/fc/solver_choice.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "detail.hpp"
#include "moreau/common/first_solve_path.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"

namespace moreau {
namespace {

// contacts, blocks per row, coupling and μ_max of the header, in O(nnz(W) + n_c): per contact i
// the sums of |W_kl| over its diagonal block and over its off-diagonal blocks (by block row k/D),
// and the distinct nonzero blocks (i, j) counted with a last-seen mark per block column. D is a
// template parameter so that the block index per nonzero is a multiply and a shift, not an
// integer division (those were 37 % of `moreau solve` on NESpheres_30_1, 1900 nonzeros). W is
// row-major (types.hpp), so a row's block row i is fixed: its two sums are held in registers
// while the row is read (added in the same order as entry by entry into diag and off), and the
// last-seen mark is looked at once per run of a row's entries in one block.
template <int D>
MOREAU_FIRST_SOLVE_PATH void measure_blocks(const FrictionContactProblem& p,
                                            FrictionContactSolverChoice& c) {
  static_assert(SparseMatrix::IsRowMajor, "the pass reads W by rows");
  const Index nc = p.contacts();
  std::vector<double> diag(static_cast<size_t>(nc), 0.0), off(static_cast<size_t>(nc), 0.0);
  std::vector<Index> seen_in(static_cast<size_t>(nc), -1);  // block column → last block row
  Index blocks = 0;
  for (Index k = 0; k < p.W.outerSize(); ++k) {
    const Index i = k / D;
    double d = diag[i], o = off[i];
    Index last = -1;  // the block column of the row's last nonzero
    for (SparseMatrix::InnerIterator it(p.W, k); it; ++it) {
      if (it.value() == 0.0) continue;
      const Index j = it.index() / D;
      if (j == i)
        d += std::abs(it.value());
      else
        o += std::abs(it.value());
      if (j != last) {
        last = j;
        if (seen_in[j] != i) seen_in[j] = i, ++blocks;
      }
    }
    diag[i] = d, off[i] = o;
  }
  c.blocks_per_row = nc > 0 ? static_cast<double>(blocks) / static_cast<double>(nc) : 0.0;
  for (Index i = 0; i < nc; ++i)
    c.coupling =
        std::max(c.coupling, diag[i] > 0.0 ? off[i] / diag[i] : (off[i] > 0.0 ? INFINITY : 0.0));
}

MOREAU_FIRST_SOLVE_PATH void measure(const FrictionContactProblem& p,
                                     FrictionContactSolverChoice& c) {
  const Index nc = p.contacts();
  c.contacts = nc;
  c.mu_max = nc > 0 ? p.mu.maxCoeff() : 0.0;
  if (p.dimension == 3)
    measure_blocks<3>(p, c);
  else
    measure_blocks<2>(p, c);
}

// Thresholds of the rule, fitted on the shared FCLIB set (docs/benchmarks.md §"The default
// solver"): below kCoupled, Gauss–Seidel converges in few sweeps (spheres, Rovers, box stacks,
// NESpheres: coupling ≤ 4.3); from kDense blocks per row on, a Newton step's sparse LU fills in
// (KaplasTower 22.8, Confeti-ex13 18.6, PerioBox 14.5) while NSGS still does well.
constexpr double kCoupled = 4.4;
constexpr double kDense = 12.0;

// The rule: the registry name and the sentence that explains it.
const char* pick(const FrictionContactSolverChoice& c, const char** why) {
  if (c.contacts <= 1) {
    *why = "one contact: hybrid solves it with the exact one-contact solver in one call";
    return "hybrid";
  }
  if (c.coupling < kCoupled) {
    *why = "weakly coupled contacts (coupling < 4.4): Gauss-Seidel converges in few sweeps";
    return "hybrid";
  }
  if (c.blocks_per_row >= kDense) {
    *why =
        "dense W (12 or more blocks per row): Newton's sparse LU would fill in; Gauss-Seidel "
        "first, ADMM (one factorization of W + rho I) if Gauss-Seidel crawls";
    return "nsgs_admm";
  }
  *why =
      "strongly coupled contacts in a sparse W: Gauss-Seidel would crawl, semismooth Newton "
      "converges in tens of iterations";
  return "newton";
}

}  // namespace

FrictionContactSolverChoice explain_solver_choice(const FrictionContactProblem& p) {
  p.validate();
  FrictionContactSolverChoice c;
  measure(p, c);
  const char* why = "";
  c.solver = pick(c, &why);
  c.reason =
      fmt::format("{} contacts, {:.3g} blocks per row of W, coupling {:.3g}, μ ≤ {:.3g}: {} ({})",
                  c.contacts, c.blocks_per_row, c.coupling, c.mu_max, c.solver, why);
  return c;
}

std::string choose_friction_contact_solver(const FrictionContactProblem& p) {
  p.validate();
  return fc_detail::choose_solver_of_valid_problem(p);
}

std::string choose_velocity_level_solver(const FrictionContactProblem& p) {
  p.validate();
  const Index nc = p.contacts();
  if (nc >= 2 && nc <= fc_detail::kSmallDenseContacts) return "nsgs_admm";
  return fc_detail::choose_solver_of_valid_problem(p);
}

MOREAU_FIRST_SOLVE_PATH std::string fc_detail::choose_solver_of_valid_problem(
    const FrictionContactProblem& p) {
  if (p.contacts() <= 1) return "hybrid";  // pick's first case, without measuring W
  FrictionContactSolverChoice c;
  measure(p, c);
  const char* why = "";
  return pick(c, &why);
}

}  // namespace moreau
