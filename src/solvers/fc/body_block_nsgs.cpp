#include "moreau/solvers/fc/body_block_nsgs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <Eigen/SparseCholesky>

#include "moreau/common/disjoint_sets.hpp"
#include "moreau/common/error.hpp"
#include "moreau/common/parallel.hpp"
#include "moreau/common/timer.hpp"
#include "moreau/problems/coulomb_cone.hpp"
#include "moreau/solvers/fc/local_solver.hpp"
#include "moreau/solvers/anderson_acceleration.hpp"
#include "moreau/problems/relative_error.hpp"

namespace moreau {
namespace {

// Per-contact data of one solve, fixed sizes D (contact) × Mb (body velocities).
template <int D, int Mb>
struct ContactData {
  using Rows = Eigen::Matrix<double, D, Mb>;
  using Cols = Eigen::Matrix<double, Mb, D>;
  Index a = -1, b = -1;  // velocity offsets a·Mb, b·Mb (−1: fixed body)
  Rows Ja, Jb;
  Cols MJa, MJb;            // M_a⁻¹ J_aᵀ, M_b⁻¹ J_bᵀ
  ContactBlock block;       // W_cc (+ compliance on the normal entry) and its inverse
  double compliance = 0.0;  // c_c: ũ_n = u_n + c_c r_n
};

template <int Mb>
struct BilateralData {
  using Row = Eigen::Matrix<double, 1, Mb>;
  Index a = -1, b = -1;
  Row ga, gb;
  Eigen::Matrix<double, Mb, 1> Mga, Mgb;  // M⁻¹ gᵀ per body
  double W = 0.0;                         // g M⁻¹ gᵀ
};

template <int D, int Mb>
class Solver {
 public:
  using VecD = Eigen::Matrix<double, D, 1>;
  using VecM = Eigen::Matrix<double, Mb, 1>;
  using MatM = Eigen::Matrix<double, Mb, Mb>;

  explicit Solver(const BodyBlockFrictionContactProblem& p) : p_(p) {
    const Index nc = p.contact_count();
    contacts_.resize(static_cast<size_t>(nc));
    for (Index c = 0; c < nc; ++c) {
      const auto& in = p.contacts[c];
      auto& k = contacts_[c];
      Matrix3 W = Matrix3::Zero();
      if (in.body_a >= 0) {
        k.a = in.body_a * Mb;
        k.Ja = in.J_a.template topLeftCorner<D, Mb>();
        k.MJa = minv(in.body_a) * k.Ja.transpose();
        W.template topLeftCorner<D, D>() += k.Ja * k.MJa;
      }
      if (in.body_b >= 0) {
        k.b = in.body_b * Mb;
        k.Jb = in.J_b.template topLeftCorner<D, Mb>();
        k.MJb = minv(in.body_b) * k.Jb.transpose();
        W.template topLeftCorner<D, D>() += k.Jb * k.MJb;
      }
      k.compliance = p.compliance_of(c);
      W(0, 0) += k.compliance;
      k.block = make_contact_block(D, W);
    }
    bilateral_.resize(p.bilateral.size());
    for (size_t j = 0; j < p.bilateral.size(); ++j) {
      const auto& in = p.bilateral[j];
      auto& g = bilateral_[j];
      if (in.body_a >= 0) {
        g.a = in.body_a * Mb;
        g.ga = in.g_a.template leftCols<Mb>();
        g.Mga = minv(in.body_a) * g.ga.transpose();
        g.W += g.ga.dot(g.Mga);
      }
      if (in.body_b >= 0) {
        g.b = in.body_b * Mb;
        g.gb = in.g_b.template leftCols<Mb>();
        g.Mgb = minv(in.body_b) * g.gb.transpose();
        g.W += g.gb.dot(g.Mgb);
      }
    }
    // ‖q‖ of the residual's scale, q = Hᵀ v_free + w (bilateral rows included)
    double q2 = 0.0;
    for (Index c = 0; c < nc; ++c) q2 += local_velocity(p.v_free, c).squaredNorm();
    for (size_t j = 0; j < bilateral_.size(); ++j)
      q2 += std::pow(bilateral_velocity(p.v_free, j), 2);
    q_norm_ = std::sqrt(q2);
    find_islands(p.v_free.size() / Mb);
    body_slot_.assign(static_cast<size_t>(p.v_free.size() / Mb), -1);
  }

  // u_c = J_a v_a + J_b v_b + w_c
  VecD local_velocity(const Vector& v, Index c) const {
    const auto& k = contacts_[c];
    VecD u = p_.w.template segment<D>(D * c);
    if (k.a >= 0) u.noalias() += k.Ja * v.template segment<Mb>(k.a);
    if (k.b >= 0) u.noalias() += k.Jb * v.template segment<Mb>(k.b);
    return u;
  }
  // ũ_c = u_c + c_c r_c,n e_n, the softened local velocity whose law is Coulomb's
  VecD softened_velocity(const Vector& v, const Vector& r, Index c) const {
    VecD u = local_velocity(v, c);
    u[0] += contacts_[c].compliance * r[D * c];
    return u;
  }
  // The rows J_c of contact c's impulse fields in the coarse correction: J_{c,b}, or J_{c,a} when
  // body b is fixed.
  const typename ContactData<D, Mb>::Rows& field_rows(Index c) const {
    const auto& k = contacts_[c];
    return k.b >= 0 ? k.Jb : k.Ja;
  }
  double bilateral_velocity(const Vector& v, size_t j) const {
    const auto& g = bilateral_[j];
    double u = p_.w_bilateral[static_cast<Index>(j)];
    if (g.a >= 0) u += g.ga.dot(v.template segment<Mb>(g.a));
    if (g.b >= 0) u += g.gb.dot(v.template segment<Mb>(g.b));
    return u;
  }

