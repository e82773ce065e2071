// URDF → Scene (io/import/urdf.hpp, docs/urdf.md): links, collision geometry, inertials and joints
// through urdfdom, turned into a RigidWorld by the body tree shared with the MJCF import.
#include "moreau/io/import/urdf.hpp"

#include <console_bridge/console.h>
#include <urdf_parser/urdf_parser.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <set>

#include "body_tree.hpp"
#include "moreau/common/error.hpp"
#include "moreau/io/mesh/mesh_file.hpp"
#include "package_uri.hpp"
#include "srdf_file.hpp"
#include "urdf_schema.hpp"
#include "moreau/io/os/input_file.hpp"

namespace moreau {
namespace {

// Coulomb coefficient of every contact (URDF describes none), docs/urdf.md.
constexpr double kUrdfFriction = 0.5;

using import::TreeBody;
using import::TreeGeom;
using import::TreeJoint;
using import::TreeJointSpec;

// Keeps urdfdom's error messages (console_bridge) instead of printing them.
class MessageCapture : public console_bridge::OutputHandler {
 public:
  MessageCapture() { console_bridge::useOutputHandler(this); }
  ~MessageCapture() override { console_bridge::restorePreviousOutputHandler(); }
  MessageCapture(const MessageCapture&) = delete;
  MessageCapture& operator=(const MessageCapture&) = delete;
  void log(const std::string& text, console_bridge::LogLevel level, const char*, int) override {
    if (level >= console_bridge::CONSOLE_BRIDGE_LOG_ERROR)
      errors += (errors.empty() ? "" : "; ") + text;
  }
  std::string errors;  // the error lines, joined
};

Pose to_pose(const urdf::Pose& p) {
  return Pose{Vector3(p.position.x, p.position.y, p.position.z),
              Quaternion(p.rotation.w, p.rotation.x, p.rotation.y, p.rotation.z).normalized()};
}

// A box, sphere or cylinder (axis z, as URDF's) placed by `origin`; nothing for a mesh.
std::optional<Shape> primitive_shape(const urdf::Geometry& g, const Pose& origin) {
  switch (g.type) {
    case urdf::Geometry::SPHERE:
      return make_sphere(static_cast<const urdf::Sphere&>(g).radius, origin);
    case urdf::Geometry::BOX: {
      const urdf::Vector3& d = static_cast<const urdf::Box&>(g).dim;
      return make_box(0.5 * Vector3(d.x, d.y, d.z), origin);
    }
    case urdf::Geometry::CYLINDER: {
      const auto& cyl = static_cast<const urdf::Cylinder&>(g);
      return make_cylinder(cyl.radius, 0.5 * cyl.length, origin);
    }
    default:
      return std::nullopt;
  }
}

class Importer {
 public:
  // The file at `path`, or `text` when given (path then names and places it).
  Importer(std::string path, const ModelImportOptions& options,
           std::optional<std::string> text = std::nullopt)
      : path_(std::move(path)), options_(options), text_(std::move(text)) {}

  Scene run();

 private:
  void add_link(const urdf::Link& link, int parent, const Pose& frame, TreeJoint joint,
                const urdf::Joint* via);
  // The shapes of a <collision>: one, or one convex piece per mesh of a mesh file.
  std::vector<TreeGeom> collision_geoms(const urdf::Link& link, const urdf::Collision& c) const;
  // What a <visual> draws (model/rigid/visual.hpp), placed by its origin, in its material's
  // <color>; nothing, with a warning, when its mesh file is not found (the viewer then draws the
  // collision shapes): the simulation does not need it.
  std::optional<Visual> visual_item(const urdf::Link& link, const urdf::Visual& v);
  void warn(const std::string& what, const std::string& reason);
  // I itself when its principal moments λ₁ ≤ λ₂ ≤ λ₃ are ≥ 0 and satisfy the triangle
  // inequality λ₁ + λ₂ ≥ λ₃ (a rigid body's); else, with --balance-inertia, every principal
  // moment set to their mean (MuJoCo's compiler balanceinertia), and otherwise an error naming
  // the link and the moments.
  Matrix3 checked_inertia(const Matrix3& I, const std::string& where) const;

