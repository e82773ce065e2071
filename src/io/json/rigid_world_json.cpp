// The one JSON form of a rigid world (io/json/rigid_world_json.hpp): shapes, bodies, joints,
// materials and explicit contact pairs, read and written in one place.
#include "moreau/io/json/rigid_world_json.hpp"

#include <cmath>
#include <filesystem>
#include <set>

#include "moreau/common/error.hpp"
#include "rigid_world_constraints_json.hpp"
#include "moreau/io/json/json_reader.hpp"
#include "moreau/io/json/vocabulary.hpp"

namespace moreau {
namespace {

using json = nlohmann::json;
using namespace json_io;

// A d-vector field embedded in 3D (z = 0 in 2D).
Vector3 vec_field(const json& obj, const std::string& path, const std::string& key, int d,
                  const Vector3& fallback) {
  if (!obj.contains(key)) return fallback;
  const Vector v = numbers(obj.at(key), join(path, key), d);
  return d == 2 ? Vector3(v[0], v[1], 0.0) : Vector3(v);
}

// Orientation: 2D "angle" (rad); 3D "orientation" [w, x, y, z] (unit) or "axis_angle" [ax, ay, az,
// angle].
Quaternion orientation_field(const json& obj, const std::string& path, int d) {
  if (d == 2)
    return Quaternion(Eigen::AngleAxisd(number(obj, path, "angle", 0.0), Vector3::UnitZ()));
  MOREAU_REQUIRE(!(obj.contains("orientation") && obj.contains("axis_angle")),
                 "{}: give either orientation or axis_angle, not both", path);
  if (obj.contains("orientation")) {
    const Vector w = numbers(obj.at("orientation"), join(path, "orientation"), 4);
    MOREAU_REQUIRE(std::abs(w.norm() - 1.0) <= 1e-6,
                   "{} = {}: must be a unit quaternion [w, x, y, z] (norm {})",
                   join(path, "orientation"), show(obj.at("orientation")), w.norm());
    return Quaternion(w[0], w[1], w[2], w[3]).normalized();
  }
  if (obj.contains("axis_angle")) {
    const Vector w = numbers(obj.at("axis_angle"), join(path, "axis_angle"), 4);
    const Vector3 axis = w.head<3>();
    MOREAU_REQUIRE(axis.norm() > 1e-12, "{} = {}: axis must be nonzero", join(path, "axis_angle"),
                   show(obj.at("axis_angle")));
    return Quaternion(Eigen::AngleAxisd(w[3], axis.normalized()));
  }
  return Quaternion::Identity();
}

// A bitmask field: an integer in [0, 2³² − 1] (MuJoCo's contype, conaffinity).
std::uint32_t bitmask_field(const json& j, const std::string& path, const std::string& key,
                            std::uint32_t fallback) {
  if (!j.contains(key)) return fallback;
  const double x = as_number(j.at(key), join(path, key));
  MOREAU_REQUIRE(x >= 0.0 && x <= 4294967295.0 && x == std::floor(x),
                 "{} = {}: must be an integer bitmask in [0, 2^32 - 1]", join(path, key),
                 show(j.at(key)));
  return static_cast<std::uint32_t>(x);
}

// contype, conaffinity and the shape's own friction coefficient mu.
void read_collision_filter(const json& j, const std::string& path, Shape& s) {
  s.contype = bitmask_field(j, path, "contype", s.contype);
  s.conaffinity = bitmask_field(j, path, "conaffinity", s.conaffinity);
  if (j.contains("mu")) {
    s.mu = as_number(j.at("mu"), join(path, "mu"));
    MOREAU_REQUIRE(s.mu >= 0.0, "{} = {}: must be ≥ 0", join(path, "mu"), show(j.at("mu")));
  }
  s.priority = int_field(j, path, "priority", s.priority);
}

Shape parse_shape(const json& j, const std::string& path, int d) {
  MOREAU_REQUIRE(j.is_object(), "{} = {}: must be an object", path, show(j));
  MOREAU_REQUIRE(j.contains("type"), "{}.type: missing required field", path);
  const std::string type = string_field(j, path, "type", "");
  Shape s;
  try {
    s.kind = shape_kind_from_string(type);
  } catch (const std::invalid_argument& e) {
    throw_invalid("{}.type = \"{}\": {}", path, type, e.what());
  }
  std::set<std::string> keys = {"type", "name", "position", d == 2 ? "angle" : "orientation"};
  if (d == 3) keys.insert("axis_angle");
  switch (s.kind) {
    case ShapeKind::sphere:
      keys.insert("radius");
      break;
    case ShapeKind::box:
      keys.insert("half_extents");
      break;
    case ShapeKind::capsule:
      keys.insert({"radius", "half_length"});
      break;
    case ShapeKind::cylinder:
      keys.insert({"radius", "half_length"});
      break;
    case ShapeKind::plane:
      keys = {"type", "name", "normal", "offset"};
      if (d == 2) keys.insert("angle");  // a slope: normal (−sin a, cos a)
      break;
    case ShapeKind::convex:
      keys.insert({"vertices", "radius"});
      break;
    case ShapeKind::ellipsoid:
      keys.insert("radii");
      break;
  }
  keys.insert({"contype", "conaffinity", "mu", "priority"});
  check_keys(j, path, keys);
  s.name = string_field(j, path, "name", "");
  if (s.kind == ShapeKind::plane) {
    MOREAU_REQUIRE(j.contains("normal") != j.contains("angle"), "{}: give the plane's normal{}",
                   path, d == 2 ? " or its slope angle (not both)" : "");
    Vector3 n = Vector3::UnitY();
    if (j.contains("angle")) {  // 2D: the floor y = 0 turned by the angle about z
      const double a = number(j, path, "angle", 0.0);
      n = Vector3(-std::sin(a), std::cos(a), 0.0);
    } else {
      n = vec_field(j, path, "normal", d, Vector3::UnitY());
    }
    MOREAU_REQUIRE(n.norm() > 1e-12, "{}.normal = {}: must be nonzero", path, show(j.at("normal")));
    s = make_plane(n, number(j, path, "offset", 0.0) * n.norm());
    s.name = string_field(j, path, "name", "");
    read_collision_filter(j, path, s);
    return s;
  }
  read_collision_filter(j, path, s);
  s.offset.position = vec_field(j, path, "position", d, Vector3::Zero());
  s.offset.orientation = orientation_field(j, path, d);
  if (s.kind == ShapeKind::sphere || s.kind == ShapeKind::cylinder)
    s.radius = required_number(j, path, "radius");
  if (s.kind == ShapeKind::capsule || s.kind == ShapeKind::convex)
    s.radius = number(j, path, "radius", 0.0);
  if (s.kind == ShapeKind::capsule || s.kind == ShapeKind::cylinder)
    s.half_length = required_number(j, path, "half_length");
  if (s.kind == ShapeKind::box) {
    MOREAU_REQUIRE(j.contains("half_extents"), "{}.half_extents: missing required field", path);
    s.half_extents = vec_field(j, path, "half_extents", d, Vector3::Zero());
    if (d == 2) s.half_extents.z() = 0.5 * std::max(s.half_extents.x(), s.half_extents.y());
  }
  if (s.kind == ShapeKind::ellipsoid) {
    MOREAU_REQUIRE(j.contains("radii"), "{}.radii: missing required field", path);
    s.half_extents = vec_field(j, path, "radii", 3, Vector3::Zero());
  }
  if (s.kind == ShapeKind::convex) {
    MOREAU_REQUIRE(
        j.contains("vertices") && j.at("vertices").is_array() && !j.at("vertices").empty(),
        "{}.vertices: must be a nonempty array of points", path);
    const json& vs = j.at("vertices");
    for (size_t i = 0; i < vs.size(); ++i) {
      const Vector v = numbers(vs[i], fmt::format("{}.vertices[{}]", path, i), d);
      s.vertices.push_back(d == 2 ? Vector3(v[0], v[1], 0.0) : Vector3(v));
    }
  }
  s.validate(path, d);
  return s;
}

ContactMaterial parse_material(const json& j, const std::string& path, const ContactMaterial& base,
                               const std::set<std::string>& extra = {}) {
  std::set<std::string> keys = {"mu", "e", "law", "gamma", "alpha", "beta"};
  keys.insert(extra.begin(), extra.end());
  check_keys(j, path, keys);
  ContactMaterial m = base;
  m.mu = number(j, path, "mu", m.mu);
  m.restitution = number(j, path, "e", m.restitution);
  if (j.contains("law"))
    m.law = enum_from_name<ImpactLaw>(string_field(j, path, "law", ""), join(path, "law"));
  m.gamma = number(j, path, "gamma", m.gamma);
  m.alpha = number(j, path, "alpha", m.alpha);
  m.beta = number(j, path, "beta", m.beta);
  m.validate(path);
  return m;
}

// A visual (model/rigid/visual.hpp): {"mesh": FILE, "scale", the pose, "rgba"}, or a primitive
// shape's own keys with "rgba". A relative mesh path is taken from `folder` (the scene's) and
// kept absolute; the file is read only by the viewer, so a scene whose meshes have moved still
// runs.
Visual parse_visual(const json& j, const std::string& path, int d, const std::string& folder) {
  MOREAU_REQUIRE(j.is_object(), "{} = {}: a visual must be an object", path, show(j));
  Visual v;
  if (j.contains("mesh")) {
    check_keys(
        j, path,
        {"mesh", "scale", "position", d == 2 ? "angle" : "orientation", "axis_angle", "rgba"});
    std::filesystem::path file = string_field(j, path, "mesh", "");
    MOREAU_REQUIRE(!file.empty(), "{}.mesh: must name a mesh file", path);
    if (file.is_relative()) file = std::filesystem::absolute(std::filesystem::path(folder) / file);
    v.mesh = file.lexically_normal().string();
    v.scale = vec_field(j, path, "scale", 3, Vector3::Ones());
    v.shape.offset.position = vec_field(j, path, "position", d, Vector3::Zero());
    v.shape.offset.orientation = orientation_field(j, path, d);
  } else {
    json shape = j;
    shape.erase("rgba");
    v.shape = parse_shape(shape, path, d);
  }
  if (j.contains("rgba")) {
    const Vector c = numbers(j.at("rgba"), join(path, "rgba"), 4);
    for (int k = 0; k < 4; ++k) v.rgba[static_cast<size_t>(k)] = c[k];
  }
  v.validate(path, d);
  return v;
}

RigidBody parse_body(const json& j, const std::string& path, int d, const std::string& folder) {
  check_keys(j, path,
             {"name", "static", "mass", "inertia", "position", d == 2 ? "angle" : "orientation",
              "axis_angle", "velocity", "angular_velocity", "force", "torque", "shapes", "visuals",
              "parent", "joints"});
  MOREAU_REQUIRE(d == 3 || !j.contains("axis_angle"), "{}.axis_angle: planar bodies use \"angle\"",
                 path);
  RigidBody b;
  b.name = string_field(j, path, "name", "");
  b.is_static = bool_field(j, path, "static", false);
  b.pose.position = vec_field(j, path, "position", d, Vector3::Zero());
  b.pose.orientation = orientation_field(j, path, d);
  b.linear_velocity = vec_field(j, path, "velocity", d, Vector3::Zero());
  if (j.contains("angular_velocity")) {
    if (d == 2)
      b.angular_velocity =
          Vector3(0, 0, as_number(j.at("angular_velocity"), path + ".angular_velocity"));
    else
      b.angular_velocity = vec_field(j, path, "angular_velocity", 3, Vector3::Zero());
  }
  b.applied_force = vec_field(j, path, "force", d, Vector3::Zero());
  if (j.contains("torque")) {
    if (d == 2)
      b.applied_torque = Vector3(0, 0, as_number(j.at("torque"), path + ".torque"));
    else
      b.applied_torque = vec_field(j, path, "torque", 3, Vector3::Zero());
  }
  if (j.contains("shapes")) {
    const json& ss = j.at("shapes");
    MOREAU_REQUIRE(ss.is_array(), "{}.shapes = {}: must be an array", path, show(ss));
    for (size_t k = 0; k < ss.size(); ++k)
      b.shapes.push_back(parse_shape(ss[k], fmt::format("{}.shapes[{}]", path, k), d));
  }
  if (j.contains("visuals")) {
    const json& vs = j.at("visuals");
    MOREAU_REQUIRE(vs.is_array(), "{}.visuals = {}: must be an array", path, show(vs));
    for (size_t k = 0; k < vs.size(); ++k)
      b.visuals.push_back(parse_visual(vs[k], fmt::format("{}.visuals[{}]", path, k), d, folder));
  }
  if (b.is_static) {
    MOREAU_REQUIRE(
        all_finite(b.linear_velocity) && b.linear_velocity.isZero() && b.angular_velocity.isZero(),
        "{}: a static body cannot move (velocity must be 0)", path);
    return b;  // applied loads on it are refused by RigidBody::validate below
  }
  MOREAU_REQUIRE(j.contains("mass"), "{}.mass: missing required field", path);
  b.mass = as_number(j.at("mass"), path + ".mass");
  if (b.mass == 0.0 && !j.contains("inertia")) {  // a massless link of a tree (RigidBody)
    b.massless = true;
    b.inertia = Matrix3::Zero();
    return b;
  }
  MOREAU_REQUIRE(b.mass > 0.0,
                 "{}.mass = {}: mass must be > 0 (0 without an inertia: a massless "
                 "link on joints)",
                 path, show(j.at("mass")));
  if (j.contains("inertia")) {
    const json& I = j.at("inertia");
    const std::string ip = path + ".inertia";
    if (d == 2) {
      const double izz = as_number(I, ip);
      MOREAU_REQUIRE(izz > 0.0, "{} = {}: inertia must be > 0", ip, show(I));
      b.inertia = Matrix3::Identity() * izz;
    } else if (I.is_number()) {
      const double x = as_number(I, ip);
      MOREAU_REQUIRE(x > 0.0, "{} = {}: inertia must be > 0", ip, show(I));
      b.inertia = Matrix3::Identity() * x;
    } else if (I.is_array() && I.size() == 3 && I[0].is_number()) {
      b.inertia = Matrix3(Vector3(numbers(I, ip, 3)).asDiagonal());
    } else {
      MOREAU_REQUIRE(I.is_array() && I.size() == 3,
                     "{} = {}: must be a number, [Ixx, Iyy, Izz] or a 3×3 array", ip, show(I));
      for (int r = 0; r < 3; ++r)
        b.inertia.row(r) = numbers(I[r], fmt::format("{}[{}]", ip, r), 3).transpose();
    }
  } else {
    // from the first shape, moved to the body frame (parallel axes)
    MOREAU_REQUIRE(!b.shapes.empty(), "{}.inertia: missing, and no shape to compute it from", path);
    const Shape& s = b.shapes.front();
    const Matrix3 R = s.offset.rotation();
    const Vector3 o = s.offset.position;
    b.inertia = R * shape_inertia(s, b.mass, d) * R.transpose() +
                b.mass * (o.squaredNorm() * Matrix3::Identity() - o * o.transpose());
  }
  return b;
}

Index body_ref(const RigidWorld& w, const json& j, const std::string& path, bool allow_world) {
  MOREAU_REQUIRE(j.is_string(), "{} = {}: must be a body name", path, show(j));
  const std::string name = j.get<std::string>();
  // "world": the world frame, or the static body of that name when the scene has one
  if (allow_world && name == "world") return w.find_body("world");
  const Index i = w.find_body(name);
  MOREAU_REQUIRE(i >= 0, "{} = \"{}\": no body of that name", path, name);
  return i;
}

// Shape `key` of body `body`: its name or its index in the body's shapes.
Index shape_ref(const RigidWorld& w, Index body, const json& obj, const std::string& path,
                const std::string& key) {
  MOREAU_REQUIRE(obj.contains(key), "{}: missing required field", join(path, key));
  const json& j = obj.at(key);
  const auto& shapes = w.body(body).shapes;
  if (j.is_string()) {
    const std::string name = j.get<std::string>();
    for (size_t i = 0; i < shapes.size(); ++i)
      if (shapes[i].name == name) return static_cast<Index>(i);
    throw_invalid("{} = \"{}\": body '{}' has no shape of that name", join(path, key), name,
                  w.body(body).name);
  }
  const double x = as_number(j, join(path, key));
  MOREAU_REQUIRE(x >= 0.0 && x < static_cast<double>(shapes.size()) && x == std::floor(x),
                 "{} = {}: must be a shape name or an index in [0, {}) of body '{}'",
                 join(path, key), show(j), shapes.size(), w.body(body).name);
  return static_cast<Index>(x);
}

// One entry of contact.explicit (docs/scene-format.md §Contact): an explicit contact pair.
void add_explicit_pair(RigidWorld& w, const json& p, const std::string& path) {
  MOREAU_REQUIRE(p.is_object(), "{} = {}: must be an object", path, show(p));
  const std::set<std::string> own = {"name", "body_a", "shape_a", "body_b", "shape_b", "kind"};
  ContactPair pair;
  pair.name = string_field(p, path, "name", "");
  MOREAU_REQUIRE(p.contains("body_a"), "{}.body_a: missing required field", path);
  MOREAU_REQUIRE(p.contains("body_b"), "{}.body_b: missing required field", path);
  pair.body_a = body_ref(w, p.at("body_a"), path + ".body_a", false);
  pair.body_b = body_ref(w, p.at("body_b"), path + ".body_b", false);
  pair.shape_a = shape_ref(w, pair.body_a, p, path, "shape_a");
  pair.shape_b = shape_ref(w, pair.body_b, p, path, "shape_b");
  const std::string kind = string_field(p, path, "kind", "unilateral");
  MOREAU_REQUIRE(kind == "unilateral" || kind == "bilateral",
                 "{}.kind = \"{}\": must be \"unilateral\" or \"bilateral\"", path, kind);
  pair.kind = kind == "bilateral" ? ConstraintKind::bilateral : ConstraintKind::unilateral;
  bool has_material = false;
  for (const auto& [key, value] : p.items()) has_material = has_material || !own.contains(key);
  if (has_material)
    pair.material = parse_material(p, path, w.material(pair.body_a, pair.body_b), own);
  try {
    w.add_contact_pair(pair);
  } catch (const std::invalid_argument& e) {
    throw_invalid("{}: {}", path, e.what());
  }
}

// ---- writing ----

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
    case ShapeKind::ellipsoid:
      j["radii"] = vec(s.half_extents, 3);
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

// The inverse of parse_visual (a mesh path as stored: absolute when an importer resolved it).
json visual_json(const Visual& v, int d) {
  json j;
  if (v.mesh.empty()) {
    j = shape_json(v.shape, d);
  } else {
    j["mesh"] = v.mesh;
    if (v.scale != Vector3::Ones()) j["scale"] = vec(v.scale, 3);
    write_pose(j, v.shape.offset, d);
  }
  if (v.has_color()) j["rgba"] = v.rgba;
  return j;
}

json body_json(const RigidBody& b, int d) {
  json j;
  j["name"] = b.name;
  if (b.is_static) j["static"] = true;
  write_pose(j, b.pose, d);
  if (b.massless) {
    j["mass"] = 0.0;
  } else if (!b.is_static) {
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
  if (!b.visuals.empty()) {
    j["visuals"] = json::array();
    for (const Visual& v : b.visuals) j["visuals"].push_back(visual_json(v, d));
  }
  return j;
}

json material_json(const ContactMaterial& m) {
  return json{{"mu", m.mu},       {"e", m.restitution}, {"law", to_string(m.law)},
              {"gamma", m.gamma}, {"alpha", m.alpha},   {"beta", m.beta}};
}

// A limit bound, null when infinite.
json bound(double x) { return std::isfinite(x) ? json(x) : json(nullptr); }

// A joint's axis, its limits (under `limits_key`: [lower, upper], null for an open side), its
// passive forces and its limits' restitution, when given (add_joint checks their ranges).
void read_axis_limits_passive(const json& e, const std::string& path, const char* limits_key, int d,
                              Joint& joint) {
  joint.axis_a = vec_field(e, path, "axis", d, d == 2 ? Vector3::UnitX() : Vector3::UnitZ());
  MOREAU_REQUIRE(joint.axis_a.norm() > 1e-12, "{}.axis: must be nonzero", path);
  if (e.contains(limits_key)) {
    const json& l = e.at(limits_key);
    const std::string lp = path + "." + limits_key;
    MOREAU_REQUIRE(l.is_array() && l.size() == 2,
                   "{} = {}: must be [lower, upper] (rad or m; null for none)", lp, show(l));
    joint.limited = true;
    joint.lower = l[0].is_null() ? -INFINITY : as_number(l[0], lp + "[0]");
    joint.upper = l[1].is_null() ? INFINITY : as_number(l[1], lp + "[1]");
  }
  const std::pair<const char*, double*> numbers[] = {
      {"limit_restitution", &joint.limit_restitution},
      {"stiffness", &joint.stiffness},
      {"reference", &joint.reference},
      {"damping", &joint.damping},
      {"armature", &joint.armature},
      {"frictionloss", &joint.frictionloss}};
  for (const auto& [key, field] : numbers)
    if (e.contains(key)) *field = as_number(e.at(key), path + "." + key);
}

// A body's own joints (docs/scene-format.md §Joints of a body): "parent" (a body's name or
// "world", the default) and "joints", a chain of {type: hinge | slide | ball, name, anchor, axis,
// range, limit_restitution, stiffness, reference, damping, armature, frictionloss}, anchor and
// axis in the body's frame; a "parent" without "joints" welds the body to it. Each becomes a joint
// of the world from this body (body_a) to its parent, in order: one chain.
void add_body_joints(RigidWorld& w, const json& j, const std::string& path, int d, Index a) {
  if (!j.contains("parent") && !j.contains("joints")) return;
  const Index b = j.contains("parent") ? body_ref(w, j.at("parent"), path + ".parent", true) : -1;
  const Pose pa = w.body(a).pose;
  const Pose pb = b >= 0 ? w.body(b).pose : Pose{};
  auto joint_at = [&](const Vector3& anchor) {
    Joint joint;
    joint.body_a = a;
    joint.body_b = b;
    joint.anchor_a = anchor;
    joint.anchor_b = pb.orientation.conjugate() * (pa.apply(anchor) - pb.position);
    return joint;
  };
  std::vector<Joint> chain;
  if (!j.contains("joints")) {
    Joint weld = joint_at(Vector3::Zero());
    weld.kind = JointKind::fixed;
    weld.name = w.body(a).name + ".weld";
    chain.push_back(weld);
  } else {
    const json& js = j.at("joints");
    MOREAU_REQUIRE(js.is_array(), "{}.joints = {}: must be an array", path, show(js));
    for (size_t k = 0; k < js.size(); ++k) {
      const std::string jp = fmt::format("{}.joints[{}]", path, k);
      const json& e = js[k];
      check_keys(e, jp,
                 {"type", "name", "anchor", "axis", "range", "limit_restitution", "stiffness",
                  "reference", "damping", "armature", "frictionloss"});
      Joint joint = joint_at(vec_field(e, jp, "anchor", d, Vector3::Zero()));
      const std::string type = string_field(e, jp, "type", "hinge");
      MOREAU_REQUIRE(type == "hinge" || type == "slide" || type == "ball",
                     "{}.type = \"{}\": must be hinge, slide or ball", jp, type);
      joint.kind = type == "hinge"   ? JointKind::revolute
                   : type == "slide" ? JointKind::prismatic
                                     : JointKind::ball;
      joint.name = string_field(e, jp, "name", fmt::format("{}.joint{}", w.body(a).name, k));
      read_axis_limits_passive(e, jp, "range", d, joint);
      chain.push_back(joint);
    }
  }
  for (size_t k = 0; k < chain.size(); ++k) {
    try {
      w.add_joint(chain[k]);
    } catch (const std::invalid_argument& e) {
      throw_invalid("{}.joints[{}]: {}", path, k, e.what());
    }
  }
}

}  // namespace

RigidWorld rigid_world_from_json(const json& doc, const RigidWorldReadOptions& options) {
  MOREAU_REQUIRE(doc.contains("dimension"), "dimension: missing required field (2 or 3)");
  const int d = int_field(doc, "", "dimension", 3);
  MOREAU_REQUIRE(d == 2 || d == 3, "dimension = {}: must be 2 or 3", d);
  RigidWorld world(d);
  RigidWorld* const w = &world;
  if (doc.contains("gravity")) w->set_gravity(vec_field(doc, "", "gravity", d, Vector3::Zero()));

  if (doc.contains("static_shapes")) {
    const json& ss = doc.at("static_shapes");
    MOREAU_REQUIRE(ss.is_array(), "static_shapes = {}: must be an array", show(ss));
    RigidBody ground;
    ground.name = "ground";
    ground.is_static = true;
    for (size_t k = 0; k < ss.size(); ++k)
      ground.shapes.push_back(parse_shape(ss[k], fmt::format("static_shapes[{}]", k), d));
    w->add_body(ground);
  }
  MOREAU_REQUIRE(doc.contains("bodies") && doc.at("bodies").is_array(),
                 "bodies: missing required array of bodies");
  const json& bodies = doc.at("bodies");
  std::vector<Index> body_index;  // the world index of each entry of "bodies"
  for (size_t i = 0; i < bodies.size(); ++i) {
    const std::string path = fmt::format("bodies[{}]", i);
    RigidBody b = parse_body(bodies[i], path, d, options.folder);
    MOREAU_REQUIRE(b.name.empty() || w->find_body(b.name) < 0,
                   "{}.name = \"{}\": name already used", path, b.name);
    if (b.name.empty()) b.name = fmt::format("body{}", i);
    b.validate(path, d);  // with the document's path (world indices count static_shapes too)
    body_index.push_back(w->add_body(std::move(b)));
  }
  for (size_t i = 0; i < bodies.size(); ++i)
    add_body_joints(*w, bodies[i], fmt::format("bodies[{}]", i), d, body_index[i]);
  if (options.require_dynamic_body)
    MOREAU_REQUIRE(
        w->dynamic_body_count() > 0,
        "bodies: {} listed, none of them dynamic: a scene needs at least one moving body",
        bodies.size());
  if (doc.contains("joints")) {
    const json& js = doc.at("joints");
    MOREAU_REQUIRE(js.is_array(), "joints = {}: must be an array", show(js));
    for (size_t k = 0; k < js.size(); ++k) {
      const std::string path = fmt::format("joints[{}]", k);
      const json& j = js[k];
      check_keys(
          j, path,
          {"type", "name", "body_a", "body_b", "anchor_a", "anchor_b", "axis", "limits",
           "limit_restitution", "stiffness", "reference", "damping", "armature", "frictionloss"});
      Joint joint;
      const std::string type = string_field(j, path, "type", "");
      try {
        joint.kind = joint_kind_from_string(type);
      } catch (const std::invalid_argument& e) {
        throw_invalid("{}.type = \"{}\": {}", path, type, e.what());
      }
      joint.name = string_field(j, path, "name", fmt::format("joint{}", k));
      MOREAU_REQUIRE(j.contains("body_a"), "{}.body_a: missing required field", path);
      joint.body_a = body_ref(*w, j.at("body_a"), path + ".body_a", false);
      joint.body_b =
          j.contains("body_b") ? body_ref(*w, j.at("body_b"), path + ".body_b", true) : -1;
      joint.anchor_a = vec_field(j, path, "anchor_a", d, Vector3::Zero());
      joint.anchor_b = vec_field(j, path, "anchor_b", d, Vector3::Zero());
      read_axis_limits_passive(j, path, "limits", d, joint);
      try {
        w->add_joint(joint);
      } catch (const std::invalid_argument& e) {
        throw_invalid("{}: {}", path, e.what());
      }
    }
  }
  detail::read_tendons_and_equalities(*w, doc);
  if (doc.contains("contact")) {
    const json& c = doc.at("contact");
    std::set<std::string> keys = {"default", "pairs", "explicit", "exclude"};
    keys.insert(options.contact_keys.begin(), options.contact_keys.end());
    check_keys(c, "contact", keys);
    if (c.contains("default"))
      w->set_default_material(
          parse_material(c.at("default"), "contact.default", ContactMaterial{}));
    if (c.contains("pairs")) {
      const json& ps = c.at("pairs");
      MOREAU_REQUIRE(ps.is_array(), "contact.pairs = {}: must be an array", show(ps));
      for (size_t k = 0; k < ps.size(); ++k) {
        const std::string path = fmt::format("contact.pairs[{}]", k);
        const json& p = ps[k];
        MOREAU_REQUIRE(p.is_object() && p.contains("bodies") && p.at("bodies").is_array() &&
                           p.at("bodies").size() == 2,
                       "{}.bodies: must be an array of two body names", path);
        const Index a = body_ref(*w, p.at("bodies")[0], path + ".bodies[0]", false);
        const Index b = body_ref(*w, p.at("bodies")[1], path + ".bodies[1]", false);
        w->set_material(a, b, parse_material(p, path, w->default_material(), {"bodies"}));
      }
    }
    if (c.contains("exclude")) {
      const json& xs = c.at("exclude");
      MOREAU_REQUIRE(xs.is_array(), "contact.exclude = {}: must be an array", show(xs));
      for (size_t k = 0; k < xs.size(); ++k) {
        const std::string path = fmt::format("contact.exclude[{}]", k);
        MOREAU_REQUIRE(xs[k].is_array() && xs[k].size() == 2,
                       "{} = {}: must be an array of two body names", path, show(xs[k]));
        const Index a = body_ref(*w, xs[k][0], path + "[0]", false);
        const Index b = body_ref(*w, xs[k][1], path + "[1]", false);
        MOREAU_REQUIRE(a != b, "{}: two different bodies", path);
        w->exclude_collisions(a, b);
      }
    }
    if (c.contains("explicit")) {
      const json& ps = c.at("explicit");
      MOREAU_REQUIRE(ps.is_array(), "contact.explicit = {}: must be an array", show(ps));
      for (size_t k = 0; k < ps.size(); ++k)
        add_explicit_pair(*w, ps[k], fmt::format("contact.explicit[{}]", k));
    }
  }
  return world;
}

json rigid_world_to_json(const RigidWorld& w) {
  const int d = w.dimension();
  json doc;
  doc["dimension"] = d;
  doc["gravity"] = vec(w.gravity(), d);
  doc["bodies"] = json::array();
  for (const RigidBody& b : w.bodies()) doc["bodies"].push_back(body_json(b, d));
  if (!w.joints().empty()) {
    doc["joints"] = json::array();
    for (const Joint& j : w.joints()) {
      if (j.closure) continue;  // written under "equality"
      json x{{"type", to_string(j.kind)},
             {"name", j.name},
             {"body_a", w.body(j.body_a).name},
             {"body_b", j.body_b < 0 ? std::string("world") : w.body(j.body_b).name},
             {"anchor_a", vec(j.anchor_a, d)},
             {"anchor_b", vec(j.anchor_b, d)}};
      if (j.kind != JointKind::fixed) x["axis"] = vec(j.axis_a, d);
      if (j.limited) x["limits"] = json::array({bound(j.lower), bound(j.upper)});
      const std::pair<const char*, double> numbers[] = {{"limit_restitution", j.limit_restitution},
                                                        {"stiffness", j.stiffness},
                                                        {"reference", j.reference},
                                                        {"damping", j.damping},
                                                        {"armature", j.armature},
                                                        {"frictionloss", j.frictionloss}};
      for (const auto& [key, value] : numbers)
        if (value != 0.0) x[key] = value;
      doc["joints"].push_back(x);
    }
  }
  if (doc.contains("joints") && doc["joints"].empty()) doc.erase("joints");
  detail::write_tendons_and_equalities(w, doc);
  json contact{{"default", material_json(w.default_material())}};
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
  return doc;
}

}  // namespace moreau
