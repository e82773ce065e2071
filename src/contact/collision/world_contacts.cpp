#include "moreau/contact/collision/world_contacts.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>

#include "moreau/common/error.hpp"
#include "moreau/common/parallel.hpp"
#include "moreau/contact/collision/broad_phase.hpp"

namespace moreau {

namespace {
// Lever arm of the angular limit contacts, m (world_contacts.hpp §Joint limits).
constexpr double kLimitLever = 1.0;
// A limit is reported while its gap is below max(margin, this) (rad or m): a joint turning fast
// crosses more than the contact margin in a step, and the integrators decide from gap and
// velocity whether the limit closes (a reported contact with a gap stays open).
constexpr double kLimitBand = 0.1;

// μ of a contact between shapes a and b: the one of higher priority if it has its own, else the
// larger of their own coefficients (MuJoCo's rule, XML reference §geom priority, friction), the
// one that is set, or the pair material's.
double combined_mu(const Shape& a, const Shape& b, double material_mu) {
  if (a.priority != b.priority) {
    const Shape& high = a.priority > b.priority ? a : b;
    if (!std::isnan(high.mu)) return high.mu;
  }
  if (std::isnan(a.mu) && std::isnan(b.mu)) return material_mu;
  if (std::isnan(a.mu)) return b.mu;
  if (std::isnan(b.mu)) return a.mu;
  return std::max(a.mu, b.mu);
}

// The limit contacts of joint k within the margin, appended to out.
void append_limit_contacts(const RigidWorld& world, const Vector& q, Index k, double margin,
                           std::vector<Contact>& out) {
  const Joint& j = world.joints()[k];
  const double s = world.joint_coordinate(q, k);
  const Pose pa = world.body_pose(q, j.body_a);
  const Vector3 anchor = pa.apply(j.anchor_a);
  Vector3 axis = world.dimension() == 2 ? Vector3::UnitZ() : Vector3(pa.orientation * j.axis_a);
  if (j.kind == JointKind::ball) {
    // the rotation axis of a relative to b (joint_rotation, in a's frame), in world axes
    const Quaternion rot = world.joint_rotation(q, k);
    if (rot.vec().norm() < 1e-12) return;  // s = 0: no direction, and far from upper > 0
    axis = pa.orientation * rot.vec().normalized();
  }
  const Vector3 ref = std::abs(axis.x()) < 0.9 ? Vector3::UnitX() : Vector3::UnitY();
  const Vector3 e =
      world.dimension() == 2 ? Vector3::UnitX() : Vector3(axis.cross(ref).normalized());
  const bool angular = j.kind != JointKind::prismatic;
  const Vector3 point = angular ? Vector3(anchor + kLimitLever * e) : anchor;
  const Vector3 rate_normal = angular ? Vector3(axis.cross(e)) : axis;  // u_n = ρ ṡ (or ṡ)
  const double scale = angular ? kLimitLever : 1.0;
  for (int side = 0; side < 2; ++side) {
    if (j.kind == JointKind::ball && side == 0) continue;
    const double gap = side == 0 ? scale * (s - j.lower) : scale * (j.upper - s);
    if (!(gap <= std::max(margin, scale * kLimitBand))) continue;
    Contact c;
    c.body_a = j.body_a, c.body_b = j.body_b;
    c.shape_a = c.shape_b = -1 - k;
    c.joint = k, c.feature = side;
    c.point_a = c.point_b = point;
    c.gap = gap;
    Vector3 n = side == 0 ? rate_normal : Vector3(-rate_normal);
    // detection's order: body b static, else the smaller index first
    if (!world.body(c.body_b).is_static && c.body_b < c.body_a) {
      std::swap(c.body_a, c.body_b);
      n = -n;
    }
    c.frame = contact_frame(n, world.dimension());
    c.material = ContactMaterial{};  // frictionless, inelastic
    c.name = j.name + (side == 0 ? "/lower" : "/upper");
    out.push_back(std::move(c));
  }
}
}  // namespace

const char* to_string(InitialOverlap mode) {
  switch (mode) {
    case InitialOverlap::resolve:
      return "resolve";
    case InitialOverlap::ignore:
      return "ignore";
    case InitialOverlap::refuse:
      return "refuse";
  }
  return "?";
}

// Union–find over the joints between dynamic bodies, then each static body joins the one
// articulation its joints reach (none when they reach several).
std::vector<Index> articulations(const RigidWorld& world) {
  const Index n = world.body_count();
  std::vector<Index> root(static_cast<size_t>(n));
  std::iota(root.begin(), root.end(), Index{0});
  auto find = [&](Index b) {
    while (root[b] != b) b = root[b] = root[root[b]];
    return b;
  };
  std::vector<bool> jointed(static_cast<size_t>(n), false);
  for (const Joint& j : world.joints()) {
    jointed[j.body_a] = jointed[j.body_b] = true;
    if (!world.body(j.body_a).is_static && !world.body(j.body_b).is_static)
      root[find(j.body_a)] = find(j.body_b);
  }
  std::vector<Index> out(static_cast<size_t>(n), -1);
  for (Index b = 0; b < n; ++b)
    if (jointed[b] && !world.body(b).is_static) out[b] = find(b);
  std::vector<Index> base(static_cast<size_t>(n), -1);  // per static body: its one articulation
  for (const Joint& j : world.joints()) {
    const bool sa = world.body(j.body_a).is_static, sb = world.body(j.body_b).is_static;
    if (sa == sb) continue;
    const Index s = sa ? j.body_a : j.body_b, d = sa ? j.body_b : j.body_a;
    base[s] = base[s] == -1 || base[s] == out[d] ? out[d] : -2;
  }
  for (Index b = 0; b < n; ++b)
    if (base[b] >= 0) out[b] = base[b];
  return out;
}

// The rules in the header's order. A body and the body it is jointed to do not collide unless
// that body is static (MuJoCo's rule, XML reference §contact: a body collides with the world it
// hangs from).
bool detected_pair(const RigidWorld& world, const CollisionSettings& settings,
                   const std::vector<Index>& articulation, Index a, Index shape_a, Index b,
                   Index shape_b) {
  if (a == b) return false;
  const bool sa = world.body(a).is_static, sb = world.body(b).is_static;
  if (sa && sb) return false;
  if (!world.excluded_pairs().empty() && world.collisions_excluded(a, b)) return false;
  if (!settings.collide_jointed && !sa && !sb && world.jointed(a, b)) return false;
  if (!settings.self_collision && articulation[a] >= 0 && articulation[a] == articulation[b])
    return false;
  if (!collision_filter_passes(world.body(a).shapes[shape_a], world.body(b).shapes[shape_b]))
    return false;
  return world.contact_pairs().empty() || world.find_contact_pair(a, shape_a, b, shape_b) < 0;
}

// Every pair of shapes through detected_pair, stopping at the first that passes; the shapes
// whose contype and conaffinity are both 0 pass with none and are skipped first.
bool shapes_may_touch(const RigidWorld& world, const CollisionSettings& settings) {
  if (!world.contact_pairs().empty()) return true;
  const std::vector<Index> articulation =
      settings.self_collision ? std::vector<Index>() : articulations(world);
  std::vector<std::pair<Index, Index>> shapes;
  for (Index i = 0; i < world.body_count(); ++i)
    for (Index k = 0; k < static_cast<Index>(world.body(i).shapes.size()); ++k) {
      const Shape& sh = world.body(i).shapes[k];
      if (sh.contype != 0 || sh.conaffinity != 0) shapes.emplace_back(i, k);
    }
  for (size_t x = 0; x < shapes.size(); ++x)
    for (size_t y = x + 1; y < shapes.size(); ++y)
      if (detected_pair(world, settings, articulation, shapes[x].first, shapes[x].second,
                        shapes[y].first, shapes[y].second))
        return true;
  return false;
}

std::vector<Contact> detect_contacts(const RigidWorld& world, const Vector& q,
                                     const CollisionSettings& settings, const ContactFilter& keep,
                                     const PairReach& reach) {
  // one detector per thread, whose buffers (poses, boxes, the broad phase's cells, candidates)
  // keep their capacity from call to call: a robot's step detects once or twice, and a fresh
  // detector allocated them all each time (every buffer is rewritten before it is read). A
  // detection started inside another on the same thread (from a caller's keep or reach) gets a
  // fresh detector, as the outer one is still reading its buffers.
  thread_local ContactDetector detector;
  thread_local bool in_use = false;
  std::vector<Contact> out;
  if (in_use) {
    ContactDetector().detect(world, q, settings, out, keep, reach);
    return out;
  }
  in_use = true;
  struct Release {
    bool& flag;
    ~Release() { flag = false; }
  } release{in_use};
  detector.detect(world, q, settings, out, keep, reach);
  return out;
}

void ContactDetector::detect(const RigidWorld& world, const Vector& q,
                             const CollisionSettings& settings, std::vector<Contact>& out,
                             const ContactFilter& keep, const PairReach& reach) {
  MOREAU_REQUIRE(q.size() == world.position_size(),
                 "detect_contacts: q has {} entries, expected {}", q.size(), world.position_size());
  MOREAU_REQUIRE(!std::isnan(settings.margin), "detect_contacts: margin must not be NaN");
  // shape list
  poses_.clear(), shapes_.clear(), boxes_.clear();
  for (Index i = 0; i < world.body_count(); ++i) {
    const Pose bp = world.body_pose(q, i);
    const auto& shapes = world.body(i).shapes;
    for (Index s = 0; s < static_cast<Index>(shapes.size()); ++s) {
      shapes_.emplace_back(i, s);
      poses_.push_back(bp.compose(shapes[s].offset));
      boxes_.push_back(shape_aabb(shapes[s], poses_.back(), settings.margin));
    }
  }
  if (settings.use_broad_phase)
    broad_phase_pairs(boxes_, broad_, candidates_);
  else
    candidates_ = brute_force_pairs(boxes_);
  if (!settings.self_collision) articulation_ = articulations(world);
  struct Item {
    Index body, shape;
    Pose pose;
  };
  // The points of shape A of body a against shape B of body b (B static, or a < b), into out.
  auto add_points = [&](const Item& A, const Item& B, double margin, Index pair,
                        std::vector<Contact>& into) {
    const Shape& shA = world.body(A.body).shapes[A.shape];
    const Shape& shB = world.body(B.body).shapes[B.shape];
    NarrowPhaseSettings np{.margin = margin, .dimension = world.dimension()};
    const auto points = collide(shA, A.pose, shB, B.pose, np);
    if (points.empty()) return;
    const ContactPair* cp = pair >= 0 ? &world.contact_pairs()[pair] : nullptr;
    ContactMaterial material = cp && cp->material ? *cp->material : world.material(A.body, B.body);
    if (!(cp && cp->material)) material.mu = combined_mu(shA, shB, material.mu);
    // the frame of each normal, formed once for the run of points that share it (a mesh's
    // vertices on a plane: hundreds)
    Vector3 framed = Vector3::Constant(NAN);
    Matrix3 frame = Matrix3::Zero();  // set with framed before its first use
    for (const auto& p : points) {
      if (keep && !keep(A.body, B.body, pair, p)) continue;
      Contact& c = into.emplace_back();
      c.body_a = A.body, c.body_b = B.body, c.shape_a = A.shape, c.shape_b = B.shape;
      c.point_a = p.point_a, c.point_b = p.point_b, c.gap = p.gap, c.feature = p.feature,
      c.normal_on_a = p.normal_on_a;
      if (p.normal != framed) frame = contact_frame(p.normal, world.dimension()), framed = p.normal;
      c.frame = frame;
      c.pair = pair;
      c.material = material;
      if (settings.with_names) c.name = contact_name(world, c);
    }
  };
  // the narrow phase in chunks of the candidate list, concatenated in chunk order: the same
  // list for any number of threads
  const int chunks = std::max(1, settings.threads);
  found_.resize(static_cast<size_t>(chunks));
  for (auto& part : found_) part.clear();
  const Index n_candidates = static_cast<Index>(candidates_.size());
  parallel_for(chunks, chunks, [&](Index first, Index last) {
    for (Index k = first; k < last; ++k)
      for (Index c = n_candidates * k / chunks; c < n_candidates * (k + 1) / chunks; ++c) {
        const auto [ia, ib] = candidates_[c];
        Item A{shapes_[ia].first, shapes_[ia].second, poses_[ia]};
        Item B{shapes_[ib].first, shapes_[ib].second, poses_[ib]};
        if (!detected_pair(world, settings, articulation_, A.body, A.shape, B.body, B.shape))
          continue;
        if (world.body(A.body).is_static || (!world.body(B.body).is_static && A.body > B.body))
          std::swap(A, B);
        double margin = settings.margin;  // a plane pair's points one by one: the caller's bound
        if (reach && world.dimension() == 3 &&
            (world.body(A.body).shapes[A.shape].kind == ShapeKind::plane ||
             world.body(B.body).shapes[B.shape].kind == ShapeKind::plane))
          margin = std::min(margin, reach(A.body, B.body));
        add_points(A, B, margin, -1, found_[k]);
      }
  });
  std::vector<Contact>& extra = found_.front();  // explicit pairs and limits, after the chunk's
  const size_t first_extra = extra.size();
  for (Index k = 0; k < static_cast<Index>(world.contact_pairs().size()); ++k) {
    const ContactPair& cp = world.contact_pairs()[k];
    auto item = [&](Index body, Index shape) {
      const Shape& sh = world.body(body).shapes[shape];
      return Item{body, shape, world.body_pose(q, body).compose(sh.offset)};
    };
    add_points(item(cp.body_a, cp.shape_a), item(cp.body_b, cp.shape_b), INFINITY, k, extra);
  }
  for (Index k = 0; settings.joint_limits && k < static_cast<Index>(world.joints().size()); ++k)
    if (world.joints()[k].limited) append_limit_contacts(world, q, k, settings.margin, extra);
  // detection order: the chunks in order, then the explicit pairs and limits; sorted by key,
  // ties kept in that order (a stable sort of pointers, so no contact is copied twice)
  order_.clear();
  for (size_t k = 0; k < found_.size(); ++k) {
    const size_t end = k == 0 ? first_extra : found_[k].size();
    for (size_t i = 0; i < end; ++i) order_.push_back(&found_[k][i]);
  }
  for (size_t i = first_extra; i < extra.size(); ++i) order_.push_back(&extra[i]);
  std::stable_sort(order_.begin(), order_.end(),
                   [](const Contact* x, const Contact* y) { return contact_key_less(*x, *y); });
  out.resize(order_.size());
  for (size_t i = 0; i < order_.size(); ++i) out[i] = std::move(*order_[i]);
}

std::string contact_name(const RigidWorld& world, const Contact& c) {
  if (c.joint >= 0)
    return world.joints().at(static_cast<size_t>(c.joint)).name +
           (c.feature == 0 ? "/lower" : "/upper");
  if (c.pair >= 0) {
    const std::string& name = world.contact_pairs().at(static_cast<size_t>(c.pair)).name;
    return c.feature == 0 ? name : name + "/" + std::to_string(c.feature);
  }
  // "<body a>/<body b>:<shape a>-<shape b>:<feature>" (a shape without a name by its index),
  // appended into one string (each detected contact is named at every detection)
  const Shape& shA = world.body(c.body_a).shapes.at(static_cast<size_t>(c.shape_a));
  const Shape& shB = world.body(c.body_b).shapes.at(static_cast<size_t>(c.shape_b));
  const std::string& body_a = world.body(c.body_a).name;
  const std::string& body_b = world.body(c.body_b).name;
  std::string out;
  out.reserve(body_a.size() + body_b.size() + shA.name.size() + shB.name.size() + 32);
  auto append_index = [&](Index x) {
    char digits[24];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, x).ptr);
  };
  out.append(body_a).append("/").append(body_b).append(":");
  if (shA.name.empty())
    append_index(c.shape_a);
  else
    out.append(shA.name);
  out.append("-");
  if (shB.name.empty())
    append_index(c.shape_b);
  else
    out.append(shB.name);
  out.append(":");
  append_index(c.feature);
  return out;
}

