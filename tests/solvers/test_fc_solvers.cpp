// Frictional contact solvers through the registry: analytic 2-contact problems, random
// problems W = Hᵀ M⁻¹ H where all solvers must agree, warm starts, the global form, bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "moreau/solvers/fc/friction_contact_solver.hpp"
#include "moreau/solvers/fc/newton.hpp"
#include "moreau/solvers/fc/solver_choice.hpp"
#include "moreau/solvers/fc/lemke_pyramid.hpp"
#include "moreau/solvers/fc/nsgs.hpp"

using namespace moreau;

namespace {

SparseMatrix sparse(const Matrix& A) { return A.sparseView(0.0, 0.0); }

// Global problem with a diagonal mass matrix and a dense random H (fixed seed), and its
// reference condensation computed densely.
GlobalFrictionContactProblem random_global(int d, int nc, int ndof, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n01;
  std::uniform_real_distribution<double> mass(1.0, 3.0), mu(0.1, 0.8);
  GlobalFrictionContactProblem g;
  g.dimension = d;
  Matrix M = Matrix::Zero(ndof, ndof), H(ndof, d * nc);
  for (int i = 0; i < ndof; ++i) M(i, i) = mass(rng);
  for (int i = 0; i < H.size(); ++i) H.data()[i] = n01(rng);
  g.M = sparse(M);
  g.H = sparse(H);
  g.f = Vector(ndof);
  for (int i = 0; i < ndof; ++i) g.f[i] = n01(rng);
  g.w = Vector::Zero(d * nc);
  for (int i = 0; i < nc; ++i) g.w[d * i] = -0.5 - std::abs(n01(rng));  // approaching contacts
  g.mu = Vector(nc);
  for (int i = 0; i < nc; ++i) g.mu[i] = mu(rng);
  return g;
}

// The 2-contact 2D problem of the test below.
FrictionContactProblem two_contacts_2d() {
  // Rows (n1, t1, n2, t2): the normals are coupled, the tangents are not.
  Matrix W(4, 4);
  W << 2, 0, 1, 0,  //
      0, 1, 0, 0,   //
      1, 0, 2, 0,   //
      0, 0, 0, 1;
  FrictionContactProblem p;
  p.dimension = 2;
  p.W = sparse(W);
  p.q = Eigen::Vector4d(-1.0, 0.1, -1.0, -0.05);
  p.mu = Vector2(0.5, 0.5);
  return p;
}

const std::vector<std::string> kIterative{"hybrid",    "newton",    "nsgs",
                                          "newton_ac", "newton_fb", "admm"};

}  // namespace

TEST(FcSolvers, TwoContactsStickingKnownSolution) {
  // Stick (u = 0): [2 1; 1 2] r_n = (1, 1) ⇒ r_n = (1/3, 1/3); r_t = −q_t = (−0.1, 0.05) and
  // |r_t| ≤ μ r_n = 1/6 for both contacts, so r = (1/3, −0.1, 1/3, 0.05) is the solution.
  const FrictionContactProblem p = two_contacts_2d();
  const Eigen::Vector4d expected(1.0 / 3.0, -0.1, 1.0 / 3.0, 0.05);
  for (const auto& name : friction_contact_solver_names(2)) {
    FrictionContactSettings s;
    s.tolerance = 1e-12;
    const FrictionContactResult res = solve_friction_contact(p, name, s);
    EXPECT_TRUE(res.converged()) << name << ": " << res.message;
    EXPECT_NEAR((res.r - expected).norm(), 0.0, 1e-9) << name;
    EXPECT_LE(res.residual, 1e-12) << name;
    EXPECT_NEAR((res.u - (p.W * res.r + p.q)).norm(), 0.0, 1e-14) << name;
  }
}

TEST(FcSolvers, RandomProblemsAllSolversAgree) {
  for (int d : {2, 3}) {
    for (unsigned seed : {1u, 2u, 3u}) {
      const FrictionContactProblem p = condense(random_global(d, 5, 30, seed));
      FrictionContactSettings s;
      s.tolerance = 1e-11;
      s.max_iterations = 5000;
      const FrictionContactResult ref = solve_friction_contact(p, "nsgs", s);
      ASSERT_TRUE(ref.converged()) << "d=" << d << " seed=" << seed;
      EXPECT_LE(friction_contact_residual(p, ref.r), 1e-11);
      for (const auto& name : kIterative) {
        const FrictionContactResult res = solve_friction_contact(p, name, s);
        EXPECT_TRUE(res.converged())
            << name << " d=" << d << " seed=" << seed << " " << res.message;
        EXPECT_LE((res.r - ref.r).norm(), 1e-6 * std::max(1.0, ref.r.norm()))
            << name << " d=" << d << " seed=" << seed;
      }
      if (d == 2) {  // the 2D pyramid is the exact cone
        const FrictionContactResult lp = solve_friction_contact(p, "lemke_pyramid", s);
        EXPECT_LE((lp.r - ref.r).norm(), 1e-6 * std::max(1.0, ref.r.norm())) << lp.message;
      }
    }
  }
}

