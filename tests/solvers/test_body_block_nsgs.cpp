// Body-block NSGS (solvers/fc/body_block_nsgs.hpp): closed-form one-contact cases, random
// multi-body problems checked with the global residual of friction_contact.hpp and against the
// registry's solvers on the condensed problem, bilateral rows, softening, relaxation, bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <random>

#include "moreau/solvers/fc/body_block_nsgs.hpp"
#include "moreau/solvers/fc/friction_contact_solver.hpp"

using namespace moreau;

namespace {

// A spatial body of mass m with inertia diag(I) (world axes).
BodyMassBlock spatial_inverse(double m, double I) {
  BodyMassBlock B = BodyMassBlock::Zero();
  B.topLeftCorner<3, 3>() = Matrix3::Identity() / m;
  B.bottomRightCorner<3, 3>() = Matrix3::Identity() / I;
  return B;
}

// Contact rows of a point x (relative to the centre of body A) with frame columns (n, t1, t2):
// J = [cᵀ, (x × c)ᵀ] per column c (world_contacts.hpp).
ContactBodyRows point_rows(const Vector3& x, const Matrix3& frame) {
  ContactBodyRows J;
  for (int k = 0; k < 3; ++k)
    J.row(k) << frame.col(k).transpose(), x.cross(frame.col(k)).transpose();
  return J;
}

// A sphere (radius ρ) on the ground with free velocity v_free: one contact below its centre.
BodyBlockFrictionContactProblem sphere_on_ground(const Vector3& v_lin, const Vector3& omega,
                                                 double mu) {
  BodyBlockFrictionContactProblem p;
  p.dimension = 3;
  p.mass_inverse = {spatial_inverse(2.0, 0.4 * 2.0 * 0.01)};  // m = 2 kg, ρ = 0.1 m
  p.v_free.resize(6);
  p.v_free << v_lin, omega;
  BodyBlockContact c;
  c.body_a = 0;
  Matrix3 frame;  // columns n = z, t1 = x, t2 = y
  frame << Vector3::UnitZ(), Vector3::UnitX(), Vector3::UnitY();
  c.J_a = point_rows(Vector3(0, 0, -0.1), frame);
  p.contacts = {c};
  p.w = Vector::Zero(3);
  p.mu = Vector::Constant(1, mu);
  p.w_bilateral.resize(0);
  return p;
}

// Random problem: nb spatial bodies, nc contacts between random pairs or with the ground.
BodyBlockFrictionContactProblem random_problem(int nb, int nc, unsigned seed, double mu_max) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> n01;
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  BodyBlockFrictionContactProblem p;
  p.dimension = 3;
  for (int b = 0; b < nb; ++b)
    p.mass_inverse.push_back(spatial_inverse(0.5 + u01(rng), 0.05 + 0.1 * u01(rng)));
  p.v_free.resize(6 * nb);
  for (Index i = 0; i < p.v_free.size(); ++i) p.v_free[i] = n01(rng);
  p.w = Vector::Zero(3 * nc);
  p.mu.resize(nc);
  for (int c = 0; c < nc; ++c) {
    BodyBlockContact k;
    k.body_a = static_cast<Index>(u01(rng) * nb);
    k.body_b = u01(rng) < 0.3 ? -1 : static_cast<Index>(u01(rng) * nb);
    if (k.body_b == k.body_a) k.body_b = -1;
    const Vector3 n = Vector3(n01(rng), n01(rng), n01(rng)).normalized();
    const Matrix3 F = Eigen::Quaterniond::FromTwoVectors(Vector3::UnitZ(), n).toRotationMatrix();
    Matrix3 frame;
    frame << F.col(2), F.col(0), F.col(1);
    k.J_a = point_rows(0.1 * Vector3(n01(rng), n01(rng), n01(rng)), frame);
    if (k.body_b >= 0) k.J_b = -point_rows(0.1 * Vector3(n01(rng), n01(rng), n01(rng)), frame);
    p.contacts.push_back(k);
    p.mu[c] = mu_max * u01(rng);
    p.w[3 * c] = -0.2 * u01(rng);  // restitution-like term
  }
  p.w_bilateral.resize(0);
  return p;
}

}  // namespace

