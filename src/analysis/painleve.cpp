#include "moreau/analysis/painleve.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "moreau/common/error.hpp"
#include "moreau/linalg/matrix_class.hpp"
#include "moreau/linalg/pseudo_inverse.hpp"

namespace moreau {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

Eigen::LLT<Matrix> checked_mass(const Matrix& M, const char* who) {
  MOREAU_REQUIRE(M.rows() == M.cols() && M.rows() > 0,
                 "{}: M must be square and non-empty, got {}×{}", who, M.rows(), M.cols());
  MOREAU_REQUIRE(all_finite(M), "{}: M has a NaN or infinite entry", who);
  MOREAU_REQUIRE(is_symmetric(M), "{}: M must be symmetric", who);
  Eigen::LLT<Matrix> llt(M);
  MOREAU_REQUIRE(llt.info() == Eigen::Success && is_positive_definite(M, 1e-12),
                 "{}: M must be positive definite (λ_min = {})", who, min_symmetric_eigenvalue(M));
  return llt;
}

}  // namespace

std::string to_string(PainleveCase c) {
  switch (c) {
    case PainleveCase::slip:
      return "slip";
    case PainleveCase::separation:
      return "separation";
    case PainleveCase::inconsistent:
      return "inconsistent";
    case PainleveCase::indeterminate:
      return "indeterminate";
    case PainleveCase::grazing:
      return "grazing";
    case PainleveCase::singular:
      return "singular";
    case PainleveCase::degenerate:
      return "degenerate";
  }
  return "unknown";
}

double critical_friction(const Matrix& M, const Vector& w_n, const Vector& w_t, int sigma) {
  const auto llt = checked_mass(M, "critical_friction");
  MOREAU_REQUIRE(w_n.size() == M.rows() && w_t.size() == M.rows(),
                 "critical_friction: w_n and w_t must have {} entries, got {} and {}", M.rows(),
                 w_n.size(), w_t.size());
  MOREAU_REQUIRE(sigma == 1 || sigma == -1, "critical_friction: sigma must be ±1, got {}", sigma);
  const Vector Minv_wn = llt.solve(w_n);
  const double a = w_n.dot(Minv_wn), b = w_t.dot(Minv_wn);
  // α(μ) = a − σ μ b = 0  ⇒  μ = a / (σ b), admissible when σ b > 0.
  return sigma * b > 0.0 ? a / (sigma * b) : kInf;
}

// Unilateral-contact notes (4.16): α = w_nᵀM⁻¹(w_n − σμw_t), β = w_nᵀM⁻¹F − c_n (F on the left).
PainleveResult painleve_single(const Matrix& M, const Vector& F, const Vector& w_n,
                               const Vector& w_t, double c_n, double mu, int sigma,
                               const PainleveSettings& settings) {
  const auto llt = checked_mass(M, "painleve");
  const Index n = M.rows();
  MOREAU_REQUIRE(F.size() == n && w_n.size() == n && w_t.size() == n,
                 "painleve: F, w_n, w_t must have {} entries, got {}, {}, {}", n, F.size(),
                 w_n.size(), w_t.size());
  MOREAU_REQUIRE(all_finite(F) && all_finite(w_n) && all_finite(w_t) && std::isfinite(c_n),
                 "painleve: F, w_n, w_t or c_n has a NaN or infinite entry");
  MOREAU_REQUIRE(std::isfinite(mu) && mu >= 0.0, "painleve: mu = {} must be ≥ 0", mu);
  MOREAU_REQUIRE(sigma == 1 || sigma == -1, "painleve: sigma must be ±1, got {}", sigma);
  const Vector Minv_wn = llt.solve(w_n);
  const double a = w_n.dot(Minv_wn);
  MOREAU_REQUIRE(a > 0.0, "painleve: the normal w_n must be nonzero");
  const double b = w_t.dot(Minv_wn);
  const double fterm = F.dot(Minv_wn);
  PainleveResult r;
  r.sigma = sigma;
  r.mu = mu;
  r.alpha = a - sigma * mu * b;
  r.beta = fterm - c_n;
  r.free_normal_acceleration = -r.beta;
  r.mu_critical = sigma * b > 0.0 ? a / (sigma * b) : kInf;
  const double za = settings.zero_tolerance * a * std::max(1.0, mu * std::abs(b) / a);
  const double zb = settings.zero_tolerance * std::max({1.0, std::abs(fterm), std::abs(c_n)});
  const int sa = std::abs(r.alpha) <= za ? 0 : (r.alpha > 0 ? 1 : -1);
  const int sb = std::abs(r.beta) <= zb ? 0 : (r.beta > 0 ? 1 : -1);
  if (sa == 0 && sb == 0)
    r.kind = PainleveCase::degenerate;
  else if (sa == 0)
    r.kind = sb > 0 ? PainleveCase::singular : PainleveCase::separation;
  else if (sb == 0)
    r.kind = PainleveCase::grazing;
  else if (sa > 0)
    r.kind = sb > 0 ? PainleveCase::slip : PainleveCase::separation;
  else
    r.kind = sb > 0 ? PainleveCase::inconsistent : PainleveCase::indeterminate;
  if (r.kind == PainleveCase::slip || r.kind == PainleveCase::indeterminate)
    r.lambda_n = r.beta / r.alpha;
  return r;
}

