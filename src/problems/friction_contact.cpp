#include "moreau/problems/friction_contact.hpp"

#include <algorithm>
#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/common/first_solve_path.hpp"
#include "moreau/problems/coulomb_cone.hpp"
#include "moreau/problems/relative_error.hpp"

namespace moreau {

namespace {
void validate_mu(const Vector& mu) {
  for (Index i = 0; i < mu.size(); ++i)
    MOREAU_REQUIRE(std::isfinite(mu[i]) && mu[i] >= 0.0,
                   "friction coefficient mu[{}] = {} must be finite and ≥ 0", i, mu[i]);
}
}  // namespace

MOREAU_FIRST_SOLVE_PATH void FrictionContactProblem::validate() const {
  MOREAU_REQUIRE(dimension == 2 || dimension == 3,
                 "frictional contact dimension must be 2 or 3, got {}", dimension);
  const Index m = dimension * contacts();
  MOREAU_REQUIRE(W.rows() == m && W.cols() == m,
                 "Delassus matrix W must be {}×{} for {} contacts in {}D, got {}×{}", m, m,
                 contacts(), dimension, W.rows(), W.cols());
  MOREAU_REQUIRE(q.size() == m, "vector q must have {} entries ({} contacts × {}), got {}", m,
                 contacts(), dimension, q.size());
  MOREAU_REQUIRE_FINITE(all_finite(W), "Delassus matrix W has a NaN or infinite entry");
  MOREAU_REQUIRE_FINITE(all_finite(q), "vector q has a NaN or infinite entry");
  validate_mu(mu);
}

void GlobalFrictionContactProblem::validate() const {
  MOREAU_REQUIRE(dimension == 2 || dimension == 3,
                 "frictional contact dimension must be 2 or 3, got {}", dimension);
  const Index m = dimension * contacts(), n = dofs();
  MOREAU_REQUIRE(M.rows() == n && M.cols() == n, "mass matrix M must be {}×{}, got {}×{}", n, n,
                 M.rows(), M.cols());
  MOREAU_REQUIRE(H.rows() == n && H.cols() == m, "matrix H must be {}×{}, got {}×{}", n, m,
                 H.rows(), H.cols());
  MOREAU_REQUIRE(w.size() == m, "vector w must have {} entries, got {}", m, w.size());
  MOREAU_REQUIRE_FINITE(
      all_finite(M) && all_finite(H) && all_finite(f) && all_finite(w),
      "global frictional contact problem has a NaN or infinite entry in M, H, f or w");
  validate_mu(mu);
}

MOREAU_FIRST_SOLVE_PATH double friction_contact_local_error(int dimension, double mu,
                                                            const double* r, const double* u) {
  if (dimension == 3) {
    const Vector3 ri(r[0], r[1], r[2]);
    const double ut = std::sqrt(u[1] * u[1] + u[2] * u[2]);
    const Vector3 uhat(u[0] + mu * ut, u[1], u[2]);
    return (ri - project_on_coulomb_cone(Vector3(ri - uhat), mu)).norm();
  }
  const Vector2 ri(r[0], r[1]);
  const Vector2 uhat(u[0] + mu * std::abs(u[1]), u[1]);
  return (ri - project_on_coulomb_cone(Vector2(ri - uhat), mu)).norm();
}

MOREAU_FIRST_SOLVE_PATH Vector local_velocity(const FrictionContactProblem& p, const Vector& r) {
  MOREAU_REQUIRE(r.size() == p.W.cols() && p.q.size() == p.W.rows(),
                 "local velocity u = W r + q: r has {} entries and q {}, W is {} × {}", r.size(),
                 p.q.size(), p.W.rows(), p.W.cols());
  Vector u(p.W.rows());
  for (Index j = 0; j < p.W.outerSize(); ++j) {
    double sum = 0.0;
    for (SparseMatrix::InnerIterator it(p.W, j); it; ++it) sum += it.value() * r[it.index()];
    u[j] = sum + p.q[j];
  }
  return u;
}

namespace {
double natural_map_error(int d, const Vector& mu, const Vector& r, const Vector& u) {
  double sum = 0.0;
  for (Index i = 0; i < mu.size(); ++i) {
    const double e = friction_contact_local_error(d, mu[i], r.data() + d * i, u.data() + d * i);
    sum += e * e;
  }
  return std::sqrt(sum);
}
}  // namespace

MOREAU_FIRST_SOLVE_PATH double friction_contact_residual(const FrictionContactProblem& p,
                                                         const Vector& r, const Vector& u) {
  MOREAU_REQUIRE(r.size() == p.q.size() && u.size() == p.q.size(),
                 "frictional contact residual: r, u have {}, {} entries, the problem has {}",
                 r.size(), u.size(), p.q.size());
  const double err = natural_map_error(p.dimension, p.mu, r, u);
  const double scale = std::max({p.q.norm(), r.norm(), u.norm()});
  return relative_error(err, scale);
}

MOREAU_FIRST_SOLVE_PATH double friction_contact_residual(const FrictionContactProblem& p,
                                                         const Vector& r) {
  MOREAU_REQUIRE(r.size() == p.q.size(),
                 "frictional contact residual: r has {} entries, the problem has {}", r.size(),
                 p.q.size());
  return friction_contact_residual(p, r, local_velocity(p, r));
}

double global_friction_contact_residual(const GlobalFrictionContactProblem& p, const Vector& v,
                                        const Vector& r) {
  MOREAU_REQUIRE(v.size() == p.dofs() && r.size() == p.w.size(),
                 "global residual: v, r have {}, {} entries, the problem has {}, {}", v.size(),
                 r.size(), p.dofs(), p.w.size());
  const Vector u = p.H.transpose() * v + p.w;
  const double err = natural_map_error(p.dimension, p.mu, r, u);
  const double scale = std::max({p.w.norm(), r.norm(), u.norm()});
  const Vector Mv = p.M * v, Hr = p.H * r;
  const double eq = (Mv - Hr - p.f).norm();
  const double eq_scale = std::max({p.f.norm(), Mv.norm(), Hr.norm()});
  return relative_error(err, scale) + relative_error(eq, eq_scale);
}

}  // namespace moreau
