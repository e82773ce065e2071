// Tendons and equalities in the rigid-world JSON form (rigid_world_constraints_json.hpp):
//   "tendons":  [{name, joints: [{joint, coef}], offset} | {name, path: [{body, point}]},
//                with range [lower, upper] (null for an open side) and limit_restitution]
//   "equality": [{type: connect | weld, name, body_a, body_b, anchor_a, anchor_b}
//                | {type: joint, name, joint1, joint2, polycoef}
//                | {type: tendon, name, tendon1, tendon2, polycoef}]
//   "keyframes": [{name, q: {coordinate: value}, v: {velocity: value}, ctrl: {actuator: value}}],
//   "initial":   {q, v, ctrl}  (edits of the initial state, the same maps),
//   "actuators": [{name, joint, type: motor | position | velocity | general, gear, kp, kv
//   (position,
//                 velocity), gain, bias [b₀, b₁, b₂] (general), ctrlrange, forcerange}]
// connect and weld are closure joints (ball, fixed) whose anchors coincide at the initial poses;
// actuators are written back in the general form (gain, bias).
#include "rigid_world_constraints_json.hpp"

#include <cmath>
#include <set>

#include "moreau/common/error.hpp"
#include "moreau/io/json/json_reader.hpp"

namespace moreau::detail {
namespace {

using nlohmann::json;
using namespace json_io;

// A point of d components (z = 0 planar) under key, or the fallback when absent.
Vector3 point(const json& obj, const std::string& path, const char* key, int d) {
  if (!obj.contains(key)) return Vector3::Zero();
  const Vector x = numbers(obj.at(key), join(path, key), d);
  return d == 2 ? Vector3(x[0], x[1], 0.0) : Vector3(x[0], x[1], x[2]);
}
json point_json(const Vector3& x, int d) {
  return d == 2 ? json::array({x.x(), x.y()}) : json::array({x.x(), x.y(), x.z()});
}

// A body by name; "world" is the static body of that name or the world frame (−1).
Index body(const RigidWorld& w, const json& obj, const std::string& path, const char* key) {
  MOREAU_REQUIRE(obj.contains(key), "{}: missing required field", join(path, key));
  const std::string name = string_field(obj, path, key, "");
  const Index i = w.find_body(name);
  if (i < 0 && name == "world") return -1;
  MOREAU_REQUIRE(i >= 0, "{} = \"{}\": no body of that name", join(path, key), name);
  return i;
}
std::string body_name(const RigidWorld& w, Index i) {
  return i < 0 ? std::string("world") : w.body(i).name;
}

// A joint or tendon by name.
template <class List>
Index by_name(const List& list, const json& obj, const std::string& path, const char* key,
              const char* what) {
  MOREAU_REQUIRE(obj.contains(key), "{}: missing required field", join(path, key));
  const std::string name = string_field(obj, path, key, "");
  for (size_t i = 0; i < list.size(); ++i)
    if (list[i].name == name) return static_cast<Index>(i);
  throw_invalid("{} = \"{}\": no {} of that name", join(path, key), name, what);
}

void read_tendon(RigidWorld& w, const json& e, const std::string& path) {
  check_keys(e, path, {"name", "joints", "offset", "path", "range", "limit_restitution"});
  const int d = w.dimension();
  Tendon t;
  t.name = string_field(e, path, "name", "");
  t.offset = number(e, path, "offset", 0.0);
  if (e.contains("joints")) {
    const json& js = e.at("joints");
    MOREAU_REQUIRE(js.is_array(), "{}.joints = {}: must be an array", path, show(js));
    for (size_t k = 0; k < js.size(); ++k) {
      const std::string jp = fmt::format("{}.joints[{}]", path, k);
      check_keys(js[k], jp, {"joint", "coef"});
      t.joints.push_back(TendonJoint{by_name(w.joints(), js[k], jp, "joint", "joint"),
                                     number(js[k], jp, "coef", 1.0)});
    }
  }
  if (e.contains("path")) {
    const json& ps = e.at("path");
    MOREAU_REQUIRE(ps.is_array(), "{}.path = {}: must be an array", path, show(ps));
    for (size_t k = 0; k < ps.size(); ++k) {
      const std::string sp = fmt::format("{}.path[{}]", path, k);
      check_keys(ps[k], sp, {"body", "point"});
      t.path.push_back(TendonSite{body(w, ps[k], sp, "body"), point(ps[k], sp, "point", d)});
    }
  }
  if (e.contains("range")) {
    const json& r = e.at("range");
    MOREAU_REQUIRE(r.is_array() && r.size() == 2,
                   "{}.range = {}: must be [lower, upper] (m; null for none)", path, show(r));
    t.limited = true;
    t.lower = r[0].is_null() ? -INFINITY : as_number(r[0], path + ".range[0]");
    t.upper = r[1].is_null() ? INFINITY : as_number(r[1], path + ".range[1]");
  }
  t.limit_restitution = number(e, path, "limit_restitution", 0.0);
  try {
    w.add_tendon(t);
  } catch (const std::invalid_argument& err) {
    throw_invalid("{}: {}", path, err.what());
  }
}

void read_equality(RigidWorld& w, const json& e, const std::string& path) {
  const std::string type = string_field(e, path, "type", "");
  const int d = w.dimension();
  if (type == "connect" || type == "weld") {
    check_keys(e, path, {"type", "name", "body_a", "body_b", "anchor_a", "anchor_b"});
    Joint j;
    j.closure = true;
    j.kind = type == "connect" ? JointKind::ball : JointKind::fixed;
    j.name = string_field(e, path, "name", "");
    j.body_a = body(w, e, path, "body_a");
    MOREAU_REQUIRE(j.body_a >= 0, "{}.body_a: must be a body, not the world", path);
    j.body_b = e.contains("body_b") ? body(w, e, path, "body_b") : -1;
    j.anchor_a = point(e, path, "anchor_a", d);
    if (e.contains("anchor_b")) {
      j.anchor_b = point(e, path, "anchor_b", d);
    } else {  // the point anchor_a marks, seen from body b at the initial poses
      const Pose pa = w.body(j.body_a).pose;
      const Pose pb = j.body_b >= 0 ? w.body(j.body_b).pose : Pose{};
      j.anchor_b = pb.orientation.conjugate() * (pa.apply(j.anchor_a) - pb.position);
    }
    try {
      w.add_joint(j);
    } catch (const std::invalid_argument& err) {
      throw_invalid("{}: {}", path, err.what());
    }
    return;
  }
  MOREAU_REQUIRE(type == "joint" || type == "tendon",
                 "{}.type = \"{}\": must be connect, weld, joint or tendon", path, type);
  const bool joint = type == "joint";
  const char* first = joint ? "joint1" : "tendon1";
  const char* second = joint ? "joint2" : "tendon2";
  check_keys(e, path, {"type", "name", first, second, "polycoef"});
  Coupling c;
  c.name = string_field(e, path, "name", "");
  c.kind = joint ? CouplingKind::joint : CouplingKind::tendon;
  c.first = joint ? by_name(w.joints(), e, path, first, "joint")
                  : by_name(w.tendons(), e, path, first, "tendon");
  if (e.contains(second))
    c.second = joint ? by_name(w.joints(), e, path, second, "joint")
                     : by_name(w.tendons(), e, path, second, "tendon");
  if (e.contains("polycoef")) {
    const json& p = e.at("polycoef");
    MOREAU_REQUIRE(p.is_array() && p.size() >= 1 && p.size() <= 5,
                   "{}.polycoef = {}: must be 1 to 5 numbers a₀ … a₄", path, show(p));
    c.polycoef = {0, 0, 0, 0, 0};
    for (size_t k = 0; k < p.size(); ++k)
      c.polycoef[k] = as_number(p[k], fmt::format("{}.polycoef[{}]", path, k));
  }
  try {
    w.add_coupling(c);
  } catch (const std::invalid_argument& err) {
    throw_invalid("{}: {}", path, err.what());
  }
}

// [lower, upper] under key: true and the bounds when present.
bool read_pair(const json& e, const std::string& path, const char* key, double& lower,
               double& upper) {
  if (!e.contains(key)) return false;
  const Vector r = numbers(e.at(key), join(path, key), 2);
  MOREAU_REQUIRE(r[0] <= r[1], "{}.{} = [{}, {}]: need lower ≤ upper", path, key, r[0], r[1]);
  lower = r[0];
  upper = r[1];
  return true;
}

void read_actuator(RigidWorld& w, const json& e, const std::string& path) {
  const std::string type = string_field(e, path, "type", "general");
  std::set<std::string> keys = {"name", "joint", "type", "gear", "ctrlrange", "forcerange"};
  if (type == "position") keys.insert({"kp", "kv"});
  if (type == "velocity") keys.insert("kv");
  if (type == "general") keys.insert({"gain", "bias"});
  check_keys(e, path, keys);
  Actuator a;
  a.name = string_field(e, path, "name", "");
  a.joint = by_name(w.joints(), e, path, "joint", "joint");
  a.gear = number(e, path, "gear", 1.0);
  if (type == "motor") {
    a.gain = 1.0;
  } else if (type == "position") {
    const double kp = number(e, path, "kp", 1.0), kv = number(e, path, "kv", 0.0);
    MOREAU_REQUIRE(kp >= 0 && kv >= 0, "{}: kp = {} and kv = {} must be ≥ 0", path, kp, kv);
    a.gain = kp;
    a.bias = {0.0, -kp, -kv};
  } else if (type == "velocity") {
    const double kv = number(e, path, "kv", 1.0);
    MOREAU_REQUIRE(kv >= 0, "{}.kv = {}: must be ≥ 0", path, kv);
    a.gain = kv;
    a.bias = {0.0, 0.0, -kv};
  } else if (type == "general") {
    a.gain = number(e, path, "gain", 1.0);
    if (e.contains("bias")) {
      const Vector b = numbers(e.at("bias"), path + ".bias", 3);
      a.bias = {b[0], b[1], b[2]};
    }
  } else {
    throw_invalid("{}.type = \"{}\": must be motor, position, velocity or general", path, type);
  }
  a.ctrl_limited = read_pair(e, path, "ctrlrange", a.ctrl_lower, a.ctrl_upper);
  a.force_limited = read_pair(e, path, "forcerange", a.force_lower, a.force_upper);
  try {
    w.add_actuator(a);
  } catch (const std::invalid_argument& err) {
    throw_invalid("{}: {}", path, err.what());
  }
}

// {"q": {name: value}, "v": {…}, "ctrl": {…}} (and "name" for a keyframe) at `path`.
Keyframe read_keyframe(const json& e, const std::string& path, bool named) {
  MOREAU_REQUIRE(e.is_object(), "{} = {}: must be an object", path, show(e));
  if (named)
    check_keys(e, path, {"name", "q", "v", "ctrl"});
  else
    check_keys(e, path, {"q", "v", "ctrl"});
  Keyframe k;
  if (named) k.name = string_field(e, path, "name", "");
  for (const char* field : {"q", "v", "ctrl"}) {
    if (!e.contains(field)) continue;
    const json& m = e.at(field);
    const std::string where = path + "." + field;
    MOREAU_REQUIRE(m.is_object(), "{} = {}: must be an object of name: value", where, show(m));
    auto& out = field == std::string("q") ? k.q : field == std::string("v") ? k.v : k.ctrl;
    for (auto it = m.begin(); it != m.end(); ++it) out[it.key()] = number(m, where, it.key(), 0.0);
  }
  return k;
}

json keyframe_json(const Keyframe& k, bool named) {
  json x = json::object();
  if (named) x["name"] = k.name;
  if (!k.q.empty()) x["q"] = k.q;
  if (!k.v.empty()) x["v"] = k.v;
  if (!k.ctrl.empty()) x["ctrl"] = k.ctrl;
  return x;
}

}  // namespace

void read_tendons_and_equalities(RigidWorld& w, const json& doc) {
  for (const char* key : {"tendons", "equality", "actuators"}) {
    if (!doc.contains(key)) continue;
    const json& list = doc.at(key);
    MOREAU_REQUIRE(list.is_array(), "{} = {}: must be an array", key, show(list));
    for (size_t k = 0; k < list.size(); ++k) {
      const std::string path = fmt::format("{}[{}]", key, k);
      MOREAU_REQUIRE(list[k].is_object(), "{} = {}: must be an object", path, show(list[k]));
      if (key == std::string("tendons"))
        read_tendon(w, list[k], path);
      else if (key == std::string("equality"))
        read_equality(w, list[k], path);
      else
        read_actuator(w, list[k], path);
    }
  }
  if (doc.contains("keyframes")) {
    const json& list = doc.at("keyframes");
    MOREAU_REQUIRE(list.is_array(), "keyframes = {}: must be an array", show(list));
    for (size_t k = 0; k < list.size(); ++k) {
      const std::string path = fmt::format("keyframes[{}]", k);
      try {
        w.add_keyframe(read_keyframe(list[k], path, true));
      } catch (const std::invalid_argument& err) {
        throw_invalid("{}: {}", path, err.what());
      }
    }
  }
  if (doc.contains("initial"))
    w.edit_initial_state(read_keyframe(doc.at("initial"), "initial", false));
}

void write_tendons_and_equalities(const RigidWorld& w, json& doc) {
  const int d = w.dimension();
  for (const Tendon& t : w.tendons()) {
    json x{{"name", t.name}};
    for (const TendonJoint& term : t.joints)
      x["joints"].push_back({{"joint", w.joints()[term.joint].name}, {"coef", term.coef}});
    if (t.offset != 0.0) x["offset"] = t.offset;
    for (const TendonSite& s : t.path)
      x["path"].push_back({{"body", body_name(w, s.body)}, {"point", point_json(s.point, d)}});
    auto bound = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
    if (t.limited) x["range"] = json::array({bound(t.lower), bound(t.upper)});
    if (t.limit_restitution != 0.0) x["limit_restitution"] = t.limit_restitution;
    doc["tendons"].push_back(x);
  }
  for (const Joint& j : w.joints()) {
    if (!j.closure) continue;
    doc["equality"].push_back({{"type", j.kind == JointKind::ball ? "connect" : "weld"},
                               {"name", j.name},
                               {"body_a", body_name(w, j.body_a)},
                               {"body_b", body_name(w, j.body_b)},
                               {"anchor_a", point_json(j.anchor_a, d)},
                               {"anchor_b", point_json(j.anchor_b, d)}});
  }
  for (const Coupling& c : w.couplings()) {
    const bool joint = c.kind == CouplingKind::joint;
    auto name = [&](Index i) { return joint ? w.joints()[i].name : w.tendons()[i].name; };
    json x{{"type", to_string(c.kind)},
           {"name", c.name},
           {joint ? "joint1" : "tendon1", name(c.first)}};
    if (c.second >= 0) x[joint ? "joint2" : "tendon2"] = name(c.second);
    x["polycoef"] = c.polycoef;
    doc["equality"].push_back(x);
  }
  for (const Actuator& a : w.actuators()) {
    json x{{"name", a.name},
           {"joint", w.joints()[a.joint].name},
           {"gear", a.gear},
           {"gain", a.gain},
           {"bias", a.bias}};
    if (a.ctrl_limited) x["ctrlrange"] = json::array({a.ctrl_lower, a.ctrl_upper});
    if (a.force_limited) x["forcerange"] = json::array({a.force_lower, a.force_upper});
    doc["actuators"].push_back(x);
  }
  for (const Keyframe& k : w.keyframes()) doc["keyframes"].push_back(keyframe_json(k, true));
  const Keyframe& edits = w.initial_state_edits();
  if (!edits.q.empty() || !edits.v.empty() || !edits.ctrl.empty())
    doc["initial"] = keyframe_json(edits, false);
}

}  // namespace moreau::detail