PainleveResult painleve_single(const ContactState& state, Index contact, int sigma_override,
                               const PainleveSettings& settings) {
  state.validate();
  MOREAU_REQUIRE(state.dimension == 2,
                 "painleve: the single-contact table is planar (dimension 2), got {}",
                 state.dimension);
  MOREAU_REQUIRE(contact >= 0 && contact < state.size(),
                 "painleve: contact index {} outside [0, {})", contact, state.size());
  MOREAU_REQUIRE(sigma_override == 0 || sigma_override == 1 || sigma_override == -1,
                 "painleve: sigma_override must be 0 or ±1, got {}", sigma_override);
  const auto& c = state.constraints[contact];
  const Vector w_t = c.tangent.col(0);
  int sigma = sigma_override;
  if (sigma == 0) {
    const double vt = w_t.dot(state.v);
    MOREAU_REQUIRE(
        std::abs(vt) > settings.velocity_tolerance,
        "painleve: contact {} ('{}') is not sliding (v_t = {}); pass sigma_override = ±1", contact,
        c.name, vt);
    sigma = vt > 0 ? 1 : -1;
  }
  return painleve_single(state.M, state.F, c.normal, w_t, c.normal_bias, c.mu, sigma, settings);
}

ScalarMinimum minimize_scalar(const std::function<double(double)>& f, double lo, double hi,
                              int grid, double x_tolerance) {
  MOREAU_REQUIRE(std::isfinite(lo) && std::isfinite(hi) && lo < hi,
                 "minimize_scalar: need a finite interval lo < hi, got [{}, {}]", lo, hi);
  MOREAU_REQUIRE(grid >= 2, "minimize_scalar: grid must be ≥ 2, got {}", grid);
  MOREAU_REQUIRE(x_tolerance > 0.0, "minimize_scalar: x_tolerance must be > 0, got {}",
                 x_tolerance);
  ScalarMinimum out;
  std::vector<double> xs(grid + 1), fs(grid + 1);
  for (int i = 0; i <= grid; ++i) {
    xs[i] = lo + (hi - lo) * i / grid;
    fs[i] = f(xs[i]);
    ++out.evaluations;
    MOREAU_REQUIRE(!std::isnan(fs[i]), "minimize_scalar: f({}) is NaN", xs[i]);
  }
  out.x = xs[0];
  out.value = fs[0];
  for (int i = 0; i <= grid; ++i)
    if (fs[i] < out.value) {
      out.value = fs[i];
      out.x = xs[i];
    }
  if (!std::isfinite(out.value)) return out;
  // Golden-section refinement of every grid local minimum on [x_{i−1}, x_{i+1}].
  const double g = (std::sqrt(5.0) - 1.0) / 2.0;
  for (int i = 0; i <= grid; ++i) {
    const bool left_ok = i == 0 || fs[i] <= fs[i - 1];
    const bool right_ok = i == grid || fs[i] <= fs[i + 1];
    if (!(left_ok && right_ok) || !std::isfinite(fs[i])) continue;
    double a = xs[std::max(0, i - 1)], b = xs[std::min(grid, i + 1)];
    double c = b - g * (b - a), d = a + g * (b - a);
    double fc = f(c), fd = f(d);
    out.evaluations += 2;
    while (b - a > x_tolerance) {
      if (fc < fd) {
        b = d;
        d = c;
        fd = fc;
        c = b - g * (b - a);
        fc = f(c);
      } else {
        a = c;
        c = d;
        fc = fd;
        d = a + g * (b - a);
        fd = f(d);
      }
      ++out.evaluations;
    }
    const double xm = 0.5 * (a + b), fm = f(xm);
    ++out.evaluations;
    if (fm < out.value) {
      out.value = fm;
      out.x = xm;
    }
  }
  return out;
}

