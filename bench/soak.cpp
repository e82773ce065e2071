// bench_soak (`make soak`; issue 15 §5, docs/reliability.md): long runs that must stay flat.
//
//   box_stack    the five-cube stack (examples/scenes/box_stack.json), time stepping, 10⁶ steps
//   sphere_pile  the 216-sphere pile (examples/scenes/sphere_pile.json), time stepping, 10⁵ steps
//   pencil       the falling pencil (examples/scenes/falling_pencil.json), event-driven, to 100 s
//
// Each run is one simulate() call (warm starts, contact identities and event state carried as in
// any run), recorded every 1 % of its length; the progress callback samples the resident memory
// (VmRSS of /proc/self/status) at each percent. From the samples: the energy drift, the height of
// the top body, the events so far and the memory. The run fails (exit 1) when a bound of
// docs/reliability.md is crossed:
//   - energy: E(t) − E(0) ≤ gain_bound · |E(0)| at every sample (no run may gain energy: the stack
//     rests, the pile and the pencil dissipate);
//   - the stack: the top cube's height stays within 1e-5 m of its start;
//   - the pile: no sphere below the floor by more than 1 mm, none above its start;
//   - the pencil: no event in the second half of the run (it lies still);
//   - memory: RSS at the last step − RSS at 10 %, less what the run recorded in between (the
//     records, contact records and events it returns), ≤ 8 MB (no growth per step).
// --short runs 1 % of each length (what `make test` runs: soak.short). The samples go to
// OUT/soak-<case>.csv and the verdicts to OUT/soak-summary.json; bench/plot_soak.py draws them.
//
//   bench_soak [--short] [--out DIR] [--case NAME]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "moreau/io/os/atomic_file.hpp"
#include "moreau/io/scene/scene.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "moreau/sim/simulation.hpp"

namespace {

using namespace moreau;

// Resident set size of this process, MB (VmRSS), or −1 where /proc is missing.
double resident_mb() {
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key) {
    if (key == "VmRSS:") {
      double kb = 0.0;
      status >> kb;
      return kb / 1024.0;
    }
    status.ignore(1 << 12, '\n');
  }
  return -1.0;
}

enum class Watch { top_cube, pile, pencil };

struct SoakCase {
  std::string name;
  std::string scene;  // under examples/scenes
  double t_end;       // s (the full run)
  Watch watch;
  double gain_bound;  // largest E(t) − E(0), relative to |E(0)|
};

// One sample at each percent.
struct Sample {
  double t = 0.0;
  long steps = 0;
  double energy = 0.0;
  double height = 0.0;  // the watched height: top cube z, highest sphere z, pencil centre y
  double lowest = 0.0;  // lowest sphere centre (pile), else = height
  long events = 0;
  double rss_mb = -1.0;
};

struct Verdict {
  bool ok = true;
  std::vector<std::string> failures;
  void check(bool condition, const std::string& what) {
    if (!condition) {
      ok = false;
      failures.push_back(what);
    }
  }
};

void watched_heights(const SoakCase& c, const Vector& q, Sample& s) {
  if (c.watch == Watch::top_cube) {
    s.height = s.lowest = q[4 * 7 + 2];  // body 4 of the stack (7 coordinates per body)
  } else if (c.watch == Watch::pile) {
    s.height = -INFINITY;
    s.lowest = INFINITY;
    for (Index b = 0; 7 * b + 2 < q.size(); ++b) {
      s.height = std::max(s.height, q[7 * b + 2]);
      s.lowest = std::min(s.lowest, q[7 * b + 2]);
    }
  } else {
    s.height = s.lowest = q[1];  // the rod's centre height
  }
}

