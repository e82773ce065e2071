#include "moreau/solvers/fc/local_solver.hpp"

#include <array>
#include <cmath>
#include <limits>

#include "moreau/common/first_solve_path.hpp"
#include "moreau/common/sin_cos.hpp"
#include "moreau/problems/coulomb_cone.hpp"

namespace moreau {

MOREAU_FIRST_SOLVE_PATH ContactBlock make_contact_block(int dimension, const Matrix3& W) {
  ContactBlock b;
  b.W = W;
  if (dimension == 3) {
    // closed-form (cofactor) inverse; invertible when |det W| > 1e-14 ‖W‖³ (max-entry norm),
    // the 3×3 analogue of the 2D test below
    const double det = W.determinant();
    const double scale = W.cwiseAbs().maxCoeff();
    b.invertible = scale > 0.0 && std::abs(det) > 1e-14 * scale * scale * scale;
    if (b.invertible) b.Winv = W.inverse();
    // normal and tangential directions decoupled, tangential block isotropic (spheres, discs)
    const double tol = 1e-12 * W.cwiseAbs().maxCoeff();
    b.decoupled_isotropic = W(0, 0) > 0.0 && std::abs(W(0, 1)) <= tol && std::abs(W(0, 2)) <= tol &&
                            std::abs(W(1, 0)) <= tol && std::abs(W(2, 0)) <= tol &&
                            std::abs(W(1, 2)) <= tol && std::abs(W(2, 1)) <= tol &&
                            std::abs(W(1, 1) - W(2, 2)) <= tol && W(1, 1) > 0.0;
    if (b.decoupled_isotropic) b.inv_wn = 1.0 / W(0, 0), b.inv_wt = 1.0 / W(1, 1);
  } else {
    const Matrix2 W2 = W.topLeftCorner<2, 2>();
    const double det = W2.determinant();
    const double scale = W2.cwiseAbs().maxCoeff();
    b.invertible = scale > 0.0 && std::abs(det) > 1e-14 * scale * scale;
    if (b.invertible) b.Winv.topLeftCorner<2, 2>() = W2.inverse();
  }
  return b;
}

namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

// F(θ) = α_c c + α_s s + β_cc c² + β_ss s² + β_cs c s (see the header) and its derivative dF/dθ,
// both taken at (c, s) = (cos θ, sin θ), which the callers already hold.
struct SlideFunction {
  double ac, as, bcc, bss, bcs;
  double value(double c, double s) const {
    return ac * c + as * s + bcc * c * c + bss * s * s + bcs * c * s;
  }
  double derivative(double c, double s) const {
    return -ac * s + as * c + 2.0 * (bss - bcc) * s * c + bcs * (c * c - s * s);
  }
};

// (cos, sin) of the scan's grid angles 2πk/N, k = 0 … N, for N = 32 and 1024: the scan evaluates
// F there on every slide solve, and the cosines cost more than F itself. Both tables are computed
// by the compiler (sin_cos, common/sin_cos.hpp, is constexpr; its values are those of a call at
// run time), so a first solve neither builds them nor takes the guard of a function-local static,
// whose symbols the dynamic linker binds on their first call; the fine table (16 KB of read-only
// data) is paged in only when a coarse scan finds no root. sin_cos also turns refine_root and
// newton_slide's large steps, instead of libm (its first call in a process costs ~80 µs here).
template <int N>
struct AngleGrid {
  std::array<double, N + 1> c{}, s{};
  constexpr AngleGrid() {
    for (int k = 0; k <= N; ++k) {
      const SinCos x = sin_cos(kTwoPi * k / N);
      c[k] = x.c, s[k] = x.s;
    }
  }
};
constexpr AngleGrid<32> kCoarseGrid;
constexpr AngleGrid<1024> kFineGrid;

// Candidate slide solution at the direction (c, s) = (cos θ, sin θ); true when admissible
// (W_n·d > 0, u_T·(c, s) ≤ 0).
MOREAU_FIRST_SOLVE_PATH bool slide_candidate(const Matrix3& W, const Vector3& q, double mu,
                                             double c, double s, double utol, Vector3& r) {
  const Vector3 d(1.0, mu * c, mu * s);
  const double D = W.row(0).dot(d);
  if (!(D > 0.0)) return false;
  const double rn = -q[0] / D;
  if (!(rn > 0.0)) return false;
  r = rn * d;
  const Vector3 u = W * r + q;
  return u[1] * c + u[2] * s <= utol;
}

// Safeguarded Newton on [a, b] with F(a)·F(b) < 0.
MOREAU_FIRST_SOLVE_PATH double refine_root(const SlideFunction& F, double a, double b, double fa) {
  double x = 0.5 * (a + b);
  for (int k = 0; k < 80; ++k) {
    const auto [c, s] = sin_cos(x);
    const double fx = F.value(c, s);
    if (fx == 0.0) return x;
    if ((fx < 0.0) == (fa < 0.0)) {
      a = x;
      fa = fx;
    } else {
      b = x;
    }
    const double dfx = F.derivative(c, s);
    double xn = dfx != 0.0 ? x - fx / dfx : 0.5 * (a + b);
    // a Newton step below a few ulps: x is the root to rounding (testing this before the bracket
    // check matters: once x has become an end of the bracket, the step lands on it and the
    // bisection fallback would crawl on for another ~40 halvings)
    if (dfx != 0.0 && std::abs(xn - x) <= 1e-15 * (1.0 + std::abs(x)))
      return xn > a && xn < b ? xn : x;
    if (!(xn > a && xn < b)) xn = 0.5 * (a + b);
    if (b - a <= 4e-16 * (1.0 + std::abs(a))) return xn;
    x = xn;
  }
  return x;
}

// Newton on F from the direction (c, s) = (cos θ, sin θ) (the previous sliding direction),
// carried as that unit vector and turned by each step δ = F/F′: (c, s) ← (c cos δ + s sin δ,
// s cos δ − c sin δ), θ ← θ − δ. Small turns (|δ| < 1e-3) use the Taylor series of sin to δ⁵ and
// of cos to δ⁴ (errors below δ⁷/5040 and δ⁶/720, < 1e-20), so a converging solve calls no
// trigonometric function. It stops at a step below 4e-15 (|θ| ≤ π, so the angle test
// 1e-15·(1 + |θ|)). True with r set when the root is an admissible slide solution
// (slide_candidate); r untouched otherwise.
// (Tried and left out, 29 Nov 2026: stopping one step earlier, once |F″/(2F′)| δ² < 1e-16. Exact
// to round-off and 10–25 % faster on FCLIB's Rover problems, but its round-off changed the paths
// of the newton schedule, whose stalls NSGS sweeps handle: CubesStack-6x6x6 135 → 26 iterations,
// fclib-api-test/local_problem_test 151 → 250, below Fischer–Burmeister alone, which the
// schedule's regression test forbids. Seeding a first sweep's Newton from the stick direction and
// from the scan's brackets moved them too: CubesStack-6x6x6 to 1911. The stick seed is now on
// where those paths do not pass, in NSGS and hybrid (solve_one_contact_3d's stick_seed), and off
// in Newton's sweeps after a stalled line search: 1 Dec 2026.)
MOREAU_FIRST_SOLVE_PATH bool newton_slide(const SlideFunction& F, const Matrix3& W,
                                          const Vector3& q, double mu, double utol, double c,
                                          double s, Vector3& r) {
  for (int k = 0; k < 12; ++k) {
    const double f = F.value(c, s), df = F.derivative(c, s);
    if (df == 0.0) return false;
    const double step = f / df;
    if (std::abs(step) > 0.5) return false;
    double cd, sd;
    if (std::abs(step) < 1e-3) {
      const double d2 = step * step;
      cd = 1.0 - 0.5 * d2 * (1.0 - d2 / 12.0);
      sd = step * (1.0 - d2 / 6.0 * (1.0 - d2 / 20.0));
    } else {
      const SinCos x = sin_cos(step);
      cd = x.c, sd = x.s;
    }
    const double cn = c * cd + s * sd, sn = s * cd - c * sd;
    const double inv_norm = 1.0 / std::sqrt(cn * cn + sn * sn);
    c = cn * inv_norm, s = sn * inv_norm;
    if (std::abs(step) <= 4e-15) {
      Vector3 cand;
      if (!slide_candidate(W, q, mu, c, s, utol, cand)) return false;
      r = cand;
      return true;
    }
  }
  return false;
}

// A measure increasing with the angle between the directions (c, s) and (c0, s0) over [0, π]:
// 1 − cos of that angle (no atan2, whose first call in a process costs as cos's does).
double direction_distance(double c, double s, double c0, double s0) {
  return 1.0 - (c * c0 + s * s0);
}

// Scans the N angles of a grid for admissible roots of F: the one nearest the direction (c0, s0)
// when have_theta0, else the first from θ = 0.
template <int N>
MOREAU_FIRST_SOLVE_PATH bool scan_slide(const AngleGrid<N>& grid, const SlideFunction& F,
                                        const Matrix3& W, const Vector3& q, double mu, double utol,
                                        double c0, double s0, bool have_theta0, Vector3& r) {
  double best = std::numeric_limits<double>::infinity();
  bool found = false;
  Vector3 cand;
  double t_prev = 0.0, f_prev = F.value(grid.c[0], grid.s[0]);
  for (int k = 1; k <= N; ++k) {
    const double t = kTwoPi * k / N;
    const double f = F.value(grid.c[k], grid.s[k]);
    double root;
    bool has = false;
    if (f_prev == 0.0) {
      root = t_prev;
      has = true;
    } else if ((f < 0.0) != (f_prev < 0.0) && f != 0.0) {
      root = refine_root(F, t_prev, t, f_prev);
      has = true;
    }
    const SinCos x = has ? sin_cos(root) : SinCos{1.0, 0.0};
    if (has && slide_candidate(W, q, mu, x.c, x.s, utol, cand)) {
      const double dist = have_theta0 ? direction_distance(x.c, x.s, c0, s0) : 0.0;
      if (dist < best) {
        best = dist;
        r = cand;
        found = true;
        if (!have_theta0) return true;
      }
    }
    t_prev = t;
    f_prev = f;
  }
  return found;
}

}  // namespace

