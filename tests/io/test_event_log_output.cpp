// A run whose event log is shorter than the run (integrator.max_logged_events) written in both
// formats and read back by the run reader (what `moreau view` reads): the logged events, and the
// whole run's counts from the summary. The reference counts are those of the unlimited run's own
// event list, counted here by kind.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <string>

#include <unistd.h>

#include "moreau/io/run/run_reader.hpp"
#include "moreau/io/scene/scene.hpp"
#include "moreau/io/run/simulation_output.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {
namespace {

namespace fs = std::filesystem;

TEST(EventLogOutput, TheRunReaderRestoresEveryCountFromTheSummary) {
  // bouncing_ball.json (e = 0.8) in time stepping for 3 s: a dozen impacts
  Scene scene = load_scene(std::string(MOREAU_SOURCE_DIR) + "/examples/scenes/bouncing_ball.json");
  SceneRun run = prepare_scene_run(scene, "timestepping", 3.0);
  const SimulationResult all = simulate(*run.system, run.settings);
  std::map<EventKind, long> reference;
  for (const SimulationEvent& e : all.events) ++reference[e.kind];
  ASSERT_GE(reference[EventKind::impact], 5);

  run.settings.max_logged_events = 4;
  const SimulationResult some = simulate(*run.system, run.settings);
  const fs::path base =
      fs::temp_directory_path() / ("moreau_event_log_" + std::to_string(::getpid()));
  for (const OutputFormat format : {OutputFormat::csv, OutputFormat::hdf5}) {
    const fs::path dir = base / (format == OutputFormat::csv ? "csv" : "hdf5");
    write_simulation_outputs(some, dir.string(), nullptr, format, run.system.get());
    const RunFolder back = read_run_folder(dir.string());
    ASSERT_EQ(back.result.events.size(), 4u);
    for (size_t k = 0; k < 4; ++k) {
      EXPECT_EQ(back.result.events[k].kind, all.events[k].kind);
      EXPECT_NEAR(back.result.events[k].t, all.events[k].t, 1e-12);
    }
    for (const auto& [kind, n] : reference)
      EXPECT_EQ(back.result.event_counts.at(kind), n) << to_string(kind);
    EXPECT_EQ(back.summary.at("events_logged").get<long>(), 4);
  }
  fs::remove_all(base);
}

}  // namespace
}  // namespace moreau
