// The sparse Newton matrix formed in place (the math in newton_block_system.hpp).
#include "newton_block_system.hpp"

#include <algorithm>

namespace moreau::fc_detail {

namespace {

// J's pattern for W's, and where each of W's stored values goes in J's values.
struct BlockPattern {
  int d = 0;
  std::vector<int> w_outer, w_inner;  // W's pattern (the key)
  std::vector<int> outer, inner;      // J's compressed columns
  std::vector<Index> diagonal;        // the position of J_cc, per column c
  std::vector<Index> w_place;         // the position in J of W's k-th stored value
};

bool is_kept(const BlockPattern& p, const SparseMatrix& W, int d) {
  return p.d == d && W.isCompressed() &&
         same_pattern(p.w_outer, p.w_inner, W.outerIndexPtr(), W.innerIndexPtr(), W.outerSize(),
                      W.nonZeros());
}

// Two passes over W's block rows i in increasing order, so that each block column's list of
// block rows comes out sorted: the diagonal block first at its place, then the blocks W touches,
// each once (seen[j] = the last block row that touched block column j). The first pass counts,
// the second places J's row indices and W's values.
void build_pattern(const SparseMatrix& W, int d, BlockPattern& p) {
  const Index m = W.rows(), nb = m / d;
  std::vector<Index> seen(static_cast<size_t>(nb), -1), count(static_cast<size_t>(nb), 0);
  std::vector<Index> slot(static_cast<size_t>(nb), 0);  // block (i, j)'s rank in column j
  for (Index i = 0; i < nb; ++i) {
    ++count[i];
    seen[i] = i;
    for (Index r = d * i; r < d * (i + 1); ++r)
      for (SparseMatrix::InnerIterator it(W, r); it; ++it) {
        const Index j = it.col() / d;
        if (seen[j] != i) {
          seen[j] = i;
          ++count[j];
        }
      }
  }
  p.d = d;
  p.outer.resize(static_cast<size_t>(m + 1));
  Index nnz = 0;
  for (Index j = 0; j < nb; ++j)
    for (int cc = 0; cc < d; ++cc) {
      p.outer[d * j + cc] = static_cast<int>(nnz);
      nnz += count[j] * d;
    }
  p.outer[m] = static_cast<int>(nnz);
  p.inner.resize(static_cast<size_t>(nnz));
  p.diagonal.resize(static_cast<size_t>(m));
  p.w_place.resize(static_cast<size_t>(W.nonZeros()));
  std::fill(seen.begin(), seen.end(), -1);
  std::fill(count.begin(), count.end(), 0);
  auto place = [&](Index i, Index j) {
    slot[j] = count[j]++;
    for (int cc = 0; cc < d; ++cc)
      for (int r = 0; r < d; ++r)
        p.inner[p.outer[d * j + cc] + slot[j] * d + r] = static_cast<int>(d * i + r);
  };
  for (Index i = 0; i < nb; ++i) {
    place(i, i);
    seen[i] = i;
    for (int cc = 0; cc < d; ++cc) p.diagonal[d * i + cc] = p.outer[d * i + cc] + slot[i] * d + cc;
    for (Index r = d * i; r < d * (i + 1); ++r)
      for (Index k = W.outerIndexPtr()[r]; k < W.outerIndexPtr()[r + 1]; ++k) {
        const Index c = W.innerIndexPtr()[k], j = c / d;
        if (seen[j] != i) {
          seen[j] = i;
          place(i, j);
        }
        p.w_place[k] = p.outer[c] + slot[j] * d + (r - d * i);
      }
  }
  p.w_outer.assign(W.outerIndexPtr(), W.outerIndexPtr() + W.outerSize() + 1);
  p.w_inner.assign(W.innerIndexPtr(), W.innerIndexPtr() + W.nonZeros());
}

}  // namespace

// The pattern is kept for the last W seen on this thread (a stack's W keeps its pattern from step
// to step): then only W's values are placed.
NewtonBlockSystem::NewtonBlockSystem(const SparseMatrix& W, int d) : d_(d) {
  thread_local BlockPattern kept;
  SparseMatrix compressed;
  const SparseMatrix* w = &W;
  if (!W.isCompressed()) {
    compressed = W;
    compressed.makeCompressed();
    w = &compressed;
  }
  if (!is_kept(kept, *w, d)) build_pattern(*w, d, kept);
  const Index m = w->rows(), nnz = static_cast<Index>(kept.inner.size());
  J_.resize(m, m);
  J_.resizeNonZeros(nnz);
  std::copy(kept.outer.begin(), kept.outer.end(), J_.outerIndexPtr());
  std::copy(kept.inner.begin(), kept.inner.end(), J_.innerIndexPtr());
  std::fill(J_.valuePtr(), J_.valuePtr() + nnz, 0.0);
  diagonal_ = kept.diagonal;
  W_.assign(static_cast<size_t>(nnz), 0.0);
  const double* values = w->valuePtr();
  for (size_t k = 0; k < kept.w_place.size(); ++k) W_[kept.w_place[k]] = values[k];
}

// J_ij = B_i W_ij + δ_ij (A_i + ε B_i), column by column: in column c, the d entries of block
// row i are B_i times the d entries of W's column c in that block row.
void NewtonBlockSystem::form(const SparseMatrix& A, const SparseMatrix& B, double eps) {
  const int d = d_, dd = d * d;
  const Index m = J_.cols();
  const int* outer = J_.outerIndexPtr();
  const int* inner = J_.innerIndexPtr();
  double* J = J_.valuePtr();
  const double* a = A.valuePtr();
  const double* b = B.valuePtr();
  for (Index c = 0; c < m; ++c) {
    const Index j = c / d, cc = c % d;
    for (Index p = outer[c]; p < outer[c + 1]; p += d) {
      const Index i = inner[p] / d;
      const double* Bi = b + dd * i;
      const double* w = W_.data() + p;
      for (int r = 0; r < d; ++r) {
        double s = 0.0;
        for (int k = 0; k < d; ++k) s += Bi[r * d + k] * w[k];
        J[p + r] = s;
      }
      if (i == j) {
        const double* Ai = a + dd * i;
        for (int r = 0; r < d; ++r) J[p + r] += Ai[r * d + cc] + eps * Bi[r * d + cc];
      }
    }
  }
}

void NewtonBlockSystem::shift_diagonal(double shift) {
  for (const Index p : diagonal_) J_.valuePtr()[p] += shift;
}

SparseMatrix block_diagonal_pattern(Index nc, int d) {
  std::vector<Triplet> t;
  t.reserve(nc * d * d);
  for (Index i = 0; i < nc; ++i)
    for (int a = 0; a < d; ++a)
      for (int b = 0; b < d; ++b) t.emplace_back(d * i + a, d * i + b, 1.0);
  SparseMatrix S(nc * d, nc * d);
  S.setFromTriplets(t.begin(), t.end());
  return S;
}

bool sparse_newton_step(const SparseMatrix& W, const SparseMatrix& A, const SparseMatrix& B,
                        double eps, int d, const Vector& phi, int shift_after, SparseNewtonLU& ws,
                        Vector& delta, ShiftCounts& shifts) {
  if (!ws.system) ws.system.emplace(W, d);
  NewtonBlockSystem& system = *ws.system;
  system.form(A, B, eps);
  const NewtonBlockSystem::ColMajorSparse& J = system.matrix();
  if (!ws.analyzed) {  // the pattern is the system's, fixed for the workspace's problem
    ws.lu.analyzePattern(J);
    ws.analyzed = true;
  }
  if (!ws.shift_at_once) {
    ws.lu.factorize(J);
    if (ws.lu.info() == Eigen::Success) {
      delta = ws.lu.solve(-phi);
      if (delta.allFinite()) {
        ws.singular_in_a_row = 0;
        return true;
      }
    }
    ++shifts.failed;
    ws.shift_at_once = shift_after > 0 && ++ws.singular_in_a_row >= shift_after;
  }
  // J holds its diagonal (the diagonal blocks are in its pattern), so J + shift I has J's
  // pattern and the ordering already computed serves (re-analysing it had been a third of a
  // Capsules-i101-404 solve: two orderings per singular J).
  const double shift =
      1e-10 *
      std::max(1.0, Eigen::Map<const Vector>(J.valuePtr(), J.nonZeros()).cwiseAbs().maxCoeff());
  system.shift_diagonal(shift);
  ++shifts.shifted;
  ws.lu.factorize(J);
  if (ws.lu.info() != Eigen::Success) return false;
  delta = ws.lu.solve(-phi);
  return delta.allFinite();
}

}  // namespace moreau::fc_detail