// Enumeration separation / stick / slide (header). The slide equation F(θ) = 0 comes from
// u_T ∥ −(cos θ, sin θ) with r_n eliminated by u_n = 0; expanding
//   D(θ)·(u_T1 s − u_T2 c),  D = a + μ(b1 c + b2 s),  W = [a b1 b2; c1 e11 e12; c2 e21 e22],
// gives the coefficients below.
MOREAU_FIRST_SOLVE_PATH bool solve_one_contact_3d(const ContactBlock& block, const Vector3& q,
                                                  double mu, Vector3& r, bool stick_seed) {
  const Matrix3& W = block.W;
  if (q[0] >= 0.0) {  // separation
    r.setZero();
    return true;
  }
  if (!(W(0, 0) > 0.0)) return false;
  if (mu == 0.0) {
    // Frictionless: r_T = 0, u_n = 0 (q_n < 0).
    r = Vector3(-q[0] / W(0, 0), 0.0, 0.0);
    return true;
  }
  if (block.decoupled_isotropic) {
    solve_decoupled_isotropic(block, q, mu, r);
    return true;
  }
  Vector3 stick = Vector3::Zero();
  if (block.invertible) {
    stick = -block.Winv * q;
    const double tn = std::sqrt(stick[1] * stick[1] + stick[2] * stick[2]);
    if (stick[0] > 0.0 && tn <= mu * stick[0] * (1.0 + 1e-12)) {
      r = stick;
      return true;
    }
  }
  // Slide.
  const double a = W(0, 0), b1 = W(0, 1), b2 = W(0, 2);
  const double c1 = W(1, 0), c2 = W(2, 0);
  const double e11 = W(1, 1), e12 = W(1, 2), e21 = W(2, 1), e22 = W(2, 2);
  const double qn = q[0], q1 = q[1], q2 = q[2];
  const SlideFunction F{qn * c2 - a * q2, -qn * c1 + a * q1, qn * mu * e21 - mu * b1 * q2,
                        -qn * mu * e12 + mu * b2 * q1,
                        -qn * mu * (e11 - e22) + mu * (b1 * q1 - b2 * q2)};
  const double utol = 1e-11 * (q.norm() + W.norm() * std::abs(qn) / a);
  const double tn0 = std::sqrt(r[1] * r[1] + r[2] * r[2]);
  const bool have_theta0 = r[0] > 0.0 && tn0 > 0.0;
  if (have_theta0 && newton_slide(F, W, q, mu, utol, r[1] / tn0, r[2] / tn0, r)) return true;
  if (stick_seed && !have_theta0) {
    const double ts = std::sqrt(stick[1] * stick[1] + stick[2] * stick[2]);
    if (ts > 0.0 && newton_slide(F, W, q, mu, utol, stick[1] / ts, stick[2] / ts, r)) return true;
  }
  // the previous sliding direction, to which the scans keep the nearest root
  const double c0 = have_theta0 ? r[1] / tn0 : 1.0, s0 = have_theta0 ? r[2] / tn0 : 0.0;
  if (scan_slide(kCoarseGrid, F, W, q, mu, utol, c0, s0, have_theta0, r)) return true;
  if (scan_slide(kFineGrid, F, W, q, mu, utol, c0, s0, have_theta0, r)) return true;
  // No certified case: return the projection of the stick solution (or keep r).
  if (block.invertible) r = project_on_coulomb_cone(stick, mu);
  return false;
}

