#include "moreau/solvers/fc/friction_contact_solver.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "detail.hpp"
#include "moreau/solvers/fc/admm.hpp"
#include "moreau/solvers/fc/lemke_pyramid.hpp"
#include "moreau/solvers/fc/newton.hpp"
#include "moreau/solvers/fc/nsgs.hpp"
#include "moreau/solvers/lcp/lemke.hpp"

namespace moreau {

namespace {

using LocalSolve = std::function<FrictionContactResult(
    const FrictionContactProblem&, const FrictionContactSettings&, const Vector&)>;

struct Entry {
  std::string_view name;
  bool two_d;    // available for dimension 2
  bool three_d;  // available for dimension 3
  std::string_view description;
  LocalSolve solve;
};

// Adapter of an iterative solver to the registry: the common settings (tolerance, iteration
// and time budgets) copied into the solver's own settings type, its other fields at their defaults.
template <typename Settings, FrictionContactResult (*Solve)(const FrictionContactProblem&,
                                                            const Settings&, const Vector&)>
FrictionContactResult run_iterative(const FrictionContactProblem& p,
                                    const FrictionContactSettings& s, const Vector& g) {
  return Solve(
      p,
      Settings{
          .tolerance = s.tolerance, .max_iterations = s.max_iterations, .time_limit = s.time_limit},
      g);
}

FrictionContactResult run_lemke_pyramid(const FrictionContactProblem& p,
                                        const FrictionContactSettings& s, const Vector&) {
  return solve_lemke_pyramid(p, LemkePyramidSettings{.tolerance = s.tolerance});
}

// Exact (2D problems): a finite pivoting method, no iteration tolerance. Frictionless problems
// (every μ = 0): Lemke on the normal LCP 0 ≤ r_n ⊥ W_nn r_n + q_n ≥ 0 (r_t = 0), as Siconos'
// LCP() does; 2D Coulomb friction: Lemke on its LCP form (lemke_pyramid, whose 2D cone is
// exact). 3D Coulomb friction has no finite exact method, so the name is 2D only.
FrictionContactResult run_exact(const FrictionContactProblem& p, const FrictionContactSettings& s,
                                const Vector&) {
  const Stopwatch clock;
  const int d = p.dimension;
  const Index nc = p.contacts();
  if (p.mu.size() > 0 && p.mu.cwiseAbs().maxCoeff() > 0.0) {
    FrictionContactResult res =
        solve_lemke_pyramid(p, LemkePyramidSettings{.tolerance = s.tolerance});
    res.solver = "exact";
    return res;
  }
  Matrix Wnn(nc, nc);
  Vector qn(nc);
  const Matrix W = Matrix(p.W);
  for (Index i = 0; i < nc; ++i) {
    qn[i] = p.q[d * i];
    for (Index j = 0; j < nc; ++j) Wnn(i, j) = W(d * i, d * j);
  }
  const LcpResult lr = solve_lemke(Lcp{Wnn, qn});
  FrictionContactResult res;
  res.solver = "exact";
  res.iterations = lr.iterations;
  Vector r = Vector::Zero(d * nc);
  for (Index i = 0; i < nc; ++i) r[d * i] = lr.z.size() == nc ? lr.z[i] : 0.0;
  if (!r.allFinite()) r.setZero();
  fc_detail::finish(res, p, std::move(r), clock);
  res.residual_history.push_back(res.residual);
  res.status = lr.status;
  if (lr.status != Status::converged)
    res.message = "Lemke on the normal LCP: " + std::string(to_string(lr.status)) +
                  (lr.message.empty() ? "" : " (" + lr.message + ")");
  return res;
}

// Hybrid: NSGS (cheap sweeps, exact local solves) by chunks of 200 sweeps. After each chunk the
// sweeps still needed are predicted from the linear rate of the last 100 sweeps; when more than
// 1000 are predicted, semismooth Newton (Alart–Curnier, ≤ 100 iterations) is run from the NSGS
// iterate, then Fischer–Burmeister Newton (≤ 400) from the start point, and NSGS resumes from
// the best iterate if Newton fails.
FrictionContactResult run_hybrid(const FrictionContactProblem& p, const FrictionContactSettings& s,
                                 const Vector& g) {
  const Stopwatch clock;
  FrictionContactResult best;
  best.residual = std::numeric_limits<double>::infinity();
  std::vector<double> history;
  int iterations = 0, newton_runs = 0;
  std::string path;
  auto remaining_time = [&] { return std::max(1e-9, s.time_limit - clock.seconds()); };
  auto take = [&](FrictionContactResult&& x) {
    iterations += x.iterations;
    history.insert(history.end(), x.residual_history.begin(), x.residual_history.end());
    if (path.size() < 200) path += (path.empty() ? "" : "+") + x.solver;
    if (x.residual < best.residual || x.converged() || best.r.size() == 0) best = std::move(x);
  };
  Vector r = g;
  while (!best.converged() && iterations < s.max_iterations && clock.seconds() <= s.time_limit) {
    const int budget = std::min(200, s.max_iterations - iterations);
    FrictionContactResult x = solve_nsgs(
        p,
        NsgsSettings{
            .tolerance = s.tolerance, .max_iterations = budget, .time_limit = remaining_time()},
        best.r.size() ? best.r : r);
    const std::vector<double> h = x.residual_history;
    take(std::move(x));
    if (best.converged() || h.size() < 101 || newton_runs >= 2) continue;
    const double e1 = h[h.size() - 101], e2 = h.back();
    const double rate = e2 > 0.0 && e1 > 0.0 ? std::pow(e2 / e1, 0.01) : 0.0;
    const double needed = rate < 1.0 && rate > 0.0 ? std::log(s.tolerance / e2) / std::log(rate)
                                                   : std::numeric_limits<double>::infinity();
    if (needed <= 1000.0) continue;
    const int nbudget = std::min(100, s.max_iterations - iterations);
    if (nbudget <= 0) break;
    ++newton_runs;
    // First Alart–Curnier from the NSGS iterate, then (if that failed) Fischer–Burmeister from
    // the caller's start point with a larger budget.
    const NewtonSettings ns{
        .tolerance = s.tolerance,
        .max_iterations =
            newton_runs == 1 ? nbudget : std::min(4 * nbudget, s.max_iterations - iterations),
        .time_limit = remaining_time()};
    if (newton_runs == 1)
      take(solve_newton_ac(p, ns, best.r));
    else
      take(solve_newton_fb(p, ns, r));
  }
  best.solver = "hybrid";
  best.message = "stages: " + path + (best.message.empty() ? "" : "; " + best.message);
  best.iterations = iterations;
  best.residual_history = std::move(history);
  best.seconds = clock.seconds();
  if (!best.converged())
    best.status = clock.seconds() > s.time_limit ? Status::time_limit : Status::max_iterations;
  return best;
}

const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries{
      {"hybrid", true, true,
       "NSGS, then Alart-Curnier Newton from its iterate when NSGS stalls, alternating (default)",
       run_hybrid},
      {"nsgs", true, true,
       "nonsmooth Gauss-Seidel over contacts, exact one-contact solver (Coulomb cone)",
       run_iterative<NsgsSettings, solve_nsgs>},
      {"newton_ac", true, true,
       "semismooth Newton on the Alart-Curnier function, sparse LU, Armijo line search",
       run_iterative<NewtonSettings, solve_newton_ac>},
      {"newton_fb", true, true,
       "semismooth Newton on the Fischer-Burmeister SOCCP function, sparse LU, Armijo line search",
       run_iterative<NewtonSettings, solve_newton_fb>},
      {"admm", true, true,
       "ADMM with De Saxce's correction, Nesterov acceleration, W + rho I factorized (LDLt)",
       run_iterative<AdmmSettings, solve_admm>},
      {"lemke_pyramid", true, true,
       "pyramidal friction cone (8 edges in 3D, exact in 2D) as one dense LCP, Lemke; small "
       "problems",
       run_lemke_pyramid},
      {"exact", true, false,
       "2D: Lemke's method on the normal LCP when frictionless, else on the LCP form of 2D "
       "Coulomb friction (exact, small problems)",
       run_exact},
  };
  return entries;
}

const Entry* find_entry(std::string_view name, int dimension) {
  for (const Entry& e : registry())
    if (e.name == name && (dimension == 2 ? e.two_d : e.three_d)) return &e;
  return nullptr;
}

std::string joined_names(int dimension) {
  std::string out;
  for (const auto& n : friction_contact_solver_names(dimension)) {
    if (!out.empty()) out += ", ";
    out += n;
  }
  return out;
}

}  // namespace

