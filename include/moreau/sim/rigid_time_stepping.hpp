#pragma once
// Moreau–Jean time stepping of a RigidWorld in its body-block structure (docs/simulation.md
// §"Rigid worlds"): the same scheme as time_stepping.hpp, step for step,
//   M_b(q_k)(v_b,k+1 − v_b,k) = −h F_b(q_k, v_k) + Σ_c J_{c,b}ᵀ r_c + Σ_j g_{j,b}ᵀ p_j   (each body b)
//   q_{k+1} = q_k + h·q̇((1−θ) v_k + θ v_{k+1}),   Newton restitution w_n = e min(u_n⁻, 0),
//   exact Coulomb cone, joints as bilateral rows with u_j = −κ h_j / h,
// but with no dense matrix anywhere: M⁻¹ is kept per body (6×6, or 3×3 planar), the contact
// Jacobians as two fixed-size blocks per contact (contact/collision/world_contacts.hpp), and the
// step's frictional contact problem (problems/body_block_friction_contact.hpp) is solved by
// body-block NSGS in velocity form (solvers/fc/body_block_nsgs.hpp), warm-started from the
// contact each contact continues (docs/simulation.md §"Rigid worlds"). When NSGS stops above the
// tolerance on a step without joints, the condensed problem is handed to the registry solver
// named in the settings, warm-started with the NSGS impulses and given at most twice the NSGS
// time (10 ms at least), and the better of the two is kept. Post-stabilization projects
// penetrations away with the same structure (projected Gauss–Seidel on the normal rows,
// min ½ΔvᵀMΔv s.t. g + J_n Δv ≥ 0).
// Contacts are detected once per step: the detection that ends a step (and checks the
// projection) is the one the next step uses.
#include "moreau/contact/collision/rigid_world_system.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {

SimulationResult simulate_rigid_time_stepping(const RigidWorldSystem& system, const SimulationSettings& settings,
                                              const Vector& q0, const Vector& v0,
                                              const ProgressCallback& progress);

}  // namespace moreau
