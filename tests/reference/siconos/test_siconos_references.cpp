// Siconos' tutorial reference trajectories (../shared/data/siconos-examples, README there), run
// from the scenes in examples/siconos and compared by Siconos' own rule (compareRefFile): the
// ∞-norm of each column of (result − reference), then the largest over the columns. The columns
// of each file are rebuilt from moreau's outputs: trajectory (q, v), contact impulses and forces
// by contact name, and, for the quantities Siconos derives (generalized impulses, local
// velocities, works, energies), from those with the case's own formulas (README §7).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "moreau/io/scene/scene.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "moreau/sim/simulation.hpp"

namespace {

using moreau::Index;
using moreau::Matrix;
using moreau::Vector;
namespace fs = std::filesystem;

const fs::path kRefs = fs::path(MOREAU_DATA_DIR) / "siconos-examples";
const fs::path kScenes = fs::path(MOREAU_SOURCE_DIR) / "examples" / "siconos";

// A .ref file: "rows cols" then the rows.
Matrix read_ref(const fs::path& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  Index rows = 0, cols = 0;
  in >> rows >> cols;
  Matrix m(rows, cols);
  for (Index i = 0; i < rows; ++i)
    for (Index j = 0; j < cols; ++j) in >> m(i, j);
  EXPECT_TRUE(static_cast<bool>(in)) << path << ": fewer numbers than " << rows << "×" << cols;
  return m;
}

struct SceneResult {
  moreau::SimulationResult res;
  std::shared_ptr<const moreau::LagrangianSystem> system;
};

SceneResult run_scene(const std::string& file, double t_end = NAN) {
  const moreau::Scene scene = moreau::load_scene((kScenes / file).string());
  const moreau::SceneRun run = moreau::prepare_scene_run(scene, "", t_end);
  SceneResult out{moreau::simulate(*run.system, run.settings), run.system};
  EXPECT_EQ(out.res.status, moreau::SimulationStatus::completed) << out.res.message;
  return out;
}

// The column of coordinate (or velocity) `name` over the records.
Vector column(const moreau::SimulationResult& r, const std::string& name) {
  for (size_t i = 0; i < r.position_names.size(); ++i)
    if (r.position_names[i] == name) return r.q_matrix().col(static_cast<Index>(i));
  for (size_t i = 0; i < r.velocity_names.size(); ++i)
    if (r.velocity_names[i] == name) return r.v_matrix().col(static_cast<Index>(i));
  ADD_FAILURE() << "no coordinate " << name;
  return Vector::Zero(r.records());
}

Vector times(const moreau::SimulationResult& r) {
  return Eigen::Map<const Vector>(r.t.data(), static_cast<Index>(r.t.size()));
}

// Per record, the normal (component 0) or tangential (1) contact quantity of the contact whose
// name contains `name` (0 where none is recorded); of two records at one time (an event's pre-
// and post-rows), the record goes to the last row of that time.
Vector contact_column(const moreau::SimulationResult& r, const std::string& name, int component) {
  Vector out = Vector::Zero(r.records());
  Index row = 0;
  for (const auto& c : r.contacts) {
    if (r.contact_names.at(c.contact).find(name) == std::string::npos) continue;
    while (row + 1 < r.records() && r.t[row + 1] <= c.t) ++row;
    EXPECT_EQ(r.t[row], c.t);
    out[row] = component == 0 ? c.r_n : c.r_t[component - 1];
  }
  return out;
}

// Siconos' rule: max over the columns of max |ours − ref|; `which` lists the compared columns.
double deviation(const Matrix& ours, const Matrix& ref, const std::vector<Index>& which,
                 Index* worst_column = nullptr) {
  EXPECT_EQ(ours.rows(), ref.rows());
  double worst = 0.0;
  for (Index j : which) {
    const double d = (ours.col(j) - ref.col(j)).cwiseAbs().maxCoeff();
    if (d > worst && worst_column) *worst_column = j;
    worst = std::max(worst, d);
  }
  return worst;
}

// The deviation of a case against its tolerance, printed for docs/validation.md.
void expect_within(const char* what, double deviation, Index column, double tolerance) {
  std::printf("[siconos] %s: largest deviation %.2e (column %ld), tolerance %.0e\n", what,
              deviation, static_cast<long>(column), tolerance);
  EXPECT_LE(deviation, tolerance) << what << ", column " << column;
}

std::vector<Index> all_columns(Index n) {
  std::vector<Index> v;
  for (Index j = 0; j < n; ++j) v.push_back(j);
  return v;
}

}  // namespace

