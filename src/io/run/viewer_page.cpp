// The run document of the viewer's page; see viewer_page.hpp.
#include "moreau/io/run/viewer_page.hpp"

#include "moreau/contact/rigid_world_system.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <optional>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "moreau/common/error.hpp"
#include "moreau/contact/collision/world_contacts.hpp"
#include "moreau/io/json/json_reader.hpp"
#include "moreau/io/run/run_geometry.hpp"
#include "moreau/io/mesh/mesh_file.hpp"
#include "moreau/io/json/vocabulary.hpp"

namespace moreau {
namespace {

using ojson = nlohmann::ordered_json;
constexpr char kPlaceholder[] = "__MOREAU_RUN_JSON__";

// Base64 (RFC 4648) of little-endian float32 values.
std::string base64_float32(const std::vector<float>& values) {
  static const char* table = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<unsigned char> bytes(values.size() * 4);
  for (size_t i = 0; i < values.size(); ++i) {
    std::uint32_t u = 0;
    std::memcpy(&u, &values[i], 4);
    for (int b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<unsigned char>(u >> (8 * b));
  }
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (size_t i = 0; i < bytes.size(); i += 3) {
    const std::uint32_t n = (std::uint32_t{bytes[i]} << 16) |
                            (i + 1 < bytes.size() ? std::uint32_t{bytes[i + 1]} << 8 : 0) |
                            (i + 2 < bytes.size() ? std::uint32_t{bytes[i + 2]} : 0);
    out += table[(n >> 18) & 63];
    out += table[(n >> 12) & 63];
    out += i + 1 < bytes.size() ? table[(n >> 6) & 63] : '=';
    out += i + 2 < bytes.size() ? table[n & 63] : '=';
  }
  return out;
}

ojson float32_matrix(const std::vector<float>& values, size_t cols) {
  ojson j;
  j["rows"] = cols == 0 ? 0 : values.size() / cols;
  j["cols"] = cols;
  j["float32"] = base64_float32(values);
  return j;
}

// The recorded indices kept: every k-th and the last, at most max_frames (0 = all).
// The stride is ⌈(records − 1)/(max − 1)⌉; a cap of 1 keeps the first and the last.
std::vector<Index> kept_frames(Index records, Index max_frames) {
  const Index cap = max_frames == 1 ? 2 : max_frames;
  const Index stride = cap > 0 && records > cap ? (records + cap - 2) / (cap - 1) : 1;
  std::vector<Index> out;
  for (Index k = 0; k < records; k += std::max<Index>(stride, 1)) out.push_back(k);
  if (records > 0 && out.back() != records - 1) out.push_back(records - 1);
  return out;
}

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
    case ShapeKind::ellipsoid:
      j["radii"] = vec3(s.half_extents);
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

// The visual meshes of a page, each file and scale read once (the Go2's four legs share theirs):
// vertices and triangles as float32 blocks (indices below 2²⁴ are exact), each part's first
// vertex and the colour of its material.
class PageMeshes {
 public:
  explicit PageMeshes(std::vector<std::string>* warnings) : warnings_(warnings) {}

  // The index of the visual's mesh in `meshes()`, or −1 (with a warning) when it cannot be read.
  Index add(const Visual& v) {
    const std::string key =
        fmt::format("{}|{}|{}|{}", v.mesh, v.scale.x(), v.scale.y(), v.scale.z());
    if (const auto it = index_.find(key); it != index_.end()) return it->second;
    Index at = -1;
    try {
      const TriangleMesh m = load_mesh_file(v.mesh, v.scale);
      std::vector<float> xyz, tri;
      xyz.reserve(3 * m.vertices.size());
      for (const Vector3& x : m.vertices)
        for (int k = 0; k < 3; ++k) xyz.push_back(static_cast<float>(x[k]));
      tri.reserve(3 * m.triangles.size());
      for (const auto& t : m.triangles)
        for (int k : t) tri.push_back(static_cast<float>(k));
      ojson parts = ojson::array();
      for (size_t k = 0; k < m.part_starts.size(); ++k) {
        ojson part{{"start", m.part_starts[k]}};
        if (k < m.part_colors.size() && !std::isnan(m.part_colors[k][0]))
          part["rgba"] = m.part_colors[k];
        parts.push_back(part);
      }
      at = static_cast<Index>(meshes_.size());
      meshes_.push_back({{"file", std::filesystem::path(v.mesh).filename().string()},
                         {"vertices", float32_matrix(xyz, 3)},
                         {"triangles", float32_matrix(tri, 3)},
                         {"parts", parts}});
    } catch (const std::exception& e) {
      warnings_->push_back(
          fmt::format("{}: the body is drawn by its collision shapes instead", e.what()));
    }
    index_.emplace(key, at);
    return at;
  }
  const ojson& meshes() const { return meshes_; }

 private:
  std::vector<std::string>* warnings_;
  std::unordered_map<std::string, Index> index_;
  ojson meshes_ = ojson::array();
};

// A body's visuals in the page: a primitive as a shape (with its rgba), a mesh as {"kind":
// "mesh", "mesh": its index, the pose, "rgba"}. Empty when one of its meshes cannot be read,
// so that the body is drawn whole by its shapes rather than in part.
ojson render_visuals(const RigidBody& b, PageMeshes& meshes) {
  ojson out = ojson::array();
  for (const Visual& v : b.visuals) {
    ojson j;
    if (v.mesh.empty()) {
      j = shape_object(v.shape);
    } else {
      const Index m = meshes.add(v);
      if (m < 0) return ojson::array();
      j["kind"] = "mesh";
      j["mesh"] = m;
      j["position"] = vec3(v.shape.offset.position);
      j["orientation"] = quat(v.shape.offset.orientation);
    }
    if (v.has_color()) j["rgba"] = v.rgba;
    out.push_back(j);
  }
  return out;
}

// The page's bodies (viewer_page.hpp): each body's name, static flag, q_offset, pose (3D,
// quaternion [w, x, y, z]), shapes, each with its kind, offset pose and sizes, in the
// renderer's own terms (a plane as normal and offset_distance in its offset frame), and visuals.
ojson render_bodies(const RigidWorld& world, PageMeshes& meshes, ViewerPageStats& st) {
  ojson bodies = ojson::array();
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
    body["visuals"] = render_visuals(b, meshes);
    st.visuals += static_cast<Index>(body["visuals"].size());
    bodies.push_back(body);
  }
  return bodies;
}

// The page's joints: each tree or closure joint's kind, its body (a) and the other (b, −1 for
// the world), the anchor and axis in a's frame (the viewer draws them where a is).
ojson render_joints(const RigidWorld& world) {
  ojson joints = ojson::array();
  for (const Joint& j : world.joints())
    joints.push_back({{"name", j.name},
                      {"kind", to_string(j.kind)},
                      {"body", j.body_a},
                      {"other", j.body_b},
                      {"anchor", vec3(j.anchor_a)},
                      {"axis", vec3(j.axis_a)}});
  return joints;
}

// Where the contacts of one frame are: detection on the geometry's world at q, matched by name.
class ContactLocator {
 public:
  ContactLocator(const RigidWorld* world, const std::vector<std::string>& names)
      : world_(world), names_(names) {}

