#pragma once
// The free velocity of one Moreau–Jean step (sim/time_stepping.hpp) of a LagrangianSystem, the
// velocity the step reaches without constraint impulses: shared by the dense step layer
// (model/dense_step_contacts.cpp) and the step's derivatives (sim/step_derivatives.hpp).
// With joint springs and dampers (LagrangianSystem::passive_diagonals), linearly implicit:
//   M(v⁺ − v) = −h (F + θD(v⁺ − v) + hθK(θv⁺ + (1 − θ)v)) + H r
//   ⇔ M̂ (v⁺ − v) = −h (F + hθ K v) + H r,   M̂ = M + hθD + h²θ²K
// (the iteration matrix of Siconos' MoreauJeanOSI, sim/moreau_jean_osi.hpp), so
//   v_free = v − h M̂⁻¹ F̂,   F̂ = F + hθ K v.
// A step without constraints of a system with midpoint_free_flight() takes its free flight at
// the midpoint instead (explicit midpoint rule, second order with q⁺ = q + h(v + v⁺)/2):
//   q_m = q ⊕ ½h v, v_m = v − ½h M̂_m⁻¹F̂,
//   v_free = v − h M̂_m⁻¹ (F(q_m, v_m) + D (v − v_m) + (θ − ½) h K v),  M̂_m = M(q_m) + hθD + h²θ²K
// (the springs and dampers stay linearly implicit: at θ = ½ the spring terms −½hKv + hθKv of
// moving them to q_m cancel, and the damper keeps D v). v_m enters only through F(q_m, v_m),
// which is multiplied by h, so an O(h²) error in it leaves the step second order: M̂_m, formed and
// factorized once, serves both halves (M(q) is not needed, and M(q_m) comes from the same walk
// of the kinematics as F: LagrangianSystem::mass_then_forces).
#include "moreau/model/lagrangian_system.hpp"
#include "moreau/model/velocity_level.hpp"

namespace moreau {

// M̂ v − h F̂ = M̂ v_free of a step without the midpoint rule, from M(q), F(q, v, t), with M̂ in
// implicit_mass: the momentum without impulses, no factorization (the step's derivatives).
Vector step_momentum(const LagrangianSystem& sys, const Matrix& M, const Vector& F, const Vector& q,
                     const Vector& v, double h, double theta, Matrix& implicit_mass);

// v_free of the step from (q, v, t) of length h with M(q), F(q, v, t) given; constrained tells
// whether its problem has any constraint (else the midpoint rule when the system asks for it,
// which reads F but not M: a step state may then leave M empty, LagrangianSystem::step_state).
// Leaves M̂ (the midpoint's when the midpoint was taken) factorized in mass, and as a matrix in
// implicit_mass when given.
Vector step_free_velocity(const LagrangianSystem& sys, const Matrix& M, const Vector& F,
                          const Vector& q, const Vector& v, double t, double h, double theta,
                          bool constrained, MassSolver& mass, Matrix* implicit_mass = nullptr);

}  // namespace moreau
