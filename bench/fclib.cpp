// bench_fclib: every moreau 3D frictional-contact solver and Siconos' own fc3d solvers on every
// local FCLIB problem of the data folder (global ones condensed, W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w;
// rolling-friction ones skipped), at the same tolerance, in the same process.
//
// Every solve is judged by ONE residual, moreau's friction_contact_residual
//   e = ‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖),  u = W r + q,
// recomputed here on the r each solver returns (Siconos' r included), so figures compare.
// A solve counts as solved when e ≤ tol. Each solve runs in a forked child process with a
// wall-clock cap (Siconos has no time limit of its own, and a crash of either library must not
// end the benchmark); the child sends back r, the iteration count and the solve time (the
// matrix conversion for Siconos is excluded from the time; solves under 10 ms are repeated and
// the fastest run kept, see timed_min).
//
// Usage: bench_fclib [--data DIR] [--filter REGEX] [--time-cap S] [--tol T]
//                    [--max-contacts N] [--markdown FILE] [--no-siconos] [--no-moreau]
//        bench_fclib --siconos-worker SOLVER FILE [--tol T]   (see siconos_worker)
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "moreau/common/timer.hpp"
#include "moreau/io/os/keep_freed_memory.hpp"
#include "moreau/io/problems/fclib.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"

#ifdef MOREAU_HAVE_SICONOS
extern "C" {
#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/NumericsVerbose.h>
#include <siconos/numerics/SiconosNumerics_Solvers.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/SparseBlockMatrix.h>
}
#endif

namespace fs = std::filesystem;
using moreau::Index;
using moreau::Vector;

namespace {

struct Options {
  fs::path data = fs::path(MOREAU_DATA_DIR) / "fclib";
  std::string filter = ".*";
  double time_cap = 20.0;  // s per solve
  double tolerance = 1e-8;
  int max_contacts = 1 << 30;
  std::string markdown;
  bool siconos = true;
  bool moreau = true;
};

struct Problem {
  std::string name;  // path under the data folder
  moreau::FrictionContactProblem p;
};

// What one solve reports back to the parent.
struct Outcome {
  std::string library;  // "moreau" or "siconos"
  std::string solver;
  std::string status;  // solved, not solved (library's own status), time cap, crashed
  int iterations = 0;
  double residual = std::numeric_limits<double>::infinity();  // moreau's residual on r
  double seconds = 0.0;
  bool solved = false;
};

// Child → parent message: [status code, iterations, seconds, n, r...] as doubles.
struct ChildResult {
  double code = 0;  // library's own: 0 converged / 1 not
  double iterations = 0;
  double seconds = 0;
  Vector r;
};

bool write_all(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    const ssize_t k = ::write(fd, p, size);
    if (k <= 0) return false;
    p += k;
    size -= static_cast<std::size_t>(k);
  }
  return true;
}

