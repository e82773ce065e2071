#pragma once
// One simulation run in one HDF5 file (docs/run-format.md): the records t, q, v and the
// energies, every contact record, the events and the summary, for runs too large for CSV text
// (a 27,000-sphere pile records 189,000 numbers a step). Written atomically
// (io/os/atomic_file.hpp).
#include <string>

#include "moreau/sim/simulation.hpp"

namespace moreau {

// The layout's version, the root attribute "moreau_run_version".
inline constexpr int kRunHdf5Version = 1;

// Writes `result` to `path` (a temporary file beside it, renamed at the end); `summary_json` is
// the summary.json text stored in /summary, `geometry_json` (when not empty) the geometry.json
// text (io/run/run_geometry.hpp) stored in /geometry. std::runtime_error naming the path when it
// cannot.
void write_run_hdf5(const SimulationResult& result, const std::string& summary_json,
                    const std::string& path, const std::string& geometry_json = "");

}  // namespace moreau

namespace moreau {

// Reads a run file written by write_run_hdf5: t, q, v, the energies, names, contact records and
// events into `result` (the dimension from the width of /contacts/r_t), and returns the /summary
// text. std::invalid_argument naming the path and the dataset when the file is not such a run
// file (not HDF5, a dataset missing or of the wrong shape). `geometry` (when given) receives the
// /geometry text, "" when the file has none.
std::string read_run_hdf5(const std::string& path, SimulationResult& result,
                          std::string* geometry = nullptr);

}  // namespace moreau
