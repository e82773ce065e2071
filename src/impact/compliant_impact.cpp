// Compliant 3D impact of Jia 2010 (docs/math/impact.md); see compliant_impact.hpp.
//
// Equations (per contact i, Jia 2010 restated; p = normal impulse, E_n normal spring energy,
// c = 1 in compression and e in restitution, η0² = k0/k⊥, g = √(2k0)·(tangential spring
// deflection) — the paper's D (stick) and G (slip), (21), (28)–(29), (33)):
//   E_n′ = −v_n (8);   dI_t/dp = −c g /(2η0² √E_n) (11);   stick: dg/dp = c v_t/√E_n (21);
//   cone: ‖g‖ ≤ R := 2μη0²√E_n / c_cone  ⇔ (17)–(19), c_cone = c (variant model) or 1 (published);
//   slip: ‖g‖ = R, g ∥ sliding velocity (13)–(16), i.e. the direction ŝ = g/‖g‖ turns towards v_t
//         at the rate c (v_t − (v_t·ŝ)ŝ)/‖g‖ per √E_n dp — the vector form of (26)–(27).
//   end of compression (v_n = 0): E_n ← e² E_n, η → η0/e (required by (3)–(4), missing from the
//   pseudo-code of §2.6).
// Departure from the paper: instead of Euler steps in p with the 1/√E_n singularities at both ends,
// we integrate in the scaled time τ with dτ = √(2k0_ref) dt, φ := √E_n, κ_i := k0_i/k0_ref:
//   dp/dτ = √κ φ/c,  dφ/dτ = −√κ v_n/(2c),  dI_t/dτ = −√κ g/(2η0²),
//   stick: dg/dτ = √κ v_t,   slip: dg/dτ = √κ (v_t − (v_t·ŝ)ŝ) + (dR/dτ) ŝ,
// which are smooth (linear in stick); the transitions are roots of smooth event functions.
#include "moreau/impact/compliant_impact.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "moreau/common/error.hpp"

namespace moreau {

std::string_view to_string(CompliantVariant variant) {
  return variant == CompliantVariant::model ? "model" : "published";
}

CompliantVariant compliant_variant_from_string(std::string_view name) {
  if (name == "model") return CompliantVariant::model;
  if (name == "published") return CompliantVariant::published;
  throw_invalid("unknown compliant variant '{}' (expected 'model' or 'published')", name);
}

namespace {

enum class Phase { compression, restitution, inactive };
enum class Mode { stick, slip, frictionless };
constexpr int kStride = 7;  // per contact: I (3), φ (1), g (3)

enum EventType { kEndCompression, kEndRestitution, kRecontact, kStickToSlip, kSlipToStick };

struct ContactModel {
  Vector3 n;
  double mu, e, eta2, sk;  // μ, e, η0², √κ
  double phi_scale;        // typical φ, for the step size
  Matrix3 frame;           // n̂, û, ŵ
};

struct Modes {
  std::vector<Phase> phase;
  std::vector<Mode> mode;
};

struct RunOutput {
  bool ok = false;
  std::string message;
  long steps = 0;
  Vector y;  // final state
  std::vector<std::vector<CompliantEvent>> events;
  std::vector<CompliantCurve> curves;
};

class Integrator {
 public:
  Integrator(std::vector<ContactModel> models, Matrix K, Vector v0, CompliantVariant variant)
      : models_(std::move(models)),
        K_(std::move(K)),
        v0_(std::move(v0)),
        variant_(variant),
        nc_(static_cast<Index>(models_.size())),
        Istack_(3 * nc_),
        v_(3 * nc_) {}