bool solve_one_contact_2d(const ContactBlock& block, const Vector2& q, double mu, Vector2& r) {
  const Matrix2 W = block.W.topLeftCorner<2, 2>();
  if (q[0] >= 0.0) {
    r.setZero();
    return true;
  }
  if (!(W(0, 0) > 0.0)) return false;
  if (mu == 0.0) {
    r = Vector2(-q[0] / W(0, 0), 0.0);
    return true;
  }
  Vector2 stick = Vector2::Zero();
  if (block.invertible) {
    stick = -block.Winv.topLeftCorner<2, 2>() * q;
    if (stick[0] > 0.0 && std::abs(stick[1]) <= mu * stick[0] * (1.0 + 1e-12)) {
      r = stick;
      return true;
    }
  }
  const double utol = 1e-11 * (q.norm() + W.norm() * std::abs(q[0]) / W(0, 0));
  // Try the sign of the warm start first.
  const double first = r[1] < 0.0 ? -1.0 : 1.0;
  for (double sigma : {first, -first}) {
    const Vector2 d(1.0, sigma * mu);
    const double D = W.row(0).dot(d);
    if (!(D > 0.0)) continue;
    const double rn = -q[0] / D;
    const Vector2 cand = rn * d;
    const double ut = W.row(1).dot(cand) + q[1];
    if (sigma * ut <= utol) {
      r = cand;
      return true;
    }
  }
  if (block.invertible) r = project_on_coulomb_cone(stick, mu);
  return false;
}

}  // namespace moreau
