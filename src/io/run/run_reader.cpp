// A run folder read back; see run_reader.hpp. The CSV files are parsed as simulation_output.cpp
// writes them (a header line, fields quoted when they hold a comma, a quote or a newline).
#include "moreau/io/run/run_reader.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "moreau/io/json/json_reader.hpp"
#include "moreau/io/os/input_file.hpp"
#include "moreau/io/run/run_hdf5.hpp"
#include "moreau/io/json/vocabulary.hpp"

namespace moreau {
namespace {

namespace fs = std::filesystem;
using Row = std::vector<std::string>;

std::string read_text(const fs::path& path) { return read_text_file(path.string()); }

// The records of a CSV text (the header first); fields unquoted.
std::vector<Row> parse_csv(const std::string& text, const std::string& source) {
  std::vector<Row> rows;
  Row row;
  std::string field;
  bool quoted = false, any = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c == '"') {
      quoted = true;
      any = true;
    } else if (c == ',') {
      row.push_back(std::move(field));
      field.clear();
      any = true;
    } else if (c == '\n') {
      if (any || !field.empty()) {
        row.push_back(std::move(field));
        rows.push_back(std::move(row));
      }
      row.clear();
      field.clear();
      any = false;
    } else if (c != '\r') {
      field += c;
      any = true;
    }
  }
  MOREAU_REQUIRE(!quoted, "{}: a quoted field is not closed", source);
  if (any || !field.empty()) {
    row.push_back(std::move(field));
    rows.push_back(std::move(row));
  }
  return rows;
}

// A number field of CSV line `line` (1-based, the header being line 1).
double number(const std::string& s, const std::string& source, size_t line,
              const std::string& column) {
  char* end = nullptr;
  const double x = std::strtod(s.c_str(), &end);
  MOREAU_REQUIRE(!s.empty() && end == s.c_str() + s.size(),
                 "{} line {}: {} = \"{}\" is not a number", source, line, column, one_line(s));
  return x;
}

// The rows after the header, each of exactly the header's width.
std::vector<Row> body(const std::vector<Row>& rows, const std::string& source) {
  MOREAU_REQUIRE(!rows.empty(), "{}: empty (no header line)", source);
  for (size_t k = 1; k < rows.size(); ++k)
    MOREAU_REQUIRE(rows[k].size() == rows[0].size(), "{} line {}: {} fields, the header has {}",
                   source, k + 1, rows[k].size(), rows[0].size());
  return {rows.begin() + 1, rows.end()};
}

void read_trajectory(const fs::path& path, Index nq, SimulationResult& r) {
  const std::string source = path.string();
  const std::vector<Row> rows = parse_csv(read_text(path), source);
  const std::vector<Row> data = body(rows, source);
  const Row& head = rows[0];
  const Index cols = static_cast<Index>(head.size());
  MOREAU_REQUIRE(cols >= 3 && head[0] == "t" && head[cols - 2] == "kinetic_energy" &&
                     head.back() == "potential_energy",
                 "{}: the header must be t, positions, velocities, kinetic_energy, "
                 "potential_energy",
                 source);
  const Index states = cols - 3;
  if (nq < 0) nq = states / 2;
  MOREAU_REQUIRE(
      nq <= states,
      "{}: {} state columns, fewer than the {} coordinates of geometry.json: not the same run",
      source, states, nq);
  r.position_names.assign(head.begin() + 1, head.begin() + 1 + nq);
  r.velocity_names.assign(head.begin() + 1 + nq, head.end() - 2);
  for (size_t k = 0; k < data.size(); ++k) {
    Vector x(cols);
    for (Index j = 0; j < cols; ++j) x[j] = number(data[k][j], source, k + 2, head[j]);
    r.t.push_back(x[0]);
    r.q.push_back(x.segment(1, nq));
    r.v.push_back(x.segment(1 + nq, states - nq));
    r.kinetic.push_back(x[cols - 2]);
    r.potential.push_back(x[cols - 1]);
  }
}

// contacts.csv: t, contact, name, gap, r_n, r_t1 (r_t2), mode (, x, y, z, nx, ny, nz).
void read_contacts(const fs::path& path, SimulationResult& r) {
  const std::string source = path.string();
  const std::vector<Row> rows = parse_csv(read_text(path), source);
  const std::vector<Row> data = body(rows, source);
  const Row& head = rows[0];
  const bool placed = head.size() >= 6 && head.back() == "nz";
  const size_t mode_col = head.size() - (placed ? 7 : 1);
  MOREAU_REQUIRE((mode_col == 6 || mode_col == 7) && head[0] == "t" && head[mode_col] == "mode",
                 "{}: the header must be t, contact, name, gap, r_n, r_t1 (, r_t2), mode (, x, y, "
                 "z, nx, ny, nz)",
                 source);
  r.dimension = mode_col == 7 ? 3 : 2;
  const size_t nt = mode_col - 5;
  for (size_t k = 0; k < data.size(); ++k) {
    const Row& f = data[k];
    ContactRecord c;
    c.t = number(f[0], source, k + 2, "t");
    const double id = number(f[1], source, k + 2, "contact");
    MOREAU_REQUIRE(id >= 0 && id == std::floor(id) && id < 1e9,
                   "{} line {}: contact = {} is not a contact index", source, k + 2, f[1]);
    c.contact = static_cast<Index>(id);
    if (c.contact >= static_cast<Index>(r.contact_names.size()))
      r.contact_names.resize(static_cast<size_t>(c.contact) + 1);
    r.contact_names[static_cast<size_t>(c.contact)] = f[2];
    c.gap = number(f[3], source, k + 2, "gap");
    c.r_n = number(f[4], source, k + 2, "r_n");
    c.r_t.resize(static_cast<Index>(nt));
    for (size_t j = 0; j < nt; ++j)
      c.r_t[static_cast<Index>(j)] = number(f[5 + j], source, k + 2, head[5 + j]);
    c.mode =
        enum_from_name<ContactMode>(f[mode_col], fmt::format("{} line {}: mode", source, k + 2));
    if (placed && !f[mode_col + 1].empty())
      for (int j = 0; j < 6; ++j) {
        const size_t col = mode_col + 1 + static_cast<size_t>(j);
        (j < 3 ? c.point[j] : c.normal[j - 3]) = number(f[col], source, k + 2, head[col]);
      }
    r.contacts.push_back(std::move(c));
  }
}

