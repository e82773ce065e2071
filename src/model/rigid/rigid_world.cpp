#include "moreau/model/rigid/rigid_world.hpp"

#include <algorithm>
#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/model/rigid/rotation_vector.hpp"

namespace moreau {

void ContactMaterial::validate(const std::string& where) const {
  MOREAU_REQUIRE(std::isfinite(mu) && mu >= 0.0, "{}.mu = {}: must be ≥ 0", where, mu);
  MOREAU_REQUIRE(std::isfinite(restitution) && restitution >= 0.0 && restitution <= 1.0,
                 "{}.e = {}: must lie in [0, 1]", where, restitution);
  MOREAU_REQUIRE(std::isfinite(gamma) && gamma >= 0.0, "{}.gamma = {}: must be ≥ 0", where, gamma);
  MOREAU_REQUIRE(std::isfinite(alpha) && alpha >= 0.0, "{}.alpha = {}: must be ≥ 0", where, alpha);
  MOREAU_REQUIRE(std::isfinite(beta) && beta >= 0.0, "{}.beta = {}: must be ≥ 0", where, beta);
}

Vector BodyPairRows::apply(const Vector& v) const {
  Vector u = Vector::Zero(rows());
  if (offset_a >= 0) u += block_a * v.segment(offset_a, block_a.cols());
  if (offset_b >= 0) u += block_b * v.segment(offset_b, block_b.cols());
  return u;
}

void BodyPairRows::append_triplets(std::vector<Triplet>& out, Index row0, bool transpose) const {
  auto add = [&](Index off, const PairBlock& B) {
    if (off < 0) return;
    for (Index i = 0; i < B.rows(); ++i)
      for (Index j = 0; j < B.cols(); ++j)
        if (B(i, j) != 0.0) {
          if (transpose)
            out.emplace_back(off + j, row0 + i, B(i, j));
          else
            out.emplace_back(row0 + i, off + j, B(i, j));
        }
  };
  add(offset_a, block_a);
  add(offset_b, block_b);
}

Matrix BodyPairRows::dense(Index n) const {
  Matrix J = Matrix::Zero(rows(), n);
  if (offset_a >= 0) J.middleCols(offset_a, block_a.cols()) += block_a;
  if (offset_b >= 0) J.middleCols(offset_b, block_b.cols()) += block_b;
  return J;
}

RigidWorld::RigidWorld(int dimension) : dimension_(dimension) {
  MOREAU_REQUIRE(dimension == 2 || dimension == 3, "RigidWorld: dimension must be 2 or 3, got {}",
                 dimension);
  gravity_ = dimension == 2 ? Vector3(0, -9.81, 0) : Vector3(0, 0, -9.81);
}

Index RigidWorld::add_body(RigidBody body) {
  const Index i = body_count();
  if (body.name.empty()) body.name = fmt::format("body{}", i);
  MOREAU_REQUIRE(find_body(body.name) < 0, "bodies[{}].name = '{}': name already used", i,
                 body.name);
  body.validate(fmt::format("bodies[{}]", i), dimension_);
  for (Shape& shape : body.shapes) shape.form_vertex_bounds();  // the world's copies stay as made
  if (dimension_ == 2) body.inertia = Matrix3(Vector3::Constant(body.inertia(2, 2)).asDiagonal());
  body_index_.emplace(body.name, i);
  bodies_.push_back(std::move(body));
  offsets_.push_back(bodies_.back().is_static ? -1 : dynamic_count_++);
  return i;
}

Index RigidWorld::add_joint(Joint j) {
  // the jointed body pairs are formed afresh however this returns: a limited joint to the world
  // gives the earlier joints of its chain their body b before checks that may still throw
  struct Reindex {
    RigidWorld& w;
    ~Reindex() { w.index_jointed(); }
  } reindex{*this};
  const Index k = static_cast<Index>(joints_.size());
  if (j.name.empty()) j.name = fmt::format("joint{}", k);
  MOREAU_REQUIRE(j.body_a >= 0 && j.body_a < body_count(), "joints[{}].body_a = {}: no such body",
                 k, j.body_a);
  MOREAU_REQUIRE(j.body_b >= -1 && j.body_b < body_count(), "joints[{}].body_b = {}: no such body",
                 k, j.body_b);
  MOREAU_REQUIRE(j.body_a != j.body_b, "joints[{}]: body_a and body_b must differ", k);
  MOREAU_REQUIRE(!bodies_[j.body_a].is_static, "joints[{}].body_a = '{}': must be a dynamic body",
                 k, bodies_[j.body_a].name);
  MOREAU_REQUIRE(all_finite(j.anchor_a) && all_finite(j.anchor_b) && all_finite(j.axis_a) &&
                     j.axis_a.norm() > 1e-12,
                 "joints[{}]: anchors and axis must be finite, axis nonzero", k);
  j.axis_a.normalize();
  if (dimension_ == 2) {
    MOREAU_REQUIRE(j.anchor_a.z() == 0.0 && j.anchor_b.z() == 0.0,
                   "joints[{}]: planar anchors need z = 0", k);
    if (j.kind == JointKind::prismatic)
      MOREAU_REQUIRE(std::abs(j.axis_a.z()) < 1e-12,
                     "joints[{}].axis: a planar prismatic axis lies in z = 0", k);
  }
  if (j.limited) {
    MOREAU_REQUIRE(!std::isnan(j.lower) && !std::isnan(j.upper) && j.lower <= j.upper,
                   "joints[{}] ('{}').limits = [{}, {}]: need lower ≤ upper", k, j.name, j.lower,
                   j.upper);
    MOREAU_REQUIRE(j.kind != JointKind::fixed, "joints[{}] ('{}'): a fixed joint has no limits", k,
                   j.name);
    MOREAU_REQUIRE(j.kind != JointKind::ball || j.upper > 0.0,
                   "joints[{}] ('{}').limits: a ball joint's limit is a cone half angle upper > 0 "
                   "(rad), got {}",
                   k, j.name, j.upper);
    // limit contacts need a body on each side: a joint to the world gets the static body "world"
    if (j.body_b < 0) {
      j.body_b = find_body("world");
      if (j.body_b < 0) {
        RigidBody ground;
        ground.name = "world";
        ground.is_static = true;
        j.body_b = add_body(std::move(ground));
      }
      MOREAU_REQUIRE(bodies_[j.body_b].is_static,
                     "joints[{}] ('{}'): the body named 'world' must be static", k, j.name);
      // the chain this joint ends (joint.hpp §Chains) hangs from that body too
      for (Index m = k - 1; m >= 0 && joints_[m].body_a == j.body_a && joints_[m].body_b < 0; --m)
        joints_[m].body_b = j.body_b;
    }
  }
  const std::pair<const char*, double> nonnegative[] = {{"stiffness", j.stiffness},
                                                        {"damping", j.damping},
                                                        {"armature", j.armature},
                                                        {"frictionloss", j.frictionloss}};
  for (const auto& [field, value] : nonnegative)
    MOREAU_REQUIRE(std::isfinite(value) && value >= 0.0,
                   "joints[{}] ('{}').{} = {}: must be finite and ≥ 0", k, j.name, field, value);
  MOREAU_REQUIRE(std::isfinite(j.reference), "joints[{}] ('{}').reference = {}: must be finite", k,
                 j.name, j.reference);
  MOREAU_REQUIRE(j.limit_restitution >= 0.0 && j.limit_restitution <= 1.0,
                 "joints[{}] ('{}').limit_restitution = {}: must be in [0, 1]", k, j.name,
                 j.limit_restitution);
  // a chain from the world whose first joint was limited hangs from the static body "world"
  if (j.body_b < 0 && k > 0 && joints_[k - 1].body_a == j.body_a && joints_[k - 1].body_b >= 0 &&
      bodies_[joints_[k - 1].body_b].is_static && bodies_[joints_[k - 1].body_b].name == "world")
    j.body_b = joints_[k - 1].body_b;
  // a chain's joints follow one another (joint.hpp §Chains)
  auto same_bodies = [&](const Joint& o) {
    if (j.closure || o.closure) return false;
    return (o.body_a == j.body_a && o.body_b == j.body_b) ||
           (o.body_a == j.body_b && o.body_b == j.body_a);
  };
  Index m = k - 1;
  for (; m >= 0 && same_bodies(joints_[m]); --m) {
    MOREAU_REQUIRE(joints_[m].body_a == j.body_a,
                   "joints[{}] ('{}') joins the same bodies as joints[{}] ('{}') the other way "
                   "round: the joints of a chain have the same body_a",
                   k, j.name, m, joints_[m].name);
    MOREAU_REQUIRE(j.kind != JointKind::fixed && joints_[m].kind != JointKind::fixed,
                   "joints[{}] ('{}'): a fixed joint cannot be part of a chain", k, j.name);
  }
  for (; m >= 0; --m)
    MOREAU_REQUIRE(!same_bodies(joints_[m]),
                   "joints[{}] ('{}') joins the same bodies as joints[{}] ('{}'): the joints of a "
                   "chain follow one another",
                   k, j.name, m, joints_[m].name);
  const Quaternion qa = bodies_[j.body_a].pose.orientation;
  const Quaternion qb = j.body_b >= 0 ? bodies_[j.body_b].pose.orientation : Quaternion::Identity();
  j.relative_orientation = (qa.conjugate() * qb).normalized();
  joints_.push_back(j);
  return k;
}

void RigidWorld::index_jointed() {
  jointed_.clear();
  for (const Joint& x : joints_)
    if (x.body_a >= 0 && x.body_b >= 0)
      jointed_.emplace_back(std::min(x.body_a, x.body_b), std::max(x.body_a, x.body_b));
  std::sort(jointed_.begin(), jointed_.end());
}

Index RigidWorld::add_contact_pair(ContactPair p) {
  const Index k = static_cast<Index>(pairs_.size());
  if (p.name.empty()) p.name = fmt::format("pair{}", k);
  const std::string where = fmt::format("contact pair '{}'", p.name);
  for (const ContactPair& other : pairs_)
    MOREAU_REQUIRE(other.name != p.name, "{}: name already used", where);
  auto check_shape = [&](Index body, Index shape, const char* side) {
    MOREAU_REQUIRE(body >= 0 && body < body_count(),
                   "{}: body_{} = {} is not a body index in [0, {})", where, side, body,
                   body_count());
    const auto count = static_cast<Index>(bodies_[body].shapes.size());
    MOREAU_REQUIRE(shape >= 0 && shape < count, "{}: shape_{} = {} of body '{}' is not in [0, {})",
                   where, side, shape, bodies_[body].name, count);
  };
  check_shape(p.body_a, p.shape_a, "a");
  check_shape(p.body_b, p.shape_b, "b");
  MOREAU_REQUIRE(p.body_a != p.body_b, "{}: a body cannot touch itself (body '{}')", where,
                 bodies_[p.body_a].name);
  const bool sa = bodies_[p.body_a].is_static, sb = bodies_[p.body_b].is_static;
  MOREAU_REQUIRE(!(sa && sb), "{}: bodies '{}' and '{}' are both static", where,
                 bodies_[p.body_a].name, bodies_[p.body_b].name);
  MOREAU_REQUIRE(find_contact_pair(p.body_a, p.shape_a, p.body_b, p.shape_b) < 0,
                 "{}: these two shapes already form a pair", where);
  if (p.material) p.material->validate(where);
  if (sa || (!sb && p.body_a > p.body_b)) {
    std::swap(p.body_a, p.body_b);
    std::swap(p.shape_a, p.shape_b);
  }
  pairs_.push_back(std::move(p));
  return k;
}

void RigidWorld::exclude_collisions(Index body_a, Index body_b) {
  MOREAU_REQUIRE(body_a >= 0 && body_a < body_count() && body_b >= 0 && body_b < body_count() &&
                     body_a != body_b,
                 "excluded pair ({}, {}): two different bodies of the world", body_a, body_b);
  const std::pair<Index, Index> key{std::min(body_a, body_b), std::max(body_a, body_b)};
  const auto at = std::lower_bound(excluded_.begin(), excluded_.end(), key);  // kept sorted
  if (at == excluded_.end() || *at != key) excluded_.insert(at, key);
}

namespace {
// Whether the body pair {a, b} is in a sorted list of pairs stored smaller index first.
bool has_body_pair(const std::vector<std::pair<Index, Index>>& sorted, Index a, Index b) {
  return std::binary_search(sorted.begin(), sorted.end(),
                            std::pair<Index, Index>{std::min(a, b), std::max(a, b)});
}
}  // namespace

bool RigidWorld::jointed(Index body_a, Index body_b) const {
  return has_body_pair(jointed_, body_a, body_b);
}

bool RigidWorld::collisions_excluded(Index body_a, Index body_b) const {
  return has_body_pair(excluded_, body_a, body_b);
}

Index RigidWorld::find_contact_pair(Index body_a, Index shape_a, Index body_b,
                                    Index shape_b) const {
  for (size_t k = 0; k < pairs_.size(); ++k) {
    const ContactPair& p = pairs_[k];
    if ((p.body_a == body_a && p.shape_a == shape_a && p.body_b == body_b &&
         p.shape_b == shape_b) ||
        (p.body_a == body_b && p.shape_a == shape_b && p.body_b == body_a && p.shape_b == shape_a))
      return static_cast<Index>(k);
  }
  return -1;
}

bool RigidWorld::has_bilateral_pairs() const {
  return std::any_of(pairs_.begin(), pairs_.end(),
                     [](const ContactPair& p) { return p.kind == ConstraintKind::bilateral; });
}

void RigidWorld::set_gravity(const Vector3& g) {
  MOREAU_REQUIRE(all_finite(g), "gravity must be finite");
  MOREAU_REQUIRE(dimension_ == 3 || g.z() == 0.0, "gravity: a planar world needs g_z = 0, got {}",
                 g.z());
  gravity_ = g;
}

void RigidWorld::set_default_material(const ContactMaterial& m) {
  m.validate("contact.default");
  default_material_ = m;
}

void RigidWorld::set_material(Index a, Index b, const ContactMaterial& m) {
  MOREAU_REQUIRE(a >= 0 && a < body_count() && b >= 0 && b < body_count(),
                 "contact pair ({}, {}): no such body", a, b);
  m.validate(fmt::format("contact pair ({}, {})", bodies_[a].name, bodies_[b].name));
  const std::pair<Index, Index> key{std::min(a, b), std::max(a, b)};
  for (auto& [k, v] : pair_materials_)
    if (k == key) {
      v = m;
      return;
    }
  pair_materials_.push_back({key, m});
}

std::vector<ContactMaterial> RigidWorld::materials() const {
  std::vector<ContactMaterial> out{default_material_};
  for (const auto& [k, v] : pair_materials_) out.push_back(v);
  for (const ContactPair& p : pairs_)
    if (p.material) out.push_back(*p.material);
  return out;
}

const ContactMaterial& RigidWorld::material(Index a, Index b) const {
  const std::pair<Index, Index> key{std::min(a, b), std::max(a, b)};
  for (const auto& [k, v] : pair_materials_)
    if (k == key) return v;
  return default_material_;
}

Index RigidWorld::find_body(const std::string& name) const {
  const auto it = body_index_.find(name);
  return it == body_index_.end() ? -1 : it->second;
}

Index RigidWorld::position_offset(Index i) const {
  const Index k = offsets_.at(static_cast<size_t>(i));
  return k < 0 ? -1 : k * body_position_size();
}
Index RigidWorld::velocity_offset(Index i) const {
  const Index k = offsets_.at(static_cast<size_t>(i));
  return k < 0 ? -1 : k * body_velocity_size();
}

std::vector<std::string> RigidWorld::position_names() const {
  std::vector<std::string> out;
  for (const auto& b : bodies_) {
    if (b.is_static) continue;
    if (dimension_ == 2)
      for (const char* s : {"x", "y", "theta"}) out.push_back(b.name + "." + s);
    else
      for (const char* s : {"x", "y", "z", "qw", "qx", "qy", "qz"}) out.push_back(b.name + "." + s);
  }
  return out;
}

std::vector<std::string> RigidWorld::velocity_names() const {
  std::vector<std::string> out;
  for (const auto& b : bodies_) {
    if (b.is_static) continue;
    if (dimension_ == 2)
      for (const char* s : {"vx", "vy", "omega"}) out.push_back(b.name + "." + s);
    else
      for (const char* s : {"vx", "vy", "vz", "wx", "wy", "wz"}) out.push_back(b.name + "." + s);
  }
  return out;
}

// Planar angle of a rotation about z: θ = 2 atan2(q_z, q_w).
static double planar_angle(const Quaternion& q) { return 2.0 * std::atan2(q.z(), q.w()); }

Vector RigidWorld::initial_positions() const {
  Vector q(position_size());
  for (Index i = 0; i < body_count(); ++i) {
    const Index o = position_offset(i);
    if (o < 0) continue;
    const Pose& p = bodies_[i].pose;
    if (dimension_ == 2) {
      q.segment<3>(o) << p.position.x(), p.position.y(), planar_angle(p.orientation);
    } else {
      q.segment<3>(o) = p.position;
      q.segment<4>(o + 3) << p.orientation.w(), p.orientation.x(), p.orientation.y(),
          p.orientation.z();
    }
  }
  return q;
}

Vector RigidWorld::initial_velocities() const {
  Vector v(velocity_size());
  for (Index i = 0; i < body_count(); ++i) {
    const Index o = velocity_offset(i);
    if (o < 0) continue;
    const RigidBody& b = bodies_[i];
    if (dimension_ == 2)
      v.segment<3>(o) << b.linear_velocity.x(), b.linear_velocity.y(), b.angular_velocity.z();
    else
      v.segment<3>(o) = b.linear_velocity, v.segment<3>(o + 3) = b.angular_velocity;
  }
  return v;
}

Pose RigidWorld::body_pose(const Vector& q, Index i) const {
  const Index o = position_offset(i);
  if (o < 0) return bodies_[i].pose;
  if (dimension_ == 2) return planar_pose(q[o], q[o + 1], q[o + 2]);
  Quaternion quat(q[o + 3], q[o + 4], q[o + 5], q[o + 6]);
  return Pose{q.segment<3>(o), quat.normalized()};
}

Vector3 RigidWorld::body_linear_velocity(const Vector& v, Index i) const {
  const Index o = velocity_offset(i);
  if (o < 0) return Vector3::Zero();
  if (dimension_ == 2) return Vector3(v[o], v[o + 1], 0.0);
  return v.segment<3>(o);
}

Vector3 RigidWorld::body_angular_velocity(const Vector& v, Index i) const {
  const Index o = velocity_offset(i);
  if (o < 0) return Vector3::Zero();
  if (dimension_ == 2) return Vector3(0, 0, v[o + 2]);
  return v.segment<3>(o + 3);
}

namespace {
// A body's inertia about its centre of mass in world axes, R I Rᵀ, made exactly symmetric
// (½(A + Aᵀ)): the angular block of its mass matrix.
Matrix3 world_inertia(const Matrix3& R, const Matrix3& I) {
  const Matrix3 A = R * I * R.transpose();
  return 0.5 * (A + A.transpose());
}
}  // namespace

std::vector<Matrix> RigidWorld::mass_matrix_blocks(const Vector& q) const {
  std::vector<Matrix> blocks;
  blocks.reserve(static_cast<size_t>(dynamic_count_));
  for (Index i = 0; i < body_count(); ++i) {
    const RigidBody& b = bodies_[i];
    if (b.is_static) continue;
    if (dimension_ == 2) {
      blocks.push_back(Vector3(b.mass, b.mass, b.inertia(2, 2)).asDiagonal());
    } else {
      Matrix B = Matrix::Zero(6, 6);
      const Matrix3 R = body_pose(q, i).rotation();
      B.topLeftCorner<3, 3>() = b.mass * Matrix3::Identity();
      B.bottomRightCorner<3, 3>() = world_inertia(R, b.inertia);
      blocks.push_back(B);
    }
  }
  return blocks;
}

SparseMatrix RigidWorld::mass_matrix(const Vector& q) const {
  const auto blocks = mass_matrix_blocks(q);
  const Index m = body_velocity_size();
  std::vector<Triplet> t;
  t.reserve(blocks.size() * static_cast<size_t>(dimension_ == 2 ? 3 : 12));
  for (size_t k = 0; k < blocks.size(); ++k)
    for (Index i = 0; i < m; ++i)
      for (Index j = 0; j < m; ++j)
        if (blocks[k](i, j) != 0.0)
          t.emplace_back(static_cast<Index>(k) * m + i, static_cast<Index>(k) * m + j,
                         blocks[k](i, j));
  SparseMatrix M(velocity_size(), velocity_size());
  M.setFromTriplets(t.begin(), t.end());
  return M;
}

// The blocks on the diagonal of a zero matrix (no sparse copy on the way).
Matrix RigidWorld::dense_mass_matrix(const Vector& q) const {
  const auto blocks = mass_matrix_blocks(q);
  const Index m = body_velocity_size();
  Matrix M = Matrix::Zero(velocity_size(), velocity_size());
  for (size_t k = 0; k < blocks.size(); ++k)
    M.block(static_cast<Index>(k) * m, static_cast<Index>(k) * m, m, m) = blocks[k];
  return M;
}

void RigidWorld::check_state(const Vector& q, const Vector& v) const {
  MOREAU_REQUIRE(q.size() == position_size(), "rigid world: q has {} entries, expected {}",
                 q.size(), position_size());
  MOREAU_REQUIRE(v.size() == velocity_size(), "rigid world: v has {} entries, expected {}",
                 v.size(), velocity_size());
  MOREAU_REQUIRE(all_finite(q) && all_finite(v), "rigid world: q and v must be finite");
}

// F = (−m g, ω × I_w ω) per body: Newton–Euler in world axes, left-side convention.
Vector RigidWorld::forces(const Vector& q, const Vector& v, double /*t*/) const {
  check_state(q, v);
  Vector F = Vector::Zero(velocity_size());
  for (Index i = 0; i < body_count(); ++i) {
    const Index o = velocity_offset(i);
    if (o < 0) continue;
    const RigidBody& b = bodies_[i];
    const Vector3 f = b.mass * gravity_ + b.applied_force;  // external force on the centre
    if (dimension_ == 2) {
      F[o] = -f.x();
      F[o + 1] = -f.y();
      F[o + 2] = -b.applied_torque.z();
    } else {
      F.segment<3>(o) = -f;
      const Matrix3 R = body_pose(q, i).rotation();
      const Vector3 w = v.segment<3>(o + 3);
      F.segment<3>(o + 3) = w.cross(R * (b.inertia * (R.transpose() * w))) - b.applied_torque;
    }
  }
  return F;
}

// q̇_quat = ½ (0, ω) ⊗ q_quat:  ẇ = −½ ω·u,  u̇ = ½ (w ω + ω × u).
Vector RigidWorld::position_rate(const Vector& q, const Vector& v) const {
  if (dimension_ == 2) return v;
  Vector qd(position_size());
  for (Index k = 0; k < dynamic_count_; ++k) {
    const Index o = 7 * k, ov = 6 * k;
    qd.segment<3>(o) = v.segment<3>(ov);
    const Vector3 w = v.segment<3>(ov + 3);
    const double qw = q[o + 3];
    const Vector3 u = q.segment<3>(o + 4);
    qd[o + 3] = -0.5 * w.dot(u);
    qd.segment<3>(o + 4) = 0.5 * (qw * w + w.cross(u));
  }
  return qd;
}

void RigidWorld::normalize_position(Vector& q) const {
  if (dimension_ == 2) return;
  for (Index k = 0; k < dynamic_count_; ++k) {
    const double n = q.segment<4>(7 * k + 3).norm();
    if (n > 0) q.segment<4>(7 * k + 3) /= n;
  }
}

// Exact exponential of the rotation at constant ω: quat ← exp(½ h ω̂) ⊗ quat.
Vector RigidWorld::integrate_position(const Vector& q, const Vector& v, double h) const {
  if (dimension_ == 2) return q + h * v;
  Vector out = q;
  for (Index k = 0; k < dynamic_count_; ++k) {
    const Index o = 7 * k, ov = 6 * k;
    out.segment<3>(o) += h * v.segment<3>(ov);
    const Vector3 w = v.segment<3>(ov + 3);
    const double angle = h * w.norm();
    Quaternion quat(q[o + 3], q[o + 4], q[o + 5], q[o + 6]);
    if (angle != 0.0) quat = Quaternion(Eigen::AngleAxisd(angle, w.normalized())) * quat;
    quat.normalize();
    out.segment<4>(o + 3) << quat.w(), quat.x(), quat.y(), quat.z();
  }
  return out;
}

// Planar q₁ − q₀; spatial per body (p₁ − p₀, log(quat₁ ⊗ quat₀⁻¹)), world axes as integrate's
// exp(½hω) ⊗ quat.
Vector RigidWorld::difference_position(const Vector& q0, const Vector& q1) const {
  if (dimension_ == 2) return q1 - q0;
  Vector d(6 * dynamic_count_);
  for (Index k = 0; k < dynamic_count_; ++k) {
    const Index o = 7 * k, ov = 6 * k;
    d.segment<3>(ov) = q1.segment<3>(o) - q0.segment<3>(o);
    const Quaternion a(q0[o + 3], q0[o + 4], q0[o + 5], q0[o + 6]);
    const Quaternion b(q1[o + 3], q1[o + 4], q1[o + 5], q1[o + 6]);
    d.segment<3>(ov + 3) = rotation_log(b * a.conjugate());
  }
  return d;
}

// T = Σ ½ v_kᵀ M_k v_k over the dynamic bodies with M_k their blocks (mass_matrix_blocks):
// ½ m |v|² + ½ ωᵀ I_w ω, I_w = world_inertia(R, I); planar ½ m (v_x² + v_y²) + ½ I_zz ω². Body by
// body in fixed-size arithmetic (a run records T at every step: the blocks as a list of
// dynamic matrices were a twentieth of a 5-cube column's step).
double RigidWorld::kinetic_energy(const Vector& q, const Vector& v) const {
  const Index m = body_velocity_size();
  double T = 0;
  Index k = 0;
  for (Index i = 0; i < body_count(); ++i) {
    const RigidBody& b = bodies_[i];
    if (b.is_static) continue;
    const Index o = k++ * m;
    if (dimension_ == 2) {
      const double vx = v[o], vy = v[o + 1], w = v[o + 2];
      T += 0.5 * (b.mass * (vx * vx + vy * vy) + b.inertia(2, 2) * w * w);
      continue;
    }
    const Matrix3 Iw = world_inertia(body_pose(q, i).rotation(), b.inertia);
    const Vector3 lin = v.segment<3>(o), w = v.segment<3>(o + 3);
    T += 0.5 * (b.mass * lin.squaredNorm() + w.dot(Iw * w));
  }
  return T;
}

double RigidWorld::potential_energy(const Vector& q) const {
  double V = 0;
  for (Index i = 0; i < body_count(); ++i) {
    const RigidBody& b = bodies_[i];
    if (b.is_static) continue;
    // the position alone, read from q (body_pose would also form the orientation); a dynamic
    // body has its block in q
    const Index o = position_offset(i);
    const Vector3 x = dimension_ == 2 ? Vector3(q[o], q[o + 1], 0.0) : Vector3(q.segment<3>(o));
    V -= (b.mass * gravity_ + b.applied_force).dot(x);
    if (dimension_ == 2) V -= b.applied_torque.z() * q[o + 2];
  }
  return V;
}

// With R_a0 = R_b R_relᵀ (a's orientation at the start), R_a = R_a0 Rot, so Rot = R_rel R_bᵀ R_a
// (in a's frame), returned with w ≥ 0.
Quaternion RigidWorld::joint_rotation(const Vector& q, Index jk) const {
  const Joint& j = joints_.at(static_cast<size_t>(jk));
  const Quaternion qb = j.body_b >= 0 ? body_pose(q, j.body_b).orientation : Quaternion::Identity();
  Quaternion rot = j.relative_orientation * qb.conjugate() * body_pose(q, j.body_a).orientation;
  if (rot.w() < 0) rot.coeffs() *= -1;
  return rot;
}

// s = the rotation angle of a relative to b about the axis: 2 atan2(vec·axis_a, w) of
// joint_rotation (planar: θ_a + θ_rel − θ_b). Prismatic: s = axis·(x_a − x_b), axis = R_a axis_a.
// Ball: the angle of joint_rotation, in [0, π].
double RigidWorld::joint_coordinate(const Vector& q, Index jk) const {
  const Joint& j = joints_.at(static_cast<size_t>(jk));
  switch (j.kind) {
    case JointKind::prismatic: {
      const Pose pa = body_pose(q, j.body_a);
      const Pose pb = j.body_b >= 0 ? body_pose(q, j.body_b) : Pose{};
      return (pa.orientation * j.axis_a).dot(pa.apply(j.anchor_a) - pb.apply(j.anchor_b));
    }
    case JointKind::revolute:
    case JointKind::ball: {
      const Quaternion rot = joint_rotation(q, jk);
      if (j.kind == JointKind::ball) return 2.0 * std::atan2(rot.vec().norm(), rot.w());
      const Vector3 axis = dimension_ == 2 ? Vector3::UnitZ() : j.axis_a;
      return 2.0 * std::atan2(rot.vec().dot(axis), rot.w());
    }
    case JointKind::fixed:
      break;
  }
  return 0.0;
}

Index RigidWorld::joint_row_count() const {
  Index k = 0;
  for (const auto& j : joints_) k += j.rows(dimension_);
  return k;
}

namespace {
// Two unit vectors ⊥ a (unit), deterministic.
std::pair<Vector3, Vector3> perpendiculars(const Vector3& a) {
  const Vector3 ref = std::abs(a.x()) < 0.9 ? Vector3::UnitX() : Vector3::UnitY();
  const Vector3 t1 = a.cross(ref).normalized();
  return {t1, a.cross(t1)};
}
}  // namespace

// Joint rows in world axes (6 columns per body: v then ω), then reduced to (v_x, v_y, ω_z) in 2D.
//   point rows:     g = x_a − x_b, J = [I, −[r_a]×] / [−I, [r_b]×], c = ω_a×(ω_a×r_a) −
//   ω_b×(ω_b×r_b) rotation rows:  ġ = ω_a − ω_b (c = 0); g = 2 vec(q_a q_rel q_b⁻¹) (3D), θ_a +
//   θ_rel − θ_b (2D) axis rows:      g_k = t_k·(w_b × w_a), ġ_k = t_k·(ω_a − ω_b), c_k =
//   (ω_a×t_k)·(ω_a − ω_b) slider rows:    g_k = t_k·d, d = x_a − x_b, J_a = [t_kᵀ, (r_a×t_k +
//   t_k×d)ᵀ], J_b = [−t_kᵀ, −(r_b×t_k)ᵀ],
//                   c_k = 2(ω_a×t_k)·ḋ + t_k·(ω_a×(ω_a×r_a) − ω_b×(ω_b×r_b)) + (ω_a×(ω_a×t_k))·d
// with t_k = R_a t_k,body attached to body a (so ṫ_k = ω_a × t_k).
BodyPairRows RigidWorld::joint_rows(const Vector& q, const Vector& v, Index jk) const {
  const Joint& j = joints_.at(static_cast<size_t>(jk));
  const bool has_b = j.body_b >= 0;
  const Pose pa = body_pose(q, j.body_a);
  const Pose pb = has_b ? body_pose(q, j.body_b) : Pose{};
  const Vector3 va = body_linear_velocity(v, j.body_a), wa = body_angular_velocity(v, j.body_a);
  const Vector3 vb = has_b ? body_linear_velocity(v, j.body_b) : Vector3::Zero();
  const Vector3 wb = has_b ? body_angular_velocity(v, j.body_b) : Vector3::Zero();
  const Vector3 ra = pa.orientation * j.anchor_a, rb = pb.orientation * j.anchor_b;
  const Vector3 xa = pa.position + ra, xb = pb.position + rb;
  const Vector3 d = xa - xb;
  const Vector3 dd = (va + wa.cross(ra)) - (vb + wb.cross(rb));
  const Vector3 centripetal = wa.cross(wa.cross(ra)) - wb.cross(wb.cross(rb));

  std::vector<Eigen::Matrix<double, 1, 6>> A, B;
  std::vector<double> c, g;
  auto row = [&](const Vector3& la, const Vector3& aa, const Vector3& lb, const Vector3& ab,
                 double bias, double res) {
    Eigen::Matrix<double, 1, 6> x, y;
    x << la.transpose(), aa.transpose();
    y << lb.transpose(), ab.transpose();
    A.push_back(x), B.push_back(y), c.push_back(bias), g.push_back(res);
  };
  const Vector3 Z = Vector3::Zero();
  auto point_rows = [&](int count) {
    for (int k = 0; k < count; ++k) {
      const Vector3 e = Vector3::Unit(k);
      row(e, ra.cross(e), -e, -rb.cross(e), centripetal[k], d[k]);
    }
  };
  auto rotation_rows = [&]() {
    if (dimension_ == 2) {
      const double res = planar_angle(pa.orientation) + planar_angle(j.relative_orientation) -
                         planar_angle(pb.orientation);
      // unwrap to (−π, π]
      const double wrapped = std::remainder(res, 2 * M_PI);
      const Vector3 e = Vector3::UnitZ();
      row(Z, e, Z, -e, 0.0, wrapped);
      return;
    }
    Quaternion qe = (pa.orientation * j.relative_orientation) * pb.orientation.conjugate();
    if (qe.w() < 0) qe.coeffs() *= -1;
    const Vector3 e = 2.0 * qe.vec();
    for (int k = 0; k < 3; ++k) row(Z, Vector3::Unit(k), Z, -Vector3::Unit(k), 0.0, e[k]);
  };
  const Vector3 axis = pa.orientation * j.axis_a;
  switch (j.kind) {
    case JointKind::revolute:
      point_rows(dimension_);
      if (dimension_ == 3) {
        const auto [t1b, t2b] = perpendiculars(j.axis_a);
        const Vector3 wb_axis = pb.orientation * (j.relative_orientation.conjugate() * j.axis_a);
        for (const Vector3& tb : {t1b, t2b}) {
          const Vector3 t = pa.orientation * tb;
          row(Z, t, Z, -t, wa.cross(t).dot(wa - wb), t.dot(wb_axis.cross(axis)));
        }
      }
      break;
    case JointKind::prismatic: {
      std::vector<Vector3> ts;
      if (dimension_ == 2) {
        ts.push_back(Vector3::UnitZ().cross(axis));
      } else {
        const auto [t1b, t2b] = perpendiculars(j.axis_a);
        ts.push_back(pa.orientation * t1b), ts.push_back(pa.orientation * t2b);
      }
      for (const Vector3& t : ts) {
        const double bias =
            2.0 * wa.cross(t).dot(dd) + t.dot(centripetal) + wa.cross(wa.cross(t)).dot(d);
        row(t, ra.cross(t) + t.cross(d), -t, -rb.cross(t), bias, t.dot(d));
      }
      rotation_rows();
      break;
    }
    case JointKind::fixed:
      point_rows(dimension_);
      rotation_rows();
      break;
    case JointKind::ball:
      point_rows(dimension_);
      break;
  }
  const Index k = static_cast<Index>(c.size());
  const Index m = body_velocity_size();
  BodyPairRows out;
  out.offset_a = velocity_offset(j.body_a);
  out.offset_b = has_b ? velocity_offset(j.body_b) : -1;
  out.block_a.resize(k, m), out.block_b.resize(k, m), out.bias.resize(k), out.residual.resize(k);
  for (Index r = 0; r < k; ++r) {
    if (dimension_ == 2) {
      out.block_a.row(r) << A[r](0), A[r](1), A[r](5);
      out.block_b.row(r) << B[r](0), B[r](1), B[r](5);
    } else {
      out.block_a.row(r) = A[r];
      out.block_b.row(r) = B[r];
    }
    out.bias[r] = c[r], out.residual[r] = g[r];
  }
  return out;
}

}  // namespace moreau
