// MJCF → Scene (io/mjcf.hpp, docs/mjcf.md): the body tree, geoms, inertials and joints of a
// MuJoCo model as a RigidWorld with joints, limits and per-shape friction.
#include "moreau/io/mjcf.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "body_tree.hpp"
#include "mjcf_reader.hpp"
#include "moreau/common/error.hpp"
#include "moreau/io/mesh_file.hpp"

namespace moreau {
namespace {

using tinyxml2::XMLElement;
using namespace mjcf;
using import::MassSum;
using import::TreeBody;
using import::TreeGeom;
using import::TreeJoint;

constexpr double kDefaultDensity = 1000.0;  // kg/m³, MuJoCo's default geom density

const std::string kSoft =
    "soft-contact parameter: moreau's contacts are rigid (Signorini and Coulomb)";

ElementRules geom_rules() {
  ElementRules r;
  r.honoured = {"name",     "type",      "size",        "fromto", "pos",  "quat",
                "euler",    "axisangle", "xyaxes",      "zaxis",  "mass", "density",
                "friction", "contype",   "conaffinity", "condim", "mesh"};
  r.visual = {"rgba", "material", "group", "user", "hfield"};
  for (const char* k : {"solref", "solimp", "solmix", "margin", "gap"}) r.warned[k] = kSoft;
  r.warned["priority"] = "friction is combined by the larger coefficient (no priorities yet)";
  r.warned["fluidshape"] = "no fluid forces in moreau";
  r.warned["fluidcoef"] = "no fluid forces in moreau";
  return r;
}

ElementRules joint_rules() {
  ElementRules r;
  r.honoured = {"name", "type", "pos", "axis", "range", "limited"};
  r.visual = {"group", "user"};
  for (const char* k : {"solreflimit", "solimplimit", "solreffriction", "solimpfriction", "margin"})
    r.warned[k] = kSoft;
  r.warned["damping"] = "no joint damping in moreau (passive joints)";
  r.warned["stiffness"] = "no joint springs in moreau";
  r.warned["springref"] = "no joint springs in moreau";
  r.warned["springdamper"] = "no joint springs in moreau";
  r.warned["armature"] = "no armature inertia in moreau";
  r.warned["frictionloss"] = "no dry joint friction in moreau";
  r.warned["ref"] = "the joint's coordinate is measured from the model's pose";
  r.warned["actuatorfrcrange"] = "actuators are not simulated";
  r.warned["actuatorfrclimited"] = "actuators are not simulated";
  r.warned["actuatorgravcomp"] = "actuators are not simulated";
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
  Importer(std::string source, std::string directory)
      : reader_(source), source_(std::move(source)), directory_(std::move(directory)) {}

  Scene run(const tinyxml2::XMLDocument& doc);

 private:
  void read_compiler(const XMLElement& e);
  void read_option(const XMLElement& e, Scene& scene, Vector3& gravity);
  void read_assets(const XMLElement& e);
  void read_body(const XMLElement& e, int parent, const std::string& childclass);
  void read_joint(const XMLElement& e, const std::string& childclass, TreeBody& body);
  void read_inertial(const XMLElement& e, TreeBody& body);
  TreeGeom read_geom(const XMLElement& e, const std::string& childclass);

  Reader reader_;
  std::string source_, directory_;
  std::map<std::string, TriangleMesh> meshes_;  // asset name → mesh (scaled)
  std::vector<TreeBody> bodies_;                // [0] = the world
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
  for (const auto* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (std::string(c->Name()) != "flag") reader_.fail_element(*c, "unknown child of <option>");
    for (const tinyxml2::XMLAttribute* at = c->FirstAttribute(); at; at = at->Next())
      reader_.warn("flag", at->Name(), c->GetLineNum(), "MuJoCo's simulation flag");
  }
}

void Importer::read_assets(const XMLElement& e) {
  for (const auto* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) {
    const std::string tag = c->Name();
    if (tag == "texture" || tag == "material" || tag == "skin") {
      reader_.warn_element(*c, "rendering only");
      continue;
    }
    if (tag != "mesh") reader_.fail_element(*c, "asset not supported (mesh, texture, material)");
    ElementRules r;
    r.honoured = {"name", "file", "scale"};
    r.warned["smoothnormal"] = "rendering only";
    r.warned["maxhullvert"] = "moreau collides with the hull of every vertex";
    r.warned["inertia"] = "moreau takes the inertia of the closed mesh";
    const Attributes a = reader_.attributes(*c, "", r);
    if (!a.contains("file")) reader_.fail_element(*c, "a mesh needs a file");
    const std::string file = a.at("file").value;
    std::string name =
        a.contains("name") ? a.at("name").value : std::filesystem::path(file).stem().string();
    std::filesystem::path path =
        std::filesystem::path(directory_) / reader_.compiler.meshdir / file;
    const Vector3 scale = reader_.vector3(*c, a, "scale", Vector3::Ones());
    try {
      meshes_[name] = load_mesh_file(path.string(), scale);
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
    const MeshMassProperties mp =
        mesh_mass_properties(mesh, fmt::format("{} mesh '{}'", g.where, name));
    volume = mp.volume;
    centre = mp.centroid;
    unit_inertia = mp.inertia / mp.volume;  // per kg at density 1/V
  } else {
    reader_.fail(e, "type",
                 "geom type not supported (sphere, box, capsule, cylinder, plane, mesh)");
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
  if (body.joint != TreeJoint::none)
    reader_.fail_element(e, fmt::format("body '{}' has a second joint: moreau links two bodies by "
                                        "one joint (free, hinge, slide or ball)",
                                        body.name));
  if (tag == "freejoint") {
    ElementRules r;
    r.honoured = {"name"};
    r.visual = {"group"};
    r.warned["align"] = "moreau's body frames sit at the centre of mass already";
    reader_.attributes(e, "", r);
    body.joint = TreeJoint::free;
    return;
  }
  static const ElementRules rules = joint_rules();
  const Attributes a = reader_.attributes(e, childclass, rules);
  const std::string type = a.contains("type") ? a.at("type").value : "hinge";
  if (type != "free" && type != "hinge" && type != "slide" && type != "ball")
    reader_.fail(e, "type", "must be free, hinge, slide or ball");
  body.joint = type == "free"    ? TreeJoint::free
               : type == "hinge" ? TreeJoint::revolute
               : type == "slide" ? TreeJoint::prismatic
                                 : TreeJoint::ball;
  if (a.contains("name")) body.joint_name = a.at("name").value;
  body.joint_pos = reader_.vector3(e, a, "pos", Vector3::Zero());
  body.joint_axis = reader_.vector3(e, a, "axis", Vector3::UnitZ());
  if (body.joint_axis.norm() < 1e-12) reader_.fail(e, "axis", "must be nonzero");
  const std::string limited = a.contains("limited") ? a.at("limited").value : "auto";
  if (limited != "auto" && limited != "true" && limited != "false")
    reader_.fail(e, "limited", "must be auto, true or false");
  body.limited = limited == "true" ||
                 (limited == "auto" && reader_.compiler.autolimits && a.contains("range"));
  if (limited == "auto" && !reader_.compiler.autolimits && a.contains("range"))
    reader_.fail(e, "range", "with compiler autolimits=\"false\", set limited=\"true\" too");
  if (!body.limited) return;
  if (type == "free") reader_.fail(e, "range", "a free joint has no limits");
  if (!a.contains("range")) reader_.fail(e, "limited", "a limited joint needs a range");
  const auto range = reader_.numbers(e, a, "range", 2, 2);
  if (!(range[0] <= range[1])) reader_.fail(e, "range", "needs lower ≤ upper");
  const bool angular = type != "slide";
  body.lower = type == "ball" ? 0.0 : angular ? reader_.angle(range[0]) : range[0];
  body.upper = angular ? reader_.angle(range[1]) : range[1];
  if (type == "ball" && !(body.upper > 0))
    reader_.fail(e, "range", "a ball joint's range is \"0 max\" with max > 0");
}

void Importer::read_body(const XMLElement& e, int parent, const std::string& parent_class) {
  static const ElementRules rules = frame_rules({"childclass"});
  const Attributes a = reader_.attributes(e, parent_class, rules);
  if (e.Attribute("mocap")) reader_.fail(e, "mocap", "mocap bodies are not supported");
  TreeBody body;
  body.where = reader_.where(e);
  body.parent = parent;
  body.name = a.contains("name") ? a.at("name").value : "";
  const std::string childclass = a.contains("childclass") ? a.at("childclass").value : parent_class;
  body.frame = bodies_[static_cast<size_t>(parent)].frame.compose(
      Pose{reader_.vector3(e, a, "pos", Vector3::Zero()), reader_.orientation(e, a)});
  const int index = static_cast<int>(bodies_.size());
  bodies_.push_back(body);
  for (const auto* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) {
    const std::string tag = c->Name();
    TreeBody& self = bodies_[static_cast<size_t>(index)];
    if (tag == "geom") {
      self.geoms.push_back(read_geom(*c, childclass));
    } else if (tag == "joint" || tag == "freejoint") {
      read_joint(*c, childclass, self);
      if (self.joint == TreeJoint::free && parent != 0)
        reader_.fail_element(*c, "a free joint belongs to a child of the world body");
    } else if (tag == "inertial") {
      read_inertial(*c, self);
    } else if (tag == "body") {
      read_body(*c, index, childclass);
    } else if (tag == "site" || tag == "camera" || tag == "light") {
      reader_.warn_element(*c, "markers, cameras and lights have no physics");
    } else {
      reader_.fail_element(*c, "element not supported inside <body> (docs/mjcf.md)");
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
  // compiler first: it changes how every number is read
  for (const auto* c = root->FirstChildElement("compiler"); c;
       c = c->NextSiblingElement("compiler"))
    read_compiler(*c);
  TreeBody world;
  world.name = "world";
  world.where = source_ + ": <worldbody>";
  bodies_.push_back(world);
  for (const auto* c = root->FirstChildElement(); c; c = c->NextSiblingElement()) {
    const std::string tag = c->Name();
    if (tag == "compiler") continue;
    if (tag == "option") {
      read_option(*c, scene, gravity);
    } else if (tag == "default") {
      reader_.read_defaults(*c, "");
    } else if (tag == "asset") {
      read_assets(*c);
    } else if (tag == "worldbody") {
      for (const auto* b = c->FirstChildElement(); b; b = b->NextSiblingElement()) {
        const std::string t = b->Name();
        if (t == "geom") {
          bodies_[0].geoms.push_back(read_geom(*b, ""));
        } else if (t == "body") {
          read_body(*b, 0, "");
        } else if (t == "site" || t == "camera" || t == "light") {
          reader_.warn_element(*b, "markers, cameras and lights have no physics");
        } else {
          reader_.fail_element(*b, "element not supported inside <worldbody> (docs/mjcf.md)");
        }
      }
    } else if (tag == "size" || tag == "visual" || tag == "statistic") {
      reader_.warn_element(*c, "memory sizes and rendering settings have no meaning in moreau");
    } else if (tag == "actuator" || tag == "sensor" || tag == "keyframe") {
      reader_.warn_element(*c,
                           "moreau simulates the passive model (no actuators, sensors or "
                           "keyframes)");
    } else {
      reader_.fail_element(*c, "element not supported by moreau's MJCF import (docs/mjcf.md)");
    }
  }
  scene.world = import::build_world(bodies_, gravity, reader_.compiler.inertiafromgeom == "true");
  if (scene.world->dynamic_body_count() == 0)
    throw_invalid("{}: no moving body (a body needs a joint, e.g. <freejoint/>, to move)", source_);
  scene.warnings = reader_.warnings();
  return scene;
}

}  // namespace

Scene parse_mjcf_text(const std::string& text, const std::string& source,
                      const std::string& directory) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS)
    throw_invalid("{}:{}: not well-formed XML: {}", source, doc.ErrorLineNum(), doc.ErrorStr());
  Scene scene = Importer(source, directory).run(doc);
  check_initial_configuration(scene);
  return scene;
}

Scene load_mjcf(const std::string& path) {
  std::ifstream in(path);
  MOREAU_REQUIRE(in.good(), "{}: cannot open the file", path);
  std::stringstream text;
  text << in.rdbuf();
  Scene scene =
      parse_mjcf_text(text.str(), path, std::filesystem::path(path).parent_path().string());
  scene.name = std::filesystem::path(path).stem().string();
  return scene;
}

}  // namespace moreau