  // v = v_free + M⁻¹(H r + G p)
  Vector velocity(const Vector& r, const Vector& pb) const {
    Vector v = p_.v_free;
    for (Index c = 0; c < static_cast<Index>(contacts_.size()); ++c)
      add_contact(v, c, r.template segment<D>(D * c));
    for (size_t j = 0; j < bilateral_.size(); ++j) add_bilateral(v, j, pb[static_cast<Index>(j)]);
    return v;
  }

  // The residual of the header at (r, p, v).
  double residual(const Vector& r, const Vector& pb, const Vector& v, Vector* u_out) const {
    double err2 = 0.0, u2 = 0.0;
    for (Index c = 0; c < static_cast<Index>(contacts_.size()); ++c) {
      const VecD u = softened_velocity(v, r, c);
      if (u_out) u_out->template segment<D>(D * c) = u;
      u2 += u.squaredNorm();
      const double e = friction_contact_local_error(D, p_.mu[c], r.data() + D * c, u.data());
      err2 += e * e;
    }
    for (size_t j = 0; j < bilateral_.size(); ++j) {
      const double u = bilateral_velocity(v, j);
      err2 += u * u;
      u2 += u * u;
    }
    const double scale =
        std::max({q_norm_, std::sqrt(r.squaredNorm() + pb.squaredNorm()), std::sqrt(u2)});
    return relative_error(std::sqrt(err2), scale);
  }

  BodyBlockSolution solve(const Vector& r_guess, const Vector& p_guess,
                          const BodyBlockNsgsSettings& st) const {
    Stopwatch watch;
    const Index nc = static_cast<Index>(contacts_.size());
    const Index nbl = static_cast<Index>(bilateral_.size());
    BodyBlockSolution out;
    out.solver = "body_block_nsgs";
    out.r = r_guess.size() == D * nc ? r_guess : Vector::Zero(D * nc);
    out.p = p_guess.size() == nbl ? p_guess : Vector::Zero(nbl);
    Vector v = velocity(out.r, out.p);
    out.u.resize(D * nc);
    std::vector<IslandOutcome> outcome(islands_.size());
    auto run = [&](size_t i, int threads) {
      outcome[i] = solve_island(islands_[i], st, threads, watch, out.r, out.p, v);
    };
    if (st.threads <= 1) {
      for (size_t i = 0; i < islands_.size(); ++i) run(i, 1);
    } else {
      // Large islands one after the other, each swept colour by colour on every thread; the small
      // ones in parallel, each sequential (independent: they share no body). Which island is
      // large depends only on the problem, so every thread count ≥ 2 gives the same bits.
      std::vector<size_t> small;
      for (size_t i = 0; i < islands_.size(); ++i)
        if (islands_[i].contacts.size() >= kColouredIslandContacts)
          run(i, st.threads);
        else
          small.push_back(i);
      parallel_for(static_cast<Index>(small.size()), st.threads, [&](Index b, Index e) {
        for (Index k = b; k < e; ++k) run(small[k], 1);
      });
    }
    out.status = Status::converged;
    for (const IslandOutcome& o : outcome) {
      out.iterations = std::max(out.iterations, o.sweeps + o.coarse);
      out.coarse_corrections += o.coarse;
      if (o.status == Status::numerical_failure)
        out.status = o.status;
      else if (o.status != Status::converged && out.status == Status::converged)
        out.status = o.status;
    }
    if (out.status == Status::numerical_failure)
      out.message = "an impulse or velocity became NaN or infinite";
    out.residual = residual(out.r, out.p, v, &out.u);
    out.residual_history.push_back(out.residual);
    if (out.status == Status::converged && !(out.residual <= st.tolerance))
      out.status = Status::max_iterations;  // rounding only (see island_bound)
    out.v = std::move(v);
    out.seconds = watch.seconds();
    return out;
  }

 private:
  // Contacts of at least this many in an island are swept colour by colour on threads ≥ 2.
  static constexpr size_t kColouredIslandContacts = 256;
  // Sweeps between two checks of the over-relaxation's progress (solve_island).
  static constexpr int kOmegaCheck = 10;
  // Most sweeps between two measurements of the running residual (solve_island).
  static constexpr int kMaxMeasureGap = 8;
  // Most halvings of a coarse correction that leaves a face contact's cone (coarse_correct).
  static constexpr int kCoarseHalvings = 10;

  // Sweeps until the next measured one, from the running residuals gs₀ at sweep k₀ and gs at
  // sweep k: with ρ = (gs/gs₀)^(1/(k−k₀)) the residual reaches tol after about
  // n = log(tol/gs)/log ρ sweeps; the gap is n/2 in [1, kMaxMeasureGap] (kMaxMeasureGap when it
  // does not fall, 1 before two measurements).
  static int measure_gap(int k0, double gs0, int k, double gs, double tol) {
    if (k0 <= 0 || !(gs0 > 0.0) || !(gs > tol)) return 1;
    const double log_rho = std::log(gs / gs0) / static_cast<double>(k - k0);
    if (!(log_rho < 0.0)) return kMaxMeasureGap;
    const double n = std::log(tol / gs) / log_rho;
    return static_cast<int>(std::clamp(std::floor(0.5 * n), 1.0, double{kMaxMeasureGap}));
  }

