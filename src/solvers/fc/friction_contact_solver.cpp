#include "moreau/solvers/fc/friction_contact_solver.hpp"

#include <algorithm>
#include <functional>
#include <limits>

#include "detail.hpp"
#include "moreau/solvers/fc/admm.hpp"
#include "moreau/solvers/fc/lemke_pyramid.hpp"
#include "moreau/solvers/fc/newton.hpp"
#include "moreau/solvers/fc/nsgs.hpp"

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

FrictionContactResult run_nsgs(const FrictionContactProblem& p, const FrictionContactSettings& s,
                               const Vector& g) {
  return solve_nsgs(p,
                    NsgsSettings{.tolerance = s.tolerance,
                                 .max_iterations = s.max_iterations,
                                 .time_limit = s.time_limit},
                    g);
}

FrictionContactResult run_newton_ac(const FrictionContactProblem& p,
                                   const FrictionContactSettings& s, const Vector& g) {
  return solve_newton_ac(p,
                         NewtonSettings{.tolerance = s.tolerance,
                                        .max_iterations = s.max_iterations,
                                        .time_limit = s.time_limit},
                         g);
}

FrictionContactResult run_newton_fb(const FrictionContactProblem& p,
                                   const FrictionContactSettings& s, const Vector& g) {
  return solve_newton_fb(p,
                         NewtonSettings{.tolerance = s.tolerance,
                                        .max_iterations = s.max_iterations,
                                        .time_limit = s.time_limit},
                         g);
}

FrictionContactResult run_admm(const FrictionContactProblem& p, const FrictionContactSettings& s,
                               const Vector& g) {
  return solve_admm(p,
                    AdmmSettings{.tolerance = s.tolerance,
                                 .max_iterations = s.max_iterations,
                                 .time_limit = s.time_limit},
                    g);
}

FrictionContactResult run_lemke_pyramid(const FrictionContactProblem& p,
                                        const FrictionContactSettings& s, const Vector&) {
  return solve_lemke_pyramid(p, LemkePyramidSettings{.tolerance = s.tolerance});
}

// Hybrid: NSGS (cheap sweeps, exact local solves) for a first budget of sweeps; if it has not
// converged, semismooth Newton (Alart–Curnier) from the NSGS iterate, then NSGS again and Newton
// again with the rest of the budget. The best iterate (lowest residual) is returned.
FrictionContactResult run_hybrid(const FrictionContactProblem& p, const FrictionContactSettings& s,
                                 const Vector& g) {
  const Stopwatch clock;
  FrictionContactResult best;
  best.residual = std::numeric_limits<double>::infinity();
  std::vector<double> history;
  int iterations = 0;
  Vector r = g;
  std::string path;
  auto remaining_time = [&] { return std::max(1e-9, s.time_limit - clock.seconds()); };
  auto take = [&](FrictionContactResult&& x) {
    iterations += x.iterations;
    history.insert(history.end(), x.residual_history.begin(), x.residual_history.end());
    path += (path.empty() ? "" : "+") + x.solver;
    r = x.r;
    if (x.residual < best.residual || x.converged()) best = std::move(x);
  };
  const int stages[4] = {200, 50, 2000, 100};
  for (int stage = 0; stage < 4; ++stage) {
    const int budget = std::min(stages[stage], s.max_iterations - iterations);
    if (budget <= 0 || (stage > 0 && clock.seconds() > s.time_limit)) break;
    if (stage % 2 == 0)
      take(solve_nsgs(p,
                      NsgsSettings{.tolerance = s.tolerance,
                                   .max_iterations = budget,
                                   .time_limit = remaining_time()},
                      r));
    else
      take(solve_newton_ac(p,
                           NewtonSettings{.tolerance = s.tolerance,
                                          .max_iterations = budget,
                                          .time_limit = remaining_time()},
                           r));
    if (best.converged()) break;
  }
  if (!best.converged() && best.status != Status::time_limit && iterations < s.max_iterations &&
      clock.seconds() < s.time_limit) {
    take(solve_nsgs(p,
                    NsgsSettings{.tolerance = s.tolerance,
                                 .max_iterations = s.max_iterations - iterations,
                                 .time_limit = remaining_time()},
                    best.r));
  }
  best.solver = "hybrid";
  best.message = "stages: " + path + (best.message.empty() ? "" : "; " + best.message);
  best.iterations = iterations;
  best.residual_history = std::move(history);
  best.seconds = clock.seconds();
  if (!best.converged() && clock.seconds() > s.time_limit) best.status = Status::time_limit;
  return best;
}

const std::vector<Entry>& registry() {
  static const std::vector<Entry> entries{
      {"hybrid", true, true,
       "NSGS, then Alart-Curnier Newton from its iterate when NSGS stalls, alternating (default)",
       run_hybrid},
      {"nsgs", true, true,
       "nonsmooth Gauss-Seidel over contacts, exact one-contact solver (Coulomb cone)", run_nsgs},
      {"newton_ac", true, true,
       "semismooth Newton on the Alart-Curnier function, sparse LU, Armijo line search",
       run_newton_ac},
      {"newton_fb", true, true,
       "semismooth Newton on the Fischer-Burmeister SOCCP function, sparse LU, Armijo line search",
       run_newton_fb},
      {"admm", true, true,
       "ADMM with De Saxce's correction, Nesterov acceleration, W + rho I factorized (LDLt)",
       run_admm},
      {"lemke_pyramid", true, true,
       "pyramidal friction cone (8 edges in 3D, exact in 2D) as one dense LCP, Lemke; small problems",
       run_lemke_pyramid},
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
