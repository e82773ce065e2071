#pragma once
// Contact points produced by the narrow phase and by world contact detection.
//
// Convention: the unit normal n points FROM body (shape) B TO body (shape) A, and
//   gap = (x_A − x_B)·n,    x_A, x_B the witness points on the surfaces of A and B,
// so gap > 0 separated, gap < 0 penetrating. A contact is reported when gap ≤ margin.
// Tangent frame: model/contact_frame.hpp, the one convention (3D t₁ from the world axis least
// aligned with n, t₂ = n × t₁; planar t = (n_y, −n_x, 0)). Local velocity of a contact u = [u_n,
// u_t1(, u_t2)] = J v is the velocity of A's witness point relative to B's, projected on the frame.
#include <string>

#include "moreau/model/contact_frame.hpp"
#include "moreau/model/rigid/rigid_world.hpp"

namespace moreau {

// Geometry of one contact point between two shapes (the narrow phase's output).
struct ContactPoint {
  Vector3 point_a = Vector3::Zero();  // witness on A's surface, world, m
  Vector3 point_b = Vector3::Zero();  // witness on B's surface, world, m
  Vector3 normal = Vector3::UnitZ();  // unit, from B to A
  double gap = 0.0;                   // (point_a − point_b)·normal, m
  int feature = 0;                    // index of the feature within the pair (stable for
                                      // vertex–plane contacts: the vertex number), for naming
  bool normal_on_a = false;           // the normal belongs to A's surface (a vertex of B on a
                                      // face of A); false: to B's (the usual case)
};

// A contact in a RigidWorld.
struct Contact {
  // Index of body A in the world.
  Index body_a = 0, body_b = 0;  // index of body B (the static one when one of them is)
  // Index of A's shape within body A.
  Index shape_a = 0, shape_b = 0;       // index of B's shape within body B
  Vector3 point_a = Vector3::Zero();    // witness on A's surface, world, m
  Vector3 point_b = Vector3::Zero();    // witness on B's surface, world, m
  Matrix3 frame = Matrix3::Identity();  // columns n, t₁, t₂ (planar n, t, n × t), world
  double gap = 0.0;                     // m
  int feature = 0;                      // feature index within the pair (see ContactPoint)
  bool normal_on_a = false;             // see ContactPoint (which body carries the normal)
  ContactMaterial material;             // μ, e, law, γ, α, β of the pair
  std::string name;                     // "A/B:<shape a>-<shape b>:<feature>", stable while the
                                        // same features touch; an explicit pair's own name
  Index pair = -1;  // index of the explicit contact pair (model/rigid/contact_pair.hpp), or −1
  // Index of the joint whose limit this contact is (world_contacts.hpp §Joint limits), or −1; a
  // limit has no shapes: shape_a = shape_b = −1 − joint, feature 0 lower, 1 upper.
  Index joint = -1;

  // The unit normal n (first column of frame), from B to A.
  Vector3 normal() const { return frame.col(0); }
  // Midpoint of the two witness points, world, m.
  Vector3 point() const { return 0.5 * (point_a + point_b); }
};

}  // namespace moreau