  // A connected component of the contact graph: dynamic bodies joined by a contact or a
  // bilateral row; its contacts and rows in index order, and ‖q‖² over them (q = Hᵀv_free + w).
  struct Island {
    std::vector<Index> contacts, bilateral;
    std::vector<Index> velocities;  // velocity offsets (body·Mb) of its dynamic bodies
    double q2 = 0.0;
  };
  struct IslandOutcome {
    Status status = Status::not_run;
    int sweeps = 0;
    int coarse = 0;  // coarse corrections, each counted as one iteration
  };

  // The islands by union–find over the dynamic bodies, ordered by their first contact (then
  // first row), so the order depends only on the problem.
  void find_islands(Index bodies) {
    DisjointSets sets(bodies);
    // velocity offsets a·Mb to body indices (−1 stays negative: a fixed body joins nothing)
    auto join = [&](Index a, Index b) { sets.join(a < 0 ? -1 : a / Mb, b < 0 ? -1 : b / Mb); };
    for (const auto& k : contacts_) join(k.a, k.b);
    for (const auto& g : bilateral_) join(g.a, g.b);
    std::vector<Index> island_of(static_cast<size_t>(bodies), -1);
    auto island = [&](Index a, Index b) -> Island& {
      const Index r = sets.root((a >= 0 ? a : b) / Mb);
      if (island_of[r] < 0) {
        island_of[r] = static_cast<Index>(islands_.size());
        islands_.emplace_back();
      }
      return islands_[island_of[r]];
    };
    std::vector<char> listed(static_cast<size_t>(bodies), 0);
    auto list = [&](Island& is, Index a, Index b) {
      for (const Index off : {a, b})
        if (off >= 0 && !listed[off / Mb]) {
          listed[off / Mb] = 1;
          is.velocities.push_back(off);
        }
    };
    for (Index c = 0; c < static_cast<Index>(contacts_.size()); ++c) {
      Island& is = island(contacts_[c].a, contacts_[c].b);
      is.contacts.push_back(c);
      is.q2 += local_velocity(p_.v_free, c).squaredNorm();
      list(is, contacts_[c].a, contacts_[c].b);
    }
    for (size_t j = 0; j < bilateral_.size(); ++j) {
      Island& is = island(bilateral_[j].a, bilateral_[j].b);
      is.bilateral.push_back(static_cast<Index>(j));
      is.q2 += std::pow(bilateral_velocity(p_.v_free, j), 2);
      list(is, bilateral_[j].a, bilateral_[j].b);
    }
  }

  // Gauss–Seidel sweeps over one island until its residual (the header's, on the island's rows
  // and scale) is below tol: the sweep's running residual first, then the exact one.
  // An island's share of the tolerance (header): island i stops when its error
  //   eᵢ ≤ tol · √(nᵢ/n) · max(sᵢ, ‖q‖),   sᵢ = max(‖qᵢ‖, ‖(rᵢ, pᵢ)‖, ‖uᵢ‖)
  // (nᵢ of the n rows, ‖q‖ the whole problem's). Islands share no velocity, so each eᵢ and sᵢ
  // stays as it was when island i stopped, and with sᵢ ≤ s, ‖q‖ ≤ s (s the whole problem's
  // scale) Σᵢ eᵢ² ≤ tol² Σᵢ (nᵢ/n) s² = tol² s²: the whole residual is below tol. One island
  // alone gets exactly the whole problem's test.
  double island_bound(const Island& is, double scale) const {
    const double rows = static_cast<double>(is.contacts.size() + is.bilateral.size());
    const double all = static_cast<double>(contacts_.size() + bilateral_.size());
    return std::sqrt(rows / all) * std::max(scale, q_norm_);
  }

