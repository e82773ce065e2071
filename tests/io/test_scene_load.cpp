// Scene files: every example loads; bad scenes fail with the field named.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/io/scene/scene.hpp"
#include "moreau/io/import/load_scene.hpp"
#include "moreau/io/json/rigid_world_json.hpp"

using namespace moreau;
using json = nlohmann::json;

namespace {

const std::string kScenes = std::string(MOREAU_SOURCE_DIR) + "/examples/scenes";

json ball_scene() {
  return json::parse(R"({
    "description": "test ball",
    "dimension": 2,
    "gravity": [0, -9.81],
    "static_shapes": [{"type": "plane", "normal": [0, 1], "offset": 0}],
    "bodies": [{"name": "ball", "mass": 1, "position": [0, 1], "shapes": [{"type": "disk", "radius": 0.1}]},
               {"name": "box", "mass": 2, "position": [1, 0.1], "angle": 0,
                "shapes": [{"type": "box", "half_extents": [0.1, 0.1]}]}],
    "contact": {"default": {"mu": 0.3, "e": 0.5}, "pairs": [{"bodies": ["ball", "box"], "mu": 0.9}]},
    "integrator": {"kind": "event", "rtol": 1e-8},
    "t_end": 2
  })");
}

// Expects std::invalid_argument whose message contains `needle`.
void expect_error(const json& doc, const std::string& needle) {
  try {
    parse_scene(doc);
    FAIL() << "accepted a bad scene; expected an error containing: " << needle;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "message: " << e.what();
  }
}

// Expects the scene to load and its system's build (where the start pose is checked, contact/
// rigid_world_system.hpp §Start pose) to throw std::invalid_argument containing `needle`.
void expect_start_error(const json& doc, const std::string& needle) {
  const Scene scene = parse_scene(doc);
  try {
    RigidWorldSystem system(scene.world, scene.collision);
    FAIL() << "accepted a bad start; expected an error containing: " << needle;
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << "message: " << e.what();
  }
}

// Bar of length l = 0.9 at θ = 0.5 from the vertical, upper end A on the wall x = 0, lower end B
// on the floor y = 0: centre ((l/2) sin θ, (l/2) cos θ).
// (contact.explicit and contype/conaffinity, docs/scene-format.md.)
json pendulum_scene() {
  const double l = 0.9, th = 0.5;
  json doc = json::parse(R"({
    "description": "a bar held on a wall by one end, the other end on the floor",
    "dimension": 2,
    "static_shapes": [{"type": "plane", "name": "wall", "normal": [1, 0], "offset": 0,
                       "contype": 0, "conaffinity": 0},
                      {"type": "plane", "name": "floor", "normal": [0, 1], "offset": 0,
                       "contype": 0, "conaffinity": 0}],
    "bodies": [{"name": "bar", "mass": 1.7, "inertia": 0.11475,
                "shapes": [{"type": "convex", "name": "A", "vertices": [[0, 0.45]]},
                           {"type": "convex", "name": "B", "vertices": [[0, -0.45]]}]}],
    "contact": {"explicit": [
      {"name": "A/wall", "body_a": "bar", "shape_a": "A", "body_b": "ground", "shape_b": "wall",
       "kind": "bilateral"},
      {"name": "B/floor", "body_a": "bar", "shape_a": 1, "body_b": "ground", "shape_b": "floor",
       "mu": 0.5}]},
    "t_end": 0.1
  })");
  doc["bodies"][0]["position"] = {(l / 2) * std::sin(th), (l / 2) * std::cos(th)};
  doc["bodies"][0]["angle"] = th;
  return doc;
}

}  // namespace

TEST(SceneLoad, EveryExampleLoads) {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kScenes)) {
    if (entry.path().extension() != ".json") continue;
    SCOPED_TRACE(entry.path().string());
    const Scene s = load_scene(entry.path().string());
    EXPECT_FALSE(s.description.empty());
    EXPECT_EQ(s.name, entry.path().stem().string());
    if (!s.is_gallery()) {
      ASSERT_NE(s.world, nullptr);
      EXPECT_GT(s.world->dynamic_body_count(), 0);
    }
    ++count;
  }
  EXPECT_GE(count, 9);
}

