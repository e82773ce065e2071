// MJCF → Scene (io/import/mjcf.hpp, docs/mjcf.md): the body tree, geoms, inertials and joints of a
// MuJoCo model as a RigidWorld with joints, limits and per-shape friction.
#include "moreau/io/import/mjcf.hpp"

#include <array>
#include <cmath>
#include <filesystem>
#include <map>

#include "body_tree.hpp"
#include "mjcf_constraints.hpp"
#include "mjcf_reader.hpp"
#include "moreau/common/error.hpp"
#include "moreau/io/mesh/mesh_file.hpp"
#include "moreau/io/os/input_file.hpp"

namespace moreau {
namespace {

using tinyxml2::XMLElement;
using namespace mjcf;
using import::MassSum;
using import::TreeBody;
using import::TreeGeom;
using import::TreeJoint;
using import::TreeJointSpec;

constexpr double kDefaultDensity = 1000.0;  // kg/m³, MuJoCo's default geom density

const std::string kSoft =
    "soft-contact parameter: moreau's contacts are rigid (Signorini and Coulomb)";

ElementRules geom_rules() {
  ElementRules r;
  r.honoured = {"name",     "type",      "size",        "fromto", "pos",  "quat",
                "euler",    "axisangle", "xyaxes",      "zaxis",  "mass", "density",
                "friction", "contype",   "conaffinity", "condim", "mesh", "priority"};
  r.visual = {"rgba", "material", "group", "user", "hfield"};
  for (const char* k : {"solref", "solimp", "solmix", "margin", "gap"}) r.warned[k] = kSoft;
  r.warned["fluidshape"] = "no fluid forces in moreau";
  r.warned["fluidcoef"] = "no fluid forces in moreau";
  return r;
}

ElementRules joint_rules() {
  ElementRules r;
  r.honoured = {"name",    "type",      "pos",       "axis",     "range", "limited",
                "damping", "stiffness", "springref", "armature", "ref",   "frictionloss"};
  r.visual = {"group", "user"};
  for (const char* k : {"solreflimit", "solimplimit", "solreffriction", "solimpfriction", "margin"})
    r.warned[k] = kSoft;
  r.warned["springdamper"] =
      "the spring's time constant and damping ratio are not read: give "
      "stiffness and damping";
  r.warned["actuatorfrcrange"] = "a joint-level actuator force range is not read yet";
  r.warned["actuatorfrclimited"] = "a joint-level actuator force range is not read yet";
  r.warned["actuatorgravcomp"] = "gravity compensation through actuators is not simulated";
  return r;
}

ElementRules frame_rules(std::set<std::string> extra) {
  ElementRules r;
  r.honoured = {"name", "pos", "quat", "euler", "axisangle", "xyaxes", "zaxis"};
  r.honoured.insert(extra.begin(), extra.end());
  r.visual = {"user"};
  r.warned["gravcomp"] = "no gravity compensation in moreau";
  return r;
}

class Importer {
 public:
  Importer(std::string source, std::string directory, ModelImportOptions options)
      : reader_(source),
        source_(std::move(source)),
        directory_(std::move(directory)),
        options_(std::move(options)) {}

  Scene run(const tinyxml2::XMLDocument& doc);

 private:
  void read_compiler(const XMLElement& e);
  void read_option(const XMLElement& e, Scene& scene, Vector3& gravity);
  void read_assets(const XMLElement& e);
  // Where elements go: the body (index into bodies_), the frame inside it that frames and
  // replicates built, the childclass in force and the name suffix of enclosing replicates.
  struct Place {
    int body = 0;
    Pose frame;
    std::string childclass;
    std::string suffix;
  };
  // One <exclude> or <pair> of <contact>, read before the world exists.
  struct ContactRule {
    const XMLElement* element = nullptr;
    Attributes attributes;
    bool exclude = false;
  };
  void read_body(const XMLElement& e, const Place& place);
  void read_children(const XMLElement& e, const Place& place);
  void read_frame(const XMLElement& e, const Place& place);
  void read_replicate(const XMLElement& e, const Place& place);
  void read_contact_section(const XMLElement& e);
  void apply_contact_rules(RigidWorld& world, const std::vector<Index>& moreau_body);
  void read_joint(const XMLElement& e, const std::string& childclass, TreeBody& body);
  void read_inertial(const XMLElement& e, TreeBody& body);
  void read_site(const XMLElement& e, const Place& place);
  TreeGeom read_geom(const XMLElement& e, const std::string& childclass);

