#pragma once
// Pieces shared by the LCP solvers (not public API).
#include <vector>

#include "moreau/common/timer.hpp"
#include "moreau/problems/lcp.hpp"

namespace moreau::lcp_detail {

// The principal system of an index set α: M_αα z_α = −q_α (Maa, minus_qa are resized).
inline void principal_system(const Lcp& problem, const std::vector<Index>& alpha, Matrix& Maa,
                             Vector& minus_qa) {
  const Index k = static_cast<Index>(alpha.size());
  Maa.resize(k, k);
  minus_qa.resize(k);
  for (Index r = 0; r < k; ++r) {
    minus_qa[r] = -problem.q[alpha[static_cast<std::size_t>(r)]];
    for (Index c = 0; c < k; ++c)
      Maa(r, c) = problem.M(alpha[static_cast<std::size_t>(r)], alpha[static_cast<std::size_t>(c)]);
  }
}

// Completes a result at the iterate z: w = M z + q, the residual and the time spent.
inline LcpResult& finish_result(const Lcp& problem, const Vector& z, const Stopwatch& clock,
                                LcpResult& result) {
  result.w = problem.M * z + problem.q;
  result.residual = lcp_residual(problem, z);
  result.seconds = clock.seconds();
  return result;
}

}  // namespace moreau::lcp_detail