bool contact_key_less(const Contact& x, const Contact& y) {
  return std::tie(x.body_a, x.body_b, x.shape_a, x.shape_b, x.feature) <
         std::tie(y.body_a, y.body_b, y.shape_a, y.shape_b, y.feature);
}
bool contact_key_equal(const Contact& x, const Contact& y) {
  return std::tie(x.body_a, x.body_b, x.shape_a, x.shape_b, x.feature) ==
         std::tie(y.body_a, y.body_b, y.shape_a, y.shape_b, y.feature);
}

void contact_jacobian_blocks(const RigidWorld& world, const Vector& q, const Contact& c,
                             Eigen::Matrix<double, 3, 6>& J_a, Eigen::Matrix<double, 3, 6>& J_b) {
  const int d = world.dimension();
  const Vector3 ra = c.point_a - world.body_pose(q, c.body_a).position;
  const Vector3 rb = c.point_b - world.body_pose(q, c.body_b).position;
  J_a.setZero();
  J_b.setZero();
  for (int k = 0; k < d; ++k) {
    const Vector3 e = c.frame.col(k);
    const Vector3 aa = ra.cross(e), ab = rb.cross(e);
    if (d == 2) {
      J_a.row(k).head<3>() << e.x(), e.y(), aa.z();
      J_b.row(k).head<3>() << -e.x(), -e.y(), -ab.z();
    } else {
      J_a.row(k) << e.transpose(), aa.transpose();
      J_b.row(k) << -e.transpose(), -ab.transpose();
    }
  }
}