// Sphere falling onto the ground with v_n = −1 m/s and no tangential motion: the impulse stops
// the normal velocity, r = (m·1, 0, 0) = (2, 0, 0) N·s, and the sphere ends at rest.
TEST(BodyBlockNsgs, SphereStopsOnTheGround) {
  const auto p = sphere_on_ground(Vector3(0, 0, -1), Vector3::Zero(), 0.5);
  const BodyBlockSolution s = solve_body_block_nsgs(p);
  ASSERT_TRUE(s.converged()) << s.residual;
  EXPECT_NEAR(s.r[0], 2.0, 1e-12);
  EXPECT_NEAR(s.r.tail<2>().norm(), 0.0, 1e-12);
  EXPECT_NEAR(s.v.norm(), 0.0, 1e-12);
}

// Sliding sphere (no spin) with v = (3, 0, −1): the normal impulse m·1 = 2 N·s, and the friction
// bound μ r_n = 1 N·s is below what sticking needs. Sticking the contact point needs
// Δv_x − ρ Δω_y = −3 with Δv_x = r_x/m, Δω_y = ρ r_x / I → r_x = −3/(1/m + ρ²/I) = −3/(0.5 + 1.25),
// |r_x| = 1.714 > 1: slip, r_x = −1, v_x⁺ = 3 − 0.5 = 2.5, ω_y⁺ = −ρ r_x/I = 0.1/0.008 = 12.5 rad/s
// (the torque of a backward force at the bottom).
TEST(BodyBlockNsgs, SphereSlidesWithCoulombImpulse) {
  const auto p = sphere_on_ground(Vector3(3, 0, -1), Vector3::Zero(), 0.5);
  const BodyBlockSolution s = solve_body_block_nsgs(p);
  ASSERT_TRUE(s.converged()) << s.residual;
  EXPECT_NEAR(s.r[0], 2.0, 1e-12);
  EXPECT_NEAR(s.r[1], -1.0, 1e-12);
  EXPECT_NEAR(s.r[2], 0.0, 1e-12);
  EXPECT_NEAR(s.v[0], 2.5, 1e-12);
  EXPECT_NEAR(s.v[4], 12.5, 1e-10);
}

// Random multi-body problems: the result satisfies the global problem M v = H r + M v_free,
// u = Hᵀv + w with the natural-map residual below the tolerance (global_friction_contact_residual,
// computed independently from to_global()), and the velocities agree with the registry's Newton
// on the condensed problem (μ ≤ 0.3: unique velocities in these well-conditioned problems).
TEST(BodyBlockNsgs, RandomProblemsMatchGlobalResidualAndRegistry) {
  for (unsigned seed = 1; seed <= 12; ++seed) {
    const auto p = random_problem(6, 10, seed, 0.3);
    BodyBlockNsgsSettings st;
    st.tolerance = 1e-10;
    st.max_iterations = 20000;
    const BodyBlockSolution s = solve_body_block_nsgs(p, Vector(), Vector(), st);
    ASSERT_TRUE(s.converged()) << "seed " << seed << " residual " << s.residual;
    const GlobalFrictionContactProblem g = p.to_global();
    EXPECT_LE(global_friction_contact_residual(g, s.v, s.r), 1e-8) << "seed " << seed;
    const FrictionContactResult ref = solve_friction_contact(
        p.condensed(), "newton_fb", FrictionContactSettings{.tolerance = 1e-10});
    ASSERT_TRUE(ref.converged()) << "seed " << seed;
    const BodyBlockSolution at_ref = evaluate_body_block(p, ref.r);
    EXPECT_LE((at_ref.v - s.v).norm(), 1e-6 * (1.0 + s.v.norm())) << "seed " << seed;
  }
}