  IslandOutcome solve_island(const Island& is, const BodyBlockNsgsSettings& st, int threads,
                             const Stopwatch& watch, Vector& r, Vector& pb, Vector& v) const {
    const double tol = st.tolerance;
    IslandOutcome o;
    o.status = Status::max_iterations;
    const auto colours =
        threads > 1 ? colour_contacts(is, v.size() / Mb) : std::vector<std::vector<Index>>();
    std::vector<double> contact_err2(colours.empty() ? 0 : contacts_.size(), 0.0);
    std::vector<double> contact_u2(contact_err2.size(), 0.0);
    auto scale_of = [&](double u2) {
      double rp2 = 0.0;
      for (const Index c : is.contacts) rp2 += r.template segment<D>(D * c).squaredNorm();
      for (const Index j : is.bilateral) rp2 += pb[j] * pb[j];
      return std::max({std::sqrt(is.q2), std::sqrt(rp2), std::sqrt(u2)});
    };
    // Safeguarded over-relaxation: ω > 1 can make projected Gauss–Seidel cycle on a frictional
    // problem (a packed pile's island stalled at a fixed running residual of 4e-2 for 1700 sweeps
    // with ω = 1.7, where ω = 1 converges). At the first measured sweep at least kOmegaCheck
    // sweeps after the last check, the running residual is compared with the last check's; if it
    // has not fallen, ω is pulled halfway back to 1 (to 1 once within 0.05 of it).
    double relaxed = st.relaxation;
    double checkpoint = std::numeric_limits<double>::infinity();
    int checked_at = st.relaxation_after;
    // Measured sweeps: the running residual costs as much as the update, so it is taken only on
    // some sweeps: the first two, then at a gap predicted from its rate of decrease ρ per sweep,
    // half the sweeps it would need to reach tol, between 1 and kMaxMeasureGap. Counted in
    // sweeps only, so the result stays deterministic.
    int next_measure = 1, last_measure = 0;
    double last_gs = 0.0;
    // the running residual before the last coarse correction (0: none yet, −1: no more)
    double coarse_gs = 0.0;
    // Crawl detection (settings.stall_after): the residual at the first measured sweep from
    // stall_after/2 on is the anchor of the rate.
    int anchor_it = 0;
    double anchor_gs = 0.0;
    // Anderson acceleration of the sweeps (settings): x the island's (r, p) before a sweep; after
    // it, (r, p) and the velocities of its bodies are replaced by the extrapolation.
    const bool anderson =
        st.anderson_memory > 0 && static_cast<Index>(is.contacts.size()) >= st.anderson_contacts;
    AndersonAcceleration aa(std::max(1, st.anderson_memory));
    Vector x, g, y;
    auto gather = [&](Vector& out) {
      out.resize(D * static_cast<Index>(is.contacts.size()) +
                 static_cast<Index>(is.bilateral.size()));
      Index k = 0;
      for (const Index c : is.contacts)
        out.template segment<D>(k) = r.template segment<D>(D * c), k += D;
      for (const Index j : is.bilateral) out[k++] = pb[j];
    };
    auto accelerate = [&]() {
      gather(g);
      y.resize(Mb * static_cast<Index>(is.velocities.size()));
      for (size_t b = 0; b < is.velocities.size(); ++b)
        y.template segment<Mb>(Mb * static_cast<Index>(b)) =
            v.template segment<Mb>(is.velocities[b]);
      aa.extrapolate(x, g, y);
      Index k = 0;
      for (const Index c : is.contacts)
        r.template segment<D>(D * c) = g.template segment<D>(k), k += D;
      for (const Index j : is.bilateral) pb[j] = g[k++];
      for (size_t b = 0; b < is.velocities.size(); ++b)
        v.template segment<Mb>(is.velocities[b]) =
            y.template segment<Mb>(Mb * static_cast<Index>(b));
    };
    // the sweeps allowed: max_iterations less the coarse corrections, each counted as an iteration
    int sweep_budget = st.max_iterations;
    for (int it = 1; it <= sweep_budget; ++it) {
      const double omega = it > st.relaxation_after ? relaxed : 1.0;
      const bool accelerated = anderson && it > st.relaxation_after && it < sweep_budget;
      if (accelerated) gather(x);
      const bool measure = it >= next_measure || it == sweep_budget;
      // Gauss–Seidel residual: each row's error taken when the sweep visits it (before its update)
      double err2 = 0.0, u2 = 0.0;
      for (const Index j : is.bilateral) {
        const auto& g = bilateral_[j];
        const double u = bilateral_velocity(v, static_cast<size_t>(j));
        err2 += u * u;
        u2 += u * u;
        if (g.W <= 1e-300) continue;
        const double dp = -u / g.W;
        pb[j] += dp;
        add_bilateral(v, static_cast<size_t>(j), dp);
      }
      if (colours.empty()) {
        for (const Index c : is.contacts) update_contact(c, omega, measure, r, v, err2, u2);
      } else {
        // coloured sweep: the contacts of one colour share no body, so they update in parallel
        // and in any split; the errors are summed afterwards in contact order
        for (const auto& group : colours)
          parallel_for(static_cast<Index>(group.size()), threads, [&](Index b, Index e) {
            for (Index i = b; i < e; ++i) {
              const Index c = group[i];
              update_contact(c, omega, measure, r, v, contact_err2[c], contact_u2[c]);
            }
          });
        if (measure)
          for (const Index c : is.contacts) {
            err2 += contact_err2[c], u2 += contact_u2[c];
            contact_err2[c] = contact_u2[c] = 0.0;
          }
      }
      o.sweeps = it;
      if (!measure) {
        if (accelerated) accelerate();
        continue;
      }
      const double bound = island_bound(is, scale_of(u2));
      const double gs = relative_error(std::sqrt(err2), bound);
      if (!std::isfinite(gs)) {
        o.status = Status::numerical_failure;
        break;
      }
      if (gs <= tol && island_residual(is, r, pb, v) <= tol) {
        o.status = Status::converged;
        break;
      }
      // the coarse correction (header) after a measured sweep above tol, while each one at least
      // halves the running residual of the sweep before it and a sweep is left after it; the
      // next sweep is measured
      if (st.coarse_correction && is.bilateral.empty() && coarse_gs >= 0.0 &&
          it + 2 <= sweep_budget) {
        if (coarse_gs > 0.0 && !(gs < 0.5 * coarse_gs)) {
          coarse_gs = -1.0;  // it did not help: plain sweeps from here
        } else if (coarse_correct(is, r, v)) {
          ++o.coarse;
          --sweep_budget;
          coarse_gs = gs;
          next_measure = it + 1, last_measure = 0;
          aa.reset();  // the correction is not a sweep: its step does not mix with theirs
          continue;
        } else {
          coarse_gs = -1.0;  // no face qualifies (or none can move): not looked for again
        }
      }
      if (relaxed != 1.0 && it - checked_at >= kOmegaCheck) {
        if (!(gs < checkpoint)) {
          relaxed = 1.0 + 0.5 * (relaxed - 1.0);
          if (std::abs(relaxed - 1.0) < 0.05) relaxed = 1.0;
          aa.reset();  // another map: its differences do not mix with the last one's
        }
        checkpoint = gs;
        checked_at = it;
      }
      if (st.stall_after > 0 && anchor_it == 0 && 2 * it >= st.stall_after)
        anchor_it = it, anchor_gs = gs;
      if (st.stall_after > 0 && it >= st.stall_after && anchor_it > 0 &&
          2 * (it - anchor_it) >= st.stall_after) {
        // ρ = (e / e_anchor)^(1/(it − anchor)) over the last stall_after/2 sweeps or more; the
        // sweeps needed n = log(tol/e) / log ρ
        const double log_rho = std::log(gs / anchor_gs) / static_cast<double>(it - anchor_it);
        const double needed =
            log_rho < 0.0 ? std::log(tol / gs) / log_rho : std::numeric_limits<double>::infinity();
        if (needed > static_cast<double>(sweep_budget - it)) {
          o.status = Status::max_iterations;
          break;
        }
        anchor_it = it, anchor_gs = gs;
      }
      next_measure = it + measure_gap(last_measure, last_gs, it, gs, tol);
      last_measure = it, last_gs = gs;
      if (accelerated) accelerate();
      if (watch.seconds() > st.time_limit) {
        o.status = Status::time_limit;
        break;
      }
    }
    return o;
  }

