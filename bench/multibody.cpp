// bench_multibody (`make bench-sim`): robots in joint coordinates, moreau against MuJoCo (when
// libmujoco-dev is installed) on the same MJCF file in the same run. What a user gets: the file
// loaded by `moreau simulate`'s loader with its own settings (default solver and tolerance), and
// by mj_loadXML with MuJoCo's defaults. Prints a table (docs/benchmarks.md §Joint coordinates):
// steps per second, steps above moreau's solver tolerance, the largest penetration, and the
// energy drift |E(T) − E(0)| / E(0) of a passive run (contact-free models only; these also run
// MuJoCo's RK4 integrator, as its default Euler is first order where moreau's step is second).
// moreau runs twice a round: simulate(), which records the whole trajectory as a user's run does,
// and the Simulator's step loop, which keeps no states, as MuJoCo's timed loop of mj_step.
// Each model runs in rounds (`bench_multibody [ROUNDS]`, 9 by default): a round runs every engine
// once, one after the other, so that a minute of this shared machine's load falls on both. Each
// row gives an engine's median steps/s over the rounds, and a line under the table the median,
// least and greatest of the rounds' ratios moreau ÷ MuJoCo. One run of a few milliseconds is a
// sample of the load, not a measurement (docs/benchmarks.md §Joint coordinates).
//   arm6      six capsule links on hinges about alternating axes, fixed base, no contacts, dt 1 ms,
//             released horizontal, 2 s;
//   humanoid  bench/models/humanoid.xml: capsules, 2–3 hinges per body, joint springs and dampers,
//             falling on a floor at dt 5 ms, 3 s.
// A program, not a test.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "moreau/common/timer.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/sim/simulation.hpp"
#include "moreau/sim/simulator.hpp"

#ifdef MOREAU_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace {

using namespace moreau;

struct Row {
  std::string model, engine;
  long steps = 0;
  double seconds = 0, steps_per_second = 0, penetration = 0, drift = NAN;
  long above_tolerance = -1;
  std::string note;
};

// A six-link arm: capsules of 0.2 m on hinges about y, z, y, z, y, z, no collisions.
std::string arm6_xml() {
  std::string x =
      "<mujoco model=\"arm6\">\n  <option timestep=\"0.001\" gravity=\"0 0 -9.81\"/>\n"
      "  <default><geom type=\"capsule\" size=\"0.03\" contype=\"0\" conaffinity=\"0\" "
      "density=\"1000\"/></default>\n  <worldbody>\n";
  std::string close;
  for (int i = 0; i < 6; ++i) {
    x += fmt::format(
        "{}<body name=\"link{}\" pos=\"{} 0 {}\">\n{}  <joint name=\"j{}\" type=\"hinge\" "
        "axis=\"{}\"/>\n{}  <geom fromto=\"0 0 0 0.2 0 0\"/>\n",
        std::string(2 * i + 4, ' '), i, i == 0 ? 0.0 : 0.2, i == 0 ? 1.0 : 0.0,
        std::string(2 * i + 4, ' '), i, i % 2 ? "0 0 1" : "0 1 0", std::string(2 * i + 4, ' '));
    close = std::string(2 * i + 4, ' ') + "</body>\n" + close;
  }
  return x + close + "  </worldbody>\n</mujoco>\n";
}

Row run_moreau(const std::string& name, const std::string& path, double t_end, bool passive) {
  Row row;
  row.model = name;
  row.engine = "moreau (default settings)";
  const Scene scene = load_scene(path);
  const SceneRun run = prepare_scene_run(scene, "", t_end);
  Stopwatch w;
  const SimulationResult r = simulate(*run.system, run.settings);
  row.seconds = w.seconds();
  row.steps = r.steps;
  row.steps_per_second = r.steps / row.seconds;
  row.above_tolerance = r.solver_failures;
  row.penetration = r.max_penetration;
  if (passive) row.drift = std::abs(r.energy_final - r.energy_initial) / std::abs(r.energy_initial);
  if (r.status != SimulationStatus::completed) row.note = r.message;
  return row;
}

// moreau's step loop, timed as MuJoCo's loop is: the Simulator made from the scene and its run
// started (step(0): the start's detection) before the clock, as mj_makeData and mj_forward are,
// then T/dt steps that keep no states (only the last step's contacts, for contacts()). Its steps
// are simulate()'s (Simulator.ARecordingIsWhatSimulateRecords), so the row gives the time alone;
// the run's row above gives the tolerance, the penetration and the drift of the same steps.
Row run_moreau_loop(const std::string& name, const std::string& path, double t_end) {
  Row row;
  row.model = name;
  row.engine = "moreau Simulator loop (keeps no states)";
  row.penetration = NAN;
  const Scene scene = load_scene(path);
  Simulator sim(scene.world, scene.collision, scene.settings);
  const long n = std::lround(t_end / scene.settings.time_stepping.dt);
  sim.step(0);
  Stopwatch w;
  sim.step(n);
  row.seconds = w.seconds();
  row.steps = n;
  row.steps_per_second = n / row.seconds;
  return row;
}

