// Fuzz target: a full small simulation driven by a fuzzed scene — load, build, run (as
// `moreau simulate` does, without writing files). The run is kept small whatever the scene says:
// at most 40 generalized velocities, t_end cut to 30 time steps (time stepping) or 0.05 s and 50
// events (event-driven). Every status is acceptable (completed, diverged, solver_failure, …), but
// every recorded state and energy must be finite (a NaN ends a run as diverged, never recorded);
// an escaping exception other than a clean refusal, a crash or a hang is a bug.
// Contract: fuzz/support/fuzz_contract.hpp.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "../support/fuzz_contract.hpp"
#include "moreau/common/error.hpp"
#include "moreau/io/scene/scene.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/sim/simulation.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::string source = "fuzz-simulate.json";
  moreau::fuzz::expect_success_or_clean_refusal(source, text, [&] {
    const moreau::Scene scene = moreau::parse_scene_text(text, source);
    moreau::SceneRun run = moreau::prepare_scene_run(scene, "", std::nan(""));
    if (run.system->velocity_size() > 40) return;
    moreau::SimulationSettings& settings = run.settings;
    if (settings.integrator == moreau::Integrator::time_stepping) {
      settings.t_end = std::min(settings.t_end, 30.0 * settings.time_stepping.dt);
    } else {
      settings.t_end = std::min(settings.t_end, 0.05);
      settings.event_driven.max_events = std::min(settings.event_driven.max_events, 50);
    }
    // simulate() checks the state it starts from (sizes, finiteness, energy) without knowing the
    // file: its refusals name the problem, and the program puts the file in front
    moreau::fuzz::expect_success_or_clean_refusal("", text, [&] {
      const moreau::SimulationResult result = moreau::simulate(*run.system, settings);
      for (moreau::Index k = 0; k < result.records(); ++k)
        if (!std::isfinite(result.kinetic[k] + result.potential[k]) ||
            !moreau::all_finite(result.q[k]) || !moreau::all_finite(result.v[k]))
          moreau::fuzz::contract_broken("a non-finite state or energy was recorded",
                                        result.message);
    });
  });
  return 0;
}
