#include "moreau/model/callback_system.hpp"

#include <cmath>

#include "moreau/common/error.hpp"

namespace moreau {

CallbackSystem::CallbackSystem(std::string name, int dimension, Index n, MassCallback mass,
                               ForceCallback force)
    : name_(std::move(name)),
      dimension_(dimension),
      n_(n),
      mass_(std::move(mass)),
      force_(std::move(force)) {
  MOREAU_REQUIRE(dimension == 2 || dimension == 3,
                 "callback system '{}': dimension must be 2 or 3, got {}", name_, dimension);
  MOREAU_REQUIRE(n > 0, "callback system '{}': the number of coordinates must be positive, got {}",
                 name_, n);
  MOREAU_REQUIRE(static_cast<bool>(mass_), "callback system '{}': the mass callback is empty",
                 name_);
  MOREAU_REQUIRE(static_cast<bool>(force_), "callback system '{}': the force callback is empty",
                 name_);
}

void CallbackSystem::add_constraint(CallbackConstraint c) {
  MOREAU_REQUIRE(static_cast<bool>(c.kinematics),
                 "constraint '{}': the kinematics callback is empty", c.name);
  MOREAU_REQUIRE(std::isfinite(c.mu) && c.mu >= 0.0, "constraint '{}': mu = {} must be ≥ 0", c.name,
                 c.mu);
  MOREAU_REQUIRE(c.restitution >= 0.0 && c.restitution <= 1.0,
                 "constraint '{}': restitution e = {} must lie in [0, 1]", c.name, c.restitution);
  MOREAU_REQUIRE(c.tangential_restitution >= 0.0 && c.tangential_restitution <= 1.0,
                 "constraint '{}': tangential restitution e_t = {} must lie in [0, 1]", c.name,
                 c.tangential_restitution);
  MOREAU_REQUIRE(std::isfinite(c.gamma) && c.gamma >= 0.0,
                 "constraint '{}': gamma = {} must be ≥ 0", c.name, c.gamma);
  MOREAU_REQUIRE(std::isfinite(c.baumgarte_alpha) && std::isfinite(c.baumgarte_beta),
                 "constraint '{}': Baumgarte alpha, beta must be finite", c.name);
  if (c.name.empty()) c.name = fmt::format("c{}", constraints_.size());
  constraints_.push_back(std::move(c));
}

void CallbackSystem::set_names(std::vector<std::string> names) {
  MOREAU_REQUIRE(static_cast<Index>(names.size()) == n_,
                 "callback system '{}': {} coordinate names given for {} coordinates", name_,
                 names.size(), n_);
  names_ = std::move(names);
}

std::vector<std::string> CallbackSystem::position_names() const {
  return names_.empty() ? LagrangianSystem::position_names() : names_;
}

std::vector<std::string> CallbackSystem::velocity_names() const {
  if (names_.empty()) return LagrangianSystem::velocity_names();
  std::vector<std::string> out;
  for (const auto& s : names_) out.push_back(s + "_dot");
  return out;
}

ContactState CallbackSystem::contact_state(const Vector& q, const Vector& v, double t) const {
  MOREAU_REQUIRE(q.size() == n_, "system '{}': q has {} entries, expected {}", name_, q.size(), n_);
  MOREAU_REQUIRE(v.size() == n_, "system '{}': v has {} entries, expected {}", name_, v.size(), n_);
  ContactState s;
  s.dimension = dimension_;
  s.t = t;
  s.q = q;
  s.v = v;
  s.M = mass_(q);
  s.F = force_(q, v, t);
  MOREAU_REQUIRE(s.M.rows() == n_ && s.M.cols() == n_,
                 "system '{}': the mass callback returned a {}×{} matrix, expected {}×{}", name_,
                 s.M.rows(), s.M.cols(), n_, n_);
  MOREAU_REQUIRE(s.F.size() == n_,
                 "system '{}': the force callback returned {} entries, expected {}", name_,
                 s.F.size(), n_);
  const Index k = dimension_ - 1;
  for (const auto& c : constraints_) {
    ConstraintKinematics kin = c.kinematics(q, v);
    MOREAU_REQUIRE(kin.normal.size() == n_,
                   "constraint '{}': the normal ∇h has {} entries, expected {}", c.name,
                   kin.normal.size(), n_);
    if (kin.tangent.size() == 0) kin.tangent = Matrix::Zero(n_, k);
    MOREAU_REQUIRE(kin.tangent.rows() == n_ && kin.tangent.cols() == k,
                   "constraint '{}': the tangent H_t is {}×{}, expected {}×{}", c.name,
                   kin.tangent.rows(), kin.tangent.cols(), n_, k);
    if (kin.tangent_bias.size() == 0) kin.tangent_bias = Vector::Zero(k);
    MOREAU_REQUIRE(kin.tangent_bias.size() == k, "constraint '{}': c_t has {} entries, expected {}",
                   c.name, kin.tangent_bias.size(), k);
    ContactConstraint cc;
    cc.name = c.name;
    cc.kind = c.kind;
    cc.mu = c.mu;
    cc.restitution = c.restitution;
    cc.tangential_restitution = c.tangential_restitution;
    cc.gap = kin.gap;
    cc.normal = std::move(kin.normal);
    cc.tangent = std::move(kin.tangent);
    cc.normal_bias = kin.normal_bias;
    cc.tangent_bias = std::move(kin.tangent_bias);
    cc.gamma = c.gamma;
    cc.baumgarte_alpha = c.baumgarte_alpha;
    cc.baumgarte_beta = c.baumgarte_beta;
    s.constraints.push_back(std::move(cc));
  }
  s.validate();
  return s;
}

}  // namespace moreau