  RunOutput run(double h, long max_steps, bool record) {
    RunOutput out;
    out.events.resize(static_cast<size_t>(nc_));
    out.curves.resize(static_cast<size_t>(nc_));
    Vector y = Vector::Zero(kStride * nc_);
    Modes m;
    m.phase.assign(static_cast<size_t>(nc_), Phase::inactive);
    m.mode.assign(static_cast<size_t>(nc_), Mode::frictionless);
    velocities(y);
    for (Index i = 0; i < nc_; ++i)
      if (models_[i].n.dot(v_.segment<3>(3 * i)) < 0.0) start_contact(i, y, m, out, false);
    if (record) sample(y, out);
    Vector y1(y.size()), ytmp(y.size());
    while (true) {
      // Step size: Δp ≲ h on every active contact.
      double dtau = std::numeric_limits<double>::infinity();
      for (Index i = 0; i < nc_; ++i)
        if (m.phase[i] != Phase::inactive)
          dtau = std::min(dtau, h * c(i, m) / (models_[i].sk * models_[i].phi_scale));
      if (!std::isfinite(dtau)) break;  // every contact inactive and none approaching
      if (out.steps >= max_steps) {
        out.message = fmt::format("the impulse integration reached {} steps", max_steps);
        out.y = y;
        return out;
      }
      rk4(y, m, dtau, y1);
      // Triggered events: f crosses from < 0 to ≥ 0.
      std::vector<double> f0 = event_values(y, m), f1 = event_values(y1, m);
      double theta = 1.0;
      int first = -1;
      for (size_t k = 0; k < f0.size(); ++k) {
        if (!fired(k, f0[k], f1[k])) continue;
        const double t = locate(y, m, dtau, k, f0[k], f1[k], ytmp);
        if (t < theta || first < 0) {
          theta = t;
          first = static_cast<int>(k);
        }
      }
      if (first >= 0) {
        rk4(y, m, theta * dtau, y1);
        std::vector<double> fe = event_values(y1, m);
        y = y1;
        project(y, m);
        // Apply every event that has crossed at this point (the first one and any simultaneous).
        const Modes before = m;
        for (size_t k = 0; k < f0.size(); ++k)
          if (static_cast<int>(k) == first || fired(k, f0[k], fe[k]))
            apply_event(static_cast<Index>(k / 5), static_cast<int>(k % 5), before, y, m, out);
      } else {
        y = y1;
        project(y, m);
      }
      ++out.steps;
      if (record) sample(y, out);
    }
    out.ok = true;
    out.y = y;
    return out;
  }

  // An event fires when its function crosses from < 0 to ≥ 0; a re-contact also when v_n leaves
  // exactly 0 downwards (a contact idle at rest that another impulse presses closed).
  static bool fired(size_t k, double before, double after) {
    if (before < 0.0 && after >= 0.0) return true;
    return static_cast<int>(k % 5) == kRecontact && before <= 0.0 && after > 0.0;
  }

  const Vector& velocities(const Vector& y) {
    for (Index i = 0; i < nc_; ++i) Istack_.segment<3>(3 * i) = y.segment<3>(kStride * i);
    v_.noalias() = K_ * Istack_;
    v_ += v0_;
    return v_;
  }

 private:
  double c(Index i, const Modes& m) const {
    return m.phase[i] == Phase::restitution ? models_[i].e : 1.0;
  }
  // The cone factor of a SLIPPING contact: c (model) or 1 (published: η0 kept in restitution).
  double c_cone(Index i, const Modes& m) const {
    return variant_ == CompliantVariant::model ? c(i, m) : 1.0;
  }
  // Stick test (17)–(19): ‖g‖ < 2μη0²√E_n / c in both variants.
  double stick_radius(Index i, const Modes& m, double phi) const {
    const ContactModel& cm = models_[i];
    return 2.0 * cm.mu * cm.eta2 * phi / c(i, m);
  }
  // Slip relation ‖g‖ = R: 2μη0²√E_n / c (model) or 2μη0²√E_n (published).
  double radius(Index i, const Modes& m, double phi) const {
    const ContactModel& cm = models_[i];
    return 2.0 * cm.mu * cm.eta2 * phi / c_cone(i, m);
  }
  // Slip direction ŝ: along the spring deflection g, or along v_t while g is still zero.
  Vector3 slip_direction(Index i, const Vector3& g, const Vector3& vt) const {
    const double gn = g.norm();
    if (gn > 1e-13 * models_[i].mu * models_[i].eta2 * models_[i].phi_scale) return g / gn;
    const double vn = vt.norm();
    if (vn > 0.0) return vt / vn;
    return -models_[i].frame.col(1);
  }

