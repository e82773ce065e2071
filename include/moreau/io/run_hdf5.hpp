#pragma once
// One simulation run in one HDF5 file (docs/run-format.md): the records t, q, v and the
// energies, every contact record, the events and the summary, for runs too large for CSV text
// (a 27,000-sphere pile records 189,000 numbers a step). Written atomically (io/atomic_file.hpp).
#include <string>

#include "moreau/sim/simulation.hpp"

namespace moreau {

// The layout's version, the root attribute "moreau_run_version".
inline constexpr int kRunHdf5Version = 1;

// Writes `result` to `path` (a temporary file beside it, renamed at the end); `summary_json` is
// the summary.json text stored in /summary. std::runtime_error naming the path when it cannot.
void write_run_hdf5(const SimulationResult& result, const std::string& summary_json,
                    const std::string& path);

}  // namespace moreau
