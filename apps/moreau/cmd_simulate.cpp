// `moreau simulate SCENE.json [--out DIR] [--t-end T] [--integrator event|timestepping]
//  [--no-plot] [--threads N] [--format csv|hdf5]`: runs a scene (docs/scene-format.md) with the
//  event-driven or the Moreau–Jean
// integrator and writes trajectory.csv, contacts.csv, events.csv, summary.json (or run.h5) and
// plot.png (docs/cli.md (moreau simulate)). Bad scenes throw std::invalid_argument → main() prints
// it, exit 2.
//
// plot.png is drawn by python/moreau/_simulate.py run as a script with /usr/bin/python3
// (`python3 _simulate.py plot DIR`); the script is looked up in $MOREAU_PYTHON_DIR/moreau, then
// next to the program (<bin>/../python/moreau: the build tree), then in the source tree
// (<bin>/../../python/moreau). Without python3 or matplotlib the PNG is skipped with a note.
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "commands.hpp"
#include "moreau/common/parallel.hpp"
#include "moreau/io/os/interrupt_guard.hpp"
#include "moreau/io/json/json_reader.hpp"
#include "moreau/io/scene/scene.hpp"
#include "moreau/io/run/simulation_output.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/io/import/load_scene.hpp"

namespace moreau::cli {
namespace {

struct SimulateOptions {
  std::string scene;
  std::string out;
  double t_end = NAN;  // s, NaN = the scene's
  std::string integrator;
  bool no_plot = false;
  bool json = false;  // print the result document; write files only with --out
  std::string python = "/usr/bin/python3";
  int threads = -1;           // −1: the scene's; 0: every hardware thread
  std::string format;         // "" = the scene's output.format
  ModelImportOptions import;  // URDF: base and ground
};

std::string find_plot_script() {
  const std::string dir = find_python_package();
  return dir.empty() ? "" : dir + "/moreau/_simulate.py";
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

void run(const SimulateOptions& opt) {
  const Scene scene = load_scene(opt.scene, opt.import);
  for (const auto& w : scene.warnings) std::fprintf(stderr, "moreau: warning: %s\n", w.c_str());
  SceneRun run = prepare_scene_run(scene, opt.integrator, opt.t_end);
  if (!opt.out.empty()) run.out_dir = opt.out;
  if (!opt.format.empty()) run.format = output_format_from_name(opt.format, "--format");
  if (opt.threads >= 0)
    run.settings.time_stepping.contacts.threads =
        opt.threads == 0 ? hardware_threads() : opt.threads;
  const bool tty = isatty(fileno(stderr)) && verbosity > 0 && !opt.json;
  ProgressCallback progress;
  std::size_t widest_line = 0;  // what the line erases at the end
  if (tty) {
    // [#####     ]  42%  12000 steps, 3 solver failures (worst residual 2.1e-03)
    progress = [&widest_line](const SimulationProgress& p) {
      const int w = 40, k = std::clamp(static_cast<int>(p.fraction * w), 0, w);
      std::string faults;
      if (p.solver_failures > 0)
        faults = fmt::format(", {} solver failure{} (worst residual {:.1e})", p.solver_failures,
                             p.solver_failures == 1 ? "" : "s", p.worst_solver_residual);
      const std::string line =
          fmt::format("[{}{}] {:3d}%  {} steps{}", std::string(k, '#'), std::string(w - k, ' '),
                      static_cast<int>(100 * p.fraction), p.steps, faults);
      std::fprintf(stderr, "\r%s", line.c_str());
      std::fflush(stderr);
      widest_line = std::max(widest_line, line.size());
    };
  }
  InterruptGuard interrupt;
  // an initial state that simulate() refuses came from the file: its message names the file
  const SimulationResult res = json_io::with_source(scene.source, [&] {
    return simulate(*run.system, run.settings, Vector(), Vector(), progress,
                    interrupt.stop_request());
  });
  if (tty) std::fprintf(stderr, "\r%*s\r", static_cast<int>(widest_line), "");
  if (res.status == SimulationStatus::interrupted) exit_status = 128 + interrupt.signal_received();
  if (res.status == SimulationStatus::diverged) exit_status = kExitNotFinished;
  if (opt.json) {  // the result document; files only when --out is given
    if (!opt.out.empty())
      write_simulation_outputs(res, run.out_dir, &interrupt, run.format, run.system.get());
    std::fputs(simulation_result_json(res).c_str(), stdout);
    return;
  }
  write_simulation_outputs(res, run.out_dir, &interrupt, run.format, run.system.get());

  bool plotted = false;
  if (exit_status != 0) {
    std::fprintf(stderr, "moreau: %s at t = %g s; plot.png skipped\n",
                 to_string(res.status).c_str(), res.t.empty() ? 0.0 : res.t.back());
  } else if (run.plot.value_or(true) && !opt.no_plot) {
    const std::string script = find_plot_script();
    if (script.empty()) {
      std::fprintf(stderr,
                   "moreau: plot.png skipped: python/moreau/_simulate.py not found (set "
                   "MOREAU_PYTHON_DIR)\n");
    } else if (!std::filesystem::exists(opt.python)) {
      std::fprintf(stderr, "moreau: plot.png skipped: %s not found\n", opt.python.c_str());
    } else {
      const std::string cmd = fmt::format("{} {} plot {}", shell_quote(opt.python),
                                          shell_quote(script), shell_quote(run.out_dir));
      const int rc = std::system(cmd.c_str());
      if (rc != 0)
        std::fprintf(stderr,
                     "moreau: plot.png skipped: the plotting script failed (python3 with "
                     "matplotlib needed)\n");
      else
        plotted = true;
    }
  }
  std::printf("%s: %s integrator, t = %g s, %ld steps, status %s%s%s\n", scene.name.c_str(),
              to_string(res.integrator).c_str(), res.t.empty() ? 0.0 : res.t.back(), res.steps,
              to_string(res.status).c_str(), res.message.empty() ? "" : ": ", res.message.c_str());
  std::printf(
      "events: %ld impact, %ld stick_to_slip, %ld slip_to_stick, %ld separation, %ld painleve\n",
      res.event_count(EventKind::impact), res.event_count(EventKind::stick_to_slip),
      res.event_count(EventKind::slip_to_stick), res.event_count(EventKind::separation),
      res.event_count(EventKind::painleve));
  std::printf(
      "energy: %.6g J -> %.6g J (largest gain %.3g J); largest penetration %.3g m; wall time %.3g "
      "s\n",
      res.energy_initial, res.energy_final, res.max_energy_gain, res.max_penetration,
      res.wall_time);
  if (verbosity > 1)
    for (const auto& e : res.events)
      std::printf("event t = %.9g s: %s%s%s\n", e.t, to_string(e.kind).c_str(),
                  e.contact >= 0 && e.contact < static_cast<Index>(res.contact_names.size())
                      ? (" at " + res.contact_names[e.contact]).c_str()
                      : "",
                  e.detail.empty() ? "" : (" (" + e.detail + ")").c_str());
  for (const auto& w : res.warnings) std::fprintf(stderr, "moreau: warning: %s\n", w.c_str());
  const std::string dir = std::filesystem::absolute(run.out_dir).lexically_normal().string();
  std::printf("wrote %s/{%s%s}\n", dir.c_str(),
              run.format == OutputFormat::hdf5
                  ? "run.h5"
                  : "trajectory.csv, contacts.csv, events.csv, summary.json, geometry.json",
              plotted ? ", plot.png" : "");
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto opt = std::make_shared<SimulateOptions>();
  auto* cmd = app.add_subcommand("simulate",
                                 "Simulate a scene (event-driven or Moreau–Jean time stepping)");
  cmd->add_option("scene", opt->scene,
                  "Scene file: JSON (docs/scene-format.md), MJCF .xml (docs/mjcf.md) or URDF "
                  ".urdf (docs/urdf.md)")
      ->required();
  add_model_import_options(*cmd, opt->import);
  cmd->add_option("-o,--out", opt->out,
                  "Output folder (default: the scene's output.dir or out/<scene>)");
  cmd->add_option("--t-end", opt->t_end, "Final time, s (default: the scene's t_end)")
      ->check(CLI::Validator(
          [](const std::string& text) {
            // NaN stands for "not given" below, so a given value must be a finite number
            const double t = std::strtod(text.c_str(), nullptr);
            return std::isfinite(t) ? std::string() : text + " is not a finite number of seconds";
          },
          "SECONDS"));
  cmd->add_option("--integrator", opt->integrator, "event | timestepping (default: the scene's)")
      ->check(CLI::IsMember({"event", "timestepping"}));
  cmd->add_flag("--no-plot", opt->no_plot, "Do not draw plot.png");
  cmd->add_option("--format", opt->format,
                  "csv (trajectory.csv, contacts.csv, events.csv, summary.json) or hdf5 (one "
                  "run.h5, docs/run-format.md); default: the scene's output.format");
  cmd->add_option("--threads", opt->threads,
                  "Threads of a rigid world's time steps (narrow phase, coloured NSGS); 0 = all "
                  "(default: the scene's integrator.threads, 1)")
      ->check(CLI::Range(0, 1024));
  cmd->add_flag("--json", opt->json,
                "Print the result (summary, final state, events, impulses) as JSON; files are "
                "written only with --out, and no plot");
  cmd->add_option("--python", opt->python, "Python interpreter used for plot.png");
  cmd->footer(
      "Examples:\n"
      "  moreau simulate examples/scenes/falling_pencil.json --out out/demo\n"
      "  moreau simulate examples/scenes/box_stack.json --t-end 2 --no-plot\n"
      "  moreau -v simulate examples/scenes/bouncing_ball.json --integrator timestepping\n"
      "  moreau simulate examples/mjcf/door.xml --t-end 2\n"
      "  moreau simulate examples/urdf/two_link_arm.urdf --ground\n"
      "Ctrl-C stops at the end of a step and writes the run so far (exit 130).");
  cmd->callback([opt] { run(*opt); });
}

}  // namespace moreau::cli
