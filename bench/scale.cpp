// bench_scale (run by bench/scale.py, `make bench-scale`): one run of one engine on one sphere
// pile, printed as a JSON line; the driver starts one process per run so that each run's peak
// resident memory is its own (os.wait4).
//   bench_scale moreau SCENE.json T_END [THREADS]   the scene as `moreau simulate --threads` runs
//                                                   it (default solver; THREADS default 1)
//   bench_scale mujoco MODEL.xml  T_END   MuJoCo's default solver on the same pile (MJCF)
// Fields: engine, steps, setup_s (reading the file and building the model, before the first
// step), run_s, steps_per_s, mean_contacts (closed contacts averaged over the records, moreau;
// ncon averaged over the steps, MuJoCo), ms_per_step_per_contact, penetration (m, largest).
#include <cstdio>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "moreau/common/timer.hpp"
#include "moreau/io/scene/scene.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "moreau/sim/simulation.hpp"

#ifdef MOREAU_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace {

using namespace moreau;

void finish(nlohmann::json& j, long steps, double run_s, double mean_contacts) {
  j["steps"] = steps;
  j["run_s"] = run_s;
  j["steps_per_s"] = steps / run_s;
  j["mean_contacts"] = mean_contacts;
  j["ms_per_step_per_contact"] = mean_contacts > 0 ? 1e3 * run_s / steps / mean_contacts : 0.0;
  std::printf("%s\n", j.dump().c_str());
}

int run_moreau(const std::string& path, double t_end, int threads) {
  Stopwatch setup;
  const Scene scene = load_scene(path);
  SceneRun run = prepare_scene_run(scene, "", t_end);
  run.settings.time_stepping.contacts.threads = threads;
  // four records after the start: enough for the mean contact count, little memory
  run.settings.record_interval = t_end / 4;
  const double setup_s = setup.seconds();
  const SimulationResult r = simulate(*run.system, run.settings);
  double closed = 0;
  std::vector<double> times;
  for (const auto& c : r.contacts)
    if (c.t > 0 && c.mode != ContactMode::separate) closed += 1;
  for (double t : r.t)
    if (t > 0) times.push_back(t);
  nlohmann::json j{{"engine", threads == 1 ? "moreau" : fmt::format("moreau {} threads", threads)},
                   {"setup_s", setup_s},
                   {"penetration", r.max_penetration},
                   {"solver_failures", r.solver_failures}};
  finish(j, r.steps, r.wall_time, times.empty() ? 0.0 : closed / times.size());
  return 0;
}

#ifdef MOREAU_HAVE_MUJOCO
int run_mujoco(const std::string& path, double t_end) {
  Stopwatch setup;
  char err[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, err, sizeof err);
  if (!m) {
    std::printf("%s\n", nlohmann::json{{"engine", "mujoco"}, {"error", err}}.dump().c_str());
    return 1;
  }
  mjData* d = mj_makeData(m);
  if (!d) {
    std::printf(
        "%s\n",
        nlohmann::json{{"engine", "mujoco"}, {"error", "mj_makeData failed"}}.dump().c_str());
    return 1;
  }
  mj_forward(m, d);
  const double setup_s = setup.seconds();
  const long n = std::lround(t_end / m->opt.timestep);
  Stopwatch w;
  double pen = 0, contacts = 0;
  for (long k = 0; k < n; ++k) {
    mj_step(m, d);
    contacts += d->ncon;
    for (int c = 0; c < d->ncon; ++c) pen = std::max(pen, -d->contact[c].dist);
  }
  const double run_s = w.seconds();
  nlohmann::json j{
      {"engine", "mujoco " + std::string(mj_versionString())},
      {"setup_s", setup_s},
      {"penetration", pen},
      {"warnings", d->warning[mjWARN_CONTACTFULL].number + d->warning[mjWARN_CNSTRFULL].number}};
  finish(j, n, run_s, contacts / n);
  mj_deleteData(d);
  mj_deleteModel(m);
  return 0;
}
#endif

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4 && argc != 5) {
    std::fprintf(stderr, "usage: bench_scale moreau|mujoco FILE T_END [THREADS]\n");
    return 2;
  }
  const std::string engine = argv[1], path = argv[2];
  const double t_end = std::stod(argv[3]);
  try {
    if (engine == "moreau") return run_moreau(path, t_end, argc == 5 ? std::stoi(argv[4]) : 1);
#ifdef MOREAU_HAVE_MUJOCO
    if (engine == "mujoco") return run_mujoco(path, t_end);
#endif
    std::printf("%s\n", nlohmann::json{{"engine", engine}, {"error", "not built"}}.dump().c_str());
    return 1;
  } catch (const std::exception& e) {
    std::printf("%s\n", nlohmann::json{{"engine", engine}, {"error", e.what()}}.dump().c_str());
    return 1;
  }
}
