#include "moreau/model/contact_state.hpp"

#include <cmath>

#include "moreau/common/error.hpp"

namespace moreau {

Matrix ContactState::normal_jacobian() const {
  Matrix J(dofs(), size());
  for (Index i = 0; i < size(); ++i) J.col(i) = constraints[i].normal;
  return J;
}

Matrix ContactState::tangent_jacobian() const {
  const Index k = dimension - 1;
  Matrix J(dofs(), k * size());
  for (Index i = 0; i < size(); ++i) J.middleCols(k * i, k) = constraints[i].tangent;
  return J;
}

Vector ContactState::normal_bias() const {
  Vector c(size());
  for (Index i = 0; i < size(); ++i) c[i] = constraints[i].normal_bias;
  return c;
}

Vector ContactState::tangent_bias() const {
  const Index k = dimension - 1;
  Vector c(k * size());
  for (Index i = 0; i < size(); ++i) c.segment(k * i, k) = constraints[i].tangent_bias;
  return c;
}

Vector ContactState::friction() const {
  Vector mu(size());
  for (Index i = 0; i < size(); ++i) mu[i] = constraints[i].mu;
  return mu;
}

void ContactState::validate() const {
  MOREAU_REQUIRE(dimension == 2 || dimension == 3,
                 "contact state: dimension must be 2 or 3, got {}", dimension);
  const Index n = dofs();
  MOREAU_REQUIRE(n > 0, "contact state: the system has no degree of freedom (v is empty)");
  MOREAU_REQUIRE(q.size() >= n, "contact state: q has {} entries, fewer than the {} of v", q.size(),
                 n);
  MOREAU_REQUIRE(M.rows() == n && M.cols() == n, "contact state: M must be {}×{}, got {}×{}", n, n,
                 M.rows(), M.cols());
  MOREAU_REQUIRE(F.size() == n, "contact state: F has {} entries but q has {}", F.size(), n);
  require_finite(q, "contact state: q", true);
  require_finite(v, "contact state: v");
  require_finite(M, "contact state: M");
  require_finite(F, "contact state: F");
  const double asym = (M - M.transpose()).cwiseAbs().maxCoeff();
  MOREAU_REQUIRE(asym <= 1e-10 * std::max(1.0, M.cwiseAbs().maxCoeff()),
                 "contact state: M must be symmetric, but |M − Mᵀ| reaches {}", asym);
  for (Index i = 0; i < size(); ++i) {
    const auto& c = constraints[i];
    const std::string& nm = c.name;
    MOREAU_REQUIRE(c.normal.size() == n, "constraint {} ('{}'): normal has {} entries, expected {}",
                   i, nm, c.normal.size(), n);
    MOREAU_REQUIRE(c.tangent.rows() == n && c.tangent.cols() == dimension - 1,
                   "constraint {} ('{}'): tangent must be {}×{}, got {}×{}", i, nm, n,
                   dimension - 1, c.tangent.rows(), c.tangent.cols());
    MOREAU_REQUIRE(c.tangent_bias.size() == dimension - 1,
                   "constraint {} ('{}'): tangent_bias must have {} entries, got {}", i, nm,
                   dimension - 1, c.tangent_bias.size());
    MOREAU_REQUIRE(std::isfinite(c.mu) && c.mu >= 0.0, "constraint {} ('{}'): mu = {} must be ≥ 0",
                   i, nm, c.mu);
    MOREAU_REQUIRE(c.restitution >= 0.0 && c.restitution <= 1.0,
                   "constraint {} ('{}'): restitution e = {} must lie in [0, 1]", i, nm,
                   c.restitution);
    MOREAU_REQUIRE(c.tangential_restitution >= 0.0 && c.tangential_restitution <= 1.0,
                   "constraint {} ('{}'): tangential restitution e_t = {} must lie in [0, 1]", i,
                   nm, c.tangential_restitution);
    MOREAU_REQUIRE(all_finite(c.normal) && all_finite(c.tangent) && std::isfinite(c.gap) &&
                       std::isfinite(c.normal_bias) && all_finite(c.tangent_bias),
                   "constraint {} ('{}') has a NaN or infinite entry", i, nm);
  }
}

}  // namespace moreau
