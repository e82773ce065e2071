#include "moreau/common/status.hpp"

#include <array>
#include <utility>

#include "moreau/common/error.hpp"

namespace moreau {

namespace {
constexpr std::array<std::pair<Status, std::string_view>, 7> kStatusNames{{
    {Status::not_run, "not_run"},
    {Status::converged, "converged"},
    {Status::max_iterations, "max_iterations"},
    {Status::numerical_failure, "numerical_failure"},
    {Status::ray_termination, "ray_termination"},
    {Status::time_limit, "time_limit"},
    {Status::infeasible, "infeasible"},
}};
}  // namespace

std::string_view to_string(Status status) {
  for (const auto& [s, name] : kStatusNames)
    if (s == status) return name;
  return "unknown";
}

Status status_from_string(std::string_view name) {
  for (const auto& [s, n] : kStatusNames)
    if (n == name) return s;
  throw_invalid("unknown solver status '{}'", name);
}

}  // namespace moreau
