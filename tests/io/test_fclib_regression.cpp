// Regression over the small FCLIB problems of /work/shared/data/fclib (≤ 60 contacts): the
// "auto" solver (or the solver noted for a known hard case) reaches the natural-map residual
//   e = ‖r − P_K(r − û)‖ / max(‖q‖, ‖r‖, ‖u‖) ≤ 1e-8.
// The residual is recomputed here from the returned r with friction_contact_residual, not taken
// from the solver's report. Global problems are solved through the registry (condensed) and
// checked on the condensed local problem, plus the equations M v = H r + f and u = Hᵀ v + w.
// The reference is the tolerance itself; the files' /solution groups are not used (in the
// Siconos-generated files r is all zeros, data README).
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include <fmt/format.h>

#include "moreau/io/problems/fclib.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"
#include "moreau/solvers/fc/newton.hpp"

namespace moreau {
namespace {

namespace fs = std::filesystem;

const fs::path kData = fs::path(MOREAU_DATA_DIR) / "fclib";
constexpr double kTol = 1e-8;

struct Case {
  const char* file;             // under fclib/
  double tolerance;             // residual the solver must reach (kTol everywhere)
  const char* solver = "auto";  // "auto" unless noted
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.file; }

// Every local problem with at most 60 contacts.
const Case kLocalCases[] = {
    {"from-siconos-dat/FC3D_Example1.hdf5", kTol},
    {"from-siconos-dat/FC3D_Example1_SBM.hdf5", kTol},
    {"from-siconos-dat/FrictionContact3D_1c.hdf5", kTol},
    {"from-siconos-dat/FrictionContact3D_RR_1c.hdf5", kTol},
    {"from-siconos-dat/Rover1039.hdf5", kTol},
    {"from-siconos-dat/Rover1040.hdf5", kTol},
    {"from-siconos-dat/Rover1041.hdf5", kTol},
    {"from-siconos-dat/Rover11035.hdf5", kTol},
    {"from-siconos-dat/Rover11211.hdf5", kTol},
    {"from-siconos-dat/Rover3865.hdf5", kTol},
    {"from-siconos-dat/Rover4144.hdf5", kTol},
    {"from-siconos-dat/Rover4396.hdf5", kTol},
    {"from-siconos-dat/Rover4493.hdf5", kTol},
    {"from-siconos-dat/Rover4516.hdf5", kTol},
    {"from-siconos-dat/Rover4609.hdf5", kTol},
    {"from-siconos-dat/Rover4613.hdf5", kTol},
    {"from-siconos-dat/Rover4622.hdf5", kTol},
    {"from-siconos-dat/Rover9770.hdf5", kTol},
    {"from-siconos-dat/Confeti-ex13-4contact-Fc3D-SBM.hdf5", kTol},
    {"from-siconos-dat/Confeti-ex03-Fc3D-SBM.hdf5", kTol},
    {"from-siconos-dat/NESpheres_10_1.hdf5", kTol},
    {"from-siconos-dat/NESpheres_30_1.hdf5", kTol},
    {"from-siconos-dat/OneObject-i1028-138.hdf5", kTol},
    {"from-siconos-dat/OneObject-i100000-499.hdf5", kTol},
    {"from-siconos-dat/OneObject-i100000-316.hdf5", kTol},
    // Box stacks with redundant contacts, where NSGS crawls (hybrid stopped at max_iterations
    // with residuals 2e-5 and 1.4e-6 on 21 Nov 2026): "auto" now sees their coupling (6.19) in a
    // sparse W (11.3 blocks per row) and runs semismooth Newton (solver "newton").
    {"from-siconos-dat/BoxesStack1-i100000-32.hdf5", kTol},
    {"fclib-api-test/local_problem_test.hdf5", kTol},
    // Coupled capsules where Alart-Curnier Newton crawls (122 iterations) and the "newton"
    // schedule finishes with Fischer-Burmeister; spheres in a box, which only AC solves.
    {"from-siconos-dat/Capsules-i101-404.hdf5", kTol},
    {"condensed-from-global/spheres-in-a-box-98-i10000-256-10-local.hdf5", kTol},
    {"siconos-testdata/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5", kTol},
    {"condensed-from-global/CubeH8-local.hdf5", kTol},
    {"condensed-from-global/LMGC_GlobalFrictionContactProblem00046-local.hdf5", kTol},
    {"condensed-from-global/Box_Stacks-i0035-31-0-local.hdf5", kTol},
};

const Case kGlobalCases[] = {
    {"siconos-testdata/CubeH8.hdf5", kTol},
    {"siconos-testdata/LMGC_GlobalFrictionContactProblem00046.hdf5", kTol},
    {"faf/Box_Stacks-i0035-31-0.hdf5", kTol},
};

class FclibLocalRegression : public ::testing::TestWithParam<Case> {};
class FclibGlobalRegression : public ::testing::TestWithParam<Case> {};

TEST_P(FclibLocalRegression, AutoSolverReachesTolerance) {
  const Case& c = GetParam();
  const FrictionContactProblem p = read_fclib_local(kData / c.file);
  const FrictionContactResult res = solve_friction_contact(p, c.solver, {.tolerance = c.tolerance});
  EXPECT_TRUE(res.converged()) << c.file << ": " << res.solver << " status "
                               << to_string(res.status) << " residual " << res.residual << " after "
                               << res.iterations << " iterations";
  ASSERT_EQ(res.r.size(), p.q.size());
  EXPECT_LE(friction_contact_residual(p, res.r), c.tolerance)
      << c.file << " (" << res.solver << ")";
}

TEST_P(FclibGlobalRegression, CondensedAutoSolverReachesTolerance) {
  const Case& c = GetParam();
  const GlobalFrictionContactProblem g = read_fclib_global(kData / c.file);
  const FrictionContactResult res =
      solve_global_friction_contact(g, "condensed:auto", {.tolerance = c.tolerance});
  EXPECT_TRUE(res.converged()) << c.file << ": " << res.solver << " status "
                               << to_string(res.status) << " residual " << res.residual;
  ASSERT_EQ(res.r.size(), g.w.size());
  ASSERT_EQ(res.v.size(), g.f.size());
  // The condensed problem W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w is solved to the tolerance ...
  const FrictionContactProblem local = condense(g);
  EXPECT_LE(friction_contact_residual(local, res.r), c.tolerance) << c.file;
  // ... and v, u satisfy the global equations (relative to the size of the terms).
  const Vector Mv = g.M * res.v, Hr = g.H * res.r;
  const double scale = std::max({g.f.norm(), Mv.norm(), Hr.norm(), 1e-300});
  EXPECT_LE((Mv - Hr - g.f).norm() / scale, 1e-10) << c.file;
  if (res.u.size() == g.w.size()) {
    const Vector u = g.H.transpose() * res.v + g.w;
    EXPECT_LE((res.u - u).norm(), 1e-10 * std::max(u.norm(), 1.0)) << c.file;
  }
}

// The newton schedule's first Alart-Curnier stage stops when its residual enters a 2-cycle
// (NewtonSettings::cycle_window): on Capsules-i101-404 AC alternates between 3e-3 and 4e-4 from
// iteration 9 (it converges only after 122 iterations), so the stage ends by iteration 20, and
// the next stage finishes (Alart–Curnier with spectral penalties since 26 Nov 2026, 14
// iterations); on Capsules-i100-1090, where AC converges in 31 through an irregular oscillation,
// the test must not fire.
TEST(FclibNewtonSchedule, AlartCurnierCycleIsLeftEarly) {
  const FrictionContactProblem cycling =
      read_fclib_local(kData / "from-siconos-dat/Capsules-i101-404.hdf5");
  const FrictionContactResult ac =
      solve_newton_ac(cycling, {.tolerance = kTol, .max_iterations = 40, .cycle_window = 8});
  EXPECT_FALSE(ac.converged());
  EXPECT_LE(ac.iterations, 20) << ac.message;
  EXPECT_NE(ac.message.find("cycling"), std::string::npos) << ac.message;
  const FrictionContactResult all = solve_friction_contact(cycling, "newton", {.tolerance = kTol});
  EXPECT_TRUE(all.converged()) << all.message;
  // 31 (17 + 14) since 26 Nov 2026; 53 with the full 40 AC iterations. What follows the AC stage
  // is sensitive to rounding: variants of the one-contact solver equal to round-off gave 30, 41
  // and 54 iterations with Fischer–Burmeister as the next stage, so the bound is loose.
  EXPECT_LE(all.iterations, 45) << all.message;
  const FrictionContactProblem irregular =
      read_fclib_local(kData / "from-siconos-dat/Capsules-i100-1090.hdf5");
  const FrictionContactResult ac2 =
      solve_newton_ac(irregular, {.tolerance = kTol, .max_iterations = 40, .cycle_window = 8});
  EXPECT_TRUE(ac2.converged()) << ac2.message;
  // the default converges on the whole within its first stage (38 iterations since 1 Dec 2026):
  // with the one-contact solver's stick seed in Newton's sweeps after a stalled line search it took
  // 40 unconverged, then 284 whole-problem equivalents by components (NsgsSettings::stick_seed)
  const FrictionContactResult deflt =
      solve_friction_contact(irregular, "auto", {.tolerance = kTol});
  EXPECT_TRUE(deflt.converged()) << deflt.message;
  EXPECT_LE(deflt.iterations, 60) << deflt.message;
}

// After Alart–Curnier's stage, the newton schedule starts Fischer–Burmeister from where AC
// stopped, not from the caller's start point. Measured 26 Nov 2026: the schedule takes 57
// iterations on local_problem_test and 94 on BoxesStack1 (AC, AC with spectral penalties after
// its cycle, then FB), where FB from the start point alone takes 183 and 313 (and the schedule
// took 212 and 351 with FB from the start point). The reference here is FB alone, run in the
// test; the factor 1.5 leaves room for round-off paths (see the test above).
TEST(FclibNewtonSchedule, FischerBurmeisterStartsWhereAlartCurnierStopped) {
  for (const char* file :
       {"fclib-api-test/local_problem_test.hdf5", "from-siconos-dat/BoxesStack1-i100000-32.hdf5"}) {
    const FrictionContactProblem p = read_fclib_local(kData / file);
    const FrictionContactResult all = solve_friction_contact(p, "newton", {.tolerance = kTol});
    const FrictionContactResult fb =
        solve_newton_fb(p, {.tolerance = kTol, .max_iterations = 400}, Vector());
    ASSERT_TRUE(all.converged() && fb.converged()) << file << ": " << all.message;
    EXPECT_LE(friction_contact_residual(p, all.r), kTol) << file;
    EXPECT_LT(3 * all.iterations, 2 * fb.iterations) << file << ": " << all.message;
  }
}

// Capsules-i101-404: Alart–Curnier with the diagonal penalties cycles (122 iterations to converge
// alone); with spectral penalties it converges without cycling. The schedule's second stage is
// that run, so it ends there, within fewer iterations than FB alone needs after a cycled stage.
// The references: AC alone with each penalty rule, run here.
TEST(FclibNewtonSchedule, SpectralPenaltiesFollowACycle) {
  const FrictionContactProblem p =
      read_fclib_local(kData / "from-siconos-dat/Capsules-i101-404.hdf5");
  const FrictionContactResult diagonal =
      solve_newton_ac(p, {.tolerance = kTol, .max_iterations = 300}, Vector());
  const FrictionContactResult spectral = solve_newton_ac(
      p, {.tolerance = kTol, .max_iterations = 300, .penalty = AlartCurnierPenalty::spectral},
      Vector());
  ASSERT_TRUE(diagonal.converged() && spectral.converged());
  EXPECT_LT(3 * spectral.iterations, diagonal.iterations)
      << spectral.iterations << " against " << diagonal.iterations;
  const FrictionContactResult all = solve_friction_contact(p, "newton", {.tolerance = kTol});
  ASSERT_TRUE(all.converged()) << all.message;
  EXPECT_LE(friction_contact_residual(p, all.r), kTol);
  EXPECT_EQ(all.message.rfind("stages: newton_ac+newton_ac", 0), 0u) << all.message;
}

// KaplasTower (570 contacts, planks resting on planks through four contacts per face: W is
// dense, 22.8 blocks per row, and redundant): NSGS crawls (1056 sweeps), so the default solver
// picks nsgs_admm, whose 50-sweep probe predicts a long crawl and hands over to ADMM (161
// iterations). The references are plain NSGS run here and the residual recomputed from r.
TEST(FclibNsgsAdmmSchedule, DenseRedundantStackGoesToAdmm) {
  const FrictionContactProblem p =
      read_fclib_local(kData / "from-siconos-dat/KaplasTower-i1061-4.hdf5");
  EXPECT_EQ(choose_friction_contact_solver(p), "nsgs_admm");
  const FrictionContactResult def = solve_friction_contact(p, "auto", {.tolerance = kTol});
  const FrictionContactResult gs = solve_friction_contact(p, "nsgs", {.tolerance = kTol});
  ASSERT_TRUE(def.converged() && gs.converged()) << def.message;
  EXPECT_LE(friction_contact_residual(p, def.r), kTol);
  EXPECT_EQ(def.message.rfind("stages: nsgs+admm", 0), 0u) << def.message;
  EXPECT_LT(2 * def.iterations, gs.iterations) << def.message;
  // A dense problem that NSGS solves within the probe never reaches ADMM (PerioBox: 34 sweeps).
  const FrictionContactProblem perio =
      read_fclib_local(kData / "siconos-testdata/LMGC_100_PR_PerioBox-i00361-60-03000.hdf5");
  EXPECT_EQ(choose_friction_contact_solver(perio), "nsgs_admm");
  const FrictionContactResult quick = solve_friction_contact(perio, "auto", {.tolerance = kTol});
  EXPECT_TRUE(quick.converged());
  EXPECT_EQ(quick.message, "stages: nsgs") << quick.message;
}

// The default on problems of independent components (components.hpp). CubesStack-10x10x10 is
// 100 columns of ten cubes, each touching only the one below (100 components of W's contact
// graph, 29–39 contacts each): Newton on the whole stalled (9.7e-6 after 60 s, and no Siconos
// solver solves it); from the whole problem's 40 Newton iterations, each column solved on its
// own converges. CubesStack-6x6x6 (36 columns) and Capsules-i122-1617 (33 heaps, without the
// proximal term) take the same path. The residual is recomputed here from r on the whole problem,
// which also checks that each component's impulses went back to their own contacts; the counts of
// components are those of W's sparsity, found here by a search over its blocks independent of the
// solver's.
TEST(FclibComponents, IndependentColumnsAreSolvedOneByOne) {
  auto count_components = [](const FrictionContactProblem& p) {
    // block adjacency (both directions) from W's nonzeros, then a depth-first search
    const Index nc = p.contacts();
    std::vector<std::vector<Index>> next(static_cast<size_t>(nc));
    const Eigen::SparseMatrix<double, Eigen::ColMajor> Wc = p.W;
    for (Index k = 0; k < Wc.outerSize(); ++k)
      for (Eigen::SparseMatrix<double, Eigen::ColMajor>::InnerIterator it(Wc, k); it; ++it)
        if (it.value() != 0.0) {
          next[it.row() / 3].push_back(it.col() / 3);
          next[it.col() / 3].push_back(it.row() / 3);
        }
    std::vector<bool> seen(static_cast<size_t>(nc), false);
    int count = 0;
    for (Index s = 0; s < nc; ++s) {
      if (seen[s]) continue;
      ++count;
      std::vector<Index> stack{s};
      seen[s] = true;
      while (!stack.empty()) {
        const Index i = stack.back();
        stack.pop_back();
        for (const Index j : next[i])
          if (!seen[j]) seen[j] = true, stack.push_back(j);
      }
    }
    return count;
  };
  const struct {
    const char* file;
    int components;
    double proximal;  // Capsules-i122-1617 converges on the whole with the default proximal term
  } cases[] = {
      {"generated-siconos44/CubesStack-10x10x10-i1000-3488-s10.hdf5", 100, kDefaultNewtonProximal},
      {"generated-siconos44/CubesStack-6x6x6-i1000-795-s10.hdf5", 36, kDefaultNewtonProximal},
      {"from-siconos-dat/Capsules-i122-1617.hdf5", 33, 0.0}};
  for (const auto& c : cases) {
    const FrictionContactProblem p = read_fclib_local(kData / c.file);
    ASSERT_EQ(count_components(p), c.components) << c.file;
    const FrictionContactResult res =
        solve_friction_contact(p, "auto", {.tolerance = kTol, .newton_proximal = c.proximal});
    EXPECT_TRUE(res.converged()) << c.file << ": " << res.message;
    EXPECT_LE(friction_contact_residual(p, res.r), kTol) << c.file;
    EXPECT_NE(res.message.find(fmt::format("then {} independent components", c.components)),
              std::string::npos)
        << c.file << ": " << res.message;
  }
  // a stored zero between two columns couples nothing: the same 36 components, solved (it once
  // put an impulse at column −1 of a component's W)
  FrictionContactProblem zero = read_fclib_local(kData / cases[1].file);
  zero.W.coeffRef(0, zero.W.cols() - 1) = 0.0;
  ASSERT_EQ(count_components(zero), 36);
  const FrictionContactResult z = solve_friction_contact(zero, "auto", {.tolerance = kTol});
  EXPECT_TRUE(z.converged()) << z.message;
  EXPECT_LE(friction_contact_residual(zero, z.r), kTol);
  // the budget holds, counted in whole-problem equivalents
  const FrictionContactResult tight =
      solve_friction_contact(zero, "auto", {.tolerance = kTol, .max_iterations = 41});
  EXPECT_LE(tight.iterations, 41) << tight.message;
  // where Newton converges on the whole within its first 40 iterations, nothing is split
  const FrictionContactProblem quick =
      read_fclib_local(kData / "from-siconos-dat/Capsules-i100-889.hdf5");
  ASSERT_GT(count_components(quick), 1);
  const FrictionContactResult whole = solve_friction_contact(quick, "auto", {.tolerance = kTol});
  EXPECT_EQ(whole.solver, "newton");
  EXPECT_TRUE(whole.converged());
  EXPECT_EQ(whole.message.find("independent components"), std::string::npos) << whole.message;
}

// RockPile_tob1 (463 contacts in 40 piles, μ 1; W not symmetric, the largest pile's rank 456 of
// 885 rows) was solved by no Siconos solver and by no moreau solver within 60 s until 1 Dec 2026,
// when a change of sin_cos at the level of its last bits moved the paths: the default now ends at
// 7.9e-9 in about 2 s (the components, then Newton on the whole from their impulses), and `newton`
// alone at 9.4e-9. The path is sensitive to rounding, so a failure here after a change that is
// exact only to round-off means the path moved, not necessarily a bug; the solution found is a
// solution. The natural-map residual is recomputed here on its own, contact by contact from
// u = W r + q (Eigen's product, not the library's residual or local_velocity).
TEST(FclibComponents, RockPileIsSolvedByTheDefault) {
  const FrictionContactProblem p = read_fclib_local(kData / "from-siconos-dat/RockPile_tob1.hdf5");
  const FrictionContactResult res = solve_friction_contact(p, "auto");
  EXPECT_TRUE(res.converged()) << res.message;
  const Vector u = Matrix(p.W) * res.r + p.q;
  double sum = 0.0;
  for (Index c = 0; c < p.contacts(); ++c) {
    const double mu = p.mu[c];
    const Vector3 r = res.r.segment<3>(3 * c), uc = u.segment<3>(3 * c);
    // z = r − û with û = u + μ‖u_T‖ e_n, projected on K = {‖z_T‖ ≤ μ z_n}
    const Vector3 z = r - Vector3(uc[0] + mu * uc.tail<2>().norm(), uc[1], uc[2]);
    const double zn = z[0], zt = z.tail<2>().norm();
    Vector3 pz = z;
    if (mu * zt <= -zn) {
      pz.setZero();
    } else if (zt > mu * zn) {
      const double a = (zn + mu * zt) / (1.0 + mu * mu);
      pz = Vector3(a, mu * a * z[1] / zt, mu * a * z[2] / zt);
    }
    sum += (r - pz).squaredNorm();
  }
  const double scale = std::max({p.q.norm(), res.r.norm(), u.norm()});
  EXPECT_LE(std::sqrt(sum) / scale, 1e-8);
}

// A solution written with the problem can be checked by anyone: read it back and recompute the
// residual from the file alone; it equals the residual of the solve (same r, same W, q, μ).
TEST(FclibSolutionFile, WrittenSolutionReproducesTheResidual) {
  const fs::path src = kData / "from-siconos-dat/NESpheres_30_1.hdf5";
  const FclibFile file = read_fclib(src);
  const FrictionContactResult res = solve_friction_contact(file.local, "auto", {.tolerance = kTol});
  ASSERT_TRUE(res.converged());
  const fs::path out = fs::temp_directory_path() /
                       fmt::format("moreau_solution_{}.hdf5", static_cast<long>(::getpid()));
  write_fclib_local(out, file.local, FclibSolution{res.r, res.u, Vector()}, std::nullopt,
                    file.info);
  const FclibFile back = read_fclib(out);
  fs::remove(out);
  ASSERT_TRUE(back.solution.has_value());
  const double e = friction_contact_residual(back.local, back.solution->r, back.solution->u);
  EXPECT_NEAR(e, friction_contact_residual(file.local, res.r), 1e-15);
  EXPECT_LE(e, kTol);
  EXPECT_LE((back.local.W * back.solution->r + back.local.q - back.solution->u).norm(),
            1e-12 * std::max(1.0, back.solution->u.norm()));
}

std::string case_name(const ::testing::TestParamInfo<Case>& info) {
  std::string name = fs::path(info.param.file).stem().string();
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name;
}

INSTANTIATE_TEST_SUITE_P(Small, FclibLocalRegression, ::testing::ValuesIn(kLocalCases), case_name);
INSTANTIATE_TEST_SUITE_P(Small, FclibGlobalRegression, ::testing::ValuesIn(kGlobalCases),
                         case_name);

}  // namespace
}  // namespace moreau