  void rhs(const Vector& y, const Modes& m, Vector& dy) {
    dy.setZero(y.size());
    velocities(y);
    for (Index i = 0; i < nc_; ++i) {
      if (m.phase[i] == Phase::inactive) continue;
      const ContactModel& cm = models_[i];
      const Vector3 v = v_.segment<3>(3 * i);
      const double vn = cm.n.dot(v);
      const Vector3 vt = v - cm.n * vn;
      const double ci = c(i, m);
      const double phi = y[kStride * i + 3];
      const Vector3 g = y.segment<3>(kStride * i + 4);
      const double dphi = -cm.sk * vn / (2.0 * ci);
      Vector3 dI = cm.n * (cm.sk * phi / ci);
      Vector3 dg = Vector3::Zero();
      if (m.mode[i] != Mode::frictionless) {
        dI -= cm.sk * g / (2.0 * cm.eta2);
        if (m.mode[i] == Mode::stick) {
          dg = cm.sk * vt;
        } else {
          const Vector3 s = slip_direction(i, g, vt);
          const double dR = 2.0 * cm.mu * cm.eta2 * dphi / c_cone(i, m);
          dg = cm.sk * (vt - s * vt.dot(s)) + dR * s;
        }
      }
      dy.segment<3>(kStride * i) = dI;
      dy[kStride * i + 3] = dphi;
      dy.segment<3>(kStride * i + 4) = dg;
    }
  }