// README §1: t, x, ẋ, p(1)_x, P_N; the impulse is the generalized one (H = [1 0 0]).
TEST(SiconosReference, BouncingBallTS) {
  const Matrix ref = read_ref(kRefs / "BouncingBall" / "BouncingBallTS.ref");
  const SceneResult run = run_scene("bouncing_ball_ts.json");
  Matrix ours(run.res.records(), 5);
  const Vector P = contact_column(run.res, "floor", 0);
  ours << times(run.res), column(run.res, "x"), column(run.res, "x_dot"), P, P;
  Index j = -1;
  const double d = deviation(ours, ref, all_columns(5), &j);
  expect_within("BouncingBallTS", d, j, 1e-12);
  EXPECT_EQ(std::count_if(P.begin(), P.end(), [](double p) { return p > 0.0; }),
            std::count_if(ref.col(4).begin(), ref.col(4).end(), [](double p) { return p > 0.0; }));
}

// README §3: t, then x_i, ẋ_i of the 10 beads; columns 21–40 are zeros in the file.
TEST(SiconosReference, ColumnOfBeadsTS) {
  const Matrix ref = read_ref(kRefs / "ColumnOfBeads" / "ColumnOfBeadsTS.ref");
  ASSERT_EQ(ref.cols(), 41);
  EXPECT_EQ(ref.rightCols(20).cwiseAbs().maxCoeff(), 0.0);
  const SceneResult run = run_scene("column_of_beads_ts.json");
  Matrix ours(run.res.records(), 21);
  ours.col(0) = times(run.res);
  for (int i = 0; i < 10; ++i) {
    ours.col(1 + 2 * i) = column(run.res, "x" + std::to_string(i));
    ours.col(2 + 2 * i) = column(run.res, "x" + std::to_string(i) + "_dot");
  }
  Index j = -1;
  const double d = deviation(ours, ref.leftCols(21), all_columns(21), &j);
  expect_within("ColumnOfBeadsTS", d, j, 1e-12);
}

// README §5: t, x0, ẋ0, p(1)_x of disk 0 (plane impulse minus the disk–disk one), plane P_N, x1,
// then columns 2 and 3 repeated (the example's bug), disk–disk P_N.
TEST(SiconosReference, Ball2DKernelOnly) {
  const Matrix ref = read_ref(kRefs / "2DRigidBodies" / "Ball2D_kernel_only.ref");
  const SceneResult run = run_scene("ball2d_kernel_only.json");
  const Vector plane = contact_column(run.res, "plane", 0);
  const Vector disks = contact_column(run.res, "disk0-disk1", 0);
  Matrix ours(run.res.records(), 9);
  ours << times(run.res), column(run.res, "x0"), column(run.res, "x0_dot"), plane - disks, plane,
      column(run.res, "x1"), column(run.res, "x0_dot"), plane - disks, disks;
  Index j = -1;
  const double d = deviation(ours, ref, all_columns(9), &j);
  expect_within("Ball2DKernelOnly", d, j, 1e-12);
  EXPECT_GT(disks.maxCoeff(), 0.1);  // the two disks do collide
}

