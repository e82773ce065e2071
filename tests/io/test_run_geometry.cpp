// geometry.json (io/run/run_geometry.hpp), the run's world in the one JSON form of scenes
// (io/json/rigid_world_json.hpp): every shape kind of a scene goes out and comes back with its
// sizes and offsets (and the explicit contact pairs, masses and inertias), the world rebuilt from
// it finds the same contacts at the same q (what `moreau view` relies on to place contact points),
// the same document loads as a scene, and bad documents name the field.
#include <gtest/gtest.h>

#include <cmath>

#include "moreau/contact/collision/world_contacts.hpp"
#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/io/json/rigid_world_json.hpp"
#include "moreau/io/run/run_geometry.hpp"
#include "moreau/io/scene/scene.hpp"
#include "moreau/io/import/load_scene.hpp"

using namespace moreau;
using json = nlohmann::json;

namespace {

const std::string kScenes = std::string(MOREAU_SOURCE_DIR) + "/examples/scenes";

// A 3D world with one shape of every kind (offsets included) on a static floor.
std::shared_ptr<RigidWorld> every_shape() {
  auto world = std::make_shared<RigidWorld>(3);
  RigidBody ground;
  ground.name = "ground";
  ground.is_static = true;
  ground.shapes.push_back(make_plane(Vector3::UnitZ(), 0.0));
  world->add_body(ground);
  const Pose turned{Vector3(0.1, 0.0, 0.0),
                    Quaternion(Eigen::AngleAxisd(0.3, Vector3(1, 2, 3).normalized()))};
  const std::vector<Shape> shapes = {
      make_sphere(0.2), make_box(Vector3(0.1, 0.2, 0.3), turned), make_capsule(0.05, 0.2),
      make_cylinder(0.1, 0.15, turned),
      make_convex({Vector3(0, 0, 0), Vector3(0.2, 0, 0), Vector3(0, 0.2, 0), Vector3(0, 0, 0.2)})};
  for (size_t i = 0; i < shapes.size(); ++i) {
    RigidBody b;
    b.name = "b" + std::to_string(i);
    b.pose.position = Vector3(static_cast<double>(i), 0.0, 0.19);  // the sphere touches the floor
    b.shapes.push_back(shapes[i]);
    world->add_body(b);
  }
  ContactPair pair;  // the box (body 2) on the floor, always reported under its own name
  pair.name = "box_on_floor";
  pair.body_a = 2;
  pair.body_b = 0;
  world->add_contact_pair(pair);
  return world;
}

}  // namespace

TEST(RunGeometry, EveryShapeKindGoesOutAndComesBack) {
  const auto world = every_shape();
  const RigidWorldSystem system(world, CollisionSettings{}, "shapes");
  const json doc = json::parse(run_geometry_json(system, 3));
  EXPECT_EQ(doc["position_size"], 35);  // 5 dynamic bodies × (3 + 4)
  EXPECT_EQ(doc["moreau_geometry_version"], 2);
  EXPECT_EQ(doc["bodies"][0]["shapes"][0]["type"], "plane");  // the scene's keys, not "kind"
  const RigidWorld back = world_from_geometry(doc, "geometry.json");
  ASSERT_EQ(back.body_count(), world->body_count());
  EXPECT_EQ(back.position_offset(0), -1);
  EXPECT_EQ(back.position_offset(2), 7);
  for (Index i = 1; i < world->body_count(); ++i) {
    EXPECT_EQ(back.body(i).mass, world->body(i).mass);
    EXPECT_EQ(back.body(i).inertia, world->body(i).inertia);
  }
  ASSERT_EQ(back.contact_pairs().size(), 1u);
  EXPECT_EQ(back.contact_pairs()[0].name, "box_on_floor");
  EXPECT_EQ(back.contact_pairs()[0].body_a, 2);
  for (Index i = 0; i < world->body_count(); ++i) {
    const Shape& a = world->body(i).shapes[0];
    const Shape& b = back.body(i).shapes[0];
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.radius, b.radius);
    EXPECT_EQ(a.half_length, b.half_length);
    EXPECT_EQ(a.half_extents, b.half_extents);
    EXPECT_EQ(a.normal, b.normal);
    EXPECT_EQ(a.vertices, b.vertices);
    EXPECT_EQ(a.offset.position, b.offset.position);
    EXPECT_NEAR(a.offset.orientation.angularDistance(b.offset.orientation), 0.0, 1e-15);
  }
  // same contacts, same names, same points at the initial q
  const Vector q = world->initial_positions();
  CollisionSettings cs;
  cs.margin = 0.05;
  const auto c1 = detect_contacts(*world, q, cs), c2 = detect_contacts(back, q, cs);
  ASSERT_EQ(c1.size(), c2.size());
  ASSERT_FALSE(c1.empty());
  for (size_t k = 0; k < c1.size(); ++k) {
    EXPECT_EQ(c1[k].name, c2[k].name);
    EXPECT_LT((c1[k].point() - c2[k].point()).norm(), 1e-14);
  }
}