// One contact (2D and 3D, random W = Hᵀ M⁻¹ H, random μ, separating, sticking and sliding
// cases): auto (hybrid) solves it in one exact local solve, to the same r as NSGS run to 1e-12,
// and says so in its message.
TEST(FcSolvers, OneContactIsOneExactLocalSolve) {
  int sliding = 0;
  for (int d : {2, 3})
    for (unsigned seed = 1; seed <= 40; ++seed) {
      FrictionContactProblem p = condense(random_global(d, 1, 6, seed));
      p.mu[0] = 0.1 + 0.05 * (seed % 20);
      FrictionContactSettings s;
      const FrictionContactResult one = solve_friction_contact(p, "auto", s);
      ASSERT_TRUE(one.converged()) << "d=" << d << " seed=" << seed << " " << one.message;
      EXPECT_EQ(one.iterations, 1);
      EXPECT_NE(one.message.find("one contact"), std::string::npos) << one.message;
      EXPECT_LE(friction_contact_residual(p, one.r), s.tolerance);
      s.tolerance = 1e-12;
      const FrictionContactResult ref = solve_friction_contact(p, "nsgs", s);
      ASSERT_TRUE(ref.converged());
      EXPECT_LE((one.r - ref.r).norm(), 1e-8 * std::max(1.0, ref.r.norm())) << "seed " << seed;
      const double rt = one.r.tail(d - 1).norm();
      if (one.r[0] > 0.0 && rt >= p.mu[0] * one.r[0] * (1.0 - 1e-9)) ++sliding;
    }
  EXPECT_GT(sliding, 0);  // the slide case was exercised
}

TEST(FcSolvers, PyramidIn3DIsInscribedAndClose) {
  const FrictionContactProblem p = condense(random_global(3, 4, 24, 11));
  const FrictionContactResult lp = solve_lemke_pyramid(p, {.edges = 16});
  ASSERT_EQ(lp.r.size(), p.q.size());
  // Σ β_j ≤ μ r_n and ‖Σ β_j d_j‖ ≤ Σ β_j: the pyramid lies inside the cone.
  for (Index i = 0; i < p.contacts(); ++i)
    EXPECT_LE(std::hypot(lp.r[3 * i + 1], lp.r[3 * i + 2]), p.mu[i] * lp.r[3 * i] + 1e-12);
  // The exact-cone residual is small but not zero (pyramid error, cos(π/16) ≈ 0.98).
  EXPECT_LT(lp.residual, 0.1);
  const FrictionContactResult big = solve_lemke_pyramid(p, {.max_lcp_size = 10});
  EXPECT_EQ(big.status, Status::numerical_failure);
}

TEST(FcSolvers, WarmStartFromSolutionNeedsAtMostOneIteration) {
  const FrictionContactProblem p = condense(random_global(3, 6, 30, 5));
  FrictionContactSettings s;
  s.tolerance = 1e-10;
  const FrictionContactResult ref = solve_friction_contact(p, "newton_ac", s);
  ASSERT_TRUE(ref.converged());
  for (const auto& name : kIterative) {
    const FrictionContactResult res = solve_friction_contact(p, name, s, ref.r);
    EXPECT_TRUE(res.converged()) << name;
    EXPECT_LE(res.iterations, 1) << name;
  }
}

