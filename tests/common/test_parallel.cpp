// parallel_for (common/parallel.hpp): the chunks cover [0, n) once, in the split fixed by n and
// the thread count; nested loops run inline; the pool survives many short loops.
#include <gtest/gtest.h>

#include <atomic>
#include <vector>

#include "moreau/common/parallel.hpp"

using namespace moreau;

// Every index is visited exactly once, for loop sizes below, at and above the thread count, and
// chunk k is [n·k/T, n·(k+1)/T): the chunk that holds index i is the same on every run.
TEST(ParallelFor, ChunksCoverTheRangeOnceInAFixedSplit) {
  for (int threads : {1, 2, 3, 4})
    for (Index n : {0, 1, 2, 3, 7, 100, 1001}) {
      std::vector<int> hits(static_cast<size_t>(n), 0);
      std::vector<Index> first_of(static_cast<size_t>(n), -1);
      parallel_for(n, threads, [&](Index b, Index e) {
        for (Index i = b; i < e; ++i) ++hits[i], first_of[i] = b;
      });
      const Index used = std::min<Index>(threads, std::max<Index>(n, 1));
      for (Index i = 0; i < n; ++i) {
        EXPECT_EQ(hits[i], 1) << "n " << n << " threads " << threads << " i " << i;
        Index k = 0;
        while (n * (k + 1) / used <= i) ++k;
        EXPECT_EQ(first_of[i], n * k / used) << "n " << n << " threads " << threads;
      }
    }
}

// A loop inside a loop runs inline on its caller's thread (no deadlock), and 20000 short loops
// in a row (the colours of many Gauss–Seidel sweeps) all complete with the right sums.
TEST(ParallelFor, NestedLoopsRunInlineAndShortLoopsRepeat) {
  std::atomic<long> total{0};
  parallel_for(4, 2, [&](Index b, Index e) {
    for (Index i = b; i < e; ++i)
      parallel_for(10, 2, [&](Index bb, Index ee) { total += ee - bb; });
  });
  EXPECT_EQ(total.load(), 40);
  std::vector<long> sums(2, 0);
  for (int k = 0; k < 20000; ++k)
    parallel_for(2, 2, [&](Index b, Index e) {
      for (Index i = b; i < e; ++i) sums[i] += k;
    });
  EXPECT_EQ(sums[0], 20000L * 19999 / 2);
  EXPECT_EQ(sums[1], 20000L * 19999 / 2);
}
