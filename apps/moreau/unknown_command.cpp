// A mistyped command (`moreau simulat`): the message names the nearest command, by the optimal
// string alignment distance (Levenshtein's insertions, deletions and substitutions, plus the swap
// of two neighbouring letters, each costing 1: Damerau, CACM 7(3), 1964), or lists the commands
// when none is near.
#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "commands.hpp"

namespace moreau::cli {

namespace {

// Edits that turn a into b (optimal string alignment: no substring is edited twice).
std::size_t edit_distance(const std::string& a, const std::string& b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1, 0));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

}  // namespace

std::string nearest_command(const std::string& typed, const std::vector<std::string>& commands) {
  // Near: at most one edit in three letters of what was typed (at least one), or the start of
  // exactly one command ("sim" → simulate).
  const std::size_t near = std::max<std::size_t>(1, typed.size() / 3);
  std::string best;
  std::size_t best_distance = near + 1;
  for (const std::string& c : commands) {
    const std::size_t d = edit_distance(typed, c);
    if (d < best_distance) best = c, best_distance = d;
  }
  if (!best.empty() || typed.empty()) return best;
  std::vector<std::string> starts;
  for (const std::string& c : commands)
    if (c.rfind(typed, 0) == 0) starts.push_back(c);
  return starts.size() == 1 ? starts[0] : std::string();
}

std::string unknown_command_message(const std::string& typed,
                                    const std::vector<std::string>& commands) {
  const std::string guess = nearest_command(typed, commands);
  return fmt::format("'{}' is not a command{} (commands: {})", typed,
                     guess.empty() ? "" : fmt::format("; did you mean '{}'?", guess),
                     fmt::join(commands, ", "));
}

}  // namespace moreau::cli