// NSGS keeps u = W r + q through W's columns: the sparse columns, or a dense copy where W is
// small and at least half stored. Three uncoupled pairs of contacts give a block-diagonal W of
// 18 rows with 108 of its 324 entries nonzero: stored as they are it takes the sparse columns,
// with its zeros stored explicitly the dense ones. The two solves must be the same to the bit
// (iterates, residual history, r and u), since the dense copy only adds W_ij δ_j = ±0 where an
// entry is zero. From no guess, u starts at q without a product with W; a guess of zeros (u
// formed as W·0 + q) must give the same bits again, q's −0 entries included.
TEST(FcSolvers, NsgsColumnsDenseOrSparseAndItsStartFromZeroChangeNoBit) {
  const int pairs = 3;
  Matrix W = Matrix::Zero(6 * pairs, 6 * pairs);
  Vector q(6 * pairs), mu(2 * pairs);
  for (int k = 0; k < pairs; ++k) {
    const FrictionContactProblem pk = condense(random_global(3, 2, 8, 40 + k));
    W.block(6 * k, 6 * k, 6, 6) = Matrix(pk.W);
    q.segment(6 * k, 6) = pk.q;
    mu.segment(2 * k, 2) = pk.mu;
  }
  q[2] = -0.0;  // a tangential entry of −0: W·0 + q turns it into +0
  FrictionContactProblem sparse_p;
  sparse_p.dimension = 3;
  sparse_p.W = sparse(W);
  sparse_p.q = q;
  sparse_p.mu = mu;
  ASSERT_LT(2 * sparse_p.W.nonZeros(), W.size());
  ASSERT_FALSE(nsgs_uses_dense_columns(sparse_p.W));
  FrictionContactProblem dense_p = sparse_p;
  std::vector<Eigen::Triplet<double>> all;
  for (Index i = 0; i < W.rows(); ++i)
    for (Index j = 0; j < W.cols(); ++j) all.emplace_back(i, j, W(i, j));
  dense_p.W.setFromTriplets(all.begin(), all.end());
  ASSERT_EQ(dense_p.W.nonZeros(), W.size());
  ASSERT_TRUE(nsgs_uses_dense_columns(dense_p.W));
  const NsgsSettings s{.tolerance = 1e-13, .max_iterations = 500};
  const FrictionContactResult a = solve_nsgs(sparse_p, s, Vector());
  const FrictionContactResult b = solve_nsgs(dense_p, s, Vector());
  const FrictionContactResult c = solve_nsgs(dense_p, s, Vector::Zero(q.size()));
  ASSERT_TRUE(a.converged()) << a.residual;
  EXPECT_GT(a.iterations, 5);  // a real run of sweeps, not a start at the solution
  for (const FrictionContactResult* x : {&b, &c}) {
    EXPECT_EQ(x->iterations, a.iterations);
    EXPECT_EQ(x->residual_history, a.residual_history);
    for (Index i = 0; i < q.size(); ++i) {
      EXPECT_EQ(std::bit_cast<std::uint64_t>(x->r[i]), std::bit_cast<std::uint64_t>(a.r[i])) << i;
      EXPECT_EQ(std::bit_cast<std::uint64_t>(x->u[i]), std::bit_cast<std::uint64_t>(a.u[i])) << i;
    }
  }
  // The u and residual returned are those of the returned r, formed afresh (not the running u
  // of the sweeps): to the bit against local_velocity, and the result solves the problem (u
  // formed here densely, the natural-map residual).
  const Vector fresh = local_velocity(sparse_p, a.r);
  for (Index i = 0; i < q.size(); ++i)
    EXPECT_EQ(std::bit_cast<std::uint64_t>(a.u[i]), std::bit_cast<std::uint64_t>(fresh[i])) << i;
  EXPECT_EQ(a.residual, friction_contact_residual(sparse_p, a.r, fresh));
  const Vector u = W * a.r + q;
  EXPECT_LT((u - a.u).norm(), 1e-12 * (1.0 + u.norm()));
  EXPECT_LE(friction_contact_residual(sparse_p, a.r, u), 1e-12);
  // A problem solved at its start point (every contact separating, r = 0) returns u as it
  // started: q + 0 without a guess must be W·0 + q to the bit, its −0 turned into +0.
  FrictionContactProblem apart = sparse_p;
  for (Index i = 0; i < q.size(); ++i) apart.q[i] = i % 3 == 0 ? 1.0 + 0.1 * i : -0.0;
  const FrictionContactResult z = solve_nsgs(apart, s, Vector());
  ASSERT_TRUE(z.converged());
  EXPECT_EQ(z.iterations, 0);
  const Vector at_zero = local_velocity(apart, Vector::Zero(q.size()));
  for (Index i = 0; i < q.size(); ++i) {
    EXPECT_EQ(std::bit_cast<std::uint64_t>(z.u[i]), std::bit_cast<std::uint64_t>(at_zero[i])) << i;
    EXPECT_FALSE(std::signbit(z.u[i])) << i;
  }
}

// keep_converged_guess: the known solution of TwoContactsStickingKnownSolution given as the guess
// comes back as it is, after no iteration, from every solver; a guess off by 1e-3 is not kept.
TEST(FcSolvers, AConvergedGuessIsKeptWhenAsked) {
  const FrictionContactProblem p = two_contacts_2d();
  const Vector exact = Eigen::Vector4d(1.0 / 3.0, -0.1, 1.0 / 3.0, 0.05);
  Vector off = exact;
  off[0] += 1e-3;
  FrictionContactSettings s;
  s.tolerance = 1e-12;
  s.keep_converged_guess = true;
  for (const auto& name : friction_contact_solver_names(2)) {
    const FrictionContactResult kept = solve_friction_contact(p, name, s, exact);
    EXPECT_TRUE(kept.converged()) << name;
    EXPECT_EQ(kept.iterations, 0) << name;
    EXPECT_EQ(kept.r, exact) << name;
    EXPECT_NEAR((kept.u - (p.W * exact + p.q)).norm(), 0.0, 1e-15) << name;
    const FrictionContactResult solved = solve_friction_contact(p, name, s, off);
    EXPECT_TRUE(solved.converged()) << name;
    EXPECT_NE(solved.r, off) << name;
    EXPECT_NEAR((solved.r - exact).norm(), 0.0, 1e-9) << name;
    EXPECT_EQ(kept.solver, solved.solver) << name;  // "auto": the solver it chose
  }
}

TEST(FcSolvers, ShuffledAndRelaxedNsgsConverge) {
  const FrictionContactProblem p = condense(random_global(3, 6, 30, 8));
  for (NsgsOrder order : {NsgsOrder::shuffled, NsgsOrder::shuffled_each}) {
    const FrictionContactResult res =
        solve_nsgs(p, {.tolerance = 1e-10, .relaxation = 0.9, .order = order, .seed = 3});
    EXPECT_TRUE(res.converged());
    EXPECT_LE(friction_contact_residual(p, res.r), 1e-10);
  }
}