// MB that the result holds for the times after `t0`: trajectory records, contact records and
// events, at their sizes (heap blocks of Eigen vectors and strings counted with 16 bytes of
// allocator overhead). The vectors' spare capacity is not counted: the 8 MB bound covers it.
double recorded_mb(const SimulationResult& r, double t0) {
  double bytes = 0.0;
  for (Index k = 0; k < r.records(); ++k)
    if (r.t[k] > t0)
      bytes +=
          4 * sizeof(double) + 2 * sizeof(Vector) + 8.0 * (r.q[k].size() + r.v[k].size()) + 32.0;
  for (const ContactRecord& c : r.contacts)
    if (c.t > t0) bytes += sizeof(ContactRecord);  // r_t is held in the record
  for (const SimulationEvent& e : r.events)
    if (e.t > t0) bytes += sizeof(SimulationEvent) + e.detail.capacity() + 16.0;
  return bytes / (1024.0 * 1024.0);
}

Verdict soak(const SoakCase& c, const std::filesystem::path& scenes,
             const std::filesystem::path& out, double fraction, nlohmann::json& summary) {
  const Scene scene = load_scene((scenes / c.scene).string());
  SceneRun run = prepare_scene_run(scene, "", c.t_end * fraction);
  run.settings.record_interval = run.settings.t_end / 100.0;
  std::vector<double> rss(101, -1.0);
  const ProgressCallback progress = [&](const SimulationProgress& p) {
    const int percent = std::clamp(static_cast<int>(std::floor(100.0 * p.fraction + 1e-9)), 0, 100);
    rss[percent] = resident_mb();
  };
  const double rss_start = resident_mb();
  const SimulationResult r = simulate(*run.system, run.settings, Vector(), Vector(), progress);
  if (rss[100] < 0.0) rss[100] = resident_mb();  // (the last step's sample is the one to use)

  std::vector<Sample> samples;
  std::size_t event = 0;
  for (Index k = 0; k < r.records(); ++k) {
    Sample s;
    s.t = r.t[k];
    s.energy = r.kinetic[k] + r.potential[k];
    watched_heights(c, r.q[k], s);
    while (event < r.events.size() && r.events[event].t <= s.t + 1e-12) ++event;
    s.events = static_cast<long>(event);
    const int percent = static_cast<int>(std::lround(100.0 * s.t / run.settings.t_end));
    for (int p = percent; p >= 0 && s.rss_mb < 0.0; --p) s.rss_mb = rss[p];
    samples.push_back(s);
  }

  Verdict v;
  v.check(r.status == SimulationStatus::completed,
          fmt::format("status {} ({})", to_string(r.status), r.message));
  v.check(samples.size() >= 90, fmt::format("only {} samples were recorded", samples.size()));
  if (samples.empty()) return v;
  const Sample& first = samples.front();
  double worst_gain = 0.0, worst_height = 0.0, lowest = INFINITY, highest = -INFINITY;
  for (const Sample& s : samples) {
    worst_gain = std::max(worst_gain, s.energy - first.energy);
    worst_height = std::max(worst_height, std::abs(s.height - first.height));
    lowest = std::min(lowest, s.lowest);
    highest = std::max(highest, s.height);
  }
  const double gain_bound = c.gain_bound * std::abs(first.energy);
  v.check(worst_gain <= gain_bound,
          fmt::format("energy gained {:.3e} J > bound {:.3e} J", worst_gain, gain_bound));
  if (c.watch == Watch::top_cube)
    v.check(worst_height <= 1e-5,
            fmt::format("the top cube moved {:.3e} m > 1e-5 m", worst_height));
  if (c.watch == Watch::pile) {
    v.check(lowest >= 0.05 - 1e-3, fmt::format("a sphere centre went down to {:.4f} m", lowest));
    v.check(
        highest <= first.height + 1e-9,
        fmt::format("a sphere rose to {:.4f} m above its start {:.4f} m", highest, first.height));
  }
  long late_events = 0;
  for (const SimulationEvent& e : r.events)
    if (e.t > 0.5 * run.settings.t_end) ++late_events;
  if (c.watch == Watch::pencil)
    v.check(late_events == 0, fmt::format("{} events in the second half of the run", late_events));
  // memory: from the 10 % sample (caches and the contact layers are warm) to the end
  double rss_10 = -1.0;
  for (const Sample& s : samples)
    if (s.t >= 0.1 * run.settings.t_end) {
      rss_10 = s.rss_mb;
      break;
    }
  const double recorded = recorded_mb(r, 0.1 * run.settings.t_end);
  const double growth = rss_10 >= 0.0 && rss[100] >= 0.0 ? rss[100] - rss_10 - recorded : 0.0;
  v.check(growth <= 8.0,
          fmt::format("resident memory grew {:.1f} MB after 10 % of the run beyond the {:.1f} MB "
                      "recorded",
                      growth, recorded));

  std::string csv = "percent,t,energy,energy_drift,height,lowest,events,rss_mb\n";
  for (const Sample& s : samples)
    csv += fmt::format("{:.0f},{:.9g},{:.12g},{:.6e},{:.12g},{:.12g},{},{:.2f}\n",
                       100.0 * s.t / run.settings.t_end, s.t, s.energy, s.energy - first.energy,
                       s.height, s.lowest, s.events, s.rss_mb);
  write_file_atomically(out / ("soak-" + c.name + ".csv"), csv);

  summary[c.name] = {{"scene", c.scene},
                     {"integrator", to_string(run.settings.integrator)},
                     {"t_end", run.settings.t_end},
                     {"steps", r.steps},
                     {"events", r.events.size()},
                     {"events_second_half", late_events},
                     {"energy_initial", first.energy},
                     {"energy_largest_gain", worst_gain},
                     {"energy_gain_bound", gain_bound},
                     {"energy_final_change", samples.back().energy - first.energy},
                     {"height_largest_change", worst_height},
                     {"rss_start_mb", rss_start},
                     {"rss_at_10_percent_mb", rss_10},
                     {"rss_end_mb", rss[100]},
                     {"recorded_after_10_percent_mb", recorded},
                     {"rss_growth_mb", growth},
                     {"wall_time_s", r.wall_time},
                     {"ok", v.ok},
                     {"failures", v.failures}};
  std::printf(
      "%-12s %s: %ld steps to t = %g s, %zu events; energy %.6g J, largest gain %.2e J "
      "(bound %.2e); height change %.2e m; RSS %.1f -> %.1f MB (%.2f MB recorded, growth %.2f "
      "MB); %.1f s\n",
      c.name.c_str(), v.ok ? "ok  " : "FAIL", r.steps, r.t.back(), r.events.size(), first.energy,
      worst_gain, gain_bound, worst_height, rss_10, rss[100], recorded, growth, r.wall_time);
  for (const std::string& f : v.failures) std::printf("    %s\n", f.c_str());
  return v;
}

}  // namespace