  // Point and world impulse of each record in [first, last) of `records` at q; false when the
  // contact is not found.
  void locate(const Vector& q, const std::vector<ContactRecord>& records, size_t first, size_t last,
              std::vector<float>& point, std::vector<float>& impulse, Index& located) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<Contact> found;
    std::unordered_map<std::string, size_t> by_name;
    if (world_ != nullptr && world_->body_count() > 0 && last > first) {
      CollisionSettings cs;
      double widest = 0.0;
      for (size_t k = first; k < last; ++k) widest = std::max(widest, records[k].gap);
      cs.margin = std::max(widest, 0.0) + 1e-3;
      cs.collide_jointed = true;
      // a jointed world's trajectory has its joint coordinates after the body poses
      found = detect_contacts(*world_, q.head(world_->position_size()), cs);
      for (size_t i = 0; i < found.size(); ++i) by_name.emplace(found[i].name, i);
    }
    for (size_t k = first; k < last; ++k) {
      const ContactRecord& rec = records[k];
      const Contact* c = match(rec, found, by_name);
      if (c == nullptr) {
        for (int j = 0; j < 6; ++j) (j < 3 ? point : impulse).push_back(nan);
        continue;
      }
      ++located;
      if (c->joint >= 0) {  // a joint limit: at the joint's anchor, with no arrow (its impulse is
                            // a torque or a force along the joint, world_contacts.hpp)
        const Joint& j = world_->joints()[static_cast<size_t>(c->joint)];
        const Vector3 anchor =
            world_->body_pose(q.head(world_->position_size()), j.body_a).apply(j.anchor_a);
        for (int k = 0; k < 3; ++k) point.push_back(static_cast<float>(anchor[k]));
        for (int k = 0; k < 3; ++k) impulse.push_back(0.0f);
        continue;
      }
      const Vector3 p = c->point();
      const int d = world_->dimension();
      Vector3 r = rec.r_n * c->frame.col(0);
      for (int j = 1; j < d && j - 1 < rec.r_t.size(); ++j) r += rec.r_t[j - 1] * c->frame.col(j);
      for (int j = 0; j < 3; ++j) point.push_back(static_cast<float>(p[j]));
      for (int j = 0; j < 3; ++j) impulse.push_back(static_cast<float>(r[j]));
    }
  }