// Rows (n, t₁, t₂ as the columns c of the frame): A: [cᵀ, (r_A × c)ᵀ], B: [−cᵀ, −(r_B × c)ᵀ];
// bias by the point-on-face model, or the exact sphere–sphere form (world_contacts.hpp).
BodyPairRows contact_rows(const RigidWorld& world, const Vector& q, const Vector& v,
                          const Contact& c) {
  const int d = world.dimension();
  const Index A = c.body_a, B = c.body_b;
  const Pose pa = world.body_pose(q, A), pb = world.body_pose(q, B);
  const Vector3 ra = c.point_a - pa.position, rb = c.point_b - pb.position;
  const Vector3 wa = world.body_angular_velocity(v, A), wb = world.body_angular_velocity(v, B);
  // a joint limit has no shapes: its points are material points of both bodies, a one-vertex
  // convex shape (core radius 0, not a sphere)
  static const Shape kPoint = make_convex({Vector3::Zero()});
  const Shape& sa = c.joint >= 0 ? kPoint : world.body(A).shapes.at(static_cast<size_t>(c.shape_a));
  const Shape& sb = c.joint >= 0 ? kPoint : world.body(B).shapes.at(static_cast<size_t>(c.shape_b));
  // the bias uses the material CORE points (sphere centres, capsule axis points), which keep
  // their distance to the other surface when a rounded body rolls: x_core = x ± r n
  const Vector3 nrm = c.frame.col(0);
  const double rad_a = sa.core_radius(), rad_b = sb.core_radius();
  const Vector3 rca = ra + rad_a * nrm, rcb = rb - rad_b * nrm;
  const double gcore = c.gap + rad_a + rad_b;
  const Vector3 dv = (world.body_linear_velocity(v, A) + wa.cross(rca)) -
                     (world.body_linear_velocity(v, B) + wb.cross(rcb));
  const Vector3 centripetal = wa.cross(wa.cross(rca)) - wb.cross(wb.cross(rcb));
  const Index m = world.body_velocity_size();
  BodyPairRows rows;
  rows.offset_a = world.velocity_offset(A);
  rows.offset_b = world.velocity_offset(B);
  rows.block_a.resize(d, m), rows.block_b.resize(d, m), rows.bias.resize(d);
  rows.residual = PairColumn::Zero(d);
  rows.residual[0] = c.gap;
  const Vector3 n = c.frame.col(0);
  Eigen::Matrix<double, 3, 6> Ja, Jb;
  contact_jacobian_blocks(world, q, c, Ja, Jb);
  rows.block_a = Ja.topLeftCorner(d, m);
  rows.block_b = Jb.topLeftCorner(d, m);
  for (int k = 0; k < d; ++k) {
    const Vector3 e = c.frame.col(k);
    const Vector3 wf = c.normal_on_a ? wa : wb;  // angular velocity of the body carrying n
    const Vector3 we = wf.cross(e);
    double bias = e.dot(centripetal) + 2.0 * we.dot(dv);
    if (k == 0)
      bias -= gcore * we.squaredNorm();
    else
      bias += gcore * wf.cross(we).dot(n);
    rows.bias[k] = bias;
  }
  // exact normal term for sphere–sphere (disk–disk): c_n = ‖Δṗ_⊥‖²/‖Δp‖ + n·(ω×ω× of the centres)
  if (sa.kind == ShapeKind::sphere && sb.kind == ShapeKind::sphere) {
    const Vector3 ca = pa.apply(sa.offset.position), cb = pb.apply(sb.offset.position);
    const Vector3 rca = ca - pa.position, rcb = cb - pb.position;
    const Vector3 dp = ca - cb;
    const Vector3 dpd = (world.body_linear_velocity(v, A) + wa.cross(rca)) -
                        (world.body_linear_velocity(v, B) + wb.cross(rcb));
    const Vector3 perp = dpd - dpd.dot(n) * n;
    const double len = dp.norm();
    rows.bias[0] = (len > 0 ? perp.squaredNorm() / len : 0.0) +
                   n.dot(wa.cross(wa.cross(rca)) - wb.cross(wb.cross(rcb)));
    // exact tangent terms: the witnesses x_A = c_A − R_A n, x_B = c_B + R_B n slide on the
    // surfaces as n turns at ṅ = perp/‖Δp‖, so with r_X = x_X − p_X,
    //   c_t = ṫ·Δv_P + t·(ω_A × ṙ_A − ω_B × ṙ_B),  ṙ_A = ω_A × r_cA − R_A ṅ,
    //   ṙ_B = ω_B × r_cB + R_B ṅ,  Δv_P = (v_A + ω_A × r_A) − (v_B + ω_B × r_B),
    // ṫ from the frame convention's rate (model/contact_frame.hpp; 2D t = (n_y, −n_x)).
    if (len > 0) {
      const Vector3 ndot = perp / len;
      const Vector3 dvp = (world.body_linear_velocity(v, A) + wa.cross(ra)) -
                          (world.body_linear_velocity(v, B) + wb.cross(rb));
      const Vector3 rad_rate =
          wa.cross(wa.cross(rca) - sa.radius * ndot) - wb.cross(wb.cross(rcb) + sb.radius * ndot);
      Matrix3 tdot = Matrix3::Zero();
      if (d == 2) {
        tdot.col(1) = Vector3(ndot.y(), -ndot.x(), 0.0);
      } else {
        const ContactFrame3 f = contact_frame_3d(n, ndot);
        tdot.col(1) = f.t1_dot;
        tdot.col(2) = f.t2_dot;
      }
      for (int k = 1; k < d; ++k)
        rows.bias[k] = tdot.col(k).dot(dvp) + c.frame.col(k).dot(rad_rate);
    }
  }
  return rows;
}

SparseMatrix assemble_contact_h(const RigidWorld& world, const Vector& q,
                                const std::vector<Contact>& contacts) {
  const int d = world.dimension();
  const Vector v0 = Vector::Zero(world.velocity_size());
  std::vector<Triplet> t;
  t.reserve(contacts.size() * static_cast<size_t>(d == 2 ? 12 : 36));
  for (size_t i = 0; i < contacts.size(); ++i)
    contact_rows(world, q, v0, contacts[i]).append_triplets(t, static_cast<Index>(i) * d, true);
  SparseMatrix H(world.velocity_size(), d * static_cast<Index>(contacts.size()));
  H.setFromTriplets(t.begin(), t.end());
  return H;
}

}  // namespace moreau
