#pragma once
// Outcome of an impact law (every law: pre-impact state in, post-impact velocity, impulses and
// one of these statuses out). Not finding an admissible outcome is a status, never an exception.
#include <string_view>

namespace moreau {

// Outcome of an impact law.
enum class ImpactStatus {
  resolved,           // post-impact velocity and impulses computed and admissible
  no_impact,          // no contact approaches (v_n ≥ 0 everywhere): nothing happens, v⁺ = v⁻
  inadmissible,       // the law's outcome violates p_n ≥ 0, v_n⁺ ≥ 0 or the range check (56)
  not_converged,      // an iterative solve or the impulse integration hit its budget
  numerical_failure,  // singular system, NaN
};

// Name of a status, as in files and Python.
std::string_view to_string(ImpactStatus status);

}  // namespace moreau
