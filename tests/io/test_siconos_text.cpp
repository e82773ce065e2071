// Siconos-numerics text LCP/MLCP files: the reader, and the LCP/MLCP solvers on every file.
// Independent references: the dense and the sparse-block (SBM) copies of the same problem must
// give the same matrix; the Siconos Python reader (siconos.numerics, checked once by hand) gives
// the same blocks as [[A, C], [D, B]] for all 18 MLCP files; analytic solutions are derived in
// the comments; the Lemke pivot counts quoted were reproduced by an exact rational-arithmetic
// lexicographic Lemke (Python fractions), not by this code.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "moreau/io/problems/siconos_text.hpp"
#include "moreau/solvers/lcp/enumeration.hpp"
#include "moreau/solvers/lcp/fischer_burmeister.hpp"
#include "moreau/solvers/lcp/lemke.hpp"
#include "moreau/solvers/lcp/pgs.hpp"
#include "moreau/solvers/mlcp/direct.hpp"
#include "moreau/solvers/mlcp/pgs.hpp"

namespace moreau {
namespace {

namespace fs = std::filesystem;
const fs::path kLcpDir = fs::path(MOREAU_DATA_DIR) / "siconos-numerics" / "lcp";
const fs::path kMlcpDir = fs::path(MOREAU_DATA_DIR) / "siconos-numerics" / "mlcp";

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".dat") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Writes `text` to a file under the temp dir; removed by the destructor.
class TempFile {
 public:
  explicit TempFile(const std::string& text) {
    path_ = fs::temp_directory_path() /
            ("moreau_siconos_text_" + std::to_string(counter_++) + "_" +
             std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + ".dat");
    std::ofstream(path_) << text;
  }
  ~TempFile() { fs::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
  static inline int counter_ = 0;
};

void expect_invalid_naming_file(const std::function<void(const std::string&)>& read,
                                const std::string& text, const std::string& fragment) {
  const TempFile f(text);
  try {
    read(f.path());
    ADD_FAILURE() << "no exception for: " << text;
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find(f.path()), std::string::npos) << msg;
    EXPECT_NE(msg.find(fragment), std::string::npos) << msg;
  }
}

}  // namespace

TEST(SiconosText, LcpDenseIsColumnMajor) {
  // lcp_CPS_2.dat is CPS Example 4.4.7: M = [[0,−1,2],[2,0,−2],[−1,1,0]], q = (−3,6,−1).
  // The file lists the columns (0 2 −1 / −1 0 1 / 2 −2 0), as Siconos stores dense matrices.
  const Lcp lcp = read_siconos_lcp((kLcpDir / "lcp_CPS_2.dat").string());
  Matrix M(3, 3);
  M << 0, -1, 2, 2, 0, -2, -1, 1, 0;
  EXPECT_EQ(lcp.M, M);
  EXPECT_EQ(lcp.q, Vector3(-3, 6, -1));
}

TEST(SiconosText, SparseBlockFilesEqualTheirDenseCopies) {
  for (const std::string name : {"ortiz", "deudeu", "trivial"}) {
    const Lcp dense = read_siconos_lcp((kLcpDir / ("lcp_" + name + ".dat")).string());
    const Lcp block = read_siconos_lcp((kLcpDir / ("lcp_" + name + "_block.dat")).string());
    EXPECT_EQ(dense.M, block.M) << name;
    EXPECT_EQ(dense.q, block.q) << name;
  }
}

