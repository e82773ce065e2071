// One layer alone (moreau::solvers): Lemke's method on a 2×2 LCP,
//   w = M z + q ≥ 0, z ≥ 0, zᵀw = 0 with M = [2 1; 1 2], q = (−5, −6):
//   both active: z = M⁻¹(−q) = (1/3)·[2 −1; −1 2]·(5, 6) = (4/3, 7/3), w = 0.
#include <cmath>
#include <cstdio>

#include "moreau/solvers/lcp/lemke.hpp"

int main() {
  moreau::Lcp lcp;
  lcp.M.resize(2, 2);
  lcp.M << 2.0, 1.0, 1.0, 2.0;
  lcp.q.resize(2);
  lcp.q << -5.0, -6.0;
  const moreau::LcpResult result = moreau::solve_lemke(lcp);
  const bool ok = result.converged() && std::abs(result.z(0) - 4.0 / 3.0) < 1e-12 &&
                  std::abs(result.z(1) - 7.0 / 3.0) < 1e-12;
  std::printf("lemke: z = (%.6f, %.6f) %s\n", result.z(0), result.z(1), ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
