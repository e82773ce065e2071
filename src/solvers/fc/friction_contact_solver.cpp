#include "moreau/solvers/fc/friction_contact_solver.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "components.hpp"
#include "detail.hpp"
#include "newton_workspace.hpp"
#include "moreau/common/first_solve_path.hpp"
#include "moreau/problems/friction_contact.hpp"
#include "moreau/problems/relative_error.hpp"
#include "moreau/solvers/fc/admm.hpp"
#include "moreau/solvers/fc/lemke_pyramid.hpp"
#include "moreau/solvers/fc/local_solver.hpp"
#include "moreau/solvers/fc/newton.hpp"
#include "moreau/solvers/fc/nsgs.hpp"
#include "moreau/solvers/lcp/lemke.hpp"

namespace moreau {

namespace {

using LocalSolve = FrictionContactResult (*)(const FrictionContactProblem&,
                                             const FrictionContactSettings&, const Vector&);

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

// A solve in stages (hybrid, newton): each stage's result is taken in turn, the best iterate
// (lowest residual, or the first converged) kept, iterations and residual histories summed, and the
// stage names joined into the message ("stages: nsgs+newton_ac").
class Stages {
 public:
  MOREAU_FIRST_SOLVE_PATH explicit Stages(const FrictionContactSettings& s) : s_(s) {
    best_.residual = std::numeric_limits<double>::infinity();
  }
  MOREAU_FIRST_SOLVE_PATH void take(FrictionContactResult&& x) {
    iterations_ += x.iterations;
    history_.insert(history_.end(), x.residual_history.begin(), x.residual_history.end());
    // appended in place: operator+ on strings is an out-of-line template placed far from the
    // first-solve run (common/first_solve_path.hpp), a page fault in a process's first solve
    if (path_.size() < 200) {
      if (!path_.empty()) path_ += '+';
      path_ += x.solver;
    }
    if (x.residual < best_.residual || x.converged() || best_.r.size() == 0) best_ = std::move(x);
  }
  const FrictionContactResult& best() const { return best_; }
  int iterations() const { return iterations_; }
  // Budget and time left for a stage of at most `budget` iterations.
  int left(int budget) const {
    return std::max(0, std::min(budget, s_.max_iterations - iterations_));
  }
  double time_left() const { return std::max(1e-9, s_.time_limit - clock_.seconds()); }
  bool out_of_time() const { return clock_.seconds() > s_.time_limit; }
  MOREAU_FIRST_SOLVE_PATH FrictionContactResult finish(const char* name) {
    best_.solver = name;
    std::string message = "stages: ";  // appended in place, as in take
    message += path_;
    if (!best_.message.empty()) {
      message += "; ";
      message += best_.message;
    }
    best_.message = std::move(message);
    best_.iterations = iterations_;
    best_.residual_history = std::move(history_);
    best_.seconds = clock_.seconds();
    if (!best_.converged())
      best_.status = out_of_time() ? Status::time_limit : Status::max_iterations;
    return std::move(best_);
  }

