#pragma once
// Input checking and internal invariants.
//
// User input is checked always: MOREAU_REQUIRE(cond, "sentence with {} values", v...) throws
// std::invalid_argument with the formatted sentence (pybind11 turns it into ValueError).
// Internal invariants use MOREAU_ASSERT, active in debug builds only. The library never prints.
#include <cassert>
#include <stdexcept>
#include <string>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "moreau/common/types.hpp"

namespace moreau {

// Throws std::invalid_argument with the fmt-formatted message (user input errors,
// docs/architecture.md §Conventions).
template <typename... Args>
[[noreturn]] void throw_invalid(fmt::format_string<Args...> format, Args&&... args) {
  throw std::invalid_argument(fmt::format(format, std::forward<Args>(args)...));
}

// `text` with its control characters escaped (a newline becomes a backslash and n, others a
// backslash, x and two hex digits), so that an error message quoting a field name or a piece of
// an input file stays one line.
inline std::string one_line(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (u < 0x20 || u == 0x7f)
      out += fmt::format("\\x{:02x}", u);
    else
      out += c;
  }
  return out;
}

// A NaN or an infinity where a model must give finite numbers (M, F, the constraint data of a
// state). An std::invalid_argument, so that it reads as bad input to whoever does not look
// closer; the simulators catch it during a run and stop the run as diverged (sim/simulation.hpp).
struct NonFiniteError : std::invalid_argument {
  // The message, the entry's index in a vector of generalized velocities or forces (or of
  // positions when `position`), −1 when not one.
  NonFiniteError(const std::string& message, Index entry = -1, bool position = false)
      : std::invalid_argument(message), entry(entry), position(position) {}
  Index entry = -1;       // index into v (or q when position), −1: none
  bool position = false;  // entry indexes q rather than v
};

// True when every entry is finite (no NaN, no ±inf).
template <typename Derived>
bool all_finite(const Eigen::DenseBase<Derived>& x) {
  return x.derived().array().isFinite().all();
}
// True when every stored entry of a sparse matrix is finite. Compressed storage is one array:
// v·0 is ±0 for a finite v and NaN for ±inf or NaN, so Σ v·0 (summed by Eigen in SIMD packets,
// without a branch per entry) is NaN exactly when some entry is not finite.
inline bool all_finite(const SparseMatrix& x) {
  if (x.isCompressed())
    return !std::isnan((Eigen::Map<const Eigen::ArrayXd>(x.valuePtr(), x.nonZeros()) * 0.0).sum());
  for (Index k = 0; k < x.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(x, k); it; ++it)
      if (!std::isfinite(it.value())) return false;
  return true;
}

// Throws NonFiniteError "WHAT[i] = value" naming the first non-finite entry of x (row-major for
// matrices; the row is the error's entry), if any; `position`: x is indexed like q.
template <typename Derived>
void require_finite(const Eigen::DenseBase<Derived>& x, const std::string& what,
                    bool position = false) {
  for (Index i = 0; i < x.rows(); ++i)
    for (Index j = 0; j < x.cols(); ++j)
      if (!std::isfinite(x(i, j)))
        throw NonFiniteError(x.cols() == 1 ? fmt::format("{}[{}] = {}", what, i, x(i, j))
                                           : fmt::format("{}({}, {}) = {}", what, i, j, x(i, j)),
                             i, position);
}

}  // namespace moreau

/// Finiteness check of data that a model or a step computed (a problem's matrices and vectors):
/// throws NonFiniteError (an std::invalid_argument) with the message when cond fails, so that a
/// simulator stops the run as diverged instead of passing the error on as bad input.
#define MOREAU_REQUIRE_FINITE(cond, ...)                                     \
  do {                                                                       \
    if (!(cond)) throw ::moreau::NonFiniteError(::fmt::format(__VA_ARGS__)); \
  } while (false)

/// User input check: throws std::invalid_argument with the fmt-formatted message when cond fails.
#define MOREAU_REQUIRE(cond, ...)                      \
  do {                                                 \
    if (!(cond)) ::moreau::throw_invalid(__VA_ARGS__); \
  } while (false)

#define MOREAU_ASSERT(cond) assert(cond)  // internal invariant: a debug assert