TEST(FcSolvers, GlobalFormCondensedAndAdmmAgree) {
  const GlobalFrictionContactProblem g = random_global(3, 4, 20, 21);
  // Condensation against the dense formula.
  const FrictionContactProblem p = condense(g);
  const Matrix Minv = Matrix(g.M).inverse();
  const Matrix H = Matrix(g.H);
  EXPECT_NEAR((Matrix(p.W) - H.transpose() * Minv * H).norm(), 0.0, 1e-10);
  EXPECT_NEAR((p.q - (H.transpose() * Minv * g.f + g.w)).norm(), 0.0, 1e-10);
  FrictionContactSettings s;
  s.tolerance = 1e-10;
  const FrictionContactResult a = solve_global_friction_contact(g, "condensed:nsgs", s);
  const FrictionContactResult b = solve_global_friction_contact(g, "admm", s);
  ASSERT_TRUE(a.converged()) << a.message;
  ASSERT_TRUE(b.converged()) << b.message;
  EXPECT_LE(global_friction_contact_residual(g, a.v, a.r), 1e-10);
  EXPECT_LE((a.r - b.r).norm(), 1e-5 * std::max(1.0, a.r.norm()));
  EXPECT_LE((a.v - b.v).norm(), 1e-5 * std::max(1.0, a.v.norm()));
  // M v = H r + f holds for the condensed result.
  EXPECT_NEAR((Matrix(g.M) * a.v - H * a.r - g.f).norm(), 0.0, 1e-10);
}

TEST(FcSolvers, BadInputThrows) {
  FrictionContactProblem p = two_contacts_2d();
  EXPECT_THROW(solve_friction_contact(p, "no_such_solver"), std::invalid_argument);
  EXPECT_THROW(solve_friction_contact(p, "nsgs", {}, Vector::Zero(3)), std::invalid_argument);
  FrictionContactProblem neg = p;
  neg.mu[1] = -0.1;
  EXPECT_THROW(solve_friction_contact(neg, "nsgs"), std::invalid_argument);
  FrictionContactProblem wrong = p;
  wrong.q = Vector::Zero(3);
  EXPECT_THROW(solve_friction_contact(wrong, "auto"), std::invalid_argument);
  EXPECT_THROW(friction_contact_solver_names(4), std::invalid_argument);
  EXPECT_THROW(solve_nsgs(p, {.relaxation = 2.5}), std::invalid_argument);
  GlobalFrictionContactProblem g = random_global(3, 2, 6, 1);
  g.M = SparseMatrix(6, 6);  // singular (zero) mass matrix
  EXPECT_THROW(condense(g), std::invalid_argument);
  EXPECT_THROW(solve_global_friction_contact(random_global(3, 2, 6, 1), "condensed:nope"),
               std::invalid_argument);
}

TEST(FcSolvers, RegistryNamesAndDescriptions) {
  for (int d : {2, 3}) {
    const auto names = friction_contact_solver_names(d);
    EXPECT_EQ(names.front(), "auto");
    for (const auto& n : names) EXPECT_FALSE(friction_contact_solver_description(n).empty());
  }
  EXPECT_EQ(choose_friction_contact_solver(two_contacts_2d()), "hybrid");
}

namespace {

// n_c contacts (3D) on a chain: W_ii = diag(a, 1, 1), W_i,i±1 = b on the normal entries only.
FrictionContactProblem chain(int nc, double a, double b, double mu) {
  Matrix W = Matrix::Zero(3 * nc, 3 * nc);
  for (int i = 0; i < nc; ++i) {
    W.block<3, 3>(3 * i, 3 * i) = Vector3(a, 1, 1).asDiagonal();
    if (i + 1 < nc) W(3 * i, 3 * (i + 1)) = W(3 * (i + 1), 3 * i) = b;
  }
  FrictionContactProblem p;
  p.W = sparse(W);
  p.q = Vector::Constant(3 * nc, -1.0);
  p.mu = Vector::Constant(nc, mu);
  return p;
}

}  // namespace

