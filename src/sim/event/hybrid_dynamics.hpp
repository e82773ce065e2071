#pragma once
// Hybrid dynamics of the event-driven integrator (not public API): accelerations and multipliers of
// the smooth dynamics in one contact mode, with the Baumgarte stabilization bias (event_driven.hpp
// states the equations), solved on the contact layer's AccelerationProblem of the constraints the
// mode holds.
#include <vector>

#include "moreau/sim/simulation.hpp"

namespace moreau::event {

// Mode of one unilateral constraint; s is the unit slip direction (d−1) of λ_t = −μ λ_n s.
struct HybridMode {
  ContactMode mode = ContactMode::separate;
  Vector s;
};
using Modes = std::vector<HybridMode>;

// Accelerations and multipliers of the smooth dynamics in one mode:
//   S λ = Cᵀ M⁻¹ F − b,   S = Cᵀ M⁻¹ G,   a = M⁻¹ (G λ − F),
// C the constrained directions, G the force directions (∇h − μ H_t s on sliding contacts),
// b the bias c + 2α(velocity) + β²(gap). S is solved in the least-squares sense with a
// complete orthogonal decomposition (redundant contacts get the minimum-norm multipliers);
// consistent = the residual of S λ = rhs is small.
struct Dynamics {
  bool consistent = false;
  Vector a;                 // n, generalized acceleration
  Vector lambda_n;          // m (all constraints; 0 when free)
  Matrix lambda_t;          // (d−1)×m
  Vector g, un, an;         // m: gap, normal velocity, normal acceleration ∇hᵀa + c_n
  Matrix ut, at;            // (d−1)×m: tangential velocity, acceleration
  double S_min_diag = 0.0;  // smallest diagonal entry of S over sliding normal rows (Painlevé α)
  Index S_min_index = -1;
};

// Baumgarte α, β of one constraint (1/s): the constraint's own (ContactConstraint::baumgarte_alpha,
// baumgarte_beta, e.g. a scene's contact material "alpha"/"beta") when > 0, else the run's
// settings (EventDrivenSettings::baumgarte_alpha/beta), each separately.
double baumgarte_alpha(const ContactConstraint& c, const SimulationSettings& st);
double baumgarte_beta(const ContactConstraint& c, const SimulationSettings& st);

class HybridDynamics {
 public:
  HybridDynamics(const LagrangianSystem& sys, const SimulationSettings& st) : sys_(sys), st_(st) {}

  // The dynamics of `modes` at (t, q, v); bilateral constraints are always held (stick).
  Dynamics operator()(double t, const Vector& q, const Vector& v, const Modes& modes) const;

 private:
  const LagrangianSystem& sys_;
  const SimulationSettings& st_;
};

}  // namespace moreau::event