ScalarMinimum minimize_critical_friction(const std::function<ContactState(double)>& state_at,
                                         Index contact, int sigma, double lo, double hi, int grid) {
  auto f = [&](double s) {
    const ContactState st = state_at(s);
    st.validate();
    MOREAU_REQUIRE(contact >= 0 && contact < st.size(),
                   "minimize_critical_friction: contact index {} outside [0, {})", contact,
                   st.size());
    const auto& c = st.constraints[contact];
    return critical_friction(st.M, c.normal, c.tangent.col(0), sigma);
  };
  return minimize_scalar(f, lo, hi, grid);
}

// Brogliato 2014 (26), (87), with bilateral rows eliminated by a Schur complement.
SlidingContactLcp sliding_contact_lcp(const Matrix& M, const Vector& F, const Matrix& W, Index m,
                                      const Matrix& H_T, const Vector& c_n, const Vector& mu,
                                      const Vector& xi) {
  const auto llt = checked_mass(M, "sliding_contact_lcp");
  const Index n = M.rows(), k = W.cols(), p = k - m;
  MOREAU_REQUIRE(W.rows() == n && F.size() == n,
                 "sliding_contact_lcp: W must have {} rows and F {} entries", n, n);
  MOREAU_REQUIRE(m >= 0 && m <= k, "sliding_contact_lcp: bilateral_count = {} outside [0, {}]", m,
                 k);
  MOREAU_REQUIRE(
      H_T.rows() == n && H_T.cols() == p,
      "sliding_contact_lcp: H_T must be {}×{} (one tangent per unilateral contact), got {}×{}", n,
      p, H_T.rows(), H_T.cols());
  MOREAU_REQUIRE(c_n.size() == k, "sliding_contact_lcp: c_n must have {} entries, got {}", k,
                 c_n.size());
  MOREAU_REQUIRE(mu.size() == p && xi.size() == p,
                 "sliding_contact_lcp: mu and xi must have {} entries", p);
  MOREAU_REQUIRE(all_finite(F) && all_finite(W) && all_finite(H_T) && all_finite(c_n) &&
                     all_finite(mu) && all_finite(xi),
                 "sliding_contact_lcp: data has a NaN or infinite entry");
  for (Index i = 0; i < p; ++i) {
    MOREAU_REQUIRE(mu[i] >= 0.0, "sliding_contact_lcp: mu[{}] = {} must be ≥ 0", i, mu[i]);
    MOREAU_REQUIRE(xi[i] == 1.0 || xi[i] == -1.0, "sliding_contact_lcp: xi[{}] = {} must be ±1", i,
                   xi[i]);
  }
  MOREAU_REQUIRE(k > 0 && smallest_singular_value(W) > kRankTolerance * largest_singular_value(W),
                 "sliding_contact_lcp: W must have full column rank");
  SlidingContactLcp out;
  const Matrix MinvW = llt.solve(W);
  out.rho = (W.transpose() * MinvW).diagonal().cwiseSqrt();
  const Vector ir = out.rho.cwiseInverse();
  const Matrix n_q = MinvW * ir.asDiagonal();
  Matrix N = ir.asDiagonal() * (W.transpose() * MinvW) * ir.asDiagonal();
  out.coupling = n_q.transpose() * H_T;
  Vector scale(p);
  for (Index i = 0; i < p; ++i) scale[i] = mu[i] * xi[i] / out.rho[m + i];
  const Matrix Pt = -out.coupling * scale.asDiagonal();  // (m+p)×p
  const Vector bfull = ir.asDiagonal() * (c_n - MinvW.transpose() * F);
  if (m == 0) {
    out.G = N;
    out.P = Pt;
    out.D = N + Pt;
    out.b = bfull;
  } else {
    const auto Nbb = N.topLeftCorner(m, m).ldlt();
    const Matrix Nub = N.bottomLeftCorner(p, m);
    out.G = N.bottomRightCorner(p, p) - Nub * Nbb.solve(N.topRightCorner(m, p));
    out.D = out.G + Pt.bottomRows(p) - Nub * Nbb.solve(Pt.topRows(m));
    out.P = out.D - out.G;
    out.b = bfull.tail(p) - Nub * Nbb.solve(bfull.head(m));
  }
  return out;
}