TEST(SiconosText, EveryLcpFileLemkeAndEnumerationAgree) {
  // All 20 files parse. Lemke (lexicographic) ends with a solution on every solvable file but
  // one; "solvable" is decided by full enumeration for n ≤ 20 (all files but lcp_mmc, n = 26,
  // and lcp_tobenna, n = 40, which Lemke solves). Exceptions, each true of the problem:
  //  • lcp_CPS_3 (CPS Example 4.4.23, a bimatrix game, M ≥ 0 with zero diagonal blocks, q = −1):
  //    Lemke with covering vector e = 1 meets a secondary ray at the second pivot (the column
  //    of the entering z₄ is ≥ 0 in every row once z₀ is basic), although the game has
  //    equilibria (enumeration finds 3). M is copositive but not copositive-plus, so the ray
  //    proves nothing; this is why Lemke–Howson exists.
  //  • lcp_Pang_isolated_sol_perturbed: infeasible (enumeration finds no solution); Lemke ends
  //    on a ray.
  // lcp_enum_fails is named after a failure of Siconos' enumeration solver; ours finds its
  // unique solution. Every solver that reports converged must have residual ≤ its tolerance.
  const std::set<std::string> ray{"lcp_CPS_3.dat", "lcp_Pang_isolated_sol_perturbed.dat"};
  const auto files = files_in(kLcpDir);
  ASSERT_EQ(files.size(), 20u);
  for (const auto& file : files) {
    const std::string name = file.filename().string();
    const Lcp lcp = read_siconos_lcp(file.string());
    const LcpResult lemke = solve_lemke(lcp);
    if (ray.count(name)) {
      EXPECT_EQ(lemke.status, Status::ray_termination) << name;
    } else {
      EXPECT_EQ(lemke.status, Status::converged) << name << ": " << lemke.message;
      EXPECT_LE(lcp_residual(lcp, lemke.z), 1e-10) << name;
    }
    if (lcp.size() <= 20) {
      const LcpEnumerationResult all = enumerate_lcp(lcp);
      EXPECT_EQ(all.solutions.empty(), name == "lcp_Pang_isolated_sol_perturbed.dat") << name;
      for (const Vector& z : all.solutions) EXPECT_LE(lcp_residual(lcp, z), 1e-10) << name;
    }
    const LcpResult pgs = solve_lcp_pgs(lcp, {.max_iterations = 2000});
    if (pgs.converged()) {
      EXPECT_LE(lcp_residual(lcp, pgs.z), 1e-10) << name;
    }
    const LcpResult fb = solve_lcp_fischer_burmeister(lcp);
    if (fb.converged()) {
      EXPECT_LE(lcp_residual(lcp, fb.z), 1e-12) << name;
    }
  }
}

TEST(SiconosText, HardLcpFiles) {
  // lcp_exp_murty2: Murty's example of exponential Lemke runs, M upper triangular (1 on the
  // diagonal, 2 above), q = −(126, 124, 120, 112, 96, 64). Row 6: w₆ = z₆ − 64 → z₆ = 64;
  // every earlier row has 2·64 − |qᵢ| = 2, 4, 8, 16, 32 > 0 → z = (0,0,0,0,0,64). Lemke needs
  // 2⁶ = 64 pivots (also with exact arithmetic).
  const Lcp murty = read_siconos_lcp((kLcpDir / "lcp_exp_murty2.dat").string());
  const LcpResult r = solve_lemke(murty);
  ASSERT_EQ(r.status, Status::converged);
  EXPECT_EQ(r.iterations, 64);
  Vector z = Vector::Zero(6);
  z[5] = 64;
  EXPECT_NEAR((r.z - z).norm(), 0.0, 1e-12);
  // lcp_tobenna (n = 40, q has 32 zeros: highly degenerate): exact lexicographic Lemke takes
  // 127 pivots. A tie test relative to the ratios themselves cycles here (see lemke.cpp).
  const Lcp tob = read_siconos_lcp((kLcpDir / "lcp_tobenna.dat").string());
  const LcpResult t = solve_lemke(tob);
  ASSERT_EQ(t.status, Status::converged) << t.message;
  EXPECT_EQ(t.iterations, 127);
  EXPECT_LE(t.residual, 1e-12);
}

TEST(SiconosText, EveryMlcpFileSolvedByDirect) {
  // All 18 files parse and solve_mlcp_direct reaches mlcp_residual ≤ 1e-10 on each:
  // 14 by the Schur complement of an invertible A; PD_mlcp, diodeBridge (3 sizes) have a
  // singular A (rank 2 of 3, 6 of 11, 11 of 21): the split LCP ends on a ray (its matrix is not
  // copositive-plus) and the least-squares Newton fallback finishes the job; deltasigma_mlcp
  // (n = 65, m = 156) needs the Newton polish after Lemke's round-off (residual 2e-6).
  const auto files = files_in(kMlcpDir);
  ASSERT_EQ(files.size(), 18u);
  for (const auto& file : files) {
    const std::string name = file.filename().string();
    const Mlcp p = read_siconos_mlcp(file.string());
    const MlcpResult r = solve_mlcp_direct(p);
    EXPECT_EQ(r.status, Status::converged) << name << ": " << r.message;
    EXPECT_LE(mlcp_residual(p, r.u, r.v), 1e-10) << name;
  }
}

