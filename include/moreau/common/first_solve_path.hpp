#pragma once
// The code layout of a process's first frictional-contact solve.

/// Marks the functions that a process's first frictional-contact solve runs: the problem's checks,
/// auto's choice, hybrid and NSGS, the one-contact solver and the residual. GCC and Clang place hot
/// functions together in one subsection (.text.hot), so that this solve touches one run of code
/// instead of windows spread over the binary: each first touch of such a window is a page fault,
/// 3–4 µs on a 2-core VM, and Rover11211's first solve in a fresh process took 26 µs where its
/// later solves take 2 (issue 35, docs/benchmarks.md §The first solve's fixed cost, found and
/// cut). The attribute moves code and lets the compiler optimize it for speed; it does not change
/// the arithmetic (no fast-math, no contraction): results are the same to the bit.
#define MOREAU_FIRST_SOLVE_PATH [[gnu::hot]]