  Reader reader_;
  std::string source_, directory_;
  std::map<std::string, TriangleMesh> meshes_;  // asset name → mesh (scaled)
  // asset name → its file and scale (a mesh from a file), for visuals
  std::map<std::string, std::pair<std::string, Vector3>> mesh_files_;
  std::vector<TreeBody> bodies_;            // [0] = the world
  ModelImportOptions options_;              // base_pose
  std::vector<ContactRule> contact_rules_;  // <contact> children, in order
  mjcf::Constraints model_;                 // sites, <tendon> and <equality> sections
};

void Importer::read_compiler(const XMLElement& e) {
  ElementRules r;
  r.honoured = {"angle",      "eulerseq",        "meshdir",   "assetdir",
                "autolimits", "inertiafromgeom", "coordinate"};
  r.warn_unknown = true;
  r.unknown_reason = "compiler option without effect on moreau's model";
  const Attributes a = reader_.attributes(e, "", r);
  auto text = [&](const char* k, std::string fallback) {
    return a.contains(k) ? a.at(k).value : fallback;
  };
  const std::string angle = text("angle", "degree");
  if (angle != "degree" && angle != "radian") reader_.fail(e, "angle", "must be degree or radian");
  reader_.compiler.degrees = angle == "degree";
  const std::string seq = text("eulerseq", "xyz");
  if (seq.size() != 3 || seq.find_first_not_of("xyzXYZ") != std::string::npos)
    reader_.fail(e, "eulerseq", "must be three letters among x, y, z, X, Y, Z");
  reader_.compiler.eulerseq = seq;
  reader_.compiler.meshdir = text("meshdir", text("assetdir", ""));
  const std::string autolimits = text("autolimits", "true");
  if (autolimits != "true" && autolimits != "false")
    reader_.fail(e, "autolimits", "must be true or false");
  reader_.compiler.autolimits = autolimits == "true";
  const std::string ifg = text("inertiafromgeom", "auto");
  if (ifg != "auto" && ifg != "true" && ifg != "false")
    reader_.fail(e, "inertiafromgeom", "must be auto, true or false");
  reader_.compiler.inertiafromgeom = ifg;
  if (text("coordinate", "local") != "local")
    reader_.fail(e, "coordinate", "only local coordinates (MuJoCo ≥ 2.3.3 has no others)");
}

void Importer::read_option(const XMLElement& e, Scene& scene, Vector3& gravity) {
  ElementRules r;
  r.honoured = {"timestep", "gravity"};
  r.warn_unknown = true;
  r.unknown_reason = "solver or physics option of MuJoCo without meaning in moreau";
  const Attributes a = reader_.attributes(e, "", r);
  const double dt = reader_.number(e, a, "timestep", 0.002);
  if (!(dt > 0)) reader_.fail(e, "timestep", "must be > 0 s");
  scene.settings.integrator = Integrator::time_stepping;
  scene.settings.time_stepping.dt = dt;
  gravity = reader_.vector3(e, a, "gravity", gravity);
  for (const auto* c : reader_.children(e)) {
    if (std::string(c->Name()) != "flag") reader_.fail_element(*c, "unknown child of <option>");
    for (const tinyxml2::XMLAttribute* at = c->FirstAttribute(); at; at = at->Next()) {
      const std::string flag = at->Name(), value = at->Value();
      // sleep="enable": moreau's island sleeping (docs/simulation.md §Sleeping)
      if (flag == "sleep" && (value == "enable" || value == "disable")) {
        scene.settings.time_stepping.contacts.sleep = value == "enable";
        continue;
      }
      reader_.warn("flag", flag, c->GetLineNum(), "MuJoCo's simulation flag", reader_.file_of(*c));
    }
  }
}

void Importer::read_assets(const XMLElement& e) {
  for (const auto* c : reader_.children(e)) {
    const std::string tag = c->Name();
    if (tag == "texture" || tag == "material" || tag == "skin") {
      reader_.warn_element(*c, "rendering only");
      continue;
    }
    if (tag != "mesh") {
      reader_.refuse_element(*c, "asset not supported (mesh, texture, material)");
      continue;
    }
    ElementRules r;
    r.honoured = {"name", "file", "scale", "vertex", "face"};
    r.warned["smoothnormal"] = "rendering only";
    r.warned["maxhullvert"] = "moreau collides with the hull of every vertex";
    r.warned["inertia"] = "moreau takes the inertia of the closed mesh";
    r.warned["normal"] = r.warned["texcoord"] = "rendering only";
    const Attributes a = reader_.attributes(*c, "", r);
    if (a.contains("vertex")) {  // inline: x y z per vertex, and triangles by index (or the hull)
      if (a.contains("file")) reader_.fail(*c, "file", "a mesh has a file or vertex, not both");
      if (!a.contains("name")) reader_.fail_element(*c, "an inline mesh needs a name");
      const Vector3 scale = reader_.vector3(*c, a, "scale", Vector3::Ones());
      const std::vector<double> x = reader_.numbers(*c, a, "vertex", 12, SIZE_MAX);
      if (x.size() % 3 != 0) reader_.fail(*c, "vertex", "needs 3 numbers per vertex");
      std::vector<Vector3> points;
      for (size_t k = 0; k < x.size(); k += 3)
        points.emplace_back(Vector3(x[k], x[k + 1], x[k + 2]).cwiseProduct(scale));
      TriangleMesh mesh;
      if (a.contains("face")) {
        const std::vector<double> f = reader_.numbers(*c, a, "face", 3, SIZE_MAX);
        mesh.vertices = points;
        for (size_t k = 0; k + 2 < f.size(); k += 3) {
          std::array<int, 3> t{};
          for (int m = 0; m < 3; ++m) {
            const double i = f[k + static_cast<size_t>(m)];
            if (i != std::floor(i) || i < 0 || i >= static_cast<double>(points.size()))
              reader_.fail(
                  *c, "face",
                  fmt::format("{} is not the index of one of its {} vertices", i, points.size()));
            t[static_cast<size_t>(m)] = static_cast<int>(i);
          }
          mesh.triangles.push_back(t);
        }
        if (f.size() % 3 != 0) reader_.fail(*c, "face", "needs 3 vertex indices per triangle");
      } else {
        try {
          mesh = convex_hull_mesh(points, reader_.where(*c));
        } catch (const std::invalid_argument& err) {
          reader_.fail(*c, "vertex", err.what());
        }
      }
      meshes_[a.at("name").value] = std::move(mesh);
      continue;
    }
    if (!a.contains("file")) reader_.fail_element(*c, "a mesh needs a file or vertex");
    const std::string file = a.at("file").value;
    std::string name =
        a.contains("name") ? a.at("name").value : std::filesystem::path(file).stem().string();
    std::filesystem::path path =
        std::filesystem::path(directory_) / reader_.compiler.meshdir / file;
    const Vector3 scale = reader_.vector3(*c, a, "scale", Vector3::Ones());
    try {
      meshes_[name] = load_mesh_file(path.string(), scale);
      mesh_files_[name] = {std::filesystem::absolute(path).lexically_normal().string(), scale};
    } catch (const std::invalid_argument& err) {
      reader_.fail(*c, "file", err.what());
    }
  }
}

// Mass properties of a homogeneous geom (mass given, or density × volume), in F.
TreeGeom Importer::read_geom(const XMLElement& e, const std::string& childclass) {
  static const ElementRules rules = geom_rules();
  const Attributes a = reader_.attributes(e, childclass, rules);
  TreeGeom g;
  g.where = reader_.where(e);
  const std::string type = a.contains("type") ? a.at("type").value : "sphere";
  std::vector<double> size =
      a.contains("size") ? reader_.numbers(e, a, "size", 1, 3) : std::vector<double>{};
  auto need = [&](size_t k) {
    if (size.size() < k)
      reader_.fail(e, "size",
                   fmt::format("a {} needs {} size number{}", type, k, k > 1 ? "s" : ""));
  };
  Pose pose{reader_.vector3(e, a, "pos", Vector3::Zero()), reader_.orientation(e, a)};
  double length = NAN;  // fromto: half the segment's length
  if (a.contains("fromto")) {
    if (type != "capsule" && type != "cylinder" && type != "box")
      reader_.fail(e, "fromto", "only capsules, cylinders and boxes take fromto");
    const auto f = reader_.numbers(e, a, "fromto", 6, 6);
    const Vector3 p0(f[0], f[1], f[2]), p1(f[3], f[4], f[5]);
    if ((p1 - p0).norm() < 1e-12) reader_.fail(e, "fromto", "the two points coincide");
    pose.position = 0.5 * (p0 + p1);
    pose.orientation = Quaternion::FromTwoVectors(Vector3::UnitZ(), (p1 - p0).normalized());
    length = 0.5 * (p1 - p0).norm();
  }
  Shape& s = g.shape;
  double volume = 0.0;
  Matrix3 unit_inertia = Matrix3::Zero();  // about the centre, shape axes, per kg
  Vector3 centre = Vector3::Zero();        // in the geom frame
  if (type == "sphere") {
    need(1);
    s = make_sphere(size[0], pose);
    volume = 4.0 / 3.0 * M_PI * std::pow(size[0], 3);
  } else if (type == "box") {
    need(std::isnan(length) ? 3 : 2);
    s = make_box(Vector3(size[0], size[1], std::isnan(length) ? size[2] : length), pose);
    volume = 8.0 * s.half_extents.prod();
  } else if (type == "capsule" || type == "cylinder") {
    need(std::isnan(length) ? 2 : 1);
    const double r = size[0], h = std::isnan(length) ? size[1] : length;
    if (type == "capsule") {
      // moreau's capsule lies along its x axis, MuJoCo's along z
      s = make_capsule(
          r, h,
          pose.compose(Pose{Vector3::Zero(),
                            Quaternion::FromTwoVectors(Vector3::UnitX(), Vector3::UnitZ())}));
      volume = M_PI * r * r * 2 * h + 4.0 / 3.0 * M_PI * r * r * r;
    } else {
      s = make_cylinder(r, h, pose);
      volume = M_PI * r * r * 2 * h;
    }
  } else if (type == "ellipsoid") {
    need(3);
    s = make_ellipsoid(Vector3(size[0], size[1], size[2]), pose);
    volume = 4.0 / 3.0 * M_PI * size[0] * size[1] * size[2];
  } else if (type == "plane") {
    s = make_plane(Vector3::UnitZ(), 0.0);
    s.offset = pose;
    g.is_plane = true;
  } else if (type == "mesh") {
    if (!a.contains("mesh")) reader_.fail_element(e, "a mesh geom needs mesh=\"name\"");
    const std::string name = a.at("mesh").value;
    if (!meshes_.contains(name)) reader_.fail(e, "mesh", "no <mesh> asset of that name");
    const TriangleMesh& mesh = meshes_.at(name);
    s = make_convex(mesh.vertices, 0.0, pose);
    if (const auto f = mesh_files_.find(name); f != mesh_files_.end())
      g.mesh_file = f->second.first, g.mesh_scale = f->second.second;
    const MeshMassProperties mp =
        mesh_mass_properties(mesh, fmt::format("{} mesh '{}'", g.where, name));
    volume = mp.volume;
    centre = mp.centroid;
    unit_inertia = mp.inertia / mp.volume;  // per kg at density 1/V
  } else {
    reader_.fail(e, "type",
                 "geom type not supported (sphere, box, capsule, cylinder, ellipsoid, plane, "
                 "mesh; hfield and sdf are not)");
  }
  if (a.contains("name")) s.name = a.at("name").value;
  // friction: its first (sliding) coefficient; condim 1 is frictionless, 4 and 6 add torsional
  // and rolling friction that moreau does not model
  const auto friction =
      a.contains("friction") ? reader_.numbers(e, a, "friction", 1, 3) : std::vector<double>{1.0};
  if (friction[0] < 0) reader_.fail(e, "friction", "must be ≥ 0");
  const double condim = reader_.number(e, a, "condim", 3);
  if (condim != 1 && condim != 3 && condim != 4 && condim != 6)
    reader_.fail(e, "condim", "must be 1, 3, 4 or 6");
  if (condim == 4 || condim == 6)
    reader_.warn("geom", "condim", a.at("condim").line,
                 "torsional and rolling friction have no meaning in moreau; the sliding part "
                 "(friction[0]) is used");
  s.mu = condim == 1 ? 0.0 : friction[0];
  auto mask = [&](const char* k) -> std::uint32_t {
    const double x = reader_.number(e, a, k, 1);
    if (x < 0 || x > 4294967295.0 || x != std::floor(x))
      reader_.fail(e, k, "must be an integer bitmask");
    return static_cast<std::uint32_t>(x);
  };
  s.contype = mask("contype");
  s.conaffinity = mask("conaffinity");
  const double priority = reader_.number(e, a, "priority", 0);
  if (priority != std::floor(priority) || std::abs(priority) > 1e9)
    reader_.fail(e, "priority", "must be an integer");
  s.priority = static_cast<int>(priority);
  if (g.is_plane) return g;
  const bool has_mass = a.contains("mass");
  const double density = reader_.number(e, a, "density", kDefaultDensity);
  g.mass = has_mass ? reader_.number(e, a, "mass", 0.0) : density * volume;
  if (g.mass < 0) reader_.fail(e, has_mass ? "mass" : "density", "must be ≥ 0");
  const Matrix3 R = (type == "mesh" ? pose : s.offset).rotation();
  if (type == "mesh") {
    g.com = pose.apply(centre);
    g.inertia = g.mass * R * unit_inertia * R.transpose();
  } else {
    g.com = pose.position;
    const Matrix3 I = shape_inertia(s, g.mass, 3);
    g.inertia = R * I * R.transpose();
  }
  return g;
}

void Importer::read_inertial(const XMLElement& e, TreeBody& body) {
  ElementRules r;
  r.honoured = {"pos",   "quat", "euler",       "axisangle",  "xyaxes",
                "zaxis", "mass", "diaginertia", "fullinertia"};
  const Attributes a = reader_.attributes(e, "", r);
  if (!a.contains("mass")) reader_.fail_element(e, "an <inertial> needs a mass");
  if (!a.contains("pos")) reader_.fail_element(e, "an <inertial> needs a pos");
  const double m = reader_.number(e, a, "mass", 0.0);
  if (!(m >= 0)) reader_.fail(e, "mass", "must be ≥ 0");
  const Pose p{reader_.vector3(e, a, "pos", Vector3::Zero()), reader_.orientation(e, a)};
  Matrix3 I = Matrix3::Zero();
  if (a.contains("diaginertia") == a.contains("fullinertia"))
    reader_.fail_element(e, "give either diaginertia or fullinertia");
  if (a.contains("diaginertia")) {
    const auto d = reader_.numbers(e, a, "diaginertia", 3, 3);
    I = Vector3(d[0], d[1], d[2]).asDiagonal();
  } else {
    const auto f = reader_.numbers(e, a, "fullinertia", 6, 6);  // Ixx Iyy Izz Ixy Ixz Iyz
    I << f[0], f[3], f[4], f[3], f[1], f[5], f[4], f[5], f[2];
  }
  const Matrix3 R = p.rotation();
  body.inertial = MassSum{};
  body.inertial.add(m, p.position, R * I * R.transpose());
  body.has_inertial = true;
}

void Importer::read_joint(const XMLElement& e, const std::string& childclass, TreeBody& body) {
  const std::string tag = e.Name();
  if (body.is_free() || (tag == "freejoint" && body.moves()))
    reader_.fail_element(
        e, fmt::format("body '{}': a free joint must be the body's only joint", body.name));
  TreeJointSpec joint;
  if (tag == "freejoint") {
    ElementRules r;
    r.honoured = {"name"};
    r.visual = {"group"};
    r.warned["align"] = "moreau's body frames sit at the centre of mass already";
    reader_.attributes(e, "", r);
    joint.kind = TreeJoint::free;
    body.joints.push_back(joint);
    return;
  }
  static const ElementRules rules = joint_rules();
  const Attributes a = reader_.attributes(e, childclass, rules);
  const std::string type = a.contains("type") ? a.at("type").value : "hinge";
  if (type != "free" && type != "hinge" && type != "slide" && type != "ball")
    reader_.fail(e, "type", "must be free, hinge, slide or ball");
  if (type == "free" && body.moves())
    reader_.fail(e, "type", "a free joint must be the body's only joint");
  joint.kind = type == "free"    ? TreeJoint::free
               : type == "hinge" ? TreeJoint::revolute
               : type == "slide" ? TreeJoint::prismatic
                                 : TreeJoint::ball;
  if (a.contains("name")) joint.name = a.at("name").value;
  joint.pos = reader_.vector3(e, a, "pos", Vector3::Zero());
  joint.axis = reader_.vector3(e, a, "axis", Vector3::UnitZ());
  if (joint.axis.norm() < 1e-12) reader_.fail(e, "axis", "must be nonzero");
  const bool angular = type != "slide";
  auto coordinate = [&](double x) { return angular ? reader_.angle(x) : x; };
  // MuJoCo's qpos is `ref` at the model's pose; moreau's coordinate is 0 there
  const double ref =
      type == "hinge" || type == "slide" ? coordinate(reader_.number(e, a, "ref", 0.0)) : 0.0;
  auto nonnegative = [&](const char* key) {
    const double x = reader_.number(e, a, key, 0.0);
    if (!(x >= 0.0)) reader_.fail(e, key, "must be ≥ 0");
    return x;
  };
  joint.damping = nonnegative("damping");
  joint.stiffness = nonnegative("stiffness");
  joint.armature = nonnegative("armature");
  joint.frictionloss = nonnegative("frictionloss");
  joint.qpos0 = ref;
  if (type == "hinge" || type == "slide")
    joint.reference = coordinate(reader_.number(e, a, "springref", 0.0)) - ref;
  const std::string limited = a.contains("limited") ? a.at("limited").value : "auto";
  if (limited != "auto" && limited != "true" && limited != "false")
    reader_.fail(e, "limited", "must be auto, true or false");
  joint.limited = limited == "true" ||
                  (limited == "auto" && reader_.compiler.autolimits && a.contains("range"));
  if (limited == "auto" && !reader_.compiler.autolimits && a.contains("range"))
    reader_.fail(e, "range", "with compiler autolimits=\"false\", set limited=\"true\" too");
  if (joint.limited) {
    if (type == "free") reader_.fail(e, "range", "a free joint has no limits");
    if (!a.contains("range")) reader_.fail(e, "limited", "a limited joint needs a range");
    const auto range = reader_.numbers(e, a, "range", 2, 2);
    if (!(range[0] <= range[1])) reader_.fail(e, "range", "needs lower ≤ upper");
    joint.lower = type == "ball" ? 0.0 : coordinate(range[0]) - ref;
    joint.upper = coordinate(range[1]) - (type == "ball" ? 0.0 : ref);
    if (type == "ball" && !(joint.upper > 0))
      reader_.fail(e, "range", "a ball joint's range is \"0 max\" with max > 0");
  }
  body.joints.push_back(joint);
}

// The name with the suffixes of the enclosing replicates (empty stays empty).
std::string suffixed(const std::string& name, const std::string& suffix) {
  return name.empty() ? name : name + suffix;
}

void Importer::read_body(const XMLElement& e, const Place& place) {
  static const ElementRules rules = frame_rules({"childclass"});
  const Attributes a = reader_.attributes(e, place.childclass, rules);
  if (e.Attribute("mocap")) reader_.fail(e, "mocap", "mocap bodies are not supported");
  TreeBody body;
  body.where = reader_.where(e);
  body.parent = place.body;
  body.name = a.contains("name") ? suffixed(a.at("name").value, place.suffix) : "";
  // F = F_parent ∘ frames ∘ (pos, orientation)
  body.frame =
      bodies_[static_cast<size_t>(place.body)]
          .frame.compose(place.frame)
          .compose(Pose{reader_.vector3(e, a, "pos", Vector3::Zero()), reader_.orientation(e, a)});
  const int index = static_cast<int>(bodies_.size());
  bodies_.push_back(body);
  Place inside{index, Pose{},
               a.contains("childclass") ? a.at("childclass").value : place.childclass,
               place.suffix};
  read_children(e, inside);
}

// The children of a body (or of a frame or replicate inside one), placed by `place`: geoms and
// bodies in the frame, joints and inertials of the body itself (MuJoCo XML reference §frame,
// §replicate: frames and replicates only move what they hold).
void Importer::read_children(const XMLElement& e, const Place& place) {
  for (const auto* c : reader_.children(e)) {
    const std::string tag = c->Name();
    TreeBody& self = bodies_[static_cast<size_t>(place.body)];
    if (tag == "geom") {
      TreeGeom g = read_geom(*c, place.childclass);
      g.shape.name = suffixed(g.shape.name, place.suffix);
      // move it by the enclosing frames: offset, centre and inertia
      g.shape.offset = place.frame.compose(g.shape.offset);
      g.com = place.frame.apply(g.com);
      const Matrix3 R = place.frame.rotation();
      g.inertia = R * g.inertia * R.transpose();
      // A geom that collides with nothing (contype = conaffinity = 0, MuJoCo's visual geoms) is
      // also a visual (model/rigid/visual.hpp): a mesh drawn as its file's triangles. It keeps
      // its mass, as in MuJoCo.
      if (g.shape.contype == 0 && g.shape.conaffinity == 0 && !g.is_plane) {
        Visual v;
        v.shape = g.shape;
        if (!g.mesh_file.empty()) v.mesh = g.mesh_file, v.scale = g.mesh_scale;
        self.visuals.push_back(std::move(v));
      }
      self.geoms.push_back(std::move(g));
    } else if (tag == "body") {
      read_body(*c, place);
    } else if (tag == "frame") {
      read_frame(*c, place);
    } else if (tag == "replicate") {
      read_replicate(*c, place);
    } else if (place.body == 0 && (tag == "joint" || tag == "freejoint" || tag == "inertial")) {
      reader_.fail_element(*c, "the world body has no joints or inertial");
    } else if (tag == "joint" || tag == "freejoint") {
      if (e.Name() != std::string("body"))
        reader_.fail_element(*c, "a joint belongs directly to its body (not inside a frame)");
      read_joint(*c, place.childclass, self);
      self.joints.back().name = suffixed(self.joints.back().name, place.suffix);
      if (self.is_free() && self.parent != 0)
        reader_.fail_element(*c, "a free joint belongs to a child of the world body");
    } else if (tag == "inertial") {
      if (e.Name() != std::string("body"))
        reader_.fail_element(*c, "an inertial belongs directly to its body");
      read_inertial(*c, self);
    } else if (tag == "site") {
      read_site(*c, place);
    } else if (tag == "camera" || tag == "light") {
      reader_.warn_element(*c, "markers, cameras and lights have no physics");
    } else {
      reader_.fail_element(
          *c, fmt::format("element not supported inside <{}> (docs/mjcf.md)", e.Name()));
    }
  }
}

// <site name pos>: a point of its body, in the world at the model's pose (tendon paths; sites
// have no physics of their own).
void Importer::read_site(const XMLElement& e, const Place& place) {
  ElementRules rules = frame_rules({});
  rules.visual.insert({"type", "size", "rgba", "material", "group", "fromto"});
  const Attributes a = reader_.attributes(e, place.childclass, rules);
  if (!a.contains("name")) return;
  const Pose frame = bodies_[static_cast<size_t>(place.body)].frame.compose(place.frame);
  model_.sites[suffixed(a.at("name").value, place.suffix)] = mjcf::SiteSpec{
      place.body, frame.apply(reader_.vector3(e, a, "pos", Vector3::Zero())), reader_.where(e)};
}

// <frame pos orientation childclass>: its children placed in it (MuJoCo XML reference §frame).
void Importer::read_frame(const XMLElement& e, const Place& place) {
  static const ElementRules rules = frame_rules({"childclass"});
  const Attributes a = reader_.attributes(e, place.childclass, rules);
  Place inside = place;
  inside.frame = place.frame.compose(
      Pose{reader_.vector3(e, a, "pos", Vector3::Zero()), reader_.orientation(e, a)});
  if (a.contains("childclass")) inside.childclass = a.at("childclass").value;
  read_children(e, inside);
}

// <replicate count offset euler sep>: `count` copies of its children, copy i in the frame
// (p_i, R^i) with p_0 = 0, p_{i+1} = p_i + R^i offset and R the rotation of `euler`; names get
// sep + i, zero-padded to the digits of count (MuJoCo XML reference §replicate; its reader's
// frame accumulation and name suffix). Nested replicates append their suffix after the inner's.
void Importer::read_replicate(const XMLElement& e, const Place& place) {
  ElementRules rules;
  rules.honoured = {"count", "offset", "euler", "sep", "childclass"};
  const Attributes a = reader_.attributes(e, place.childclass, rules);
  if (!a.contains("count")) reader_.fail_element(e, "a replicate needs a count");
  const double count = reader_.number(e, a, "count", 0);
  if (!(count >= 1) || count != std::floor(count) || count > 1e6)
    reader_.fail(e, "count", "must be a positive integer");
  const Vector3 offset = reader_.vector3(e, a, "offset", Vector3::Zero());
  const Vector3 euler = reader_.vector3(e, a, "euler", Vector3::Zero());
  const std::string sep = a.contains("sep") ? a.at("sep").value : "";
  const int n = static_cast<int>(count);
  const size_t digits = std::to_string(n).size();
  Vector3 p = Vector3::Zero();
  for (int i = 0; i < n; ++i) {
    const Quaternion Ri = reader_.euler_rotation(i * euler);
    Place copy = place;
    copy.frame = place.frame.compose(Pose{p, Ri});
    if (a.contains("childclass")) copy.childclass = a.at("childclass").value;
    const std::string index = std::to_string(i);
    copy.suffix = sep + std::string(digits - index.size(), '0') + index + place.suffix;
    read_children(e, copy);
    p += Ri * offset;
  }
}

// <contact>: <exclude body1 body2> and <pair geom1 geom2 friction condim …> (MuJoCo XML
// reference §contact), applied once the world is built.
void Importer::read_contact_section(const XMLElement& e) {
  for (const auto* c : reader_.children(e)) {
    const std::string tag = c->Name();
    ElementRules rules;
    if (tag == "exclude") {
      rules.honoured = {"name", "body1", "body2"};
    } else if (tag == "pair") {
      rules.honoured = {"name", "geom1", "geom2", "friction", "condim"};
      for (const char* k : {"solref", "solreffriction", "solimp", "margin", "gap"})
        rules.warned[k] = kSoft;
    } else {
      reader_.fail_element(*c, "a <contact> holds <exclude> and <pair>");
    }
    ContactRule rule;
    rule.element = c;
    rule.attributes = reader_.attributes(*c, "", rules);
    rule.exclude = tag == "exclude";
    for (const char* k : rule.exclude ? std::array{"body1", "body2"} : std::array{"geom1", "geom2"})
      if (!rule.attributes.contains(k))
        reader_.fail_element(*c, fmt::format("<{}> needs {}", tag, k));
    contact_rules_.push_back(std::move(rule));
  }
}

// The rules of <contact> on the built world: exclusions by moreau body (a welded body's is its
// owner's), explicit pairs with their own friction.
void Importer::apply_contact_rules(RigidWorld& world, const std::vector<Index>& moreau_body) {
  if (contact_rules_.empty()) return;
  std::map<std::string, Index> bodies;                   // MJCF body name → moreau body
  std::map<std::string, std::pair<Index, Index>> geoms;  // geom name → (moreau body, shape)
  for (size_t i = 0; i < bodies_.size(); ++i)
    if (!bodies_[i].name.empty()) bodies.emplace(bodies_[i].name, moreau_body[i]);
  for (Index b = 0; b < world.body_count(); ++b) {
    const auto& shapes = world.body(b).shapes;
    for (size_t k = 0; k < shapes.size(); ++k)
      if (!shapes[k].name.empty())
        geoms.emplace(shapes[k].name, std::pair{b, static_cast<Index>(k)});
  }
  auto body_index = [&](const ContactRule& r, const char* key) {
    const auto it = bodies.find(r.attributes.at(key).value);
    if (it == bodies.end()) reader_.fail(*r.element, key, "no body of that name");
    return it->second;
  };
  auto geom_index = [&](const ContactRule& r, const char* key) {
    const auto it = geoms.find(r.attributes.at(key).value);
    if (it == geoms.end()) reader_.fail(*r.element, key, "no geom of that name");
    return it->second;
  };
  for (const ContactRule& r : contact_rules_) {
    if (r.exclude) {
      world.exclude_collisions(body_index(r, "body1"), body_index(r, "body2"));
      continue;
    }
    const auto [b1, s1] = geom_index(r, "geom1");
    const auto [b2, s2] = geom_index(r, "geom2");
    ContactPair pair;
    if (r.attributes.contains("name")) pair.name = r.attributes.at("name").value;
    pair.body_a = b1, pair.shape_a = s1, pair.body_b = b2, pair.shape_b = s2;
    ContactMaterial m = world.default_material();
    const auto friction = r.attributes.contains("friction")
                              ? reader_.numbers(*r.element, r.attributes, "friction", 1, 5)
                              : std::vector<double>{std::max(world.body(b1).shapes[s1].mu,
                                                             world.body(b2).shapes[s2].mu)};
    const double condim = reader_.number(*r.element, r.attributes, "condim", 3);
    if (condim != 1 && condim != 3 && condim != 4 && condim != 6)
      reader_.fail(*r.element, "condim", "must be 1, 3, 4 or 6");
    m.mu = condim == 1 ? 0.0 : friction[0];
    if (!(m.mu >= 0)) reader_.fail(*r.element, "friction", "must be ≥ 0");
    pair.material = m;
    try {
      world.add_contact_pair(pair);
    } catch (const std::invalid_argument& err) {
      reader_.fail_element(*r.element, err.what());
    }
  }
}

Scene Importer::run(const tinyxml2::XMLDocument& doc) {
  const XMLElement* root = doc.RootElement();
  if (!root || std::string(root->Name()) != "mujoco")
    throw_invalid("{}: the root element must be <mujoco>", source_);
  Scene scene;
  scene.source = source_;
  scene.dimension = 3;
  scene.settings.integrator = Integrator::time_stepping;
  scene.settings.time_stepping.dt = 0.002;
  scene.collision.margin = kImportedContactMargin;
  const char* model = root->Attribute("model");
  scene.description = fmt::format("MJCF model {}", model ? model : source_);
  Vector3 gravity(0, 0, -9.81);
  reader_.set_root(doc, directory_);
  const auto top = reader_.children(*root);  // includes resolved, once
  // compiler first: it changes how every number is read
  for (const auto* c : top)
    if (std::string(c->Name()) == "compiler") read_compiler(*c);
  TreeBody world;
  world.name = "world";
  world.where = source_ + ": <worldbody>";
  bodies_.push_back(world);
  for (const auto* c : top) {
    const std::string tag = c->Name();
    if (tag == "compiler") continue;
    if (tag == "option") {
      read_option(*c, scene, gravity);
    } else if (tag == "default") {
      reader_.read_defaults(*c, "");
    } else if (tag == "asset") {
      read_assets(*c);
    } else if (tag == "worldbody") {
      read_children(*c, Place{0, Pose{}, "", ""});
    } else if (tag == "contact") {
      read_contact_section(*c);
    } else if (tag == "tendon") {
      model_.tendon_sections.push_back(c);
    } else if (tag == "equality") {
      model_.equality_sections.push_back(c);
    } else if (tag == "size" || tag == "visual" || tag == "statistic") {
      reader_.warn_element(*c, "memory sizes and rendering settings have no meaning in moreau");
    } else if (tag == "actuator") {
      model_.actuator_sections.push_back(c);
    } else if (tag == "keyframe") {
      model_.keyframe_sections.push_back(c);
    } else if (tag == "sensor") {
      reader_.warn_element(*c, "sensors are not read yet");
    } else {
      reader_.refuse_element(*c, "element not supported by moreau's MJCF import (docs/mjcf.md)");
    }
  }
  reader_.throw_refusals();  // everything the file uses that moreau refuses, in one error
  std::vector<Index> moreau_body;
  scene.world = import::build_world(bodies_, gravity, reader_.compiler.inertiafromgeom == "true",
                                    &moreau_body);
  apply_contact_rules(*scene.world, moreau_body);
  mjcf::add_constraints(reader_, bodies_, moreau_body, model_, *scene.world);
  mjcf::add_actuators(reader_, bodies_, model_, *scene.world);
  mjcf::add_keyframes(reader_, bodies_, moreau_body, model_, *scene.world);
  if (options_.base_pose)
    scene.base_pose_edits =
        mjcf::free_base_placement(bodies_, moreau_body, *options_.base_pose, source_, *scene.world);
  if (scene.world->dynamic_body_count() == 0)
    throw_invalid("{}: no moving body (a body needs a joint, e.g. <freejoint/>, to move)", source_);
  scene.warnings = reader_.warnings();
  return scene;
}

}  // namespace

Scene parse_mjcf_text(const std::string& text, const std::string& source,
                      const std::string& directory, const ModelImportOptions& options) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS)
    throw_invalid("{}:{}: not well-formed XML: {}", source, doc.ErrorLineNum(), doc.ErrorStr());
  Scene scene = Importer(source, directory, options).run(doc);
  return scene;
}

Scene load_mjcf(const std::string& path, const ModelImportOptions& options) {
  Scene scene = parse_mjcf_text(read_text_file(path), path,
                                std::filesystem::path(path).parent_path().string(), options);
  scene.name = std::filesystem::path(path).stem().string();
  return scene;
}

}  // namespace moreau
