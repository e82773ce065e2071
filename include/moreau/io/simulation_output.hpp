#pragma once
// Writes a SimulationResult to a folder, each file through the atomic writer (io/atomic_file.hpp):
// trajectory.csv, contacts.csv, events.csv, summary.json. plot.png is drawn by the Python helper
// (python/moreau/_simulate.py), which the command line program invokes.
#include <string>
#include <utility>
#include <vector>

#include "moreau/sim/simulation.hpp"

namespace moreau {

// Creates the folder if needed; throws std::runtime_error when a file cannot be written.
void write_simulation_outputs(const SimulationResult& result, const std::string& folder);

// Output files as (name, text): what write_simulation_outputs writes, in two parts so that a
// caller can compose the texts (the slow part) and then write them as one short step.
using OutputFiles = std::vector<std::pair<std::string, std::string>>;
// The texts of trajectory.csv, contacts.csv, events.csv and summary.json.
OutputFiles simulation_output_texts(const SimulationResult& result);
// Writes each file into the folder (created if needed) through the atomic writer.
void write_output_files(const OutputFiles& files, const std::string& folder);

// The summary.json text (also used by the Python module).
std::string simulation_summary_json(const SimulationResult& result);

}  // namespace moreau