// The issue's numbers: the pencil is 1 kg, 1 m (I = m L²/12), μ = 0.5, e = 0, tilted 0.01 rad from
// vertical with its lower end on the floor; the sphere pile has ≥ 200 spheres; the stack 5 cubes.
TEST(SceneLoad, ExampleContents) {
  const Scene pencil = load_scene(kScenes + "/falling_pencil.json");
  ASSERT_EQ(pencil.dimension, 2);
  const RigidWorld& w = *pencil.world;
  const Index rod = w.find_body("pencil");
  ASSERT_GE(rod, 0);
  EXPECT_NEAR(w.body(rod).inertia(2, 2), 1.0 / 12.0, 1e-15);
  const Vector q = w.initial_positions();
  EXPECT_NEAR(q[2], M_PI / 2 - 0.01, 1e-15);
  const auto c = detect_contacts(w, q);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_NEAR(c[0].gap, 0.0, 1e-15);
  EXPECT_EQ(c[0].material.mu, 0.5);
  EXPECT_EQ(pencil.settings.integrator, Integrator::event_driven);
  EXPECT_EQ(pencil.settings.t_end, 2.0);
  EXPECT_GE(load_scene(kScenes + "/sphere_pile.json").world->dynamic_body_count(), 200);
  const Scene stack = load_scene(kScenes + "/box_stack.json");
  EXPECT_EQ(stack.world->dynamic_body_count(), 5);
  EXPECT_EQ(stack.settings.time_stepping.dt, 1e-3);
  EXPECT_EQ(detect_contacts(*stack.world, stack.world->initial_positions()).size(), 20u);
}

TEST(SceneLoad, ParsesFieldsAndPairMaterials) {
  const Scene s = parse_scene(ball_scene());
  const RigidWorld& w = *s.world;
  EXPECT_EQ(w.body_count(), 3);  // ground + 2
  EXPECT_EQ(w.material(w.find_body("ball"), w.find_body("box")).mu, 0.9);
  EXPECT_EQ(w.material(w.find_body("ball"), w.find_body("ground")).mu, 0.3);
  EXPECT_EQ(w.material(w.find_body("ball"), w.find_body("box")).restitution, 0.5);
  EXPECT_EQ(s.settings.event_driven.rtol, 1e-8);
  EXPECT_NEAR(w.body(w.find_body("ball")).inertia(2, 2), 0.5 * 0.01, 1e-15);  // disk ½ m r²
}

TEST(SceneLoad, RejectsUnknownField) {
  json d = ball_scene();
  d["bodies"][0]["colour"] = "red";
  expect_error(d, "bodies[0].colour: unknown field");
  json t = ball_scene();
  t["integrator"]["step"] = 0.1;
  expect_error(t, "integrator.step: unknown field");
  json top = ball_scene();
  top["gravty"] = {0, -1};
  expect_error(top, "gravty: unknown field");
}

TEST(SceneLoad, RejectsNegativeMass) {
  json d = ball_scene();
  d["bodies"][1]["mass"] = -1;
  expect_error(d, "bodies[1].mass = -1: mass must be > 0");
}

TEST(SceneLoad, RejectsNonNumbers) {
  json d = ball_scene();
  d["bodies"][0]["mass"] = "NaN";
  expect_error(d, "bodies[0].mass = \"NaN\": must be a number");
  json n = ball_scene();
  n["bodies"][0]["position"][1] = nullptr;
  expect_error(n, "bodies[0].position[1] = null: must be a number");
  json i = ball_scene();
  i["t_end"] = "inf";
  expect_error(i, "t_end = \"inf\": must be a number");
  json m = ball_scene();
  m["contact"]["default"]["mu"] = -0.1;
  expect_error(m, "contact.default.mu = -0.1");
}

TEST(SceneLoad, RefusesInterpenetrationWhenAsked) {
  json d = ball_scene();
  d["bodies"][0]["position"] = {1.0, 0.25};  // ball r 0.1 at y 0.25 overlaps the box top (y 0.2)
  d["contact"]["initial_overlap"] = "refuse";
  expect_start_error(d, "bodies 'ball' and 'box' interpenetrate (gap = -0.05 m");
  json g = ball_scene();
  g["bodies"][0]["position"] = {0.0, 0.05};
  g["contact"]["initial_overlap"] = "refuse";
  expect_start_error(g, "bodies 'ball' and 'ground' interpenetrate");
  json bad = ball_scene();
  bad["contact"]["initial_overlap"] = "undo";
  expect_error(bad,
               "contact.initial_overlap = \"undo\": must be \"resolve\", \"ignore\" or \"refuse\"");
  bad["contact"]["initial_overlap"] = "ignore";
  bad["contact"]["self_collision"] = 1;
  expect_error(bad, "contact.self_collision = 1: must be true or false");
}

