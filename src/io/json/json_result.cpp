// The numbers of result documents; see json_result.hpp.
#include "moreau/io/json/json_result.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>

#include <fmt/format.h>

#include "moreau/common/error.hpp"

namespace moreau::json_io {

namespace {

using nlohmann::json;

// "a.b" or "a[2]": the path of a member or an element below `path`.
std::string member(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}
std::string element(const std::string& path, std::size_t index) {
  return fmt::format("{}[{}]", path, index);
}

// Calls visit(path, x) for every floating-point number of `j`, depth first; stops (and returns
// true) when visit returns true.
template <typename Visit>
bool each_number(const json& j, const std::string& path, Visit&& visit) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      if (each_number(it.value(), member(path, it.key()), visit)) return true;
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i)
      if (each_number(j[i], element(path, i), visit)) return true;
  } else if (j.is_number()) {
    return visit(path, j.get<double>());
  }
  return false;
}

}  // namespace

json optional_number(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

std::string largest_number(const json& document) {
  std::optional<std::pair<std::string, double>> best;
  each_number(document, "", [&](const std::string& path, double x) {
    if (std::isfinite(x) && (!best || std::abs(x) > std::abs(best->second))) best = {{path, x}};
    return false;
  });
  return best ? fmt::format("{} = {:g}", best->first, best->second) : std::string();
}

void require_finite_result(const json& result, const std::string& source, const std::string& what,
                           const std::string& cause) {
  each_number(result, "", [&](const std::string& path, double x) {
    if (std::isfinite(x)) return false;
    // "nan" whatever the sign bit (fmt would print "-nan"): a NaN has no sign to report
    throw std::invalid_argument(
        one_line(fmt::format("{}: the {} {} = {} is not a finite number: {}", source, what, path,
                             std::isnan(x) ? std::string("nan") : fmt::format("{}", x), cause)));
  });
}

}  // namespace moreau::json_io
