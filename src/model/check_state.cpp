#include "check_state.hpp"

#include <algorithm>
#include <cmath>

#include "moreau/common/error.hpp"

namespace moreau::detail {

void check_contact_state(const ContactState& s) {
  MOREAU_REQUIRE(s.dimension == 2 || s.dimension == 3, "contact state: dimension must be 2 or 3, got {}",
                 s.dimension);
  const Index n = s.q.size();
  MOREAU_REQUIRE(s.v.size() == n, "contact state: v has {} entries but q has {}", s.v.size(), n);
  MOREAU_REQUIRE(s.M.rows() == n && s.M.cols() == n, "contact state: M must be {}×{}, got {}×{}", n, n,
                 s.M.rows(), s.M.cols());
  MOREAU_REQUIRE(s.F.size() == n, "contact state: F has {} entries but q has {}", s.F.size(), n);
  MOREAU_REQUIRE(all_finite(s.q) && all_finite(s.v) && all_finite(s.M) && all_finite(s.F),
                 "contact state: q, v, M or F has a NaN or infinite entry");
  const double asym = n ? (s.M - s.M.transpose()).cwiseAbs().maxCoeff() : 0.0;
  MOREAU_REQUIRE(asym <= 1e-10 * std::max(1.0, n ? s.M.cwiseAbs().maxCoeff() : 0.0),
                 "contact state: M must be symmetric, but |M − Mᵀ| reaches {}", asym);
  for (std::size_t i = 0; i < s.constraints.size(); ++i) {
    const auto& c = s.constraints[i];
    const std::string& nm = c.name;
    MOREAU_REQUIRE(c.normal.size() == n, "constraint {} ('{}'): normal has {} entries, expected {}", i, nm,
                   c.normal.size(), n);
    MOREAU_REQUIRE(c.tangent.rows() == n && c.tangent.cols() == s.dimension - 1,
                   "constraint {} ('{}'): tangent must be {}×{}, got {}×{}", i, nm, n, s.dimension - 1,
                   c.tangent.rows(), c.tangent.cols());
    MOREAU_REQUIRE(c.tangent_bias.size() == s.dimension - 1,
                   "constraint {} ('{}'): tangent_bias must have {} entries, got {}", i, nm,
                   s.dimension - 1, c.tangent_bias.size());
    MOREAU_REQUIRE(std::isfinite(c.mu) && c.mu >= 0.0, "constraint {} ('{}'): mu = {} must be ≥ 0", i, nm, c.mu);
    MOREAU_REQUIRE(c.restitution >= 0.0 && c.restitution <= 1.0,
                   "constraint {} ('{}'): restitution e = {} must lie in [0, 1]", i, nm, c.restitution);
    MOREAU_REQUIRE(all_finite(c.normal) && all_finite(c.tangent) && std::isfinite(c.gap) &&
                       std::isfinite(c.normal_bias) && all_finite(c.tangent_bias),
                   "constraint {} ('{}') has a NaN or infinite entry", i, nm);
  }
}

}  // namespace moreau::detail