  std::string path_;
  ModelImportOptions options_;
  std::optional<std::string> text_;
  std::vector<TreeBody> bodies_;
  // A <mimic>: joint = multiplier × mimicked + offset (a coupling, model/rigid/equality.hpp).
  struct Mimic {
    std::string joint, mimicked;
    double multiplier = 1.0, offset = 0.0;
    std::string where;
  };
  std::vector<Mimic> mimics_;
  // A motor per revolute, continuous and prismatic joint that does not mimic another: its name
  // and effort limit (0: none).
  std::vector<std::pair<std::string, double>> motors_;
  // The couplings of the <mimic> joints, added to the built world.
  void add_mimics(RigidWorld& world) const;
  // Links adjacent in the tree never collide (after fixed joints are merged; a body without
  // shapes passes its adjacency on to its children), nor the SRDF's <disable_collisions> pairs;
  // `body` maps each tree body to its moreau body.
  void exclude_adjacent_links(RigidWorld& world, const std::vector<Index>& body);
  void exclude_branches_of_a_welded_base(RigidWorld& world, const std::vector<Index>& body);
  void exclude_srdf_pairs(RigidWorld& world, const std::vector<Index>& body);
  std::vector<std::string> warnings_;
  std::set<std::string> warned_;
};

Matrix3 Importer::checked_inertia(const Matrix3& I, const std::string& where) const {
  const Eigen::SelfAdjointEigenSolver<Matrix3> eig(I);
  const Vector3 l = eig.eigenvalues();  // ascending
  const double slack = 1e-9 * std::max(l.cwiseAbs().maxCoeff(), 1e-300);
  MOREAU_REQUIRE(l[0] >= -slack,
                 "{}: <inertia> has a negative principal moment ({:.6g}, {:.6g}, "
                 "{:.6g} kg·m²): not a body's inertia",
                 where, l[0], l[1], l[2]);
  if (l[0] + l[1] >= l[2] - slack) return I;
  MOREAU_REQUIRE(options_.balance_inertia,
                 "{}: <inertia> breaks the triangle inequality: its principal moments {:.6g} + "
                 "{:.6g} < {:.6g} kg·m² (no rigid body has them; --balance-inertia sets them to "
                 "their mean, as MuJoCo's balanceinertia)",
                 where, l[0], l[1], l[2]);
  return Matrix3::Identity() * l.mean();
}

void Importer::warn(const std::string& what, const std::string& reason) {
  if (warned_.insert(what).second)
    warnings_.push_back(fmt::format("{}: {} ignored: {}", path_, what, reason));
}

std::vector<TreeGeom> Importer::collision_geoms(const urdf::Link& link,
                                                const urdf::Collision& c) const {
  TreeGeom g;
  std::vector<TreeGeom> extra;
  g.where = fmt::format("{}: link '{}' <collision>", path_, link.name);
  MOREAU_REQUIRE(c.geometry != nullptr, "{}: no geometry", g.where);
  const Pose origin = to_pose(c.origin);
  if (std::optional<Shape> primitive = primitive_shape(*c.geometry, origin)) {
    g.shape = std::move(*primitive);
  } else if (c.geometry->type == urdf::Geometry::MESH) {
    const auto& m = static_cast<const urdf::Mesh&>(*c.geometry);
    const std::filesystem::path p = import::resolve_resource_uri(
        m.filename, import::PackageSearch{.package_dirs = options_.package_dirs, .file = path_},
        g.where + " mesh");
    try {
      const TriangleMesh mesh =
          load_mesh_file(p.string(), Vector3(m.scale.x, m.scale.y, m.scale.z));
      g.shape = make_convex(mesh.part_vertices(0), 0.0, origin);
      for (size_t k = 1; k < mesh.part_starts.size(); ++k) {  // one convex piece per mesh
        TreeGeom piece = g;
        piece.shape = make_convex(mesh.part_vertices(k), 0.0, origin);
        extra.push_back(std::move(piece));
      }
    } catch (const std::invalid_argument& e) {
      throw_invalid("{}: {}", g.where, e.what());
    }
  }
  extra.insert(extra.begin(), std::move(g));
  for (size_t k = 0; k < extra.size(); ++k) {
    try {
      extra[k].shape.validate(extra[k].where, 3);
    } catch (const std::invalid_argument& e) {
      throw_invalid("{}", e.what());
    }
    if (!c.name.empty()) extra[k].shape.name = k == 0 ? c.name : fmt::format("{}.{}", c.name, k);
  }
  return extra;  // URDF collision geometry has no mass: the link's <inertial> has it
}

std::optional<Visual> Importer::visual_item(const urdf::Link& link, const urdf::Visual& v) {
  const std::string where = fmt::format("{}: link '{}' <visual>", path_, link.name);
  MOREAU_REQUIRE(v.geometry != nullptr, "{}: no geometry", where);
  Visual out;
  const Pose origin = to_pose(v.origin);
  if (std::optional<Shape> primitive = primitive_shape(*v.geometry, origin)) {
    out.shape = std::move(*primitive);
  } else if (v.geometry->type == urdf::Geometry::MESH) {
    const auto& m = static_cast<const urdf::Mesh&>(*v.geometry);
    try {
      out.mesh =
          std::filesystem::absolute(
              import::resolve_resource_uri(
                  m.filename,
                  import::PackageSearch{.package_dirs = options_.package_dirs, .file = path_},
                  where + " mesh"))
              .lexically_normal()
              .string();
      MOREAU_REQUIRE(std::filesystem::is_regular_file(out.mesh), "{} mesh '{}': no such file ({})",
                     where, m.filename, out.mesh);
    } catch (const std::invalid_argument& e) {
      warnings_.push_back(fmt::format("{} (the viewer draws its collision shapes)", e.what()));
      return std::nullopt;
    }
    out.scale = Vector3(m.scale.x, m.scale.y, m.scale.z);
    out.shape.offset = origin;
  }
  if (v.material && v.material->texture_filename.empty()) {
    const urdf::Color& c = v.material->color;
    out.rgba = {c.r, c.g, c.b, c.a};
  }
  try {
    out.validate(where, 3);
  } catch (const std::invalid_argument& e) {
    throw_invalid("{}", e.what());
  }
  return out;
}

void Importer::add_link(const urdf::Link& link, int parent, const Pose& frame, TreeJoint joint,
                        const urdf::Joint* via) {
  TreeBody b;
  b.name = link.name;
  b.where = fmt::format("{}: link '{}'", path_, link.name);
  b.parent = parent;
  b.frame = frame;
  if (joint != TreeJoint::none) b.joints.push_back(TreeJointSpec{.kind = joint});
  if (link.inertial) {
    const urdf::Inertial& in = *link.inertial;
    const Pose o = to_pose(in.origin);
    Matrix3 I;
    I << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
    MOREAU_REQUIRE(in.mass >= 0 && all_finite(I), "{}: <inertial> mass {} must be ≥ 0", b.where,
                   in.mass);
    I = checked_inertia(I, b.where);
    b.has_inertial = true;
    b.inertial.add(in.mass, o.position, o.rotation() * I * o.rotation().transpose());
  }
  for (const auto& c : link.collision_array)
    for (TreeGeom& g : collision_geoms(link, *c)) b.geoms.push_back(std::move(g));
  for (const auto& v : link.visual_array)
    if (std::optional<Visual> item = visual_item(link, *v)) b.visuals.push_back(std::move(*item));
  if (via && b.moves()) {
    TreeJointSpec& spec = b.joints.front();
    spec.name = via->name;
    spec.axis = Vector3(via->axis.x, via->axis.y, via->axis.z);
    const std::string where = fmt::format("{}: joint '{}'", path_, via->name);
    if ((joint == TreeJoint::revolute || joint == TreeJoint::prismatic) && spec.axis.norm() < 1e-12)
      throw_invalid("{}: the axis must be nonzero", where);
    if (via->type != urdf::Joint::CONTINUOUS && via->limits &&
        (joint == TreeJoint::revolute || joint == TreeJoint::prismatic)) {
      MOREAU_REQUIRE(via->limits->lower <= via->limits->upper,
                     "{}: <limit lower=\"{}\" upper=\"{}\">: needs lower ≤ upper", where,
                     via->limits->lower, via->limits->upper);
      spec.limited = true;
      spec.lower = via->limits->lower;
      spec.upper = via->limits->upper;
    }
    if (via->limits && via->limits->velocity > 0)
      warn("<limit velocity>", "velocity limits are not simulated");
    if (joint == TreeJoint::revolute || joint == TreeJoint::prismatic) {
      const double effort = via->limits ? via->limits->effort : 0.0;
      MOREAU_REQUIRE(effort >= 0 && std::isfinite(effort), "{}: <limit effort=\"{}\">: must be ≥ 0",
                     where, effort);
      if (!via->mimic) motors_.push_back({via->name, effort});
    }
    if (via->dynamics) {
      MOREAU_REQUIRE(via->dynamics->damping >= 0 && std::isfinite(via->dynamics->damping),
                     "{}: <dynamics damping=\"{}\">: must be ≥ 0", where, via->dynamics->damping);
      spec.damping = via->dynamics->damping;
      MOREAU_REQUIRE(via->dynamics->friction >= 0 && std::isfinite(via->dynamics->friction),
                     "{}: <dynamics friction=\"{}\">: must be ≥ 0", where, via->dynamics->friction);
      spec.frictionloss = via->dynamics->friction;
    }
    if (via->safety) warn("<safety_controller>", "controller settings");
    if (via->calibration) warn("<calibration>", "sensor settings");
    if (via->mimic) {
      MOREAU_REQUIRE(std::isfinite(via->mimic->multiplier) && std::isfinite(via->mimic->offset),
                     "{}: <mimic multiplier=\"{}\" offset=\"{}\">: must be finite", where,
                     via->mimic->multiplier, via->mimic->offset);
      mimics_.push_back(Mimic{via->name, via->mimic->joint_name, via->mimic->multiplier,
                              via->mimic->offset, where});
    }
  }
  const int index = static_cast<int>(bodies_.size());
  bodies_.push_back(std::move(b));
  for (const auto& j : link.child_joints) {
    TreeJoint kind = TreeJoint::none;
    switch (j->type) {
      case urdf::Joint::REVOLUTE:
      case urdf::Joint::CONTINUOUS:
        kind = TreeJoint::revolute;
        break;
      case urdf::Joint::PRISMATIC:
        kind = TreeJoint::prismatic;
        break;
      case urdf::Joint::FIXED:
        kind = TreeJoint::none;
        break;
      case urdf::Joint::FLOATING:
        kind = TreeJoint::free;
        break;
      default:
        throw_invalid(
            "{}: joint '{}': type not supported (revolute, continuous, prismatic, "
            "fixed, floating)",
            path_, j->name);
    }
    urdf::LinkConstSharedPtr child;
    for (const auto& l : link.child_links)
      if (l->name == j->child_link_name) child = l;
    MOREAU_REQUIRE(child != nullptr, "{}: joint '{}': no child link '{}'", path_, j->name,
                   j->child_link_name);
    const Pose child_frame = frame.compose(to_pose(j->parent_to_joint_origin_transform));
    add_link(*child, index, child_frame, kind, j.get());
  }
}

Scene Importer::run() {
  if (!text_) require_readable_file(path_);
  const std::string text = text_ ? *text_ : read_text_file(path_);
  for (std::string& w : import::urdf_schema_warnings(text, path_))
    warnings_.push_back(std::move(w));
  urdf::ModelInterfaceSharedPtr model;
  {
    MessageCapture capture;
    model = urdf::parseURDF(text);
    MOREAU_REQUIRE(model != nullptr && model->getRoot() != nullptr, "{}: not a valid URDF: {}",
                   path_, capture.errors.empty() ? "urdfdom refused it" : capture.errors);
  }
  TreeBody world;
  world.name = "world";
  world.where = path_ + ": the world";
  if (options_.ground) {
    TreeGeom ground;
    ground.shape = make_plane(Vector3::UnitZ(), 0.0);
    ground.shape.name = "ground";
    ground.is_plane = true;
    ground.where = path_ + ": the ground plane";
    world.geoms.push_back(ground);
  }
  bodies_.push_back(world);
  add_link(*model->getRoot(), 0, options_.base_pose.value_or(Pose{}),
           options_.floating_base ? TreeJoint::free : TreeJoint::none, nullptr);
  bodies_[1].own_static = !options_.floating_base;  // a welded base is a link of its own
  Scene scene;
  scene.source = path_;
  scene.name = std::filesystem::path(path_).stem().string();
  scene.dimension = 3;
  scene.description = fmt::format("URDF robot {} ({} base{})", model->getName(),
                                  options_.floating_base ? "floating" : "fixed",
                                  options_.ground ? ", ground plane" : "");
  scene.settings.integrator = Integrator::time_stepping;
  scene.collision.margin = kImportedContactMargin;
  scene.collision.self_collision = options_.self_collision;
  std::vector<Index> body;
  scene.world = import::build_world(bodies_, Vector3(0, 0, -9.81), false, &body, true);
  exclude_adjacent_links(*scene.world, body);
  if (!options_.self_collision && !options_.floating_base)
    exclude_branches_of_a_welded_base(*scene.world, body);
  if (!options_.srdf.empty()) exclude_srdf_pairs(*scene.world, body);
  add_mimics(*scene.world);
  for (const auto& [name, effort] : motors_) {  // a torque motor per joint, capped by its effort
    Actuator motor;
    motor.name = name;
    motor.joint = -1;
    for (Index j = 0; j < static_cast<Index>(scene.world->joints().size()); ++j)
      if (scene.world->joints()[j].name == name) motor.joint = j;
    MOREAU_REQUIRE(motor.joint >= 0, "{}: joint '{}': no moving joint of that name for its motor",
                   path_, name);
    motor.force_limited = effort > 0.0;
    motor.force_lower = -effort;
    motor.force_upper = effort;
    scene.world->add_actuator(motor);
  }
  ContactMaterial contact;  // URDF has no friction of its own
  contact.mu = kUrdfFriction;
  scene.world->set_default_material(contact);
  MOREAU_REQUIRE(scene.world->dynamic_body_count() > 0,
                 "{}: no moving link (a fixed base with only fixed joints)", path_);
  scene.warnings = warnings_;
  return scene;
}

// Pairs (b, p) for each moreau body b and its parent p in the tree, and (b, p') for p' above p
// while p has no shapes (the Go2's hips carry none: its thighs do not collide with its base). The
// world (body 0) is no link: a floating base collides with the ground.
void Importer::exclude_adjacent_links(RigidWorld& world, const std::vector<Index>& body) {
  std::vector<Index> parent(static_cast<size_t>(world.body_count()), -1);
  for (size_t i = 1; i < bodies_.size(); ++i) {
    const Index b = body[i], p = body[static_cast<size_t>(bodies_[i].parent)];
    if (b != p && p != 0) parent[b] = p;
  }
  for (Index b = 1; b < world.body_count(); ++b)
    for (Index p = parent[b]; p > 0; p = parent[p]) {
      world.exclude_collisions(b, p);
      if (!world.body(p).shapes.empty()) break;
    }
}

// Without self-collision no two links of the robot collide. Detection leaves out the pairs of
// one articulation (contact/collision/world_contacts.hpp), which joins moving bodies through
// their joints; a welded base is static, so each of its branches (a quadruped's four legs) is an
// articulation of its own, and their links, the base included, would meet (and the narrow phase
// test the meshes near the base on every step). Every pair of the robot's bodies is excluded
// instead (the world, body 0, holds the ground only).
void Importer::exclude_branches_of_a_welded_base(RigidWorld& world,
                                                 const std::vector<Index>& body) {
  std::vector<Index> links;
  for (size_t i = 1; i < bodies_.size(); ++i)
    if (body[i] > 0 && std::find(links.begin(), links.end(), body[i]) == links.end())
      links.push_back(body[i]);
  for (size_t x = 0; x < links.size(); ++x)
    for (size_t y = x + 1; y < links.size(); ++y) world.exclude_collisions(links[x], links[y]);
}

// SRDF (MoveIt): <robot><disable_collisions link1 link2 reason/>…</robot>; pairs of links of one
// moreau body, and links the URDF does not have (a warning), are skipped.
void Importer::exclude_srdf_pairs(RigidWorld& world, const std::vector<Index>& body) {
  const std::string& path = options_.srdf;
  tinyxml2::XMLDocument doc;
  const tinyxml2::XMLElement* robot = &import::read_srdf(path, doc);
  auto link_body = [&](const char* name) -> Index {
    for (size_t i = 1; name && i < bodies_.size(); ++i)
      if (bodies_[i].name == name) return body[i];
    return -1;
  };
  for (const auto* d = robot->FirstChildElement("disable_collisions"); d;
       d = d->NextSiblingElement("disable_collisions")) {
    const char* l1 = d->Attribute("link1");
    const char* l2 = d->Attribute("link2");
    const Index a = link_body(l1), b = link_body(l2);
    if (a < 0 || b < 0) {
      warnings_.push_back(fmt::format(
          "{}:{}: <disable_collisions link1=\"{}\" link2=\"{}\"> ignored: {} has no link '{}'",
          path, d->GetLineNum(), l1 ? l1 : "", l2 ? l2 : "", path_, a < 0 ? (l1 ? l1 : "") : l2));
      continue;
    }
    if (a != b) world.exclude_collisions(a, b);
  }
}

// q_joint = multiplier q_mimicked + offset: a coupling with (a₀, a₁) = (offset, multiplier)
// (URDF's coordinates are 0 at the model's pose, as moreau's).
void Importer::add_mimics(RigidWorld& world) const {
  auto find = [&](const std::string& name, const Mimic& m) {
    for (Index j = 0; j < static_cast<Index>(world.joints().size()); ++j)
      if (world.joints()[j].name == name) return j;
    throw_invalid(
        "{}: <mimic joint=\"{}\">: no revolute, continuous or prismatic joint of that "
        "name",
        m.where, name);
  };
  for (const Mimic& m : mimics_) {
    Coupling c;
    c.name = m.joint + ".mimic";
    c.first = find(m.joint, m);
    c.second = find(m.mimicked, m);
    c.polycoef = {m.offset, m.multiplier, 0.0, 0.0, 0.0};
    try {
      world.add_coupling(c);
    } catch (const std::invalid_argument& e) {
      throw_invalid("{}: <mimic>: {}", m.where, e.what());
    }
  }
}

}  // namespace

Scene parse_urdf_text(const std::string& text, const std::string& source,
                      const ModelImportOptions& options) {
  return Importer(source, options, text).run();
}

Scene load_urdf(const std::string& path, const ModelImportOptions& options) {
  Scene scene = Importer(path, options).run();
  return scene;
}

}  // namespace moreau