int main(int argc, char** argv) {
  bool short_run = false;
  std::filesystem::path out = "soak";
  std::string only;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg == "--short") {
      short_run = true;
    } else if (arg == "--out" && k + 1 < argc) {
      out = argv[++k];
    } else if (arg == "--case" && k + 1 < argc) {
      only = argv[++k];
    } else {
      std::fprintf(stderr, "usage: bench_soak [--short] [--out DIR] [--case NAME]\n");
      return 2;
    }
  }
  const std::vector<SoakCase> cases = {
      {"box_stack", "box_stack.json", 1000.0, Watch::top_cube, 1e-6},  // 10⁶ steps of 1 ms
      {"sphere_pile", "sphere_pile.json", 100.0, Watch::pile, 1e-6},   // 10⁵ steps of 1 ms
      {"pencil", "falling_pencil.json", 100.0, Watch::pencil, 1e-6},   // event-driven
  };
  const std::filesystem::path scenes = std::filesystem::path(MOREAU_SOURCE_DIR) / "examples/scenes";
  std::filesystem::create_directories(out);
  nlohmann::json summary = {{"short", short_run}};
  bool ok = true;
  try {
    for (const SoakCase& c : cases)
      if (only.empty() || only == c.name)
        ok = soak(c, scenes, out, short_run ? 0.01 : 1.0, summary).ok && ok;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "bench_soak: %s\n", e.what());
    return 2;
  }
  summary["ok"] = ok;
  write_file_atomically(out / "soak-summary.json", summary.dump(2) + "\n");
  std::printf("soak: %s (samples and summary in %s)\n", ok ? "all bounds kept" : "FAILED",
              out.string().c_str());
  return ok ? 0 : 1;
}