// Runs `solve` in a forked child; returns nothing when it crashed or passed the time cap
// (`timed_out` tells which).
std::optional<ChildResult> run_isolated(const std::function<ChildResult()>& solve, double cap,
                                        bool& timed_out) {
  timed_out = false;
  int fds[2];
  if (::pipe(fds) != 0) return std::nullopt;
  std::fflush(stdout);
  const pid_t pid = ::fork();
  if (pid < 0) return std::nullopt;
  if (pid == 0) {  // child
    ::close(fds[0]);
    const ChildResult res = solve();
    std::vector<double> msg{res.code, res.iterations, res.seconds,
                            static_cast<double>(res.r.size())};
    msg.insert(msg.end(), res.r.data(), res.r.data() + res.r.size());
    write_all(fds[1], msg.data(), msg.size() * sizeof(double));
    ::close(fds[1]);
    ::_exit(0);
  }
  ::close(fds[1]);
  std::vector<char> buffer;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(cap + 2.0);
  bool eof = false;
  while (!eof) {
    const double left =
        std::chrono::duration<double>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd pfd{fds[0], POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(std::min(left, 1.0) * 1000) + 1);
    if (ready < 0) break;
    if (ready == 0) continue;
    char chunk[65536];
    const ssize_t k = ::read(fds[0], chunk, sizeof chunk);
    if (k <= 0) {
      eof = true;
    } else {
      buffer.insert(buffer.end(), chunk, chunk + k);
    }
  }
  ::close(fds[0]);
  if (timed_out) ::kill(pid, SIGKILL);
  int wstatus = 0;
  ::waitpid(pid, &wstatus, 0);
  if (timed_out) return std::nullopt;
  if (buffer.size() < 4 * sizeof(double)) return std::nullopt;  // crashed
  std::vector<double> msg(buffer.size() / sizeof(double));
  std::memcpy(msg.data(), buffer.data(), msg.size() * sizeof(double));
  const auto n = static_cast<std::size_t>(msg[3]);
  if (msg.size() != 4 + n) return std::nullopt;
  ChildResult res{msg[0], msg[1], msg[2], Vector(static_cast<Index>(n))};
  for (std::size_t k = 0; k < n; ++k) res.r[static_cast<Index>(k)] = msg[4 + k];
  return res;
}

Outcome judge(const Problem& pb, std::string library, std::string solver,
              const std::optional<ChildResult>& res, bool timed_out, double tol, double cap) {
  Outcome o;
  o.library = std::move(library);
  o.solver = std::move(solver);
  if (!res) {
    o.status = timed_out ? "time cap" : "crashed";
    return o;
  }
  o.iterations = static_cast<int>(res->iterations);
  o.seconds = res->seconds;
  if (res->r.size() == pb.p.q.size() && res->r.allFinite())
    o.residual = moreau::friction_contact_residual(pb.p, res->r);
  if (o.seconds > cap) {  // Siconos has no time limit: the child gets cap + 2 s, we judge by cap
    o.status = "time cap";
    return o;
  }
  o.solved = o.residual <= tol;
  o.status = o.solved ? "solved" : (res->code == 0 ? "not solved (says converged)" : "not solved");
  return o;
}

// Wall time of f(); solves under 10 ms are repeated (up to 20 runs in all, within 50 ms of solving)
// and the fastest run is kept, so that first-touch costs of the fresh child process and one slow
// run on a shared machine do not decide tiny problems. Both libraries are timed the same way.
template <typename F>
double timed_min(F&& f) {
  moreau::Stopwatch first;
  f();
  double best = first.seconds(), total = best;
  for (int k = 1; k < 20 && best < 0.01 && total < 0.05; ++k) {
    moreau::Stopwatch clock;
    f();
    const double seconds = clock.seconds();
    best = std::min(best, seconds);
    total += seconds;
  }
  return best;
}

// ---- moreau -------------------------------------------------------------------------------

// One named moreau solver with an iteration budget of 10⁶ (the time cap decides), or, for
// `as_user`, what `moreau solve FILE` does: the default solver ("auto") at the default settings
// (FrictionContactSettings{}: 10⁴ iterations) and the benchmark's tolerance; library "default".
Outcome run_moreau(const Problem& pb, const std::string& solver, const Options& opt,
                   bool as_user = false) {
  bool timed_out = false;
  moreau::FrictionContactSettings settings{
      .tolerance = opt.tolerance, .max_iterations = 1000000, .time_limit = opt.time_cap};
  if (as_user) settings.max_iterations = moreau::FrictionContactSettings{}.max_iterations;
  auto res = run_isolated(
      [&] {
        moreau::FrictionContactResult r;
        const double seconds =
            timed_min([&] { r = moreau::solve_friction_contact(pb.p, solver, settings); });
        return ChildResult{r.converged() ? 0.0 : 1.0, static_cast<double>(r.iterations), seconds,
                           r.r};
      },
      opt.time_cap, timed_out);
  if (!as_user) return judge(pb, "moreau", solver, res, timed_out, opt.tolerance, opt.time_cap);
  return judge(pb, "default", moreau::choose_friction_contact_solver(pb.p), res, timed_out,
               opt.tolerance, opt.time_cap);
}