std::vector<std::string> friction_contact_solver_names(int dimension) {
  MOREAU_REQUIRE(dimension == 2 || dimension == 3,
                 "frictional contact dimension must be 2 or 3, got {}", dimension);
  std::vector<std::string> names{"auto"};
  for (const Entry& e : registry())
    if (dimension == 2 ? e.two_d : e.three_d) names.emplace_back(e.name);
  return names;
}

std::string friction_contact_solver_description(std::string_view name) {
  if (name == "auto") return "automatic choice: see choose_friction_contact_solver";
  if (name.substr(0, 10) == "condensed:")
    return "condense the global problem (W = Hᵀ M⁻¹ H) and solve with " +
           std::string(name.substr(10));
  for (const Entry& e : registry())
    if (e.name == name) return std::string(e.description);
  throw_invalid("unknown frictional contact solver '{}'", name);
}

std::string choose_friction_contact_solver(const FrictionContactProblem& problem) {
  problem.validate();
  return "hybrid";
}

FrictionContactResult solve_friction_contact(const FrictionContactProblem& problem,
                                             std::string_view solver,
                                             const FrictionContactSettings& settings,
                                             const Vector& guess) {
  problem.validate();
  std::string name(solver);
  if (name == "auto") name = choose_friction_contact_solver(problem);
  const Entry* e = find_entry(name, problem.dimension);
  MOREAU_REQUIRE(e != nullptr, "unknown frictional contact solver '{}' for dimension {}; known: {}",
                 solver, problem.dimension, joined_names(problem.dimension));
  return e->solve(problem, settings, guess);
}

}  // namespace moreau