  void rk4(const Vector& y, const Modes& m, double dt, Vector& out) {
    Vector k1, k2, k3, k4;
    rhs(y, m, k1);
    rhs(y + 0.5 * dt * k1, m, k2);
    rhs(y + 0.5 * dt * k2, m, k3);
    rhs(y + dt * k3, m, k4);
    out = y + (dt / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }

  // Keeps a slipping contact's deflection on the cone ‖g‖ = R (explicit steps would leave it).
  void project(Vector& y, const Modes& m) {
    velocities(y);
    for (Index i = 0; i < nc_; ++i) {
      if (m.phase[i] == Phase::inactive || m.mode[i] != Mode::slip) continue;
      const double phi = std::max(0.0, y[kStride * i + 3]);
      const Vector3 v = v_.segment<3>(3 * i);
      const Vector3 vt = v - models_[i].n * models_[i].n.dot(v);
      const Vector3 g = y.segment<3>(kStride * i + 4);
      y.segment<3>(kStride * i + 4) = radius(i, m, phi) * slip_direction(i, g, vt);
    }
  }

  // Five event functions per contact (index 5i + type); each fires when it crosses from < 0 to
  // ≥ 0; functions that do not apply in the current modes are +1 (never fire).
  std::vector<double> event_values(const Vector& y, const Modes& m) {
    std::vector<double> f(static_cast<size_t>(5 * nc_), 1.0);
    velocities(y);
    for (Index i = 0; i < nc_; ++i) {
      const ContactModel& cm = models_[i];
      const Vector3 v = v_.segment<3>(3 * i);
      const double vn = cm.n.dot(v);
      const Vector3 vt = v - cm.n * vn;
      const double phi = y[kStride * i + 3];
      const Vector3 g = y.segment<3>(kStride * i + 4);
      double* fi = &f[static_cast<size_t>(5 * i)];
      switch (m.phase[i]) {
        case Phase::compression:
          fi[kEndCompression] = vn;
          break;
        case Phase::restitution:
          fi[kEndRestitution] = -phi;
          break;
        case Phase::inactive:
          fi[kRecontact] = -vn;
          continue;
      }
      if (m.mode[i] == Mode::stick) {
        fi[kStickToSlip] = g.norm() - stick_radius(i, m, phi);
      } else if (m.mode[i] == Mode::slip) {
        const Vector3 s = slip_direction(i, g, vt);
        fi[kSlipToStick] = -(vt.dot(s) + cm.mu * cm.eta2 * vn / (c(i, m) * c_cone(i, m)));
      }
    }
    return f;
  }

  // θ ∈ (0, 1] with f_k(RK4(y, θ·dt)) = 0 (Illinois false position); returns the upper end of
  // the final bracket, where the event has fired.
  double locate(const Vector& y, const Modes& m, double dt, size_t k, double fa, double fb,
                Vector& tmp) {
    double a = 0.0, b = 1.0;
    int side = 0;
    for (int it = 0; it < 200 && b - a > 1e-15; ++it) {
      double t = (a * fb - b * fa) / (fb - fa);
      if (!(t > a && t < b)) t = 0.5 * (a + b);
      rk4(y, m, t * dt, tmp);
      const double ft = event_values(tmp, m)[k];
      if (ft >= 0.0) {
        b = t;
        fb = ft;
        if (side == 1) fa *= 0.5;
        side = 1;
      } else {
        a = t;
        fa = ft;
        if (side == -1) fb *= 0.5;
        side = -1;
      }
      if (ft == 0.0) break;
    }
    return b;
  }

  CompliantEvent make_event(Index i, const std::string& kind, const Vector& y) {
    velocities(y);
    const Matrix3& F = models_[i].frame;
    const Vector3 I = y.segment<3>(kStride * i);
    return {kind, models_[i].n.dot(I), F.transpose() * I, F.transpose() * v_.segment<3>(3 * i)};
  }

  void start_contact(Index i, Vector& y, Modes& m, RunOutput& out, bool recontact) {
    const ContactModel& cm = models_[i];
    velocities(y);
    const Vector3 v = v_.segment<3>(3 * i);
    const double vn = cm.n.dot(v);
    const Vector3 vt = v - cm.n * vn;
    m.phase[i] = Phase::compression;
    y[kStride * i + 3] = 0.0;
    y.segment<3>(kStride * i + 4).setZero();
    if (recontact) out.events[i].push_back(make_event(i, "recontact", y));
    if (cm.mu == 0.0) {
      m.mode[i] = Mode::frictionless;
      out.events[i].push_back(make_event(i, "start_frictionless", y));
    } else if (vt.norm() < cm.mu * cm.eta2 * std::abs(vn)) {  // (36)
      m.mode[i] = Mode::stick;
      out.events[i].push_back(make_event(i, "start_stick", y));
    } else {  // (37)
      m.mode[i] = Mode::slip;
      out.events[i].push_back(make_event(i, "start_slip", y));
    }
  }

  void apply_event(Index i, int type, const Modes& before, Vector& y, Modes& m, RunOutput& out) {
    if (m.phase[i] != before.phase[i] && type != kStickToSlip) return;  // superseded
    const ContactModel& cm = models_[i];
    switch (type) {
      case kEndCompression: {
        if (m.phase[i] != Phase::compression) return;
        out.events[i].push_back(make_event(i, "end_of_compression", y));
        m.phase[i] = Phase::restitution;
        y[kStride * i + 3] *= cm.e;  // E_n ← e² E_n
        if (y[kStride * i + 3] <= 0.0 || cm.e == 0.0) {
          y[kStride * i + 3] = 0.0;
          m.phase[i] = Phase::inactive;
          out.events[i].push_back(make_event(i, "end_of_restitution", y));
          return;
        }
        if (m.mode[i] == Mode::frictionless) return;
        // The stick cone is continuous here (φ drops by e, c becomes e); in the published
        // reading a slipping contact's deflection shrinks by e (projection below).
        const double R = stick_radius(i, m, y[kStride * i + 3]);
        Eigen::Ref<Vector3> g = y.segment<3>(kStride * i + 4);
        if (m.mode[i] == Mode::stick && g.norm() >= R) {
          m.mode[i] = Mode::slip;
          out.events[i].push_back(make_event(i, "stick_to_slip", y));
        }
        if (m.mode[i] == Mode::slip) project(y, m);
        return;
      }
      case kEndRestitution:
        if (m.phase[i] != Phase::restitution) return;
        y[kStride * i + 3] = 0.0;
        m.phase[i] = Phase::inactive;
        out.events[i].push_back(make_event(i, "end_of_restitution", y));
        return;
      case kRecontact:
        if (m.phase[i] != Phase::inactive) return;
        start_contact(i, y, m, out, true);
        return;
      case kStickToSlip:
        if (m.phase[i] == Phase::inactive || m.mode[i] != Mode::stick) return;
        m.mode[i] = Mode::slip;
        project(y, m);
        out.events[i].push_back(make_event(i, "stick_to_slip", y));
        return;
      case kSlipToStick:
        if (m.phase[i] == Phase::inactive || m.mode[i] != Mode::slip) return;
        m.mode[i] = Mode::stick;
        out.events[i].push_back(make_event(i, "slip_to_stick", y));
        return;
    }
  }

  void sample(const Vector& y, RunOutput& out) {
    velocities(y);
    for (Index i = 0; i < nc_; ++i) {
      const Matrix3& F = models_[i].frame;
      const Vector3 I = y.segment<3>(kStride * i);
      CompliantCurve& cv = out.curves[static_cast<size_t>(i)];
      cv.normal_impulse.push_back(models_[i].n.dot(I));
      cv.impulse.push_back(F.transpose() * I);
      cv.velocity.push_back(F.transpose() * v_.segment<3>(3 * i));
    }
  }

  std::vector<ContactModel> models_;
  Matrix K_;   // 3nc×3nc
  Vector v0_;  // 3nc
  CompliantVariant variant_;
  Index nc_;
  Vector Istack_, v_;
};

CompliantCurve downsample(const CompliantCurve& c, int samples) {
  CompliantCurve out;
  const size_t n = c.normal_impulse.size();
  if (samples <= 0 || n == 0) return out;
  const size_t want = std::min(n, static_cast<size_t>(std::max(samples, 2)));
  size_t last = n;
  for (size_t k = 0; k < want; ++k) {
    const size_t j = want == 1 ? 0 : (k * (n - 1)) / (want - 1);
    if (j == last) continue;
    last = j;
    out.normal_impulse.push_back(c.normal_impulse[j]);
    out.impulse.push_back(c.impulse[j]);
    out.velocity.push_back(c.velocity[j]);
  }
  return out;
}

}  // namespace

CompliantImpactResult compliant_impact(const RigidBodyScene& input,
                                       const CompliantImpactSettings& settings) {
  const RigidBodyScene scene = validate_scene(input);
  MOREAU_REQUIRE(std::isfinite(settings.step) && settings.step >= 0.0,
                 "the impulse step must be ≥ 0 (0 = automatic), got {}", settings.step);
  MOREAU_REQUIRE(settings.max_steps > 0, "max_steps must be positive, got {}", settings.max_steps);
  const Index nc = static_cast<Index>(scene.contacts.size());
  const Matrix Minv = scene_inverse_mass_matrix(scene);
  const Vector v = scene_velocity(scene);

  CompliantImpactResult result;
  result.variant = settings.variant;
  result.post = scene;
  result.kinetic_energy_before = scene_kinetic_energy(scene);
  result.kinetic_energy_after = result.kinetic_energy_before;
  result.contacts.resize(static_cast<size_t>(nc));

  Matrix J(3 * nc, v.size());
  for (Index i = 0; i < nc; ++i) J.middleRows<3>(3 * i) = contact_jacobian(scene, i);
  const Matrix K = J * Minv * J.transpose();
  const Vector v0 = J * v;

  double vref = 0.0, p_est = 0.0, kmax = 0.0;
  for (Index i = 0; i < nc; ++i) {
    const BodyContact& c = scene.contacts[static_cast<size_t>(i)];
    const double vn = c.normal.dot(v0.segment<3>(3 * i));
    const double knn = c.normal.dot(K.block<3, 3>(3 * i, 3 * i) * c.normal);
    result.contacts[static_cast<size_t>(i)].frame = slip_contact_frame(scene, i);
    kmax = std::max(kmax, c.stiffness);
    if (vn < 0.0) {
      vref = std::max(vref, -vn);
      p_est = std::max(p_est, (1.0 + c.e) * (-vn) / knn);
    }
  }
  if (vref == 0.0) {
    result.status = ImpactStatus::no_impact;
    result.message = "no contact approaches (every normal velocity is ≥ 0)";
    result.step = settings.step;
    result.error_estimate = 0.0;
    return result;
  }
  std::vector<ContactModel> models;
  for (Index i = 0; i < nc; ++i) {
    const BodyContact& c = scene.contacts[static_cast<size_t>(i)];
    const double knn = c.normal.dot(K.block<3, 3>(3 * i, 3 * i) * c.normal);
    models.push_back({c.normal, c.mu, c.e, c.eta0_squared, std::sqrt(c.stiffness / kmax),
                      std::sqrt(0.5 * vref * vref / knn),
                      result.contacts[static_cast<size_t>(i)].frame});
  }
  const double h = settings.step > 0.0 ? settings.step : p_est / 2000.0;
  result.step = h;

  Integrator integ(models, K, v0, settings.variant);
  RunOutput run = integ.run(h, settings.max_steps, settings.curve_samples > 0);
  result.steps = run.steps;
  if (!run.ok) {
    result.status = ImpactStatus::not_converged;
    result.message = run.message;
    return result;
  }
  auto post_velocity = [&](const Vector& y) {
    Vector dv = Vector::Zero(v.size());
    for (Index i = 0; i < nc; ++i)
      dv += J.middleRows<3>(3 * i).transpose() * y.segment<3>(kStride * i);
    return Vector(v + Minv * dv);
  };
  const Vector vplus = post_velocity(run.y);
  if (!all_finite(vplus)) {
    result.status = ImpactStatus::numerical_failure;
    result.message = "the impulse integration produced a non-finite velocity";
    return result;
  }
  result.post = with_velocity(scene, vplus);
  result.kinetic_energy_after = scene_kinetic_energy(result.post);
  for (Index i = 0; i < nc; ++i) {
    CompliantContactResult& cr = result.contacts[static_cast<size_t>(i)];
    cr.impulse = run.y.segment<3>(kStride * i);
    cr.events = run.events[static_cast<size_t>(i)];
    cr.curve = downsample(run.curves[static_cast<size_t>(i)], settings.curve_samples);
  }
  result.status = ImpactStatus::resolved;
  result.error_estimate = std::numeric_limits<double>::quiet_NaN();
  if (settings.estimate_error) {
    RunOutput half = integ.run(0.5 * h, settings.max_steps, false);
    if (half.ok) {
      double diff = (post_velocity(half.y) - vplus).cwiseAbs().maxCoeff();
      for (Index i = 0; i < nc; ++i)
        diff = std::max(
            diff,
            (half.y.segment<3>(kStride * i) - run.y.segment<3>(kStride * i)).cwiseAbs().maxCoeff());
      result.error_estimate = 16.0 / 15.0 * diff;
    }
  }
  return result;
}

}  // namespace moreau
