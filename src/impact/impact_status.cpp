// Names of ImpactStatus values (printed by the CLI and the Python module).
#include "moreau/impact/impact_status.hpp"

namespace moreau {

std::string_view to_string(ImpactStatus status) {
  switch (status) {
    case ImpactStatus::resolved:
      return "resolved";
    case ImpactStatus::no_impact:
      return "no_impact";
    case ImpactStatus::inadmissible:
      return "inadmissible";
    case ImpactStatus::not_converged:
      return "not_converged";
    case ImpactStatus::numerical_failure:
      return "numerical_failure";
  }
  return "unknown";
}

}  // namespace moreau
