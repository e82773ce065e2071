// bench_robots (run by bench/robots.py, `make bench-sim`): a published robot loaded and stepped
// by moreau (its URDF, as a user loads it) and by native MuJoCo (the same robot prepared for
// MuJoCo 2.2.2 by bench/robots.py), each with its default solver. A program, not a test.
//
//   bench_robots convert ROBOT_FOR_MUJOCO.urdf OUT.xml
//       MuJoCo reads the URDF and writes it as MJCF (mj_saveLastXML), for an MJCF wrapper;
//   bench_robots run ROBOT.urdf MUJOCO_MODEL STEPS [floating X Y Z]
//       loads and steps both; prints one JSON line {"moreau_load_s", "moreau_steps_per_s",
//       "moreau_solver_failures", "moreau_final_base_z", "mujoco_load_s", "mujoco_steps_per_s",
//       "mujoco_final_base_z"}; "floating X Y Z" frees moreau's base at (X, Y, Z) over a ground.
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "moreau/common/timer.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "moreau/sim/simulator.hpp"

#ifdef MOREAU_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

int main(int argc, char** argv) {
  using namespace moreau;
  const std::string mode = argc > 1 ? argv[1] : "";
  nlohmann::json out;
#ifdef MOREAU_HAVE_MUJOCO
  if (mode == "convert" && argc == 4) {
    char err[1000] = "";
    mjModel* m = mj_loadXML(argv[2], nullptr, err, sizeof err);
    if (m == nullptr || !mj_saveLastXML(argv[3], m, err, sizeof err)) {
      std::fprintf(stderr, "bench_robots: MuJoCo: %s\n", err);
      return 1;
    }
    mj_deleteModel(m);
    return 0;
  }
#endif
  if (mode != "run" || (argc != 5 && argc != 9)) {
    std::fprintf(stderr,
                 "usage: bench_robots convert ROBOT.urdf OUT.xml | run ROBOT.urdf MUJOCO_MODEL "
                 "STEPS [floating X Y Z]\n");
    return 2;
  }
  const std::string robot = argv[2], mujoco_model = argv[3];
  const long steps = std::atol(argv[4]);
  ModelImportOptions options;
  if (argc == 9) {
    options.floating_base = options.ground = true;
    options.base_pose = Pose{Vector3(std::atof(argv[6]), std::atof(argv[7]), std::atof(argv[8])),
                             Quaternion::Identity()};
  }
  Stopwatch load;
  const Scene scene = load_scene(robot, options);
  Simulator sim(scene.world, scene.collision, scene.settings);
  sim.step();  // the first step builds the run
  out["moreau_load_s"] = load.seconds();
  Stopwatch w;
  sim.start_recording();
  for (long k = 1; k < steps; ++k) sim.step();
  out["moreau_steps_per_s"] = (steps - 1) / w.seconds();
  const SimulationResult r = sim.stop_recording();
  out["moreau_solver_failures"] = r.solver_failures;
  const std::vector<std::string> names = sim.coordinate_names();
  for (size_t i = 0; i < names.size(); ++i)
    if (names[i].ends_with(".z") && i < 8) out["moreau_final_base_z"] = sim.q()[i];
#ifdef MOREAU_HAVE_MUJOCO
  char err[1000] = "";
  Stopwatch mload;
  mjModel* m = mj_loadXML(mujoco_model.c_str(), nullptr, err, sizeof err);
  if (m == nullptr) {
    out["mujoco_error"] = err;
  } else {
    mjData* d = mj_makeData(m);
    mj_step(m, d);
    out["mujoco_load_s"] = mload.seconds();
    Stopwatch wm;
    for (long k = 1; k < steps; ++k) mj_step(m, d);
    out["mujoco_steps_per_s"] = (steps - 1) / wm.seconds();
    out["mujoco_version"] = mj_versionString();
    out["mujoco_timestep"] = m->opt.timestep;
    if (m->nq > m->nv) out["mujoco_final_base_z"] = d->qpos[2];  // a free joint first
    mj_deleteData(d);
    mj_deleteModel(m);
  }
#else
  out["mujoco_error"] = "not installed (make peers)";
#endif
  std::printf("%s\n", out.dump().c_str());
  return 0;
}
