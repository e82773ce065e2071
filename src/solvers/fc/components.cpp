// Independent components of a local frictional-contact problem (components.hpp).
#include "components.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

#include "detail.hpp"
#include "moreau/common/disjoint_sets.hpp"
#include "moreau/problems/relative_error.hpp"

namespace moreau::fc_detail {

std::vector<std::vector<Index>> contact_components(const FrictionContactProblem& p) {
  const int d = p.dimension;
  const Index nc = p.contacts();
  DisjointSets sets(nc);
  for (Index k = 0; k < p.W.outerSize(); ++k) {
    const Index i = k / d;
    Index last = i;  // a row's nonzeros come in runs of one block column: join each run once
    for (SparseMatrix::InnerIterator it(p.W, k); it; ++it) {
      const Index j = it.index() / d;
      if (j == last || it.value() == 0.0) continue;
      last = j;
      sets.join(i, j);
    }
  }
  std::vector<std::vector<Index>> out;
  std::vector<Index> index_of(static_cast<size_t>(nc), -1);  // component of each root
  for (Index i = 0; i < nc; ++i) {
    const Index r = sets.root(i);
    if (index_of[r] < 0) {
      index_of[r] = static_cast<Index>(out.size());
      out.emplace_back();
    }
    out[index_of[r]].push_back(i);
  }
  return out;
}

FrictionContactProblem component_problem(const FrictionContactProblem& p,
                                         const std::vector<Index>& contacts,
                                         const std::vector<Index>& local) {
  const int d = p.dimension;
  const Index m = static_cast<Index>(contacts.size());
  FrictionContactProblem s;
  s.dimension = d;
  s.q.resize(d * m);
  s.mu.resize(m);
  std::vector<Eigen::Triplet<double>> entries;
  for (Index k = 0; k < m; ++k) {
    const Index c = contacts[k];
    s.q.segment(d * k, d) = p.q.segment(d * c, d);
    s.mu[k] = p.mu[c];
    for (int a = 0; a < d; ++a)
      for (SparseMatrix::InnerIterator it(p.W, d * c + a); it; ++it) {
        if (it.value() == 0.0) continue;  // a stored zero couples nothing (contact_components)
        const Index other = it.index() / d, j = local[other];
        MOREAU_REQUIRE(j >= 0 && j < m && contacts[j] == other,
                       "component_problem: contact {} is coupled to contact {} outside it", c,
                       other);
        entries.emplace_back(d * k + a, d * j + it.index() % d, it.value());
      }
  }
  s.W.resize(d * m, d * m);
  s.W.setFromTriplets(entries.begin(), entries.end());
  return s;
}

FrictionContactResult solve_by_components(const FrictionContactProblem& p,
                                          const std::vector<std::vector<Index>>& components,
                                          const FrictionContactSettings& settings,
                                          const Vector& guess, ComponentSolve solve_one) {
  const Stopwatch clock;
  FrictionContactResult res = start(p, settings, "components");
  const int d = p.dimension;
  const Index K = static_cast<Index>(components.size());
  const long long n = p.contacts();
  Vector r = initial_r(p, guess);
  std::vector<Index> local(static_cast<size_t>(n), -1);  // each contact's index in its component
  for (const auto& c : components)
    for (size_t k = 0; k < c.size(); ++k) local[c[k]] = static_cast<Index>(k);
  std::vector<FrictionContactProblem> parts;
  parts.reserve(static_cast<size_t>(K));
  for (const auto& c : components) parts.push_back(component_problem(p, c, local));
  std::vector<double> tolerance(static_cast<size_t>(K), settings.tolerance);
  std::vector<bool> pending(static_cast<size_t>(K), true);
  std::vector<FrictionContactResult> last(static_cast<size_t>(K));
  long long work = 0;  // Σ it_C n_C: the whole-problem equivalents times n, in integers
  bool out_of_time = false, out_of_budget = false;
  Index solved = 0;  // component solves run
  double e = std::numeric_limits<double>::infinity();
  for (int pass = 0; pass < 4 && !out_of_time && !out_of_budget; ++pass) {
    for (Index c = 0; c < K; ++c) {
      if (!pending[c]) continue;
      const double left = settings.time_limit - clock.seconds();
      const long long n_c = parts[c].contacts();
      // the budget left in whole-problem equivalents, (max_iterations n − work) / n_C of the
      // component's own iterations, and never more than max_iterations of them (the newton
      // schedule's last stage takes what it is given: CubesStack-10x10x10's hardest column
      // ground on for 18 s with 900,000)
      const long long allowed = std::min((settings.max_iterations * n - work) / n_c,
                                         static_cast<long long>(settings.max_iterations));
      if (!(left > 0.0)) out_of_time = true;
      if (allowed < 1) out_of_budget = true;
      if (out_of_time || out_of_budget) break;
      FrictionContactSettings sc = settings;
      sc.tolerance = tolerance[c];
      sc.time_limit = left;
      sc.max_iterations = static_cast<int>(allowed);
      Vector start_c(d * parts[c].contacts());
      for (size_t k = 0; k < components[c].size(); ++k)
        start_c.segment(d * static_cast<Index>(k), d) = r.segment(d * components[c][k], d);
      FrictionContactResult x = solve_one(parts[c], sc, start_c);
      work += static_cast<long long>(x.iterations) * n_c;
      ++solved;
      for (size_t k = 0; k < components[c].size(); ++k)
        r.segment(d * components[c][k], d) = x.r.segment(d * static_cast<Index>(k), d);
      last[c] = std::move(x);
    }
    finish(res, p, r, clock);
    e = res.residual;
    res.residual_history.push_back(e);
    if (!(e > settings.tolerance) || out_of_time || out_of_budget) break;
    // the shares of the header: ε s / (√K s_C)
    const double s = std::max({p.q.norm(), res.r.norm(), res.u.norm()});
    bool any = false;
    for (Index c = 0; c < K; ++c) {
      const FrictionContactResult& x = last[c];
      const double s_c = std::max({parts[c].q.norm(), x.r.norm(), x.u.norm()});
      const double share = settings.tolerance * s / (std::sqrt(static_cast<double>(K)) * s_c);
      pending[c] = s_c > 0.0 && x.residual > share;
      if (pending[c]) tolerance[c] = share, any = true;
    }
    if (!any) break;
  }
  if (solved == 0) finish(res, p, r, clock);  // no component ran: the guess, as it is
  res.iterations = static_cast<int>((work + n - 1) / n);
  // status: the whole residual decides; the message names the components' solvers
  res.status = e <= settings.tolerance                                ? Status::converged
               : out_of_time || clock.seconds() > settings.time_limit ? Status::time_limit
               : !std::isfinite(res.residual)                         ? Status::numerical_failure
                                                                      : Status::max_iterations;
  std::map<std::string, int> by_solver;
  Index largest = 0, above = 0;
  for (Index c = 0; c < K; ++c) {
    ++by_solver[last[c].solver.empty() ? "none" : last[c].solver];
    largest = std::max(largest, parts[c].contacts());
    if (!(last[c].residual <= tolerance[c])) ++above;
  }
  std::string solvers;
  for (const auto& [name, count] : by_solver)
    solvers += fmt::format("{}{} {}", solvers.empty() ? "" : ", ", name, count);
  res.message = fmt::format("{} independent components (largest {} contacts), solved by {}", K,
                            largest, solvers);
  if (res.status != Status::converged && above > 0)
    res.message += fmt::format("; {} above their tolerance", above);
  res.seconds = clock.seconds();
  return res;
}

}  // namespace moreau::fc_detail