  // Inside its cone: r_n > 0 and ‖r_t‖ < (1 − 1e-6) μ r_n (a sliding contact's impulse lies on
  // the cone's boundary up to rounding, and its law is not u = 0).
  static bool sticking(const VecD& rc, double mu) {
    return rc[0] > 0.0 && rc.template tail<D - 1>().norm() < (1.0 - 1e-6) * mu * rc[0];
  }
  bool sticking(Index c, const Vector& r) const {
    return sticking(VecD(r.template segment<D>(D * c)), p_.mu[c]);
  }

  // A face whose contacts are loaded (r_n > 0) but not all sticking (after a sweep from zero, the
  // first corner a sweep visits slides): its impulses are replaced by their rigid-field part
  //   c = (Σ J_kᵀJ_k)⁻¹ Σ J_kᵀ r_k,   r_k ← J_k c   (k ∈ [begin, end) of the island's contacts),
  // the least-squares fit, whose remainder r_k − J_k c satisfies Σ J_kᵀ(r_k − J_k c) = 0: the
  // same wrench on the field body (b, or a when b is fixed). On the other body the wrench is the
  // same only where each contact's two witness points coincide (they lie a gap apart), so v is
  // updated with the change, v += M⁻¹H_k(J_k c − r_k). Done, and true, only when every J_k c
  // sticks; the old impulses are appended to `saved`. r and v are untouched otherwise.
  bool to_rigid_field(const std::vector<Index>& cs, size_t begin, size_t end,
                      const Eigen::LDLT<MatM>& gram, Vector& r, Vector& v,
                      std::vector<std::pair<Index, VecD>>& saved) const {
    VecM load = VecM::Zero();
    for (size_t t = begin; t < end; ++t)
      load.noalias() += field_rows(cs[t]).transpose() * r.template segment<D>(D * cs[t]);
    const VecM c = gram.solve(load);
    for (size_t t = begin; t < end; ++t)
      if (!sticking(VecD(field_rows(cs[t]) * c), p_.mu[cs[t]])) return false;
    for (size_t t = begin; t < end; ++t) {
      const VecD old = r.template segment<D>(D * cs[t]), fitted = field_rows(cs[t]) * c;
      saved.emplace_back(cs[t], old);
      add_contact(v, cs[t], fitted - old);
      r.template segment<D>(D * cs[t]) = fitted;
    }
    return true;
  }

  // The coarse correction below, first with the faces that to_rigid_field lets in; when it is not
  // taken after some were fitted, their impulses and v are restored and it is tried once with the
  // sticking faces alone (a column tipping about its bottom edge: its ground face, fitted, left no
  // halving in the cones, where the sticking faces alone give a damped correction).
  bool coarse_correct(const Island& is, Vector& r, Vector& v) const {
    std::vector<std::pair<Index, VecD>> saved;
    if (coarse_correct(is, r, v, &saved)) return true;
    if (saved.empty()) return false;
    for (const auto& [c, old] : saved) {
      add_contact(v, c, VecD(old - r.template segment<D>(D * c)));
      r.template segment<D>(D * c) = old;
    }
    return coarse_correct(is, r, v, nullptr);
  }

