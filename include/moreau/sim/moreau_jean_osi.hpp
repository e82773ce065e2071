#pragma once
// Moreau–Jean time stepping as Siconos' MoreauJeanOSI computes it (TimeSteppingScheme::siconos, a
// step policy of the one loop of sim/time_stepping.hpp;
// ../shared/data/siconos-examples/README.md "Common definitions"; Acary & Brogliato 2008 §10.1,
// the θ-method applied to the forces as well). In moreau's left-side convention
// M(q) q̈ + F(q, v, t) = H(q) λ, one step from (q_k, v_k, t_k) with step h solves
//   R(v) = M(q)(v − v_k) + h[θ F(q, v, t_{k+1}) + (1−θ) F(q_k, v_k, t_k)] − H P = 0,
//   q = q_k + h q̇(q_k, θ v + (1−θ) v_k),
// by Newton's method from v = v_k with the iteration matrix
//   W = M + hθ C + h²θ² K,   K = ∂F/∂q, C = ∂F/∂v (LagrangianSystem::force_jacobians),
// so that a linear time-invariant system (model/linear_system.hpp) takes exactly one iteration:
//   v_free = v_k + W⁻¹[h f − h K q_k − h C v_k − h²θ K v_k]  (f constant).
// In every iteration the contact problem is solved with W in place of M:
//   v = v_free + W⁻¹ H P,  U = Hᵀ v,
//   Newton's law 0 ≤ U_N + e U_N,k ⊥ P_N ≥ 0 with U_N,k = H_Nᵀ v_k (no clipping at 0),
//   2D/3D Coulomb friction on U_T + e_t U_T,k (the e_t term only when e_t > 0),
// over the contacts active at the START of the step: g_i(q_k) + c h U_N,i(q_k, v_k) ≤ m
// (c = activation_factor, m = activation_margin). Bilateral constraints are active always, with
// U_B = 0 and no drift correction (as MoreauJeanOSI). No projection follows the step.
// NewtonLoop::newton recomputes M, F and the constraints at every iterate q(v) and stops when
// ‖R(v)‖₂ ≤ newton_tolerance; NewtonLoop::linearized (Siconos' SICONOS_TS_LINEAR) does one
// iteration with the constraints taken at q_k.
// Records: row k is t_k = k h (t_N = t_end) with (q_k, v_k); contacts.csv gets, at every
// recorded step, every unilateral constraint's impulse P (0 when inactive) and gap at q_{k+1}.
// The scheme runs in the one loop of sim/time_stepping.hpp (simulate(), TimeSteppingRun) with
// TimeSteppingSettings::scheme = TimeSteppingScheme::siconos; this header holds its definition.
#include "moreau/sim/simulation.hpp"
