// bench_control (run by bench/control.py, `make bench-sim`): one model with actuators stepped a
// step at a time from C++ with its controls held: moreau::Simulator::step() against MuJoCo's
// mj_step (when libmujoco-dev is installed) on the same MJCF file, each with the file's own
// settings. Usage: bench_control MODEL.xml STEPS CTRL...; prints one JSON line
//   {"moreau_steps_per_s", "moreau_final_q", "mujoco_steps_per_s", "mujoco_final_qpos"}.
// A program, not a test.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "moreau/common/timer.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "moreau/sim/simulator.hpp"

#ifdef MOREAU_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

int main(int argc, char** argv) {
  using namespace moreau;
  if (argc < 3) {
    std::fprintf(stderr, "usage: bench_control MODEL.xml STEPS CTRL...\n");
    return 2;
  }
  const std::string path = argv[1];
  const long steps = std::atol(argv[2]);
  std::vector<double> ctrl;
  for (int i = 3; i < argc; ++i) ctrl.push_back(std::atof(argv[i]));
  nlohmann::json out;

  const Scene scene = load_scene(path);
  Simulator sim(scene.world, scene.collision, scene.settings);
  for (Index i = 0; i < sim.nu() && i < static_cast<Index>(ctrl.size()); ++i)
    sim.ctrl()[i] = ctrl[static_cast<size_t>(i)];
  sim.step();  // the first step builds the run
  Stopwatch w;
  for (long k = 1; k < steps; ++k) sim.step();
  out["moreau_steps_per_s"] = (steps - 1) / w.seconds();
  out["moreau_final_q"] = std::vector<double>(sim.q().data(), sim.q().data() + sim.q().size());

#ifdef MOREAU_HAVE_MUJOCO
  char err[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, err, sizeof err);
  if (m == nullptr) {
    out["mujoco_error"] = err;
  } else {
    mjData* d = mj_makeData(m);
    for (int i = 0; i < m->nu && i < static_cast<int>(ctrl.size()); ++i) d->ctrl[i] = ctrl[i];
    mj_step(m, d);
    Stopwatch wm;
    for (long k = 1; k < steps; ++k) mj_step(m, d);
    out["mujoco_steps_per_s"] = (steps - 1) / wm.seconds();
    out["mujoco_version"] = mj_versionString();
    out["mujoco_final_qpos"] = std::vector<double>(d->qpos, d->qpos + m->nq);
    mj_deleteData(d);
    mj_deleteModel(m);
  }
#else
  out["mujoco_error"] = "not installed (make peers)";
#endif
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
