#include "moreau/contact/collision/segment_distance.hpp"

#include <algorithm>

namespace moreau {

// The math and its source: segment_distance.hpp. The minimiser over the unit square is either
// interior (the stationary point, when it lies inside) or on an edge s ∈ {0, 1} or t ∈ {0, 1},
// where the other parameter is a clamped projection. All five candidates are pairs of points
// of the segments; the closest is kept. (Clamping the stationary point alone, as in Ericson's
// listing, loses up to the segments' angle times their length when they are nearly parallel
// and a e − b² is round-off.)
SegmentClosestPoints segment_closest_points(const Vector3& p0, const Vector3& p1, const Vector3& q0,
                                            const Vector3& q1) {
  const Vector3 d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const double a = d1.squaredNorm(), e = d2.squaredNorm(), f = d2.dot(r);
  double s = 0.0, t = 0.0;
  if (a > 0.0 && e > 0.0) {
    const double b = d1.dot(d2), c = d1.dot(r);
    // ‖r + s d₁ − t d₂‖² = a s² − 2 b s t + e t² + 2 c s − 2 f t + ‖r‖², up to ‖r‖²
    const auto value = [&](double x, double y) {
      return a * x * x - 2.0 * b * x * y + e * y * y + 2.0 * c * x - 2.0 * f * y;
    };
    double best = INFINITY;
    const auto consider = [&](double x, double y) {
      const double v = value(x, y);
      if (v < best) best = v, s = x, t = y;
    };
    const double denom = a * e - b * b;  // ≥ 0 (Cauchy–Schwarz), 0 when parallel
    if (denom > 0.0) {
      const double x = (b * f - c * e) / denom, y = (a * f - b * c) / denom;
      if (x >= 0.0 && x <= 1.0 && y >= 0.0 && y <= 1.0) consider(x, y);
    }
    consider(0.0, std::clamp(f / e, 0.0, 1.0));
    consider(1.0, std::clamp((b + f) / e, 0.0, 1.0));
    consider(std::clamp(-c / a, 0.0, 1.0), 0.0);
    consider(std::clamp((b - c) / a, 0.0, 1.0), 1.0);
  } else if (a > 0.0) {  // B is a point
    s = std::clamp(-d1.dot(r) / a, 0.0, 1.0);
  } else if (e > 0.0) {  // A is a point
    t = std::clamp(f / e, 0.0, 1.0);
  }
  return {p0 + s * d1, q0 + t * d2, s, t};
}

}  // namespace moreau