// geometry.json is a scene's world: with a description and t_end it loads as a scene, and
// `moreau convert` of that scene writes the same world back.
TEST(RunGeometry, TheDocumentIsASceneWorld) {
  const Scene scene = load_scene(kScenes + "/falling_pencil.json");
  const RigidWorldSystem pencil(scene.world, scene.collision, scene.name);
  json doc = json::parse(run_geometry_json(pencil, 2));
  for (const char* key : {"moreau_geometry_version", "system", "position_size", "velocity_size"})
    doc.erase(key);
  doc["description"] = "the pencil's world, read back";
  const Scene back = parse_scene(doc, "geometry-as-scene");
  ASSERT_EQ(back.world->body_count(), scene.world->body_count());
  for (Index i = 0; i < scene.world->body_count(); ++i) {
    const RigidBody &a = scene.world->body(i), &b = back.world->body(i);
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.is_static, b.is_static);
    EXPECT_EQ(a.mass, b.mass);
    EXPECT_EQ(a.pose.position, b.pose.position);
    // 2D: the angle 2·atan2(q_z, q_w) written and turned back into a quaternion
    EXPECT_LT(a.pose.orientation.angularDistance(b.pose.orientation), 1e-15);
    ASSERT_EQ(a.shapes.size(), b.shapes.size());
    for (size_t k = 0; k < a.shapes.size(); ++k) EXPECT_EQ(a.shapes[k].kind, b.shapes[k].kind);
  }
  EXPECT_EQ(back.world->default_material().mu, scene.world->default_material().mu);
  EXPECT_EQ(back.world->gravity(), scene.world->gravity());
}

TEST(RunGeometry, PlanarScenesKeepTheirStaticGround) {
  const Scene scene = load_scene(kScenes + "/falling_pencil.json");
  const RigidWorldSystem pencil(scene.world, scene.collision, scene.name);
  const json doc = json::parse(run_geometry_json(pencil, 2));
  EXPECT_EQ(doc["dimension"], 2);
  EXPECT_EQ(doc["bodies"].size(), 2u);  // the static floor ("ground") and the pencil
  EXPECT_EQ(world_from_geometry(doc, "g").dimension(), 2);
}

TEST(RunGeometry, BadDocumentsNameTheField) {
  const auto world = every_shape();
  const RigidWorldSystem system(world, CollisionSettings{}, "shapes");
  const json good = json::parse(run_geometry_json(system, 3));
  const auto expect = [](const json& doc, const std::string& needle) {
    try {
      world_from_geometry(doc, "g.json");
      ADD_FAILURE() << "accepted; expected: " << needle;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("g.json", 0), 0u) << e.what();
    }
  };
  json d = good;
  d["moreau_geometry_version"] = 7;
  expect(d, "moreau_geometry_version = 7");
  d = good;
  d["bodies"][1]["shapes"][0]["radius"] = -1;
  expect(d, "bodies[1].shapes[0]");
  d = good;
  d["moreau_geometry_version"] = 1;
  expect(d, "a run written by moreau 0.2");
  d = good;
  d["position_size"] = 3;
  expect(d, "position_size = 3: the bodies and joints have 35 coordinates");
  d = good;
  d["bodies"][3]["shapes"][0]["type"] = "torus";
  expect(d, "bodies[3].shapes[0].type = \"torus\"");
  d = good;
  d["contact"]["explicit"][0]["body_a"] = "nobody";
  expect(d, "contact.explicit[0].body_a = \"nobody\": no body of that name");
  d = good;
  d["extra"] = 1;
  expect(d, "extra");
}

// Joints come back with their limits: the rebuilt world skips the jointed pair and reports the
// same limit contact (name, gap) at a q past the limit, which the viewer needs to place its
// records (the ragdoll of examples/mjcf: every record located).
TEST(RunGeometry, JointsAndTheirLimitsComeBack) {
  auto world = std::make_shared<RigidWorld>(3);
  RigidBody arm;
  arm.name = "arm";
  arm.pose.position = Vector3(0.5, 0, 1);
  arm.shapes.push_back(make_box(Vector3(0.5, 0.05, 0.05)));
  world->add_body(arm);
  RigidBody hand = arm;
  hand.name = "hand";
  hand.pose.position = Vector3(1.05, 0, 1);  // overlaps the arm: jointed, no contact
  world->add_body(hand);
  Joint elbow;
  elbow.name = "elbow";
  elbow.body_a = 1, elbow.body_b = 0;
  elbow.anchor_a = Vector3(-0.05, 0, 0), elbow.anchor_b = Vector3(0.5, 0, 0);
  elbow.axis_a = Vector3::UnitY();
  elbow.limited = true, elbow.lower = -0.5, elbow.upper = 0.5;
  world->add_joint(elbow);
  RigidWorldSystem system(world, CollisionSettings{}, "elbow");
  const RigidWorld back =
      world_from_geometry(json::parse(run_geometry_json(system, 3)), "geometry.json");
  ASSERT_EQ(back.joints().size(), 1u);
  EXPECT_EQ(back.joints()[0].name, "elbow");
  EXPECT_DOUBLE_EQ(back.joints()[0].upper, 0.5);
  // the hand turned 0.6 rad about y around the elbow: 0.1 rad past the upper limit
  Vector q = world->initial_positions();
  const Quaternion r(Eigen::AngleAxisd(0.6, Vector3::UnitY()));
  q.segment<3>(7) = Vector3(1.0, 0, 1) + r * Vector3(0.05, 0, 0);
  q.segment<4>(10) << r.w(), r.x(), r.y(), r.z();
  const auto a = detect_contacts(*world, q), b = detect_contacts(back, q);
  ASSERT_EQ(a.size(), 1u);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(a[0].name, "elbow/upper");
  EXPECT_EQ(b[0].name, "elbow/upper");
  EXPECT_NEAR(b[0].gap, -0.1, 1e-12);
}