// The default solver's features, derived by hand for a chain: an inner contact has two
// off-diagonal blocks of one entry b each and a diagonal block of sum a + 2, so the coupling is
// max_i Σ_j≠i Σ|W_ij| / Σ|W_ii| = 2b/(a + 2); the two end contacts have 2 nonzero blocks and the
// inner ones 3, so there are (3 n_c − 2)/n_c blocks per row.
TEST(FcSolvers, DefaultSolverReadsCouplingAndDensity) {
  const FrictionContactSolverChoice weak = explain_solver_choice(chain(10, 2.0, 1.0, 0.3));
  EXPECT_EQ(weak.contacts, 10);
  EXPECT_DOUBLE_EQ(weak.blocks_per_row, 28.0 / 10.0);
  EXPECT_DOUBLE_EQ(weak.coupling, 2.0 / 4.0);
  EXPECT_DOUBLE_EQ(weak.mu_max, 0.3);
  EXPECT_EQ(weak.solver, "hybrid");
  EXPECT_NE(weak.reason.find("weakly coupled"), std::string::npos) << weak.reason;
  // 2b/(a+2) = 2·12/4 = 6 ≥ 4.4 with 2.8 blocks per row: Newton
  const FrictionContactSolverChoice strong = explain_solver_choice(chain(10, 2.0, 12.0, 0.3));
  EXPECT_DOUBLE_EQ(strong.coupling, 6.0);
  EXPECT_EQ(strong.solver, "newton");
  EXPECT_EQ(choose_friction_contact_solver(chain(10, 2.0, 12.0, 0.3)), "newton");
  // every normal coupled to every other (dense W, 20 blocks per row; coupling 19·0.8/3 ≥ 4.4):
  // Gauss-Seidel first, ADMM if it crawls
  Matrix W = Matrix::Identity(60, 60);
  for (int i = 0; i < 20; ++i)
    for (int j = 0; j < 20; ++j)
      if (i != j) W(3 * i, 3 * j) = 0.8;
  FrictionContactProblem dense;
  dense.W = sparse(W);
  dense.q = Vector::Constant(60, -1.0);
  dense.mu = Vector::Constant(20, 0.5);
  const FrictionContactSolverChoice d = explain_solver_choice(dense);
  EXPECT_DOUBLE_EQ(d.blocks_per_row, 20.0);
  EXPECT_DOUBLE_EQ(d.coupling, 19 * 0.8 / 3.0);
  EXPECT_EQ(d.solver, "nsgs_admm");
  EXPECT_NE(d.reason.find("dense W"), std::string::npos) << d.reason;
}

// A mechanism's step (choose_velocity_level_solver): 2 to 64 contacts go to nsgs_admm whatever
// the FCLIB rule says (a weakly coupled chain would be "hybrid", a coupled one "newton"); one
// contact keeps the exact one-contact solver, and 65 contacts or more the FCLIB rule.
TEST(FcSolvers, MechanismStepsOfFewContactsGoToGaussSeidelThenNewton) {
  EXPECT_EQ(choose_velocity_level_solver(chain(10, 2.0, 1.0, 0.3)), "nsgs_admm");
  EXPECT_EQ(choose_velocity_level_solver(chain(64, 2.0, 12.0, 0.3)), "nsgs_admm");
  EXPECT_EQ(choose_velocity_level_solver(chain(1, 2.0, 1.0, 0.3)), "hybrid");
  EXPECT_EQ(choose_velocity_level_solver(chain(65, 2.0, 1.0, 0.3)), "hybrid");
  EXPECT_EQ(choose_velocity_level_solver(chain(65, 2.0, 12.0, 0.3)), "newton");
}

// nsgs_admm on a small problem where Gauss-Seidel crawls: a chain of 40 contacts whose normals
// couple by W_i,i±1 = 0.999 against W_ii = 2 (W nearly singular: NSGS is still above 1e-10 after
// 300 sweeps) hands over to Newton, not ADMM, as the stage path says, and reaches the unique
// solution NSGS finds at 1e-13 with a large budget.
TEST(FcSolvers, NsgsAdmmHandsACrawlingSmallProblemToNewton) {
  const FrictionContactProblem p = chain(40, 2.0, 0.999, 0.4);
  const FrictionContactResult plain =
      solve_friction_contact(p, "nsgs", {.tolerance = 1e-10, .max_iterations = 300});
  ASSERT_FALSE(plain.converged());  // it does crawl
  const FrictionContactResult r =
      solve_friction_contact(p, "nsgs_admm", {.tolerance = 1e-10, .max_iterations = 300});
  ASSERT_TRUE(r.converged()) << r.message;
  EXPECT_NE(r.message.find("newton"), std::string::npos) << r.message;
  EXPECT_EQ(r.message.find("admm"), std::string::npos) << r.message;
  const FrictionContactResult g =
      solve_friction_contact(p, "nsgs", {.tolerance = 1e-13, .max_iterations = 1000000});
  ASSERT_TRUE(g.converged());
  EXPECT_LE((r.r - g.r).norm(), 1e-7 * g.r.norm());
}

// Alart–Curnier with spectral penalties (ρ_n = ρ_t = 1/√(λ_min λ_max) of W_ii = diag(2, 1, 1):
// 1/√2, where the diagonal rule gives ρ_n = 1/2, ρ_t = 1) reaches the same unique solution as NSGS
// on a strongly coupled chain; the penalties change the path, not the fixed point.
TEST(FcSolvers, AlartCurnierWithSpectralPenaltiesSolvesACoupledChain) {
  const FrictionContactProblem p = chain(30, 2.0, 0.9, 0.4);
  const FrictionContactResult n =
      solve_newton_ac(p, {.tolerance = 1e-10, .penalty = AlartCurnierPenalty::spectral}, Vector());
  const FrictionContactResult g =
      solve_friction_contact(p, "nsgs", {.tolerance = 1e-12, .max_iterations = 100000});
  ASSERT_TRUE(n.converged() && g.converged()) << n.message;
  EXPECT_LE(friction_contact_residual(p, n.r), 1e-10);
  EXPECT_LE((n.r - g.r).norm(), 1e-7 * g.r.norm());
}