// Over-relaxation changes the path, not the answer: both runs are certified by the residual and
// give the same velocities.
TEST(BodyBlockNsgs, RelaxationKeepsTheSolution) {
  const auto p = random_problem(5, 8, 77, 0.2);
  BodyBlockNsgsSettings plain{.tolerance = 1e-11, .max_iterations = 20000};
  BodyBlockNsgsSettings relaxed = plain;
  relaxed.relaxation = 1.5;
  const auto a = solve_body_block_nsgs(p, Vector(), Vector(), plain);
  const auto b = solve_body_block_nsgs(p, Vector(), Vector(), relaxed);
  ASSERT_TRUE(a.converged() && b.converged());
  EXPECT_LE((a.v - b.v).norm(), 1e-7 * (1.0 + a.v.norm()));
}

// Threads: a large island (≥ 256 contacts) gets the coloured sweep on threads ≥ 2, certified by
// the same residual and agreeing with the sequential one within the tolerance (μ ≤ 0.3: unique
// velocities); 2, 3 and 4 threads visit the contacts in the same order (colour classes of one
// greedy colouring) and give the same bits. 120 bodies and 300 random contacts make one island
// (checked: the colouring only runs on islands that large, and the bits differ from 1 thread).
TEST(BodyBlockNsgs, ThreadsAgreeWithTheSequentialSweepAndWithEachOther) {
  for (unsigned seed : {3u, 8u}) {
    const auto p = random_problem(120, 300, seed, 0.3);
    BodyBlockNsgsSettings st{.tolerance = 1e-10, .max_iterations = 50000};
    const auto one = solve_body_block_nsgs(p, Vector(), Vector(), st);
    st.threads = 2;
    const auto two = solve_body_block_nsgs(p, Vector(), Vector(), st);
    ASSERT_TRUE(one.converged() && two.converged()) << one.residual << " " << two.residual;
    EXPECT_FALSE(one.r == two.r) << "the coloured sweep did not run";
    EXPECT_LE(global_friction_contact_residual(p.to_global(), two.v, two.r), 1e-8);
    EXPECT_LE((one.v - two.v).norm(), 1e-6 * (1.0 + one.v.norm())) << "seed " << seed;
    for (int threads : {3, 4}) {
      st.threads = threads;
      const auto more = solve_body_block_nsgs(p, Vector(), Vector(), st);
      EXPECT_EQ(more.iterations, two.iterations) << threads << " threads";
      EXPECT_TRUE(more.r == two.r && more.v == two.v) << threads << " threads differ from 2";
    }
  }
}

// Two problems side by side (bodies of the second renumbered after the first's) are two
// islands, swept each on its own: changing the first (its sphere slides the other way, which keeps
// ‖q‖ and so every island's share of the tolerance) leaves the second's impulses and velocities
// the same to the bit, and the first reaches its closed form. The sphere (m = 2, I = 0.008,
// ρ = 0.1) with v = (±0.3, 0, −1) and μ = 0.5: r_n = m·1 = 2; sticking needs
// r_x = ∓0.3/(1/m + ρ²/I) = ∓0.3/1.75, and |r_x| ≤ μ r_n = 1, so it sticks.
TEST(BodyBlockNsgs, IslandsAreSolvedEachOnItsOwn) {
  const auto slow = random_problem(8, 16, 5, 0.3);
  auto side_by_side = [&](double vx) {
    BodyBlockFrictionContactProblem both =
        sphere_on_ground(Vector3(vx, 0, -1), Vector3::Zero(), 0.5);
    const Index nb = both.bodies();
    for (const auto& M : slow.mass_inverse) both.mass_inverse.push_back(M);
    Vector vf(both.v_free.size() + slow.v_free.size());
    vf << both.v_free, slow.v_free;
    both.v_free = vf;
    for (BodyBlockContact c : slow.contacts) {
      if (c.body_a >= 0) c.body_a += nb;
      if (c.body_b >= 0) c.body_b += nb;
      both.contacts.push_back(c);
    }
    Vector w(3 + slow.w.size()), mu(1 + slow.mu.size());
    w << both.w, slow.w;
    mu << both.mu, slow.mu;
    both.w = w, both.mu = mu;
    return both;
  };
  const BodyBlockNsgsSettings st{.tolerance = 1e-10, .max_iterations = 20000};
  const auto right = solve_body_block_nsgs(side_by_side(0.3), Vector(), Vector(), st);
  const auto left = solve_body_block_nsgs(side_by_side(-0.3), Vector(), Vector(), st);
  ASSERT_TRUE(right.converged() && left.converged());
  EXPECT_LE(right.residual, st.tolerance);
  EXPECT_LE(global_friction_contact_residual(side_by_side(0.3).to_global(), right.v, right.r),
            st.tolerance);
  EXPECT_TRUE(right.r.tail(slow.w.size()) == left.r.tail(slow.w.size()));
  EXPECT_TRUE(right.v.tail(slow.v_free.size()) == left.v.tail(slow.v_free.size()));
  EXPECT_NEAR(right.r[0], 2.0, 1e-12);
  EXPECT_NEAR(right.r[1], -0.3 / 1.75, 1e-12);
  EXPECT_NEAR(left.r[1], 0.3 / 1.75, 1e-12);
  EXPECT_GT(right.iterations, 2);  // the slow island needed many sweeps, the sphere one
}

