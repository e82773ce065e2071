#include "event_location.hpp"

#include <cmath>

namespace moreau::event {

namespace {
// Dormand–Prince 5(4) tableau (Hairer, Nørsett & Wanner, Solving ODE I, §II.5) and the
// coefficients of its 4th-order continuous extension (dopri5.f).
constexpr double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
constexpr double a21 = 1.0 / 5;
constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561,
                 a54 = -212.0 / 729;
constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176,
                 a65 = -5103.0 / 18656;
constexpr double a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192, a75 = -2187.0 / 6784,
                 a76 = 11.0 / 84;
constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200,
                 e6 = 22.0 / 525, e7 = -1.0 / 40;
constexpr double d1 = -12715105075.0 / 11282082432.0, d3 = 87487479700.0 / 32700410799.0,
                 d4 = -10690763975.0 / 1880347072.0, d5 = 701980252875.0 / 199316789632.0,
                 d6 = -1453857185.0 / 822651844.0, d7 = 69997945.0 / 29380423.0;
}  // namespace

Vector DenseStep::at(double t) const {
  const double th = (t - t0) / h, th1 = 1.0 - th;
  return rc[0] + th * (rc[1] + th1 * (rc[2] + th * (rc[3] + th1 * rc[4])));
}

DopriStep dopri_step(const RightHandSide& f, double t, const Vector& y, const Vector& k1, double h,
                     double atol, double rtol) {
  DopriStep s;
  bool& ok = s.ok;
  const Vector k2 = f(t + c2 * h, y + h * a21 * k1, &ok);
  const Vector k3 = f(t + c3 * h, y + h * (a31 * k1 + a32 * k2), &ok);
  const Vector k4 = f(t + c4 * h, y + h * (a41 * k1 + a42 * k2 + a43 * k3), &ok);
  const Vector k5 = f(t + c5 * h, y + h * (a51 * k1 + a52 * k2 + a53 * k3 + a54 * k4), &ok);
  const Vector k6 = f(t + h, y + h * (a61 * k1 + a62 * k2 + a63 * k3 + a64 * k4 + a65 * k5), &ok);
  s.y1 = y + h * (a71 * k1 + a73 * k3 + a74 * k4 + a75 * k5 + a76 * k6);
  s.k7 = f(t + h, s.y1, &ok);
  // Error estimate y1 − ŷ1 (5th minus embedded 4th order), RMS-scaled per component.
  const Vector err = h * (e1 * k1 + e3 * k3 + e4 * k4 + e5 * k5 + e6 * k6 + e7 * s.k7);
  double en = 0.0;
  for (Index i = 0; i < y.size(); ++i) {
    const double sc_i = atol + rtol * std::max(std::abs(y[i]), std::abs(s.y1[i]));
    en += (err[i] / sc_i) * (err[i] / sc_i);
  }
  s.error = std::sqrt(en / static_cast<double>(y.size()));
  DenseStep& dn = s.dense;
  dn.t0 = t;
  dn.h = h;
  dn.rc[0] = y;
  dn.rc[1] = s.y1 - y;
  dn.rc[2] = h * k1 - dn.rc[1];
  dn.rc[3] = dn.rc[1] - h * s.k7 - dn.rc[2];
  dn.rc[4] = h * (d1 * k1 + d3 * k3 + d4 * k4 + d5 * k5 + d6 * k6 + d7 * s.k7);
  return s;
}

bool arms(const ContactConstraint& c, const Vector& v, double eps_g) {
  return c.gap > 0.0 || (c.gap + 0.5 * eps_g > 0.0 && c.normal.dot(v) <= 0.0);
}

std::vector<Root> roots_of(const ContactState& s, const Modes& modes,
                           const std::vector<char>& armed) {
  std::vector<Root> roots;
  for (Index i = 0; i < s.size(); ++i) {
    const auto& c = s.constraints[i];
    if (c.kind == ConstraintKind::bilateral) continue;
    switch (modes[i].mode) {
      case ContactMode::separate:
        roots.push_back({armed[i] ? RootKind::closing : RootKind::apex, i});
        break;
      case ContactMode::stick:
        roots.push_back({RootKind::normal_force, i});
        if (c.mu > 0.0) roots.push_back({RootKind::stick_cone, i});
        break;
      case ContactMode::slip:
        roots.push_back({RootKind::normal_force, i});
        if (c.mu > 0.0 && modes[i].s.size() > 0) roots.push_back({RootKind::slip_velocity, i});
        break;
    }
  }
  return roots;
}

double root_value(const Root& r, const Dynamics& dy, const Modes& modes,
                  const std::vector<double>& mu, double eps_g) {
  const Index i = r.contact;
  switch (r.kind) {
    case RootKind::closing:
      return dy.g[i] + 0.5 * eps_g;
    case RootKind::apex:
      return dy.un[i];
    case RootKind::normal_force:
      return dy.lambda_n[i];
    case RootKind::stick_cone:
      return mu[i] * dy.lambda_n[i] - dy.lambda_t.col(i).norm();
    case RootKind::slip_velocity:
      return modes[i].s.dot(dy.ut.col(i));
  }
  return 1.0;
}

double locate(const std::function<double(double)>& phi, double a, double b, double fa, double fb,
              double t_scale) {
  int side = 0;
  const double tol_t = 1e-14 * std::max(1.0, t_scale) + 1e-15;
  for (int it = 0; it < 200 && b - a > tol_t; ++it) {
    double c = b - fb * (b - a) / (fb - fa);  // regula falsi
    if (!(c > a && c < b)) c = 0.5 * (a + b);
    const double fc = phi(c);
    if (fc > 0.0) {
      a = c;
      fa = fc;
      if (side == -1) fb *= 0.5;  // Illinois: halve the stale end's value
      side = -1;
    } else {
      b = c;
      fb = fc;
      if (side == 1) fa *= 0.5;
      side = 1;
    }
  }
  return b;
}

}  // namespace moreau::event
