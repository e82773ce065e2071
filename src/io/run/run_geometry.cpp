// geometry.json, the viewer's picture of a run's bodies; see run_geometry.hpp.
#include "moreau/io/run/run_geometry.hpp"

#include <cmath>

#include "moreau/common/error.hpp"
#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/io/json/json_reader.hpp"

namespace moreau {
namespace {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;
using namespace json_io;

ojson vec3(const Vector3& v) { return ojson::array({v.x(), v.y(), v.z()}); }
ojson quat(const Quaternion& q) { return ojson::array({q.w(), q.x(), q.y(), q.z()}); }

ojson shape_object(const Shape& s) {
  ojson j;
  j["kind"] = to_string(s.kind);
  j["name"] = s.name;
  j["position"] = vec3(s.offset.position);
  j["orientation"] = quat(s.offset.orientation);
  switch (s.kind) {
    case ShapeKind::sphere:
      j["radius"] = s.radius;
      break;
    case ShapeKind::box:
      j["half_extents"] = vec3(s.half_extents);
      break;
    case ShapeKind::capsule:
    case ShapeKind::cylinder:
      j["radius"] = s.radius;
      j["half_length"] = s.half_length;
      break;
    case ShapeKind::plane:
      j["normal"] = vec3(s.normal);
      j["offset_distance"] = s.offset_distance;
      break;
    case ShapeKind::convex: {
      ojson v = ojson::array();
      for (const Vector3& p : s.vertices) v.push_back(vec3(p));
      j["vertices"] = v;
      j["radius"] = s.radius;
      break;
    }
  }
  return j;
}

Vector3 read_vec3(const json& obj, const std::string& path, const std::string& key,
                  const Vector3& fallback) {
  if (!obj.contains(key)) return fallback;
  return numbers(obj.at(key), join(path, key), 3);
}

Quaternion read_quat(const json& obj, const std::string& path) {
  if (!obj.contains("orientation")) return Quaternion::Identity();
  const Vector w = numbers(obj.at("orientation"), join(path, "orientation"), 4);
  MOREAU_REQUIRE(std::abs(w.norm() - 1.0) < 1e-6,
                 "{}.orientation = [{}, {}, {}, {}]: not a unit quaternion", path, w[0], w[1], w[2],
                 w[3]);
  return Quaternion(w[0], w[1], w[2], w[3]);
}

Shape read_shape(const json& j, const std::string& path, int dimension) {
  MOREAU_REQUIRE(j.is_object(), "{} = {}: must be an object", path, show(j));
  check_keys(j, path,
             {"kind", "name", "position", "orientation", "radius", "half_extents", "half_length",
              "normal", "offset_distance", "vertices"});
  Shape s;
  MOREAU_REQUIRE(j.contains("kind"), "{}.kind: missing required field", path);
  const std::string kind = string_field(j, path, "kind", "");
  try {
    s.kind = shape_kind_from_string(kind);
  } catch (const std::invalid_argument&) {
    throw_invalid(
        "{}.kind = \"{}\": not a shape kind (sphere, box, capsule, cylinder, plane, convex)", path,
        one_line(kind));
  }
  s.name = string_field(j, path, "name", "");
  s.offset.position = read_vec3(j, path, "position", Vector3::Zero());
  s.offset.orientation = read_quat(j, path);
  s.radius = number(j, path, "radius", 0.0);
  s.half_extents = read_vec3(j, path, "half_extents", Vector3::Zero());
  s.half_length = number(j, path, "half_length", 0.0);
  s.normal = read_vec3(j, path, "normal", Vector3::UnitY());
  s.offset_distance = number(j, path, "offset_distance", 0.0);
  if (j.contains("vertices")) {
    const json& v = j.at("vertices");
    MOREAU_REQUIRE(v.is_array(), "{}.vertices = {}: must be an array of points", path, show(v));
    for (size_t k = 0; k < v.size(); ++k)
      s.vertices.push_back(numbers(v[k], fmt::format("{}.vertices[{}]", path, k), 3));
  }
  s.validate(path, dimension);
  return s;
}

}  // namespace

std::string run_geometry_json(const LagrangianSystem& system, int dimension) {
  ojson doc;
  doc["moreau_geometry_version"] = kRunGeometryVersion;
  doc["system"] = system.name();
  doc["dimension"] = dimension;
  doc["position_size"] = system.position_size();
  doc["velocity_size"] = system.velocity_size();
  ojson bodies = ojson::array(), pairs = ojson::array(), joints = ojson::array();
  if (const auto* rigid = dynamic_cast<const RigidWorldSystem*>(&system)) {
    const RigidWorld& world = rigid->world();
    for (Index i = 0; i < world.body_count(); ++i) {
      const RigidBody& b = world.body(i);
      ojson body;
      body["name"] = b.name;
      body["static"] = b.is_static;
      body["q_offset"] = world.position_offset(i);
      body["position"] = vec3(b.pose.position);
      body["orientation"] = quat(b.pose.orientation);
      ojson shapes = ojson::array();
      for (const Shape& s : b.shapes) shapes.push_back(shape_object(s));
      body["shapes"] = shapes;
      bodies.push_back(body);
    }
    // joints: detection skips jointed bodies and reports limits (the viewer finds those records)
    for (const Joint& j : world.joints()) {
      ojson x{
          {"name", j.name},        {"kind", to_string(j.kind)},    {"body_a", j.body_a},
          {"body_b", j.body_b},    {"anchor_a", vec3(j.anchor_a)}, {"anchor_b", vec3(j.anchor_b)},
          {"axis", vec3(j.axis_a)}};
      if (j.limited)
        x["limits"] = ojson::array({std::isfinite(j.lower) ? ojson(j.lower) : ojson(nullptr),
                                    std::isfinite(j.upper) ? ojson(j.upper) : ojson(nullptr)});
      joints.push_back(x);
    }
    for (const ContactPair& c : world.contact_pairs())
      pairs.push_back({{"name", c.name},
                       {"body_a", c.body_a},
                       {"shape_a", c.shape_a},
                       {"body_b", c.body_b},
                       {"shape_b", c.shape_b}});
  }
  // one body a line: readable, and compact for large worlds
  std::string text = doc.dump(1);
  text.erase(text.rfind('}'));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  text += ",\n \"bodies\": [";
  const auto lines = [&text](const ojson& items) {
    for (size_t i = 0; i < items.size(); ++i) text += (i == 0 ? "\n  " : ",\n  ") + items[i].dump();
    text += items.empty() ? "]" : "\n ]";
  };
  lines(bodies);
  text += ",\n \"contact_pairs\": [";
  lines(pairs);
  text += ",\n \"joints\": [";
  lines(joints);
  return text + "\n}\n";
}

RigidWorld world_from_geometry(const json& doc, const std::string& source) {
  return with_source(source, [&] {
    MOREAU_REQUIRE(doc.is_object(), "the document = {}: must be an object", show(doc));
    check_keys(doc, "",
               {"moreau_geometry_version", "system", "dimension", "position_size", "velocity_size",
                "bodies", "contact_pairs", "joints"});
    const int version = int_field(doc, "", "moreau_geometry_version", 0);
    MOREAU_REQUIRE(version == kRunGeometryVersion,
                   "moreau_geometry_version = {}: this moreau reads version {}", version,
                   kRunGeometryVersion);
    const int d = int_field(doc, "", "dimension", 0);
    MOREAU_REQUIRE(d == 2 || d == 3, "dimension = {}: must be 2 or 3", d);
    RigidWorld world(d);
    MOREAU_REQUIRE(doc.contains("bodies") && doc.at("bodies").is_array(),
                   "bodies: missing, or not an array");
    const json& bodies = doc.at("bodies");
    for (size_t i = 0; i < bodies.size(); ++i) {
      const std::string path = fmt::format("bodies[{}]", i);
      const json& j = bodies[i];
      MOREAU_REQUIRE(j.is_object(), "{} = {}: must be an object", path, show(j));
      check_keys(j, path, {"name", "static", "q_offset", "position", "orientation", "shapes"});
      RigidBody b;
      b.name = string_field(j, path, "name", "");
      b.is_static = bool_field(j, path, "static", false);
      b.mass = 1.0;
      b.inertia = Matrix3::Identity();
      // fixed for a static body; initial for a dynamic one (its joints' relative orientation)
      b.pose.position = read_vec3(j, path, "position", Vector3::Zero());
      b.pose.orientation = read_quat(j, path);
      if (j.contains("shapes")) {
        const json& shapes = j.at("shapes");
        MOREAU_REQUIRE(shapes.is_array(), "{}.shapes = {}: must be an array", path, show(shapes));
        for (size_t k = 0; k < shapes.size(); ++k)
          b.shapes.push_back(read_shape(shapes[k], fmt::format("{}.shapes[{}]", path, k), d));
      }
      const Index expected = b.is_static ? -1 : world.position_size();
      const Index index = world.add_body(std::move(b));
      const int offset = int_field(j, path, "q_offset", static_cast<int>(expected));
      MOREAU_REQUIRE(offset == expected && world.position_offset(index) == expected,
                     "{}.q_offset = {}: the body's coordinates start at {} (bodies in order, {} "
                     "per dynamic body, -1 for a static one)",
                     path, offset, expected, world.body_position_size());
    }
    const json pairs = doc.value("contact_pairs", json::array());
    MOREAU_REQUIRE(pairs.is_array(), "contact_pairs = {}: must be an array", show(pairs));
    for (size_t k = 0; k < pairs.size(); ++k) {
      const std::string path = fmt::format("contact_pairs[{}]", k);
      const json& j = pairs[k];
      MOREAU_REQUIRE(j.is_object(), "{} = {}: must be an object", path, show(j));
      check_keys(j, path, {"name", "body_a", "shape_a", "body_b", "shape_b"});
      ContactPair c;
      c.name = string_field(j, path, "name", "");
      c.body_a = int_field(j, path, "body_a", -1);
      c.shape_a = int_field(j, path, "shape_a", -1);
      c.body_b = int_field(j, path, "body_b", -1);
      c.shape_b = int_field(j, path, "shape_b", -1);
      try {
        world.add_contact_pair(c);
      } catch (const std::invalid_argument& e) {
        throw_invalid("{}: {}", path, e.what());
      }
    }
    const json joints = doc.value("joints", json::array());
    MOREAU_REQUIRE(joints.is_array(), "joints = {}: must be an array", show(joints));
    for (size_t k = 0; k < joints.size(); ++k) {
      const std::string path = fmt::format("joints[{}]", k);
      const json& j = joints[k];
      MOREAU_REQUIRE(j.is_object(), "{} = {}: must be an object", path, show(j));
      check_keys(j, path,
                 {"name", "kind", "body_a", "body_b", "anchor_a", "anchor_b", "axis", "limits"});
      Joint joint;
      joint.name = string_field(j, path, "name", "");
      try {
        joint.kind = joint_kind_from_string(string_field(j, path, "kind", ""));
      } catch (const std::invalid_argument& e) {
        throw_invalid("{}.kind: {}", path, e.what());
      }
      joint.body_a = int_field(j, path, "body_a", -1);
      joint.body_b = int_field(j, path, "body_b", -1);
      joint.anchor_a = read_vec3(j, path, "anchor_a", Vector3::Zero());
      joint.anchor_b = read_vec3(j, path, "anchor_b", Vector3::Zero());
      joint.axis_a = read_vec3(j, path, "axis", Vector3::UnitZ());
      if (j.contains("limits")) {
        const json& l = j.at("limits");
        MOREAU_REQUIRE(l.is_array() && l.size() == 2, "{}.limits = {}: must be [lower, upper]",
                       path, show(l));
        joint.limited = true;
        joint.lower = l[0].is_null() ? -INFINITY : as_number(l[0], path + ".limits[0]");
        joint.upper = l[1].is_null() ? INFINITY : as_number(l[1], path + ".limits[1]");
      }
      try {
        world.add_joint(joint);
      } catch (const std::invalid_argument& e) {
        throw_invalid("{}: {}", path, e.what());
      }
    }
    if (doc.contains("position_size")) {
      const int nq = int_field(doc, "", "position_size", 0);
      MOREAU_REQUIRE(world.body_count() == 0 || nq == world.position_size(),
                     "position_size = {}: the bodies have {} coordinates", nq,
                     world.position_size());
    }
    return world;
  });
}

}  // namespace moreau