 private:
  // The detected contact of a record: the same name, else the same pair ("A/B:sa-sb") with the
  // gap nearest the recorded one.
  const Contact* match(const ContactRecord& rec, const std::vector<Contact>& found,
                       const std::unordered_map<std::string, size_t>& by_name) const {
    if (rec.contact < 0 || rec.contact >= static_cast<Index>(names_.size())) return nullptr;
    const std::string& name = names_[static_cast<size_t>(rec.contact)];
    if (const auto it = by_name.find(name); it != by_name.end()) return &found[it->second];
    const size_t colon = name.rfind(':');
    if (colon == std::string::npos) return nullptr;
    const std::string pair = name.substr(0, colon + 1);
    const Contact* best = nullptr;
    for (const Contact& c : found)
      if (c.name.compare(0, pair.size(), pair) == 0 &&
          (best == nullptr || std::abs(c.gap - rec.gap) < std::abs(best->gap - rec.gap)))
        best = &c;
    return best;
  }

  const RigidWorld* world_;
  const std::vector<std::string>& names_;
};

}  // namespace

std::string viewer_run_json(const RunFolder& run, const ViewerPageSettings& settings,
                            ViewerPageStats* stats) {
  const SimulationResult& r = run.result;
  const std::string folder = run.folder;
  ViewerPageStats st;
  ojson doc;
  doc["format"] = "moreau-view";
  doc["version"] = 1;
  std::string title = settings.title;
  if (title.empty())
    title = std::filesystem::absolute(folder).lexically_normal().filename().string();
  if (title.empty())
    title = std::filesystem::absolute(folder).lexically_normal().parent_path().filename().string();
  doc["title"] = title;
  doc["system"] = r.system;
  doc["integrator"] = to_string(r.integrator);
  doc["status"] = to_string(r.status);

  // The geometry: its world for contact detection, checked against the trajectory.
  std::optional<RigidWorld> world;
  ojson bodies = ojson::array();
  int dimension = r.dimension;
  if (run.geometry.is_object()) {
    const std::string source = (std::filesystem::path(folder) / "geometry.json").string();
    world.emplace(world_from_geometry(run.geometry, source));
    dimension = world->dimension();
    const Index expected = recorded_position_size(*world);
    const Index nq = r.q.empty() ? expected : r.q.front().size();
    MOREAU_REQUIRE(world->body_count() == 0 || nq == expected,
                   "{}: its bodies and joints have {} coordinates, the trajectory {}: not the same "
                   "run",
                   source, expected, nq);
    PageMeshes meshes(&st.warnings);
    bodies = render_bodies(*world, meshes, st);
    doc["meshes"] = meshes.meshes();
    doc["joints"] = render_joints(*world);
    st.joints = static_cast<Index>(world->joints().size());
    for (const RigidBody& b : world->bodies()) ++(b.is_static ? st.static_bodies : st.bodies);
  }
  doc["dimension"] = dimension;
  doc["impulse_unit"] = r.integrator == Integrator::time_stepping ? "N·s" : "N";

  const std::vector<Index> frames = kept_frames(r.records(), settings.max_frames);
  st.frames = static_cast<Index>(frames.size());
  doc["frames"] = st.frames;
  doc["recorded"] = r.records();
  ojson t = ojson::array(), kinetic = ojson::array(), potential = ojson::array();
  const Index nq = r.q.empty() ? 0 : r.q.front().size();
  std::vector<float> q;
  q.reserve(frames.size() * static_cast<size_t>(nq));
  for (Index k : frames) {
    t.push_back(r.t[k]);
    kinetic.push_back(r.kinetic[k]);
    potential.push_back(r.potential[k]);
    for (Index i = 0; i < nq; ++i) q.push_back(static_cast<float>(r.q[k][i]));
  }
  doc["t"] = t;
  doc["kinetic"] = kinetic;
  doc["potential"] = potential;
  doc["q"] = float32_matrix(q, static_cast<size_t>(nq));
  doc["bodies"] = bodies;
  doc["contact_names"] = r.contact_names;
  doc["modes"] = enum_names<ContactMode>();

  // The contact records of the kept frames (records are in time order, at the recorded times).
  ojson offsets = ojson::array({0}), ids = ojson::array(), modes = ojson::array();
  std::vector<float> point, impulse;
  ContactLocator locator(world ? &*world : nullptr, r.contact_names);
  size_t p = 0;
  for (Index k : frames) {
    const double tk = r.t[k], eps = 1e-12 * std::max(1.0, std::abs(tk));
    while (p < r.contacts.size() && r.contacts[p].t < tk - eps) ++p;
    size_t e = p;
    while (e < r.contacts.size() && r.contacts[e].t <= tk + eps) ++e;
    for (size_t i = p; i < e; ++i) {
      ids.push_back(r.contacts[i].contact);
      modes.push_back(static_cast<int>(r.contacts[i].mode));
    }
    locator.locate(r.q[k], r.contacts, p, e, point, impulse, st.contacts_located);
    st.contact_records += static_cast<Index>(e - p);
    offsets.push_back(st.contact_records);
    p = e;
  }
  ojson contacts;
  contacts["offsets"] = offsets;
  contacts["contact"] = ids;
  contacts["mode"] = modes;
  contacts["located"] = st.contacts_located;
  contacts["point"] = float32_matrix(point, 3);
  contacts["impulse"] = float32_matrix(impulse, 3);
  doc["contacts"] = contacts;

  // Events with the first kept frame at or after their time.
  ojson events = ojson::array();
  for (const SimulationEvent& ev : r.events) {
    const auto it = std::lower_bound(frames.begin(), frames.end(), ev.t,
                                     [&](Index k, double x) { return r.t[k] < x - 1e-12; });
    const Index frame = frames.empty() ? 0 : std::min<Index>(it - frames.begin(), st.frames - 1);
    events.push_back(
        {{"t", ev.t},
         {"frame", frame},
         {"kind", to_string(ev.kind)},
         {"contact", ev.contact},
         {"name", ev.contact >= 0 && ev.contact < static_cast<Index>(r.contact_names.size())
                      ? r.contact_names[ev.contact]
                      : ""},
         {"detail", ev.detail}});
  }
  st.events = static_cast<Index>(events.size());
  doc["events"] = events;
  doc["summary"] = ojson::parse(run.summary.dump());
  if (stats != nullptr) *stats = st;

  // Safe inside <script>: no "</" (the only way out of a script element's text).
  std::string text = doc.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    out += text[i];
    if (text[i] == '<' && i + 1 < text.size() && text[i + 1] == '/') out += '\\';
  }
  return out;
}

std::string viewer_page_html(const std::string& template_html, const std::string& run_json) {
  const size_t at = template_html.find(kPlaceholder);
  MOREAU_REQUIRE(at != std::string::npos,
                 "the viewer template has no {} placeholder (not a moreau viewer page)",
                 kPlaceholder);
  std::string out = template_html.substr(0, at);
  out += run_json;
  out += template_html.substr(at + std::strlen(kPlaceholder));
  return out;
}

}  // namespace moreau