TEST(SceneLoad, RejectsBadDocuments) {
  EXPECT_THROW(parse_scene_text("{ not json"), std::invalid_argument);
  EXPECT_THROW(load_scene("/nonexistent/scene.json"), std::invalid_argument);
  json d = ball_scene();
  d["integrator"]["kind"] = "rk4";
  expect_error(d, "integrator.kind = \"rk4\"");
  json s = ball_scene();
  s["bodies"][0]["shapes"][0]["type"] = "torus";
  expect_error(s, "bodies[0].shapes[0].type = \"torus\"");
  json dim = ball_scene();
  dim["bodies"][0]["position"] = {0, 1, 0};
  expect_error(dim, "bodies[0].position = [0,1,0]: must be an array of 2 numbers");
  json empty = ball_scene();  // no moving body: a clear error, not a crash of the integrators
  empty["bodies"] = json::array();
  expect_error(empty, "bodies: 0 listed, none of them dynamic");
  json law = ball_scene();
  law["contact"]["default"]["law"] = "bogus";
  expect_error(law,
               "contact.default.law = \"bogus\": must be \"newton\", \"poisson\" or \"moreau\"");
  json theta = ball_scene();
  theta["integrator"]["theta"] = 2;
  expect_error(theta, "integrator.theta = 2: must lie in [0, 1]");
  json events = ball_scene();
  events["integrator"]["max_events"] = 0;
  expect_error(events, "integrator.max_events = 0: must be ≥ 1");
  json anderson = ball_scene();
  anderson["integrator"]["anderson"] = 17;
  expect_error(anderson, "integrator.anderson = 17: must lie in [0, 16]");
}

// Every key of the integrator object lands in its SimulationSettings field; absent keys keep the
// defaults of sim/simulation.hpp.
TEST(SceneLoad, IntegratorKeysFillTheSettings) {
  json d = ball_scene();
  d["integrator"] = {{"kind", "timestepping"},    {"dt", 2e-3},
                     {"relaxation", 1.2},         {"anderson", 3},
                     {"tolerance", 1e-7},         {"max_iterations", 50},
                     {"solver", "nsgs"},          {"zeno_velocity", 0.01},
                     {"painleve_policy", "stop"}, {"projection_tolerance", 1e-7},
                     {"body_blocks", false},      {"coarse_correction", false}};
  const SimulationSettings st = parse_scene(d).settings;
  EXPECT_EQ(st.integrator, Integrator::time_stepping);
  EXPECT_EQ(st.time_stepping.dt, 2e-3);
  EXPECT_EQ(st.time_stepping.contacts.nsgs_relaxation, 1.2);
  EXPECT_EQ(st.time_stepping.contacts.nsgs_anderson_memory, 3);
  EXPECT_EQ(st.solver.tolerance, 1e-7);
  EXPECT_EQ(st.solver.max_iterations, 50);
  EXPECT_EQ(st.solver.name, "nsgs");
  EXPECT_EQ(st.zeno_velocity, 0.01);
  EXPECT_EQ(st.event_driven.painleve_policy, PainlevePolicy::stop);
  EXPECT_EQ(st.time_stepping.contacts.projection_tolerance, 1e-7);
  EXPECT_FALSE(st.time_stepping.contacts.body_blocks);
  EXPECT_FALSE(st.time_stepping.contacts.nsgs_coarse_correction);
  EXPECT_TRUE(SimulationSettings().time_stepping.contacts.nsgs_coarse_correction);  // the default
  EXPECT_EQ(st.time_stepping.theta, 0.5);         // not given: the default
  EXPECT_EQ(st.event_driven.max_events, 100000);  // not given: the default
}

TEST(SceneLoad, GalleryByName) {
  const Scene s = parse_scene(json::parse(R"({"description": "g", "gallery": "two_ball_chain",
                                             "params": {"mass": 2.0}, "t_end": 1})"));
  EXPECT_TRUE(s.is_gallery());
  EXPECT_EQ(s.gallery, "two_ball_chain");
  EXPECT_EQ(s.gallery_params["mass"], 2.0);
  EXPECT_EQ(s.world, nullptr);
  expect_error(json::parse(R"({"description": "g", "gallery": "x", "bodies": []})"),
               "bodies: unknown field");
}

