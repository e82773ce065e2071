#pragma once
// Exact solver of the one-contact frictional problem (the inner step of NSGS):
//   u = W r + q,  û = u + μ‖u_T‖ e_n,  K_μ ∋ r ⊥ û ∈ K*_μ,
// W the d×d diagonal block of the Delassus operator (symmetric or not, any tangential
// anisotropy) and q the local free velocity including the other contacts' impulses.
//
// The three cases of Coulomb's law are enumerated (e.g. Acary & Brogliato 2008, §13.3.2):
//   separation  r = 0                      valid iff q_n ≥ 0
//   stick       u = 0, r = −W⁻¹ q          valid iff r ∈ K_μ
//   slide       u_n = 0, r = r_n (1, μ cos θ, μ sin θ), u_T = −λ (cos θ, sin θ), λ > 0.
// In the slide case r_n = −q_n / (W_n·d(θ)) with d(θ) = (1, μ cos θ, μ sin θ), and the
// remaining condition u_T × (cos θ, sin θ) = 0 multiplied by W_n·d(θ) > 0 is a trigonometric
// polynomial of degree 2 in θ (at most four roots):
//   F(θ) = α_c c + α_s s + β_cc c² + β_ss s² + β_cs c s,   c = cos θ, s = sin θ,
// whose roots are bracketed on a grid and refined by safeguarded Newton; the admissible root
// (W_n·d > 0, u_T·(c, s) < 0) nearest the warm start is kept. In 2D the slide case has the two
// candidates r_t = ±μ r_n, checked in closed form. The returned r is exact up to round-off.
#include <cmath>

#include "moreau/common/types.hpp"

namespace moreau {

// Precomputed data of one diagonal block (d ≤ 3, 2D blocks use the top-left 2×2).
struct ContactBlock {
  Matrix3 W = Matrix3::Zero();       // diagonal block W_ii
  Matrix3 Winv = Matrix3::Zero();    // its inverse when invertible
  bool invertible = false;           // |det W| > 1e-14·‖W‖_max^d (Winv is then set)
  bool decoupled_isotropic = false;  // 3D: W = diag(w_n, w_t, w_t) to 1e-12 (closed-form case)
  // 1/w_n when decoupled_isotropic.
  double inv_wn = 0.0;
  double inv_wt = 0.0;  // 1/w_t when decoupled_isotropic
};

// The one-contact problem of a decoupled isotropic block (W = diag(w_n, w_t, w_t): spheres,
// points on planes), in closed form and inline for the Gauss–Seidel sweeps: r = 0 when q_n ≥ 0,
// else r_n = −q_n/w_n and r_t = −q_t/w_t projected on the disc ‖r_t‖ ≤ μ r_n, which is exact
// (sliding gives u_t = q_t (1 − μ r_n w_t/‖q_t‖), opposite to r_t).
inline void solve_decoupled_isotropic(const ContactBlock& b, const Vector3& q, double mu,
                                      Vector3& r) {
  if (q[0] >= 0.0) {
    r.setZero();
    return;
  }
  const double rn = -q[0] * b.inv_wn;
  double t1 = -q[1] * b.inv_wt, t2 = -q[2] * b.inv_wt;
  const double nt2 = t1 * t1 + t2 * t2, bound = mu * rn;
  if (nt2 > bound * bound) {
    const double scale = bound / std::sqrt(nt2);
    t1 *= scale, t2 *= scale;
  }
  r = Vector3(rn, t1, t2);
}

// Precomputes the block data of the d×d diagonal block W (d = dimension, 2 or 3).
ContactBlock make_contact_block(int dimension, const Matrix3& W);

// Solves the one-contact problem for contact data (block, q, μ); r holds the warm start on entry
// and the solution on exit. Returns false if no case could be certified (r is then the best
// candidate found, a projection of the stick solution). A sliding solution is sought by Newton
// on the slide equation from the warm start's tangential direction, then by scans of the circle.
// With stick_seed, a warm start without a direction (r_n ≤ 0 or r_T = 0, as in a first sweep
// from zero) first tries Newton from the stick solution's tangential direction, which on a
// contact that slides is usually near the slide's (the Rover problems: a sixth fewer
// instructions a solve, the same iterations); it can end on another admissible root than the
// scan's first from θ = 0.
bool solve_one_contact_3d(const ContactBlock& block, const Vector3& q, double mu, Vector3& r,
                          bool stick_seed = false);
// The 2D one-contact problem (same contract as solve_one_contact_3d).
bool solve_one_contact_2d(const ContactBlock& block, const Vector2& q, double mu, Vector2& r);

}  // namespace moreau
