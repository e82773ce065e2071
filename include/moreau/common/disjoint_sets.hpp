#pragma once
// Disjoint sets (union–find with path halving) over the indices 0 … n−1: the connected
// components of a graph given edge by edge. Used for the islands of the contact graph (body-block
// NSGS, sleeping). root(x) is the representative of x's set; join(a, b) merges two sets (a or b
// negative: a fixed body, nothing joined).
#include <numeric>
#include <vector>

#include "moreau/common/types.hpp"

namespace moreau {

// The sets of n indices, each index alone at first.
class DisjointSets {
 public:
  // n singleton sets {0}, {1}, …, {n−1}.
  explicit DisjointSets(Index n) : parent_(static_cast<size_t>(n)) {
    std::iota(parent_.begin(), parent_.end(), Index{0});
  }
  // The representative of x's set.
  Index root(Index x) {
    while (parent_[x] != x) x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  // Merges the sets of a and b; does nothing when either is negative.
  void join(Index a, Index b) {
    if (a >= 0 && b >= 0) parent_[root(a)] = root(b);
  }

 private:
  std::vector<Index> parent_;
};

}  // namespace moreau
