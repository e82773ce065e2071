#include "moreau/sim/event_driven.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <Eigen/QR>
#include <fmt/format.h>

#include "moreau/analysis/contact_modes.hpp"
#include "moreau/common/error.hpp"
#include "moreau/impact/impact_laws.hpp"
#include "moreau/sim/impact_law.hpp"
#include "moreau/sim/velocity_level.hpp"
#include "sim_internal.hpp"

namespace moreau {
namespace {

enum class Mode { free, stick, slip };

// Mode of one unilateral constraint; s is the unit slip direction (d−1) of λ_t = −μ λ_n s.
struct HybridMode {
  Mode mode = Mode::free;
  Vector s;
};

const char* mode_name(Mode m) {
  return m == Mode::free ? "free" : (m == Mode::stick ? "stick" : "slip");
}

// Accelerations and multipliers of the smooth dynamics in one mode (see the header):
//   S λ = Cᵀ M⁻¹ F − b,   S = Cᵀ M⁻¹ G,   a = M⁻¹ (G λ − F),
// C the constrained directions, G the force directions (∇h − μ H_t s on sliding contacts),
// b the bias c + 2α(velocity) + β²(gap). S is solved in the least-squares sense with a
// complete orthogonal decomposition (redundant contacts get the minimum-norm multipliers);
// consistent = the residual of S λ = rhs is small.
struct Dynamics {
  bool consistent = false;
  Vector a;                    // n, generalized acceleration
  Vector lambda_n;             // m (all constraints; 0 when free)
  Matrix lambda_t;             // (d−1)×m
  Vector g, un, an;            // m: gap, normal velocity, normal acceleration ∇hᵀa + c_n
  Matrix ut, at;               // (d−1)×m: tangential velocity, acceleration
  double S_min_diag = 0.0;     // smallest diagonal entry of S over sliding normal rows (Painlevé α)
  Index S_min_index = -1;
};

// Baumgarte α, β of one constraint (1/s): the constraint's own (ContactConstraint::baumgarte_alpha,
// baumgarte_beta, e.g. a scene's contact material "alpha"/"beta") when > 0, else the run's
// settings (SimulationSettings::baumgarte_alpha/beta), each separately.
double baumgarte_alpha(const ContactConstraint& c, const SimulationSettings& st) {
  return c.baumgarte_alpha > 0.0 ? c.baumgarte_alpha : st.baumgarte_alpha;
}
double baumgarte_beta(const ContactConstraint& c, const SimulationSettings& st) {
  return c.baumgarte_beta > 0.0 ? c.baumgarte_beta : st.baumgarte_beta;
}

class Hybrid {
 public:
  Hybrid(const LagrangianSystem& sys, const SimulationSettings& st) : sys_(sys), st_(st) {}

  Dynamics dynamics(double t, const Vector& q, const Vector& v, const std::vector<HybridMode>& modes) const {
    const ContactState s = sys_.contact_state(q, v, t);
    const Index n = s.M.rows(), m = s.size();
    const int d = s.dimension;
    Dynamics out;
    out.lambda_n = Vector::Zero(m);
    out.lambda_t = Matrix::Zero(d - 1, m);
    out.g.resize(m);
    out.un.resize(m);
    out.an.resize(m);
    out.ut.resize(d - 1, m);
    out.at.resize(d - 1, m);
    std::vector<Vector> Ccols, Gcols;
    std::vector<double> bias;
    struct Row { Index c; int comp; };  // comp −1 = normal, j = tangent j
    std::vector<Row> rows;
    for (Index i = 0; i < m; ++i) {
      const auto& c = s.constraints[i];
      out.g[i] = c.gap;
      out.un[i] = c.normal.dot(v);
      out.ut.col(i) = c.tangent.transpose() * v;
      const bool bil = c.kind == ConstraintKind::bilateral;
      const Mode md = bil ? Mode::stick : modes[i].mode;
      if (md == Mode::free) continue;
      const double al = baumgarte_alpha(c, st_), be = baumgarte_beta(c, st_);
      const double bn = c.normal_bias + 2.0 * al * out.un[i] + be * be * c.gap;
      Ccols.push_back(c.normal);
      if (!bil && md == Mode::slip && c.mu > 0.0 && modes[i].s.size() == d - 1)
        Gcols.push_back(c.normal - c.mu * c.tangent * modes[i].s);
      else
        Gcols.push_back(c.normal);
      bias.push_back(bn);
      rows.push_back({i, -1});
      if (!bil && md == Mode::stick && c.mu > 0.0) {
        for (int j = 0; j < d - 1; ++j) {
          Ccols.push_back(c.tangent.col(j));
          Gcols.push_back(c.tangent.col(j));
          bias.push_back(c.tangent_bias[j] + 2.0 * al * out.ut(j, i));
          rows.push_back({i, j});
        }
      }
    }
    Eigen::LDLT<Matrix> ldlt(s.M);
    const Vector MinvF = ldlt.solve(s.F);
    const Index k = static_cast<Index>(rows.size());
    Vector lam = Vector::Zero(k);
    Matrix MinvG(n, k);
    out.consistent = true;
    if (k > 0) {
      Matrix C(n, k), G(n, k);
      Vector b(k);
      for (Index r = 0; r < k; ++r) {
        C.col(r) = Ccols[r];
        G.col(r) = Gcols[r];
        b[r] = bias[r];
      }
      MinvG = ldlt.solve(G);
      const Matrix S = C.transpose() * MinvG;
      const Vector rhs = C.transpose() * MinvF - b;
      Eigen::CompleteOrthogonalDecomposition<Matrix> cod(S);
      cod.setThreshold(1e-11);
      lam = cod.solve(rhs);
      const double scale = std::max({1.0, rhs.norm(), (S * lam).norm()});
      out.consistent = all_finite(lam) && (S * lam - rhs).norm() <= 1e-8 * scale;
      out.S_min_diag = std::numeric_limits<double>::infinity();
      for (Index r = 0; r < k; ++r) {
        const auto& row = rows[r];
        if (row.comp >= 0) out.lambda_t(row.comp, row.c) = lam[r];
        else out.lambda_n[row.c] = lam[r];
        if (row.comp < 0 && s.constraints[row.c].kind == ConstraintKind::unilateral &&
            modes[row.c].mode == Mode::slip && S(r, r) < out.S_min_diag) {
          out.S_min_diag = S(r, r);
          out.S_min_index = row.c;
        }
      }
      for (Index r = 0; r < k; ++r) {
        const auto& row = rows[r];
        const auto& c = s.constraints[row.c];
        if (row.comp < 0 && c.kind == ConstraintKind::unilateral && modes[row.c].mode == Mode::slip &&
            c.mu > 0.0 && modes[row.c].s.size() == d - 1)
          out.lambda_t.col(row.c) = -c.mu * out.lambda_n[row.c] * modes[row.c].s;
      }
      out.a = MinvG * lam - MinvF;
    } else {
      out.a = -MinvF;
    }
    for (Index i = 0; i < m; ++i) {
      const auto& c = s.constraints[i];
      out.an[i] = c.normal.dot(out.a) + c.normal_bias;
      out.at.col(i) = c.tangent.transpose() * out.a + c.tangent_bias;
    }
    return out;
  }