// ---- Siconos ------------------------------------------------------------------------------

#ifdef MOREAU_HAVE_SICONOS
struct SiconosSolver {
  const char* name;
  int id;
};
const SiconosSolver kSiconosSolvers[] = {
    {"NSGS", SICONOS_FRICTION_3D_NSGS},     {"NSN_AC", SICONOS_FRICTION_3D_NSN_AC},
    {"NSN_FB", SICONOS_FRICTION_3D_NSN_FB}, {"ADMM", SICONOS_FRICTION_3D_ADMM},
    {"VI_EG", SICONOS_FRICTION_3D_VI_EG},   {"PROX", SICONOS_FRICTION_3D_PROX},
};

// Siconos problem with W as a sparse-block (3×3 blocks) NumericsMatrix, built from our W.
FrictionContactProblem* to_siconos(const moreau::FrictionContactProblem& p) {
  const int m = static_cast<int>(p.q.size());
  NumericsMatrix* triplet = NM_create(NM_SPARSE, m, m);
  NM_triplet_alloc(triplet, static_cast<CS_INT>(p.W.nonZeros()));
  for (Index row = 0; row < p.W.outerSize(); ++row)
    for (moreau::SparseMatrix::InnerIterator it(p.W, row); it; ++it)
      NM_entry(triplet, static_cast<int>(it.row()), static_cast<int>(it.col()), it.value());
  SparseBlockStructuredMatrix* sbm = SBM_new();
  SBM_from_csparse(p.dimension, NM_csc(triplet), sbm);
  NM_free(triplet);
  ::FrictionContactProblem* fc = frictionContactProblem_new();
  fc->dimension = p.dimension;
  fc->numberOfContacts = static_cast<int>(p.mu.size());
  fc->M = NM_new_SBM(m, m, sbm);
  fc->q = static_cast<double*>(std::malloc(sizeof(double) * static_cast<std::size_t>(m)));
  fc->mu = static_cast<double*>(std::malloc(sizeof(double) * p.mu.size()));
  std::copy(p.q.data(), p.q.data() + m, fc->q);
  std::copy(p.mu.data(), p.mu.data() + p.mu.size(), fc->mu);
  return fc;
}

Outcome run_siconos(const Problem& pb, const SiconosSolver& s, const Options& opt) {
  bool timed_out = false;
  auto res = run_isolated(
      [&] {
        numerics_set_verbose(0);
        ::FrictionContactProblem* fc = to_siconos(pb.p);
        SolverOptions* options = solver_options_create(s.id);
        options->iparam[SICONOS_IPARAM_MAX_ITER] = 1000000;
        options->dparam[SICONOS_DPARAM_TOL] = opt.tolerance;
        const std::size_t m = static_cast<std::size_t>(pb.p.q.size());
        std::vector<double> r(m, 0.0), u(m, 0.0);
        int info = 0;
        const double seconds = timed_min([&] {
          std::fill(r.begin(), r.end(), 0.0);  // same zero start on every repetition
          std::fill(u.begin(), u.end(), 0.0);
          info = fc3d_driver(fc, r.data(), u.data(), options);
        });
        const double iterations = options->iparam[SICONOS_IPARAM_ITER_DONE];
        return ChildResult{info == 0 ? 0.0 : 1.0, iterations, seconds,
                           Eigen::Map<const Vector>(r.data(), static_cast<Index>(m))};
      },
      opt.time_cap, timed_out);
  return judge(pb, "siconos", s.name, res, timed_out, opt.tolerance, opt.time_cap);
}