TEST(SiconosText, MlcpPgsOnFiles) {
  // PGS with the equality block eliminated converges where S = B − D A⁻¹C has a positive
  // diagonal and is (close to) monotone. On deltasigma (S has zero diagonal entries, B_ii > 0)
  // the frozen-u sweep diverges (‖u‖ ≈ 1e154 after 120 sweeps; solve_mlcp_direct solves it, see
  // above): a diverged iterate is a numerical_failure, not the "converged" that a residual of
  // finite error over an overflowed norm once gave. It cannot run on relay2/relay3 (S_ii = 0 and
  // B_ii = 0: numerical_failure) and does not converge with a singular A (PD, diodeBridge: u =
  // −A⁺(…) is only a least-squares solution of the equalities).
  const std::map<std::string, Status> expected{{"Buck2_mlcp.dat", Status::converged},
                                               {"BuckConverter_mlcp.dat", Status::converged},
                                               {"BuckFirstStep_mlcp.dat", Status::converged},
                                               {"PDSym_mlcp.dat", Status::converged},
                                               {"RCD_mlcp.dat", Status::converged},
                                               {"RLCD_mlcp.dat", Status::converged},
                                               {"Rectangular_mlcp.dat", Status::converged},
                                               {"deltasigma_mlcp.dat", Status::numerical_failure},
                                               {"deltasigma2_mlcp.dat", Status::numerical_failure},
                                               {"deudeu_mlcp.dat", Status::converged},
                                               {"m2n1_mlcp.dat", Status::converged},
                                               {"m3n2_mlcp.dat", Status::converged},
                                               {"relay2_mlcp.dat", Status::numerical_failure},
                                               {"relay3_mlcp.dat", Status::numerical_failure}};
  for (const auto& [name, status] : expected) {
    const Mlcp p = read_siconos_mlcp((kMlcpDir / name).string());
    const MlcpResult r = solve_mlcp_pgs(p, {.max_iterations = 1000});
    EXPECT_EQ(r.status, status) << name << ": " << r.message;
    if (r.converged()) {
      EXPECT_LE(mlcp_residual(p, r.u, r.v), 1e-10) << name;
    }
  }
}

TEST(SiconosText, MlcpM2n1Blocks) {
  // m2n1_mlcp.dat: storage-2 blocks are written row by row. A = 1, C = (2, 0), D = 0,
  // B = [[1, 1.3333], [0, 1]], a = −1, b = (1, −3); solution (derived in test_mlcp_solvers):
  // u = 1, v = (0, 3).
  const Mlcp p = read_siconos_mlcp((kMlcpDir / "m2n1_mlcp.dat").string());
  ASSERT_EQ(p.equalities(), 1);
  ASSERT_EQ(p.complementarities(), 2);
  Matrix B(2, 2);
  B << 1, 1.3333, 0, 1;
  EXPECT_EQ(p.B, B);
  EXPECT_EQ(p.C(0, 0), 2.0);
  EXPECT_EQ(p.C(0, 1), 0.0);
  EXPECT_EQ(p.b, Vector2(1, -3));
  const MlcpResult r = solve_mlcp_direct(p);
  EXPECT_NEAR(r.u[0], 1.0, 1e-14);
  EXPECT_NEAR((r.v - Vector2(0, 3)).norm(), 0.0, 1e-14);
}

TEST(SiconosText, BadFilesAreInvalidArgumentNamingTheFile) {
  const auto lcp = [](const std::string& p) { read_siconos_lcp(p); };
  const auto mlcp = [](const std::string& p) { read_siconos_mlcp(p); };
  expect_invalid_naming_file(lcp, "", "end of file");
  expect_invalid_naming_file(lcp, "2\n0\n2\n2\n2 2\n1 0 0 1\n-1", "truncated");
  expect_invalid_naming_file(lcp, "2\n0\n2\n2\n2 2\n1 0 zero 1\n-1 -1", "zero");
  expect_invalid_naming_file(lcp, "2\n0\n2\n2\n2 2\n1 0 nan 1\n-1 -1", "not finite");
  expect_invalid_naming_file(lcp, "3\n0\n2\n2\n2 2\n1 0 0 1\n-1 -1 -1", "n = 3");
  expect_invalid_naming_file(lcp, "2\n2\n2\n2\n", "CSparse");
  expect_invalid_naming_file(lcp, "1000000000\n0\n", "outside");
  expect_invalid_naming_file(lcp, "2\n0\n2\n2\n2 2\n1 0 0 1\n", "truncated");
  expect_invalid_naming_file(mlcp, "0\n0\n1\n1\n", "neither storage");
  expect_invalid_naming_file(mlcp, "0\n1\n1\n1\n1\n1\n", "truncated");
  EXPECT_THROW(read_siconos_lcp("/nonexistent/moreau/file.dat"), std::invalid_argument);
  // Trailing comments after q are ignored (lcp_CPS_1.dat ends with a remark).
  const TempFile ok("2\n0\n2\n2\n2 2\n1 0 0 1\n-1 2\n\nRemark: a comment\n");
  const Lcp parsed = read_siconos_lcp(ok.path());
  EXPECT_EQ(parsed.M, Matrix::Identity(2, 2));
  EXPECT_EQ(parsed.q, Vector2(-1, 2));
}

}  // namespace moreau