// README §7, all 22 columns. The rod is a planar rigid body; its end's contact frame has the
// tangent +x where Siconos' has −x, so Siconos' P_T is −r_t (the sign is read from the contact's
// tangent column, not assumed). Local velocities, works and energies are Siconos' formulas on
// moreau's q, v, P: U = H(q_{k+1}) v_{k+1}, U_k = H(q_k) v_k, with the rows
// H_N = (0, 1, (l/2) sin θ) and H_T = (−1, 0, −(l/2) cos θ).
TEST(SiconosReference, ImpactingStick) {
  const Matrix ref = read_ref(kRefs / "ImpactingStick" / "ImpactingStick.ref");
  const SceneResult run = run_scene("impacting_stick.json");
  const auto& r = run.res;
  const Index n = r.records();
  const Matrix Q = r.q_matrix(), V = r.v_matrix();
  const double l = 1.0, m = 1.0, g = 10.0, mu = 0.01, h = 1e-4;
  // the sign of moreau's tangent against Siconos' (−1, 0, …)
  const moreau::ContactState s0 =
      run.system->contact_state(Q.row(0).transpose(), V.row(0).transpose(), 0.0);
  ASSERT_EQ(s0.constraints.size(), 1u);
  const double tangent_sign = -s0.constraints[0].tangent(0, 0);
  ASSERT_EQ(std::abs(tangent_sign), 1.0);
  const Vector PN = contact_column(r, "rod", 0);
  const Vector PT = tangent_sign * contact_column(r, "rod", 1);
  auto un = [&](Index k, Index kv) { return V(kv, 1) + 0.5 * l * std::sin(Q(k, 2)) * V(kv, 2); };
  auto ut = [&](Index k, Index kv) { return -V(kv, 0) - 0.5 * l * std::cos(Q(k, 2)) * V(kv, 2); };
  Matrix ours = Matrix::Zero(n, 22);
  ours.col(0) = times(r);
  ours.middleCols(1, 3) = Q;
  ours.middleCols(4, 3) = V;
  double work_n = 0.0, work_t = 0.0, work_f = 0.0;
  for (Index k = 1; k < n; ++k) {
    ours(k, 7) = m * (V(k, 0) - V(k - 1, 0));  // p(1)_x: F_x = 0, so the impulse is m Δv_x
    ours(k, 8) = Q(k, 1) - 0.5 * l * std::cos(Q(k, 2));
    ours(k, 10) = un(k, k);
    ours(k, 11) = ut(k, k);
    ours(k, 12) = PN[k];
    ours(k, 13) = PT[k];
    ours(k, 14) = 0.5 * (un(k, k) + un(k - 1, k - 1)) * PN[k];
    ours(k, 15) = 0.5 * (ut(k, k) + ut(k - 1, k - 1)) * PT[k];
    ours(k, 16) = 0.5 * mu * std::abs(ut(k, k) + ut(k - 1, k - 1)) * PN[k];
    ours(k, 17) = work_n += ours(k, 14);
    ours(k, 18) = work_t += ours(k, 15);
    ours(k, 19) = 0.5 * m * (V(k, 0) * V(k, 0) + V(k, 1) * V(k, 1)) +
                  0.5 * (m * l * l / 12.0) * V(k, 2) * V(k, 2);
    ours(k, 20) = m * g * Q(k, 1);
    ours(k, 21) = work_f += h * (-m * g) * (0.5 * V(k, 1) + 0.5 * V(k - 1, 1));
  }
  Index j = -1;
  const double d = deviation(ours, ref, all_columns(22), &j);
  expect_within("ImpactingStick", d, j, 1e-12);
  // two single-step impacts, both sliding (|P_T| = μ P_N), and no normal work with e = 1
  EXPECT_GT(PN[604], 0.0);
  EXPECT_GT(PN[1636], 0.0);
  EXPECT_NEAR(std::abs(PT[604]), mu * PN[604], 1e-15);
  EXPECT_EQ((PN.array() > 0.0).count(), 2);
  EXPECT_LE(std::abs(ours(604, 14)), 1e-4 * PN[604]);
}

// README §2: t, x, ẋ, p(1)_x, f, λ(1), λ(2); row 0 of the file is the first grid time (moreau's
// row 0, the initial state, is dropped). Event-driven: compared with the reference up to the end
// (8.5 s, before the accumulation point 8.579 s) at the ED tolerance 1e-10 (the reference itself
// equals the closed form to 5e-11); impact impulses are m (v⁺ − v⁻) on the post-impact rows.
TEST(SiconosReference, BouncingBallED) {
  const Matrix ref = read_ref(kRefs / "BouncingBallEventDriven" / "BouncingBallED.ref");
  const SceneResult run = run_scene("bouncing_ball_ed.json");
  const auto& r = run.res;
  ASSERT_EQ(r.records(), ref.rows() + 1);  // 1700 grid rows + 2 × 44 impact rows, + the start
  const Index n = ref.rows();
  Matrix ours = Matrix::Zero(n, 7);
  ours.col(0) = times(r).tail(n);
  ours.col(1) = column(r, "x").tail(n);
  ours.col(2) = column(r, "x_dot").tail(n);
  Index impacts = 0;
  for (Index k = 1; k < n; ++k)
    if (ours(k, 0) == ours(k - 1, 0)) {  // pre- and post-impact rows: the impulse on both
      const double P = ours(k, 2) - ours(k - 1, 2);
      ours(k, 3) = ours(k - 1, 3) = P;
      ours(k, 5) = P;
      ++impacts;
    }
  EXPECT_EQ(impacts, 44);
  Index j = -1;
  const double d = deviation(ours, ref, {0, 1, 2, 3, 4, 5, 6}, &j);
  expect_within("BouncingBallED", d, j, 1e-10);
  // the first impact: t1 = √(2/g), P = (1 + e)·g·t1
  EXPECT_NEAR(ours(90, 0), std::sqrt(2.0 / 9.81), 1e-12);
}

