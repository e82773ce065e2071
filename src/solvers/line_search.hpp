#pragma once
// The Armijo line search of the semismooth Newton solvers (LCP and MLCP Fischer–Burmeister), its
// settings check and the stopping test of their iterations (not public API).
#include "moreau/common/error.hpp"
#include "moreau/common/status.hpp"

namespace moreau::solver_detail {

// tolerance > 0, max_iterations ≥ 0, armijo σ ∈ (0, ½), backtrack β ∈ (0, 1), max_backtracks > 0;
// `who` starts the message ("Fischer–Burmeister", "MLCP Newton").
template <class Settings>
void check_newton_settings(const char* who, const Settings& settings) {
  MOREAU_REQUIRE(settings.tolerance > 0.0 && settings.max_iterations >= 0,
                 "{} tolerance {} must be > 0 and max_iterations {} ≥ 0", who, settings.tolerance,
                 settings.max_iterations);
  MOREAU_REQUIRE(settings.armijo > 0.0 && settings.armijo < 0.5 && settings.backtrack > 0.0 &&
                     settings.backtrack < 1.0 && settings.max_backtracks > 0,
                 "{} line search needs armijo ∈ (0, ½), backtrack ∈ (0, 1), max_backtracks > 0; "
                 "got {}, {}, {}",
                 who, settings.armijo, settings.backtrack, settings.max_backtracks);
}

// The test at the head of each Newton iteration: status converged once res ≤ tolerance, else
// max_iterations (until a later iteration converges); true when the iterations must stop, i.e.
// converged or max_iterations spent.
template <class Result, class Settings>
bool newton_done(Result& result, double res, const Settings& settings) {
  if (res <= settings.tolerance) {
    result.status = Status::converged;
    return true;
  }
  result.status = Status::max_iterations;
  return result.iterations >= settings.max_iterations;
}

// Armijo backtracking on a merit function Ψ along a descent direction d: the first step
// t = β^k, k < max_backtracks, with Ψ(x + t d) ≤ Ψ(x) + σ t ∇Ψᵀd, where `trial(t)` evaluates
// Ψ(x + t d) and keeps that trial state for the caller. False when no step is accepted.
template <class Settings, class Trial>
bool armijo_backtracking(const Settings& settings, double psi, double slope, Trial&& trial) {
  double t = 1.0;
  for (int k = 0; k < settings.max_backtracks; ++k) {
    if (trial(t) <= psi + settings.armijo * t * slope) return true;
    t *= settings.backtrack;
  }
  return false;
}

}  // namespace moreau::solver_detail
