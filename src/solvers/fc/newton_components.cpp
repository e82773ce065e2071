// The Newton system solved component by component (the math in newton_components.hpp).
#include "newton_components.hpp"

#include <algorithm>
#include <cstring>

#include "components.hpp"

namespace moreau::fc_detail {

namespace {

// Copies block i of a block-diagonal pattern's values (block_diagonal_pattern) to block k of
// another's.
void copy_block(const SparseMatrix& from, Index i, SparseMatrix& to, Index k, int d) {
  std::memcpy(to.valuePtr() + to.outerIndexPtr()[d * k],
              from.valuePtr() + from.outerIndexPtr()[d * i], sizeof(double) * d * d);
}

}  // namespace

std::unique_ptr<ComponentNewtonSystem> ComponentNewtonSystem::make(
    const FrictionContactProblem& p) {
  const std::vector<std::vector<Index>> components = contact_components(p);
  if (components.size() < 2) return nullptr;
  const int d = p.dimension;
  auto system = std::make_unique<ComponentNewtonSystem>();
  ComponentNewtonSystem& s = *system;
  s.d_ = d;
  std::vector<Index> local(static_cast<size_t>(p.contacts()), -1);
  for (const std::vector<Index>& c : components) {
    if (d * static_cast<Index>(c.size()) > kDenseComponentRows) {
      s.sparse_contacts_.insert(s.sparse_contacts_.end(), c.begin(), c.end());
      continue;
    }
    for (size_t k = 0; k < c.size(); ++k) local[c[k]] = static_cast<Index>(k);
    DenseComponent& dc = s.dense_.emplace_back();
    dc.contacts = c;
    const Index m = d * static_cast<Index>(c.size());
    dc.W = Matrix(component_problem(p, c, local).W);  // W_CC (W's stored zeros left out)
    dc.b.resize(m);
    dc.x.resize(m);
  }
  if (s.dense_.empty()) return nullptr;
  if (!s.sparse_contacts_.empty()) {
    std::sort(s.sparse_contacts_.begin(), s.sparse_contacts_.end());
    for (size_t k = 0; k < s.sparse_contacts_.size(); ++k)
      local[s.sparse_contacts_[k]] = static_cast<Index>(k);
    const Index n = static_cast<Index>(s.sparse_contacts_.size());
    s.W_sparse_ = component_problem(p, s.sparse_contacts_, local).W;
    s.A_sparse_ = block_diagonal_pattern(n, d);
    s.B_sparse_ = s.A_sparse_;
    s.phi_sparse_.resize(d * n);
  }
  return system;
}

bool ComponentNewtonSystem::step(const SparseMatrix& A, const SparseMatrix& B, double eps,
                                 const Vector& phi, int shift_after, Vector& delta,
                                 ShiftCounts& shifts) {
  const int d = d_;
  bool shifted = false, failed = false;
  double max_abs = 0.0;  // max |J_ij| over the dense components: their shift's scale
  for (DenseComponent& c : dense_) {
    const Index n = static_cast<Index>(c.contacts.size()), m = d * n;
    c.J.resize(m, m);
    // row block k of J_CC: B_i (W_C)_k,: + (A_i + ε B_i) at the diagonal block (i = contact k)
    for (Index k = 0; k < n; ++k) {
      const Index i = c.contacts[k];
      form_dense_row_block(A, B, c.W, eps, d, i, k, c.J);
      c.b.segment(d * k, d) = -phi.segment(d * i, d);
    }
    max_abs = std::max(max_abs, c.J.cwiseAbs().maxCoeff());
  }
  const double shift = 1e-10 * std::max(1.0, max_abs);
  for (DenseComponent& c : dense_) {
    const Index n = static_cast<Index>(c.contacts.size());
    c.x = c.b;
    bool done = false;
    if (!c.shift_at_once) {
      c.lu.compute(c.J);
      c.lu.solve_in_place(c.x);
      done = c.x.allFinite() && c.lu.smallest_pivot() > kSingularPivot * max_abs;
      if (done) {
        c.singular_in_a_row = 0;
      } else {
        failed = true;
        c.shift_at_once = shift_after > 0 && ++c.singular_in_a_row >= shift_after;
        c.x = c.b;
      }
    }
    if (!done) {
      c.J.diagonal().array() += shift;
      shifted = true;
      c.lu.compute(c.J);
      c.lu.solve_in_place(c.x);
      if (!c.x.allFinite()) {
        shifts.shifted += 1;
        shifts.failed += failed ? 1 : 0;
        return false;
      }
    }
    for (Index k = 0; k < n; ++k) delta.segment(d * c.contacts[k], d) = c.x.segment(d * k, d);
  }
  if (!sparse_contacts_.empty()) {
    const Index n = static_cast<Index>(sparse_contacts_.size());
    for (Index k = 0; k < n; ++k) {
      const Index i = sparse_contacts_[k];
      copy_block(A, i, A_sparse_, k, d);
      copy_block(B, i, B_sparse_, k, d);
      phi_sparse_.segment(d * k, d) = phi.segment(d * i, d);
    }
    ShiftCounts part;
    const bool ok = sparse_newton_step(W_sparse_, A_sparse_, B_sparse_, eps, d, phi_sparse_,
                                       shift_after, sparse_, delta_sparse_, part);
    shifted = shifted || part.shifted > 0;
    failed = failed || part.failed > 0;
    if (!ok) {
      shifts.shifted += shifted ? 1 : 0;
      shifts.failed += failed ? 1 : 0;
      return false;
    }
    for (Index k = 0; k < n; ++k)
      delta.segment(d * sparse_contacts_[k], d) = delta_sparse_.segment(d * k, d);
  }
  shifts.shifted += shifted ? 1 : 0;
  shifts.failed += failed ? 1 : 0;
  return true;
}

}  // namespace moreau::fc_detail