// README §2, -withRestingContact: e = 0, one impact, then resting contact with f = m g.
// Columns t, x, ẋ, p(1)_x, f (the contact force, from the post-impact row on).
TEST(SiconosReference, BouncingBallEDWithRestingContact) {
  const Matrix ref =
      read_ref(kRefs / "BouncingBallEventDriven" / "BouncingBallED-withRestingContact.ref");
  const SceneResult run = run_scene("bouncing_ball_ed_resting.json");
  const auto& r = run.res;
  ASSERT_EQ(r.records(), ref.rows() + 1);
  const Index n = ref.rows();
  Matrix ours = Matrix::Zero(n, 5);
  ours.col(0) = times(r).tail(n);
  ours.col(1) = column(r, "x").tail(n);
  ours.col(2) = column(r, "x_dot").tail(n);
  ours.col(4) = contact_column(r, "floor", 0).tail(n);
  for (Index k = 1; k < n; ++k)  // this file has the impulse on the post-impact row only
    if (ours(k, 0) == ours(k - 1, 0)) ours(k, 3) = ours(k, 2) - ours(k - 1, 2);
  Index j = -1;
  const double d = deviation(ours, ref, all_columns(5), &j);
  expect_within("BouncingBallEDWithRestingContact", d, j, 1e-10);
}

// After the accumulation point t∞ = t1 (1 + 2e/(1 − e)) = 8.579 s the event-driven run holds the
// ball in persistent contact (Zeno rule): x ≈ 0, f = m g, and the run completes.
TEST(SiconosReference, BouncingBallEDBeyondTheAccumulationPoint) {
  const SceneResult run = run_scene("bouncing_ball_ed.json", 10.0);
  const auto& r = run.res;
  const double t1 = std::sqrt(2.0 / 9.81), e = 0.9;
  const double t_inf = t1 * (1.0 + 2.0 * e / (1.0 - e));
  Index impacts = 0;
  double last_impact = 0.0;
  for (const auto& ev : r.events)
    if (ev.kind == moreau::EventKind::impact) {
      ++impacts;
      last_impact = ev.t;
    }
  EXPECT_GT(impacts, 44);
  EXPECT_LT(last_impact, t_inf + 1e-6);
  const Vector x = column(r, "x"), f = contact_column(r, "floor", 0);
  for (Index k = 0; k < r.records(); ++k)
    if (r.t[k] > t_inf + 1e-3) {
      EXPECT_LE(std::abs(x[k]), 1e-9) << r.t[k];
      EXPECT_NEAR(f[k], 9.81, 1e-9) << r.t[k];
    }
}

// Item 6 of the issue: the same case as a rigid-body scene (disks on a plane) and as a system in
// generalized coordinates gives the same trajectory.
TEST(SiconosReference, RigidBodyScenesAgreeWithTheGeneralizedOnes) {
  {
    const SceneResult sys = run_scene("bouncing_ball_ts.json");
    const SceneResult rigid = run_scene("bouncing_ball_ts_rigid.json");
    ASSERT_EQ(sys.res.records(), rigid.res.records());
    EXPECT_LE(
        (column(rigid.res, "ball.y").array() - 0.1 - column(sys.res, "x").array()).abs().maxCoeff(),
        1e-13);
    EXPECT_LE((column(rigid.res, "ball.vy") - column(sys.res, "x_dot")).cwiseAbs().maxCoeff(),
              1e-13);
  }
  const SceneResult sys = run_scene("column_of_beads_ts.json");
  const SceneResult rigid = run_scene("column_of_beads_ts_rigid.json");
  ASSERT_EQ(sys.res.records(), rigid.res.records());
  for (int i = 0; i < 10; ++i) {
    const std::string b = "bead" + std::to_string(i), x = "x" + std::to_string(i);
    EXPECT_LE((column(rigid.res, b + ".y") - column(sys.res, x)).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LE((column(rigid.res, b + ".vy") - column(sys.res, x + "_dot")).cwiseAbs().maxCoeff(),
              1e-12);
  }
}
