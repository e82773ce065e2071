#pragma once
// Parallel loops over index ranges on a fixed number of threads (`--threads N`, docs/simulation.md
// §Threads). parallel_for(n, threads, body) splits [0, n) into `threads` contiguous chunks of
// near-equal size, runs body(begin, end) on each, the first on the calling thread, and returns
// when all are done. The split depends only on n and threads, never on timing, so a body that
// writes only its own range gives the same result on every run; threads ≤ 1 (or n small) runs
// body(0, n) inline. The worker threads are started once and kept (they wait spinning briefly,
// then sleeping), so a loop costs a few microseconds of synchronization.
#include <functional>

#include "moreau/common/types.hpp"

namespace moreau {

// The chunk body(begin, end) of a parallel loop.
using RangeBody = std::function<void(Index begin, Index end)>;

// Runs body over [0, n) in `threads` chunks (see above). Not reentrant: a body must not call
// parallel_for itself (it then runs inline).
void parallel_for(Index n, int threads, const RangeBody& body);

// The number of hardware threads (at least 1), for `--threads 0` = all.
int hardware_threads();

}  // namespace moreau
