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

// Throws std::invalid_argument with the fmt-formatted message (user input errors, DESIGN.md).
template <typename... Args>
[[noreturn]] void throw_invalid(fmt::format_string<Args...> format, Args&&... args) {
  throw std::invalid_argument(fmt::format(format, std::forward<Args>(args)...));
}

// True when every entry is finite (no NaN, no ±inf).
template <typename Derived>
bool all_finite(const Eigen::DenseBase<Derived>& x) {
  return x.derived().array().isFinite().all();
}
// True when every stored entry of a sparse matrix is finite.
inline bool all_finite(const SparseMatrix& x) {
  for (Index k = 0; k < x.outerSize(); ++k)
    for (SparseMatrix::InnerIterator it(x, k); it; ++it)
      if (!std::isfinite(it.value())) return false;
  return true;
}

}  // namespace moreau

/// User input check: throws std::invalid_argument with the fmt-formatted message when cond fails.
#define MOREAU_REQUIRE(cond, ...)                      \
  do {                                                 \
    if (!(cond)) ::moreau::throw_invalid(__VA_ARGS__); \
  } while (false)

#define MOREAU_ASSERT(cond) assert(cond)  // internal invariant: a debug assert (DESIGN.md, Errors)
