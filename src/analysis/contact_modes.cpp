#include "moreau/analysis/contact_modes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "moreau/common/error.hpp"
#include "moreau/linalg/matrix_class.hpp"
#include "moreau/linalg/pseudo_inverse.hpp"
#include "moreau/solvers/lcp/enumeration.hpp"

namespace moreau {
namespace {

enum class Kind { bilateral, frictionless, sliding, resting };

// Everything about the active contacts of one state that both routes (LCP, enumeration) share.
struct Context {
  const ContactState* s = nullptr;
  int d = 2;
  Index n = 0;
  Eigen::LLT<Matrix> llt;
  std::vector<Index> active;
  std::vector<Kind> kind;
  std::vector<Vector> slide_dir;  // unit v_t/‖v_t‖ for sliding contacts
  std::vector<double> bias;       // 2α ġ + β² g (Baumgarte, as Drake's kN)
  double acc_scale = 1.0;         // max(1, |a(λ = 0)|) for tolerances
  double tol = 1e-9;

  const ContactConstraint& c(size_t j) const { return s->constraints[active[j]]; }
};

Context make_context(const ContactState& state, const ContactModeSettings& st) {
  state.validate();
  MOREAU_REQUIRE(st.gap_tolerance >= 0 && st.velocity_tolerance >= 0 && st.tolerance > 0,
                 "contact modes: tolerances must be positive");
  Context ctx;
  ctx.s = &state;
  ctx.d = state.dimension;
  ctx.n = state.dofs();
  ctx.tol = st.tolerance;
  ctx.llt.compute(state.M);
  MOREAU_REQUIRE(
      ctx.llt.info() == Eigen::Success && is_positive_definite(state.M, 1e-12),
      "contact modes: M must be positive definite (λ_min = {}); use all_sticking for a singular M",
      min_symmetric_eigenvalue(state.M));
  const Vector a0 = -ctx.llt.solve(state.F);
  for (Index i = 0; i < state.size(); ++i) {
    const auto& c = state.constraints[i];
    const double gdot = c.normal.dot(state.v);
    const bool bil = c.kind == ConstraintKind::bilateral;
    if (!bil && !(std::abs(c.gap) <= st.gap_tolerance && std::abs(gdot) <= st.velocity_tolerance))
      continue;
    MOREAU_REQUIRE(!bil || c.mu == 0.0,
                   "contact modes: bilateral constraint {} ('{}') has μ = {}; friction on "
                   "bilateral constraints is not supported here",
                   i, c.name, c.mu);
    ctx.active.push_back(i);
    const Vector vt = c.tangent.transpose() * state.v;
    Kind k =
        bil ? Kind::bilateral
            : (c.mu == 0.0 ? Kind::frictionless
                           : (vt.norm() > st.velocity_tolerance ? Kind::sliding : Kind::resting));
    ctx.kind.push_back(k);
    ctx.slide_dir.push_back(k == Kind::sliding ? Vector(vt / vt.norm()) : Vector());
    ctx.bias.push_back(2.0 * c.baumgarte_alpha * gdot +
                       c.baumgarte_beta * c.baumgarte_beta * c.gap);
    ctx.acc_scale = std::max({ctx.acc_scale, std::abs(c.normal.dot(a0) + c.normal_bias),
                              (c.tangent.transpose() * a0 + c.tangent_bias).cwiseAbs().maxCoeff()});
  }
  return ctx;
}

// q̈, a and the mode of every active contact from the multipliers (λ_n per active, λ_t (d−1) per
// active).
ContactModeSolution finish(const Context& ctx, const Vector& lambda_n,
                           const std::vector<Vector>& lambda_t) {
  const auto& s = *ctx.s;
  Vector f = -s.F;
  for (size_t j = 0; j < ctx.active.size(); ++j)
    f += ctx.c(j).normal * lambda_n[j] + ctx.c(j).tangent * lambda_t[j];
  ContactModeSolution sol;
  sol.qddot = ctx.llt.solve(f);
  double fscale = 1.0;
  for (size_t j = 0; j < ctx.active.size(); ++j) fscale = std::max(fscale, std::abs(lambda_n[j]));
  const double ta = 100.0 * ctx.tol * ctx.acc_scale;
  const double tf = 100.0 * ctx.tol * fscale;
  for (size_t j = 0; j < ctx.active.size(); ++j) {
    const auto& c = ctx.c(j);
    ContactModeEntry e;
    e.constraint = ctx.active[j];
    e.bilateral = ctx.kind[j] == Kind::bilateral;
    e.already_sliding = ctx.kind[j] == Kind::sliding;
    e.lambda_n = lambda_n[j];
    e.lambda_t = lambda_t[j];
    e.a_n = c.normal.dot(sol.qddot) + c.normal_bias;
    e.a_t = c.tangent.transpose() * sol.qddot + c.tangent_bias;
    if (!e.bilateral && std::abs(e.lambda_n) <= tf && e.a_n + ctx.bias[j] > ta) {
      e.mode = ContactMode::separate;
    } else if (e.already_sliding) {
      e.mode = ContactMode::slip;
      e.direction = ctx.slide_dir[j];
    } else if (e.a_t.norm() <= ta) {
      e.mode = ContactMode::stick;
    } else {
      e.mode = ContactMode::slip;
      e.direction = e.a_t / e.a_t.norm();
    }
    sol.contacts.push_back(e);
  }
  return sol;
}

// Physically distinct = different q̈ or modes. Multipliers alone are not compared: with redundant
// constraints (a block resting flat, a particle in a corner) only J λ = M q̈ + F is determined;
// when two solutions share q̈ and modes but differ in λ_n, multipliers_unique is cleared.
bool same_motion(const ContactModeSolution& a, const ContactModeSolution& b, double tol) {
  const double sq = std::max(1.0, a.qddot.cwiseAbs().maxCoeff());
  if ((a.qddot - b.qddot).cwiseAbs().maxCoeff() > tol * sq) return false;
  for (size_t j = 0; j < a.contacts.size(); ++j)
    if (a.contacts[j].mode != b.contacts[j].mode) return false;
  return true;
}

void add_unique(ContactModeAnalysis& out, ContactModeSolution sol, double tol) {
  for (const auto& s : out.solutions)
    if (same_motion(s, sol, tol)) {
      for (size_t j = 0; j < sol.contacts.size(); ++j) {
        const double sl = std::max(1.0, std::abs(s.contacts[j].lambda_n));
        if (std::abs(s.contacts[j].lambda_n - sol.contacts[j].lambda_n) > tol * sl)
          out.multipliers_unique = false;
      }
      return;
    }
  out.solutions.push_back(std::move(sol));
}

void fill_lists(const Context& ctx, ContactModeAnalysis& out) {
  out.active = ctx.active;
  for (size_t j = 0; j < ctx.active.size(); ++j)
    if (ctx.kind[j] == Kind::sliding) out.sliding.push_back(ctx.active[j]);
}

// ---- enumeration route: one mode per contact, linear solve, sign checks -------------------------
enum class Pick { separate, contact, stick, slip };

// Solves the square system of one mode assignment; slip contacts use direction u (d−1).
// Returns false when the assignment gives no consistent solution.
bool solve_assignment(const Context& ctx, const std::vector<Pick>& pick,
                      const std::vector<Vector>& u, ContactModeSolution& sol) {
  const int dt = ctx.d - 1;
  const size_t m = ctx.active.size();
  std::vector<Vector> cols;                 // force columns
  std::vector<std::pair<size_t, int>> var;  // (contact, 0 = λ_n, 1.. = λ_t component)
  for (size_t j = 0; j < m; ++j) {
    if (pick[j] == Pick::separate) continue;
    Vector col = ctx.c(j).normal;
    if (pick[j] == Pick::slip) col -= ctx.c(j).mu * ctx.c(j).tangent * u[j];
    cols.push_back(col);
    var.push_back({j, 0});
    if (pick[j] == Pick::stick)
      for (int k = 0; k < dt; ++k) {
        cols.push_back(ctx.c(j).tangent.col(k));
        var.push_back({j, k + 1});
      }
  }
  const Index nv = static_cast<Index>(var.size());
  Matrix A = Matrix::Zero(nv, nv);
  Vector rhs(nv);
  Matrix C(ctx.n, nv);
  for (Index k = 0; k < nv; ++k) C.col(k) = cols[k];
  // M⁻¹C (n×nv); an empty C is skipped: Eigen's triangular solve touches entry (0,0) of it.
  const Matrix MinvC = nv > 0 ? Matrix(ctx.llt.solve(C)) : Matrix(ctx.n, 0);
  const Vector MinvF = ctx.llt.solve(ctx.s->F);
  for (Index r = 0; r < nv; ++r) {
    const auto [j, comp] = var[r];
    const Vector g = comp == 0 ? Vector(ctx.c(j).normal) : Vector(ctx.c(j).tangent.col(comp - 1));
    A.row(r) = g.transpose() * MinvC;
    const double cb =
        comp == 0 ? ctx.c(j).normal_bias + ctx.bias[j] : ctx.c(j).tangent_bias[comp - 1];
    rhs[r] = g.dot(MinvF) - cb;
    if (comp == 0) A(r, r) += ctx.c(j).gamma;  // softening on the diagonal
  }
  Vector x = Vector::Zero(nv);
  if (nv > 0) {
    Eigen::FullPivLU<Matrix> lu(A);
    if (lu.isInvertible())
      x = lu.solve(rhs);
    else
      x = Eigen::CompleteOrthogonalDecomposition<Matrix>(A).solve(rhs);
    if ((A * x - rhs).norm() > 1e-8 * std::max(1.0, rhs.norm())) return false;
  }
  Vector ln = Vector::Zero(m);
  std::vector<Vector> lt(m, Vector::Zero(dt));
  for (Index r = 0; r < nv; ++r) {
    const auto [j, comp] = var[r];
    if (comp == 0)
      ln[j] = x[r];
    else
      lt[j][comp - 1] = x[r];
  }
  for (size_t j = 0; j < m; ++j)
    if (pick[j] == Pick::slip) lt[j] = -ctx.c(j).mu * ln[j] * u[j];
  sol = finish(ctx, ln, lt);
  double fscale = 1.0;
  for (size_t j = 0; j < m; ++j) fscale = std::max(fscale, std::abs(ln[j]));
  const double ta = 100.0 * ctx.tol * ctx.acc_scale, tf = 100.0 * ctx.tol * fscale;
  for (size_t j = 0; j < m; ++j) {
    const auto& e = sol.contacts[j];
    const bool uni = ctx.kind[j] != Kind::bilateral;
    if (pick[j] == Pick::separate) {
      if (e.a_n + ctx.bias[j] < -ta) return false;
      continue;
    }
    if (uni && ln[j] < -tf) return false;
    if (pick[j] == Pick::stick && lt[j].norm() > ctx.c(j).mu * ln[j] + tf) return false;
    if (pick[j] == Pick::slip && ctx.kind[j] == Kind::resting) {
      const double along = u[j].dot(e.a_t);
      if (along < -ta || (e.a_t - along * u[j]).norm() > ta) return false;
    }
  }
  return true;
}

Vector unit(double phi) { return Vector2(std::cos(phi), std::sin(phi)); }

// 3D: Newton on the slip angles φ (residual: component of a_t orthogonal to u(φ)).
void solve_3d_assignment(const Context& ctx, const std::vector<Pick>& pick,
                         const ContactModeSettings& st, ContactModeAnalysis& out) {
  const size_t m = ctx.active.size();
  std::vector<size_t> free_dir;
  std::vector<Vector> u(m);
  for (size_t j = 0; j < m; ++j) {
    if (pick[j] != Pick::slip) continue;
    if (ctx.kind[j] == Kind::sliding)
      u[j] = ctx.slide_dir[j];
    else
      free_dir.push_back(j);
  }
  const size_t k = free_dir.size();
  ContactModeSolution sol;
  if (k == 0) {
    if (solve_assignment(ctx, pick, u, sol)) add_unique(out, sol, 1e-6);
    return;
  }
  auto residual = [&](const Vector& phi, Vector& r) {
    std::vector<Vector> uu = u;
    for (size_t a = 0; a < k; ++a) uu[free_dir[a]] = unit(phi[a]);
    ContactModeSolution s2;
    // Only the linear solve matters here (s2 is filled before the sign checks); the verdict is
    // taken after Newton has converged.
    static_cast<void>(solve_assignment(ctx, pick, uu, s2));
    r.resize(k);
    for (size_t a = 0; a < k; ++a) {
      const Vector ua = uu[free_dir[a]];
      const Vector& at =
          s2.contacts.empty() ? Vector(Vector::Zero(2)) : s2.contacts[free_dir[a]].a_t;
      r[a] = -ua[1] * at[0] + ua[0] * at[1];
    }
  };
  const int starts = std::max(4, st.direction_starts);
  const long combos = std::min<long>(static_cast<long>(std::pow(starts, k)), 256);
  for (long cidx = 0; cidx < combos; ++cidx) {
    Vector phi(k);
    long rem = cidx;
    for (size_t a = 0; a < k; ++a) {
      phi[a] = 2.0 * std::numbers::pi * ((rem % starts) + 0.5) / starts;
      rem /= starts;
    }
    Vector r;
    residual(phi, r);
    for (int it = 0; it < 60 && r.norm() > 1e-13 * ctx.acc_scale; ++it) {
      Matrix J(k, k);
      for (size_t a = 0; a < k; ++a) {
        Vector p2 = phi;
        p2[a] += 1e-7;
        Vector r2;
        residual(p2, r2);
        J.col(a) = (r2 - r) / 1e-7;
      }
      const Vector step = Eigen::CompleteOrthogonalDecomposition<Matrix>(J).solve(-r);
      double t = 1.0;
      Vector rn;
      bool descent = false;
      for (int ls = 0; ls < 20 && !descent; ++ls) {
        residual(phi + t * step, rn);
        descent = rn.norm() < r.norm();
        if (!descent) t *= 0.5;
      }
      if (!descent) break;  // stalled: no step of the line search lowers the residual
      phi += t * step;
      r = rn;
    }
    std::vector<Vector> uu = u;
    for (size_t a = 0; a < k; ++a) uu[free_dir[a]] = unit(phi[a]);
    if (solve_assignment(ctx, pick, uu, sol)) add_unique(out, sol, 1e-6);
  }
}

void enumerate_modes(const Context& ctx, const ContactModeSettings& st, ContactModeAnalysis& out) {
  const size_t m = ctx.active.size();
  std::vector<std::vector<Pick>> options(m);
  for (size_t j = 0; j < m; ++j) {
    switch (ctx.kind[j]) {
      case Kind::bilateral:
        options[j] = {Pick::contact};
        break;
      case Kind::frictionless:
        options[j] = {Pick::separate, Pick::contact};
        break;
      case Kind::sliding:
        options[j] = {Pick::separate, Pick::slip};
        break;
      case Kind::resting:
        options[j] = {Pick::separate, Pick::stick, Pick::slip};
        break;
    }
  }
  // "contact" for frictionless/bilateral = slip with μ = 0 (no tangential unknown) — handled as
  // slip with a zero direction vector.
  std::vector<size_t> idx(m, 0);
  while (true) {
    std::vector<Pick> pick(m);
    for (size_t j = 0; j < m; ++j) pick[j] = options[j][idx[j]];
    std::vector<Pick> eff = pick;
    std::vector<Vector> u(m);
    std::vector<size_t> rest_slip;
    for (size_t j = 0; j < m; ++j) {
      if (eff[j] == Pick::contact) {
        eff[j] = Pick::slip;
        u[j] = Vector::Zero(ctx.d - 1);
      } else if (eff[j] == Pick::slip && ctx.kind[j] == Kind::sliding) {
        u[j] = ctx.slide_dir[j];
      } else if (eff[j] == Pick::slip) {
        rest_slip.push_back(j);
      }
    }
    if (ctx.d == 2) {
      // Directions ±1 for every slip-from-rest contact.
      for (unsigned sm = 0; sm < (1u << rest_slip.size()); ++sm) {
        for (size_t a = 0; a < rest_slip.size(); ++a)
          u[rest_slip[a]] = Vector::Constant(1, (sm & (1u << a)) ? -1.0 : 1.0);
        ContactModeSolution sol;
        if (solve_assignment(ctx, eff, u, sol)) add_unique(out, sol, 1e-6);
      }
    } else {
      // Frictionless contacts and sliding ones already carry u; rest-slips are solved by Newton.
      Context c2 = ctx;
      std::vector<Pick> p3 = eff;
      // Mark frictionless "contact" picks as sliding with u = 0 for the 3D routine.
      for (size_t j = 0; j < m; ++j)
        if (pick[j] == Pick::contact) {
          c2.kind[j] = Kind::sliding;
          c2.slide_dir[j] = Vector::Zero(2);
        }
      solve_3d_assignment(c2, p3, st, out);
    }
    size_t j = 0;
    while (j < m && ++idx[j] == options[j].size()) idx[j++] = 0;
    if (j == m) break;
  }
  // Re-derive entries with the original context (kind flags of frictionless contacts).
  for (auto& sol : out.solutions) {
    Vector ln(m);
    std::vector<Vector> lt(m);
    for (size_t j = 0; j < m; ++j) {
      ln[j] = sol.contacts[j].lambda_n;
      lt[j] = sol.contacts[j].lambda_t;
    }
    sol = finish(ctx, ln, lt);
  }
}

}  // namespace

ContactModeAnalysis contact_modes_by_enumeration(const ContactState& state,
                                                 const ContactModeSettings& st) {
  const Context ctx = make_context(state, st);
  ContactModeAnalysis out;
  fill_lists(ctx, out);
  MOREAU_REQUIRE(static_cast<int>(ctx.active.size()) <= st.max_enumeration_contacts,
                 "contact modes: {} active contacts exceed max_enumeration_contacts = {}",
                 ctx.active.size(), st.max_enumeration_contacts);
  enumerate_modes(ctx, st, out);
  out.status = out.solutions.empty() ? Status::infeasible : Status::converged;
  out.message = out.solutions.empty() ? "no consistent contact mode" : "";
  return out;
}

// 2D: the acceleration-level friction LCP (see the header), bilateral rows eliminated.
ContactModeAnalysis contact_modes(const ContactState& state, const ContactModeSettings& st) {
  if (state.dimension == 3) return contact_modes_by_enumeration(state, st);
  const Context ctx = make_context(state, st);
  ContactModeAnalysis out;
  fill_lists(ctx, out);
  const size_t m = ctx.active.size();
  // Variables: bilateral λ_b first (free), then LCP variables z.
  struct Var {
    size_t contact;
    int role;  // 0 λ_n, 1 β⁺, 2 β⁻, 3 s
  };
  std::vector<Var> bvars, zvars;
  for (size_t j = 0; j < m; ++j) {
    if (ctx.kind[j] == Kind::bilateral) {
      bvars.push_back({j, 0});
      continue;
    }
    zvars.push_back({j, 0});
    if (ctx.kind[j] == Kind::resting) {
      zvars.push_back({j, 1});
      zvars.push_back({j, 2});
      zvars.push_back({j, 3});
    }
  }
  std::vector<Var> vars = bvars;
  vars.insert(vars.end(), zvars.begin(), zvars.end());
  const Index nb = bvars.size(), nz = zvars.size(), nv = nb + nz;
  if (nz > st.max_lcp_size) {
    // 2ⁿ index sets are too many: the per-contact enumeration (3^k assignments) takes over.
    MOREAU_REQUIRE(static_cast<int>(m) <= st.max_enumeration_contacts,
                   "contact modes: the mode LCP has {} variables, above max_lcp_size = {}, and "
                   "the {} active contacts exceed max_enumeration_contacts = {}",
                   nz, st.max_lcp_size, m, st.max_enumeration_contacts);
    ContactModeAnalysis by_modes = contact_modes_by_enumeration(state, st);
    by_modes.message = fmt::format(
        "the mode LCP has {} variables, above max_lcp_size = {}: modes enumerated per contact{}{}",
        nz, st.max_lcp_size, by_modes.message.empty() ? "" : "; ", by_modes.message);
    return by_modes;
  }
  // Force columns Φ (n×nv), row operators R (nv×n), direct coefficients E, constants k.
  Matrix Phi = Matrix::Zero(ctx.n, nv), R = Matrix::Zero(nv, ctx.n), E = Matrix::Zero(nv, nv);
  Vector k = Vector::Zero(nv);
  std::vector<Index> pos_n(m, -1), pos_p(m, -1), pos_m(m, -1);
  for (Index v = 0; v < nv; ++v) {
    const size_t j = vars[v].contact;
    if (vars[v].role == 0) pos_n[j] = v;
    if (vars[v].role == 1) pos_p[j] = v;
    if (vars[v].role == 2) pos_m[j] = v;
  }
  for (Index v = 0; v < nv; ++v) {
    const size_t j = vars[v].contact;
    const auto& c = ctx.c(j);
    const Vector t = c.tangent.col(0);
    switch (vars[v].role) {
      case 0:
        Phi.col(v) = c.normal;
        if (ctx.kind[j] == Kind::sliding) Phi.col(v) -= c.mu * ctx.slide_dir[j][0] * t;
        R.row(v) = c.normal.transpose();
        k[v] = c.normal_bias + ctx.bias[j];
        E(v, v) += c.gamma;
        break;
      case 1:  // β⁺: force +t; row a_t + s
        Phi.col(v) = t;
        R.row(v) = t.transpose();
        k[v] = c.tangent_bias[0];
        E(v, v + 2) = 1.0;
        break;
      case 2:  // β⁻: force −t; row −a_t + s
        Phi.col(v) = -t;
        R.row(v) = -t.transpose();
        k[v] = -c.tangent_bias[0];
        E(v, v + 1) = 1.0;
        break;
      case 3:  // s: row μλ_n − β⁺ − β⁻
        E(v, pos_n[j]) = c.mu;
        E(v, pos_p[j]) = -1.0;
        E(v, pos_m[j]) = -1.0;
        break;
    }
    out.lcp_variables.push_back(std::string(vars[v].role == 0   ? "lambda_n"
                                            : vars[v].role == 1 ? "beta+"
                                            : vars[v].role == 2 ? "beta-"
                                                                : "s") +
                                fmt::format("[{}]", ctx.active[j]));
  }
  out.lcp_variables.erase(out.lcp_variables.begin(), out.lcp_variables.begin() + nb);
  // w = K x + κ with K = R M⁻¹ Φ + E, κ = k − R M⁻¹ F.
  const Matrix MinvPhi = Phi.cols() > 0 ? Matrix(ctx.llt.solve(Phi)) : Matrix(Phi.rows(), 0);
  const Matrix K = R * MinvPhi + E;
  const Vector kappa = k - R * ctx.llt.solve(state.F);
  Matrix Kbb_pinv = Matrix(0, 0);
  if (nb > 0) {
    const Matrix Kbb = K.topLeftCorner(nb, nb);
    Kbb_pinv = pseudo_inverse(Kbb);
    if (numerical_rank(Kbb) < nb)
      out.message = "redundant bilateral constraints: minimum-norm bilateral forces";
  }
  out.lcp.M = K.bottomRightCorner(nz, nz);
  out.lcp.q = kappa.tail(nz);
  if (nb > 0) {
    out.lcp.M -= K.bottomLeftCorner(nz, nb) * Kbb_pinv * K.topRightCorner(nb, nz);
    out.lcp.q -= K.bottomLeftCorner(nz, nb) * Kbb_pinv * kappa.head(nb);
  }
  std::vector<Vector> zs;
  if (nz == 0) {
    zs.push_back(Vector(0));
  } else {
    const auto en =
        enumerate_lcp(out.lcp, {.max_size = st.max_lcp_size, .tolerance = st.tolerance});
    zs = en.solutions;
  }
  for (const Vector& z : zs) {
    Vector x(nv);
    x.tail(nz) = z;
    if (nb > 0) x.head(nb) = -Kbb_pinv * (K.topRightCorner(nb, nz) * z + kappa.head(nb));
    Vector ln = Vector::Zero(m);
    std::vector<Vector> lt(m, Vector::Zero(1));
    for (size_t j = 0; j < m; ++j) {
      ln[j] = x[pos_n[j]];
      if (ctx.kind[j] == Kind::resting) lt[j][0] = x[pos_p[j]] - x[pos_m[j]];
      if (ctx.kind[j] == Kind::sliding) lt[j][0] = -ctx.c(j).mu * ctx.slide_dir[j][0] * ln[j];
    }
    add_unique(out, finish(ctx, ln, lt), 1e-6);
  }
  out.status = out.solutions.empty() ? Status::infeasible : Status::converged;
  if (out.solutions.empty())
    out.message = "no consistent contact mode (the mode LCP has no solution)";
  return out;
}

}  // namespace moreau
