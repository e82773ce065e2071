#pragma once
// Wall-clock stopwatch for SolverReport::seconds and time caps.
#include <chrono>

namespace moreau {

// Wall-clock stopwatch: seconds() since construction (steady clock).
class Stopwatch {
 public:
  Stopwatch() : start_(std::chrono::steady_clock::now()) {}
  // Wall time since construction, s.
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  }

 private:
  std::chrono::steady_clock::time_point start_;
};

}  // namespace moreau