// Small islands run in parallel, each in index order: 2 threads give the bits of 1 thread.
TEST(BodyBlockNsgs, SmallIslandsOnThreadsGiveTheSequentialBits) {
  const auto p = random_problem(200, 90, 11, 0.3);  // many small components
  BodyBlockNsgsSettings st{.tolerance = 1e-10, .max_iterations = 20000};
  const auto one = solve_body_block_nsgs(p, Vector(), Vector(), st);
  st.threads = 2;
  const auto two = solve_body_block_nsgs(p, Vector(), Vector(), st);
  ASSERT_TRUE(one.converged() && two.converged());
  EXPECT_TRUE(one.r == two.r && one.v == two.v);
  EXPECT_EQ(one.iterations, two.iterations);
}

// Softening: ũ_n = u_n + c r_n ≥ 0 ⊥ r_n. Sphere with v_n = −1, no friction, m = 2:
// u_n = −1 + r_n/m, so u_n + c r_n = 0 gives r_n = 1/(1/m + c); with c = 0.5, r_n = 1 and the
// sphere keeps u_n = −0.5 m/s.
TEST(BodyBlockNsgs, ComplianceSoftensTheNormalImpulse) {
  auto p = sphere_on_ground(Vector3(0, 0, -1), Vector3::Zero(), 0.0);
  p.compliance = Vector::Constant(1, 0.5);
  const BodyBlockSolution s = solve_body_block_nsgs(p);
  ASSERT_TRUE(s.converged());
  EXPECT_NEAR(s.r[0], 1.0, 1e-12);
  EXPECT_NEAR(s.v[2], -0.5, 1e-12);
  // the condensed form carries the same softening: W_nn = 1/m + c
  const FrictionContactProblem fc = p.condensed();
  EXPECT_NEAR(Matrix(fc.W)(0, 0), 1.0, 1e-12);
}

// Bilateral rows: a body pinned to the world by three rows fixing its centre's velocity
// (u_j = v_j + w_j = 0 for j = x, y, z with w = (0.1, 0, 0)) and one contact pushing up:
// the centre velocity ends at (−0.1, 0, 0) whatever the free velocity, and the contact (below the
// centre, frictionless) takes no impulse since the rows already stop the fall.
TEST(BodyBlockNsgs, BilateralRowsHoldTheirVelocity) {
  auto p = sphere_on_ground(Vector3(0.3, -0.2, -1), Vector3(0, 0, 0.5), 0.0);
  for (int k = 0; k < 3; ++k) {
    BodyBlockBilateral g;
    g.body_a = 0;
    g.g_a[k] = 1.0;
    p.bilateral.push_back(g);
  }
  p.w_bilateral = Vector3(0.1, 0.0, 0.0);
  BodyBlockNsgsSettings st{.tolerance = 1e-12};
  const BodyBlockSolution s = solve_body_block_nsgs(p, Vector(), Vector(), st);
  ASSERT_TRUE(s.converged()) << s.residual;
  EXPECT_NEAR(s.v[0], -0.1, 1e-10);
  EXPECT_NEAR(s.v[1], 0.0, 1e-10);
  EXPECT_NEAR(s.v[2], 0.0, 1e-10);
  EXPECT_NEAR(s.v[5], 0.5, 1e-12);                // spin about z untouched
  EXPECT_NEAR(s.p[0], 2.0 * (-0.1 - 0.3), 1e-9);  // m Δv_x
  EXPECT_NEAR(s.r[0], 0.0, 1e-9);
}

