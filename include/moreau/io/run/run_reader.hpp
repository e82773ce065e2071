#pragma once
// A run folder read back (what `moreau simulate` wrote: trajectory.csv, contacts.csv, events.csv,
// summary.json and geometry.json, or run.h5 with its /geometry), for `moreau view`
// (io/run/viewer_page.hpp).
// Bad input (no folder, no trajectory, a malformed file) throws std::invalid_argument naming the
// file and the line, field or dataset.
#include <string>

#include <nlohmann/json.hpp>

#include "moreau/io/run/simulation_output.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {

// The outputs of one run.
struct RunFolder {
  std::string folder;                       // as given
  OutputFormat format = OutputFormat::csv;  // run.h5 present: hdf5, else the CSV files
  // t, q, v (split by geometry.json's position_size; else half and half), kinetic and potential
  // energies, the contact names and records, the events, the dimension, system, integrator,
  // status and event_counts (the whole run's, from the summary; else those of the logged events).
  SimulationResult result;
  nlohmann::json summary;  // summary.json (or run.h5's /summary), an object
  // geometry.json or run.h5's /geometry (io/run/run_geometry.hpp); null when the run has none
  nlohmann::json geometry;
};

// Reads the run in `folder`: run.h5 when present, else the CSV files (trajectory.csv required,
// contacts.csv, events.csv and summary.json optional), and the geometry when present.
RunFolder read_run_folder(const std::string& folder);

}  // namespace moreau
