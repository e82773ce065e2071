// Scene → scene document (io/scene/scene_write.hpp), the inverse of parse_scene for rigid worlds.
#include "moreau/io/scene/scene_write.hpp"

#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/io/scene/integrator_settings.hpp"

namespace moreau {
namespace {

using json = nlohmann::json;

// A d-vector of the 3D one (2D: x, y).
json vec(const Vector3& x, int d) {
  return d == 2 ? json::array({x.x(), x.y()}) : json::array({x.x(), x.y(), x.z()});
}

// The planar angle of a rotation about z.
double planar_angle(const Quaternion& q) { return 2.0 * std::atan2(q.z(), q.w()); }

// "position" and "orientation" ("angle" in 2D) of a pose, into obj.
void write_pose(json& obj, const Pose& p, int d) {
  obj["position"] = vec(p.position, d);
  if (d == 2)
    obj["angle"] = planar_angle(p.orientation);
  else
    obj["orientation"] =
        json::array({p.orientation.w(), p.orientation.x(), p.orientation.y(), p.orientation.z()});
}

json shape_json(const Shape& s, int d) {
  json j;
  j["type"] = to_string(s.kind);
  if (!s.name.empty()) j["name"] = s.name;
  switch (s.kind) {
    case ShapeKind::plane: {
      // the half-space n·x ≤ d moved by the offset pose: n' = R n, d' = d + n'·p
      const Vector3 n = s.offset.orientation * s.normal;
      j["normal"] = vec(n, d);
      j["offset"] = s.offset_distance + n.dot(s.offset.position);
      break;
    }
    case ShapeKind::sphere:
      j["radius"] = s.radius;
      break;
    case ShapeKind::box:
      j["half_extents"] = vec(s.half_extents, d);
      break;
    case ShapeKind::capsule:
    case ShapeKind::cylinder:
      j["radius"] = s.radius;
      j["half_length"] = s.half_length;
      break;
    case ShapeKind::convex:
      j["vertices"] = json::array();
      for (const Vector3& x : s.vertices) j["vertices"].push_back(vec(x, d));
      if (s.radius > 0) j["radius"] = s.radius;
      break;
  }
  if (s.kind != ShapeKind::plane) write_pose(j, s.offset, d);
  if (s.contype != 1) j["contype"] = s.contype;
  if (s.conaffinity != 1) j["conaffinity"] = s.conaffinity;
  if (!std::isnan(s.mu)) j["mu"] = s.mu;
  if (s.priority != 0) j["priority"] = s.priority;
  return j;
}

json body_json(const RigidBody& b, int d) {
  json j;
  j["name"] = b.name;
  if (b.is_static) j["static"] = true;
  write_pose(j, b.pose, d);
  if (!b.is_static) {
    j["mass"] = b.mass;
    if (d == 2) {
      j["inertia"] = b.inertia(2, 2);
    } else {
      j["inertia"] = json::array();
      for (int r = 0; r < 3; ++r) j["inertia"].push_back(vec(b.inertia.row(r).transpose(), 3));
    }
    if (!b.linear_velocity.isZero()) j["velocity"] = vec(b.linear_velocity, d);
    if (!b.angular_velocity.isZero())
      j["angular_velocity"] = d == 2 ? json(b.angular_velocity.z()) : vec(b.angular_velocity, 3);
    if (!b.applied_force.isZero()) j["force"] = vec(b.applied_force, d);
    if (!b.applied_torque.isZero())
      j["torque"] = d == 2 ? json(b.applied_torque.z()) : vec(b.applied_torque, 3);
  }
  j["shapes"] = json::array();
  for (const Shape& s : b.shapes) j["shapes"].push_back(shape_json(s, d));
  return j;
}

json material_json(const ContactMaterial& m) {
  return json{{"mu", m.mu},       {"e", m.restitution}, {"law", to_string(m.law)},
              {"gamma", m.gamma}, {"alpha", m.alpha},   {"beta", m.beta}};
}

// A limit bound, null when infinite.
json bound(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

}  // namespace

json scene_to_json(const Scene& scene) {
  MOREAU_REQUIRE(scene.world != nullptr,
                 "{}: only rigid-body scenes can be written (not a gallery or system scene)",
                 scene.source);
  const RigidWorld& w = *scene.world;
  const int d = w.dimension();
  json doc;
  doc["description"] = scene.description;
  doc["dimension"] = d;
  doc["gravity"] = vec(w.gravity(), d);
  doc["bodies"] = json::array();
  for (const RigidBody& b : w.bodies()) doc["bodies"].push_back(body_json(b, d));
  if (!w.joints().empty()) {
    doc["joints"] = json::array();
    for (const Joint& j : w.joints()) {
      json x{{"type", to_string(j.kind)},
             {"name", j.name},
             {"body_a", w.body(j.body_a).name},
             {"body_b", j.body_b < 0 ? std::string("world") : w.body(j.body_b).name},
             {"anchor_a", vec(j.anchor_a, d)},
             {"anchor_b", vec(j.anchor_b, d)}};
      if (j.kind != JointKind::fixed) x["axis"] = vec(j.axis_a, d);
      if (j.limited) x["limits"] = json::array({bound(j.lower), bound(j.upper)});
      doc["joints"].push_back(x);
    }
  }
  json contact{{"margin", scene.collision.margin},
               {"tolerance", scene.contact_tolerance},
               {"default", material_json(w.default_material())}};
  for (const auto& [pair, m] : w.material_overrides()) {
    json p = material_json(m);
    p["bodies"] = json::array({w.body(pair.first).name, w.body(pair.second).name});
    contact["pairs"].push_back(p);
  }
  for (const ContactPair& p : w.contact_pairs()) {
    json x{{"name", p.name},
           {"body_a", w.body(p.body_a).name},
           {"shape_a", p.shape_a},
           {"body_b", w.body(p.body_b).name},
           {"shape_b", p.shape_b},
           {"kind", p.kind == ConstraintKind::bilateral ? "bilateral" : "unilateral"}};
    if (p.material) x.update(material_json(*p.material));
    contact["explicit"].push_back(x);
  }
  for (const auto& [a, b] : w.excluded_pairs())
    contact["exclude"].push_back(json::array({w.body(a).name, w.body(b).name}));
  doc["contact"] = contact;
  json integrator = json::object();
  const SimulationSettings defaults;
  for (const IntegratorKey& k : integrator_keys()) {
    const json value = integrator_value(k, scene.settings);
    if (value != integrator_value(k, defaults)) integrator[k.key] = value;
  }
  if (!integrator.empty()) doc["integrator"] = integrator;
  doc["t_end"] = scene.settings.t_end;
  json output{
      {"every", scene.output.every}, {"plot", scene.output.plot}, {"format", scene.output.format}};
  if (!scene.output.dir.empty()) output["dir"] = scene.output.dir;
  if (scene.output.interval > 0) {
    output.erase("every");
    output["interval"] = scene.output.interval;
  }
  doc["output"] = output;
  return doc;
}

}  // namespace moreau
