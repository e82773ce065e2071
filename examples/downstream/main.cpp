// A program built against an installed moreau (find_package(moreau) or pkg-config): solves an
// FCLIB frictional contact problem and simulates a rigid-body scene, checking both results.
//   downstream PROBLEM.hdf5 SCENE.json      exit status 0 = both checks passed
#include <cstdio>
#include <exception>
#include <memory>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/io/fclib.hpp"
#include "moreau/io/scene.hpp"
#include "moreau/sim/simulation.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"
#include "moreau/version.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s PROBLEM.hdf5 SCENE.json\n", argv[0]);
    return 2;
  }
  try {
    // 1. The frictional contact problem: W r + q = u, r ∈ K, u ⊥ r (natural-map residual).
    const moreau::FrictionContactProblem problem = moreau::read_fclib_local(argv[1]);
    const moreau::FrictionContactResult solved =
        moreau::solve_friction_contact(problem, "auto", {.tolerance = 1e-8});
    std::printf("moreau %s: %s solved by %s: %s, residual %.2e after %d iterations\n",
                MOREAU_VERSION, argv[1], solved.solver.c_str(),
                std::string(moreau::to_string(solved.status)).c_str(), solved.residual,
                solved.iterations);
    if (!solved.converged() || !(solved.residual <= 1e-8)) return 1;

    // 2. The scene: Moreau–Jean time stepping of its rigid world.
    const moreau::Scene scene = moreau::load_scene(argv[2]);
    if (scene.world == nullptr) {
      std::fprintf(stderr, "%s: a scene with bodies is expected\n", argv[2]);
      return 2;
    }
    const moreau::RigidWorldSystem system(scene.world, {.margin = 0.02}, scene.name);
    moreau::SimulationSettings settings = scene.settings;  // the scene's integrator object
    settings.integrator = moreau::Integrator::time_stepping;
    const moreau::SimulationResult run = moreau::simulate(system, settings);
    std::printf("%s: %s, %ld steps to t = %.3f s, energy %.4f J -> %.4f J\n", scene.name.c_str(),
                moreau::to_string(run.status).c_str(), run.steps,
                run.t.empty() ? 0.0 : run.t.back(), run.energy_initial, run.energy_final);
    const bool completed = run.status == moreau::SimulationStatus::completed && !run.t.empty() &&
                           run.t.back() >= settings.t_end * (1.0 - 1e-9);
    const bool no_energy_gained = run.energy_final <= run.energy_initial + 1e-6;
    return completed && no_energy_gained ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "downstream: error: %s\n", e.what());
    return 2;
  }
}
