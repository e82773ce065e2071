#include "moreau/solvers/fc/nsgs.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <memory>
#include <random>
#include <vector>

#include "detail.hpp"
#include "moreau/common/first_solve_path.hpp"

namespace moreau {

namespace {

// W's columns for the update u += W(:, j) δ_j that keeps u = W r + q. The sparse columns in
// general; a dense column-major copy where W is small and mostly full (nsgs_uses_dense_columns:
// a few contacts, as the Rover problems' 5; a contiguous column the compiler vectorizes, instead
// of a stored index and a dependent load per entry, which were most of NSGS's own time there).
// For a finite δ_j each u_i gets the same products in the same order either way; where W_ij is
// not stored the dense copy adds W_ij δ_j = ±0, which changes no bit, since u never holds −0
// (it starts as q + 0 or W r + q, and a sum is −0 only when both terms are). A non-finite δ_j
// would spread NaN to every row on the dense path, to W's stored rows on the sparse one; the
// residual test stops the solve as not finite either way.
struct SparseColumns {
  // W in compressed columns: column j's rows row[k] and values value[k] for k in
  // [start[j], start[j + 1]), rows increasing, as Eigen's column-major copy stores them.
  std::vector<SparseMatrix::StorageIndex> start, row;  // W's own index type, as Eigen's copy
  std::vector<double> value;
  MOREAU_FIRST_SOLVE_PATH void add(Index j, double d, Vector& u) const {
    for (Index k = start[j]; k < start[j + 1]; ++k) u[row[k]] += value[k] * d;
  }
};
// The columns of W (row-major) by a counting transpose: each column's entries counted, the
// counts summed into starts, then the rows walked in order, so that a column's entries come in
// increasing row order. Eigen's conversion does the same, but out of line (EIGEN_DONT_INLINE),
// 4 MB away from the first solve's code: a page fault of its own on the first solve of every
// problem past kDenseColumnRows (common/first_solve_path.hpp).
MOREAU_FIRST_SOLVE_PATH SparseColumns sparse_columns(const SparseMatrix& W) {
  SparseColumns c;
  c.start.assign(W.cols() + 1, 0);
  for (Index i = 0; i < W.rows(); ++i)
    for (SparseMatrix::InnerIterator it(W, i); it; ++it) ++c.start[it.col() + 1];
  std::partial_sum(c.start.begin(), c.start.end(), c.start.begin());
  c.row.resize(c.start.back());
  c.value.resize(c.start.back());
  std::vector<SparseMatrix::StorageIndex> next(c.start.begin(), c.start.end() - 1);
  for (Index i = 0; i < W.rows(); ++i)
    for (SparseMatrix::InnerIterator it(W, i); it; ++it) {
      const Index k = next[it.col()]++;
      c.row[k] = static_cast<SparseMatrix::StorageIndex>(i);
      c.value[k] = it.value();
    }
  return c;
}
struct DenseColumns {
  Matrix W;
  MOREAU_FIRST_SOLVE_PATH void add(Index j, double d, Vector& u) const {
    u.noalias() += W.col(j) * d;
  }
};

// One-contact update of contact i; returns true if r_i changed. u is kept equal to W r + q.
template <int D, typename Columns>
MOREAU_FIRST_SOLVE_PATH bool update_contact(const ContactBlock& block, const Columns& Wc, double mu,
                                            double omega, bool stick_seed, Index i, Vector& r,
                                            Vector& u, int& failures) {
  using Vec = Eigen::Matrix<double, D, 1>;
  const Index o = D * i;
  Vec ri = r.segment<D>(o);
  const Vec qt = u.segment<D>(o) - block.W.topLeftCorner<D, D>() * ri;
  Vec rn = ri;
  bool ok;
  if constexpr (D == 3) {
    ok = solve_one_contact_3d(block, qt, mu, rn, stick_seed);
  } else {
    ok = solve_one_contact_2d(block, qt, mu, rn);
  }
  if (!ok) ++failures;
  if (omega != 1.0) rn = omega * rn + (1.0 - omega) * ri;
  const Vec delta = rn - ri;
  if (delta.isZero(0.0)) return false;
  r.segment<D>(o) = rn;
  for (int a = 0; a < D; ++a)
    if (delta[a] != 0.0) Wc.add(o + a, delta[a], u);
  return true;
}

}  // namespace

// Up to 96 rows the dense copy (at most 74 KB) is about the size of the column-major sparse copy
// it replaces at half density, so it costs no more to form or to page in on a first solve.
constexpr Index kDenseColumnRows = 96;

MOREAU_FIRST_SOLVE_PATH bool nsgs_uses_dense_columns(const SparseMatrix& W) {
  const Index m = W.rows();
  return m == W.cols() && m <= kDenseColumnRows && 2 * W.nonZeros() >= m * m;
}

// Algorithm: see the header. Stopping test: friction_contact_residual(r, u) ≤ tolerance with u
// freshly recomputed as W r + q.
MOREAU_FIRST_SOLVE_PATH FrictionContactResult solve_nsgs(const FrictionContactProblem& problem,
                                                         const NsgsSettings& s,
                                                         const Vector& guess) {
  const Stopwatch clock;
  FrictionContactResult res = fc_detail::start(problem, s, "nsgs");
  MOREAU_REQUIRE(s.relaxation > 0.0 && s.relaxation < 2.0,
                 "NSGS relaxation must be in (0, 2), got {}", s.relaxation);
  MOREAU_REQUIRE(s.check_every >= 1, "NSGS check_every must be ≥ 1, got {}", s.check_every);
  Vector r = fc_detail::initial_r(problem, guess);
  const Index nc = problem.contacts();
  const int d = problem.dimension;
  const std::vector<ContactBlock> blocks = fc_detail::diagonal_blocks(problem);
  // u = W r + q; from r = 0 (initial_r's start when there is no guess) that is q + 0 to the bit
  // (local_velocity's sum of the products starts at +0, which turns a −0 of q into +0), without
  // a pass over W
  Vector u = guess.size() == 0 ? Vector(problem.q.array() + 0.0) : local_velocity(problem, r);
  std::vector<Index> order(nc);
  std::iota(order.begin(), order.end(), Index{0});
  // seeded only for a shuffled order: seeding a Mersenne twister fills 624 words, which was most
  // of a cyclic solve of a robot's few limit rows. On the heap: its 5 KB in this frame pushed
  // every call below it (the one-contact solves) onto stack pages that a process's first solve
  // had never touched, a page fault each (about 10 µs on a virtual machine)
  std::unique_ptr<std::mt19937> rng;
  if (s.order != NsgsOrder::cyclic) {
    rng = std::make_unique<std::mt19937>(s.seed);
    std::shuffle(order.begin(), order.end(), *rng);
  }

  // the clock is read once a sweep only under a time limit (on a sweep of 5 contacts, a read
  // was 3 % of it)
  const bool timed = std::isfinite(s.time_limit);
  double e = friction_contact_residual(problem, r, u);
  res.status = Status::max_iterations;
  int failures = 0;
  if (e <= s.tolerance) {
    res.status = Status::converged;
  } else {
    // the sweeps, through either kind of columns (GCC's spelling of the hot attribute: the
    // standard one, MOREAU_FIRST_SOLVE_PATH, does not apply to a lambda's call operator there)
    auto sweeps = [&](const auto& columns) __attribute__((hot)) {
      for (int k = 1; k <= s.max_iterations; ++k) {
        if (s.order == NsgsOrder::shuffled_each) std::shuffle(order.begin(), order.end(), *rng);
        for (Index i : order) {
          if (d == 3)
            update_contact<3>(blocks[i], columns, problem.mu[i], s.relaxation, s.stick_seed, i, r,
                              u, failures);
          else
            update_contact<2>(blocks[i], columns, problem.mu[i], s.relaxation, s.stick_seed, i, r,
                              u, failures);
        }
        res.iterations = k;
        if (k % 64 == 0) u = local_velocity(problem, r);  // cancel the drift of the updates
        if (k % s.check_every == 0 || k == s.max_iterations) {
          e = friction_contact_residual(problem, r, u);
          if (e <= s.tolerance) {
            u = local_velocity(problem, r);
            e = friction_contact_residual(problem, r, u);
          }
          res.residual_history.push_back(e);
          if (!std::isfinite(e)) {
            res.status = Status::numerical_failure;
            res.message = "NaN in the NSGS iterate";
            break;
          }
          if (e <= s.tolerance) {
            res.status = Status::converged;
            break;
          }
        }
        if (timed && clock.seconds() > s.time_limit) {
          res.status = Status::time_limit;
          break;
        }
      }
    };
    if (nsgs_uses_dense_columns(problem.W))
      sweeps(DenseColumns{problem.W.toDense()});
    else
      sweeps(sparse_columns(problem.W));
  }
  if (failures > 0 && res.status != Status::converged)
    res.message = fmt::format("{} local solves could not be certified", failures);
  // a converged result's u and e were formed afresh (after the sweep, or from the start point)
  if (res.status == Status::converged)
    fc_detail::finish(res, std::move(r), std::move(u), e, clock);
  else
    fc_detail::finish(res, problem, std::move(r), clock);
  return res;
}

}  // namespace moreau