// The "newton" schedule on a strongly coupled chain: certified by the residual, and the same
// solution as NSGS run to a tight tolerance (W is positive definite: r is unique).
TEST(FcSolvers, NewtonScheduleSolvesACoupledChain) {
  const FrictionContactProblem p = chain(30, 2.0, 0.9, 0.4);
  const FrictionContactResult n = solve_friction_contact(p, "newton", {.tolerance = 1e-10});
  const FrictionContactResult g =
      solve_friction_contact(p, "nsgs", {.tolerance = 1e-12, .max_iterations = 100000});
  ASSERT_TRUE(n.converged() && g.converged()) << n.message;
  EXPECT_LE(friction_contact_residual(p, n.r), 1e-10);
  EXPECT_LE((n.r - g.r).norm(), 1e-7 * g.r.norm());
  EXPECT_EQ(n.message.rfind("stages: newton_ac", 0), 0u) << n.message;
}

// The sparse route forms J = A + B(W + εI) in place on the pattern of W's 3×3 blocks, and keeps
// that pattern (and the LU's ordering) for the next W with the same one. Three chains solved in
// a row: W; the same pattern with other values; and the same count of nonzeros in every row at
// other columns (each normal row coupled to its neighbours' first tangent entries, a
// non-symmetric W whose symmetric part is still positive definite). Each reaches the solution
// NSGS finds to a tight tolerance, certified by the residual, and each gives the same iterates
// to the last bit as on a fresh thread, which has kept nothing: a stale pattern would place
// values in the wrong entries of J (measured: the third chain then still converges, on other
// iterates).
TEST(FcSolvers, SparseNewtonRouteKeepsItsPatternOnlyForTheSameW) {
  auto chain_on = [](int nc, double a, double b, double mu, int entry) {
    FrictionContactProblem p = chain(nc, a, 0.0, mu);
    Matrix W = Matrix(p.W);
    for (int i = 0; i + 1 < nc; ++i) {
      W(3 * i, 3 * (i + 1) + entry) = b;
      W(3 * (i + 1), 3 * i + entry) = b;
    }
    p.W = sparse(W);
    return p;
  };
  const FrictionContactProblem problems[] = {chain_on(30, 2.0, 0.9, 0.4, 0),
                                             chain_on(30, 3.0, -0.7, 0.6, 0),
                                             chain_on(30, 2.0, 0.3, 0.4, 1)};
  EXPECT_EQ(problems[0].W.nonZeros(), problems[2].W.nonZeros());
  for (const FrictionContactProblem& p : problems) {
    ASSERT_FALSE(newton_system_is_dense(p));
    const FrictionContactResult g =
        solve_friction_contact(p, "nsgs", {.tolerance = 1e-13, .max_iterations = 100000});
    for (const FrictionContactResult& n :
         {solve_newton_ac(p, {.tolerance = 1e-12}), solve_newton_fb(p, {.tolerance = 1e-12})}) {
      ASSERT_TRUE(n.converged() && g.converged()) << n.solver << ": " << n.message;
      EXPECT_LE(friction_contact_residual(p, n.r), 1e-12);
      EXPECT_LE((n.r - g.r).norm(), 1e-7 * g.r.norm()) << n.solver;
      EXPECT_LE(n.iterations, 30) << n.solver;
    }
    for (const bool fb : {false, true}) {
      auto solve = [&] {
        return fb ? solve_newton_fb(p, {.tolerance = 1e-12})
                  : solve_newton_ac(p, {.tolerance = 1e-12});
      };
      const FrictionContactResult here = solve();
      FrictionContactResult fresh;
      std::thread([&] { fresh = solve(); }).join();
      EXPECT_EQ(here.residual_history, fresh.residual_history) << here.solver;
      EXPECT_TRUE(here.r == fresh.r) << here.solver;
    }
  }
}

