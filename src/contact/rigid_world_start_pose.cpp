// The start pose of a rigid world's system made valid (contact/rigid_world_system.hpp §Start
// pose): joints whose zero lies outside their range, start overlaps resolved, ignored or refused.
#include <algorithm>
#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/contact/rigid_world_system.hpp"

namespace moreau {
namespace {

// A contact's body pair, smaller index first (the key of the ignored pairs).
std::pair<Index, Index> pair_key(const Contact& c) {
  return {std::min(c.body_a, c.body_b), std::max(c.body_a, c.body_b)};
}

// One overlapping body pair and its deepest point.
struct Overlap {
  std::pair<Index, Index> bodies;  // smaller index first
  std::pair<Index, Index> named;   // detection's order (a dynamic body first), for messages
  double depth = 0.0;              // m, −min gap
};

}  // namespace

// Each limited hinge or slide of the forest with q = 0 outside [lower, upper] starts at the
// nearest end: q ← clamp(0, lower, upper). A ball's cone holds q = identity (upper ≥ 0).
void RigidWorldSystem::clamp_model_pose() {
  for (const LimitedJoint& l : limited_) {
    if (l.joint->type != JointType::hinge && l.joint->type != JointType::slide) continue;
    double& s = initial_q[l.q];
    const double clamped = std::clamp(s, l.joint->lower, l.joint->upper);
    if (std::abs(clamped - s) > 1e-12)  // not a limit at 0 that a shifted slide misses by 4e-20
      start_notes_.push_back(fmt::format(
          "joint '{}': its zero pose lies outside its range [{:.6g}, {:.6g}]; it starts at {:.6g}",
          world_->joints()[l.index].name, l.joint->lower, l.joint->upper, clamped));
    s = clamped;
  }
}

// After the edits: a hinge or slide outside its range is refused (refuse) or clamped into it;
// then the shapes that overlap by more than the tolerance are refused, ignored, or separated by
// the projection q ← q ⊕ Δv, Δv = argmin ½ΔvᵀMΔv s.t. g + J_n Δv ≥ 0 (model/step_contacts.hpp,
// the projection of a Moreau–Jean step), repeated with a new detection while an overlap is
// deeper than the tolerance (at most kStartProjections times); a pair it leaves overlapping is
// ignored.
void RigidWorldSystem::settle_start_pose() {
  const double tol = settings_.initial_tolerance;
  const bool refuse = settings_.initial_overlap == InitialOverlap::refuse;
  for (const LimitedJoint& l : limited_) {
    if (l.joint->type != JointType::hinge && l.joint->type != JointType::slide) continue;
    double& s = initial_q[l.q];
    const double lower = l.joint->lower, upper = l.joint->upper;
    const double clamped = std::clamp(s, lower, upper);
    if (std::abs(clamped - s) <= tol) continue;
    MOREAU_REQUIRE(!refuse,
                   "initial configuration: joint '{}' starts at s = {:.6g}, outside its limits "
                   "[{:.6g}, {:.6g}] (contact.initial_overlap = \"refuse\")",
                   world_->joints()[l.index].name, s, lower, upper);
    start_notes_.push_back(fmt::format(
        "joint '{}' starts at {:.6g}, outside its range [{:.6g}, {:.6g}]; it starts at {:.6g}",
        world_->joints()[l.index].name, s, lower, upper, clamped));
    s = clamped;
  }
  CollisionSettings probe = settings_;
  probe.margin = 0.0;
  probe.joint_limits = false;
  auto overlaps = [&](const Vector& q) {
    std::vector<Overlap> out;
    for (const Contact& c : detect_contacts(*world_, maximal_positions(q), probe)) {
      if (c.pair >= 0 && world_->contact_pairs()[c.pair].kind == ConstraintKind::bilateral)
        continue;
      if (c.gap >= -tol) continue;
      const auto key = pair_key(c);
      auto it =
          std::find_if(out.begin(), out.end(), [&](const Overlap& o) { return o.bodies == key; });
      if (it == out.end()) it = out.insert(out.end(), Overlap{key, {c.body_a, c.body_b}, 0.0});
      it->depth = std::max(it->depth, -c.gap);
    }
    return out;
  };
  const std::vector<Overlap> found = overlaps(initial_q);
  if (found.empty()) return;
  auto names = [&](const std::pair<Index, Index>& p) {
    return fmt::format("'{}' and '{}'", world_->body(p.first).name, world_->body(p.second).name);
  };
  if (refuse) {
    const Overlap& o = found.front();
    throw_invalid(
        "initial configuration: bodies {} interpenetrate (gap = {:.6g} m < −contact.tolerance = "
        "−{:.3g} m; contact.initial_overlap = \"refuse\")",
        names(o.named), -o.depth, tol);
  }
  // "'a' and 'b' by 0.05 m; …" of a list of overlaps
  auto listing = [&](const std::vector<Overlap>& overlaps) {
    std::string out;
    for (const Overlap& o : overlaps)
      out += fmt::format("{}{} by {:.3g} m", out.empty() ? "" : "; ", names(o.named), o.depth);
    return out;
  };
  const std::string list = listing(found);
  std::vector<Overlap> left = found;
  if (settings_.initial_overlap == InitialOverlap::resolve) {
    const std::unique_ptr<StepContacts> layer = step_contacts(StepContactSettings{}, {});
    Vector q = initial_q;
    const Vector v = Vector::Zero(velocity_size());
    for (int k = 0; k < kStartProjections; ++k) {
      double penetration = 0.0;
      layer->detect(q, v, 0.0, penetration);
      if (penetration <= tol) break;
      q += position_rate(q, layer->projection(q));
      normalize_position(q);
    }
    left = overlaps(q);
    if (left.size() < found.size() || left.empty()) initial_q = q;  // kept when nothing cleared
    if (left.empty()) {
      start_notes_.push_back(fmt::format(
          "initial configuration: overlapping bodies separated by a position projection in joint "
          "coordinates: {}",
          list));
      return;
    }
  }
  for (const Overlap& o : left) start_ignored_.push_back(o.bodies);
  std::sort(start_ignored_.begin(), start_ignored_.end());
  ignoring_ = start_ignored_;
  start_notes_.push_back(
      settings_.initial_overlap == InitialOverlap::ignore
          ? fmt::format("initial configuration: overlapping bodies ({}) take no contact until they "
                        "first separate (contact.initial_overlap = \"ignore\")",
                        list)
          : fmt::format("initial configuration: overlapping bodies ({}); the projection could not "
                        "clear {}: those take no contact until they first separate",
                        list, listing(left)));
}

void RigidWorldSystem::begin_run(const Vector& q) const {
  if (q.size() == initial_q.size() && q == initial_q) ignoring_ = start_ignored_;
}

// Contacts of a pair still ignored are dropped while one of its points penetrates; a pair none
// of whose points penetrates has separated and leaves the list (when `update`).
void RigidWorldSystem::drop_ignored_overlaps(std::vector<Contact>& contacts, bool update) const {
  if (ignoring_.empty()) return;
  std::vector<bool> penetrating(ignoring_.size(), false);
  auto ignored = [&](const Contact& c) -> Index {
    const auto it = std::lower_bound(ignoring_.begin(), ignoring_.end(), pair_key(c));
    return it != ignoring_.end() && *it == pair_key(c) ? it - ignoring_.begin() : -1;
  };
  for (const Contact& c : contacts)
    if (const Index i = ignored(c); i >= 0 && c.gap < 0.0) penetrating[i] = true;
  std::erase_if(contacts, [&](const Contact& c) {
    const Index i = ignored(c);
    return i >= 0 && penetrating[i];
  });
  if (!update) return;
  std::vector<std::pair<Index, Index>> still;
  for (size_t i = 0; i < ignoring_.size(); ++i)
    if (penetrating[i]) still.push_back(ignoring_[i]);
  ignoring_ = std::move(still);
}

}  // namespace moreau
