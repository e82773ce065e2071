#pragma once
// Moreau–Jean time stepping, θ-method (Jean 1999; Acary & Brogliato 2008 §10.1), one stepper for
// every LagrangianSystem:
//   M(q_k)(v_{k+1} − v_k) = −h F(q_k, v_k, t_k) + H r_{k+1}
//   q_{k+1} = q_k + h·q̇((1−θ) v_k + θ v_{k+1})
//   for every constraint of the index set I_k = {i : g_i(q_k) + ½h u_n,i(v_k) ≤ margin}:
//     u_{k+1} = Hᵀ v_{k+1} + w,  w_n,i = e_i min(u_n,i(v_k), 0)  (Newton restitution),
//     K_μ ∋ r ⊥ û ∈ K*_μ (exact Coulomb cone), bilateral rows u_b = −κ h_b/h with free p.
// Departures: F is explicit (θ = 0 on forces: gravity and gyroscopic terms); penetrations left
// by the step are removed by a post-stabilization projection (min ½ΔvᵀMΔv s.t. g + J Δv ≥ 0).
// The step's problem comes from the system's contact layer (model/step_contacts.hpp): dense W,
// its bilateral rows Schur-eliminated (model/velocity_level.hpp), for a generic system; body
// blocks and body-block NSGS, W never formed, for a rigid world (rigid_world_system.hpp,
// docs/simulation.md §"Rigid worlds"). Contacts are detected once per step: the detection that
// ends a step (and checks the projection) is the one the next step uses.
#include "moreau/sim/simulation.hpp"

namespace moreau {

// Runs the Moreau–Jean scheme above on any LagrangianSystem (dense path).
SimulationResult simulate_time_stepping(const LagrangianSystem& system,
                                        const SimulationSettings& settings, const Vector& q0,
                                        const Vector& v0, const ProgressCallback& progress,
                                        const StopRequest* stop = nullptr);

}  // namespace moreau