// Newton's sparse route where J stays singular (newton.hpp, NewtonSettings::shift_after_singular),
// on the whole J and component by component (each pair is a component of W): ten bodies, each
// touched at one point by two identical contacts, so that W's two rows of a pair are equal, and so
// are J's while the pair's impulses are: LU meets an exact zero pivot at every iteration. The
// pair's total impulse R = r₁ + r₂ solves the one-contact problem (A, q, μ) (u = A R + q at both),
// found apart by the exact one-contact solver. Factorizing J + shift·I at once after two singular J
// (the default), after one, or never (0) gives the same iterates to the bit, and the message counts
// a shifted matrix at every iteration, of which only the first two (one; every one) tried J itself
// first.
TEST(FcSolvers, SparseNewtonShiftsAtOnceWhereJStaysSingularAndChangesNoIterate) {
  const int K = 10;
  Matrix W = Matrix::Zero(6 * K, 6 * K);
  Vector q(6 * K), mu = Vector::Constant(2 * K, 0.5);
  std::vector<Matrix3> A(K);
  std::vector<Vector3> qk(K);
  for (int k = 0; k < K; ++k) {
    A[k] << 2.0 + 0.1 * k, 0.3, -0.1, 0.3, 1.5, 0.2, -0.1, 0.2, 1.2;
    qk[k] << -1.0 - 0.1 * k, 0.2 + 0.05 * k, -0.1;
    for (int a = 0; a < 2; ++a) {
      q.segment<3>(6 * k + 3 * a) = qk[k];
      for (int b = 0; b < 2; ++b) W.block<3, 3>(6 * k + 3 * a, 6 * k + 3 * b) = A[k];
    }
  }
  FrictionContactProblem p;
  p.dimension = 3;
  p.W = sparse(W);
  p.q = q;
  p.mu = mu;
  ASSERT_FALSE(newton_system_is_dense(p));
  for (const bool by_components : {false, true}) {
    const FrictionContactResult twice =
        solve_newton_ac(p, {.tolerance = 1e-12, .by_components = by_components});
    ASSERT_TRUE(twice.converged()) << twice.message;
    // every iteration shifted; only the first two tried J itself (0: every one; 1: the first)
    auto shifted = [](const FrictionContactResult& r, int failed) {
      return fmt::format(
          "{} Newton matrices factorized with a diagonal shift (J singular; {} of them after a "
          "failed factorization)",
          r.iterations, failed);
    };
    EXPECT_EQ(twice.message, shifted(twice, 2));
    for (int k = 0; k < K; ++k) {
      FrictionContactProblem one;
      one.dimension = 3;
      one.W = sparse(Matrix(A[k]));
      one.q = qk[k];
      one.mu = Vector::Constant(1, 0.5);
      const FrictionContactResult exact =
          solve_friction_contact(one, "hybrid", {.tolerance = 1e-14});
      ASSERT_TRUE(exact.converged());
      const Vector3 R = twice.r.segment<3>(6 * k) + twice.r.segment<3>(6 * k + 3);
      EXPECT_LE((R - exact.r).norm(), 1e-9 * exact.r.norm()) << "body " << k;
    }
    for (int after : {0, 1}) {
      const FrictionContactResult other = solve_newton_ac(
          p, {.tolerance = 1e-12, .shift_after_singular = after, .by_components = by_components});
      EXPECT_EQ(other.residual_history, twice.residual_history) << after;
      EXPECT_TRUE(other.r == twice.r) << after;
      EXPECT_EQ(other.message, shifted(other, after == 0 ? other.iterations : 1)) << after;
    }
  }
  EXPECT_THROW(solve_newton_ac(p, {.shift_after_singular = -1}), std::invalid_argument);
}

// Newton's route by components (newton.hpp, NewtonSettings::by_components): four independent
// problems W = Hᵀ M⁻¹ H of 3, 5, 12 and 40 contacts (positive definite), their contacts
// interleaved at random in one problem. The first three (at most 96 rows) are factorized dense,
// the fourth (120 rows) sparse. The Newton steps are those of the whole J up to rounding: the same
// iterations and residuals within 1e-6 of each other (Alart–Curnier; Fischer–Burmeister's first
// ten); and the solution is each part's own, found apart by NSGS. The route is taken: its
// impulses differ from the whole J's in their last bits. A zero stored in W between two parts
// couples nothing (it once named a contact outside its component's dense W).
TEST(FcSolvers, NewtonByComponentsTakesTheWholeSystemsSteps) {
  const int sizes[] = {3, 5, 12, 40};
  std::vector<FrictionContactProblem> parts;
  Index n = 0;
  for (int k = 0; k < 4; ++k) {
    parts.push_back(condense(random_global(3, sizes[k], 3 * sizes[k] + 10, 20 + k)));
    n += sizes[k];
  }
  std::vector<Index> place(static_cast<size_t>(n));  // the contact of part contact j, in order
  for (Index j = 0; j < n; ++j) place[j] = j;
  std::shuffle(place.begin(), place.end(), std::mt19937(7));
  std::vector<Eigen::Triplet<double>> entries;
  FrictionContactProblem p;
  p.dimension = 3;
  p.q.resize(3 * n);
  p.mu.resize(n);
  Index first = 0;
  for (const FrictionContactProblem& part : parts) {
    const Matrix W = Matrix(part.W);
    for (Index i = 0; i < part.contacts(); ++i) {
      const Index ci = place[first + i];
      p.q.segment<3>(3 * ci) = part.q.segment<3>(3 * i);
      p.mu[ci] = part.mu[i];
      for (Index j = 0; j < part.contacts(); ++j)
        for (int a = 0; a < 3; ++a)
          for (int b = 0; b < 3; ++b)
            entries.emplace_back(3 * ci + a, 3 * place[first + j] + b, W(3 * i + a, 3 * j + b));
    }
    first += part.contacts();
  }
  // stored zeros from the first contact of the first part to the last of the last, and back
  entries.emplace_back(3 * place[0], 3 * place[n - 1], 0.0);
  entries.emplace_back(3 * place[n - 1] + 1, 3 * place[0] + 2, 0.0);
  p.W.resize(3 * n, 3 * n);
  p.W.setFromTriplets(entries.begin(), entries.end());
  ASSERT_FALSE(newton_system_is_dense(p));
  ASSERT_EQ(newton_dense_components(p), 3);
  for (const auto solve : {&solve_newton_ac, &solve_newton_fb}) {
    const FrictionContactResult by = solve(p, {.tolerance = 1e-12}, Vector());
    const FrictionContactResult whole = solve(p, {.tolerance = 1e-12, .by_components = false}, {});
    ASSERT_TRUE(by.converged() && whole.converged()) << by.message << " / " << whole.message;
    EXPECT_FALSE(by.r == whole.r) << by.solver << ": the same bits, so the same route";
    // Fischer–Burmeister crawls through a nonmonotone stretch from iteration 12 on, where
    // rounding grows (it converges in 44 and 56 iterations): its first ten are compared
    const size_t compared = solve == &solve_newton_ac ? whole.residual_history.size() : 10;
    if (solve == &solve_newton_ac) {
      ASSERT_EQ(by.residual_history.size(), whole.residual_history.size());
    }
    ASSERT_GE(by.residual_history.size(), compared) << by.solver;
    for (size_t k = 0; k < compared; ++k)
      EXPECT_NEAR(by.residual_history[k], whole.residual_history[k],
                  1e-6 * whole.residual_history[k] + 1e-13)
          << by.solver << " iteration " << k;
    first = 0;
    for (const FrictionContactProblem& part : parts) {
      const FrictionContactResult alone =
          solve_friction_contact(part, "nsgs", {.tolerance = 1e-13, .max_iterations = 100000});
      ASSERT_TRUE(alone.converged());
      for (Index i = 0; i < part.contacts(); ++i)
        EXPECT_LE((by.r.segment<3>(3 * place[first + i]) - alone.r.segment<3>(3 * i)).norm(),
                  1e-7 * alone.r.norm())
            << by.solver << " part of " << part.contacts() << ", contact " << i;
      first += part.contacts();
    }
  }
}