SlidingLcpClassification classify_sliding_lcp(const SlidingContactLcp& lcp, const Vector& mu,
                                              const Vector& xi, Index m) {
  const Index p = lcp.D.rows();
  MOREAU_REQUIRE(mu.size() == p && xi.size() == p,
                 "classify_sliding_lcp: mu and xi must have {} entries", p);
  MOREAU_REQUIRE(lcp.rho.size() == m + p, "classify_sliding_lcp: rho has {} entries, expected {}",
                 lcp.rho.size(), m + p);
  SlidingLcpClassification c;
  const auto pm = p_matrix_test(lcp.D);
  c.p_matrix = pm.is_p_matrix;
  c.min_principal_minor = pm.min_principal_minor;
  c.min_symmetric_eigenvalue = min_symmetric_eigenvalue(lcp.D);
  c.positive_definite = is_positive_definite(lcp.D);
  const auto co = copositivity_test(lcp.D);
  c.copositive = co.copositive;
  c.strictly_copositive = co.strictly_copositive;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // P12: p = 1, D = G − μ ξ c_eff with c_eff = −P/(μξ); μ_c = G/|c_eff| (= 1/|c| when m = 0).
  c.p12_mu_critical = nan;
  if (p == 1) {
    Vector ir = lcp.rho.cwiseInverse();
    double ceff;
    if (m == 0) {
      ceff = lcp.coupling(0, 0) * ir[0];
    } else {
      // c_eff read back from the eliminated P (it does not depend on μ; needs μ > 0).
      ceff = (mu[0] > 0.0) ? -lcp.P(0, 0) / (mu[0] * xi[0]) : nan;
    }
    c.p12_mu_critical =
        std::isnan(ceff) ? nan : (ceff == 0.0 ? kInf : lcp.G(0, 0) / std::abs(ceff));
  }
  // P13: P symmetric ⇒ D(ε) = G + εP ≻ 0 for ε < ε₊ = 1/λ_max(−G^{-½} P G^{-½}).
  c.p13_applicable = p > 0 && is_symmetric(lcp.P);
  c.p13_epsilon_star = nan;
  c.p13_margin = nan;
  if (c.p13_applicable) {
    Eigen::SelfAdjointEigenSolver<Matrix> eg(lcp.G);
    const Matrix Gmh = eg.operatorInverseSqrt();
    const Matrix S = -Gmh * (0.5 * (lcp.P + lcp.P.transpose())) * Gmh;
    const double lmax =
        Eigen::SelfAdjointEigenSolver<Matrix>(S, Eigen::EigenvaluesOnly).eigenvalues().maxCoeff();
    c.p13_epsilon_star = lmax > 0.0 ? 1.0 / lmax : kInf;
    c.p13_margin = c.p13_epsilon_star - 1.0;
  }
  // P14 (m = 0): ‖n_qᵀH_T‖·‖diag(μξ/ρ)‖ < 1/‖G⁻¹‖.
  c.p14_value_frobenius = c.p14_bound_frobenius = c.p14_margin_frobenius = nan;
  c.p14_value_spectral = c.p14_bound_spectral = c.p14_margin_spectral = nan;
  if (m == 0 && p > 0) {
    Vector d(p);
    for (Index i = 0; i < p; ++i) d[i] = mu[i] * xi[i] / lcp.rho[i];
    const Matrix Ginv = lcp.G.ldlt().solve(Matrix::Identity(p, p));
    c.p14_value_frobenius = lcp.coupling.norm() * d.norm();
    c.p14_bound_frobenius = 1.0 / Ginv.norm();
    c.p14_margin_frobenius = c.p14_bound_frobenius - c.p14_value_frobenius;
    c.p14_value_spectral = largest_singular_value(lcp.coupling) * d.cwiseAbs().maxCoeff();
    c.p14_bound_spectral = 1.0 / largest_singular_value(Ginv);
    c.p14_margin_spectral = c.p14_bound_spectral - c.p14_value_spectral;
  }
  return c;
}

}  // namespace moreau