 private:
  const FrictionContactSettings& s_;
  const Stopwatch clock_;
  FrictionContactResult best_;
  std::vector<double> history_;
  int iterations_ = 0;
  std::string path_;
};

// One contact: the exact one-contact solver (local_solver.hpp) is the whole solution, so hybrid
// calls it once on W's dense block instead of setting up NSGS (its sparse copies, order and
// stage bookkeeping cost 2–3 µs where the solve takes a few hundred ns). False when it cannot
// certify a case or ends above the tolerance; NSGS then runs as usual. It reads no clock: its
// result is timed by solve_friction_contact, the registry's one caller (two reads of the clock
// were 7 % of a 1-contact solve).
MOREAU_FIRST_SOLVE_PATH bool solve_single_contact(const FrictionContactProblem& p,
                                                  const FrictionContactSettings& s, const Vector& g,
                                                  FrictionContactResult& res) {
  res = fc_detail::start(p, s, "hybrid");  // the problem, settings and guess checked as usual
  const Vector r0 = fc_detail::initial_r(p, g);
  const int d = p.dimension;
  const ContactBlock block = fc_detail::diagonal_blocks(p).front();
  const Matrix3& W = block.W;
  const double mu = p.mu[0];
  Vector3 r = Vector3::Zero(), q = Vector3::Zero();
  q.head(d) = p.q;
  r.head(d) = r0;
  bool certified = false;
  if (d == 3) {
    certified = solve_one_contact_3d(block, q, mu, r, /*stick_seed=*/true);
  } else {
    Vector2 r2 = r.head<2>();
    certified = solve_one_contact_2d(block, Vector2(q.head<2>()), mu, r2);
    r.head<2>() = r2;
  }
  if (!certified || !r.allFinite()) return false;
  const Vector3 u = W * r + q;
  const double e = friction_contact_local_error(d, mu, r.data(), u.data());
  const double scale = std::max({q.norm(), r.norm(), u.norm()});
  const double residual = relative_error(e, scale);
  if (!(residual <= s.tolerance)) return false;
  res.message = "one contact: the exact one-contact solver";
  res.status = Status::converged;
  res.iterations = 1;
  res.r = r.head(d);
  res.u = u.head(d);
  res.residual = residual;
  res.residual_history.assign(1, residual);
  return true;
}

// Sweeps NSGS still needs to reach `tolerance`, predicted from the linear rate of its last
// `window` sweeps in the residual history h: log(tol / e_now) / log(rate), ∞ when the residual
// did not decrease over the window (or the history is shorter than window + 1).
double predicted_sweeps(const std::vector<double>& h, size_t window, double tolerance) {
  if (h.size() < window + 1) return std::numeric_limits<double>::infinity();
  const double e1 = h[h.size() - window - 1], e2 = h.back();
  const double rate =
      e2 > 0.0 && e1 > 0.0 ? std::pow(e2 / e1, 1.0 / static_cast<double>(window)) : 0.0;
  return rate < 1.0 && rate > 0.0 ? std::log(tolerance / e2) / std::log(rate)
                                  : std::numeric_limits<double>::infinity();
}

// Hybrid: NSGS (cheap sweeps, exact local solves) by chunks of 200 sweeps. After each chunk the
// sweeps still needed are predicted from the linear rate of the last 100 sweeps; when more than
// 1000 are predicted, semismooth Newton (Alart–Curnier, ≤ 100 iterations) is run from the NSGS
// iterate, then Fischer–Burmeister Newton (≤ 400) from the start point, and NSGS resumes from
// the best iterate if Newton fails.
MOREAU_FIRST_SOLVE_PATH FrictionContactResult run_hybrid(const FrictionContactProblem& p,
                                                         const FrictionContactSettings& s,
                                                         const Vector& g) {
  if (p.contacts() == 1 && s.max_iterations > 0) {
    FrictionContactResult one;
    if (solve_single_contact(p, s, g, one)) return one;
  }
  Stages run(s);
  int newton_runs = 0;
  const Vector& r = g;
  while (!run.best().converged() && run.left(1) > 0 && !run.out_of_time()) {
    const FrictionContactResult& best = run.best();
    FrictionContactResult x = solve_nsgs(p,
                                         NsgsSettings{.tolerance = s.tolerance,
                                                      .max_iterations = run.left(200),
                                                      .time_limit = run.time_left()},
                                         best.r.size() ? Vector(best.r) : r);
    const std::vector<double> h = x.residual_history;
    run.take(std::move(x));
    if (run.best().converged() || h.size() < 101 || newton_runs >= 2) continue;
    if (predicted_sweeps(h, 100, s.tolerance) <= 1000.0) continue;
    const int nbudget = run.left(100);
    if (nbudget <= 0) break;
    ++newton_runs;
    // First Alart–Curnier from the NSGS iterate, then (if that failed) Fischer–Burmeister from
    // the caller's start point with a larger budget.
    const NewtonSettings ns{.tolerance = s.tolerance,
                            .max_iterations = newton_runs == 1 ? nbudget : run.left(4 * nbudget),
                            .time_limit = run.time_left()};
    if (newton_runs == 1)
      run.take(solve_newton_ac(p, ns, Vector(run.best().r)));
    else
      run.take(solve_newton_fb(p, ns, r));
  }
  return run.finish("hybrid");
}

// NSGS, then ADMM: for a dense W with redundant contacts (KaplasTower: planks resting on each
// other through four contacts per face, 22.8 blocks per row), where NSGS crawls (1056 sweeps,
// 0.11 s) and a Newton step's LU fills in, but ADMM's one factorization of W + ρI regularizes the
// redundancy (161 iterations, 0.07 s). A probe of 50 sweeps first: the dense problems NSGS
// solves well converge within it (Confeti-ex13 22 sweeps, PerioBox 34, where ADMM is 2–12×
// slower). If the probe has not converged and its last 25 sweeps predict more than 150 further
// sweeps, ADMM runs from the caller's start point (from the NSGS iterate it takes longer:
// 192–255 iterations on Kaplas, as its dual variable starts at zero either way). NSGS resumes from
// the best iterate by chunks of 200 sweeps if ADMM ends above the tolerance.
// A small problem (at most kSmallDenseContacts contacts) whose probe, or a later chunk of 200
// sweeps, crawls goes to semismooth Newton (run_newton, once) from the caller's start point
// instead: there a Newton step's LU is cheap whatever its fill-in, and ADMM stalls on the
// rank-deficient W of a mechanism with few velocities. The Unitree Go2 lying on the ground (18
// velocities, 19–48 contacts: W of rank 15–18 on 57–144 rows) ended 20 of 2000 steps at the
// budget with ADMM stalled at 1e-5 to 5e-4; Newton converges in 11–34 iterations. From the
// caller's start, not the NSGS iterate: with redundant contacts NSGS spreads the impulse over all
// of them (the humanoid's feet: W of rank 20 on 30 rows), where the Newton matrix is singular and
// every line search failed on 6 of 6 problems saved from bench/models/humanoid.xml, while from
// the last step's impulses Newton converged on 5 of the 6 in 6–60 iterations. No FCLIB problem
// that the rule sends here crawls (Confeti, PerioBox, KaplasTower: unchanged).
FrictionContactResult run_newton(const FrictionContactProblem& p, const FrictionContactSettings& s,
                                 const Vector& g);

FrictionContactResult run_nsgs_admm(const FrictionContactProblem& p,
                                    const FrictionContactSettings& s, const Vector& g) {
  if (p.contacts() == 1) return run_hybrid(p, s, g);  // the exact one-contact solver
  Stages run(s);
  auto nsgs = [&](int budget, const Vector& start) {
    return solve_nsgs(p,
                      NsgsSettings{.tolerance = s.tolerance,
                                   .max_iterations = run.left(budget),
                                   .time_limit = run.time_left()},
                      start);
  };
  FrictionContactResult probe = nsgs(50, g);
  bool crawls = predicted_sweeps(probe.residual_history, 25, s.tolerance) > 150.0;
  run.take(std::move(probe));
  const bool small = p.contacts() <= fc_detail::kSmallDenseContacts;
  bool newton_ran = false;
  auto going = [&] { return !run.best().converged() && run.left(1) > 0 && !run.out_of_time(); };
  if (going() && crawls && !small)
    run.take(solve_admm(p,
                        AdmmSettings{.tolerance = s.tolerance,
                                     .max_iterations = run.left(s.max_iterations),
                                     .time_limit = run.time_left()},
                        g));
  while (going()) {
    if (crawls && small && !newton_ran) {
      FrictionContactSettings rest = s;
      rest.max_iterations = run.left(s.max_iterations);
      rest.time_limit = run.time_left();
      run.take(run_newton(p, rest, g));
      newton_ran = true;
      continue;
    }
    FrictionContactResult chunk = nsgs(200, Vector(run.best().r));
    crawls = predicted_sweeps(chunk.residual_history, 100, s.tolerance) > 150.0;
    run.take(std::move(chunk));
  }
  return run.finish("nsgs_admm");
}

// Newton: semismooth Newton on the Alart–Curnier function (diagonal penalties) for at most 40
// iterations (where it works on coupled problems it converges in 8–36: FCLIB's Capsules,
// OneObject, spheres in a box), left early when it cycles (8 iterations in a 2-cycle:
// Capsules-i101-404 at 17). After a cycle, Alart–Curnier with spectral penalties from the start
// point (≤ 40; it solves Capsules-i101-404 in 14 iterations, where Fischer–Burmeister needs 24,
// but is slower than the diagonal penalties on most of the set, so it is only the second try).
// Then, if neither converged, Fischer–Burmeister Newton (≤ 400 iterations) from where the first
// Alart–Curnier stage stopped, then from the caller's start point, then Alart–Curnier again from
// the best iterate with what is left of the budget (CubesStack-6x6x6 needed 83 AC iterations on
// 25 Nov and FB fails there). Fischer–Burmeister from the AC iterate rather than from the start
// point (measured 26 Nov 2026, total iterations of the schedule): local_problem_test 212 → 35,
// BoxesStack1 351 → 65, Capsules-i122-1617 96 → 55.
// Every stage carries the caller's proximal term (FrictionContactSettings::newton_proximal,
// newton.hpp): with 10⁻³, a column of 80 cubes (320 face contacts, W singular while sticking)
// went from 200 iterations stalled at 1e-10 to 1–10 iterations per step (issue 35, 27 Nov
// 2026). 10⁻⁴ by default (kDefaultNewtonProximal, 1 Dec 2026): 10⁻³ delayed Capsules-i101-404's
// Alart–Curnier cycle (53 iterations instead of 31); 10⁻⁴ takes 30.
FrictionContactResult run_newton(const FrictionContactProblem& p, const FrictionContactSettings& s,
                                 const Vector& g) {
  Stages run(s);
  auto settings = [&](int budget, int cycle_window = 0,
                      AlartCurnierPenalty penalty = AlartCurnierPenalty::diagonal) {
    return NewtonSettings{.tolerance = s.tolerance,
                          .max_iterations = std::max(1, run.left(budget)),
                          .time_limit = run.time_left(),
                          .cycle_window = cycle_window,
                          .penalty = penalty,
                          .proximal = s.newton_proximal};
  };
  auto going = [&] { return !run.best().converged() && run.left(1) > 0 && !run.out_of_time(); };
  fc_detail::NewtonWorkspace ws;  // one ordering of J for every stage
  FrictionContactResult first = fc_detail::solve_newton_ac(p, settings(40, 8), g, ws);
  const bool cycled = first.message.rfind(fc_detail::kCyclingMessage, 0) == 0;
  const Vector after_ac = first.r;
  run.take(std::move(first));
  if (cycled && going())
    run.take(fc_detail::solve_newton_ac(p, settings(40, 8, AlartCurnierPenalty::spectral), g, ws));
  if (going()) run.take(fc_detail::solve_newton_fb(p, settings(400), after_ac, ws));
  if (going()) run.take(fc_detail::solve_newton_fb(p, settings(400), g, ws));
  if (going())
    run.take(fc_detail::solve_newton_ac(p, settings(s.max_iterations), Vector(run.best().r), ws));
  return run.finish("newton");
}

// A constant table of plain function pointers: nothing is constructed on the first call. (It was
// a function-local static vector of std::function: its guard's symbols were bound by the dynamic
// linker on a process's first solve, and copying each entry called a manager elsewhere in the
// binary; docs/benchmarks.md §The first solve's fixed cost, found and cut.)
constexpr Entry kRegistry[] = {
    {"hybrid", true, true,
     "NSGS, then Alart-Curnier Newton from its iterate when NSGS stalls, alternating", run_hybrid},
    {"nsgs_admm", true, true,
     "NSGS (50 sweeps), then ADMM (Newton when at most 64 contacts) from the start point when "
     "NSGS crawls, then NSGS again; for dense W with redundant contacts",
     run_nsgs_admm},
    {"newton", true, true,
     "semismooth Newton: Alart-Curnier (40 iterations; spectral penalties if it cycles), then "
     "Fischer-Burmeister from its iterate and from the start point, then Alart-Curnier again",
     run_newton},
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

MOREAU_FIRST_SOLVE_PATH const Entry* find_entry(std::string_view name, int dimension) {
  for (const Entry& e : kRegistry)
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
  for (const Entry& e : kRegistry)
    if (dimension == 2 ? e.two_d : e.three_d) names.emplace_back(e.name);
  return names;
}

std::string friction_contact_solver_description(std::string_view name) {
  if (name == "auto") return "automatic choice: see choose_friction_contact_solver";
  if (name.substr(0, 10) == "condensed:")
    return "condense the global problem (W = Hᵀ M⁻¹ H) and solve with " +
           std::string(name.substr(10));
  for (const Entry& e : kRegistry)
    if (e.name == name) return std::string(e.description);
  throw_invalid("unknown frictional contact solver '{}'", name);
}

namespace {

// FrictionContactSettings::keep_converged_guess: a warm start r₀ whose residual (u₀ = W r₀ + q)
// already meets the tolerance is the solution, r₀ after no iteration, whichever solver was named.
// Setting Newton up to find that it had nothing to do (patterns, blocks, copies of W, a second
// check of the problem) was 13 % of the resting humanoid's step.
bool warm_start_meets_tolerance(const FrictionContactProblem& problem,
                                const FrictionContactSettings& settings, const Vector& guess,
                                FrictionContactResult& res) {
  const double tolerance = settings.tolerance;
  if (guess.size() != problem.q.size() || guess.size() == 0 || !all_finite(guess)) return false;
  fc_detail::check_common(tolerance, settings.max_iterations, settings.time_limit);
  Vector u = local_velocity(problem, guess);
  const double e = friction_contact_residual(problem, guess, u);
  if (!(e <= tolerance)) return false;
  res.status = Status::converged;
  res.iterations = 0;
  res.residual = e;
  res.residual_history = {e};
  res.r = guess;
  res.u = std::move(u);
  res.message = "the warm start meets the tolerance";
  return true;
}

// The default's choice for a problem of one component, and its solve.
FrictionContactResult solve_chosen(const FrictionContactProblem& p,
                                   const FrictionContactSettings& s, const Vector& g) {
  return find_entry(fc_detail::choose_solver_of_valid_problem(p), p.dimension)->solve(p, s, g);
}

// Iterations of the whole-problem Newton schedule before a problem of several components is
// split: its first Alart–Curnier stage's budget. Where Newton works on the whole it converges
// within it (FCLIB's Capsules: 8–31 iterations), faster than on each component apart (its LU
// orders all of them at once: Capsules-i100-889 in 14 ms whole, 37 ms split); where it does
// not, one component holds the rest back (Capsules-i122-1617: 231 iterations, 0.29 s whole;
// CubesStack-6x6x6: 135, 0.61 s), and then each component starts again from the caller's guess.
// Not from where the whole solve stopped: with the default proximal term the whole stage gets
// further (CubesStack-10x10x10: 2.2e-3 after 40 iterations, 0.22 without), and from there 4 of
// its 100 columns cycled where from the guess none does (1 Dec 2026, auto: 27 s from the whole's
// iterate, 1.2 s from the guess; RockPile_tob1 2.6e-8 instead of 1.4e-6 at the budget).
constexpr int kWholeNewtonIterations = 40;

// auto on a problem for which it chose Newton: the whole problem first, then, when that has not
// converged and W has independent components, each component from the caller's guess (above),
// with its own choice (components.hpp) and half of the budget and time left, and if
// they still leave the whole above the tolerance, the schedule on the whole again from the better
// iterate with what is left of the budget and time. Iterations are counted in whole-problem
// equivalents (an iteration on a component of n_C of the n contacts counts n_C/n), so the budget
// holds for the whole call. The solver reported is "newton", with the path in the message.
FrictionContactResult solve_newton_then_components(const FrictionContactProblem& p,
                                                   const FrictionContactSettings& s,
                                                   const Vector& g) {
  const std::vector<std::vector<Index>> components = fc_detail::contact_components(p);
  const Entry* newton = find_entry("newton", p.dimension);
  if (components.size() <= 1) return newton->solve(p, s, g);
  const Stopwatch clock;
  FrictionContactSettings first = s;
  first.max_iterations = std::min(s.max_iterations, kWholeNewtonIterations);
  FrictionContactResult whole = newton->solve(p, first, g);
  auto rest = [&](int used) {
    FrictionContactSettings out = s;
    out.max_iterations = s.max_iterations - used;
    out.time_limit = s.time_limit - clock.seconds();
    return out;
  };
  if (whole.converged() || !whole.r.allFinite() || rest(whole.iterations).max_iterations < 1 ||
      !(rest(whole.iterations).time_limit > 0.0))
    return whole;
  // half of what is left for the components, the other half for the whole again should they
  // not converge (RockPile_tob1: with the whole budget the components once ended at 1.5e-5 and
  // Newton on the whole at 3.4e-7; since 1 Dec 2026 Newton on the whole again, from the
  // components' impulses, converges in about 200 iterations)
  FrictionContactSettings halves = rest(whole.iterations);
  halves.max_iterations = (halves.max_iterations + 1) / 2;
  if (std::isfinite(halves.time_limit)) halves.time_limit *= 0.5;
  FrictionContactResult split =
      fc_detail::solve_by_components(p, components, halves, g, solve_chosen);
  int used = whole.iterations + split.iterations;
  std::string path = fmt::format("newton on the whole ({} iterations, residual {:.3g}), then {}",
                                 whole.iterations, whole.residual, split.message);
  std::vector<double> history = std::move(whole.residual_history);
  history.insert(history.end(), split.residual_history.begin(), split.residual_history.end());
  FrictionContactResult best =
      split.residual <= whole.residual ? std::move(split) : std::move(whole);
  if (!best.converged() && rest(used).max_iterations >= 1 && rest(used).time_limit > 0.0) {
    FrictionContactResult again = newton->solve(p, rest(used), best.r);
    used += again.iterations;
    path += fmt::format("; then newton on the whole again ({} iterations)", again.iterations);
    history.insert(history.end(), again.residual_history.begin(), again.residual_history.end());
    if (again.converged() || again.residual < best.residual) best = std::move(again);
  }
  best.solver = "newton";
  best.iterations = used;
  best.residual_history = std::move(history);
  best.message = path;
  if (!best.converged() && clock.seconds() > s.time_limit) best.status = Status::time_limit;
  return best;
}

}  // namespace

MOREAU_FIRST_SOLVE_PATH FrictionContactResult
solve_friction_contact(const FrictionContactProblem& problem, std::string_view solver,
                       const FrictionContactSettings& settings, const Vector& guess) {
  // the whole call on the clock: the checks and auto's choice (each a pass over W) are part of
  // what a caller waits for, as they are of Siconos' fc3d_driver in bench/fclib_first_solve.py
  const Stopwatch clock;
  problem.validate();
  std::string name(solver);
  const bool automatic = name == "auto";
  if (automatic) name = fc_detail::choose_solver_of_valid_problem(problem);
  const Entry* e = find_entry(name, problem.dimension);
  MOREAU_REQUIRE(e != nullptr, "unknown frictional contact solver '{}' for dimension {}; known: {}",
                 solver, problem.dimension, joined_names(problem.dimension));
  FrictionContactResult res;
  if (settings.keep_converged_guess && warm_start_meets_tolerance(problem, settings, guess, res))
    res.solver = e->name;
  else if (automatic && name == "newton")
    res = solve_newton_then_components(problem, settings, guess);
  else
    res = e->solve(problem, settings, guess);
  res.seconds = clock.seconds();
  return res;
}

}  // namespace moreau
