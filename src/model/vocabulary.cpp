#include "moreau/model/vocabulary.hpp"

namespace moreau {

std::string to_string(ContactMode mode) {
  switch (mode) {
    case ContactMode::separate:
      return "separate";
    case ContactMode::stick:
      return "stick";
    case ContactMode::slip:
      return "slip";
  }
  return "unknown";
}

std::string to_string(ImpactLaw law) {
  switch (law) {
    case ImpactLaw::newton:
      return "newton";
    case ImpactLaw::poisson:
      return "poisson";
    case ImpactLaw::moreau:
      return "moreau";
  }
  return "unknown";
}

}  // namespace moreau