TEST(SceneLoad, JointsSpatial) {
  const Scene s = parse_scene(json::parse(R"({
    "description": "pendulum", "dimension": 3,
    "bodies": [{"name": "bob", "mass": 1, "inertia": [0.01, 0.01, 0.01], "position": [0, 0, -1],
                "shapes": [{"type": "sphere", "radius": 0.1}]}],
    "joints": [{"type": "revolute", "body_a": "bob", "body_b": "world", "anchor_a": [0, 0, 1],
                "anchor_b": [0, 0, 0], "axis": [0, 1, 0]}]
  })"));
  EXPECT_EQ(s.world->joint_row_count(), 5);
  expect_error(json::parse(R"({
    "description": "bad", "dimension": 3,
    "bodies": [{"name": "bob", "mass": 1, "inertia": 0.01, "position": [0, 0, -1]}],
    "joints": [{"type": "revolute", "body_a": "bob", "anchor_a": [0, 0, 0.5]}]
  })"),
               "joints[0] ('joint0'): violated at the start");
}

// The two pairs are the only constraints (the filter keeps A–floor and B–wall out); the wall pair
// is bilateral with the one frame convention t = (n_y, −n_x) = (0, −1): its column is
// (0, −1, (l/2) sin θ) (the relative velocity of A along t), and the floor's (1, 0, (l/2) cos θ).
TEST(SceneLoad, ExplicitPairsHoldAPendulumOnWallAndFloor) {
  const Scene scene = parse_scene(pendulum_scene());
  RigidWorldSystem sys(scene.world, scene.collision);
  const ContactState s = sys.contact_state(sys.initial_q, sys.initial_v, 0.0);
  ASSERT_EQ(s.size(), 2);
  const double l = 0.9, th = 0.5;
  EXPECT_EQ(s.constraints[0].name, "A/wall");
  EXPECT_EQ(s.constraints[0].kind, ConstraintKind::bilateral);
  EXPECT_NEAR(s.constraints[0].gap, 0.0, 1e-15);
  EXPECT_LT((s.constraints[0].tangent.col(0) - Vector3(0, -1, (l / 2) * std::sin(th))).norm(),
            1e-14);
  EXPECT_EQ(s.constraints[1].name, "B/floor");
  EXPECT_EQ(s.constraints[1].kind, ConstraintKind::unilateral);
  EXPECT_EQ(s.constraints[1].mu, 0.5);
  EXPECT_NEAR(s.constraints[1].gap, 0.0, 1e-15);
  EXPECT_LT((s.constraints[1].tangent.col(0) - Vector3(1, 0, (l / 2) * std::cos(th))).norm(),
            1e-14);
}

TEST(SceneLoad, BadExplicitPairsNameTheirPath) {
  json doc = pendulum_scene();
  doc["contact"]["explicit"][0]["shape_a"] = "C";
  expect_error(doc, "contact.explicit[0].shape_a = \"C\": body 'bar' has no shape of that name");
  doc = pendulum_scene();
  doc["contact"]["explicit"][1]["shape_b"] = 2;
  expect_error(doc, "contact.explicit[1].shape_b = 2: must be a shape name or an index in [0, 2)");
  doc = pendulum_scene();
  doc["contact"]["explicit"][0]["kind"] = "sticky";
  expect_error(doc, "contact.explicit[0].kind = \"sticky\"");
  doc = pendulum_scene();
  doc["contact"]["explicit"][1]["mu"] = -1;
  expect_error(doc, "contact.explicit[1].mu = -1");
  doc = pendulum_scene();
  doc["contact"]["explicit"][1]["shape_a"] = "A";
  doc["contact"]["explicit"][1]["shape_b"] = "wall";
  expect_error(doc, "contact.explicit[1]: contact pair 'B/floor': these two shapes already form");
  doc = pendulum_scene();
  doc["bodies"][0]["position"][0] = 0.3;  // A off the wall
  expect_error(doc, "contact.explicit 'A/wall' (bilateral): gap = 0.0842");
  doc = pendulum_scene();
  doc["static_shapes"][0]["contype"] = -1;
  expect_error(doc, "static_shapes[0].contype = -1: must be an integer bitmask");
  doc = pendulum_scene();
  doc["bodies"][0]["shapes"][0]["conaffinity"] = 1.5;
  expect_error(doc, "bodies[0].shapes[0].conaffinity = 1.5: must be an integer bitmask");
}

