#pragma once
// The one contact-frame convention of moreau (docs/notation.md §"Contact frame"), used by every
// family that builds contacts: the rigid world's collision, the planar and spatial builders of the
// gallery, and the impact layer's rigid laws. Columns (n, t₁, t₂), normal first:
//   3D: t₁ = the unit projection onto the tangent plane of e_k = frame_reference_axis(n) (e_x,
//       or e_y for a normal within 45.6° of ±x), t₂ = n × t₁, so that t₁ × t₂ = n;
//   2D: t = n × ẑ = (n_y, −n_x) (the normal turned clockwise), third column n × t = −ẑ.
// A floor contact (n = e_z in 3D, e_y in 2D) has t₁ = e_x (and t₂ = e_y in 3D), so a sliding
// velocity along +x is a positive u_t and its friction impulse r_t is negative, whichever way the
// contact was built (tests/model/test_contact_frame.cpp).
// The compliant impact of Jia 2010 keeps the paper's own frame (n̂, û, ŵ) with û against the initial
// slip; it reports its impulses in world axes.
#include "moreau/common/types.hpp"

namespace moreau {

// The frame with, given ṅ, its rate (e_k held fixed: smooth except where the choice of k switches).
struct ContactFrame3 {
  // The unit normal n and the tangents t₁, t₂ = n × t₁, world axes.
  // @{
  Vector3 n, t1, t2;
  // @}
  // ṫ₁, the rate of t₁ for the given ṅ, 1/s.
  Vector3 t1_dot = Vector3::Zero(), t2_dot = Vector3::Zero();  // ṫ₂, the rate of t₂, 1/s
};
// k of the world axis e_k that t₁ is projected from: 0 (e_x), or 1 (e_y) when |n_x| ≥ 0.7, so that
// ‖e_k − (e_k·n) n‖ ≥ 0.7. The choice switches only on the cone |n_x| = 0.7 (45.6° about ±x): near
// ±y and ±z, and near ±x, the frame turns continuously with the normal, however it jitters. The
// earlier rule (the axis of the smallest |n_k|) switched between e_x and e_y for a normal near
// e_z as its two tiny components traded places: the tangents turned by 90° from one step to the
// next under a resting box, and with them the warm start's friction impulses (a column of 20
// cubes went to Newton on a quarter of its steps after 6 s; issue 35). Both rules agree on the
// six axis directions.
Index frame_reference_axis(const Vector3& n);

// The 3D frame of the convention above, with its rate for a normal turning at ṅ.
ContactFrame3 contact_frame_3d(const Vector3& n, const Vector3& n_dot = Vector3::Zero());

// The frame as a matrix [n t₁ t₂] for d = 2 or 3 (n is normalized here).
Matrix3 contact_frame(const Vector3& normal, int dimension);

}  // namespace moreau
