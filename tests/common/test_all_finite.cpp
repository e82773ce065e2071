// all_finite on sparse matrices: the compressed storage is checked in one branch-free pass
// (Σ v·0 is NaN exactly when some v is ±inf or NaN), uncompressed storage entry by entry.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "moreau/common/error.hpp"

using namespace moreau;

namespace {

SparseMatrix with_entry(double x, bool compressed) {
  SparseMatrix A(40, 40);
  for (Index i = 0; i < 40; ++i) {
    A.insert(i, i) = 1.0 + static_cast<double>(i);
    if (i + 3 < 40) A.insert(i, i + 3) = -0.5;
  }
  A.insert(17, 2) = x;  // the entry under test, among 77 finite ones
  if (compressed) A.makeCompressed();
  return A;
}

}  // namespace

TEST(AllFinite, SparseMatricesAreCheckedCompressedOrNot) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double big = std::numeric_limits<double>::max();
  const double tiny = std::numeric_limits<double>::denorm_min();
  for (const bool compressed : {true, false}) {
    EXPECT_EQ(with_entry(inf, compressed).isCompressed(), compressed);
    for (const double bad : {inf, -inf, nan, -nan})
      EXPECT_FALSE(all_finite(with_entry(bad, compressed))) << bad << " " << compressed;
    for (const double good : {0.0, -0.0, big, -big, tiny, 3.5})
      EXPECT_TRUE(all_finite(with_entry(good, compressed))) << good << " " << compressed;
  }
  EXPECT_TRUE(all_finite(SparseMatrix(5, 5)));  // nothing stored
}
