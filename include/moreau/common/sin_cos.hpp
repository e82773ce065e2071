#pragma once
// (cos θ, sin θ) computed here rather than by the C library: θ = n π/2 + φ with |φ| ≤ π/4 (π/2 in
// three parts, Cody and Waite's reduction, so φ is exact to an ulp for |θ| ≤ 8π), the Taylor series
// of cos φ and sin φ to φ¹⁶ and φ¹⁷ (remainders below (π/4)¹⁸/18! ≈ 2e-18 and (π/4)¹⁹/19! ≈ 8e-20,
// under a hundredth of an ulp of 1), then the quadrant n turns (c, s) exactly. Within a few ulps of
// std::cos and std::sin for |θ| ≤ 8π (tests/common/test_sin_cos.cpp).
//
// Why: the first call of libm's cos in a process costs ~80 µs on a 2-core VM (its code and tables
// paged in), and the one-contact solver's first slide solve made 1,057 such calls to build its
// angle grids: 190–250 µs of a 300 µs first `moreau solve` of FCLIB's Rover3865, whose later
// solves take 15 µs (issue 35: a fixed cost in every first solve).

namespace moreau {

namespace detail {
// 1/(k(k−1)) for k = 0 … 17 (0 where unused), rounded once at compile time, so that the series'
// terms multiply instead of divide: a division per term (19 of them, 13–20 cycles each) took a
// tenth of a Rover3865 solve's time, in the one-contact solver's slide-root refinement.
struct InverseFactors {
  double v[18] = {};  // v[k] = 1/(k(k−1)) for k ≥ 2
  constexpr InverseFactors() {
    for (int k = 2; k < 18; ++k) v[k] = 1.0 / static_cast<double>(k * (k - 1));
  }
};
// The one table of the factors.
inline constexpr InverseFactors kInverseFactors;
}  // namespace detail

// The cosine and sine of one angle.
struct SinCos {
  double c = 1.0;  // cos θ
  double s = 0.0;  // sin θ
};

// cos θ and sin θ to a few ulps for |θ| ≤ 8π, by the header's reduction and series.
constexpr SinCos sin_cos(double theta) {
  // π/2 = p1 + p2 + p3, p1 and p2 with 33 significant bits: n p1 and n p2 are exact for |n| < 2²⁰
  constexpr double p1 = 1.57079632673412561417e+00, p2 = 6.07710050630396597660e-11,
                   p3 = 2.02226624879595063154e-21;
  const double x = theta / 1.5707963267948966;
  const long n = static_cast<long>(x >= 0.0 ? x + 0.5 : x - 0.5);  // nearest quadrant, no libm
  const double nd = static_cast<double>(n);
  const double phi = ((theta - nd * p1) - nd * p2) - nd * p3;
  const double pp = phi * phi;
  // Horner from the highest term: cos φ = 1 − φ²/(2·1) (1 − φ²/(4·3) (1 − …)), sin φ likewise
  const double* inv = detail::kInverseFactors.v;
  double c = 1.0, s = 1.0;
  for (int k = 16; k >= 2; k -= 2) c = 1.0 - pp * inv[k] * c;
  for (int k = 17; k >= 3; k -= 2) s = 1.0 - pp * inv[k] * s;
  s *= phi;
  switch (n & 3) {
    case 0:
      return {c, s};
    case 1:
      return {-s, c};
    case 2:
      return {-c, -s};
    default:
      return {s, -c};
  }
}

}  // namespace moreau