// events.csv: t, kind, contact, name, detail.
void read_events(const fs::path& path, SimulationResult& r) {
  const std::string source = path.string();
  const std::vector<Row> rows = parse_csv(read_text(path), source);
  const std::vector<Row> data = body(rows, source);
  MOREAU_REQUIRE(rows[0].size() == 5 && rows[0][0] == "t" && rows[0][1] == "kind",
                 "{}: the header must be t, kind, contact, name, detail", source);
  for (size_t k = 0; k < data.size(); ++k) {
    const Row& f = data[k];
    SimulationEvent e;
    e.t = number(f[0], source, k + 2, "t");
    e.kind = enum_from_name<EventKind>(f[1], fmt::format("{} line {}: kind", source, k + 2));
    e.contact = static_cast<Index>(number(f[2], source, k + 2, "contact"));
    if (e.contact >= 0) {
      if (e.contact >= static_cast<Index>(r.contact_names.size()))
        r.contact_names.resize(static_cast<size_t>(e.contact) + 1);
      if (r.contact_names[static_cast<size_t>(e.contact)].empty())
        r.contact_names[static_cast<size_t>(e.contact)] = f[3];
    }
    e.detail = f[4];
    r.events.push_back(std::move(e));
  }
}

RunFolder read_folder(const std::string& folder) {
  RunFolder run;
  run.folder = folder;
  const fs::path dir(folder);
  MOREAU_REQUIRE(fs::is_directory(dir),
                 "{}: no such folder (give the output folder of moreau "
                 "simulate)",
                 folder);
  const fs::path geometry = dir / "geometry.json";
  std::string h5_geometry;
  const bool h5 = fs::exists(dir / "run.h5");
  SimulationResult& r = run.result;
  std::string summary;
  if (h5) {
    summary = read_run_hdf5((dir / "run.h5").string(), r, &h5_geometry);
    if (!h5_geometry.empty())
      run.geometry = json_io::parse_text(h5_geometry, (dir / "run.h5").string() + ": /geometry");
  }
  if (run.geometry.is_null() && fs::exists(geometry))
    run.geometry = json_io::read_file(geometry.string());
  Index nq = -1;
  if (run.geometry.is_object() && run.geometry.contains("position_size") &&
      run.geometry.at("position_size").is_number_integer())
    nq = run.geometry.at("position_size").get<Index>();
  if (h5) {
    run.format = OutputFormat::hdf5;
    const std::string path = (dir / "run.h5").string();
    run.summary = json_io::parse_text(summary, path + ": /summary");
    if (nq >= 0)
      MOREAU_REQUIRE(r.q.empty() || r.q.front().size() == nq,
                     "{}: /q has {} columns, geometry.json {} coordinates", path,
                     r.q.front().size(), nq);
  } else {
    MOREAU_REQUIRE(fs::exists(dir / "trajectory.csv"),
                   "{}: no trajectory.csv and no run.h5 (not an output folder of moreau "
                   "simulate)",
                   folder);
    if (run.geometry.is_object() && run.geometry.contains("dimension") &&
        run.geometry.at("dimension").is_number_integer())
      r.dimension = run.geometry.at("dimension").get<int>();
    read_trajectory(dir / "trajectory.csv", nq, r);
    if (fs::exists(dir / "contacts.csv")) read_contacts(dir / "contacts.csv", r);
    if (fs::exists(dir / "events.csv")) read_events(dir / "events.csv", r);
    run.summary = fs::exists(dir / "summary.json")
                      ? json_io::read_file((dir / "summary.json").string())
                      : nlohmann::json::object();
  }
  MOREAU_REQUIRE(run.summary.is_object(), "{}: the summary is not a JSON object", folder);
  if (run.summary.contains("system") && run.summary.at("system").is_string())
    r.system = run.summary.at("system").get<std::string>();
  if (run.summary.contains("integrator") && run.summary.at("integrator").is_string())
    r.integrator = enum_from_name<Integrator>(run.summary.at("integrator").get<std::string>(),
                                              "summary: integrator");
  if (run.summary.contains("status") && run.summary.at("status").is_string())
    r.status = enum_from_name<SimulationStatus>(run.summary.at("status").get<std::string>(),
                                                "summary: status");
  // Event counts: of the logged events, unless the summary counts the whole run (a run that
  // logged fewer events than it had, SimulationSettings::max_logged_events).
  for (const SimulationEvent& e : r.events) ++r.event_counts[e.kind];
  if (run.summary.contains("event_counts") && run.summary.at("event_counts").is_object())
    for (const auto& [name, n] : run.summary.at("event_counts").items()) {
      MOREAU_REQUIRE(n.is_number_unsigned(),
                     "{}: summary: event_counts.{} = {} is not a count (an integer ≥ 0)", folder,
                     name, n.dump());
      r.event_counts[enum_from_name<EventKind>(name, "summary: event_counts")] = n.get<long>();
    }
  return run;
}

}  // namespace

RunFolder read_run_folder(const std::string& folder) {
  return json_io::with_source(folder, [&] { return read_folder(folder); });
}

}  // namespace moreau