// `bench_fclib --siconos-worker SOLVER FILE [--tol T]` (bench/fclib_first_solve.py): Siconos'
// side of the first solve in a fresh process, timed as `moreau solve FILE` times moreau's: the
// file read and converted first (a global problem condensed, as load_problems does), then one
// fc3d_driver call from r = u = 0 on the clock. Prints one JSON line: seconds, iterations,
// Siconos' info, and moreau's residual of the r it returned.
int siconos_worker(const std::string& solver, const fs::path& file, double tolerance) {
  const SiconosSolver* s = nullptr;
  for (const SiconosSolver& c : kSiconosSolvers)
    if (solver == c.name) s = &c;
  if (s == nullptr) {
    std::fprintf(stderr, "bench_fclib: no Siconos solver '%s'\n", solver.c_str());
    return 2;
  }
  moreau::keep_freed_memory();  // as `moreau solve` does: the same allocator on both sides
  moreau::FclibFile f = moreau::read_fclib(file);
  const moreau::FrictionContactProblem p = f.is_global() ? moreau::condense(f.global) : f.local;
  numerics_set_verbose(0);
  ::FrictionContactProblem* fc = to_siconos(p);
  SolverOptions* options = solver_options_create(s->id);
  options->iparam[SICONOS_IPARAM_MAX_ITER] = 1000000;
  options->dparam[SICONOS_DPARAM_TOL] = tolerance;
  const std::size_t m = static_cast<std::size_t>(p.q.size());
  std::vector<double> r(m, 0.0), u(m, 0.0);
  const moreau::Stopwatch clock;
  const int info = fc3d_driver(fc, r.data(), u.data(), options);
  const double seconds = clock.seconds();
  const double residual =
      moreau::friction_contact_residual(p, Eigen::Map<const Vector>(r.data(), p.q.size()));
  std::printf(
      "{\"seconds\": %.9g, \"iterations\": %d, \"info\": %d, \"residual\": %.17g, "
      "\"contacts\": %ld}\n",
      seconds, options->iparam[SICONOS_IPARAM_ITER_DONE], info,
      std::isfinite(residual) ? residual : 1e300, static_cast<long>(p.contacts()));
  return 0;
}
#endif

// ---- problems -----------------------------------------------------------------------------

std::vector<Problem> load_problems(const Options& opt) {
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(opt.data))
    if (e.is_regular_file() && e.path().extension() == ".hdf5") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  const std::regex filter(opt.filter);
  std::vector<Problem> out;
  for (const auto& f : files) {
    const std::string name = fs::relative(f, opt.data).string();
    if (!std::regex_search(name, filter)) continue;
    try {
      moreau::FclibFile file = moreau::read_fclib(f);
      Problem pb{name, {}};
      if (file.is_global()) {
        // The condensed copy in condensed-from-global/ is the same problem: run it once.
        const fs::path condensed =
            opt.data / "condensed-from-global" / (f.stem().string() + "-local.hdf5");
        if (fs::exists(condensed)) continue;
        pb.name += " (condensed)";
        pb.p = moreau::condense(file.global);
      } else {
        pb.p = std::move(file.local);
      }
      if (pb.p.dimension != 3 || pb.p.contacts() > opt.max_contacts) continue;
      out.push_back(std::move(pb));
    } catch (const std::exception& e) {
      fmt::print("skip {}: {}\n", name, e.what());
    }
  }
  return out;
}

// ---- report -------------------------------------------------------------------------------

struct ProblemSummary {
  std::string name;
  Index contacts;
  std::vector<Outcome> outcomes;
  double best(const std::string& library) const {
    double t = std::numeric_limits<double>::infinity();
    for (const auto& o : outcomes)
      if (o.library == library && o.solved) t = std::min(t, o.seconds);
    return t;
  }
};

