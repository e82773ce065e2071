#pragma once
// Finite-difference checks of a system's constraint kinematics along the motion q(ε) = q + ε q̇,
// q̇ = position_rate(q, v): ḣ = ∇hᵀv and c = d/dt(Jᵀ(q)) v for the normal and tangent columns.
#include <gtest/gtest.h>

#include "moreau/model/lagrangian_system.hpp"

namespace moreau::test {

inline void expect_kinematics_match_fd(const LagrangianSystem& sys, const Vector& q,
                                       const Vector& v, double tol = 1e-6) {
  const double eps = 1e-6;
  const Vector qd = sys.position_rate(q, v);
  const ContactState s0 = sys.contact_state(q, v, 0.0);
  const ContactState sp = sys.contact_state(q + eps * qd, v, 0.0);
  const ContactState sm = sys.contact_state(q - eps * qd, v, 0.0);
  for (Index i = 0; i < s0.size(); ++i) {
    const auto& c = s0.constraints[i];
    const auto& cp = sp.constraints[i];
    const auto& cm = sm.constraints[i];
    const double hdot = (cp.gap - cm.gap) / (2 * eps);
    EXPECT_NEAR(hdot, c.normal.dot(v), tol * std::max(1.0, std::abs(hdot)))
        << c.name << " gap rate";
    const double cn = (cp.normal.dot(v) - cm.normal.dot(v)) / (2 * eps);
    EXPECT_NEAR(cn, c.normal_bias, tol * std::max(1.0, std::abs(cn))) << c.name << " c_n";
    const Vector ct = (cp.tangent.transpose() * v - cm.tangent.transpose() * v) / (2 * eps);
    for (Index k = 0; k < ct.size(); ++k)
      EXPECT_NEAR(ct[k], c.tangent_bias[k], tol * std::max(1.0, std::abs(ct[k])))
          << c.name << " c_t" << k;
  }
}

}  // namespace moreau::test
