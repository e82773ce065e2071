// Columns of cubes stacked exactly on a floor (0.2 m, 1 kg, μ = 0.5, e = 0, dt = 1 ms), with the
// default settings (issue 35): at 40 and 80 cubes body-block NSGS alone ended every step at its
// sweep budget above the tolerance. Now every step converges at every height, the column stays
// where it was put (exact: no sag, no penetration, no energy gained), and the solver's work per
// step and row (bench/README.md §Work) is within 2× from 5 to 80 cubes. The expectations are the
// physics of a column at rest, not figures the program printed: its centre of mass cannot move
// and its energy is the start's.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/sim/simulation.hpp"
#include "rigid_worlds.hpp"

namespace moreau {
namespace {

struct ColumnRun {
  SimulationResult result;
  double top_drift = 0.0;          // m, how far the top cube's centre moved
  double work_per_step_row = 0.0;  // solver work / (steps × rows)
};

ColumnRun run_column(int cubes, double t_end, bool coarse_correction = true) {
  ContactMaterial mat;
  mat.mu = 0.5;
  auto w = test::world_with_floor(3, mat);
  for (int i = 0; i < cubes; ++i) {
    RigidBody b = test::box_body("c" + std::to_string(i), 1.0, Vector3::Constant(0.1),
                                 Matrix3::Identity() * (0.2 * 0.2 / 6.0));
    b.pose.position = Vector3(0, 0, 0.1 + 0.2 * i);
    w->add_body(b);
  }
  const RigidWorldSystem sys(w, CollisionSettings{});
  SimulationSettings st;
  st.t_end = t_end;
  st.record_interval = t_end;  // the start and the end
  st.time_stepping.contacts.nsgs_coarse_correction = coarse_correction;
  ColumnRun out;
  out.result = simulate(sys, st);
  const SimulationResult& r = out.result;
  const Index top = 7 * (cubes - 1);  // the top cube's (x, y, z, quaternion) in q
  out.top_drift = (r.q.back().segment<3>(top) - r.q.front().segment<3>(top)).norm();
  // every step holds the column's 4 contacts per face: 4·cubes contacts of 3 rows
  out.work_per_step_row =
      r.solver_work / (static_cast<double>(r.steps) * 3.0 * 4.0 * static_cast<double>(cubes));
  return out;
}

TEST(TallColumns, EveryHeightStaysExactWithFlatWork) {
  std::vector<double> work;
  for (int cubes : {5, 20, 40, 80}) {
    const ColumnRun c = run_column(cubes, 0.3);
    const SimulationResult& r = c.result;
    SCOPED_TRACE(cubes);
    EXPECT_EQ(r.steps, 300);
    EXPECT_EQ(r.solver_failures, 0);
    EXPECT_LT(c.top_drift, 1e-6);        // the goal: within 1 µm of its start
    EXPECT_LT(r.max_penetration, 1e-6);  // and no deeper than 1 µm
    EXPECT_LE(r.max_energy_gain, 1e-9 * r.energy_initial);
    EXPECT_GT(r.solver_work, 0.0);
    work.push_back(c.work_per_step_row);
  }
  const auto [lo, hi] = std::minmax_element(work.begin(), work.end());
  EXPECT_LE(*hi, 2.0 * *lo) << "work per step and row: 5 cubes " << work[0] << ", 20 " << work[1]
                            << ", 40 " << work[2] << ", 80 " << work[3];
}

// A column's first step, from rest with no warm start, with and without the coarse correction
// (the scene's `coarse_correction`): plain sweeps carry the weight down one face a sweep, so the
// top cube's load reaches the floor only after 40 sweeps; the correction loads every face at once
// (solvers/fc/body_block_nsgs.hpp). Before faces whose first corner slid after the first sweep
// were let in (their impulses replaced by their rigid field), that step took 225 iterations.
TEST(TallColumns, TheFirstStepLoadsEveryFaceAtOnce) {
  const ColumnRun on = run_column(40, 0.001), off = run_column(40, 0.001, false);
  EXPECT_EQ(on.result.steps, 1);
  EXPECT_EQ(on.result.solver_failures, 0);
  EXPECT_LE(on.result.solver_iterations, 5);
  EXPECT_LT(on.top_drift, 1e-9);
  EXPECT_GE(off.result.solver_iterations, 40);
}

// Over `seconds` the column of `cubes` keeps every step at tolerance, its top within 1 µm, and
// its work per step and row within 2× of the 5-cube column's.
void expect_flat_work(int cubes, double seconds) {
  const ColumnRun base = run_column(5, seconds), tall = run_column(cubes, seconds);
  EXPECT_EQ(tall.result.solver_failures, 0);
  EXPECT_LT(tall.top_drift, 1e-6);
  EXPECT_LE(tall.work_per_step_row, 2.0 * base.work_per_step_row)
      << cubes << " cubes " << tall.work_per_step_row << ", 5 cubes " << base.work_per_step_row;
}

// Over 2 s, 40 cubes. A Newton fallback that stopped at 1e-2 of the tolerance left the next
// steps' Gauss–Seidel outside it after about 1 s, and from then on a third of the steps went to
// Newton (work 6× the 5 cubes' at 2 s); the polish of a converged fallback
// (contact/rigid_step_contacts.cpp) keeps it at 1×.
TEST(TallColumns, FortyCubesKeepTheirWorkFlatForTwoSeconds) { expect_flat_work(40, 2.0); }

// Over 10 s, 20 cubes. The contact frame's tangents switched between e_x and e_y whenever a face
// normal's two tiny horizontal components traded places (contact_frame.hpp), turning the warm
// start's friction impulses by 90°; from about 6 s on, a quarter of the steps went to Newton
// (work 4.9× the 5 cubes' over 10 s). With tangents continuous near the axes it stays at 1×.
TEST(TallColumns, TwentyCubesKeepTheirWorkFlatForTenSeconds) { expect_flat_work(20, 10.0); }

// Over 10 s, 80 cubes. One Gauss–Seidel sweep a step left its tolerance's error in the column's
// lean, which built up over seconds until Newton was called on many steps in a row (work 3.8×
// the 5 cubes' over 10 s, 11 to 23 sweeps a step from 8 s on); the coarse correction of body-block
// NSGS (solvers/fc/body_block_nsgs.hpp) takes it out of the faces at once.
TEST(TallColumns, EightyCubesKeepTheirWorkFlatForTenSeconds) { expect_flat_work(80, 10.0); }

}  // namespace
}  // namespace moreau