#ifdef MOREAU_HAVE_MUJOCO
// rk4: MuJoCo's fourth-order Runge–Kutta integrator instead of its default semi-implicit Euler
// (first order), for a passive model: a comparison at a like order of accuracy (moreau's free
// flight is second order, docs/simulation.md).
Row run_mujoco(const std::string& name, const std::string& path, double t_end, bool passive,
               bool rk4 = false) {
  Row row;
  row.model = name;
  row.engine = "MuJoCo " + std::string(mj_versionString()) + (rk4 ? " (RK4)" : " (defaults)");
  char err[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, err, sizeof err);
  if (!m) {
    row.note = std::string("load failed: ") + err;
    return row;
  }
  if (rk4) m->opt.integrator = mjINT_RK4;
  mjData* d = mj_makeData(m);
  m->opt.enableflags |= mjENBL_ENERGY;
  mj_forward(m, d);
  const double e0 = d->energy[0] + d->energy[1];
  const long n = std::lround(t_end / m->opt.timestep);
  Stopwatch w;
  double pen = 0;
  for (long k = 0; k < n; ++k) {
    mj_step(m, d);
    for (int c = 0; c < d->ncon; ++c) pen = std::max(pen, -d->contact[c].dist);
  }
  row.seconds = w.seconds();
  row.steps = n;
  row.steps_per_second = n / row.seconds;
  row.penetration = pen;
  mj_forward(m, d);
  if (passive) row.drift = std::abs(d->energy[0] + d->energy[1] - e0) / std::abs(e0);
  mj_deleteData(d);
  mj_deleteModel(m);
  return row;
}
#endif

void print_row(const Row& r) {
  std::printf("| %s | %s | %ld | %.3f | %.0f | %s | %s | %s | %s |\n", r.model.c_str(),
              r.engine.c_str(), r.steps, r.seconds, r.steps_per_second,
              r.above_tolerance < 0 ? "–" : std::to_string(r.above_tolerance).c_str(),
              std::isnan(r.penetration) ? "–" : fmt::format("{:.2e}", r.penetration).c_str(),
              std::isnan(r.drift) ? "–" : fmt::format("{:.1e}", r.drift).c_str(), r.note.c_str());
  std::fflush(stdout);
}

// The row of the round with the median steps/s (the upper median of an even count); every
// round's physics is the same (the runs are deterministic), so that row's columns stand for all.
Row median_row(std::vector<Row> rounds) {
  std::sort(rounds.begin(), rounds.end(),
            [](const Row& a, const Row& b) { return a.steps_per_second < b.steps_per_second; });
  Row r = rounds[rounds.size() / 2];
  r.engine += fmt::format(" (median of {})", rounds.size());
  return r;
}

#ifdef MOREAU_HAVE_MUJOCO
// The median of x (the mean of the two middle values of an even count).
double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const size_t n = x.size();
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}
#endif

}  // namespace

int main(int argc, char** argv) {
  char* end = nullptr;
  const long rounds = argc > 1 ? std::strtol(argv[1], &end, 10) : 9;
  if (rounds < 1 || rounds > 10000 || (argc > 1 && *end != '\0')) {
    std::fprintf(stderr, "bench_multibody: ROUNDS must be an integer from 1 to 10000, not '%s'\n",
                 argv[1]);
    return 2;
  }
  const std::string arm = "/tmp/moreau_bench_arm6.xml";
  std::ofstream(arm) << arm6_xml();
  struct Model {
    std::string name, path;
    double t_end;
    bool passive;
  };
  const std::vector<Model> models = {
      {"arm6", arm, 2.0, true},
      {"humanoid", std::string(MOREAU_SOURCE_DIR) + "/bench/models/humanoid.xml", 3.0, false}};
  std::printf(
      "| model | engine | steps | s | steps/s | steps above tolerance | penetration (m) | "
      "|ΔE|/E₀ | note |\n|---|---|---|---|---|---|---|---|---|\n");
  std::vector<std::string> ratio_lines;
  for (const Model& m : models) {
    std::vector<Row> ours, loops, theirs, rk4;
    std::vector<double> ratios, loop_ratios;
    for (long k = 0; k < rounds; ++k) {
      ours.push_back(run_moreau(m.name, m.path, m.t_end, m.passive));
      loops.push_back(run_moreau_loop(m.name, m.path, m.t_end));
#ifdef MOREAU_HAVE_MUJOCO
      theirs.push_back(run_mujoco(m.name, m.path, m.t_end, m.passive));
      if (m.passive) rk4.push_back(run_mujoco(m.name, m.path, m.t_end, m.passive, true));
      if (theirs.back().steps_per_second > 0) {
        ratios.push_back(ours.back().steps_per_second / theirs.back().steps_per_second);
        loop_ratios.push_back(loops.back().steps_per_second / theirs.back().steps_per_second);
      }
#endif
    }
    print_row(median_row(ours));
    print_row(median_row(loops));
#ifdef MOREAU_HAVE_MUJOCO
    print_row(median_row(theirs));
    if (m.passive) print_row(median_row(rk4));
    auto ratio_line = [&](const char* what, const std::vector<double>& x) {
      return fmt::format(
          "{}: {} ÷ MuJoCo (defaults) steps/s, median of {} rounds {:.2f} (least {:.2f}, greatest "
          "{:.2f})",
          m.name, what, x.size(), median(x), *std::min_element(x.begin(), x.end()),
          *std::max_element(x.begin(), x.end()));
    };
    if (!ratios.empty()) {
      ratio_lines.push_back(ratio_line("moreau", ratios));
      ratio_lines.push_back(ratio_line("moreau's Simulator loop", loop_ratios));
    }
#else
    print_row(Row{m.name, "MuJoCo", 0, 0, 0, 0, NAN, -1, "skipped: not installed"});
#endif
  }
  std::printf("\n");
  for (const std::string& line : ratio_lines) std::printf("%s\n", line.c_str());
  return 0;
}
