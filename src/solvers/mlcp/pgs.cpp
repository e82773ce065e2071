#include "moreau/solvers/mlcp/pgs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "moreau/common/error.hpp"
#include "moreau/common/timer.hpp"
#include "moreau/problems/relative_error.hpp"

namespace moreau {

// Projected Gauss–Seidel on the MLCP with the equality block eliminated exactly
// (Cottle, Pang & Stone 2009, §5.2 for PGS; the elimination as in §1.5):
//   u(v) = −A⁻¹(C v + a),  w = S v + s,  S = B − D A⁻¹C,  s = b − D A⁻¹a,
//   vᵢ ← max(0, vᵢ − ω (S_i· v + sᵢ) / S_ii)   (i = 1..m, Gauss–Seidel order)
// i.e. the equality block A u + C v + a = 0 holds after every single update of vᵢ.
// Departure from Siconos' mlcp_pgs, which freezes u during the sweep over v: that scheme
// oscillates for ever on Rectangular_mlcp.dat (A = B = D = 1, C = −1, a = 0, b = −1: it
// alternates v = 0, 1, 0, …), while this one converges whenever S is symmetric positive
// definite and ω ∈ (0, 2) (Cryer 1971), e.g. for B = 0 blocks with a definite S.
// A⁻¹C and A⁻¹a are computed once (FullPivLU; a singular A uses the complete orthogonal
// decomposition, u = −A⁺(C v + a), and the equality then holds only in the least-squares sense:
// the residual shows it). When some S_ii ≤ 0 but every B_ii > 0, the sweep falls back to
// Siconos' scheme (u ← −A⁻¹(C v + a), then vᵢ ← max(0, vᵢ − ω(D_i·u + B_i·v + bᵢ)/B_ii) with u
// frozen). On deltasigma_mlcp.dat (S has zero diagonal entries) that scheme diverges: ‖u‖
// reaches 8e153 in 120 sweeps and the run ends numerical_failure (until 26 Nov 2026 the residual
// read 0 there, finite error over an overflowed norm, and the run was reported converged).
// Neither scheme applicable → numerical_failure. Non-convergence → max_iterations; an iterate
// with a non-finite entry or norm → numerical_failure.
// The residual after each sweep is mlcp_residual, evaluated in preallocated vectors.
MlcpResult solve_mlcp_pgs(const Mlcp& problem, const MlcpPgsSettings& settings,
                          const Vector& guess_v) {
  problem.validate();
  const Index n = problem.equalities(), m = problem.complementarities();
  MOREAU_REQUIRE(settings.relaxation > 0.0 && settings.relaxation < 2.0,
                 "MLCP PGS relaxation ω must be in (0, 2), got {}", settings.relaxation);
  MOREAU_REQUIRE(settings.max_iterations >= 0 && settings.tolerance > 0.0,
                 "MLCP PGS max_iterations {} must be ≥ 0 and tolerance {} > 0",
                 settings.max_iterations, settings.tolerance);
  MOREAU_REQUIRE(guess_v.size() == 0 || guess_v.size() == m,
                 "MLCP PGS guess_v has {} entries, the problem has {} complementarities",
                 guess_v.size(), m);
  MOREAU_REQUIRE(all_finite(guess_v), "MLCP PGS guess_v has a NaN or infinite entry");
  const Stopwatch clock;
  MlcpResult result;
  result.solver = "mlcp_pgs";
  result.u = Vector::Zero(n);
  result.v = guess_v.size() == m && m > 0 ? Vector(guess_v.cwiseMax(0.0)) : Vector(Vector::Zero(m));
  result.residual_history.reserve(static_cast<std::size_t>(settings.max_iterations));

  const Matrix &A = problem.A, &B = problem.B, &C = problem.C, &D = problem.D;
  const Vector &a = problem.a, &b = problem.b;
  auto finish = [&](Status status, std::string message) {
    result.w = D * result.u + B * result.v + b;
    result.residual = mlcp_residual(problem, result.u, result.v);
    result.status = status;
    result.message = std::move(message);
    result.seconds = clock.seconds();
    return result;
  };
  Matrix AinvC(n, m);
  Vector Ainva(n);
  if (n > 0) {
    Eigen::FullPivLU<Matrix> lu(A);
    if (lu.isInvertible()) {
      AinvC = lu.solve(C);
      Ainva = lu.solve(a);
    } else {
      const Eigen::CompleteOrthogonalDecomposition<Matrix> cod(A);
      AinvC = cod.solve(C);
      Ainva = cod.solve(a);
    }
  }
  // Sᵀ (m×m, column i = row i of S, contiguous) and s (m) of the reduced LCP.
  const Matrix St = (B - D * AinvC).transpose();
  const Vector s = b - D * Ainva;
  const bool eliminated = (St.diagonal().array() > 0.0).all();
  const bool frozen_ok = (B.diagonal().array() > 0.0).all();
  if (!eliminated && !frozen_ok) {
    Index i = 0;
    while (St(i, i) > 0.0) ++i;
    return finish(Status::numerical_failure,
                  fmt::format("MLCP PGS needs S_ii > 0 (S = B − D A⁻¹C) or B_ii > 0, but "
                              "S({0},{0}) = {1} and B has a non-positive diagonal entry",
                              i, St(i, i)));
  }
  const Matrix Bt = B.transpose();  // frozen-u variant: row i of B, contiguous
  Vector eq(n), w(m), Du(m);        // workspace
  Vector& u = result.u;
  Vector& v = result.v;
  const double omega = settings.relaxation;
  auto residual = [&]() {
    eq.noalias() = A * u;
    eq.noalias() += C * v;
    eq += a;
    w.noalias() = D * u;
    w.noalias() += B * v;
    w += b;
    double err2 = eq.squaredNorm();
    for (Index i = 0; i < m; ++i) {
      const double t = std::min(v[i], w[i]);
      err2 += t * t;
    }
    return relative_error(std::sqrt(err2), std::max({a.norm(), b.norm(), v.norm(), w.norm()}));
  };

  u.noalias() = -AinvC * v;
  u -= Ainva;
  double res = residual();
  if (res <= settings.tolerance) return finish(Status::converged, {});
  while (result.iterations < settings.max_iterations) {
    if (eliminated) {
      for (Index i = 0; i < m; ++i) {
        const double wi = St.col(i).dot(v) + s[i];
        v[i] = std::max(0.0, v[i] - omega * wi / St(i, i));
      }
    } else {  // Siconos' scheme: u frozen during the sweep
      Du.noalias() = D * u;
      for (Index i = 0; i < m; ++i) {
        const double wi = Du[i] + Bt.col(i).dot(v) + b[i];
        v[i] = std::max(0.0, v[i] - omega * wi / B(i, i));
      }
    }
    ++result.iterations;
    // Equality block at the new v: holds exactly at every returned point.
    u.noalias() = -AinvC * v;
    u -= Ainva;
    res = residual();
    result.residual_history.push_back(res);
    if (!std::isfinite(res))
      return finish(Status::numerical_failure,
                    "MLCP PGS iterate diverged (NaN or infinite entry, or a norm past 1.8e308)");
    if (res <= settings.tolerance) return finish(Status::converged, {});
  }
  return finish(Status::max_iterations,
                fmt::format("MLCP PGS reached {} sweeps with residual {:.3e} > {:.3e}",
                            result.iterations, res, settings.tolerance));
}

}  // namespace moreau
