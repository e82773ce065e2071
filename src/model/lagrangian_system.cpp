#include "moreau/model/lagrangian_system.hpp"

#include <fmt/format.h>

namespace moreau {

std::vector<std::string> LagrangianSystem::position_names() const {
  std::vector<std::string> names;
  for (Index i = 0; i < position_size(); ++i) names.push_back(fmt::format("q{}", i));
  return names;
}

std::vector<std::string> LagrangianSystem::velocity_names() const {
  std::vector<std::string> names;
  for (Index i = 0; i < velocity_size(); ++i) names.push_back(fmt::format("v{}", i));
  return names;
}

// T = ½ vᵀ M(q) v
double LagrangianSystem::kinetic_energy(const Vector& q, const Vector& v) const {
  const ContactState s = contact_state(q, v, 0.0);
  return 0.5 * v.dot(s.M * v);
}

}  // namespace moreau
