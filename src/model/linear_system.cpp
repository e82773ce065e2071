// LinearSystem: see linear_system.hpp.
#include "moreau/model/linear_system.hpp"

#include <cmath>
#include <set>

#include <Eigen/Eigenvalues>

#include "moreau/common/error.hpp"

namespace moreau {
namespace {

// An n×n matrix field: empty → zeros; else the size and finiteness are checked.
void square_or_zero(Matrix& m, Index n, const char* key) {
  if (m.size() == 0) {
    m = Matrix::Zero(n, n);
    return;
  }
  MOREAU_REQUIRE(m.rows() == n && m.cols() == n, "{} is {}×{}, expected {}×{}", key, m.rows(),
                 m.cols(), n, n);
  MOREAU_REQUIRE(all_finite(m), "{} has a non-finite entry", key);
}

}  // namespace

LinearSystem::LinearSystem(std::string name, LinearSystemData data)
    : name_(std::move(name)), data_(std::move(data)) {
  const Index n = static_cast<Index>(data_.coordinates.size());
  MOREAU_REQUIRE(n > 0, "coordinates: at least one coordinate is needed");
  std::set<std::string> seen;
  for (const auto& c : data_.coordinates) {
    MOREAU_REQUIRE(!c.empty(), "coordinates: a name is empty");
    MOREAU_REQUIRE(seen.insert(c).second, "coordinates: \"{}\" is given twice", c);
  }
  square_or_zero(data_.mass, n, "mass");
  MOREAU_REQUIRE((data_.mass - data_.mass.transpose()).cwiseAbs().maxCoeff() <=
                     1e-12 * std::max(1.0, data_.mass.cwiseAbs().maxCoeff()),
                 "mass: not symmetric");
  const double lowest = Eigen::SelfAdjointEigenSolver<Matrix>(data_.mass).eigenvalues().minCoeff();
  MOREAU_REQUIRE(lowest > 0.0, "mass: not positive definite (smallest eigenvalue {})", lowest);
  square_or_zero(data_.damping, n, "damping");
  square_or_zero(data_.stiffness, n, "stiffness");
  if (data_.force.size() == 0) data_.force = Vector::Zero(n);
  MOREAU_REQUIRE(data_.force.size() == n, "force has {} entries, expected {}", data_.force.size(),
                 n);
  MOREAU_REQUIRE(all_finite(data_.force), "force has a non-finite entry");

  int tangent_rows = 0;
  seen.clear();
  for (size_t i = 0; i < data_.relations.size(); ++i) {
    LinearRelation& r = data_.relations[i];
    if (r.name.empty()) r.name = fmt::format("r{}", i);
    MOREAU_REQUIRE(seen.insert(r.name).second, "relations[{}].name = \"{}\" is given twice", i,
                   r.name);
    MOREAU_REQUIRE(r.normal.size() == n, "relations[{}].normal has {} entries, expected {}", i,
                   r.normal.size(), n);
    MOREAU_REQUIRE(all_finite(r.normal) && std::isfinite(r.offset),
                   "relations[{}]: normal and offset must be finite", i);
    MOREAU_REQUIRE(r.normal.norm() > 0.0, "relations[{}].normal is zero", i);
    if (r.tangents.size() == 0) r.tangents.resize(0, n);
    MOREAU_REQUIRE(r.tangents.rows() <= 2 && r.tangents.cols() == n,
                   "relations[{}].tangents is {}×{}: give 0, 1 or 2 rows of {} entries", i,
                   r.tangents.rows(), r.tangents.cols(), n);
    MOREAU_REQUIRE(all_finite(r.tangents), "relations[{}].tangents has a non-finite entry", i);
    MOREAU_REQUIRE(r.e >= 0.0 && r.e <= 1.0, "relations[{}].e = {}: must lie in [0, 1]", i, r.e);
    MOREAU_REQUIRE(r.e_t >= 0.0 && r.e_t <= 1.0, "relations[{}].e_t = {}: must lie in [0, 1]", i,
                   r.e_t);
    MOREAU_REQUIRE(std::isfinite(r.mu) && r.mu >= 0.0, "relations[{}].mu = {}: must be ≥ 0", i,
                   r.mu);
    MOREAU_REQUIRE(r.tangents.rows() > 0 || (r.mu == 0.0 && r.e_t == 0.0),
                   "relations[{}]: mu = {} and e_t = {} need tangent rows (none given)", i, r.mu,
                   r.e_t);
    if (r.tangents.rows() > 0) {
      MOREAU_REQUIRE(tangent_rows == 0 || tangent_rows == r.tangents.rows(),
                     "relations[{}].tangents has {} rows where an earlier relation has {}: one "
                     "system is either 2D (1 row) or 3D (2 rows)",
                     i, r.tangents.rows(), tangent_rows);
      tangent_rows = static_cast<int>(r.tangents.rows());
    }
  }
  dimension_ = tangent_rows == 2 ? 3 : 2;
}

std::vector<std::string> LinearSystem::velocity_names() const {
  std::vector<std::string> out;
  for (const auto& c : data_.coordinates) out.push_back(c + "_dot");
  return out;
}

// F = C v + K q − f (left side); g_i = n_iᵀq + b_i, ∇h_i = n_i, H_t,i = t_iᵀ (zeros when the
// relation has no tangent rows).
ContactState LinearSystem::contact_state(const Vector& q, const Vector& v, double t) const {
  const Index n = velocity_size();
  MOREAU_REQUIRE(q.size() == n && v.size() == n,
                 "system '{}': q and v must have {} entries (got {} and {})", name_, n, q.size(),
                 v.size());
  ContactState s;
  s.dimension = dimension_;
  s.t = t;
  s.q = q;
  s.v = v;
  s.M = data_.mass;
  s.F = data_.damping * v + data_.stiffness * q - data_.force;
  for (const LinearRelation& r : data_.relations) {
    ContactConstraint c;
    c.name = r.name;
    c.mu = r.mu;
    c.restitution = r.e;
    c.tangential_restitution = r.e_t;
    c.gap = r.normal.dot(q) + r.offset;
    c.normal = r.normal;
    c.tangent = Matrix::Zero(n, dimension_ - 1);
    if (r.tangents.rows() > 0) c.tangent = r.tangents.transpose();
    c.tangent_bias = Vector::Zero(dimension_ - 1);
    s.constraints.push_back(std::move(c));
  }
  return s;
}

void LinearSystem::force_jacobians(const Vector& /*q*/, const Vector& /*v*/, double /*t*/,
                                   Matrix& K, Matrix& C) const {
  K = data_.stiffness;
  C = data_.damping;
}

double LinearSystem::kinetic_energy(const Vector& /*q*/, const Vector& v) const {
  return 0.5 * v.dot(data_.mass * v);
}

double LinearSystem::potential_energy(const Vector& q) const {
  return 0.5 * q.dot(data_.stiffness * q) - data_.force.dot(q);
}

}  // namespace moreau
