#include "moreau/solvers/fc/newton.hpp"

#include "moreau/linalg/small_lu.hpp"

#include <Eigen/Eigenvalues>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>
#include <limits>

#include "detail.hpp"
#include "newton_workspace.hpp"
#include "moreau/solvers/fc/nsgs.hpp"

namespace moreau {

namespace {

// NewtonSettings::cycle_window: each of the last `window` residuals within 25 % of the one two
// iterations before (e_k / e_{k−2} ∈ (1/1.25, 1.25)).
bool cycling(const std::vector<double>& h, int window) {
  const size_t n = h.size(), w = static_cast<size_t>(window);
  if (window <= 0 || n < w + 2) return false;
  for (size_t k = n - w; k < n; ++k) {
    const double ratio = h[k] / h[k - 2];
    if (!(ratio < 1.25 && ratio > 1.0 / 1.25)) return false;
  }
  return true;
}

using ColMajorSparse = Eigen::SparseMatrix<double, Eigen::ColMajor>;

// AlartCurnierPenalty::spectral: 1/√(λ_min λ_max) of the symmetric part of the d×d block W_ii
// (the penalty that balances its extreme eigenvalues, as the step size √(λ_min λ_max)⁻¹ of a
// proximal method on a quadratic does), λ_min floored at 1e-12 λ_max; NaN when λ_max ≤ 0.
double spectral_penalty(const Matrix3& W, int d) {
  Eigen::Vector3d lambda = Eigen::Vector3d::Zero();
  if (d == 3) {
    lambda = Eigen::SelfAdjointEigenSolver<Matrix3>(Matrix3(0.5 * (W + W.transpose())),
                                                    Eigen::EigenvaluesOnly)
                 .eigenvalues();
  } else {
    const Matrix2 S = 0.5 * (W.topLeftCorner<2, 2>() + W.topLeftCorner<2, 2>().transpose());
    lambda.head<2>() =
        Eigen::SelfAdjointEigenSolver<Matrix2>(S, Eigen::EigenvaluesOnly).eigenvalues();
  }
  const double lmax = lambda.head(d).maxCoeff();
  if (!(lmax > 0.0)) return std::numeric_limits<double>::quiet_NaN();
  const double lmin = std::max(lambda.head(d).minCoeff(), 1e-12 * lmax);
  return 1.0 / std::sqrt(lmin * lmax);
}

// Per-contact value Φ_i and partial Jacobians A_i = ∂Φ_i/∂r_i, B_i = ∂Φ_i/∂u_i (d×d in the
// top-left of 3×3 matrices).
struct ContactLinearization {
  Vector3 phi = Vector3::Zero();
  Matrix3 A = Matrix3::Zero();
  Matrix3 B = Matrix3::Zero();
};

// Alart–Curnier function of one contact (header formula).
void alart_curnier(int d, double mu, double rho_n, double rho_t, const double* r, const double* u,
                   ContactLinearization& L, bool with_jacobian) {
  const double xn = r[0] - rho_n * u[0];
  if (with_jacobian) {
    L.A.setZero();
    L.B.setZero();
  }
  if (xn > 0.0) {
    L.phi[0] = rho_n * u[0];
    if (with_jacobian) L.B(0, 0) = rho_n;
  } else {
    L.phi[0] = r[0];
    if (with_jacobian) L.A(0, 0) = 1.0;
  }
  const double R = mu * std::max(0.0, xn);
  if (d == 3) {
    const Vector2 y(r[1] - rho_t * u[1], r[2] - rho_t * u[2]);
    const double ny = y.norm();
    if (ny <= R) {
      L.phi[1] = rho_t * u[1];
      L.phi[2] = rho_t * u[2];
      if (with_jacobian) L.B.block<2, 2>(1, 1) = rho_t * Matrix2::Identity();
    } else {
      const Vector2 yh = y / ny;
      L.phi[1] = r[1] - R * yh[0];
      L.phi[2] = r[2] - R * yh[1];
      if (with_jacobian) {
        const Matrix2 P = (R / ny) * (Matrix2::Identity() - yh * yh.transpose());
        L.A.block<2, 2>(1, 1) = Matrix2::Identity() - P;
        L.B.block<2, 2>(1, 1) = rho_t * P;
        if (xn > 0.0) {
          L.A.block<2, 1>(1, 0) = -mu * yh;
          L.B.block<2, 1>(1, 0) = mu * rho_n * yh;
        }
      }
    }
  } else {
    const double y = r[1] - rho_t * u[1];
    if (std::abs(y) <= R) {
      L.phi[1] = rho_t * u[1];
      if (with_jacobian) L.B(1, 1) = rho_t;
    } else {
      const double s = y > 0.0 ? 1.0 : -1.0;
      L.phi[1] = r[1] - R * s;
      if (with_jacobian) {
        L.A(1, 1) = 1.0;
        if (xn > 0.0) {
          L.A(1, 0) = -mu * s;
          L.B(1, 0) = mu * rho_n * s;
        }
      }
    }
  }
}

// Arrow matrix L_a of the Lorentz-cone Jordan algebra: L_a b = a ∘ b = (aᵀb, a0 b̄ + b0 ā).
template <int D>
Eigen::Matrix<double, D, D> arrow(const Eigen::Matrix<double, D, 1>& a) {
  Eigen::Matrix<double, D, D> L = a[0] * Eigen::Matrix<double, D, D>::Identity();
  L.row(0) = a.transpose();
  L.col(0) = a;
  return L;
}

// Jordan square root of w ∈ int K¹ via the spectral decomposition w = λ1 c1 + λ2 c2,
// λ = w0 ∓ ‖w̄‖, c = ½(1, ∓ w̄/‖w̄‖).
template <int D>
Eigen::Matrix<double, D, 1> jordan_sqrt(const Eigen::Matrix<double, D, 1>& w) {
  using Vec = Eigen::Matrix<double, D, 1>;
  const auto wb = w.template tail<D - 1>();
  const double nw = wb.norm();
  const double l1 = std::max(0.0, w[0] - nw), l2 = std::max(0.0, w[0] + nw);
  const double s1 = std::sqrt(l1), s2 = std::sqrt(l2);
  Vec z;
  z[0] = 0.5 * (s1 + s2);
  if (nw > 0.0)
    z.template tail<D - 1>() = 0.5 * (s2 - s1) * wb / nw;
  else
    z.template tail<D - 1>().setZero();
  return z;
}

// Fischer–Burmeister function of one contact in De Saxcé's form (header).
template <int D>
void fischer_burmeister_d(double mu, const double* r, const double* u, ContactLinearization& L,
                          bool with_jacobian) {
  using Vec = Eigen::Matrix<double, D, 1>;
  using Mat = Eigen::Matrix<double, D, D>;
  if (with_jacobian) {
    L.A.setZero();
    L.B.setZero();
  }
  if (mu == 0.0) {
    const double a = r[0], b = u[0], n = std::hypot(a, b);
    L.phi[0] = a + b - n;
    if (with_jacobian) {
      L.A(0, 0) = n > 0.0 ? 1.0 - a / n : 1.0 - 1.0 / std::sqrt(2.0);
      L.B(0, 0) = n > 0.0 ? 1.0 - b / n : 1.0 - 1.0 / std::sqrt(2.0);
    }
    for (int k = 1; k < D; ++k) {
      L.phi[k] = r[k];
      if (with_jacobian) L.A(k, k) = 1.0;
    }
    return;
  }
  Vec x, y;
  const Eigen::Map<const Vec> rv(r), uv(u);
  const auto uT = uv.template tail<D - 1>();
  const double nuT = uT.norm();
  x[0] = mu * rv[0];
  x.template tail<D - 1>() = rv.template tail<D - 1>();
  y[0] = uv[0] + mu * nuT;
  y.template tail<D - 1>() = mu * uT;
  // x² = (‖x‖², 2 x0 x̄).
  Vec w;
  w[0] = x.squaredNorm() + y.squaredNorm();
  w.template tail<D - 1>() =
      2.0 * (x[0] * x.template tail<D - 1>() + y[0] * y.template tail<D - 1>());
  const double eps = 1e-24 * std::max(w[0], 1e-300);
  w[0] += eps;
  const Vec z = jordan_sqrt<D>(w);
  const Vec phi = x + y - z;
  L.phi.template head<D>() = phi;
  if (!with_jacobian) return;
  // dz = L_z⁻¹ (L_x dx + L_y dy).
  const Mat Lz = arrow<D>(z);
  const Eigen::PartialPivLU<Mat> lu(Lz);
  const Mat Zx = lu.solve(arrow<D>(x)), Zy = lu.solve(arrow<D>(y));
  Mat dx_dr = Mat::Identity();
  dx_dr(0, 0) = mu;
  Mat dy_du = mu * Mat::Identity();
  dy_du(0, 0) = 1.0;
  if (nuT > 0.0) dy_du.block(0, 1, 1, D - 1) = mu * uT.transpose() / nuT;
  L.A.template topLeftCorner<D, D>() = (Mat::Identity() - Zx) * dx_dr;
  L.B.template topLeftCorner<D, D>() = (Mat::Identity() - Zy) * dy_du;
}

enum class Formulation { alart_curnier, fischer_burmeister };

struct NewtonState {
  const FrictionContactProblem& p;
  Formulation f;
  Vector rho_n, rho_t;  // nc
  // Evaluates Φ(r) with u given; fills the blocks of A and B when with_jacobian.
  double merit(const Vector& r, const Vector& u, Vector& phi, SparseMatrix* A,
               SparseMatrix* B) const {
    const int d = p.dimension;
    ContactLinearization L;
    const bool jac = A != nullptr;
    for (Index i = 0; i < p.contacts(); ++i) {
      const double* ri = r.data() + d * i;
      const double* ui = u.data() + d * i;
      if (f == Formulation::alart_curnier)
        alart_curnier(d, p.mu[i], rho_n[i], rho_t[i], ri, ui, L, jac);
      else if (d == 3)
        fischer_burmeister_d<3>(p.mu[i], ri, ui, L, jac);
      else
        fischer_burmeister_d<2>(p.mu[i], ri, ui, L, jac);
      phi.segment(d * i, d) = L.phi.head(d);
      if (jac) {
        // Full d×d blocks stored row by row (pattern fixed at setup).
        double* a = A->valuePtr() + A->outerIndexPtr()[d * i];
        double* b = B->valuePtr() + B->outerIndexPtr()[d * i];
        for (int row = 0; row < d; ++row)
          for (int col = 0; col < d; ++col) {
            a[row * d + col] = L.A(row, col);
            b[row * d + col] = L.B(row, col);
          }
      }
    }
    return 0.5 * phi.squaredNorm();
  }
};

// The Newton step δ of J δ = −Φ with J = A + B(W + εI) (A, B block-diagonal ∂Φ/∂r, ∂Φ/∂u).
// The proximal term (NewtonSettings::proximal): the Newton step of the problem whose W is
// W + εI and whose q is q − ε r_k, at r_k. Its residual at r_k is Φ(r_k) itself and its
// Jacobian A + B(W + εI) = J + εB, nonsingular where redundant sticking contacts make J
// singular (a cube on a cube: W has rank ≤ 6 for 4 contacts). ε = proximal · w̄ · min(1, e),
// e the relative residual, vanishes at convergence (the Levenberg–Marquardt choice of
// Yamashita and Fukushima, 2001, ε ∝ ‖Φ‖, made scale-free), and the residual tested is
// always the exact one. Measured on columns of 20, 80 and 160 cubes (500 steps each):
// ε ∝ e gave 0.55, 2.2 and 4.1 s; ε ∝ ‖Φ‖ (absolute) 2.3, 2.2, 4.1 s; ε ∝ √e 0.8, 17, 30 s.
// Both routes retry a factorization that fails (a zero pivot, or a non-finite δ) once with
// J + shift·I, shift = 1e-10 max(1, max|J_ij|). Returns false when that fails too. The sparse
// route factorizes J + shift·I at once after shift_after failures in a row on the problem
// (NewtonSettings::shift_after_singular): the same steps wherever J would have failed again.
// Measured on FCLIB with auto (callgrind, 30 Nov 2026): the Capsules files 6–18 % fewer
// instructions and CubesStack-6x6x6 16 %, the same iterates to the bit; BoxesStack1, whose J
// fails and recovers by turns, 165 iterations instead of 144 (+12 %). Shifting after the first
// failure instead perturbed more solves, a chaotic effect either way (CubesStack-6x6x6 2.1×
// slower, BoxesStack1 11× faster). Three routes: dense (below), sparse
// (newton_block_system.hpp) and by components (newton_components.hpp).

// The dense route (newton_system_is_dense): row block i of J is B_i (W_i,: + ε e_i) + A_i e_i,
// formed in place, then LU with partial pivoting (linalg/small_lu.hpp: unblocked; Eigen's
// blocked PartialPivLU packed panels for its product kernel at these sizes, a sixth of the
// humanoid's step).
bool dense_newton_step(const SparseMatrix& A, const SparseMatrix& B, const Matrix& W, double eps,
                       int d, const Vector& phi, Matrix& J, SmallLU& lu, Vector& delta,
                       fc_detail::ShiftCounts& shifts) {
  const Index m = phi.size();
  J.resize(m, m);
  for (Index i = 0; i < m / d; ++i) fc_detail::form_dense_row_block(A, B, W, eps, d, i, i, J);
  lu.compute(J);
  delta = lu.solve(-phi);
  if (delta.allFinite()) return true;
  J.diagonal().array() += 1e-10 * std::max(1.0, J.cwiseAbs().maxCoeff());
  ++shifts.failed;
  ++shifts.shifted;
  lu.compute(J);
  delta = lu.solve(-phi);
  return delta.allFinite();
}

FrictionContactResult solve_newton(const FrictionContactProblem& problem, const NewtonSettings& s,
                                   const Vector& guess, Formulation form, const char* name,
                                   fc_detail::NewtonWorkspace& ws) {
  const Stopwatch clock;
  FrictionContactResult res = fc_detail::start(problem, s, name);
  MOREAU_REQUIRE(s.armijo > 0.0 && s.armijo < 0.5, "Newton armijo must be in (0, 0.5), got {}",
                 s.armijo);
  MOREAU_REQUIRE(s.max_backtracks >= 0 && s.nsgs_fallback_sweeps >= 0,
                 "Newton max_backtracks and nsgs_fallback_sweeps must be ≥ 0");
  MOREAU_REQUIRE(s.shift_after_singular >= 0, "Newton shift_after_singular must be ≥ 0, got {}",
                 s.shift_after_singular);
  const int d = problem.dimension;
  const Index nc = problem.contacts(), m = d * nc;
  Vector r = fc_detail::initial_r(problem, guess);

  NewtonState st{problem, form, Vector(nc), Vector(nc)};
  const std::vector<ContactBlock> blocks = fc_detail::diagonal_blocks(problem);
  for (Index i = 0; i < nc; ++i) {
    const Matrix3& Wi = blocks[i].W;
    const double wn = Wi(0, 0) > 0.0 ? Wi(0, 0) : 1.0;
    double wt = d == 3 ? std::max(Wi(1, 1), Wi(2, 2)) : Wi(1, 1);
    if (!(wt > 0.0)) wt = wn;
    st.rho_n[i] = 1.0 / wn;
    st.rho_t[i] = 1.0 / wt;
    if (s.penalty == AlartCurnierPenalty::spectral) {
      const double rho = spectral_penalty(Wi, d);
      if (std::isfinite(rho) && rho > 0.0) st.rho_n[i] = st.rho_t[i] = rho;
    }
  }
  double w_bar = 0.0;  // the largest diagonal entry of W, the proximal term's scale
  for (const ContactBlock& b : blocks) w_bar = std::max(w_bar, b.W.diagonal().head(d).maxCoeff());
  SparseMatrix A = fc_detail::block_diagonal_pattern(nc, d), B = A;
  const bool dense = newton_system_is_dense(problem);
  if (dense && ws.W.rows() != m) ws.W = Matrix(problem.W);
  if (!dense && s.by_components && !ws.components_decided) {
    ws.components = fc_detail::ComponentNewtonSystem::make(problem);
    ws.components_decided = true;
  }
  Matrix J_dense;
  SmallLU dense_lu;
  Vector u = local_velocity(problem, r), phi(m), r_trial(m), u_trial(m), phi_trial(m), delta(m),
         Wdelta(m);
  double e = friction_contact_residual(problem, r, u);
  res.status = Status::max_iterations;
  int stalls = 0;
  fc_detail::ShiftCounts shifts;
  // Non-monotone Armijo (Grippo, Lampariello & Lucidi 1986): reference = max of the last merits.
  constexpr int kWindow = 8;
  double recent[kWindow];
  for (double& x : recent) x = 0.0;
  if (e <= s.tolerance) res.status = Status::converged;
  for (int k = 1; k <= s.max_iterations && res.status != Status::converged; ++k) {
    if (clock.seconds() > s.time_limit) {
      res.status = Status::time_limit;
      break;
    }
    const double theta = st.merit(r, u, phi, &A, &B);
    recent[k % kWindow] = theta;
    double theta_ref = theta;
    for (double x : recent) theta_ref = std::max(theta_ref, x);
    const double eps = s.proximal * w_bar * std::min(1.0, e);
    const bool step_ok =
        dense ? dense_newton_step(A, B, ws.W, eps, d, phi, J_dense, dense_lu, delta, shifts)
        : s.by_components && ws.components
            ? ws.components->step(A, B, eps, phi, s.shift_after_singular, delta, shifts)
            : fc_detail::sparse_newton_step(problem.W, A, B, eps, d, phi, s.shift_after_singular,
                                            ws.sparse, delta, shifts);
    bool accepted = false;
    if (step_ok) {
      if (dense)  // the dense W of the Newton system: a vectorized product, not a sparse one
        Wdelta.noalias() = ws.W * delta;
      else
        Wdelta = problem.W * delta;
      double t = 1.0;
      for (int b = 0; b <= s.max_backtracks; ++b, t *= 0.5) {
        r_trial = r + t * delta;
        u_trial = u + t * Wdelta;
        const double th = st.merit(r_trial, u_trial, phi_trial, nullptr, nullptr);
        if (th <= theta_ref - 2.0 * s.armijo * t * theta) {
          accepted = true;
          break;
        }
      }
    }
    if (accepted) {
      r.swap(r_trial);
      u.swap(u_trial);
    } else {
      ++stalls;
      if (s.nsgs_fallback_sweeps == 0) {
        res.iterations = k;
        res.status = Status::numerical_failure;
        res.message = "line search stalled";
        break;
      }
      FrictionContactResult g =
          solve_nsgs(problem,
                     NsgsSettings{.tolerance = s.tolerance,
                                  .max_iterations = s.nsgs_fallback_sweeps,
                                  .time_limit = std::max(1e-9, s.time_limit - clock.seconds()),
                                  .stick_seed = false},
                     r);
      r = g.r;
      u = g.u;
    }
    if (k % 16 == 0) u = local_velocity(problem, r);
    e = friction_contact_residual(problem, r, u);
    res.residual_history.push_back(e);
    res.iterations = k;
    if (!std::isfinite(e)) {
      res.status = Status::numerical_failure;
      res.message = "NaN in the Newton iterate";
      break;
    }
    if (e <= s.tolerance) {
      u = local_velocity(problem, r);
      e = friction_contact_residual(problem, r, u);
      if (e <= s.tolerance) res.status = Status::converged;
    }
    if (res.status != Status::converged && cycling(res.residual_history, s.cycle_window)) {
      res.message =
          fmt::format("{} from iteration {}", fc_detail::kCyclingMessage, k - s.cycle_window - 1);
      break;
    }
  }
  if (res.message.empty()) {  // what the iterations met, when nothing stopped them early
    if (stalls > 0)
      res.message = fmt::format("{} line-search stalls handled by NSGS sweeps", stalls);
    if (shifts.shifted > 0)
      res.message += fmt::format(
          "{}{} Newton matrices factorized with a diagonal shift (J singular; {} of them after a "
          "failed factorization)",
          res.message.empty() ? "" : "; ", shifts.shifted, shifts.failed);
  }
  fc_detail::finish(res, problem, std::move(r), clock);
  return res;
}

}  // namespace

bool newton_system_is_dense(const FrictionContactProblem& problem) {
  const Index m = problem.W.rows();
  return m <= kSmallNewtonRows || (m <= kDenseNewtonRows && 2 * problem.W.nonZeros() >= m * m);
}

Index newton_dense_components(const FrictionContactProblem& problem) {
  if (newton_system_is_dense(problem)) return 0;
  const std::unique_ptr<fc_detail::ComponentNewtonSystem> system =
      fc_detail::ComponentNewtonSystem::make(problem);
  return system ? system->dense_components() : 0;
}

FrictionContactResult solve_newton_ac(const FrictionContactProblem& problem,
                                      const NewtonSettings& settings, const Vector& guess) {
  fc_detail::NewtonWorkspace ws;
  return fc_detail::solve_newton_ac(problem, settings, guess, ws);
}

FrictionContactResult solve_newton_fb(const FrictionContactProblem& problem,
                                      const NewtonSettings& settings, const Vector& guess) {
  fc_detail::NewtonWorkspace ws;
  return fc_detail::solve_newton_fb(problem, settings, guess, ws);
}

FrictionContactResult fc_detail::solve_newton_ac(const FrictionContactProblem& problem,
                                                 const NewtonSettings& settings,
                                                 const Vector& guess, NewtonWorkspace& ws) {
  return solve_newton(problem, settings, guess, Formulation::alart_curnier, "newton_ac", ws);
}

FrictionContactResult fc_detail::solve_newton_fb(const FrictionContactProblem& problem,
                                                 const NewtonSettings& settings,
                                                 const Vector& guess, NewtonWorkspace& ws) {
  return solve_newton(problem, settings, guess, Formulation::fischer_burmeister, "newton_fb", ws);
}

}  // namespace moreau
