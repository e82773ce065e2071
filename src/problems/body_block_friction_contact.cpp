#include "moreau/problems/body_block_friction_contact.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <vector>

#include "moreau/common/error.hpp"

namespace moreau {

void BodyBlockFrictionContactProblem::validate() const {
  MOREAU_REQUIRE(dimension == 2 || dimension == 3,
                 "body-block frictional contact: dimension must be 2 or 3, got {}", dimension);
  const Index nb = bodies(), nc = contact_count(), m = body_size();
  MOREAU_REQUIRE(
      v_free.size() == nb * m,
      "body-block frictional contact: v_free has {} entries, expected {} ({} bodies × {})",
      v_free.size(), nb * m, nb, m);
  MOREAU_REQUIRE(w.size() == dimension * nc,
                 "body-block frictional contact: w has {} entries, expected {}", w.size(),
                 dimension * nc);
  MOREAU_REQUIRE(mu.size() == nc, "body-block frictional contact: mu has {} entries, expected {}",
                 mu.size(), nc);
  MOREAU_REQUIRE(w_bilateral.size() == static_cast<Index>(bilateral.size()),
                 "body-block frictional contact: w_bilateral has {} entries, expected {}",
                 w_bilateral.size(), bilateral.size());
  MOREAU_REQUIRE(compliance.size() == 0 || compliance.size() == nc,
                 "body-block frictional contact: compliance has {} entries, expected 0 or {}",
                 compliance.size(), nc);
  for (Index c = 0; c < compliance.size(); ++c)
    MOREAU_REQUIRE(std::isfinite(compliance[c]) && compliance[c] >= 0.0,
                   "body-block frictional contact: compliance[{}] = {} must be finite and ≥ 0", c,
                   compliance[c]);
  MOREAU_REQUIRE_FINITE(
      all_finite(v_free) && all_finite(w) && all_finite(w_bilateral),
      "body-block frictional contact: v_free, w or w_bilateral has a NaN or infinite entry");
  for (Index b = 0; b < nb; ++b)
    MOREAU_REQUIRE_FINITE(all_finite(mass_inverse[b]),
                          "body-block frictional contact: mass_inverse[{}] is not finite", b);
  for (Index c = 0; c < nc; ++c) {
    const auto& k = contacts[c];
    MOREAU_REQUIRE(
        k.body_a >= -1 && k.body_a < nb && k.body_b >= -1 && k.body_b < nb,
        "body-block frictional contact: contacts[{}] bodies ({}, {}) out of range [−1, {})", c,
        k.body_a, k.body_b, nb);
    MOREAU_REQUIRE_FINITE(all_finite(k.J_a) && all_finite(k.J_b),
                          "body-block frictional contact: contacts[{}] has a non-finite row", c);
    MOREAU_REQUIRE(std::isfinite(mu[c]) && mu[c] >= 0.0,
                   "body-block frictional contact: mu[{}] = {} must be finite and ≥ 0", c, mu[c]);
  }
  for (size_t j = 0; j < bilateral.size(); ++j) {
    const auto& g = bilateral[j];
    MOREAU_REQUIRE(
        g.body_a >= -1 && g.body_a < nb && g.body_b >= -1 && g.body_b < nb,
        "body-block frictional contact: bilateral[{}] bodies ({}, {}) out of range [−1, {})", j,
        g.body_a, g.body_b, nb);
  }
}

namespace {
// Appends the d × m rows of body `b` as columns of H (n × d·nc) at column `col0`.
void append_columns(std::vector<Triplet>& t, Index b, const ContactBodyRows& J, int d, Index m,
                    Index col0) {
  if (b < 0) return;
  for (int k = 0; k < d; ++k)
    for (Index i = 0; i < m; ++i)
      if (J(k, i) != 0.0) t.emplace_back(b * m + i, col0 + k, J(k, i));
}
}  // namespace

GlobalFrictionContactProblem BodyBlockFrictionContactProblem::to_global() const {
  validate();
  MOREAU_REQUIRE(
      bilateral.empty(),
      "body-block frictional contact: to_global() does not take bilateral rows ({} given)",
      bilateral.size());
  MOREAU_REQUIRE(compliance.size() == 0 || compliance.isZero(0.0),
                 "body-block frictional contact: to_global() does not take a nonzero compliance");
  const Index nb = bodies(), m = body_size(), n = nb * m, nc = contact_count();
  std::vector<Triplet> tm;
  for (Index b = 0; b < nb; ++b) {
    const Matrix Mb = Matrix(mass_inverse[b].topLeftCorner(m, m)).inverse();
    for (Index i = 0; i < m; ++i)
      for (Index j = 0; j < m; ++j)
        if (Mb(i, j) != 0.0) tm.emplace_back(b * m + i, b * m + j, Mb(i, j));
  }
  std::vector<Triplet> th;
  for (Index c = 0; c < nc; ++c) {
    append_columns(th, contacts[c].body_a, contacts[c].J_a, dimension, m, dimension * c);
    append_columns(th, contacts[c].body_b, contacts[c].J_b, dimension, m, dimension * c);
  }
  GlobalFrictionContactProblem g;
  g.dimension = dimension;
  g.M.resize(n, n);
  g.M.setFromTriplets(tm.begin(), tm.end());
  g.H.resize(n, dimension * nc);
  g.H.setFromTriplets(th.begin(), th.end());
  g.f = g.M * v_free;
  g.w = w;
  g.mu = mu;
  return g;
}

// W_ce = Σ_{b ∈ bodies(c) ∩ bodies(e)} J_{c,b} M_b⁻¹ J_{e,b}ᵀ, q_c = J_{c,a} v_free,a + J_{c,b}
// v_free,b + w_c.
FrictionContactProblem BodyBlockFrictionContactProblem::condensed() const {
  validate();
  MOREAU_REQUIRE(
      bilateral.empty(),
      "body-block frictional contact: condensed() does not take bilateral rows ({} given)",
      bilateral.size());
  const int d = dimension;
  const Index m = body_size(), nc = contact_count();
  // W block row by block row, straight into the compressed row-major matrix: block (e, c) =
  // Σ over the dynamic bodies β that e and c share of J_{e,β} M_β⁻¹ J_{c,β}ᵀ. (Triplets needed
  // ~20× the memory of W itself: 3 GB for the one island of a packed 27,000-sphere pile.)
  std::vector<std::vector<std::pair<Index, int>>> at(static_cast<size_t>(bodies()));  // (c, side)
  std::vector<Eigen::Matrix<double, 6, 3>> X(static_cast<size_t>(2 * nc));  // M_β⁻¹ J_{c,β}ᵀ
  for (Index c = 0; c < nc; ++c)
    for (int side = 0; side < 2; ++side) {
      const Index b = side == 0 ? contacts[c].body_a : contacts[c].body_b;
      if (b < 0) continue;
      const ContactBodyRows& J = side == 0 ? contacts[c].J_a : contacts[c].J_b;
      at[b].push_back({c, side});
      X[2 * c + side].setZero();
      X[2 * c + side].topLeftCorner(m, d) =
          mass_inverse[b].topLeftCorner(m, m) * J.topLeftCorner(d, m).transpose();
    }
  FrictionContactProblem p;
  p.dimension = d;
  p.W.resize(d * nc, d * nc);
  std::vector<std::pair<Index, Matrix3>> row;  // (c, block (e, c)) of one block row
  std::vector<int> outer{0}, inner;            // W's compressed row-major arrays
  std::vector<double> values;
  for (Index e = 0; e < nc; ++e) {
    row.clear();
    for (int side = 0; side < 2; ++side) {
      const Index b = side == 0 ? contacts[e].body_a : contacts[e].body_b;
      if (b < 0) continue;
      const ContactBodyRows& Je = side == 0 ? contacts[e].J_a : contacts[e].J_b;
      for (const auto& [c, c_side] : at[b]) {
        Matrix3 B = Matrix3::Zero();
        B.topLeftCorner(d, d) = Je.topLeftCorner(d, m) * X[2 * c + c_side].topLeftCorner(m, d);
        row.emplace_back(c, B);
      }
    }
    // blocks in column order, the two halves of a contact sharing both bodies summed
    std::sort(row.begin(), row.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    size_t kept = 0;
    for (size_t k = 0; k < row.size(); ++k)
      if (kept > 0 && row[kept - 1].first == row[k].first)
        row[kept - 1].second += row[k].second;
      else
        row[kept++] = row[k];
    row.resize(kept);
    for (int i = 0; i < d; ++i) {
      for (const auto& [c, B] : row)
        for (int k = 0; k < d; ++k) {
          double value = B(i, k);
          if (c == e && i == 0 && k == 0) value += compliance_of(e);
          inner.push_back(static_cast<int>(d * c + k));
          values.push_back(value);
        }
      MOREAU_REQUIRE(values.size() < static_cast<size_t>(INT_MAX),
                     "body-block frictional contact: W has more than {} nonzeros", INT_MAX);
      outer.push_back(static_cast<int>(inner.size()));
    }
  }
  p.W.resizeNonZeros(static_cast<Index>(values.size()));
  std::copy(outer.begin(), outer.end(), p.W.outerIndexPtr());
  std::copy(inner.begin(), inner.end(), p.W.innerIndexPtr());
  std::copy(values.begin(), values.end(), p.W.valuePtr());
  p.q = w;
  for (Index c = 0; c < nc; ++c) {
    const auto& k = contacts[c];
    if (k.body_a >= 0)
      p.q.segment(d * c, d) += k.J_a.topLeftCorner(d, m) * v_free.segment(k.body_a * m, m);
    if (k.body_b >= 0)
      p.q.segment(d * c, d) += k.J_b.topLeftCorner(d, m) * v_free.segment(k.body_b * m, m);
  }
  p.mu = mu;
  return p;
}

}  // namespace moreau
