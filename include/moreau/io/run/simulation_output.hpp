#pragma once
// Writes a SimulationResult to a folder, each file through the atomic writer
// (io/os/atomic_file.hpp): trajectory.csv, contacts.csv, events.csv, summary.json. plot.png is
// drawn by the Python helper (python/moreau/_simulate.py), which the command line program invokes.
#include <string>

#include "moreau/io/os/interrupt_guard.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {

// The outputs of a run: csv = trajectory.csv, contacts.csv, events.csv and summary.json;
// hdf5 = one file run.h5 holding the same (io/run/run_hdf5.hpp, docs/run-format.md).
enum class OutputFormat { csv, hdf5 };

// "csv", "hdf5".
std::string to_string(OutputFormat format);
// The format of a name; std::invalid_argument naming `where` and the value otherwise.
OutputFormat output_format_from_name(const std::string& name, const std::string& where);

// Creates the folder if needed; throws std::runtime_error when a file cannot be written. The four
// texts are composed first (the slow part), then written; with a guard, SIGINT and SIGTERM are
// held back while they are written and renamed, so that a second signal during the composing ends
// the program with the folder's earlier files intact, and never leaves a mix of two runs. In
// hdf5 format the one file run.h5 is written (and renamed) with the signals held back. Given the
// system that ran, its geometry (io/run/run_geometry.hpp: bodies and shapes, for `moreau view`) is
// written too: geometry.json in csv format, the dataset /geometry of run.h5 in hdf5 format.
void write_simulation_outputs(const SimulationResult& result, const std::string& folder,
                              const InterruptGuard* guard = nullptr,
                              OutputFormat format = OutputFormat::csv,
                              const LagrangianSystem* system = nullptr);

// The summary.json text (also used by the Python module).
std::string simulation_summary_json(const SimulationResult& result);

// The result document of `moreau simulate --json` (what parameter sweeps point into, docs/cli.md):
//   {"summary": {summary.json}, "final": {"t", "q": {name: value}, "v": {name: value}},
//    "events": [{"t", "kind", "contact", "detail"}], "impulses": {contact: Σ r_n}}
// with "impulses" the sum over the recorded steps of each contact's normal impulse (time
// stepping; empty for the event-driven integrator, whose records are forces).
std::string simulation_result_json(const SimulationResult& result);

}  // namespace moreau
