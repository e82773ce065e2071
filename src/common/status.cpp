#include "moreau/common/status.hpp"

#include <array>
#include <utility>

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

}  // namespace moreau
