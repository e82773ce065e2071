// Dry joint friction in a velocity-level step: the active set over stick and slip
// (dry_friction_step.hpp).
#include "dry_friction_step.hpp"

#include <cmath>

#include <fmt/format.h>

namespace moreau::detail {

VelocityLevelSolution solve_with_dry_friction(const ContactState& s, const MassSolver& mass,
                                              const Vector& v_free, const VelocityLevelInput& in,
                                              const std::vector<DryFriction>& friction, double h,
                                              std::vector<int>& modes, const std::string& solver,
                                              const FrictionContactSettings& settings) {
  const Index n = v_free.size(), nf = static_cast<Index>(friction.size());
  const int d = s.dimension;
  // the step's constraints, then one stick row e_i per entry (used while the entry sticks)
  ContactState aug;
  aug.dimension = d;
  aug.M = s.M;  // contact_jacobian reads n from it
  aug.constraints = s.constraints;
  const Index base = aug.size();
  for (const DryFriction& f : friction) {
    ContactConstraint cc;
    cc.name = fmt::format("frictionloss:{}:{}", f.name, f.dof);
    cc.kind = ConstraintKind::bilateral;
    cc.normal = Vector::Zero(n);
    cc.normal[f.dof] = 1.0;
    cc.tangent = Matrix::Zero(n, d - 1);
    cc.tangent_bias = Vector::Zero(d - 1);
    aug.constraints.push_back(std::move(cc));
  }
  if (static_cast<Index>(modes.size()) != nf) modes.assign(static_cast<size_t>(nf), 0);
  const int budget = 4 * static_cast<int>(nf) + 10;
  const double v_tol = 1e-10;  // m/s or rad/s: a slip velocity this small is not reversed
  VelocityLevelSolution sol;
  for (int pass = 1;; ++pass) {
    VelocityLevelInput x = in;
    Vector slip = Vector::Zero(n);  // Σ of the slipping entries' known impulses
    std::vector<Index> stick_at(static_cast<size_t>(nf), -1);
    for (Index i = 0; i < nf; ++i) {
      const DryFriction& f = friction[static_cast<size_t>(i)];
      if (modes[static_cast<size_t>(i)] == 0) {
        stick_at[static_cast<size_t>(i)] = static_cast<Index>(x.bilateral.size());
        x.bilateral.push_back(base + i);
      } else {
        slip[f.dof] -= modes[static_cast<size_t>(i)] * h * f.bound;
      }
    }
    x.w_bilateral = Vector::Zero(static_cast<Index>(x.bilateral.size()));
    x.w_bilateral.head(in.w_bilateral.size()) = in.w_bilateral;
    const Vector vf = slip.isZero() ? v_free : Vector(v_free + mass.solve(slip));
    sol = solve_velocity_level(aug, mass, vf, x, solver, settings);
    bool changed = false;
    for (Index i = 0; i < nf; ++i) {
      const DryFriction& f = friction[static_cast<size_t>(i)];
      int& mode = modes[static_cast<size_t>(i)];
      const double cap = h * f.bound;
      if (mode == 0) {
        const double p = sol.p[stick_at[static_cast<size_t>(i)]];
        if (std::abs(p) > cap * (1.0 + 1e-12)) {  // holding it needs more than f: it slips
          mode = p < 0.0 ? 1 : -1;                // against the impulse that could not hold it
          changed = true;
        }
      } else if (mode * sol.v[f.dof] < -v_tol) {  // the slip reversed: it sticks
        mode = 0;
        changed = true;
      }
    }
    if (!changed) return sol;
    if (pass == budget) {
      sol.report.status = Status::max_iterations;
      sol.report.message = fmt::format(
          "dry joint friction: the stick/slip modes of {} entries did not settle in {} "
          "passes",
          nf, budget);
      return sol;
    }
  }
}

}  // namespace moreau::detail
