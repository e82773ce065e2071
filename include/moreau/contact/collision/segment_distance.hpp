#pragma once
// Closest points of two segments in closed form, for the cores of spheres (a segment of length
// 0) and capsules: what GJK finds for them iteratively, found in a few dozen flops.
#include "moreau/common/types.hpp"

namespace moreau {

/// The closest points of two segments and their parameters along each.
struct SegmentClosestPoints {
  Vector3 on_a = Vector3::Zero();  ///< P₀ + s (P₁ − P₀), the closest point of segment A, world
  Vector3 on_b = Vector3::Zero();  ///< Q₀ + t (Q₁ − Q₀), the closest point of segment B, world
  double s = 0.0;                  ///< position along A in [0, 1]
  double t = 0.0;                  ///< position along B in [0, 1]
};

/// The closest points of segments [P₀, P₁] and [Q₀, Q₁] (either may have length 0: a point).
/// Ericson, Real-Time Collision Detection (2005), §5.1.9: minimise the convex quadratic
/// ‖P(s) − Q(t)‖² over the unit square, with a = d₁·d₁, b = d₁·d₂, c = d₁·r, e = d₂·d₂,
/// f = d₂·r, r = P₀ − Q₀, d₁ = P₁ − P₀, d₂ = Q₁ − Q₀. Its stationary point is
/// s = (b f − c e)/(a e − b²), t = (a f − b c)/(a e − b²); when it is outside the square the
/// minimum is on an edge, where the other parameter is a clamped projection (s = 0:
/// t = clamp(f/e)). The least of these candidates is returned, which stays exact for nearly
/// parallel segments, where a e − b² is round-off.
SegmentClosestPoints segment_closest_points(const Vector3& p0, const Vector3& p1, const Vector3& q0,
                                            const Vector3& q1);

}  // namespace moreau