// A warm start at the solution converges in one sweep.
TEST(BodyBlockNsgs, WarmStartAtTheSolutionTakesOneSweep) {
  const auto p = random_problem(4, 6, 5, 0.3);
  BodyBlockNsgsSettings st{.tolerance = 1e-10, .max_iterations = 20000};
  const auto a = solve_body_block_nsgs(p, Vector(), Vector(), st);
  ASSERT_TRUE(a.converged());
  const auto b = solve_body_block_nsgs(p, a.r, Vector(), st);
  EXPECT_TRUE(b.converged());
  EXPECT_EQ(b.iterations, 1);
}

// Anderson acceleration (settings.anderson_memory) on a column of n = 40 spheres (m = 2 kg,
// ρ = 0.1 m) resting on the ground, each falling at v = −g h = −0.00981 m/s before the step:
// the exact step stops every sphere, so contact k (k = 0 the ground's, k the one below sphere k)
// carries the weight of the n − k spheres above it, r_n,k = (n − k) m g h, and no friction. Plain
// Gauss–Seidel passes the load down one contact per sweep and needs many sweeps (a chain: its
// rate is 1 − O(1/n²)); accelerated, the same answer in far fewer sweeps.
TEST(BodyBlockNsgs, AndersonAccelerationReachesTheColumnsLoadsInFewerSweeps) {
  const int n = 40;
  const double m = 2.0, gh = 9.81e-3;
  BodyBlockFrictionContactProblem p;
  p.dimension = 3;
  Matrix3 frame;  // columns n = z, t1 = x, t2 = y
  frame << Vector3::UnitZ(), Vector3::UnitX(), Vector3::UnitY();
  p.v_free = Vector::Zero(6 * n);
  for (int b = 0; b < n; ++b) {
    p.mass_inverse.push_back(spatial_inverse(m, 0.4 * m * 0.01));
    p.v_free[6 * b + 2] = -gh;
    BodyBlockContact c;  // below sphere b: the ground (b = 0) or sphere b − 1
    c.body_a = b;
    c.J_a = point_rows(Vector3(0, 0, -0.1), frame);
    if (b > 0) {
      c.body_b = b - 1;
      c.J_b = -point_rows(Vector3(0, 0, 0.1), frame);
    }
    p.contacts.push_back(c);
  }
  p.w = Vector::Zero(3 * n);
  p.mu = Vector::Constant(n, 0.5);
  p.w_bilateral.resize(0);
  BodyBlockNsgsSettings plain{.tolerance = 1e-13, .max_iterations = 100000};
  BodyBlockNsgsSettings accelerated = plain;
  accelerated.anderson_memory = 5;
  accelerated.anderson_contacts = 16;
  const auto a = solve_body_block_nsgs(p, Vector(), Vector(), plain);
  const auto b = solve_body_block_nsgs(p, Vector(), Vector(), accelerated);
  ASSERT_TRUE(a.converged() && b.converged()) << a.residual << " " << b.residual;
  for (int k = 0; k < n; ++k) {
    EXPECT_NEAR(b.r[3 * k], (n - k) * m * gh, 1e-9) << "contact " << k;
    EXPECT_NEAR(b.r.segment<2>(3 * k + 1).norm(), 0.0, 1e-9) << "contact " << k;
    EXPECT_NEAR(a.r[3 * k], (n - k) * m * gh, 1e-9) << "contact " << k;
  }
  EXPECT_LE(b.v.norm(), 1e-10);
  std::printf("column of %d: plain %d sweeps, accelerated %d\n", n, a.iterations, b.iterations);
  EXPECT_LT(4 * b.iterations, a.iterations)
      << "plain " << a.iterations << ", accelerated " << b.iterations;
}