double median(std::vector<double> v) {
  if (v.empty()) return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string ratio_text(double m, double s) {
  if (std::isfinite(m) && std::isfinite(s)) return fmt::format("{:.3g}", m / std::max(s, 1e-9));
  if (std::isfinite(m)) return "moreau only";
  if (std::isfinite(s)) return "siconos only";
  return "neither";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 4 && std::string(argv[1]) == "--siconos-worker") {
#ifdef MOREAU_HAVE_SICONOS
    const double tol = argc >= 6 && std::string(argv[4]) == "--tol" ? std::stod(argv[5]) : 1e-8;
    return siconos_worker(argv[2], argv[3], tol);
#else
    std::fprintf(stderr, "bench_fclib: Siconos not installed\n");
    return 2;
#endif
  }
  Options opt;
  for (int k = 1; k < argc; ++k) {
    const std::string a = argv[k];
    auto value = [&]() -> std::string {
      if (k + 1 >= argc) {
        std::fprintf(stderr, "bench_fclib: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++k];
    };
    if (a == "--data")
      opt.data = value();
    else if (a == "--filter")
      opt.filter = value();
    else if (a == "--time-cap")
      opt.time_cap = std::stod(value());
    else if (a == "--tol")
      opt.tolerance = std::stod(value());
    else if (a == "--max-contacts")
      opt.max_contacts = std::stoi(value());
    else if (a == "--markdown")
      opt.markdown = value();
    else if (a == "--no-siconos")
      opt.siconos = false;
    else if (a == "--no-moreau")
      opt.moreau = false;
    else {
      std::fprintf(stderr,
                   "usage: bench_fclib [--data DIR] [--filter REGEX] [--time-cap S] [--tol T] "
                   "[--max-contacts N] [--markdown FILE] [--no-siconos] [--no-moreau]\n");
      return a == "--help" || a == "-h" ? 0 : 2;
    }
  }
  if (!fs::is_directory(opt.data)) {
    std::fprintf(stderr, "bench_fclib: no data folder %s\n", opt.data.c_str());
    return 2;
  }

  const std::vector<Problem> problems = load_problems(opt);
  std::vector<std::string> moreau_solvers;
  for (const auto& n : moreau::friction_contact_solver_names(3))
    if (n != "auto") moreau_solvers.push_back(n);

  fmt::print("bench_fclib: {} problems, tolerance {:g}, time cap {:g} s per solve\n",
             problems.size(), opt.tolerance, opt.time_cap);
#ifndef MOREAU_HAVE_SICONOS
  fmt::print("siconos: skipped, not installed\n");
  opt.siconos = false;
#endif
  const std::string header =
      fmt::format("{:<58} {:>8} {:<8} {:<14} {:<28} {:>9} {:>11} {:>9}", "problem", "contacts",
                  "library", "solver", "status", "iter", "residual", "seconds");
  fmt::print("{}\n{}\n", header, std::string(header.size(), '-'));

  std::vector<ProblemSummary> summaries;
  for (const Problem& pb : problems) {
    ProblemSummary s{pb.name, pb.p.contacts(), {}};
    auto print = [&](const Outcome& o) {
      fmt::print("{:<58} {:>8} {:<8} {:<14} {:<28} {:>9} {:>11.3e} {:>10.3e}\n", pb.name,
                 pb.p.contacts(), o.library, o.solver, o.status, o.iterations, o.residual,
                 o.seconds);
      std::fflush(stdout);
    };
    if (opt.moreau) {
      // the named solvers first: the first solve of a problem ran 3-8x slower on the µs-sized
      // problems (Rover4396 27 µs against 6 µs for the same solver right after), whichever solver
      // it was, so the default is not put first
      for (const auto& name : moreau_solvers) {
        s.outcomes.push_back(run_moreau(pb, name, opt));
        print(s.outcomes.back());
      }
      s.outcomes.push_back(run_moreau(pb, "auto", opt, true));
      print(s.outcomes.back());
    }
#ifdef MOREAU_HAVE_SICONOS
    if (opt.siconos)
      for (const auto& sol : kSiconosSolvers) {
        s.outcomes.push_back(run_siconos(pb, sol, opt));
        print(s.outcomes.back());
      }
#endif
    fmt::print(
        "{:<58} default {:.4g} s, best moreau {:.4g} s, best siconos {:.4g} s, ratio best {}, "
        "default {}\n\n",
        pb.name, s.best("default"), s.best("moreau"), s.best("siconos"),
        ratio_text(s.best("moreau"), s.best("siconos")),
        ratio_text(s.best("default"), s.best("siconos")));
    summaries.push_back(std::move(s));
  }

  int solved_m = 0, solved_s = 0, only_s = 0, only_m = 0, solved_d = 0, missed_d = 0, slow_d = 0;
  std::vector<double> ratios, default_ratios;
  double worst_d = 0.0;
  std::string worst_name, missed_names;
  for (const auto& s : summaries) {
    const double m = s.best("moreau"), c = s.best("siconos"), d = s.best("default");
    solved_m += std::isfinite(m);
    solved_s += std::isfinite(c);
    solved_d += std::isfinite(d);
    only_s += !std::isfinite(m) && std::isfinite(c);
    only_m += std::isfinite(m) && !std::isfinite(c);
    if (std::isfinite(m) && std::isfinite(c)) ratios.push_back(m / std::max(c, 1e-9));
    if (std::isfinite(d) && std::isfinite(c)) default_ratios.push_back(d / std::max(c, 1e-9));
    if (!std::isfinite(d) && (std::isfinite(c) || std::isfinite(m))) {
      ++missed_d;
      missed_names += (missed_names.empty() ? "" : ", ") + s.name;
    }
    if (std::isfinite(d) && std::isfinite(m)) {
      const double k = d / std::max(m, 1e-9);
      slow_d += k > 1.5;
      if (k > worst_d) worst_d = k, worst_name = s.name;
    }
  }
  const std::string summary = fmt::format(
      "summary: {} problems; solved (e ≤ {:g}) by some moreau solver: {}, by some Siconos solver: "
      "{}; by moreau only: {}, by Siconos only: {}; median best-time ratio moreau/Siconos: {:.3g} "
      "(over {} problems both solve)\n"
      "default solver (`moreau solve FILE`: auto, default settings): solves {}; misses {} that a "
      "named solver solves{}{}{}; median default/best-Siconos ratio {:.3g} (over {} problems); "
      "default/best-moreau above 1.5 on {} problems, worst {:.3g} ({})",
      summaries.size(), opt.tolerance, solved_m, solved_s, only_m, only_s, median(ratios),
      ratios.size(), solved_d, missed_d, missed_d ? " (" : "", missed_names, missed_d ? ")" : "",
      median(default_ratios), default_ratios.size(), slow_d, worst_d, worst_name);
  fmt::print("{}\n", summary);

  if (!opt.markdown.empty()) {
    std::ofstream md(opt.markdown);
    md << "| problem | contacts | library | solver | status | iterations | residual | seconds |\n"
       << "|---|---:|---|---|---|---:|---:|---:|\n";
    for (const auto& s : summaries)
      for (const auto& o : s.outcomes)
        md << fmt::format("| {} | {} | {} | {} | {} | {} | {:.2e} | {:.3e} |\n", s.name, s.contacts,
                          o.library, o.solver, o.status, o.iterations, o.residual, o.seconds);
    md << "\n| problem | contacts | default solver | default (s) | best moreau (s) | best Siconos "
          "(s) | default / best moreau | default / best Siconos | best moreau / best Siconos |\n"
       << "|---|---:|---|---:|---:|---:|---:|---:|---:|\n";
    for (const auto& s : summaries) {
      std::string chosen;
      for (const auto& o : s.outcomes)
        if (o.library == "default") chosen = o.solver;
      const double d = s.best("default"), m = s.best("moreau"), c = s.best("siconos");
      md << fmt::format("| {} | {} | {} | {:.4g} | {:.4g} | {:.4g} | {} | {} | {} |\n", s.name,
                        s.contacts, chosen, d, m, c,
                        std::isfinite(d) && std::isfinite(m) ? fmt::format("{:.3g}", d / m) : "–",
                        ratio_text(d, c), ratio_text(m, c));
    }
    md << "\n" << summary << "\n";
  }
  return 0;
}
