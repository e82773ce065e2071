// bench_columns (`make bench-sim`): columns of 0.2 m, 1 kg cubes stacked exactly on a floor (μ =
// 0.5, e = 0, dt = 1 ms), stepped by moreau (the Simulator, default settings and solver) and by
// native MuJoCo 2.2.2 (elliptic cones, its default Newton solver) in one process (issue 35,
// docs/benchmarks.md §Columns). A program, not a test.
//
//   bench_columns [SECONDS] [CUBES…]       default: 2 s of 5, 20, 40, 80 and 160 cubes
//
// Per height, one line: steps/s of each; moreau's steps above tolerance, solver work per step and
// row (bench/README.md §Work), the top cube's drift and the deepest penetration; MuJoCo's top
// cube sag (its soft contacts let a column sink) and whether it stayed up (top cube above half
// its start height). The last line is the same as JSON, with the solver iterations per step of
// each (moreau: sweeps and Newton iterations; MuJoCo: mjData::solver_iter), which
// bench/plot_columns.py draws against the height.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "moreau/common/timer.hpp"
#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/sim/simulator.hpp"

#ifdef MOREAU_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace {
using namespace moreau;

constexpr double kHalf = 0.1;  // m, half the cube's side

std::shared_ptr<RigidWorld> column(int cubes) {
  auto w = std::make_shared<RigidWorld>(3);
  ContactMaterial mat;
  mat.mu = 0.5;
  mat.restitution = 0.0;
  w->set_default_material(mat);
  RigidBody floor;
  floor.name = "floor";
  floor.is_static = true;
  floor.shapes.push_back(make_plane(Vector3::UnitZ()));
  w->add_body(floor);
  for (int i = 0; i < cubes; ++i) {
    RigidBody b;
    b.name = fmt::format("c{}", i);
    b.mass = 1.0;
    b.inertia = Matrix3::Identity() * (1.0 * 4 * kHalf * kHalf / 6.0);
    b.pose.position = Vector3(0, 0, kHalf + 2 * kHalf * i);
    b.shapes.push_back(make_box(Vector3::Constant(kHalf)));
    w->add_body(b);
  }
  return w;
}

nlohmann::json run_moreau(int cubes, long steps) {
  nlohmann::json out;
  const auto world = column(cubes);
  SimulationSettings settings;
  settings.t_end = 1e9;
  Simulator sim(world, CollisionSettings{}, settings);
  const Index top = 7 * (cubes - 1);
  const Vector3 start = sim.q().segment<3>(top);
  sim.start_recording();
  Stopwatch w;
  for (long k = 0; k < steps; ++k) sim.step();
  out["moreau_steps_per_s"] = static_cast<double>(steps) / w.seconds();
  const SimulationResult r = sim.stop_recording();
  out["moreau_steps_above_tolerance"] = r.solver_failures;
  out["moreau_iterations_per_step"] =
      static_cast<double>(r.solver_iterations) / static_cast<double>(steps);
  out["moreau_work_per_step_row"] =
      r.solver_work / (static_cast<double>(steps) * 12.0 * static_cast<double>(cubes));
  out["moreau_top_drift_m"] = (sim.q().segment<3>(top) - start).norm();
  out["moreau_max_penetration_m"] = r.max_penetration;
  out["moreau_energy_gain_relative"] =
      r.energy_initial != 0.0 ? r.max_energy_gain / std::abs(r.energy_initial) : 0.0;
  return out;
}

#ifdef MOREAU_HAVE_MUJOCO
void run_mujoco(int cubes, long steps, nlohmann::json& out) {
  std::string xml =
      R"(<mujoco><option timestep="0.001" cone="elliptic"/><size nconmax="2000" njmax="6000"/><worldbody>
  <geom type="plane" size="0 0 1" friction="0.5 0.005 0.0001"/>)";
  for (int i = 0; i < cubes; ++i)
    xml += fmt::format(
        R"(<body pos="0 0 {}"><freejoint/><geom type="box" size="{} {} {}" mass="1" friction="0.5 0.005 0.0001"/></body>)",
        kHalf + 2 * kHalf * i, kHalf, kHalf, kHalf);
  xml += "</worldbody></mujoco>";
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / fmt::format("bench_columns_{}.xml", cubes);
  std::ofstream(file) << xml;
  char err[1000] = "";
  mjModel* m = mj_loadXML(file.string().c_str(), nullptr, err, sizeof err);
  std::filesystem::remove(file);
  if (m == nullptr) {
    out["mujoco_error"] = err;
    return;
  }
  mjData* d = mj_makeData(m);
  const double z0 = d->qpos[7 * (cubes - 1) + 2];
  long iterations = 0;  // mjData::solver_iter: the iterations of the last step's solve
  Stopwatch w;
  for (long k = 0; k < steps; ++k) {
    mj_step(m, d);
    iterations += d->solver_iter;
  }
  out["mujoco_steps_per_s"] = static_cast<double>(steps) / w.seconds();
  out["mujoco_iterations_per_step"] = static_cast<double>(iterations) / static_cast<double>(steps);
  const double z = d->qpos[7 * (cubes - 1) + 2];
  out["mujoco_top_sag_m"] = z0 - z;
  out["mujoco_stands"] = z > 0.5 * z0;
  out["mujoco_version"] = mj_versionString();
  mj_deleteData(d);
  mj_deleteModel(m);
}
#endif

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 2.0;
  std::vector<int> heights;
  for (int i = 2; i < argc; ++i) heights.push_back(std::atoi(argv[i]));
  if (heights.empty()) heights = {5, 20, 40, 80, 160};
  const long steps = std::lround(seconds / 1e-3);
  double load[1] = {0.0};
  if (getloadavg(load, 1) != 1) load[0] = -1.0;
  std::printf("columns: %ld steps of 1 ms per height; 1-min load average %.2f before\n", steps,
              load[0]);
  std::printf("%6s %14s %14s %7s %9s %10s %11s %11s %12s %8s\n", "cubes", "moreau st/s",
              "MuJoCo st/s", "ratio", "above tol", "work/row", "drift m", "penetr. m",
              "MuJoCo sag m", "stands");
  nlohmann::json all = nlohmann::json::array();
  for (int cubes : heights) {
    nlohmann::json r = run_moreau(cubes, steps);
    r["cubes"] = cubes;
#ifdef MOREAU_HAVE_MUJOCO
    run_mujoco(cubes, steps, r);
#else
    r["mujoco_error"] = "not installed (make peers)";
#endif
    const double mj = r.value("mujoco_steps_per_s", NAN);
    std::printf(
        "%6d %14.0f %14.0f %7.2f %9d %10.2f %11.2e %11.2e %12.3g %8s\n", cubes,
        r["moreau_steps_per_s"].get<double>(), mj, r["moreau_steps_per_s"].get<double>() / mj,
        r["moreau_steps_above_tolerance"].get<int>(), r["moreau_work_per_step_row"].get<double>(),
        r["moreau_top_drift_m"].get<double>(), r["moreau_max_penetration_m"].get<double>(),
        r.value("mujoco_top_sag_m", NAN),
        r.contains("mujoco_stands") ? (r["mujoco_stands"].get<bool>() ? "yes" : "no") : "-");
    std::fflush(stdout);
    all.push_back(r);
  }
  std::printf("%s\n", all.dump().c_str());
  return 0;
}