// A column of n cubes (side 2a = 0.2 m, m = 1 kg, I = m(2a)²/6) on the ground, each falling at
// v = −g h before the step, in space (4 contacts at the corners of each face, frame n = z, t = x,
// y) or in the plane (2 contacts per face, n = y, t = x; body velocity (v_x, v_y, ω)). Face i is
// the ground's (i = 0) or cube i − 1's under cube i.
// With `gap` ≠ 0 the two witness points of corner k of a face between cubes lie gap·sin(1.3k + i)
// apart along the normal (the lower cube's point below the upper one's), as detection puts them.
BodyBlockFrictionContactProblem cube_column(int n, int d, double gap = 0.0) {
  const double a = 0.1, m = 1.0, I = m * 4 * a * a / 6, gh = 9.81e-3;
  BodyBlockFrictionContactProblem p;
  p.dimension = d;
  const int mb = d == 3 ? 6 : 3;
  p.v_free = Vector::Zero(mb * n);
  Matrix3 frame;
  frame << Vector3::UnitZ(), Vector3::UnitX(), Vector3::UnitY();
  // planar rows of a point (x, y) relative to the centre: u_n = v_y + ω x, u_t = v_x − ω y
  auto planar_rows = [](double x, double y) {
    ContactBodyRows J = ContactBodyRows::Zero();
    J.row(0).head<3>() << 0, 1, x;
    J.row(1).head<3>() << 1, 0, -y;
    return J;
  };
  for (int b = 0; b < n; ++b) {
    BodyMassBlock Minv = spatial_inverse(m, I);
    if (d == 2) Minv(2, 2) = 1.0 / I;  // (v_x, v_y, ω)
    p.mass_inverse.push_back(Minv);
    p.v_free[mb * b + (d == 3 ? 2 : 1)] = -gh;
    const std::vector<Vector2> corners =
        d == 3 ? std::vector<Vector2>{{a, a}, {-a, a}, {-a, -a}, {a, -a}}
               : std::vector<Vector2>{{a, 0}, {-a, 0}};
    for (const Vector2& xy : corners) {
      BodyBlockContact c;
      c.body_a = b;
      c.J_a = d == 3 ? point_rows(Vector3(xy.x(), xy.y(), -a), frame) : planar_rows(xy.x(), -a);
      if (b > 0) {
        c.body_b = b - 1;
        const double top = a - gap * std::sin(1.3 * static_cast<double>(p.contacts.size()) + b);
        c.J_b = d == 3 ? ContactBodyRows(-point_rows(Vector3(xy.x(), xy.y(), top), frame))
                       : ContactBodyRows(-planar_rows(xy.x(), top));
      }
      p.contacts.push_back(c);
    }
  }
  p.w = Vector::Zero(d * p.contact_count());
  p.mu = Vector::Constant(p.contact_count(), 0.5);
  p.w_bilateral.resize(0);
  return p;
}

// The problem solved from the guess by plain sweeps and with the coarse correction.
std::pair<BodyBlockSolution, BodyBlockSolution> plain_and_coarse(
    const BodyBlockFrictionContactProblem& p, const Vector& guess, double tol, int sweeps) {
  BodyBlockNsgsSettings st{.tolerance = tol, .max_iterations = sweeps};
  st.coarse_correction = false;
  BodyBlockSolution plain = solve_body_block_nsgs(p, guess, Vector(), st);
  st.coarse_correction = true;
  return {std::move(plain), solve_body_block_nsgs(p, guess, Vector(), st)};
}

