#pragma once
// The compliant 3D impact of Jia 2010 (Stronge's three-spring contact extended to 3D, integrated
// over normal impulse: (1)–(39) and the algorithm of §2.6; docs/math/impact.md). Any number of
// rigid bodies and simultaneous contacts (the structure of Jia's massé shot, §4): the contact
// velocities are affine in the impulses,
//   v_c,i(I) = v_c,i⁻ + Σ_j K_ij I_j,   K_ij = J_i M⁻¹ J_jᵀ (3×3),
// and each contact carries a normal spring (k0 in compression, k0/e² in restitution) and two
// tangential springs k⊥ (η0² = k0/k⊥) ending on a massless particle that sticks or slips (Coulomb).
//
// Two readings of the published model (docs/math/impact.md), chosen by CompliantVariant:
//  * model     (default): the equations as stated — friction bound μF_n in both phases, i.e. the
//                          stick cone E_u + E_w ≤ μ²η²E_n with η = η0/e in restitution.
//  * published : the reading that reproduces the published ball figures (B1, B2, B4–B18, the
//                          numbers printed in Jia 2010 §3.1): the stick test is the same, but a
//                          SLIPPING contact keeps η0 in restitution (‖g‖ = 2μη0²√E_n), i.e. an
//                          effective friction μe while slipping in restitution (docs/math/impact.md
//                          has the comparison table).
//
// Numerical method (ours, docs/math/impact.md): the singular 1/√E_n terms of the impulse form are
// removed by integrating in the scaled time τ (dp_i/dτ = √κ_i φ_i / c_i with φ_i = √E_n,i), where
// all rates are smooth; classical RK4 with every transition (end of compression, end of
// restitution, stick↔slip, re-contact) located by root finding inside the step, and the slip
// state projected back onto the cone after each step. The step is given as a normal-impulse
// step h (Δp ≲ h per step); the error is estimated by Richardson with h/2.
#include <string>
#include <string_view>
#include <vector>

#include "moreau/impact/impact_status.hpp"
#include "moreau/impact/rigid_bodies.hpp"

namespace moreau {

// Which form of the compliant impact model to integrate (see the comment above).
enum class CompliantVariant { model, published };
// Name of a variant ("model", "published").
std::string_view to_string(CompliantVariant variant);
// "model" or "published"; throws std::invalid_argument naming the value otherwise.
CompliantVariant compliant_variant_from_string(std::string_view name);

// Settings of the compliant impact (variant, impulse step, error estimate, limits).
struct CompliantImpactSettings {
  CompliantVariant variant = CompliantVariant::model;  // reading of the model to integrate
  double step = 0.0;           // normal-impulse step h, N·s; 0 → (largest expected p)/2000
  bool estimate_error = true;  // second run with h/2 → error_estimate
  long max_steps = 2'000'000;  // per run
  int curve_samples = 400;     // points of the recorded curve per contact (0: none)
};

// One event of a compliant impact (a contact's compression ends, sticking starts, …).
struct CompliantEvent {
  std::string kind;       // start_stick, start_slip, stick_to_slip, slip_to_stick,
                          // end_of_compression, end_of_restitution, recontact
  double normal_impulse;  // p_i = n̂·I_i at the event, N·s
  Vector3 impulse;        // I_i at the event, frame components (n̂, û, ŵ), N·s
  Vector3 velocity;       // contact velocity at the event, frame components (n̂, û, ŵ), m/s
};

// Samples along the impact, frame components (n̂, û, ŵ); sizes equal.
struct CompliantCurve {
  std::vector<double> normal_impulse;  // p, N·s
  std::vector<Vector3> impulse;        // (I_n, I_u, I_w), N·s
  std::vector<Vector3> velocity;       // (v_n, v_u, v_w), m/s
};

// Per-contact outcome of a compliant impact (impulse, contact frame, events, curve).
struct CompliantContactResult {
  Vector3 impulse = Vector3::Zero();    // total impulse on body A, world axes, N·s
  Matrix3 frame = Matrix3::Identity();  // columns n̂, û (against v0⊥), ŵ = n̂ × û
  std::vector<CompliantEvent> events;   // this contact's events, in the order they occur
  CompliantCurve curve;                 // sampled curve (empty when curve_samples is 0)
};

// Outcome of a compliant impact: status, post-impact velocity, per-contact results, events.
struct CompliantImpactResult {
  ImpactStatus status = ImpactStatus::not_converged;   // resolved, no_impact, not_converged, …
  std::string message;                                 // detail of a failure or no_impact, or empty
  CompliantVariant variant = CompliantVariant::model;  // the variant that was integrated
  RigidBodyScene post;                                 // bodies with post-impact velocities
  std::vector<CompliantContactResult> contacts;        // one per scene contact
  double kinetic_energy_before = 0.0;                  // J
  double kinetic_energy_after = 0.0;                   // J
  double step = 0.0;                                   // normal-impulse step h used, N·s
  long steps = 0;                                      // accepted steps of the run with h
  // Richardson estimate of the error of the reported result: (16/15)·max|y_h − y_{h/2}| over the
  // post-impact generalized velocity and the impulses (NaN when not estimated).
  double error_estimate = 0.0;
};

// Throws std::invalid_argument for an invalid scene (validate_scene) or settings (step < 0).
// A scene whose contacts all have v_n ≥ 0 returns status no_impact with v⁺ = v⁻.
CompliantImpactResult compliant_impact(const RigidBodyScene& scene,
                                       const CompliantImpactSettings& settings = {});

}  // namespace moreau
