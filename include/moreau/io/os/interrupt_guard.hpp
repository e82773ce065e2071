#pragma once
// SIGINT and SIGTERM during a long run (issue 15 §3), for the command line program and the Python
// module (where SIGINT is Ctrl-C's KeyboardInterrupt): the first signal asks the run to stop at
// the end of its current step (sim/simulation.hpp StopRequest), so that it writes everything
// computed so far with status `interrupted` and the program exits with 128 + the signal number
// (130 for SIGINT, 143 for SIGTERM); a second signal stops the program at once, with the signal's
// default action, and the outputs of earlier runs stay untouched (every output file is written to
// a temporary name and renamed).
#include <functional>

#include "moreau/sim/simulation.hpp"

namespace moreau {

// Installs the two handlers for its lifetime (one guard at a time) and restores the previous ones.
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

  // The stop request the handlers set (pass it to simulate).
  const StopRequest* stop_request() const;
  // The signal received (SIGINT, SIGTERM), or 0.
  int signal_received() const;
  // Runs `work` with SIGINT and SIGTERM held back (delivered when it returns): for the short step
  // that renames the outputs into place, so that a folder holds one run's files, never a mix.
  void hold_signals(const std::function<void()>& work) const;
};

}  // namespace moreau
