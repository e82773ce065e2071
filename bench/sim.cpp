// bench_sim (`make bench-sim`): box_stack and sphere_pile with moreau's Moreau–Jean time stepping
// against MuJoCo (when libmujoco-dev is installed) in the same run, dt = 1e-3: steps per second,
// largest penetration, drift of the resting stack over 2 s. The MJCF of each scene is written by
// this program from the same numbers. A program, not a test: it prints a table
// (docs/benchmarks.md, "## Simulation").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "moreau/common/timer.hpp"
#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/io/os/atomic_file.hpp"
#include "moreau/io/scene/scene_write.hpp"
#include "moreau/sim/simulation.hpp"

#ifdef MOREAU_HAVE_MUJOCO
#include <mujoco/mujoco.h>
#endif

namespace {

using namespace moreau;

constexpr double kDt = 1e-3;  // s
std::vector<double> g_tolerances = {1e-6,
                                    1e-8};  // moreau's solver tolerances, one row each (--tol)
int g_max_iterations = 500;                 // moreau's solver sweeps (--iter)
double g_relaxation = 1.7;                  // body-block NSGS over-relaxation ω (--omega)
// MuJoCo's contact buffer (nconmax) and constraint rows (njmax): large enough that no contact of
// the sphere pile is dropped (its default of 100 contacts fills up in the pile).
constexpr int kMujocoContacts = 1000;

struct SceneSpec {
  std::string name;
  double t_end;                         // s
  double mu;                            // Coulomb coefficient
  std::vector<Vector3> box_centres;     // cubes of half size box_half
  double box_half = 0.1;                // m
  std::vector<Vector3> sphere_centres;  // spheres of radius sphere_radius
  double sphere_radius = 0.05;          // m
  double wall = 0.0;                    // half width of the container (0 = no walls), m
};

SceneSpec box_stack() {
  SceneSpec s;
  s.name = "box_stack";
  s.t_end = 2.0;
  s.mu = 0.8;
  for (int i = 0; i < 5; ++i) s.box_centres.emplace_back(0.0, 0.0, 0.1 + 0.2 * i);
  return s;
}

SceneSpec sphere_pile(int count = 216) {
  SceneSpec s;
  s.name = "sphere_pile";
  s.t_end = 1.0;
  s.mu = 0.5;
  const double r = s.sphere_radius, pitch = 2.0 * r + 0.01;
  const int side = 6;  // 6 × 6 per layer
  s.wall = 0.5 * side * pitch + 0.01;
  for (int k = 0; static_cast<int>(s.sphere_centres.size()) < count; ++k)
    for (int i = 0; i < side && static_cast<int>(s.sphere_centres.size()) < count; ++i)
      for (int j = 0; j < side && static_cast<int>(s.sphere_centres.size()) < count; ++j)
        s.sphere_centres.emplace_back(-0.5 * (side - 1) * pitch + i * pitch + 0.002 * (k % 2),
                                      -0.5 * (side - 1) * pitch + j * pitch, r + 0.01 + k * pitch);
  return s;
}

Shape plane(const Vector3& n, double d) {
  Shape p;
  p.kind = ShapeKind::plane;
  p.normal = n;
  p.offset_distance = d;
  return p;
}

std::shared_ptr<RigidWorld> make_world(const SceneSpec& s) {
  auto w = std::make_shared<RigidWorld>(3);
  w->set_gravity(Vector3(0, 0, -9.81));
  ContactMaterial mat;
  mat.mu = s.mu;
  w->set_default_material(mat);
  RigidBody ground;
  ground.name = "ground";
  ground.is_static = true;
  ground.shapes.push_back(plane(Vector3::UnitZ(), 0.0));
  if (s.wall > 0) {
    ground.shapes.push_back(plane(Vector3::UnitX(), -s.wall));
    ground.shapes.push_back(plane(-Vector3::UnitX(), -s.wall));
    ground.shapes.push_back(plane(Vector3::UnitY(), -s.wall));
    ground.shapes.push_back(plane(-Vector3::UnitY(), -s.wall));
  }
  w->add_body(ground);
  int k = 0;
  for (const auto& c : s.box_centres) {
    RigidBody b;
    b.name = fmt::format("box{}", k++);
    b.mass = 1.0;
    const double a = 2 * s.box_half;
    b.inertia = Matrix3::Identity() * (a * a / 6.0);
    b.pose.position = c;
    Shape sh;
    sh.kind = ShapeKind::box;
    sh.half_extents = Vector3::Constant(s.box_half);
    b.shapes.push_back(sh);
    w->add_body(b);
  }
  k = 0;
  for (const auto& c : s.sphere_centres) {
    RigidBody b;
    b.name = fmt::format("ball{}", k++);
    b.mass = 0.5;
    b.inertia = Matrix3::Identity() * (0.4 * 0.5 * s.sphere_radius * s.sphere_radius);
    b.pose.position = c;
    Shape sh;
    sh.kind = ShapeKind::sphere;
    sh.radius = s.sphere_radius;
    b.shapes.push_back(sh);
    w->add_body(b);
  }
  return w;
}

struct Row {
  std::string engine, scene;
  long steps = 0;
  double seconds = 0, steps_per_second = 0, penetration = 0, drift = NAN;
  std::string note;
};

// Top body's displacement over the run (the resting stack should not move), m.
Row run_moreau(const SceneSpec& s, double tolerance) {
  auto world = make_world(s);
  RigidWorldSystem sys(world, CollisionSettings{.margin = 0.02}, s.name);
  SimulationSettings st{.integrator = Integrator::time_stepping, .t_end = s.t_end};
  st.time_stepping.dt = kDt;
  st.solver.tolerance = tolerance;
  st.solver.max_iterations = g_max_iterations;
  st.time_stepping.contacts.nsgs_relaxation = g_relaxation;
  st.record_interval = 0.1;
  const SimulationResult r = simulate(sys, st);
  Row row;
  row.engine = fmt::format("moreau (Moreau–Jean, θ=½, exact cone, tol {:g})", tolerance);
  row.scene = s.name;
  row.steps = r.steps;
  row.seconds = r.wall_time;
  row.steps_per_second = r.steps / r.wall_time;
  row.penetration = r.max_penetration;
  if (!s.box_centres.empty()) {
    const Index top = static_cast<Index>(s.box_centres.size()) - 1;
    row.drift = (r.q.back().segment<3>(7 * top) - r.q.front().segment<3>(7 * top)).norm();
  }
  row.note =
      r.solver_failures ? fmt::format("{} steps above solver tolerance", r.solver_failures) : "";
  return row;
}

std::string mjcf(const SceneSpec& s) {
  std::string x = fmt::format(
      "<mujoco model=\"{}\">\n  <option timestep=\"{}\" gravity=\"0 0 -9.81\" cone=\"elliptic\"/>\n"
      "  <size nconmax=\"{}\" njmax=\"{}\"/>\n"
      "  <worldbody>\n    <geom type=\"plane\" size=\"5 5 0.1\" friction=\"{} 0.005 0.0001\"/>\n",
      s.name, kDt, kMujocoContacts, 3 * kMujocoContacts, s.mu);
  if (s.wall > 0) {
    for (int sx : {-1, 1}) {
      x += fmt::format(
          "    <geom type=\"box\" pos=\"{} 0 1\" size=\"0.05 {} 1\" friction=\"{} 0.005 "
          "0.0001\"/>\n",
          sx * (s.wall + 0.05), s.wall + 0.1, s.mu);
      x += fmt::format(
          "    <geom type=\"box\" pos=\"0 {} 1\" size=\"{} 0.05 1\" friction=\"{} 0.005 "
          "0.0001\"/>\n",
          sx * (s.wall + 0.05), s.wall + 0.1, s.mu);
    }
  }
  // bodies named as make_world names them (box<k>, ball<k>)
  for (size_t k = 0; k < s.box_centres.size(); ++k) {
    const Vector3& c = s.box_centres[k];
    x += fmt::format(
        "    <body name=\"box{}\" pos=\"{} {} {}\"><freejoint/><geom type=\"box\" size=\"{} {} "
        "{}\" "
        "mass=\"1\" friction=\"{} 0.005 0.0001\"/></body>\n",
        k, c.x(), c.y(), c.z(), s.box_half, s.box_half, s.box_half, s.mu);
  }
  for (size_t k = 0; k < s.sphere_centres.size(); ++k) {
    const Vector3& c = s.sphere_centres[k];
    x += fmt::format(
        "    <body name=\"ball{}\" pos=\"{} {} {}\"><freejoint/><geom type=\"sphere\" size=\"{}\" "
        "mass=\"0.5\" friction=\"{} 0.005 0.0001\"/></body>\n",
        k, c.x(), c.y(), c.z(), s.sphere_radius, s.mu);
  }
  x += "  </worldbody>\n</mujoco>\n";
  return x;
}

#ifdef MOREAU_HAVE_MUJOCO
Row run_mujoco(const SceneSpec& s) {
  Row row;
  row.engine = "MuJoCo " + std::string(mj_versionString()) + " (default solver, elliptic cone)";
  row.scene = s.name;
  const std::string path = fmt::format("/tmp/moreau_bench_{}.xml", s.name);
  std::ofstream(path) << mjcf(s);
  char err[1000] = "";
  mjModel* m = mj_loadXML(path.c_str(), nullptr, err, sizeof err);
  if (!m) {
    row.note = std::string("load failed: ") + err;
    return row;
  }
  mjData* d = mj_makeData(m);
  mj_forward(m, d);
  const int top = m->nbody - 1;
  const Vector3 p0(d->xpos[3 * top], d->xpos[3 * top + 1], d->xpos[3 * top + 2]);
  const long n = static_cast<long>(std::lround(s.t_end / kDt));
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
  if (!s.box_centres.empty())
    row.drift = (Vector3(d->xpos[3 * top], d->xpos[3 * top + 1], d->xpos[3 * top + 2]) - p0).norm();
  mj_deleteData(d);
  mj_deleteModel(m);
  return row;
}
#endif

// The scene as moreau runs it natively, at the settings an MJCF import takes (dt = the MJCF's
// timestep, the default contact margin and solver): what `moreau simulate <name>.xml` must match.
Scene native_scene(const SceneSpec& s) {
  Scene scene;
  scene.name = s.name;
  scene.source = s.name;
  scene.description = fmt::format("{} of bench_sim, native (the MJCF's twin)", s.name);
  scene.world = make_world(s);
  scene.settings.integrator = Integrator::time_stepping;
  scene.settings.time_stepping.dt = kDt;
  scene.settings.t_end = s.t_end;
  scene.collision.margin = kImportedContactMargin;  // as the MJCF import detects contacts
  return scene;
}

}  // namespace