// Joint keys of round 3: a chain of two revolute joints with a spring, a damper, armature and
// the limits' restitution loads into the world, writes back the same values, and a bad value is
// named with its joint and field.
TEST(SceneLoad, JointPassivePropertiesAndChains) {
  json doc = json::parse(R"({
    "description": "a two-hinge chain",
    "dimension": 3,
    "bodies": [{"name": "arm", "mass": 1, "inertia": [0.01, 0.02, 0.02], "position": [0.2, 0, 0]}],
    "joints": [
      {"type": "revolute", "name": "yaw", "body_a": "arm", "anchor_a": [-0.2, 0, 0],
       "axis": [0, 0, 1], "damping": 0.3, "armature": 0.05},
      {"type": "revolute", "name": "pitch", "body_a": "arm", "anchor_a": [-0.2, 0, 0],
       "axis": [0, 1, 0], "stiffness": 12, "reference": 0.4, "limits": [-1, 1],
       "limit_restitution": 0.5}],
    "t_end": 0.1
  })");
  const Scene s = parse_scene(doc);
  const auto& joints = s.world->joints();
  ASSERT_EQ(joints.size(), 2u);
  EXPECT_DOUBLE_EQ(joints[0].damping, 0.3);
  EXPECT_DOUBLE_EQ(joints[0].armature, 0.05);
  EXPECT_DOUBLE_EQ(joints[1].stiffness, 12.0);
  EXPECT_DOUBLE_EQ(joints[1].reference, 0.4);
  EXPECT_DOUBLE_EQ(joints[1].limit_restitution, 0.5);
  EXPECT_EQ(joints[0].body_b, joints[1].body_b);  // one chain, both from the static "world"
  const RigidWorldSystem sys(s.world, CollisionSettings{});
  EXPECT_EQ(sys.velocity_size(), 2);
  doc["joints"][0]["armature"] = -1;
  expect_error(doc, "joints[0] ('yaw').armature = -1: must be finite and ≥ 0");
  doc["joints"][0]["armature"] = 0;
  doc["joints"][1]["limit_restitution"] = 2;
  expect_error(doc, "joints[1] ('pitch').limit_restitution = 2: must be in [0, 1]");
}

// The per-body form: "parent" and a "joints" chain in the body's frame, as MJCF writes it; the
// world gets one joint per entry, from the body to its parent, and the system one coordinate per
// hinge. A parent without joints welds. Bad entries are named with their body and field.
TEST(SceneLoad, JointsListedOnTheirBody) {
  json doc = json::parse(R"({
    "description": "a leg",
    "dimension": 3,
    "bodies": [
      {"name": "pelvis", "mass": 5, "inertia": [0.05, 0.05, 0.05], "position": [0, 0, 1],
       "parent": "world", "joints": [{"type": "slide", "axis": [0, 0, 1], "range": [-0.5, 0.1]}]},
      {"name": "thigh", "mass": 2, "inertia": [0.02, 0.02, 0.005], "position": [0, 0.1, 0.8],
       "parent": "pelvis",
       "joints": [{"name": "hip_x", "axis": [1, 0, 0], "anchor": [0, 0, 0.2], "damping": 0.4},
                  {"name": "hip_y", "axis": [0, 1, 0], "anchor": [0, 0, 0.2],
                   "stiffness": 3, "range": [-1.5, 0.5]}]},
      {"name": "sensor", "mass": 0.1, "inertia": [1e-4, 1e-4, 1e-4], "position": [0, 0.1, 0.6],
       "parent": "thigh"}],
    "t_end": 0.1
  })");
  const Scene s = parse_scene(doc);
  const RigidWorld& w = *s.world;
  ASSERT_EQ(w.joints().size(), 4u);
  EXPECT_EQ(w.joints()[0].kind, JointKind::prismatic);
  EXPECT_EQ(w.joints()[1].name, "hip_x");
  EXPECT_DOUBLE_EQ(w.joints()[1].damping, 0.4);
  EXPECT_EQ(w.body(w.joints()[2].body_b).name, "pelvis");
  EXPECT_DOUBLE_EQ(w.joints()[2].upper, 0.5);
  EXPECT_EQ(w.joints()[3].kind, JointKind::fixed);
  // the hip's anchor, 0.2 above the thigh's centre, is the same point seen from the pelvis
  EXPECT_LT((w.joints()[1].anchor_b - Vector3(0, 0.1, 0.0)).norm(), 1e-15);
  const RigidWorldSystem sys(s.world, CollisionSettings{});
  EXPECT_EQ(sys.velocity_size(), 3);  // slide + two hinges; the sensor is welded
  doc["bodies"][1]["parent"] = "pelvic";
  expect_error(doc, "bodies[1].parent");
  doc["bodies"][1]["parent"] = "pelvis";
  doc["bodies"][1]["joints"][0]["type"] = "universal";
  expect_error(doc, "bodies[1].joints[0].type = \"universal\": must be hinge, slide or ball");
}