// The dense route of the Newton system (newton.hpp): a problem whose W has at most 192 rows and
// is mostly nonzero takes it, and so does any of at most 24 rows (a chain of 8 contacts, sparse,
// as a robot's frictionless joint limits are, which then reaches NSGS's solution too); a chain of
// 30 contacts and a dense problem of 195 rows do not. On the dense route both Newton functions
// reach the solution NSGS finds (W = Hᵀ M⁻¹ H of 8 contacts on 40 velocities: positive definite, in
// 2D and 3D), and the schedule with the proximal term solves a redundant problem (8 contacts on 12
// velocities: W of rank 12 for 24 rows) in few iterations: a wrong block of J would leave Newton
// crawling instead.
TEST(FcSolvers, DenseNewtonRouteAgreesWithGaussSeidel) {
  EXPECT_FALSE(newton_system_is_dense(chain(30, 2.0, 0.9, 0.4)));
  EXPECT_FALSE(newton_system_is_dense(chain(9, 2.0, 0.9, 0.4)));
  EXPECT_FALSE(newton_system_is_dense(condense(random_global(3, 65, 200, 5))));
  const FrictionContactProblem small = chain(8, 2.0, 0.9, 0.4);
  ASSERT_TRUE(newton_system_is_dense(small));
  const FrictionContactResult gs =
      solve_friction_contact(small, "nsgs", {.tolerance = 1e-13, .max_iterations = 100000});
  const FrictionContactResult ns = solve_newton_ac(small, {.tolerance = 1e-12});
  ASSERT_TRUE(gs.converged() && ns.converged()) << ns.message;
  EXPECT_LE((ns.r - gs.r).norm(), 1e-7 * gs.r.norm());
  for (int d : {2, 3}) {
    const FrictionContactProblem p = condense(random_global(d, 8, 40, 11));
    ASSERT_TRUE(newton_system_is_dense(p));
    const FrictionContactResult g =
        solve_friction_contact(p, "nsgs", {.tolerance = 1e-13, .max_iterations = 100000});
    ASSERT_TRUE(g.converged());
    for (const FrictionContactResult& n :
         {solve_newton_ac(p, {.tolerance = 1e-12}), solve_newton_fb(p, {.tolerance = 1e-12})}) {
      ASSERT_TRUE(n.converged()) << n.solver << ": " << n.message;
      EXPECT_LE((n.r - g.r).norm(), 1e-7 * g.r.norm()) << n.solver;
    }
  }
  const FrictionContactProblem redundant = condense(random_global(3, 8, 12, 3));
  ASSERT_TRUE(newton_system_is_dense(redundant));
  const FrictionContactResult n = solve_friction_contact(
      redundant, "newton", {.tolerance = 1e-10, .newton_proximal = kRedundantContactsProximal});
  ASSERT_TRUE(n.converged()) << n.message;
  EXPECT_LE(friction_contact_residual(redundant, n.r), 1e-10);
  EXPECT_LE(n.iterations, 30);
}
