// sin_cos (common/sin_cos.hpp) against the C library's cos and sin, and at the angles whose values
// are known exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "moreau/common/sin_cos.hpp"

namespace moreau {
namespace {

// Within 4 ulps of 1 (absolute 9e-16) of std::cos and std::sin on 100,000 random angles in
// [−8π, 8π] and on the grid angles 2πk/1024 of the one-contact solver; c² + s² = 1 to 4e-16.
TEST(SinCos, MatchesTheCLibrary) {
  const double pi = 3.14159265358979323846;
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> angle(-8 * pi, 8 * pi);
  const double tol = 4 * std::numeric_limits<double>::epsilon();
  for (int k = 0; k < 100000; ++k) {
    const double t = k < 1025 ? 2 * pi * k / 1024 : angle(rng);
    const SinCos x = sin_cos(t);
    ASSERT_NEAR(x.c, std::cos(t), tol) << t;
    ASSERT_NEAR(x.s, std::sin(t), tol) << t;
    ASSERT_NEAR(x.c * x.c + x.s * x.s, 1.0, 2 * tol) << t;
  }
}

// The quadrant turns are exact: the quarter turns give 0 and ±1 to an ulp of π/2's remainder,
// and the octants ±√½.
TEST(SinCos, KnownAngles) {
  const double pi = 3.14159265358979323846;
  EXPECT_EQ(sin_cos(0.0).c, 1.0);
  EXPECT_EQ(sin_cos(0.0).s, 0.0);
  EXPECT_EQ(sin_cos(pi / 2).s, 1.0);
  EXPECT_NEAR(sin_cos(pi / 2).c, 0.0, 1e-16);
  EXPECT_EQ(sin_cos(pi).c, -1.0);
  EXPECT_EQ(sin_cos(-pi / 2).s, -1.0);
  EXPECT_NEAR(sin_cos(pi / 4).c, std::sqrt(0.5), 2e-16);
  EXPECT_NEAR(sin_cos(-3 * pi / 4).s, -std::sqrt(0.5), 2e-16);
}

}  // namespace
}  // namespace moreau
