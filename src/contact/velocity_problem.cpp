#include "moreau/contact/velocity_problem.hpp"

#include <cmath>

#include "moreau/common/error.hpp"

namespace moreau {

VelocityProblem build_velocity_problem(const ContactState& s, double step,
                                       const ActiveSetSettings& st) {
  MOREAU_REQUIRE(std::isfinite(step) && step >= 0.0, "velocity problem: step h = {} must be ≥ 0",
                 step);
  s.validate();
  VelocityProblem p;
  p.dimension = s.dimension;
  p.step = step;
  p.active = active_constraints(s, st);
  const Index n = s.dofs(), k = static_cast<Index>(p.active.size()), d = s.dimension, d1 = d - 1;
  p.M = s.M;
  p.v = s.v;
  p.N.resize(n, k);
  p.T.resize(n, d1 * k);
  p.H.resize(n, d * k);
  p.mu.resize(k);
  p.gamma.resize(k);
  p.kN.resize(k);
  p.restitution.resize(k);
  for (Index j = 0; j < k; ++j) {
    const auto& c = s.constraints[p.active[j]];
    p.bilateral.push_back(c.kind == ConstraintKind::bilateral);
    p.N.col(j) = c.normal;
    p.T.middleCols(d1 * j, d1) = c.tangent;
    p.H.col(d * j) = c.normal;
    p.H.middleCols(d * j + 1, d1) = c.tangent;
    p.mu[j] = c.mu;
    p.gamma[j] = c.gamma;
    p.kN[j] = c.baumgarte_beta * c.gap;
    p.restitution[j] = c.restitution;
  }
  Matrix rhs(n, 1 + d * k);
  rhs << -s.F, p.H;
  const Matrix X = mass_solve(p.M, rhs, &p.mass_positive_definite);
  p.v_free = s.v + step * X.col(0);
  p.W = p.H.transpose() * X.rightCols(d * k);
  p.q = p.H.transpose() * p.v_free;
  for (Index j = 0; j < k; ++j) {
    p.W(d * j, d * j) += p.gamma[j];
    p.q[d * j] += p.kN[j];
  }
  return p;
}

FrictionContactProblem to_friction_contact_problem(const VelocityProblem& p) {
  for (std::size_t j = 0; j < p.bilateral.size(); ++j)
    MOREAU_REQUIRE(!p.bilateral[j],
                   "velocity problem: active constraint {} (state index {}) is bilateral; "
                   "a FrictionContactProblem holds unilateral contacts only",
                   j, p.active[j]);
  FrictionContactProblem fc;
  fc.dimension = p.dimension;
  fc.W = p.W.sparseView();
  fc.q = p.q;
  fc.mu = p.mu;
  fc.validate();
  return fc;
}

}  // namespace moreau