// The coarse correction (header) on columns of 40 cubes, from a warm start that sticks but
// carries the wrong loads (each face's up to 30 % off, up or down, shared equally among its
// points, no friction). The exact step stops every cube, so face i carries the weight of the n − i
// cubes above it: Σ r_n = (n − i) m g h over its points, and no net friction (the split among a
// face's points is not unique; every cube's velocity is, and it is 0). With the correction the
// solve takes a sweep, a correction and a sweep; plain Gauss–Seidel passes the load one face per
// sweep, and on the redundant faces in space it stalls.
// From zero too (a column's first step): the first sweep leaves the first corner of each face
// sliding, and each such face enters the correction with its impulses replaced by their rigid
// field, which moves nothing (body_block_nsgs.cpp, to_rigid_field). Without that, 2 of the 40
// faces qualified and the correction was not taken again.
TEST(BodyBlockNsgs, TheCoarseCorrectionLoadsAColumnOfCubesInAFewIterations) {
  const int n = 40;
  const double gh = 9.81e-3;
  for (const int d : {3, 2})
    for (const bool from_zero : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "dimension " << d << ", from zero " << from_zero);
      const auto p = cube_column(n, d);
      const Index per_face = p.contact_count() / n;
      Vector guess = Vector::Zero(d * p.contact_count());
      for (Index c = 0; c < p.contact_count() && !from_zero; ++c) {
        const Index i = c / per_face;  // its face: a load up to 30 % off, up or down
        guess[d * c] = (n - i) * gh * (1.0 + 0.3 * std::sin(1.7 * i)) / per_face;
      }
      const auto [a, b] = plain_and_coarse(p, guess, 1e-12, 2000);
      ASSERT_TRUE(b.converged()) << b.residual;
      for (int i = 0; i < n; ++i) {
        double load = 0.0;
        Vector friction = Vector::Zero(d - 1);  // net: a face's points may hold friction in balance
        for (Index k = per_face * i; k < per_face * (i + 1); ++k) {
          load += b.r[d * k];
          friction += b.r.segment(d * k + 1, d - 1);
        }
        EXPECT_NEAR(load, (n - i) * gh, 1e-12) << "face " << i;
        EXPECT_LT(friction.norm(), 1e-12) << "face " << i;
      }
      EXPECT_LE(b.v.norm(), 1e-12);
      EXPECT_LE(evaluate_body_block(p, b.r).v.norm(), 1e-12);  // the velocities its impulses give
      EXPECT_LE(b.iterations, 5);
      // plain sweeps: not there within 2000 (in space they stall near 6e-6), or 10× the iterations
      EXPECT_TRUE(!a.converged() || a.iterations > 10 * b.iterations)
          << "plain " << a.iterations << " (residual " << a.residual << "), coarse "
          << b.iterations;
    }
}

// The fitted faces of a column solved from zero when the witness points of each corner lie up to
// 0.1 mm apart (gaps differing from corner to corner): the rigid field keeps the wrench on one
// body only, so the solver must carry the other's change into v. The returned v must be the one
// its impulses give, v_free + M⁻¹Hr (evaluate_body_block), and so must the residual; without
// the update of v it was 8e-7 off in space and 4e-7 in the plane.
TEST(BodyBlockNsgs, FittedFacesKeepTheVelocitiesOfTheirImpulses) {
  for (const int d : {3, 2}) {
    SCOPED_TRACE(d);
    const auto p = cube_column(40, d, 1e-4);
    BodyBlockNsgsSettings st{.tolerance = 1e-12, .max_iterations = 2000};
    const BodyBlockSolution s = solve_body_block_nsgs(p, Vector(), Vector(), st);
    ASSERT_TRUE(s.converged()) << s.residual;
    EXPECT_GT(s.coarse_corrections, 0);
    const BodyBlockSolution e = evaluate_body_block(p, s.r, Vector(), 1e-12);
    EXPECT_LE((e.v - s.v).norm(), 1e-13) << (e.v - s.v).norm();
    EXPECT_TRUE(e.converged()) << e.residual;
  }
}