// "tendons" and "equality" (docs/scene-format.md §Tendons and equalities): each entry becomes
// the world's tendon, coupling or closure joint; the world's JSON form writes them back and
// reads back the same; bad entries are named with their list, index and field.
TEST(SceneLoad, TendonsAndEqualities) {
  json doc = json::parse(R"({
    "description": "two arms, a rope and a tie",
    "dimension": 3,
    "bodies": [
      {"name": "a", "mass": 1, "inertia": [0.01, 0.01, 0.01], "position": [0.25, 0, 1],
       "parent": "world", "joints": [{"name": "ja", "axis": [0, 1, 0], "anchor": [-0.25, 0, 0]}]},
      {"name": "b", "mass": 1, "inertia": [0.01, 0.01, 0.01], "position": [0.25, 1, 1],
       "parent": "world", "joints": [{"name": "jb", "axis": [0, 1, 0], "anchor": [-0.25, 0, 0]}]},
      {"name": "weight", "mass": 1, "inertia": [0.01, 0.01, 0.01], "position": [0, 2, 0.5]},
      {"name": "box", "mass": 1, "inertia": [0.01, 0.01, 0.01], "position": [0.7, 0, 1]}],
    "tendons": [
      {"name": "rope", "path": [{"body": "world", "point": [0, 2, 1]}, {"body": "weight"}],
       "range": [null, 0.6]},
      {"name": "pair", "joints": [{"joint": "ja"}, {"joint": "jb", "coef": 2}]}],
    "equality": [
      {"type": "connect", "name": "tie", "body_a": "box", "body_b": "a",
       "anchor_a": [-0.2, 0, 0], "anchor_b": [0.25, 0, 0]},
      {"type": "joint", "name": "half", "joint1": "jb", "joint2": "ja", "polycoef": [0, 0.5]},
      {"type": "tendon", "tendon1": "pair"},
      {"type": "weld", "name": "glue", "body_a": "weight", "body_b": "b",
       "anchor_a": [0, 0, 0.1]}],
    "t_end": 0.1
  })");
  const Scene s = parse_scene(doc);
  const RigidWorld& w = *s.world;
  ASSERT_EQ(w.tendons().size(), 2u);
  EXPECT_EQ(w.tendons()[0].upper, 0.6);
  EXPECT_EQ(w.tendons()[0].lower, -INFINITY);
  EXPECT_EQ(w.tendons()[1].joints[1].coef, 2.0);
  ASSERT_EQ(w.couplings().size(), 2u);
  EXPECT_EQ(w.couplings()[0].polycoef[1], 0.5);
  EXPECT_EQ(w.couplings()[0].polycoef[2], 0.0);
  EXPECT_EQ(w.couplings()[1].kind, CouplingKind::tendon);
  ASSERT_EQ(w.joints().size(), 4u);
  EXPECT_TRUE(w.joints()[2].closure);
  // the weld's anchor_b defaults to anchor_a's point, (0, 2, 0.6), seen from body b at (0.25, 1, 1)
  EXPECT_LT((w.joints()[3].anchor_b - Vector3(-0.25, 1, -0.4)).norm(), 1e-15);
  const RigidWorldSystem sys(s.world, CollisionSettings{});
  EXPECT_NEAR(sys.tendon_length(sys.initial_q, 0), 0.5, 1e-15);
  EXPECT_EQ(sys.velocity_size(), 2 + 12);  // two hinges, two free bodies; the tie is a row
  // written and read back: the same constraints
  const json again = rigid_world_to_json(w);
  ASSERT_TRUE(again.contains("equality"));
  const RigidWorld w2 = rigid_world_from_json(again, RigidWorldReadOptions{});
  EXPECT_EQ(rigid_world_to_json(w2), again);
  ASSERT_EQ(w2.joints().size(), 4u);
  EXPECT_TRUE(w2.joints()[3].closure);
  doc["equality"][1]["joint1"] = "jc";
  expect_error(doc, "equality[1].joint1 = \"jc\": no joint of that name");
  doc["equality"][1]["joint1"] = "jb";
  doc["tendons"][0]["path"].erase(1);
  expect_error(doc, "tendons[0]");
}
