// Energetic consistency tests of impact laws (Brogliato 2014 §3); see energetic_consistency.hpp.
#include "moreau/impact/energetic_consistency.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "moreau/common/error.hpp"

namespace moreau {

namespace {

double spectral(const Matrix& A) {
  if (A.size() == 0) return 0.0;
  return Eigen::JacobiSVD<Matrix>(A).singularValues()(0);
}

ConsistencyCriterion less_than(std::string name, std::string statement, double value,
                               double bound) {
  ConsistencyCriterion c;
  c.name = std::move(name);
  c.statement = std::move(statement);
  c.value = value;
  c.bound = bound;
  c.margin = bound - value;
  c.holds = value < bound;
  return c;
}

}  // namespace

const ConsistencyCriterion& ConsistencyReport::at(const std::string& name) const {
  for (const ConsistencyCriterion& c : criteria)
    if (c.name == name) return c;
  throw_invalid("no consistency criterion named '{}'", name);
}

CopositivityResult copositivity(const Matrix& A, double tolerance) {
  MOREAU_REQUIRE(A.rows() == A.cols() && A.rows() >= 1 && all_finite(A),
                 "copositivity needs a finite square matrix, got {}×{}", A.rows(), A.cols());
  const Index n = A.rows();
  MOREAU_REQUIRE(n <= 16, "the copositivity test enumerates 2ⁿ faces; n = {} exceeds 16", n);
  const Matrix S = 0.5 * (A + A.transpose());
  CopositivityResult res;
  res.minimum = std::numeric_limits<double>::infinity();
  for (long mask = 1; mask < (1L << n); ++mask) {
    std::vector<Index> J;
    for (Index i = 0; i < n; ++i)
      if (mask & (1L << i)) J.push_back(i);
    const Index k = static_cast<Index>(J.size());
    Matrix SJ(k, k);
    for (Index a = 0; a < k; ++a)
      for (Index b = 0; b < k; ++b) SJ(a, b) = S(J[a], J[b]);
    Eigen::SelfAdjointEigenSolver<Matrix> eig(SJ);
    for (Index c = 0; c < k; ++c) {
      Vector x = eig.eigenvectors().col(c);
      if (x.sum() < 0) x = -x;
      if (x.minCoeff() <= 1e-12) continue;  // not a positive vector: not a KKT point of this face
      if (eig.eigenvalues()[c] < res.minimum) {
        res.minimum = eig.eigenvalues()[c];
        res.minimizer = Vector::Zero(n);
        for (Index a = 0; a < k; ++a) res.minimizer[J[a]] = x[a];
      }
    }
  }
  const double scale = std::max(1.0, S.cwiseAbs().maxCoeff());
  res.copositive = res.minimum >= -tolerance * scale;
  res.strictly = res.minimum > tolerance * scale;
  return res;
}

double frictionless_energy_change(const Matrix& G, const Matrix& E, const Vector& q) {
  MOREAU_REQUIRE(
      G.rows() == G.cols() && E.rows() == G.rows() && E.cols() == G.rows() && q.size() == G.rows(),
      "G ({}×{}), E ({}×{}) and q̇_norm ({}) sizes disagree", G.rows(), G.cols(), E.rows(), E.cols(),
      q.size());
  const Eigen::LLT<Matrix> llt(G);
  MOREAU_REQUIRE(llt.info() == Eigen::Success, "G must be symmetric positive definite");
  const Vector Eq = E * q;
  return 0.5 * (Eq.dot(llt.solve(Eq)) - q.dot(llt.solve(q)));
}

ConsistencyReport frictionless_consistency(const Matrix& G, const Matrix& E) {
  MOREAU_REQUIRE(
      G.rows() == G.cols() && G.rows() >= 1 && E.rows() == G.rows() && E.cols() == G.rows(),
      "G ({}×{}) and E ({}×{}) must be square of the same size", G.rows(), G.cols(), E.rows(),
      E.cols());
  const Eigen::LLT<Matrix> llt(G);
  MOREAU_REQUIRE(llt.info() == Eigen::Success && (G - G.transpose()).norm() <= 1e-10 * G.norm(),
                 "G must be symmetric positive definite");
  const Index p = G.rows();
  const Matrix I = Matrix::Identity(p, p);
  const Matrix Gi = llt.solve(I);
  const Matrix A = Gi - E.transpose() * Gi * E;  // −2 T_L form
  ConsistencyReport rep;

  // P2: T_L ≤ 0 for every q̇ ≤ 0 ⇔ A copositive (exact; p ≤ 16).
  if (p <= 16) {
    const CopositivityResult cp = copositivity(A);
    ConsistencyCriterion c;
    c.name = "P2";
    c.statement = "G⁻¹ − EᵀG⁻¹E copositive: min over x ≥ 0, ‖x‖ = 1 of xᵀ(G⁻¹ − EᵀG⁻¹E)x ≥ 0";
    c.exact = true;
    c.value = -cp.minimum;
    c.bound = 0.0;
    c.margin = cp.minimum;
    c.holds = cp.copositive;
    rep.criteria.push_back(c);
    rep.max_energy_gain = -0.5 * cp.minimum;
    rep.worst_velocity = -cp.minimizer;
  }
  // Positive definiteness (sufficient for every q̇, not only q̇ ≤ 0).
  {
    const Eigen::SelfAdjointEigenSolver<Matrix> eig(0.5 * (A + A.transpose()));
    ConsistencyCriterion c;
    c.name = "PD";
    c.statement = "λ_min(sym(G⁻¹ − EᵀG⁻¹E)) ≥ 0 (T_L ≤ 0 for every q̇)";
    c.value = -eig.eigenvalues()(0);
    c.bound = 0.0;
    c.margin = eig.eigenvalues()(0);
    c.holds = eig.eigenvalues()(0) >= -1e-12;
    rep.criteria.push_back(c);
  }
  // P5: if G⁻¹E is symmetric, T_L ≤ 0 ∀q̇ ⇔ every |λ_i(E)| ≤ 1.
  {
    const Matrix GiE = Gi * E;
    ConsistencyCriterion c =
        less_than("P5", "G⁻¹E symmetric ⇒ (T_L ≤ 0 ∀q̇ ⇔ max|λ_i(E)| ≤ 1)",
                  Eigen::EigenSolver<Matrix>(E).eigenvalues().cwiseAbs().maxCoeff(), 1.0);
    c.applicable = (GiE - GiE.transpose()).norm() <= 1e-10 * std::max(1.0, GiE.norm());
    c.exact = true;
    c.holds = c.value <= 1.0 + 1e-12;
    rep.criteria.push_back(c);
  }
  // P6: σ_max(E) ≤ √(λ_min(G)/λ_max(G)).
  {
    const Eigen::SelfAdjointEigenSolver<Matrix> eg(G);
    ConsistencyCriterion c = less_than("P6", "σ_max(E) ≤ √(λ_min(G)/λ_max(G))", spectral(E),
                                       std::sqrt(eg.eigenvalues()(0) / eg.eigenvalues()(p - 1)));
    c.holds = c.value <= c.bound * (1 + 1e-12);
    rep.criteria.push_back(c);
  }
  // P7 (Theorem 3): ‖E‖ < 1/√(‖G⁻¹‖‖G‖), Frobenius and spectral.
  rep.criteria.push_back(less_than("P7_frobenius", "‖E‖_F < 1/√(‖G⁻¹‖_F ‖G‖_F)", E.norm(),
                                   1.0 / std::sqrt(Gi.norm() * G.norm())));
  rep.criteria.push_back(less_than("P7_spectral", "‖E‖_σ < 1/√(‖G⁻¹‖_σ ‖G‖_σ)", spectral(E),
                                   1.0 / std::sqrt(spectral(Gi) * spectral(G))));
  // P8 (i) E ≥ 0, (ii) G⁻¹(I + E) ≥ 0 entrywise, (iii) = P2.
  {
    ConsistencyCriterion c;
    c.name = "P8_i";
    c.statement = "E ≥ 0 entrywise (kinematic consistency, q̇_norm⁺ ≥ 0)";
    c.exact = true;
    c.value = -E.minCoeff();
    c.margin = E.minCoeff();
    c.holds = E.minCoeff() >= -1e-12;
    rep.criteria.push_back(c);
    const Matrix K = Gi * (I + E);
    c.name = "P8_ii";
    c.statement = "G⁻¹(I + E) ≥ 0 entrywise (kinetic consistency, p̄ ≥ 0)";
    c.value = -K.minCoeff();
    c.margin = K.minCoeff();
    c.holds = K.minCoeff() >= -1e-12;
    rep.criteria.push_back(c);
  }
  // P4: with EᵀG⁻¹E = εA (A = EᵀG⁻¹E at ε = 1), G⁻¹ − εA ≻ 0 for ε < ε* = 1/λ_max(G^½AG^½).
  {
    const Matrix L = llt.matrixL();
    const Matrix B = L.transpose() * (E.transpose() * Gi * E) * L;  // similar to G^½AG^½
    const double lmax =
        Eigen::SelfAdjointEigenSolver<Matrix>(0.5 * (B + B.transpose())).eigenvalues()(p - 1);
    ConsistencyCriterion c =
        less_than("P4", "scaling ε = 1 of EᵀG⁻¹E below ε* = 1/λ_max(G^½ EᵀG⁻¹E G^½)", 1.0,
                  lmax > 0 ? 1.0 / lmax : std::numeric_limits<double>::infinity());
    rep.criteria.push_back(c);
  }
  return rep;
}

ConsistencyReport restitution_matrix_consistency(const KineticQuasiVelocities& k, const Matrix& E) {
  const Index n = k.Xi.rows();
  MOREAU_REQUIRE(E.rows() == n && E.cols() == n, "𝓔 must be {}×{}, got {}×{}", n, n, E.rows(),
                 E.cols());
  Matrix D = Matrix::Zero(n, n);
  const Index m = k.D_n.rows();
  D.topLeftCorner(m, m) = k.D_n;
  D.bottomRightCorner(n - m, n - m) = k.D_t;
  const Matrix Di = D.inverse();
  ConsistencyReport rep;
  rep.criteria.push_back(less_than("P9_frobenius", "‖𝓔‖_F < 1/√(‖D⁻¹‖_F ‖D‖_F)", E.norm(),
                                   1.0 / std::sqrt(Di.norm() * D.norm())));
  rep.criteria.push_back(less_than("P9_spectral", "‖𝓔‖_σ < 1/√(‖D⁻¹‖_σ ‖D‖_σ)", spectral(E),
                                   1.0 / std::sqrt(spectral(Di) * spectral(D))));
  // Exact: T_L = ½ v⁻ᵀ(𝓔ᵀD𝓔 − D)v⁻ (64) ≤ 0 ∀v⁻ ⇔ D − 𝓔ᵀD𝓔 ⪰ 0.
  const Matrix A = D - E.transpose() * D * E;
  const double lmin =
      Eigen::SelfAdjointEigenSolver<Matrix>(0.5 * (A + A.transpose())).eigenvalues()(0);
  ConsistencyCriterion c;
  c.name = "PD";
  c.statement = "λ_min(sym(D − 𝓔ᵀD𝓔)) ≥ 0 (T_L ≤ 0 for every v⁻, (64))";
  c.exact = true;
  c.value = -lmin;
  c.margin = lmin;
  c.holds = lmin >= -1e-12;
  rep.criteria.push_back(c);
  return rep;
}

ConsistencyReport frictional_consistency(const KineticQuasiVelocities& k, const Matrix& H_T,
                                         const Vector& mu, const Matrix& E_nn, const Vector& qn,
                                         const Vector& qt, const Vector& xi_in) {
  const Index p = k.size();
  MOREAU_REQUIRE(k.bilateral_count == 0, "frictional consistency assumes no bilateral constraint");
  MOREAU_REQUIRE(H_T.rows() == k.Xi.rows() && H_T.cols() == p,
                 "H_T must be n×p' = {}×{} (one tangent per contact), got {}×{}", k.Xi.rows(), p,
                 H_T.rows(), H_T.cols());
  MOREAU_REQUIRE(mu.size() == p && E_nn.rows() == p && E_nn.cols() == p && qn.size() == p &&
                     qt.size() == k.t_q.cols(),
                 "sizes: μ {} (want {}), E_nn {}×{}, q̇_norm {}, q̇_tan {} (want {})", mu.size(), p,
                 E_nn.rows(), E_nn.cols(), qn.size(), qt.size(), k.t_q.cols());
  const Vector xi = xi_in.size() ? xi_in : Vector::Ones(p);
  MOREAU_REQUIRE(xi.size() == p, "ξ needs {} entries, got {}", p, xi.size());
  const Matrix I = Matrix::Identity(p, p);
  const Matrix G = k.G;
  const Matrix Gi = G.inverse();
  const Matrix mubar = mu.cwiseQuotient(k.rho).asDiagonal();
  const Matrix mubar_xi = mu.cwiseProduct(xi).cwiseQuotient(k.rho).asDiagonal();
  const Matrix C = k.n_q.transpose() * H_T;  // n_qᵀH_T
  ConsistencyReport rep;
  rep.criteria.push_back(less_than("Lemma1_i", "‖G⁻¹‖‖n_qᵀH_T‖‖[μ̄]‖ < 1 ⇒ G − n_qᵀH_T[μ̄] ≻ 0",
                                   spectral(Gi) * spectral(C) * spectral(mubar), 1.0));
  const double en = spectral(E_nn);
  rep.criteria.push_back(less_than(
      "Lemma2", "‖E_nn‖(2 + ‖E_nn‖) < 1/(‖G⁻¹‖‖G‖) ⇒ M̄ ≻ 0 (the paper prints ‖E_nn‖(1 + 2‖E_nn‖))",
      en * (2.0 + en), 1.0 / (spectral(Gi) * spectral(G))));
  const Matrix Eq = (G - C * mubar_xi).completeOrthogonalDecomposition().pseudoInverse();
  const Matrix Mbar = (I - E_nn).transpose() * Gi * (I + E_nn);
  const Matrix TH = k.t_q.transpose() * H_T;
  const Matrix Kmat = (I + E_nn).transpose() * Eq.transpose() * mubar_xi * TH.transpose() * k.D_t *
                      TH * mubar_xi * Eq * (I + E_nn);
  const double lmin =
      Eigen::SelfAdjointEigenSolver<Matrix>(0.5 * (Mbar + Mbar.transpose())).eigenvalues()(0);
  const double lmaxK =
      Eigen::SelfAdjointEigenSolver<Matrix>(0.5 * (Kmat + Kmat.transpose())).eigenvalues()(p - 1);
  {
    ConsistencyCriterion c;
    c.name = "Theorem2_i";
    c.statement = "λ_min(sym M̄) > λ_max(K)";
    c.value = lmaxK;
    c.bound = lmin;
    c.margin = lmin - lmaxK;
    c.holds = lmin > lmaxK;
    rep.criteria.push_back(c);
  }
  {
    ConsistencyCriterion c;
    c.name = "Theorem2_ii";
    c.statement =
        "‖q̇_norm⁻‖/‖q̇_tan⁻‖ ≥ 2‖D_t t_qᵀH_T‖‖[μ̄]‖‖I+E_nn‖‖E(q)‖/(λ_min(M̄) − λ_max(K)) (the "
        "paper omits ‖E(q)‖)";
    const double num =
        2.0 * spectral(k.D_t * TH) * spectral(mubar) * spectral(I + E_nn) * spectral(Eq);
    c.bound = lmin > lmaxK ? num / (lmin - lmaxK) : std::numeric_limits<double>::infinity();
    c.value = qt.norm() > 0 ? qn.norm() / qt.norm() : std::numeric_limits<double>::infinity();
    c.margin = c.value - c.bound;
    c.holds = lmin > lmaxK && c.value >= c.bound;
    rep.criteria.push_back(c);
  }
  // Exact T_L of the slip mode ξ (normal block (49) + tangential terms of (77), with G⁻¹ where
  // (77) prints G: docs/math/impact.md).
  {
    const Vector w = TH * mubar_xi * Eq * (I + E_nn) * qn;
    const double TL = 0.5 * qn.dot((E_nn.transpose() * Gi * E_nn - Gi) * qn) +
                      0.5 * w.dot(k.D_t * w) + qt.dot(k.D_t * w);
    ConsistencyCriterion c;
    c.name = "T_L";
    c.statement = "exact T_L of the slip mode ξ ≤ 0";
    c.exact = true;
    c.value = TL;
    c.margin = -TL;
    c.holds = TL <= 0.0;
    rep.criteria.push_back(c);
    rep.max_energy_gain = TL;
  }
  return rep;
}

}  // namespace moreau