  // The coarse correction of the header over the island's faces. A face f is a run of contacts
  // C_f with the same two bodies (a, b), at least 3 in space (2 in the plane), all inside
  // (sticking) their cones or loaded and made so by to_rigid_field, whose impulses λ_k = J_k δc_f
  // (J_k = J_{k,b}, or J_{k,a} when b is fixed: the rigid linear fields over the face) span all Mb
  // wrenches (Σ J_kᵀJ_k positive definite); faces closing a cycle of the body graph (all fixed
  // bodies one node) are left out, so that the faces kept form a forest and the coarse operator is
  // positive definite:
  //   G_{f,β} = Σ_{k∈C_f} J_kᵀ J_{k,β}                      (Mb × Mb, β ∈ {a, b})
  //   W_c[f,g] = Σ_{β ∈ f∩g} G_{f,β} M_β⁻¹ G_{g,β}ᵀ + δ_fg Σ_k c_k J_k,nᵀ J_k,n
  //   W_c δc = −Σ_{k∈C_f} J_kᵀ ũ_k,   ũ_k = u_k + c_k r_{k,n} e_n
  //   r_k += J_k δc_f,   v += M⁻¹ J_{k,·}ᵀ J_k δc_f.
  // W_c = Pᵀ(W + C)P with P the block-diagonal J_k: the Galerkin coarse problem of the linear
  // (sticking) law u = 0 on the faces (Hackbusch 1985, §2.2; Toselli & Widlund 2005, §2.2), solved
  // by sparse Cholesky, then damped to stay in the cones (below). Faces are found as runs of
  // consecutive contacts of the island with the same (a, b) in that order, as detection lists a
  // manifold's points. Returns false (r and v changed at most by to_rigid_field) when no face
  // qualifies, the factorization fails, or no damping keeps the correction in the cones.
  // Faces that do not all stick are fitted (to_rigid_field) when `fitted` is given, their old
  // impulses appended to it; with nullptr only faces that all stick are taken.
  bool coarse_correct(const Island& is, Vector& r, Vector& v,
                      std::vector<std::pair<Index, VecD>>* fitted) const {
    struct Face {
      Index a = -1, b = -1;          // velocity offsets as in ContactData
      Index node_a = 0, node_b = 0;  // their indices among the island's bodies (nb: fixed)
      size_t begin = 0, end = 0;     // its contacts is.contacts[begin, end)
      MatM Ga, Gb;
    };
    const Index nb = static_cast<Index>(is.velocities.size());
    for (Index i = 0; i < nb; ++i) body_slot_[is.velocities[i] / Mb] = i;
    auto node = [&](Index off) { return off < 0 ? nb : body_slot_[off / Mb]; };  // nb: fixed
    DisjointSets forest(nb + 1);
    std::vector<Face> faces;
    const auto& cs = is.contacts;
    constexpr size_t kLeast = D == 3 ? 3 : 2;
    for (size_t i = 0; i < cs.size();) {
      const auto& k0 = contacts_[cs[i]];
      size_t j = i + 1;
      while (j < cs.size() && contacts_[cs[j]].a == k0.a && contacts_[cs[j]].b == k0.b) ++j;
      bool ok = j - i >= kLeast && forest.root(node(k0.a)) != forest.root(node(k0.b));
      bool all_sticking = true;
      for (size_t t = i; ok && t < j; ++t) {
        ok = r[D * cs[t]] > 0.0;
        all_sticking = all_sticking && sticking(cs[t], r);
      }
      if (ok) {
        Face f;
        f.a = k0.a, f.b = k0.b, f.begin = i, f.end = j;
        f.node_a = node(k0.a), f.node_b = node(k0.b);
        f.Ga.setZero(), f.Gb.setZero();
        MatM gram = MatM::Zero();
        for (size_t t = i; t < j; ++t) {
          const auto& k = contacts_[cs[t]];
          const auto& J = field_rows(cs[t]);
          if (k.a >= 0) f.Ga.noalias() += J.transpose() * k.Ja;
          if (k.b >= 0) f.Gb.noalias() += J.transpose() * k.Jb;
          gram.noalias() += J.transpose() * J;
        }
        const Eigen::LDLT<MatM> ldlt(gram);
        const auto pivots = ldlt.vectorD().cwiseAbs();
        if (ldlt.info() == Eigen::Success && pivots.minCoeff() > 1e-10 * pivots.maxCoeff() &&
            (all_sticking || (fitted && to_rigid_field(cs, i, j, ldlt, r, v, *fitted)))) {
          forest.join(node(k0.a), node(k0.b));
          faces.push_back(f);
        }
      }
      i = j;
    }
    for (const Index off : is.velocities) body_slot_[off / Mb] = -1;
    if (faces.empty()) return false;
    const Index nf = static_cast<Index>(faces.size());
    // the faces at each body of the island, with their G on that body's side
    std::vector<std::vector<std::pair<Index, const MatM*>>> at_body(static_cast<size_t>(nb));
    for (Index f = 0; f < nf; ++f) {
      if (faces[f].a >= 0) at_body[faces[f].node_a].push_back({f, &faces[f].Ga});
      if (faces[f].b >= 0) at_body[faces[f].node_b].push_back({f, &faces[f].Gb});
    }
    std::vector<Eigen::Triplet<double>> entries;
    auto add_block = [&](Index f, Index g, const MatM& B) {
      for (int x = 0; x < Mb; ++x)
        for (int y = 0; y < Mb; ++y) entries.emplace_back(Mb * f + x, Mb * g + y, B(x, y));
    };
    for (Index i = 0; i < nb; ++i) {
      const MatM mi = minv(is.velocities[i] / Mb);
      for (const auto& [f, Gf] : at_body[i]) {
        const MatM MG = mi * Gf->transpose();
        for (const auto& [g, Gg] : at_body[i]) add_block(g, f, (*Gg) * MG);
      }
    }
    Vector rhs = Vector::Zero(Mb * nf);
    for (Index f = 0; f < nf; ++f) {
      MatM C = MatM::Zero();
      for (size_t t = faces[f].begin; t < faces[f].end; ++t) {
        const Index c = cs[t];
        const auto& k = contacts_[c];
        const auto& J = field_rows(c);
        rhs.template segment<Mb>(Mb * f).noalias() += J.transpose() * softened_velocity(v, r, c);
        if (k.compliance != 0.0) C.noalias() += k.compliance * J.row(0).transpose() * J.row(0);
      }
      if (!C.isZero(0.0)) add_block(f, f, C);
    }
    Eigen::SparseMatrix<double> Wc(Mb * nf, Mb * nf);
    Wc.setFromTriplets(entries.begin(), entries.end());
    const Eigen::SimplicialLLT<Eigen::SparseMatrix<double>> llt(Wc);
    if (llt.info() != Eigen::Success) return false;
    const Vector dc = -llt.solve(rhs);
    if (!dc.allFinite()) return false;
    // damped: δr scaled by α = 1, ½, ¼, … (at most kCoarseHalvings times) until every face
    // contact stays in its cone. Where the step's solution opens or slides some face contacts
    // (a stack that tips), the undamped correction would hold them with pulling impulses, far
    // from the solution; a correction that no α keeps in the cones is not taken.
    auto dr_of = [&](Index f, size_t t) -> VecD {
      return field_rows(cs[t]) * dc.template segment<Mb>(Mb * f);
    };
    double alpha = 1.0;
    for (int halving = 0;; ++halving, alpha *= 0.5) {
      if (halving > kCoarseHalvings) return false;
      bool inside = true;
      for (Index f = 0; f < nf && inside; ++f)
        for (size_t t = faces[f].begin; t < faces[f].end && inside; ++t) {
          const Index c = cs[t];
          const VecD rc = r.template segment<D>(D * c) + alpha * dr_of(f, t);
          inside = rc[0] >= 0.0 && rc.template tail<D - 1>().norm() <= p_.mu[c] * rc[0];
        }
      if (inside) break;
    }
    for (Index f = 0; f < nf; ++f)
      for (size_t t = faces[f].begin; t < faces[f].end; ++t) {
        const Index c = cs[t];
        const VecD dr = alpha * dr_of(f, t);
        r.template segment<D>(D * c) += dr;
        add_contact(v, c, dr);
      }
    return true;
  }