  const LagrangianSystem& sys_;
  const SimulationSettings& st_;
};

// Root functions of the current mode; fire when φ goes from > 0 to ≤ 0.
// A free contact has one of two roots, by its arming flag armed[i] (see arms):
//   armed:    closing, φ = ψ = g + ½ε;
//   disarmed: apex, φ = u_n — the contact sits in the closing band after an impact or a
//     separation (ψ ≈ 0 up to rounding, moving away), where the sign of ψ at the step's start
//     cannot be trusted; the apex u_n = 0 ends its excursion: if g > 0 there the closing root is
//     armed and the step restarts from the apex, else the contact never opened (g ≤ 0 throughout)
//     and closes there without impact (Zeno rule, docs/simulation.md).
enum class RootKind { closing, apex, normal_force, stick_cone, slip_velocity };
struct Root {
  RootKind kind;
  Index contact;
};

// Arming rule of a free contact's closing root at a state: g > 0 (clearly open), or ψ > 0 while
// approaching or at rest (u_n ≤ 0). A contact in the band that moves away stays disarmed.
bool arms(const ContactConstraint& c, const Vector& v, double eps_g) {
  return c.gap > 0.0 || (c.gap + 0.5 * eps_g > 0.0 && c.normal.dot(v) <= 0.0);
}

std::vector<Root> roots_of(const ContactState& s, const std::vector<HybridMode>& modes,
                           const std::vector<char>& armed) {
  std::vector<Root> roots;
  for (Index i = 0; i < s.size(); ++i) {
    const auto& c = s.constraints[i];
    if (c.kind == ConstraintKind::bilateral) continue;
    switch (modes[i].mode) {
      case Mode::free:
        roots.push_back({armed[i] ? RootKind::closing : RootKind::apex, i});
        break;
      case Mode::stick:
        roots.push_back({RootKind::normal_force, i});
        if (c.mu > 0.0) roots.push_back({RootKind::stick_cone, i});
        break;
      case Mode::slip:
        roots.push_back({RootKind::normal_force, i});
        if (c.mu > 0.0 && modes[i].s.size() > 0) roots.push_back({RootKind::slip_velocity, i});
        break;
    }
  }
  return roots;
}

double root_value(const Root& r, const Dynamics& dy, const std::vector<HybridMode>& modes,
                  const std::vector<double>& mu, double eps_g) {
  const Index i = r.contact;
  switch (r.kind) {
    case RootKind::closing: return dy.g[i] + 0.5 * eps_g;
    case RootKind::apex: return dy.un[i];
    case RootKind::normal_force: return dy.lambda_n[i];
    case RootKind::stick_cone: return mu[i] * dy.lambda_n[i] - dy.lambda_t.col(i).norm();
    case RootKind::slip_velocity: return modes[i].s.dot(dy.ut.col(i));
  }
  return 1.0;
}

// Dormand–Prince 5(4) tableau (Hairer, Nørsett & Wanner, Solving ODE I, §II.5) and the
// coefficients of its 4th-order continuous extension (dopri5.f).
constexpr double c2 = 1.0 / 5, c3 = 3.0 / 10, c4 = 4.0 / 5, c5 = 8.0 / 9;
constexpr double a21 = 1.0 / 5;
constexpr double a31 = 3.0 / 40, a32 = 9.0 / 40;
constexpr double a41 = 44.0 / 45, a42 = -56.0 / 15, a43 = 32.0 / 9;
constexpr double a51 = 19372.0 / 6561, a52 = -25360.0 / 2187, a53 = 64448.0 / 6561, a54 = -212.0 / 729;
constexpr double a61 = 9017.0 / 3168, a62 = -355.0 / 33, a63 = 46732.0 / 5247, a64 = 49.0 / 176,
                 a65 = -5103.0 / 18656;
constexpr double a71 = 35.0 / 384, a73 = 500.0 / 1113, a74 = 125.0 / 192, a75 = -2187.0 / 6784,
                 a76 = 11.0 / 84;
constexpr double e1 = 71.0 / 57600, e3 = -71.0 / 16695, e4 = 71.0 / 1920, e5 = -17253.0 / 339200,
                 e6 = 22.0 / 525, e7 = -1.0 / 40;
constexpr double d1 = -12715105075.0 / 11282082432.0, d3 = 87487479700.0 / 32700410799.0,
                 d4 = -10690763975.0 / 1880347072.0, d5 = 701980252875.0 / 199316789632.0,
                 d6 = -1453857185.0 / 822651844.0, d7 = 69997945.0 / 29380423.0;

struct DenseStep {
  double t0 = 0.0, h = 0.0;
  std::array<Vector, 5> rc;
  Vector at(double t) const {
    const double th = (t - t0) / h, th1 = 1.0 - th;
    return rc[0] + th * (rc[1] + th1 * (rc[2] + th * (rc[3] + th1 * rc[4])));
  }
};

}  // namespace

SimulationResult simulate_event_driven(const LagrangianSystem& sys, const SimulationSettings& st,
                                       const Vector& q0, const Vector& v0,
                                       const ProgressCallback& progress) {
  SimulationResult res;
  const Index np = sys.position_size(), nv = sys.velocity_size();
  ContactState s0 = sys.contact_state(q0, v0, 0.0);
  check_impact_laws(s0, "event");
  detail::start_result(res, sys, "event", s0);
  res.force_quantity = "force";
  const int d = s0.dimension;
  const Index m = s0.size();
  std::vector<double> mu(m);
  for (Index i = 0; i < m; ++i) mu[i] = s0.constraints[i].mu;
  const double eps_g = st.contact_tolerance;
  const double tol_v = st.contact_tolerance;
  const double tol_f = st.force_tolerance;
  Hybrid hy(sys, st);
  // The next mode comes from analysis::contact_modes (its 2D friction LCP) for planar systems
  // without bilateral constraints; joints and 3D keep our own enumeration (see choose_modes).
  const bool analysis_applies =
      d == 2 && std::none_of(s0.constraints.begin(), s0.constraints.end(),
                             [](const ContactConstraint& c) { return c.kind == ConstraintKind::bilateral; });

  double t = 0.0;
  Vector y(np + nv);
  y << q0, v0;
  auto qof = [&](const Vector& yy) { return Vector(yy.head(np)); };
  auto vof = [&](const Vector& yy) { return Vector(yy.tail(nv)); };
  std::vector<HybridMode> modes(m);
  std::vector<char> armed(m, 0);  // closing root of a free contact armed (see roots_of)
  double emin = 0.0;
  FrictionContactSettings fcs;
  fcs.tolerance = st.solver_tolerance;
  fcs.max_iterations = st.solver_max_iterations;

  auto closed = [&](const Dynamics& dy, Index i) {
    return s0.constraints[i].kind == ConstraintKind::unilateral && dy.g[i] <= 10.0 * eps_g;
  };

  // Impacts on every closed contact when one of them approaches, by the law the closed contacts
  // share (impact_law.hpp; checked at the start, a mix in one impact is refused):
  //   newton:  the velocity-level problem (velocity_level.hpp) with w_n = e·min(u_n⁻, 0), Coulomb
  //            friction and joints (= impact::frictional_impact with e_t = 0);
  //   poisson: impact::poisson_impact on the closed contacts (digest 003 §2, two LCPs);
  //   moreau:  impact::moreau_impact on the closed contacts (digest 003 §2 (43), LCP in the
  //            kinetic metric with E = diag(e_i)).
  // Impacts slower than zeno_velocity are plastic (e := 0) for every law. Returns true if an
  // impact was applied; a law that fails (not converged, singular) sets impact_failure.
  std::string impact_failure;
  auto impact = [&](std::vector<bool>& impacted) -> bool {
    const Vector q = qof(y), v = vof(y);
    const ContactState s = sys.contact_state(q, v, t);
    VelocityLevelInput in;
    std::vector<double> unm;
    bool approaching = false;
    for (Index i = 0; i < m; ++i) {
      const auto& c = s.constraints[i];
      if (c.kind == ConstraintKind::bilateral) { in.bilateral.push_back(i); continue; }
      if (c.gap > 10.0 * eps_g) continue;
      const double un = c.normal.dot(v);
      in.unilateral.push_back(i);
      unm.push_back(un);
      if (un < -tol_v) approaching = true;
    }
    if (!approaching) return false;
    const std::string law = common_impact_law(s, in.unilateral, t);
    const Index nu = static_cast<Index>(in.unilateral.size());
    Vector v_post;                   // n, q̇⁺
    Vector pn = Vector::Zero(nu);    // |U|, normal impulses, N·s
    if (law == "newton") {
      in.w_unilateral = Vector::Zero(d * nu);
      in.w_bilateral = Vector::Zero(static_cast<Index>(in.bilateral.size()));
      for (Index a = 0; a < nu; ++a) {
        const auto& c = s.constraints[in.unilateral[a]];
        const bool plastic = unm[a] > -st.zeno_velocity;
        in.w_unilateral[d * a] = (plastic ? 0.0 : c.restitution) * std::min(unm[a], 0.0);
      }
      const MassSolver mass(s.M);
      const VelocityLevelSolution sol = solve_velocity_level(s, mass, v, in, st.solver, fcs);
      if (!sol.report.converged() && sol.report.residual > 1e3 * st.solver_tolerance) ++res.solver_failures;
      v_post = sol.v;
      for (Index a = 0; a < nu; ++a) pn[a] = sol.r[d * a];
    } else {
      // The closed contacts only (the impact laws take every constraint of the state as active);
      // no bilateral rows and μ = 0 here (check_impact_laws at the start).
      ContactState sub;
      sub.dimension = s.dimension;
      sub.t = t;
      sub.q = s.q;
      sub.v = v;
      sub.M = s.M;
      sub.F = s.F;
      // Zeno rule for the whole impact: these laws give a closed contact that does not approach
      // (u_n⁻ ≥ 0) an impulse through the coupling W_nn, so its e matters; the impact is plastic
      // (every e := 0) only when its fastest approach is slower than zeno_velocity.
      const bool plastic = -*std::min_element(unm.begin(), unm.end()) < st.zeno_velocity;
      for (Index a = 0; a < nu; ++a) {
        ContactConstraint c = s.constraints[in.unilateral[a]];
        if (plastic) c.restitution = 0.0;
        sub.constraints.push_back(std::move(c));
      }
      const ImpactResult ir = law == "poisson" ? poisson_impact(sub) : moreau_impact(sub);
      if (ir.status != ImpactStatus::resolved && ir.status != ImpactStatus::no_impact) {
        impact_failure = fmt::format("impact law '{}' at t = {} s: {} ({})", law, t, to_string(ir.status),
                                     ir.message);
        return false;
      }
      v_post = ir.v_post;
      pn = ir.normal_impulse;
    }
    for (Index a = 0; a < nu; ++a) {
      if (unm[a] >= -tol_v) continue;
      const Index i = in.unilateral[a];
      const auto& c = s.constraints[i];
      const bool plastic = law == "newton" ? unm[a] > -st.zeno_velocity
                                           : -*std::min_element(unm.begin(), unm.end()) < st.zeno_velocity;
      impacted[i] = true;
      res.events.push_back(
          {t, "impact", i,
           fmt::format("u_n- = {:.9g} m/s, u_n+ = {:.9g} m/s, e = {}{}, P_n = {:.6g} N·s, law = {}", unm[a],
                       c.normal.dot(v_post), plastic ? 0.0 : c.restitution,
                       plastic ? " (zeno rule: plastic)" : "", pn[a], law)});
    }
    y.tail(nv) = v_post;
    return true;
  };

  // Acceleration-level mode choice over the closed contacts (see the header).
  // excluded[i] removes one candidate (the mode a fired root left). Returns false when no mode
  // is consistent (Painlevé inconsistency or failure).
  // Exclusion bits per contact: 2 = stick, 4 = slip in the direction excluded_s, 8 = any slip.
  // The consistent assignments come from analysis::contact_modes where it applies (by_analysis
  // below: planar, no bilateral constraint, M ≻ 0, mode LCP ≤ 12 variables); otherwise, and as a
  // safety net when none of its solutions survives the check below, from our own enumeration of
  // {stick, slip±, free} per closed contact (the old path: joints, 3D, larger LCPs). The selection
  // rules on top are the same for both: exclusions, most sticking then sliding contacts, Painlevé.
  // painleve/painleve_case/painleve_contact describe a Painlevé situation met (case 3 or 4);
  // unsupported is set (and false returned) when the closed contacts exceed what the mode choice
  // handles.
  auto choose_modes = [&](const std::vector<int>& excl, const std::vector<Vector>& excluded_s,
                          std::string& painleve, int& painleve_case, Index& painleve_contact,
                          std::string& unsupported) -> bool {
    const Vector q = qof(y), v = vof(y);
    std::vector<HybridMode> base = modes;
    for (auto& md : base) md = HybridMode{};
    const Dynamics probe = hy.dynamics(t, q, v, base);
    std::vector<Index> C;
    for (Index i = 0; i < m; ++i)
      if (closed(probe, i) && probe.un[i] <= tol_v) C.push_back(i);
    auto allowed = [&](Index i, Mode md, const Vector& sdir) {
      if (md == Mode::stick) return (excl[i] & 2) == 0;
      if (md == Mode::slip) {
        if (excl[i] & 8) return false;
        if ((excl[i] & 4) && excluded_s[i].size() == sdir.size() && sdir.size() > 0 &&
            excluded_s[i].dot(sdir) > 0.5)
          return false;
      }
      return true;
    };
    std::vector<bool> sliding(C.size(), false);
    for (std::size_t k = 0; k < C.size(); ++k)
      sliding[k] = mu[C[k]] > 0.0 && probe.ut.col(C[k]).norm() > tol_v;
    // Consistency of one assignment with the mode dynamics (both paths).
    auto check = [&](const std::vector<HybridMode>& trial) {
      const Dynamics dy = hy.dynamics(t, q, v, trial);
      bool ok = dy.consistent;
      const double sc = std::max(1.0, dy.lambda_n.cwiseAbs().maxCoeff());
      for (std::size_t k = 0; ok && k < C.size(); ++k) {
        const Index i = C[k];
        const auto& md = trial[i];
        if (md.mode == Mode::free) {
          ok = dy.an[i] >= -1e-8 * std::max(1.0, dy.a.cwiseAbs().maxCoeff());
        } else if (md.mode == Mode::stick) {
          ok = dy.lambda_n[i] >= -tol_f * sc && dy.lambda_t.col(i).norm() <= mu[i] * dy.lambda_n[i] + tol_f * sc;
        } else {
          ok = dy.lambda_n[i] >= -tol_f * sc;
          if (ok && !sliding[k] && md.s.size() > 0)
            ok = md.s.dot(dy.at.col(i)) >= -1e-8 * std::max(1.0, dy.a.cwiseAbs().maxCoeff()) &&
                 dy.lambda_n[i] > tol_f * sc;
        }
      }
      return ok;
    };
    // Candidates of each closed contact (the enumeration's; cand[k][0] is the slip of a sliding one).
    std::vector<std::vector<HybridMode>> cand(C.size());
    for (std::size_t k = 0; k < C.size(); ++k) {
      const Index i = C[k];
      const Vector ut = probe.ut.col(i);
      if (mu[i] == 0.0) {
        if (allowed(i, Mode::slip, Vector())) cand[k].push_back({Mode::slip, Vector()});
      } else if (sliding[k]) {
        if (allowed(i, Mode::slip, Vector(ut / ut.norm()))) cand[k].push_back({Mode::slip, ut / ut.norm()});
      } else {
        if (allowed(i, Mode::stick, Vector())) cand[k].push_back({Mode::stick, Vector()});
        if (d == 2) {
          for (double sg : {1.0, -1.0}) {
            Vector sd(1);
            sd[0] = sg;
            if (allowed(i, Mode::slip, sd)) cand[k].push_back({Mode::slip, sd});
          }
        } else {
          std::vector<HybridMode> trial = base;
          trial[i] = {Mode::stick, Vector()};
          const Dynamics dt0 = hy.dynamics(t, q, v, trial);
          Vector sd = -dt0.lambda_t.col(i);
          if (sd.norm() < 1e-300) sd = Vector::Unit(d - 1, 0);
          sd.normalize();
          if (allowed(i, Mode::slip, sd)) cand[k].push_back({Mode::slip, sd});
        }
      }
      if (allowed(i, Mode::free, Vector())) cand[k].push_back({Mode::free, Vector()});
    }
    std::vector<std::vector<HybridMode>> consistent;
    // (1) analysis::contact_modes on the closed contacts. The state handed over carries our
    // stabilization folded into the biases (c_n + 2α u_n + β² g, and c_t + 2α u_t on resting
    // contacts, then g := 0 and per-constraint α = β = γ := 0) and the open contacts moved away
    // (g := 1 + |g|), so that its equations are exactly those of Hybrid::dynamics. Each solution
    // is read as hybrid modes with the degenerate alternatives of a switching boundary (a stick
    // with ‖λ_t‖ = μλ_n also reads as slip opposite to λ_t; λ_n = 0 also reads as free), which
    // is what the exclusions after a fired root need; the alternatives are filtered by the
    // exclusions and verified by check.
    auto by_analysis = [&]() -> bool {
      if (!analysis_applies || C.empty()) return false;
      Index nz = 0;
      for (std::size_t k = 0; k < C.size(); ++k) nz += (mu[C[k]] > 0.0 && !sliding[k]) ? 4 : 1;
      if (nz > 12) return false;
      ContactState a = sys.contact_state(q, v, t);
      std::vector<bool> in_c(m, false);
      for (Index i : C) in_c[i] = true;
      for (Index i = 0; i < m; ++i) {
        auto& c = a.constraints[i];
        if (!in_c[i]) {
          c.gamma = c.baumgarte_alpha = c.baumgarte_beta = 0.0;
          c.gap = 1.0 + std::abs(c.gap);
          continue;
        }
        const double un = c.normal.dot(v);
        const Vector ut = c.tangent.transpose() * v;
        const double al = baumgarte_alpha(c, st), be = baumgarte_beta(c, st);
        c.normal_bias += 2.0 * al * un + be * be * c.gap;
        c.gap = 0.0;
        if (c.mu > 0.0 && ut.norm() <= tol_v) c.tangent_bias += 2.0 * al * ut;
        c.gamma = c.baumgarte_alpha = c.baumgarte_beta = 0.0;
      }
      ContactModeAnalysis an;
      try {
        an = contact_modes(a, ContactModeSettings{.gap_tolerance = 0.0, .velocity_tolerance = tol_v,
                                                  .tolerance = tol_f, .max_lcp_size = 12});
      } catch (const std::invalid_argument&) {
        return false;  // M not positive definite or a state contact_modes refuses
      }
      if (an.active != C) return false;
      for (const auto& sol : an.solutions) {
        double sc = 1.0;
        for (const auto& e : sol.contacts) sc = std::max(sc, std::abs(e.lambda_n));
        const double tb = 100.0 * tol_f * sc;  // proposal slack; check decides with tol_f
        std::vector<std::vector<HybridMode>> alt(C.size());
        bool empty = false;
        for (std::size_t k = 0; k < C.size() && !empty; ++k) {
          const Index i = C[k];
          const ContactModeEntry& e = sol.contacts[k];
          std::vector<HybridMode> opts;
          if (e.mode == ContactMode::separate) {
            opts.push_back({Mode::free, Vector()});
          } else {
            if (mu[i] == 0.0) {
              opts.push_back({Mode::slip, Vector()});
            } else if (e.mode == ContactMode::stick) {
              opts.push_back({Mode::stick, Vector()});
              const double lt = e.lambda_t.norm();
              if (lt > 0.0 && lt >= mu[i] * e.lambda_n - tb) opts.push_back({Mode::slip, -e.lambda_t / lt});
            } else {
              opts.push_back({Mode::slip, e.direction});
            }
            if (e.lambda_n <= tb) opts.push_back({Mode::free, Vector()});
          }
          for (const auto& o : opts)
            if (allowed(i, o.mode, o.s)) alt[k].push_back(o);
          empty = alt[k].empty();
        }
        if (empty) continue;
        std::vector<std::size_t> idx(C.size(), 0);
        while (true) {
          std::vector<HybridMode> trial = base;
          for (std::size_t k = 0; k < C.size(); ++k) trial[C[k]] = alt[k][idx[k]];
          const bool seen = std::any_of(consistent.begin(), consistent.end(), [&](const auto& cm) {
            for (Index i : C)
              if (cm[i].mode != trial[i].mode || cm[i].s.size() != trial[i].s.size() ||
                  (trial[i].s.size() > 0 && cm[i].s.dot(trial[i].s) < 0.5))
                return false;
            return true;
          });
          if (!seen && check(trial)) consistent.push_back(trial);
          std::size_t k = 0;
          while (k < C.size() && ++idx[k] == alt[k].size()) { idx[k] = 0; ++k; }
          if (k == C.size()) break;
        }
      }
      return !consistent.empty();
    };
    // (2) our own enumeration of the candidates.
    if (!by_analysis()) {
      consistent.clear();
      if (C.size() > 8) {
        unsupported = fmt::format(
            "{} simultaneous closed contacts at t = {} s exceed the 8 that the event-driven mode "
            "enumeration handles; use the time-stepping integrator",
            C.size(), t);
        return false;
      }
      std::vector<std::size_t> idx(C.size(), 0);
      while (true) {
        std::vector<HybridMode> trial = base;
        for (std::size_t k = 0; k < C.size(); ++k) trial[C[k]] = cand[k][idx[k]];
        if (check(trial)) consistent.push_back(trial);
        std::size_t k = 0;
        while (k < C.size() && ++idx[k] == cand[k].size()) { idx[k] = 0; ++k; }
        if (k == C.size()) break;
      }
    }
    // The consistent assignment with the most sticking, then sliding, contacts (first one on ties).
    bool have = false;
    std::vector<HybridMode> best;
    int best_score = -1;
    for (const auto& trial : consistent) {
      int score = 0;
      for (Index i : C) score += trial[i].mode == Mode::stick ? 100 : (trial[i].mode == Mode::slip ? 1 : 0);
      if (score > best_score) { best_score = score; best = trial; have = true; }
    }
    // Painlevé (digest 000 §A.4): sliding contact with both slip and separation consistent and
    // α < 0 → case 4 (indeterminacy), choose separation; nothing consistent → case 3.
    for (std::size_t k = 0; k < C.size(); ++k) {
      if (!sliding[k] || cand[k].empty() || cand[k][0].mode != Mode::slip) continue;
      const Index i = C[k];
      bool slip_ok = false, free_ok = false;
      std::vector<HybridMode> free_choice;
      for (const auto& cm : consistent) {
        if (cm[i].mode == Mode::slip) slip_ok = true;
        if (cm[i].mode == Mode::free) { free_ok = true; free_choice = cm; }
      }
      if (slip_ok && free_ok) {
        std::vector<HybridMode> trial = base;
        trial[i] = cand[k][0];
        const Dynamics dy = hy.dynamics(t, q, v, trial);
        painleve = fmt::format("case 4 (indeterminacy): alpha = {:.6g} < 0, beta = {:.6g} < 0; policy: separation",
                               dy.S_min_diag, -probe.an[i]);
        painleve_case = 4;
        painleve_contact = i;
        best = free_choice;
      }
    }
    if (!have) {
      bool any_sliding = false;
      for (bool b : sliding) any_sliding = any_sliding || b;
      if (any_sliding) {
        Index i = -1;
        for (std::size_t k = 0; k < C.size(); ++k) if (sliding[k]) i = C[k];
        std::vector<HybridMode> trial = base;
        for (std::size_t k = 0; k < C.size(); ++k) {
          const Vector ut = probe.ut.col(C[k]);
          if (sliding[k]) trial[C[k]] = {Mode::slip, ut / ut.norm()};
        }
        const Dynamics dy = hy.dynamics(t, q, v, trial);
        painleve = fmt::format("case 3 (inconsistency) at contact {}: alpha = {:.6g} < 0, beta = {:.6g} > 0; "
                               "no rigid-body solution",
                               i, dy.S_min_diag, -probe.an[i]);
        painleve_case = 3;
        painleve_contact = i;
      }
      return false;
    }
    modes = best;
    return true;
  };

  // Painlevé policy "tangential_impact" (docs/simulation.md §Painlevé): at a case-3 state of
  // contact i (sliding, u_n = 0, no consistent mode) an impulsive transition at the velocity level
  // with e = 0: contact i sticks, u_i⁺ = 0 (its d rows as equalities with free impulse P_i), the
  // other closed contacts take part with e = 0 and Coulomb friction, joints with u_B⁺ = 0:
  //   M(v⁺ − v⁻) = H_i P_i + H_U r + H_B p,  u_i⁺ = H_iᵀv⁺ = 0,  K_μ ∋ r ⊥ û_U ∈ K*_μ,  u_B⁺ = 0,
  // accepted when P_i lies in its Coulomb cone (P_n > 0, ‖P_t‖ ≤ μP_n). For one contact this is
  // P_i = −W_ii⁻¹ u_i⁻, the end of the Darboux–Keller impulsive phase of Génot & Brogliato
  // (slip with dP_t = −μσ dP_n while α < 0 drives u_n < 0 and u_t to 0, then stick until u_n
  // returns to 0, e = 0). For one contact P_i is always in the cone in case 3: |P_t|/P_n =
  // W_nn/|W_nt| < μ ⟺ α = W_nn − μσW_nt < 0. With other contacts or joints it may not be; then
  // the policy fails and the run stops with status painleve (the message says why).
  // Energy: ΔT = −½ u_i⁻ᵀ W_ii⁻¹ u_i⁻ ≤ 0 for one contact.
  auto tangential_impact = [&](Index i, std::string& detail) -> bool {
    if (i < 0) { detail = "no contact named"; return false; }
    const Vector q = qof(y), v = vof(y);
    const ContactState s = sys.contact_state(q, v, t);
    const auto& ci = s.constraints[i];
    ContactState sx = s;
    VelocityLevelInput in;
    for (Index j = 0; j < m; ++j) {
      const auto& c = s.constraints[j];
      if (c.kind == ConstraintKind::bilateral) in.bilateral.push_back(j);
      else if (j != i && c.gap <= 10.0 * eps_g) in.unilateral.push_back(j);
    }
    const Index first = sx.size();
    for (int k = 0; k < d; ++k) {
      ContactConstraint b;
      b.name = ci.name + "/tangential_impact";
      b.kind = ConstraintKind::bilateral;
      b.normal = k == 0 ? ci.normal : Vector(ci.tangent.col(k - 1));
      b.tangent = Matrix::Zero(nv, d - 1);
      b.tangent_bias = Vector::Zero(d - 1);
      sx.constraints.push_back(std::move(b));
      in.bilateral.push_back(first + k);
    }
    in.w_unilateral = Vector::Zero(d * static_cast<Index>(in.unilateral.size()));
    in.w_bilateral = Vector::Zero(static_cast<Index>(in.bilateral.size()));
    const MassSolver mass(s.M);
    const VelocityLevelSolution sol = solve_velocity_level(sx, mass, v, in, st.solver, fcs);
    const Vector P = sol.p.tail(d);
    const Vector ut = ci.tangent.transpose() * v;
    const double pt = P.tail(d - 1).norm();
    if (!all_finite(sol.v) || !all_finite(P) || (!in.unilateral.empty() && !sol.report.converged() &&
                                                  sol.report.residual > 1e3 * st.solver_tolerance)) {
      detail = "the velocity-level problem was not solved";
      return false;
    }
    if (!(P[0] > 0.0) || pt > ci.mu * P[0] * (1.0 + 1e-9) + 1e-14) {
      detail = fmt::format("the sticking impulse P_n = {:.6g} N·s, |P_t| = {:.6g} N·s lies outside the "
                           "Coulomb cone (mu = {}): sticking cannot end the impulsive phase",
                           P[0], pt, ci.mu);
      return false;
    }
    const double T0 = sys.kinetic_energy(q, v), T1 = sys.kinetic_energy(q, sol.v);
    detail = fmt::format("|u_t-| = {:.9g} m/s -> stick, P_n = {:.6g} N·s, |P_t| = {:.6g} N·s, dT = {:.6g} J",
                         ut.norm(), P[0], pt, T1 - T0);
    y.tail(nv) = sol.v;
    return true;
  };

  auto record_contacts = [&](const Dynamics& dy) {
    for (Index i = 0; i < m; ++i) {
      if (s0.constraints[i].kind == ConstraintKind::bilateral || modes[i].mode == Mode::free) continue;
      ContactRecord rec;
      rec.t = t;
      rec.contact = i;
      rec.gap = dy.g[i];
      rec.r_n = dy.lambda_n[i];
      rec.r_t = dy.lambda_t.col(i);
      rec.mode = mode_name(modes[i].mode);
      res.contacts.push_back(std::move(rec));
    }
  };
  auto record = [&]() {
    detail::record_state(res, sys, t, qof(y), vof(y), emin);
    const Dynamics dy = hy.dynamics(t, qof(y), vof(y), modes);
    record_contacts(dy);
    for (Index i = 0; i < m; ++i)
      if (s0.constraints[i].kind == ConstraintKind::unilateral)
        res.max_penetration = std::max(res.max_penetration, -dy.g[i]);
  };

  // Resolves the state at an event: impacts, then the mode choice; emits transition events.
  // Returns false when the simulation must stop (Painlevé with policy stop).
  auto resolve = [&](std::vector<int> excl, std::vector<Vector> excluded_s, bool emit = true) -> bool {
    const std::vector<HybridMode> old = modes;
    std::vector<bool> impacted(m, false);
    for (int pass = 0; pass < 3; ++pass)
      if (!impact(impacted)) break;
    if (!impact_failure.empty()) {
      res.status = "solver_failure";
      res.message = impact_failure;
      return false;
    }
    if (std::any_of(impacted.begin(), impacted.end(), [](bool b) { return b; })) {
      std::fill(excl.begin(), excl.end(), 0);
    }
    std::string painleve, unsupported;
    int pcase = 0;
    Index pc = -1;
    bool ok = choose_modes(excl, excluded_s, painleve, pcase, pc, unsupported);
    if (!ok && pcase == 3 && st.painleve_policy == "tangential_impact") {
      // Case 3 with policy tangential_impact: the impulsive transition, then the mode choice again
      // (nothing excluded: the velocities jumped).
      std::string detail;
      const bool applied = tangential_impact(pc, detail);
      res.events.push_back({t, "painleve", pc, painleve + "; policy: tangential impact: " + detail});
      if (!applied) {
        res.status = "painleve";
        res.message = painleve + "; the tangential impact failed: " + detail;
        return false;
      }
      if (pc >= 0) impacted[pc] = true;
      painleve.clear();
      pcase = 0;
      std::fill(excl.begin(), excl.end(), 0);
      ok = choose_modes(excl, excluded_s, painleve, pcase, pc, unsupported);
    }
    if (!painleve.empty()) res.events.push_back({t, "painleve", pc, painleve});
    if (!ok) {
      if (!unsupported.empty()) {
        res.status = "unsupported";
        res.message = unsupported;
      } else {
        res.status = painleve.empty() ? "no_consistent_mode" : "painleve";
        res.message = painleve.empty() ? "no consistent contact mode at this state" : painleve;
      }
      return false;
    }
    // Arming of the closing roots of the free contacts from the state after the event.
    {
      const ContactState sa = sys.contact_state(qof(y), vof(y), t);
      for (Index i = 0; i < m; ++i) armed[i] = arms(sa.constraints[i], vof(y), eps_g) ? 1 : 0;
    }
    for (Index i = 0; i < m; ++i) {
      if (s0.constraints[i].kind == ConstraintKind::bilateral) continue;
      const Mode a = old[i].mode, b = modes[i].mode;
      if (a == b && !(a == Mode::slip && old[i].s.size() > 0 && modes[i].s.size() > 0 && old[i].s.dot(modes[i].s) < 0))
        continue;
      std::string kind;
      if (a == Mode::stick && b == Mode::slip) kind = "stick_to_slip";
      else if (a == Mode::slip && b == Mode::stick) kind = "slip_to_stick";
      else if (a == Mode::slip && b == Mode::slip) kind = "slip_reversal";
      else if (a != Mode::free && b == Mode::free) kind = impacted[i] ? "" : "separation";
      else if (a == Mode::free && b != Mode::free) kind = impacted[i] ? "" : "contact";
      if (kind.empty() || !emit) continue;
      res.events.push_back({t, kind, i, fmt::format("{} -> {}", mode_name(a), mode_name(b))});
    }
    return true;
  };

  // initial state: impacts / modes. When they change the velocities (an impact or a tangential
  // impact at t = 0) the state before is recorded first, so that the energy summary sees the jump.
  {
    std::vector<int> ex(m, 0);
    std::vector<Vector> exs(m);
    const Vector y_pre = y;
    const bool ok = resolve(ex, exs, false);  // the initial mode choice is not a transition
    if (y != y_pre) detail::record_state(res, sys, t, qof(y_pre), vof(y_pre), emin);
    if (!ok) {
      record();
      return res;
    }
  }
  record();
  double h = std::min(st.max_step, 1e-3 * st.t_end);
  double next_record = st.record_interval;
  int events_here = 0;
  double last_event_t = -1.0;
  int last_percent = -1;
  auto rhs = [&](double tt, const Vector& yy, const std::vector<HybridMode>& md, bool* ok) {
    const Vector q = qof(yy), v = vof(yy);
    const Dynamics dy = hy.dynamics(tt, q, v, md);
    if (ok) *ok = dy.consistent && all_finite(dy.a);
    Vector f(np + nv);
    f << sys.position_rate(q, v), dy.a;
    return f;
  };
  bool ok1 = true;
  Vector k1 = rhs(t, y, modes, &ok1);

  while (t < st.t_end - 1e-14 * std::max(1.0, st.t_end)) {
    h = std::min({h, st.max_step, st.t_end - t});
    const ContactState sc = sys.contact_state(qof(y), vof(y), t);
    for (Index i = 0; i < m; ++i)  // a free contact once armed stays armed until the next event
      if (!armed[i] && arms(sc.constraints[i], vof(y), eps_g)) armed[i] = 1;
    const std::vector<Root> roots = roots_of(sc, modes, armed);
    bool okc = true;
    const Vector k2 = rhs(t + c2 * h, y + h * a21 * k1, modes, &okc);
    const Vector k3 = rhs(t + c3 * h, y + h * (a31 * k1 + a32 * k2), modes, &okc);
    const Vector k4 = rhs(t + c4 * h, y + h * (a41 * k1 + a42 * k2 + a43 * k3), modes, &okc);
    const Vector k5 = rhs(t + c5 * h, y + h * (a51 * k1 + a52 * k2 + a53 * k3 + a54 * k4), modes, &okc);
    const Vector k6 = rhs(t + h, y + h * (a61 * k1 + a62 * k2 + a63 * k3 + a64 * k4 + a65 * k5), modes, &okc);
    const Vector y1 = y + h * (a71 * k1 + a73 * k3 + a74 * k4 + a75 * k5 + a76 * k6);
    const Vector k7 = rhs(t + h, y1, modes, &okc);
    const Vector err = h * (e1 * k1 + e3 * k3 + e4 * k4 + e5 * k5 + e6 * k6 + e7 * k7);
    double en = 0.0;
    for (Index i = 0; i < y.size(); ++i) {
      const double sc_i = st.atol + st.rtol * std::max(std::abs(y[i]), std::abs(y1[i]));
      en += (err[i] / sc_i) * (err[i] / sc_i);
    }
    en = std::sqrt(en / static_cast<double>(y.size()));
    if (!std::isfinite(en) || en > 1.0 || !okc) {
      ++res.rejected_steps;
      h *= (std::isfinite(en) && okc) ? std::max(0.2, 0.9 * std::pow(en, -0.2)) : 0.25;
      if (h < 1e-14 * std::max(1.0, t)) {
        res.status = "step_failure";
        res.message = fmt::format("step size underflow at t = {} s", t);
        break;
      }
      continue;
    }
    DenseStep dn;
    dn.t0 = t;
    dn.h = h;
    dn.rc[0] = y;
    dn.rc[1] = y1 - y;
    dn.rc[2] = h * k1 - dn.rc[1];
    dn.rc[3] = dn.rc[1] - h * k7 - dn.rc[2];
    dn.rc[4] = h * (d1 * k1 + d3 * k3 + d4 * k4 + d5 * k5 + d6 * k6 + d7 * k7);

    // roots on [t, t+h]
    auto values_at = [&](double tt) {
      const Vector yy = tt >= t + h ? y1 : dn.at(tt);
      const Dynamics dy = hy.dynamics(tt, qof(yy), vof(yy), modes);
      std::vector<double> out(roots.size());
      for (std::size_t j = 0; j < roots.size(); ++j) out[j] = root_value(roots[j], dy, modes, mu, eps_g);
      return out;
    };
    // Illinois on φ over [a, b] with φ(a) > 0 ≥ φ(b); returns the right end b of the bracket.
    auto locate = [&](const auto& phi, double a, double b, double fa, double fb) {
      int side = 0;
      const double tol_t = 1e-14 * std::max(1.0, t) + 1e-15;
      for (int it = 0; it < 200 && b - a > tol_t; ++it) {
        double c = b - fb * (b - a) / (fb - fa);
        if (!(c > a && c < b)) c = 0.5 * (a + b);
        const double fc = phi(c);
        if (fc > 0.0) {
          a = c; fa = fc;
          if (side == -1) fb *= 0.5;
          side = -1;
        } else {
          b = c; fb = fc;
          if (side == 1) fa *= 0.5;
          side = 1;
        }
      }
      return b;
    };
    const std::vector<double> f0 = values_at(t), f1 = values_at(t + h);
    double t_star = std::numeric_limits<double>::infinity();
    std::size_t fired = roots.size();
    for (std::size_t j = 0; j < roots.size(); ++j) {
      if (!(f0[j] > 0.0 && f1[j] <= 0.0)) continue;
      const double b = locate([&](double c) { return values_at(c)[j]; }, t, t + h, f0[j], f1[j]);
      if (b < t_star) { t_star = b; fired = j; }
    }
    // Missed closing (safety net): a free contact ending the step below −10ε without a located
    // root (e.g. it entered the step disarmed and not moving away) is backtracked on the dense
    // output to the crossing of g = −10ε and handled as a closing there.
    Index missed = -1;
    if (fired == roots.size()) {
      const ContactState s1 = sys.contact_state(qof(y1), vof(y1), t + h);
      for (Index i = 0; i < m; ++i) {
        if (s0.constraints[i].kind != ConstraintKind::unilateral || modes[i].mode != Mode::free) continue;
        if (s1.constraints[i].gap >= -10.0 * eps_g) continue;
        auto chi = [&](double tt) {
          const Vector yy = tt >= t + h ? y1 : dn.at(tt);
          return sys.contact_state(qof(yy), vof(yy), tt).constraints[i].gap + 10.0 * eps_g;
        };
        const double c0 = sc.constraints[i].gap + 10.0 * eps_g;
        if (!(c0 > 0.0)) continue;  // already below at the start: counted as penetration
        const double b = locate(chi, t, t + h, c0, s1.constraints[i].gap + 10.0 * eps_g);
        if (b < t_star) { t_star = b; missed = i; }
      }
    }
    ++res.steps;
    if (fired < roots.size() && roots[fired].kind == RootKind::apex) {
      // Apex of a disarmed free contact: opened (g > 0) → arm its closing root and restart the
      // step from the apex (no event); never opened (g ≤ 0) → it closes here without impact.
      const Index i = roots[fired].contact;
      y = t_star >= t + h ? y1 : dn.at(t_star);
      t = t_star;
      const ContactState sa = sys.contact_state(qof(y), vof(y), t);
      if (sa.constraints[i].gap > 0.0) {
        armed[i] = 1;
        k1 = rhs(t, y, modes, &ok1);
        continue;
      }
      res.events.push_back(
          {t, "zeno", i,
           fmt::format("accumulation rule: the contact did not open since it last closed (apex "
                       "g = {:.3g} m <= 0); closed without impact, u_n = {:.3g} m/s",
                       sa.constraints[i].gap, sa.constraints[i].normal.dot(vof(y)))});
    }
    if (fired < roots.size() || missed >= 0) {
      y = t_star >= t + h ? y1 : dn.at(t_star);
      t = t_star;
      record();
      const Root r = fired < roots.size() ? roots[fired] : Root{RootKind::closing, missed};
      std::vector<int> ex(m, 0);
      std::vector<Vector> exs(m);
      if (r.kind == RootKind::normal_force) ex[r.contact] = 2 | 8;  // λ_n → 0: the contact leaves
      if (r.kind == RootKind::stick_cone) ex[r.contact] = 2;         // |λ_t| = μλ_n: stick → slip
      if (r.kind == RootKind::slip_velocity) {                       // u_t → 0: no slip that way
        ex[r.contact] = 4;
        exs[r.contact] = modes[r.contact].s;
      }
      if (!resolve(ex, exs)) break;
      if (std::abs(t - last_event_t) < 1e-12) {
        if (++events_here > 50) {
          res.status = "event_limit";
          res.message = fmt::format("more than 50 events at t = {} s (chattering)", t);
          break;
        }
      } else {
        events_here = 0;
        last_event_t = t;
      }
      if (static_cast<int>(res.events.size()) > st.max_events) {
        res.status = "event_limit";
        res.message = fmt::format("more than {} events", st.max_events);
        break;
      }
      record();
      k1 = rhs(t, y, modes, &ok1);
      h = std::max(h, 1e-6 * st.max_step);
    } else {
      t += h;
      y = y1;
      Vector qn = y.head(np);
      sys.normalize_position(qn);
      y.head(np) = qn;
      k1 = k7;
      if (st.record_interval <= 0.0 || t >= next_record - 1e-12 || t >= st.t_end - 1e-14) {
        record();
        while (st.record_interval > 0.0 && next_record <= t + 1e-12) next_record += st.record_interval;
      }
      h *= std::min(5.0, std::max(0.2, 0.9 * std::pow(std::max(en, 1e-10), -0.2)));
    }
    if (progress) {
      const int pc = static_cast<int>(100.0 * t / st.t_end);
      if (pc != last_percent) { last_percent = pc; progress(t / st.t_end); }
    }
  }
  return res;
}

}  // namespace moreau
