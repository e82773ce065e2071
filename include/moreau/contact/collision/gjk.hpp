#pragma once
// Distance and penetration of two convex sets given by support functions: GJK (Gilbert,
// Johnson, Keerthi 1988) for the distance of separated sets with witness points, EPA (van den
// Bergen 2001) for the penetration depth and direction of overlapping sets. Our own
// implementation (no libccd/libfcl): shapes here are small (≤ a few hundred vertices).
#include <functional>
#include <vector>

#include "moreau/common/types.hpp"

namespace moreau {

// argmax_{x ∈ set} d·x in world coordinates.
using SupportFunction = std::function<Vector3(const Vector3& d)>;

// Distance between two convex shapes and their closest points (GJK).
struct ConvexDistance {
  bool intersecting = false;          // true: sets overlap (distance 0, see penetration)
  double distance = 0.0;              // ≥ 0 when separated; −depth when penetrating (EPA)
  Vector3 point_a = Vector3::Zero();  // witness on A, world
  Vector3 point_b = Vector3::Zero();  // witness on B, world
  Vector3 normal = Vector3::UnitZ();  // unit, from B to A (separating / least-penetration axis)
  int iterations = 0;                 // GJK iterations, plus EPA's when it ran
};

// Settings of GJK (iterations, tolerance, m).
struct GjkSettings {
  double tolerance = 1e-10;  // relative convergence of the distance (scaled by set size)
  int max_iterations = 128;  // GJK iteration cap (EPA: twice this)
};

// GJK: distance of separated sets; when they overlap, intersecting = true and the other
// fields are unset (call epa_penetration).
ConvexDistance gjk_distance(const SupportFunction& a, const SupportFunction& b,
                            const GjkSettings& settings = {});
// The same for the convex hulls of two finite point sets (polytope cores, capsule ends), each
// support the first point of largest d·x, evaluated in place (no std::function per call).
ConvexDistance gjk_distance(const std::vector<Vector3>& a, const std::vector<Vector3>& b,
                            const GjkSettings& settings = {});
// Signed distance: GJK, then EPA if the sets overlap (distance = −depth, witness points on
// each surface, normal from B to A).
ConvexDistance convex_signed_distance(const SupportFunction& a, const SupportFunction& b,
                                      const GjkSettings& settings = {});

}  // namespace moreau
