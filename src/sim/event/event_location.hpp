#pragma once
// Event location of the event-driven integrator (not public API): one Dormand–Prince 5(4) step
// with its dense output, the root functions of a mode and their location by the Illinois method.
#include <array>
#include <functional>
#include <vector>

#include "hybrid_dynamics.hpp"

namespace moreau::event {

// ---- Dormand–Prince 5(4) (Hairer, Nørsett & Wanner, Solving ODE I, §II.5) ----

// Right-hand side f(t, y) of ẏ = f; sets *ok = false when the mode's dynamics is inconsistent.
using RightHandSide = std::function<Vector(double t, const Vector& y, bool* ok)>;

// 4th-order continuous extension of one step (dopri5.f): y(t0 + θh) for θ ∈ [0, 1].
struct DenseStep {
  double t0 = 0.0, h = 0.0;
  std::array<Vector, 5> rc;
  Vector at(double t) const;
};

struct DopriStep {
  Vector y1;  // 5th-order solution at t + h
  Vector k7;  // f(t + h, y1) (FSAL: the next step's k1)
  double error =
      0;  // ‖err‖ scaled by atol + rtol·max(|y|, |y1|), RMS; reject when > 1 or not finite
  bool ok = true;  // f's flag after the last stage (k7): each stage overwrites it, so this is
                   // the consistency of the mode's dynamics at (t + h, y1)
  DenseStep dense;
};

// One step of size h from (t, y) with k1 = f(t, y).
DopriStep dopri_step(const RightHandSide& f, double t, const Vector& y, const Vector& k1, double h,
                     double atol, double rtol);

// ---- Root functions of a mode ----

// Fire when φ goes from > 0 to ≤ 0.
// A free contact has one of two roots, by its arming flag armed[i] (see arms):
//   armed:    closing, φ = ψ = g + ½ε;
//   disarmed: apex, φ = u_n — the contact sits in the closing band after an impact or a
//     separation (ψ ≈ 0 up to rounding, moving away), where the sign of ψ at the step's start
//     cannot be trusted; the apex u_n = 0 ends its excursion: if g > 0 there the closing root is
//     armed and the step restarts from the apex, else the contact never opened (g ≤ 0 throughout)
//     and closes there without impact (Zeno rule, docs/simulation.md).
// A closed contact: normal_force φ = λ_n (→ separation); stick_cone φ = μλ_n − ‖λ_t‖
// (stick → slip); slip_velocity φ = s·u_t (slip → stick).
enum class RootKind { closing, apex, normal_force, stick_cone, slip_velocity };
struct Root {
  RootKind kind;
  Index contact;
};

// Arming rule of a free contact's closing root at a state: g > 0 (clearly open), or ψ > 0 while
// approaching or at rest (u_n ≤ 0). A contact in the band that moves away stays disarmed.
bool arms(const ContactConstraint& c, const Vector& v, double eps_g);

std::vector<Root> roots_of(const ContactState& s, const Modes& modes,
                           const std::vector<char>& armed);

double root_value(const Root& r, const Dynamics& dy, const Modes& modes,
                  const std::vector<double>& mu, double eps_g);

// Illinois method on φ over [a, b] with φ(a) = fa > 0 ≥ φ(b) = fb; returns the right end b of
// the final bracket (|b − a| ≤ 1e-14·max(1, t_scale) + 1e-15), so φ(b) ≤ 0: the event has fired.
double locate(const std::function<double(double)>& phi, double a, double b, double fa, double fb,
              double t_scale);

}  // namespace moreau::event