  // The header's residual on the rows of one island, relative to its bound (island_bound).
  double island_residual(const Island& is, const Vector& r, const Vector& pb,
                         const Vector& v) const {
    double err2 = 0.0, u2 = 0.0, rp2 = 0.0;
    for (const Index c : is.contacts) {
      const VecD u = softened_velocity(v, r, c);
      u2 += u.squaredNorm();
      rp2 += r.template segment<D>(D * c).squaredNorm();
      const double e = friction_contact_local_error(D, p_.mu[c], r.data() + D * c, u.data());
      err2 += e * e;
    }
    for (const Index j : is.bilateral) {
      const double u = bilateral_velocity(v, static_cast<size_t>(j));
      err2 += u * u, u2 += u * u, rp2 += pb[j] * pb[j];
    }
    const double bound =
        island_bound(is, std::max({std::sqrt(is.q2), std::sqrt(rp2), std::sqrt(u2)}));
    return relative_error(std::sqrt(err2), bound);
  }

  MatM minv(Index body) const { return p_.mass_inverse[body].template topLeftCorner<Mb, Mb>(); }

  // One Gauss–Seidel update of contact c at the current v (header): when measured, adds its
  // error² and ‖u‖² to err2 and u2 (taken before the update), then r_c ← the local solution,
  // relaxed by ω, and v += M⁻¹ J_cᵀ Δr_c on its two bodies.
  void update_contact(Index c, double omega, bool measure, Vector& r, Vector& v, double& err2,
                      double& u2) const {
    const auto& k = contacts_[c];
    const VecD r_old = r.template segment<D>(D * c);
    const VecD u = softened_velocity(v, r, c);
    if (measure) {
      const double e = friction_contact_local_error(D, p_.mu[c], r_old.data(), u.data());
      err2 += e * e;
      u2 += u.squaredNorm();
      if (e == 0.0) return;
    }
    const VecD q = u - k.block.W.template topLeftCorner<D, D>() * r_old;
    VecD r_new = r_old;
    solve_local(k.block, q, p_.mu[c], r_new);
    if (omega != 1.0) r_new = project_cone(omega * r_new + (1.0 - omega) * r_old, p_.mu[c]);
    const VecD dr = r_new - r_old;
    if (dr.squaredNorm() == 0.0) return;
    r.template segment<D>(D * c) = r_new;
    add_contact(v, c, dr);
  }