// A column of 40 cubes tipping about the bottom face's edge x = a (ω = 0.5 rad/s), warm started
// with the resting loads: the step's solution opens the ground's contacts at x = −a, so the
// faces' sticking law is wrong there. Neither plain sweeps nor the corrected ones reach 1e-10 in
// 5000 iterations (the step's Newton fallback is there for such steps); the correction, damped to
// keep every face contact in its cone, must do no harm: a residual within 30 % of the plain
// sweeps', and the same velocities to 1e-3. Undamped, it held the open contacts with pulling
// impulses: in the plane the residual ended 21× the plain one's and the velocities 8.8 m/s off
// (of 15), in space 1.43×.
TEST(BodyBlockNsgs, TheCoarseCorrectionDoesNoHarmOnATippingColumn) {
  const int n = 40;
  const double a = 0.1, gh = 9.81e-3, omega = 0.5;
  for (const int d : {3, 2}) {
    SCOPED_TRACE(d);
    auto p = cube_column(n, d);
    for (int b = 0; b < n; ++b) {
      // the rotation ω about the edge e = (a, 0, 0), plus gravity's −g h: in space ω e_y × (c − e)
      // = ω (z, 0, a) with c = (0, 0, z); in the plane (v_x, v_y, ω) the same turn is −ω (the
      // plane's y is space's z): at x = −a, u_n = v_y − ω x = 2ωa − g h > 0 opens
      const double z = a + 2 * a * b;
      if (d == 3)
        p.v_free.segment<6>(6 * b) << omega * z, 0, omega * a - gh, 0, omega, 0;
      else
        p.v_free.segment<3>(3 * b) << omega * z, omega * a - gh, -omega;
    }
    const Index per_face = p.contact_count() / n;
    Vector guess = Vector::Zero(d * p.contact_count());
    for (Index c = 0; c < p.contact_count(); ++c) guess[d * c] = (n - c / per_face) * gh / per_face;
    const auto [A, B] = plain_and_coarse(p, guess, 1e-10, 5000);
    ASSERT_TRUE(A.v.allFinite() && B.v.allFinite());
    EXPECT_LE(B.residual, 1.3 * A.residual) << "plain " << A.residual << ", coarse " << B.residual;
    EXPECT_LE((B.v - A.v).norm(), 1e-3 * A.v.norm()) << (B.v - A.v).norm() << " of " << A.v.norm();
    // in space a damped correction is taken (the path differs from plain sweeps): with the ground
    // face fitted (to_rigid_field) no halving stays in the cones, and the sticking faces alone
    // are tried; in the plane neither is, and none is taken
    EXPECT_EQ(B.coarse_corrections > 0, d == 3) << B.coarse_corrections;
    if (d == 3) EXPECT_GT((B.v - A.v).norm(), 0.0);
  }
}

TEST(BodyBlockNsgs, BadInputIsRejected) {
  auto p = sphere_on_ground(Vector3(0, 0, -1), Vector3::Zero(), 0.5);
  EXPECT_THROW(solve_body_block_nsgs(p, Vector::Zero(2)), std::invalid_argument);
  p.mu[0] = -1.0;
  EXPECT_THROW(solve_body_block_nsgs(p), std::invalid_argument);
  p.mu[0] = 0.5;
  p.contacts[0].body_a = 3;
  EXPECT_THROW(solve_body_block_nsgs(p), std::invalid_argument);
  p.contacts[0].body_a = 0;
  p.v_free[0] = NAN;
  EXPECT_THROW(solve_body_block_nsgs(p), std::invalid_argument);
  p.v_free[0] = 0.0;
  BodyBlockNsgsSettings st;
  st.relaxation = 2.0;
  EXPECT_THROW(solve_body_block_nsgs(p, Vector(), Vector(), st), std::invalid_argument);
  p.compliance = Vector::Constant(1, -1.0);
  EXPECT_THROW(solve_body_block_nsgs(p), std::invalid_argument);
}
