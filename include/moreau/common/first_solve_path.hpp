#pragma once
// The code layout of a process's first frictional-contact solve.

/// Marks the functions that a process's first frictional-contact solve runs: the problem's checks,
/// auto's choice, hybrid and NSGS, the one-contact solver and the residual. GCC and Clang place hot
/// functions together in one subsection (.text.hot), so that this solve touches a few neighbouring
/// pages of code instead of pages spread over the binary. Each first touch of a page of code is a
/// page fault, 4–5 µs on a 2-core VM: a 1-contact FCLIB problem's first solve in a fresh process
/// took 24 µs where its later solves take 2 (issue 35, docs/benchmarks.md §The first solve in a
/// fresh process). The attribute moves code and lets the compiler optimize it for speed; it does
/// not change the arithmetic (no fast-math, no contraction).
#define MOREAU_FIRST_SOLVE_PATH [[gnu::hot]]
