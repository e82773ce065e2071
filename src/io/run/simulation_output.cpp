#include "moreau/io/run/simulation_output.hpp"

#include "moreau/common/error.hpp"
#include "moreau/io/os/atomic_file.hpp"
#include "moreau/io/run/run_geometry.hpp"
#include "moreau/io/run/run_hdf5.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace moreau {

namespace {

// CSV field: quoted when it holds a comma, a quote or a newline.
std::string csv(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// The name of contact index c of the result ("" for −1 or an index out of range).
std::string contact_name(const SimulationResult& r, Index c) {
  return c >= 0 && c < static_cast<Index>(r.contact_names.size()) ? r.contact_names[c] : "";
}

std::string trajectory_csv(const SimulationResult& r) {
  std::string out = "t";
  for (const auto& n : r.position_names) out += "," + csv(n);
  for (const auto& n : r.velocity_names) out += "," + csv(n);
  out += ",kinetic_energy,potential_energy\n";
  for (Index k = 0; k < r.records(); ++k) {
    out += fmt::format("{:.17g}", r.t[k]);
    for (Index i = 0; i < r.q[k].size(); ++i) out += fmt::format(",{:.17g}", r.q[k][i]);
    for (Index i = 0; i < r.v[k].size(); ++i) out += fmt::format(",{:.17g}", r.v[k][i]);
    out += fmt::format(",{:.17g},{:.17g}\n", r.kinetic[k], r.potential[k]);
  }
  return out;
}

// One row per record: t, contact, name, gap, r_n, r_t1 (, r_t2), mode, then, when any record is
// a contact between shapes, its world point x, y, z and normal nx, ny, nz (empty where unknown).
std::string contacts_csv(const SimulationResult& r) {
  const bool placed = std::any_of(r.contacts.begin(), r.contacts.end(),
                                  [](const ContactRecord& c) { return c.point.allFinite(); });
  std::string out = "t,contact,name,gap,r_n";
  for (int j = 1; j < r.dimension; ++j) out += fmt::format(",r_t{}", j);
  out += placed ? ",mode,x,y,z,nx,ny,nz\n" : ",mode\n";
  for (const auto& c : r.contacts) {
    out += fmt::format("{:.17g},{},{},{:.17g},{:.17g}", c.t, c.contact,
                       csv(contact_name(r, c.contact)), c.gap, c.r_n);
    for (int j = 0; j < r.dimension - 1; ++j)
      out += fmt::format(",{:.17g}", j < c.r_t.size() ? c.r_t[j] : 0.0);
    out += "," + to_string(c.mode);
    if (placed) {
      const bool known = c.point.allFinite() && c.normal.allFinite();
      for (int j = 0; j < 6; ++j)
        out += known ? fmt::format(",{:.17g}", j < 3 ? c.point[j] : c.normal[j - 3]) : ",";
    }
    out += "\n";
  }
  return out;
}

std::string events_csv(const SimulationResult& r) {
  std::string out = "t,kind,contact,name,detail\n";
  for (const auto& e : r.events) {
    out += fmt::format("{:.17g},{},{},{},{}\n", e.t, to_string(e.kind), e.contact,
                       csv(contact_name(r, e.contact)), csv(e.detail));
  }
  return out;
}

// The summary as a JSON object (summary.json and the "summary" of the result document).
nlohmann::ordered_json summary_object(const SimulationResult& r) {
  nlohmann::ordered_json j;
  j["system"] = r.system;
  j["integrator"] = to_string(r.integrator);
  j["status"] = to_string(r.status);
  j["message"] = r.message;
  j["t_end"] = r.t.empty() ? 0.0 : r.t.back();
  j["steps"] = r.steps;
  j["rejected_steps"] = r.rejected_steps;
  j["records"] = r.records();
  j["solver_failures"] = r.solver_failures;
  j["solver_worst_residual"] = r.worst_solver_residual;
  j["solver_iterations"] = r.solver_iterations;
  j["solver_work"] = r.solver_work;
  j["warnings"] = r.warnings;
  std::map<std::string, long> counts;  // every event of the run, logged or not
  for (EventKind k : {EventKind::impact, EventKind::separation, EventKind::stick_to_slip,
                      EventKind::slip_to_stick, EventKind::painleve})
    counts[to_string(k)] = 0;
  for (const auto& [kind, n] : r.event_counts) counts[to_string(kind)] = n;
  j["event_counts"] = counts;
  j["events_logged"] = r.events.size();
  j["energy_initial"] = r.energy_initial;
  j["energy_final"] = r.energy_final;
  j["energy_max_gain"] = r.max_energy_gain;
  j["max_penetration"] = r.max_penetration;
  j["contact_quantity"] = r.integrator == Integrator::time_stepping ? "impulse" : "force";
  j["contacts"] = r.contact_names;
  j["wall_time"] = r.wall_time;
  return j;
}

}  // namespace

std::string simulation_summary_json(const SimulationResult& r) {
  return summary_object(r).dump(2) + "\n";
}

std::string simulation_result_json(const SimulationResult& r) {
  nlohmann::ordered_json j;
  j["summary"] = summary_object(r);
  nlohmann::ordered_json fin;
  fin["t"] = r.t.empty() ? 0.0 : r.t.back();
  nlohmann::ordered_json q = nlohmann::ordered_json::object(), v = q;
  if (!r.q.empty())
    for (size_t i = 0; i < r.position_names.size(); ++i)
      q[r.position_names[i]] = r.q.back()[static_cast<Index>(i)];
  if (!r.v.empty())
    for (size_t i = 0; i < r.velocity_names.size(); ++i)
      v[r.velocity_names[i]] = r.v.back()[static_cast<Index>(i)];
  fin["q"] = q;
  fin["v"] = v;
  j["final"] = fin;
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  for (const auto& e : r.events)
    events.push_back({{"t", e.t},
                      {"kind", to_string(e.kind)},
                      {"contact", contact_name(r, e.contact)},
                      {"detail", e.detail}});
  j["events"] = events;
  nlohmann::ordered_json impulses = nlohmann::ordered_json::object();
  if (r.integrator == Integrator::time_stepping)
    for (const auto& c : r.contacts) {
      const std::string name = contact_name(r, c.contact);
      impulses[name] = impulses.value(name, 0.0) + c.r_n;
    }
  j["impulses"] = impulses;
  return j.dump(2) + "\n";
}

std::string to_string(OutputFormat format) { return format == OutputFormat::hdf5 ? "hdf5" : "csv"; }

OutputFormat output_format_from_name(const std::string& name, const std::string& where) {
  if (name == "csv") return OutputFormat::csv;
  if (name == "hdf5") return OutputFormat::hdf5;
  throw_invalid("{} = \"{}\": must be \"csv\" or \"hdf5\"", where, one_line(name));
}

void write_simulation_outputs(const SimulationResult& r, const std::string& folder,
                              const InterruptGuard* guard, OutputFormat format,
                              const LagrangianSystem* system) {
  std::vector<std::pair<const char*, std::string>> files;
  if (format == OutputFormat::csv)
    files = {{"trajectory.csv", trajectory_csv(r)},
             {"contacts.csv", contacts_csv(r)},
             {"events.csv", events_csv(r)},
             {"summary.json", simulation_summary_json(r)}};
  const std::string geometry = system != nullptr ? run_geometry_json(*system, r.dimension) : "";
  if (system != nullptr && format == OutputFormat::csv)
    files.emplace_back("geometry.json", geometry);
  const auto write = [&] {
    std::error_code ec;
    std::filesystem::create_directories(folder, ec);
    if (ec)
      throw std::runtime_error(
          fmt::format("cannot create the output folder '{}': {}", folder, ec.message()));
    const std::filesystem::path dir(folder);
    for (const auto& [name, text] : files) write_file_atomically((dir / name).string(), text);
    if (format == OutputFormat::hdf5)
      write_run_hdf5(r, simulation_summary_json(r), (dir / "run.h5").string(), geometry);
  };
  if (guard != nullptr)
    guard->hold_signals(write);
  else
    write();
}

}  // namespace moreau
