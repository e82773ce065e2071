#pragma once
// Narrow phase: contact points of two posed shapes with signed distance, normal (from B to A)
// and witness points (conventions in contact.hpp). Every pair of shape kinds is handled:
//
//   closed forms: sphere–sphere, sphere–plane, sphere–box, sphere–capsule, capsule–capsule
//     (segment–segment; parallel overlap → 2 points), box–plane (every corner with
//     gap ≤ margin: 4 points for a face), capsule–plane (both end points), convex–plane (every
//     vertex), cylinder–plane (rim points: the lowest rim point of each cap, or 4 rim points of
//     a cap lying flat), box–box (separating-axis test on 15 axes, then a manifold by clipping
//     the touching features: up to 8 points for face contact).
//   general convex (box, capsule, convex mesh, cylinder, sphere in any other pair): GJK on the
//     polytope cores (radius added afterwards, exact for separated cores), EPA when the cores
//     overlap, then the same feature clipping for a manifold (polytopes and capsules); pairs
//     involving a cylinder (other than with a plane) clip two rings of 8 exact rim points (a flat
//     cap on a face gives up to 8 points, a cylinder lying on its side 2), kept when the set has
//     ≥ 2 points and its smallest gap matches GJK/EPA; otherwise the single GJK/EPA point.
//   plane–plane: none (two static half-spaces).
// In 2D (dimension = 2) the shapes lie in z = 0: boxes and convex polygons are extruded along
// z for the 3D routines and the resulting points projected to z = 0 and merged; cylinders are
// rejected.
#include <vector>

#include "moreau/contact/collision/contact.hpp"

namespace moreau {

// Settings of the narrow phase (contact generation between two shapes).
struct NarrowPhaseSettings {
  double margin = 1e-3;  // report points with gap ≤ margin, m (may be +∞)
  int dimension = 3;     // 2 or 3
};

// Contact points between shape a at pose pa and shape b at pose pb (shape poses in the world,
// i.e. body pose composed with shape offset). Empty when all gaps exceed the margin.
std::vector<ContactPoint> collide(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb,
                                  const NarrowPhaseSettings& settings = {});

// World-frame support function of a posed shape (not planes).
Vector3 world_support(const Shape& shape, const Pose& pose, const Vector3& d);

// A posed plane in the world: its unit outward normal N and a point p0 on its boundary (the
// half-space is N·(x − p0) ≤ 0).
void plane_world(const Shape& plane, const Pose& pose, Vector3& N, Vector3& p0);

}  // namespace moreau