void print_row(const Row& r) {
  std::printf("| %s | %s | %ld | %.3f | %.0f | %.2e | %s | %s |\n", r.scene.c_str(),
              r.engine.c_str(), r.steps, r.seconds, r.steps_per_second, r.penetration,
              std::isnan(r.drift) ? "–" : fmt::format("{:.2e}", r.drift).c_str(), r.note.c_str());
  std::fflush(stdout);
}

// bench_sim [--tol=E] [--iter=N] [--omega=W] [SCENE ...]: the scenes named (box_stack,
// sphere_pile), all when none is. bench_sim --write-models=DIR writes each scene as DIR/<name>.xml
// (the MJCF MuJoCo runs) and DIR/<name>.json (the native moreau scene) and exits (the MJCF import's
// test, tests/python/test_mjcf.py, runs both). moreau runs once per solver tolerance (default 1e-6
// and 1e-8, one row each; --tol=E runs E only) with N sweeps (500) and over-relaxation W (1.7).
int main(int argc, char** argv) {
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--write-models=", 0) == 0) {
      const std::string dir = a.substr(15);
      for (const SceneSpec& s : {box_stack(), sphere_pile()}) {
        write_file_atomically(dir + "/" + s.name + ".xml", mjcf(s));
        write_file_atomically(dir + "/" + s.name + ".json",
                              scene_to_json(native_scene(s)).dump(2) + "\n");
      }
      return 0;
    }
    if (a.rfind("--tol=", 0) == 0)
      g_tolerances = {std::stod(a.substr(6))};
    else if (a.rfind("--iter=", 0) == 0)
      g_max_iterations = std::stoi(a.substr(7));
    else if (a.rfind("--omega=", 0) == 0)
      g_relaxation = std::stod(a.substr(8));
    else
      only.push_back(a);
  }
  std::printf(
      "| scene | engine | steps | wall (s) | steps/s | largest penetration (m) | drift of top box "
      "(m) | note |\n");
  std::printf("|---|---|---|---|---|---|---|---|\n");
  std::vector<Row> rows;
  for (const SceneSpec& s : {box_stack(), sphere_pile()}) {
    if (!only.empty() && std::find(only.begin(), only.end(), s.name) == only.end()) continue;
    std::fprintf(stderr, "running %s (%zu bodies) ...\n", s.name.c_str(),
                 s.box_centres.size() + s.sphere_centres.size());
#ifdef MOREAU_HAVE_MUJOCO
    rows.push_back(run_mujoco(s));
#else
    rows.push_back(Row{"MuJoCo", s.name, 0, 0, 0, 0, NAN, "skipped: not installed"});
#endif
    print_row(rows.back());
    for (const double tol : g_tolerances) {
      rows.push_back(run_moreau(s, tol));
      print_row(rows.back());
    }
  }
  return 0;
}