  // Greedy colouring of an island's contact graph (contacts sharing a dynamic body get different
  // colours), contacts taken in index order, each given the smallest colour its bodies do not
  // hold yet: the colour classes, each in index order. Depends only on the problem.
  std::vector<std::vector<Index>> colour_contacts(const Island& is, Index bodies) const {
    std::vector<std::vector<int>> held(static_cast<size_t>(bodies));
    std::vector<std::vector<Index>> classes;
    for (const Index c : is.contacts) {
      const auto& k = contacts_[c];
      auto taken = [&](int colour) {
        for (Index body : {k.a, k.b})
          if (body >= 0) {
            const auto& h = held[body / Mb];
            if (std::find(h.begin(), h.end(), colour) != h.end()) return true;
          }
        return false;
      };
      int colour = 0;
      while (taken(colour)) ++colour;
      for (Index body : {k.a, k.b})
        if (body >= 0) held[body / Mb].push_back(colour);
      if (colour >= static_cast<int>(classes.size())) classes.resize(colour + 1);
      classes[colour].push_back(c);
    }
    return classes;
  }

  void add_contact(Vector& v, Index c, const VecD& dr) const {
    const auto& k = contacts_[c];
    if (k.a >= 0) v.template segment<Mb>(k.a).noalias() += k.MJa * dr;
    if (k.b >= 0) v.template segment<Mb>(k.b).noalias() += k.MJb * dr;
  }
  void add_bilateral(Vector& v, size_t j, double dp) const {
    const auto& g = bilateral_[j];
    if (g.a >= 0) v.template segment<Mb>(g.a) += dp * g.Mga;
    if (g.b >= 0) v.template segment<Mb>(g.b) += dp * g.Mgb;
  }
  static VecD project_cone(const VecD& x, double mu) {
    if constexpr (D == 3)
      return project_on_coulomb_cone(Vector3(x), mu);
    else
      return project_on_coulomb_cone(Vector2(x), mu);
  }
  static void solve_local(const ContactBlock& block, const VecD& q, double mu, VecD& r) {
    if constexpr (D == 3) {
      if (block.decoupled_isotropic) {
        solve_decoupled_isotropic(block, q, mu, r);
        return;
      }
      Vector3 rr = r;
      solve_one_contact_3d(block, Vector3(q), mu, rr);
      r = rr;
    } else {
      Vector2 rr = r;
      solve_one_contact_2d(block, Vector2(q), mu, rr);
      r = rr;
    }
  }

  const BodyBlockFrictionContactProblem& p_;
  double q_norm_ = 0.0;  // ‖Hᵀ v_free + w‖ with the bilateral rows, the residual's scale
  std::vector<ContactData<D, Mb>> contacts_;
  std::vector<BilateralData<Mb>> bilateral_;
  std::vector<Island> islands_;
  // body → its index among its island's bodies during a coarse correction, −1 otherwise (islands
  // share no body, so islands solved in parallel write different entries)
  mutable std::vector<Index> body_slot_;
};

}  // namespace

BodyBlockSolution solve_body_block_nsgs(const BodyBlockFrictionContactProblem& problem,
                                        const Vector& r_guess, const Vector& p_guess,
                                        const BodyBlockNsgsSettings& settings) {
  problem.validate();
  MOREAU_REQUIRE(settings.relaxation_after >= 0,
                 "body_block_nsgs: relaxation_after = {} must be ≥ 0", settings.relaxation_after);
  MOREAU_REQUIRE(settings.relaxation > 0.0 && settings.relaxation < 2.0,
                 "body_block_nsgs: relaxation ω = {} must lie in (0, 2)", settings.relaxation);
  MOREAU_REQUIRE(settings.threads >= 1, "body_block_nsgs: threads = {} must be ≥ 1",
                 settings.threads);
  MOREAU_REQUIRE(settings.tolerance > 0.0 && settings.max_iterations > 0,
                 "body_block_nsgs: tolerance {} and max_iterations {} must be > 0",
                 settings.tolerance, settings.max_iterations);
  MOREAU_REQUIRE(
      r_guess.size() == 0 || r_guess.size() == problem.dimension * problem.contact_count(),
      "body_block_nsgs: the guess r has {} entries, expected {}", r_guess.size(),
      problem.dimension * problem.contact_count());
  MOREAU_REQUIRE(
      p_guess.size() == 0 || p_guess.size() == static_cast<Index>(problem.bilateral.size()),
      "body_block_nsgs: the guess p has {} entries, expected {}", p_guess.size(),
      problem.bilateral.size());
  if (problem.dimension == 3) return Solver<3, 6>(problem).solve(r_guess, p_guess, settings);
  return Solver<2, 3>(problem).solve(r_guess, p_guess, settings);
}

BodyBlockSolution evaluate_body_block(const BodyBlockFrictionContactProblem& problem,
                                      const Vector& r, const Vector& p, double tolerance) {
  problem.validate();
  const Index nbl = static_cast<Index>(problem.bilateral.size());
  MOREAU_REQUIRE(
      r.size() == problem.dimension * problem.contact_count() && (p.size() == nbl || p.size() == 0),
      "evaluate_body_block: r has {} and p {} entries, expected {} and {}", r.size(), p.size(),
      problem.dimension * problem.contact_count(), nbl);
  BodyBlockSolution out;
  out.solver = "evaluate";
  out.r = r;
  out.p = p.size() == nbl ? p : Vector::Zero(nbl);
  out.u.resize(r.size());
  auto run = [&](const auto& s) {
    out.v = s.velocity(out.r, out.p);
    out.residual = s.residual(out.r, out.p, out.v, &out.u);
  };
  if (problem.dimension == 3)
    run(Solver<3, 6>(problem));
  else
    run(Solver<2, 3>(problem));
  out.status = out.residual <= tolerance ? Status::converged : Status::max_iterations;
  return out;
}

}  // namespace moreau
