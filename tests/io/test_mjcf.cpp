// MJCF import (io/import/mjcf.hpp): orientations, default classes, mass properties, joints,
// warnings and errors, each against MuJoCo's documented semantics worked out by hand.
#include <gtest/gtest.h>

#include "support/scratch_directory.hpp"

#include "moreau/contact/rigid_world_system.hpp"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "moreau/io/import/mjcf.hpp"
#include "moreau/io/scene/scene_write.hpp"

namespace moreau {
namespace {

// One free body holding the given geoms, body attributes and extra content.
std::string one_body(const std::string& body_attributes, const std::string& content,
                     const std::string& head = "") {
  return "<mujoco>" + head + "<worldbody><body name=\"b\" " + body_attributes + "><freejoint/>" +
         content + "</body></worldbody></mujoco>";
}

Scene parse(const std::string& xml) { return parse_mjcf_text(xml, "model.xml"); }

// The error message of parsing xml ("" when it parses).
std::string error_of(const std::string& xml) {
  try {
    parse(xml);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

double angle_between(const Quaternion& a, const Quaternion& b) { return a.angularDistance(b); }

// MuJoCo XML reference §Frame orientations: euler in degrees by default about moving axes xyz,
// axisangle, xyaxes, zaxis, quat (w first).
TEST(Mjcf, FrameOrientations) {
  const double d = M_PI / 180.0;
  const Quaternion rx(Eigen::AngleAxisd(90 * d, Vector3::UnitX()));
  const Quaternion rz(Eigen::AngleAxisd(30 * d, Vector3::UnitZ()));
  const std::string sphere = "<geom size=\"0.1\"/>";
  auto pose_of = [&](const std::string& attrs, const std::string& head = "") {
    return parse(one_body("pos=\"0 0 1\" " + attrs, sphere, head)).world->body(1).pose;
  };
  EXPECT_LT(angle_between(pose_of("euler=\"90 0 0\"").orientation, rx), 1e-12);
  // moving axes: R = Rx(90°) Rz(30°); fixed axes (XYZ): R = Rz(30°) Rx(90°)
  EXPECT_LT(angle_between(pose_of("euler=\"90 0 30\"").orientation, rx * rz), 1e-12);
  EXPECT_LT(angle_between(pose_of("euler=\"90 0 30\"", "<compiler eulerseq=\"XYZ\"/>").orientation,
                          rz * rx),
            1e-12);
  EXPECT_LT(
      angle_between(
          pose_of("euler=\"1.5707963267948966 0 0\"", "<compiler angle=\"radian\"/>").orientation,
          rx),
      1e-12);
  EXPECT_LT(angle_between(pose_of("axisangle=\"1 0 0 90\"").orientation, rx), 1e-12);
  EXPECT_LT(angle_between(pose_of("quat=\"2 0 0 2\"").orientation,
                          Quaternion(Eigen::AngleAxisd(M_PI / 2, Vector3::UnitZ()))),
            1e-12);
  // xyaxes x = (0, 1, 0), y = (−1, 0, 0): a quarter turn about z
  EXPECT_LT(angle_between(pose_of("xyaxes=\"0 1 0 -1 0 0\"").orientation,
                          Quaternion(Eigen::AngleAxisd(M_PI / 2, Vector3::UnitZ()))),
            1e-12);
  // zaxis: the smallest rotation taking z to (0, −1, 0): Rx(90°)
  EXPECT_LT(angle_between(pose_of("zaxis=\"0 -1 0\"").orientation, rx), 1e-12);
  EXPECT_NE(error_of(one_body("quat=\"1 0 0 0\" euler=\"0 0 0\"", sphere)).find("not both"),
            std::string::npos);
}

// Default classes (§default): nested classes inherit, `class` picks one, `childclass` applies to
// the body's subtree; the element's own attributes win.
TEST(Mjcf, DefaultClassesAndChildclass) {
  const std::string xml =
      "<mujoco><default><geom friction=\"0.3\" size=\"0.1\"/>"
      "<default class=\"grippy\"><geom friction=\"1.2\"/>"
      "<default class=\"grippier\"><geom friction=\"1.5 0.1 0.1\"/></default></default>"
      "</default><worldbody>"
      "<body name=\"a\" pos=\"0 0 1\"><freejoint/><geom/><geom pos=\"0.3 0 0\" class=\"grippy\"/>"
      "<geom pos=\"0.6 0 0\" class=\"grippier\"/><geom pos=\"0.9 0 0\" class=\"grippy\" "
      "friction=\"0.7\"/></body>"
      "<body name=\"c\" pos=\"0 2 1\" childclass=\"grippy\"><freejoint/><geom/>"
      "<body name=\"d\" pos=\"0 0.3 0\"><geom/></body></body>"
      "</worldbody></mujoco>";
  const Scene s = parse(xml);
  const RigidBody& a = s.world->body(s.world->find_body("a"));
  ASSERT_EQ(a.shapes.size(), 4u);
  EXPECT_DOUBLE_EQ(a.shapes[0].mu, 0.3);
  EXPECT_DOUBLE_EQ(a.shapes[1].mu, 1.2);
  EXPECT_DOUBLE_EQ(a.shapes[2].mu, 1.5);
  EXPECT_DOUBLE_EQ(a.shapes[3].mu, 0.7);
  // d has no joint: welded into c, whose childclass reaches it
  const RigidBody& c = s.world->body(s.world->find_body("c"));
  ASSERT_EQ(c.shapes.size(), 2u);
  EXPECT_DOUBLE_EQ(c.shapes[1].mu, 1.2);
  EXPECT_LT(s.world->find_body("d"), 0);
  EXPECT_NE(error_of(one_body("", "<geom class=\"nope\" size=\"0.1\"/>")).find("no <default>"),
            std::string::npos);
}

// Two spheres (r = 0.1, density 1000) 0.4 m apart in a welded pair of bodies: one moreau body of
// mass 2·ρ·4/3 π r³, centred between them, inertia 2(2/5 m r²) about the axis and
// 2(2/5 m r² + m 0.2²) across (parallel axes).
TEST(Mjcf, WeldedBodiesSumMassAboutTheCentreOfMass) {
  const std::string xml =
      "<mujoco><worldbody><body name=\"pair\" pos=\"1 0 1\"><freejoint/>"
      "<geom size=\"0.1\" pos=\"-0.2 0 0\"/>"
      "<body name=\"other\" pos=\"0.2 0 0\"><geom size=\"0.1\"/></body>"
      "</body></worldbody></mujoco>";
  const Scene s = parse(xml);
  ASSERT_EQ(s.world->body_count(), 2);  // world + pair
  const RigidBody& b = s.world->body(1);
  const double m = 1000 * 4.0 / 3.0 * M_PI * 1e-3;
  EXPECT_NEAR(b.mass, 2 * m, 1e-12);
  EXPECT_LT((b.pose.position - Vector3(1, 0, 1)).norm(), 1e-14);
  const double Ia = 2 * 0.4 * m * 0.01, Ic = Ia + 2 * m * 0.04;
  EXPECT_NEAR(b.inertia(0, 0), Ia, 1e-12);
  EXPECT_NEAR(b.inertia(1, 1), Ic, 1e-12);
  EXPECT_NEAR(b.inertia(2, 2), Ic, 1e-12);
  ASSERT_EQ(b.shapes.size(), 2u);
  EXPECT_LT((b.shapes[1].offset.position - Vector3(0.2, 0, 0)).norm(), 1e-14);
}

// <inertial> wins over geoms (inertiafromgeom auto): the body sits at its pos, the inertia is
// R diag Rᵀ; inertiafromgeom="true" takes the geoms instead.
TEST(Mjcf, InertialElement) {
  const std::string content =
      "<inertial pos=\"0.1 0 0\" mass=\"3\" diaginertia=\"1 2 3\" euler=\"0 0 90\"/>"
      "<geom type=\"box\" size=\"0.1 0.2 0.3\" mass=\"5\"/>";
  const Scene s = parse(one_body("pos=\"0 0 1\"", content));
  const RigidBody& b = s.world->body(1);
  EXPECT_DOUBLE_EQ(b.mass, 3.0);
  EXPECT_LT((b.pose.position - Vector3(0.1, 0, 1)).norm(), 1e-14);
  EXPECT_NEAR(b.inertia(0, 0), 2.0, 1e-12);  // a quarter turn about z swaps x and y
  EXPECT_NEAR(b.inertia(1, 1), 1.0, 1e-12);
  EXPECT_NEAR(b.inertia(2, 2), 3.0, 1e-12);
  const Scene g = parse(one_body("pos=\"0 0 1\"", content, "<compiler inertiafromgeom=\"true\"/>"));
  const RigidBody& bg = g.world->body(1);
  EXPECT_DOUBLE_EQ(bg.mass, 5.0);
  EXPECT_NEAR(bg.inertia(0, 0), 5.0 / 3.0 * (0.04 + 0.09), 1e-12);  // box m/3 (b² + c²)
}

// A capsule from fromto: its half length, axis and volume ρ(π r² 2h + 4/3 π r³).
TEST(Mjcf, CapsuleFromTo) {
  const Scene s = parse(one_body("pos=\"0 0 1\"",
                                 "<geom type=\"capsule\" fromto=\"0 0 0 0.6 0 0\" "
                                 "size=\"0.05\" density=\"500\"/>"));
  const RigidBody& b = s.world->body(1);
  ASSERT_EQ(b.shapes.size(), 1u);
  const Shape& c = b.shapes[0];
  EXPECT_EQ(c.kind, ShapeKind::capsule);
  EXPECT_NEAR(c.half_length, 0.3, 1e-14);
  EXPECT_NEAR(c.radius, 0.05, 1e-14);
  // moreau's capsule axis is its x: along the world x here
  EXPECT_LT((b.pose.orientation * (c.offset.orientation * Vector3::UnitX()))
                .cross(Vector3::UnitX())
                .norm(),
            1e-12);
  EXPECT_NEAR(b.mass, 500 * (M_PI * 0.0025 * 0.6 + 4.0 / 3.0 * M_PI * 1.25e-4), 1e-12);
  EXPECT_LT((b.pose.position - Vector3(0.3, 0, 1)).norm(), 1e-14);
}

// A hinge: anchor and axis carried to the moreau joint, range in degrees → radians, limited by
// autolimits; the child hangs from the parent (a moving body) and from the world.
TEST(Mjcf, HingeJointWithRange) {
  const std::string xml =
      "<mujoco><worldbody><body name=\"upper\" pos=\"0 0 2\">"
      "<joint name=\"shoulder\" axis=\"0 1 0\" range=\"-45 90\"/>"
      "<geom type=\"box\" size=\"0.05 0.05 0.25\" pos=\"0 0 -0.25\"/>"
      "<body name=\"lower\" pos=\"0 0 -0.5\"><joint name=\"elbow\" type=\"slide\" axis=\"0 0 1\" "
      "range=\"-0.1 0.1\" frictionloss=\"0.3\"/><geom size=\"0.05\" pos=\"0 0 -0.2\"/></body>"
      "</body></worldbody></mujoco>";
  const Scene s = parse(xml);
  const RigidWorld& w = *s.world;
  ASSERT_EQ(w.joints().size(), 2u);
  const Joint& shoulder = w.joints()[0];
  EXPECT_EQ(shoulder.name, "shoulder");
  EXPECT_EQ(shoulder.kind, JointKind::revolute);
  EXPECT_EQ(w.body(shoulder.body_b).name, "world");
  EXPECT_TRUE(shoulder.limited);
  EXPECT_NEAR(shoulder.lower, -M_PI / 4, 1e-15);
  EXPECT_NEAR(shoulder.upper, M_PI / 2, 1e-15);
  // the anchor at the body origin (0, 0, 2) in world, the centre of mass 0.25 below it
  const Pose pa = w.body(shoulder.body_a).pose;
  EXPECT_LT((pa.apply(shoulder.anchor_a) - Vector3(0, 0, 2)).norm(), 1e-14);
  EXPECT_LT((shoulder.anchor_b - Vector3(0, 0, 2)).norm(), 1e-14);
  EXPECT_LT((shoulder.axis_a - Vector3::UnitY()).norm(), 1e-15);
  const Joint& elbow = w.joints()[1];
  EXPECT_EQ(elbow.kind, JointKind::prismatic);
  EXPECT_EQ(w.body(elbow.body_b).name, "upper");
  EXPECT_DOUBLE_EQ(elbow.lower, -0.1);
  EXPECT_DOUBLE_EQ(elbow.frictionloss, 0.3);  // dry joint friction, read and simulated
  EXPECT_LT((w.body(elbow.body_a).pose.apply(elbow.anchor_a) -
             w.body(elbow.body_b).pose.apply(elbow.anchor_b))
                .norm(),
            1e-14);
  // without a range a joint is free to turn; a ball joint's range is a cone
  const Scene ball = parse(
      "<mujoco><worldbody><body pos=\"0 0 1\"><joint type=\"ball\" range=\"0 30\"/>"
      "<geom size=\"0.1\" pos=\"0 0 -0.5\"/></body></worldbody></mujoco>");
  EXPECT_EQ(ball.world->joints()[0].kind, JointKind::ball);
  EXPECT_NEAR(ball.world->joints()[0].upper, M_PI / 6, 1e-15);
}

// A body with several joints (MJCF's hip: three hinges) is one chain of joints to its parent,
// each with its passive properties: damping, stiffness with springref, armature, and `ref` (the
// coordinate is 0 at the model's pose, so range and springref are measured from ref). In joint
// coordinates the chain is three velocities, and the hip turns by R_x(q₁) R_y(q₂) R_z(q₃).
TEST(Mjcf, ABodyWithSeveralJointsIsAChain) {
  const Scene s = parse(
      "<mujoco><compiler angle=\"radian\"/><worldbody><body name=\"pelvis\" pos=\"0 0 1\">"
      "<joint name=\"hx\" axis=\"1 0 0\" damping=\"0.5\" armature=\"0.01\"/>"
      "<joint name=\"hy\" axis=\"0 1 0\" stiffness=\"20\" springref=\"0.3\" ref=\"0.1\" "
      "range=\"-1 1\"/><joint name=\"hz\" axis=\"0 0 1\"/>"
      "<geom type=\"capsule\" fromto=\"0 0 0 0 0 -0.4\" size=\"0.05\"/></body>"
      "</worldbody></mujoco>");
  const RigidWorld& w = *s.world;
  ASSERT_EQ(w.joints().size(), 3u);
  EXPECT_DOUBLE_EQ(w.joints()[0].damping, 0.5);
  EXPECT_DOUBLE_EQ(w.joints()[0].armature, 0.01);
  EXPECT_DOUBLE_EQ(w.joints()[1].stiffness, 20.0);
  EXPECT_NEAR(w.joints()[1].reference, 0.2, 1e-15);
  EXPECT_NEAR(w.joints()[1].lower, -1.1, 1e-15);
  EXPECT_NEAR(w.joints()[1].upper, 0.9, 1e-15);
  const RigidWorldSystem sys(s.world, CollisionSettings{});
  ASSERT_EQ(sys.velocity_size(), 3);
  EXPECT_EQ(sys.position_names(), (std::vector<std::string>{"hx.q", "hy.q", "hz.q"}));
  Vector q(3);
  q << 0.3, -0.4, 0.5;
  const Matrix3 R =
      (Eigen::AngleAxisd(0.3, Vector3::UnitX()) * Eigen::AngleAxisd(-0.4, Vector3::UnitY()) *
       Eigen::AngleAxisd(0.5, Vector3::UnitZ()))
          .toRotationMatrix();
  const Vector qm = sys.maximal_positions(q);
  // the centre of mass, 0.2 m below the hip at the model's pose, turns about the hip
  EXPECT_LT((qm.head<3>() - (Vector3(0, 0, 1) + R * Vector3(0, 0, -0.2))).norm(), 1e-14);
}

// Soft-contact and solver parameters are reported once each, with the line; timestep and
// gravity are honoured.
TEST(Mjcf, IgnoredParametersAreReportedOnce) {
  const std::string xml =
      "<mujoco>\n<option timestep=\"0.005\" gravity=\"0 0 -3\" impratio=\"10\"/>\n"
      "<size njmax=\"100\"/>\n<worldbody>\n<geom type=\"plane\" size=\"1 1 1\" solref=\"0.02 "
      "1\"/>\n"
      "<body pos=\"0 0 1\"><freejoint/>\n<geom size=\"0.1\" solref=\"0.01 1\" margin=\"0.01\"/>\n"
      "<geom size=\"0.1\" pos=\"0.2 0 0\" solimp=\"0.9 0.95 0.001\"/></body>\n"
      "</worldbody></mujoco>";
  const Scene s = parse(xml);
  EXPECT_DOUBLE_EQ(s.settings.time_stepping.dt, 0.005);
  EXPECT_DOUBLE_EQ(s.world->gravity().z(), -3.0);
  auto count = [&](const std::string& what) {
    int n = 0;
    for (const auto& w : s.warnings) n += w.find(what) != std::string::npos;
    return n;
  };
  EXPECT_EQ(count("<geom solref>"), 1);
  EXPECT_EQ(count("model.xml:5: <geom solref>"), 1);  // the first one, on line 5
  EXPECT_EQ(count("<geom margin>"), 1);
  EXPECT_EQ(count("<geom solimp>"), 1);
  EXPECT_EQ(count("<option impratio>"), 1);
  EXPECT_EQ(count("<size>"), 1);
  EXPECT_EQ(s.warnings.size(), 5u);
}

// Anything outside the subset: an error naming file, line, element and attribute.
// A misspelt attribute is called unknown with the nearest valid name; an attribute MuJoCo has
// but moreau does not support is called so; everything refused is listed in one error.
TEST(Mjcf, RefusalsAreListedTogetherWithSuggestions) {
  const std::string e = error_of(R"(<mujoco>
  <asset><hfield name="terrain" nrow="2" ncol="2" size="1 1 1 1"/></asset>
  <worldbody>
    <body><freejoint/><geom size="0.1" frictin="1"/></body>
    <body><freejoint/><geom size="0.1" shellinertia="true"/></body>
  </worldbody>
  <flexcomp name="cloth"/>
</mujoco>)");
  EXPECT_NE(e.find("model.xml:2: <hfield>: asset not supported"), std::string::npos) << e;
  EXPECT_NE(e.find("model.xml:4: <geom frictin=\"1\">: unknown attribute: did you mean "
                   "'friction'?"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("model.xml:5: <geom shellinertia=\"true\">: attribute not supported"),
            std::string::npos)
      << e;
  EXPECT_NE(e.find("model.xml:7: <flexcomp>: element not supported"), std::string::npos) << e;
  // the issue's example; a name far from every attribute gets no guess
  EXPECT_NE(error_of(one_body("", "<geom sise=\"0.1\"/>"))
                .find("<geom sise=\"0.1\">: unknown attribute: did you mean 'size'?"),
            std::string::npos);
  EXPECT_NE(error_of(one_body("", "<geom size=\"0.1\" wobble=\"1\"/>"))
                .find("unknown attribute (MuJoCo's <geom> has no such attribute)"),
            std::string::npos);
}

TEST(Mjcf, ErrorsNameTheLineElementAndAttribute) {
  EXPECT_NE(error_of("<mujoco>\n<worldbody>\n<body><freejoint/><geom size=\"0.1\" "
                     "wobble=\"3\"/></body></worldbody></mujoco>")
                .find("model.xml:3: <geom wobble=\"3\">"),
            std::string::npos);
  EXPECT_NE(error_of("<mujoco>\n<tendon><fixed><bone/></fixed></tendon></mujoco>")
                .find("model.xml:2: <bone>"),
            std::string::npos);
  EXPECT_NE(error_of(one_body("", "<geom size=\"0.1 x\"/>")).find("'x' is not a finite number"),
            std::string::npos);
  EXPECT_NE(error_of(one_body("", "<geom type=\"hfield\" size=\"0.1 0.2 0.3\"/>"))
                .find("<geom type=\"hfield\">"),
            std::string::npos);
  EXPECT_NE(error_of("<mujoco><worldbody><body><freejoint/><joint/><geom size=\"0.1\"/></body>"
                     "</worldbody></mujoco>")
                .find("a free joint must be the body's only joint"),
            std::string::npos);
  EXPECT_NE(error_of("<mujoco><worldbody><body><joint damping=\"-1\"/><geom size=\"0.1\"/>"
                     "</body></worldbody></mujoco>")
                .find("damping=\"-1\""),
            std::string::npos);
  EXPECT_NE(error_of(one_body("", "<geom type=\"plane\" size=\"1 1 1\"/><geom size=\"0.1\"/>"))
                .find("plane"),
            std::string::npos);
  EXPECT_NE(error_of(one_body("", "<geom size=\"0.1\" mass=\"0\"/>")).find("no mass"),
            std::string::npos);
  EXPECT_NE(
      error_of("<mujoco><worldbody><body><freejoint/><geom size=\"0.1\"/>").find("not well-formed"),
      std::string::npos);
  EXPECT_NE(error_of("<robot/>").find("root element must be <mujoco>"), std::string::npos);
}

// A mesh geom (OBJ through assimp): the hull of its vertices collides, and its mass is the
// closed mesh's volume times the density, centred at the mesh's centroid, with the box inertia.
TEST(Mjcf, MeshGeomFromObj) {
  const auto dir = moreau::testing::scratch_directory("moreau_test_mjcf_mesh");
  std::filesystem::create_directories(dir / "meshes");
  {
    // a 0.2 × 0.4 × 0.6 box with one corner at the origin, outward faces
    std::ofstream obj(dir / "meshes" / "brick.obj");
    const double a = 0.2, b = 0.4, c = 0.6;
    for (int k = 0; k < 8; ++k)
      obj << "v " << (k & 1 ? a : 0) << " " << (k & 2 ? b : 0) << " " << (k & 4 ? c : 0) << "\n";
    obj << "f 1 3 4 2\nf 5 6 8 7\nf 1 2 6 5\nf 3 7 8 4\nf 1 5 7 3\nf 2 4 8 6\n";
  }
  const std::string xml =
      "<mujoco><compiler meshdir=\"meshes\"/><asset><mesh name=\"brick\" file=\"brick.obj\"/>"
      "</asset><worldbody><body pos=\"0 0 1\"><freejoint/><geom type=\"mesh\" mesh=\"brick\"/>"
      "</body></worldbody></mujoco>";
  const Scene s = parse_mjcf_text(xml, "model.xml", dir.string());
  const RigidBody& b = s.world->body(1);
  // assimp keeps vertices in single precision: relative errors of 1e-7
  const double m = 1000 * 0.2 * 0.4 * 0.6;
  EXPECT_NEAR(b.mass, m, 1e-6 * m);
  EXPECT_LT((b.pose.position - Vector3(0.1, 0.2, 1.3)).norm(), 1e-7);
  EXPECT_NEAR(b.inertia(0, 0), m / 12 * (0.16 + 0.36), 1e-6);
  EXPECT_NEAR(b.inertia(1, 1), m / 12 * (0.04 + 0.36), 1e-6);
  EXPECT_NEAR(b.inertia(0, 1), 0.0, 1e-6);
  ASSERT_EQ(b.shapes.size(), 1u);
  EXPECT_EQ(b.shapes[0].kind, ShapeKind::convex);
  EXPECT_EQ(b.shapes[0].vertices.size(), 8u);
  // the support point along +x: x = 0.2 in the mesh frame, 0.1 from the centre of mass
  EXPECT_NEAR((b.shapes[0].offset.apply(b.shapes[0].support(Vector3::UnitX()))).x(), 0.1, 1e-7);
  const std::string missing = "<mujoco><asset><mesh file=\"nowhere.stl\"/></asset></mujoco>";
  try {
    parse_mjcf_text(missing, "model.xml", dir.string());
    ADD_FAILURE() << "a missing mesh file must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("nowhere.stl"), std::string::npos) << e.what();
  }
  std::filesystem::remove_all(dir);
}

// scene_to_json → parse_scene gives the same world (bodies, masses, poses, shapes, joints).
TEST(Mjcf, ConvertedSceneLoadsBackTheSameWorld) {
  const std::string xml =
      "<mujoco><option timestep=\"0.004\"/><worldbody><geom type=\"plane\" pos=\"0 0 -0.1\" "
      "friction=\"0.4\"/>"
      "<body name=\"arm\" pos=\"0 0 1\" euler=\"10 20 30\"><joint name=\"j\" axis=\"1 1 0\" "
      "range=\"-30 30\"/><geom type=\"capsule\" fromto=\"0 0 0 0.3 0 0\" size=\"0.04\" "
      "friction=\"0.8\" contype=\"2\"/></body></worldbody></mujoco>";
  const Scene a = parse(xml);
  const Scene b = parse_scene(scene_to_json(a), "converted.json");
  ASSERT_EQ(a.world->body_count(), b.world->body_count());
  for (Index i = 0; i < a.world->body_count(); ++i) {
    const RigidBody &x = a.world->body(i), &y = b.world->body(i);
    EXPECT_EQ(x.name, y.name);
    EXPECT_DOUBLE_EQ(x.mass, y.mass);
    EXPECT_LT((x.inertia - y.inertia).norm(), 1e-15);
    EXPECT_LT((x.pose.position - y.pose.position).norm(), 1e-15);
    EXPECT_LT(angle_between(x.pose.orientation, y.pose.orientation), 1e-12);
    ASSERT_EQ(x.shapes.size(), y.shapes.size());
    for (size_t k = 0; k < x.shapes.size(); ++k) {
      EXPECT_EQ(x.shapes[k].kind, y.shapes[k].kind);
      EXPECT_DOUBLE_EQ(x.shapes[k].mu, y.shapes[k].mu);
      EXPECT_EQ(x.shapes[k].contype, y.shapes[k].contype);
      const Vector3 d(0.3, -0.2, 0.9);
      if (x.shapes[k].kind != ShapeKind::plane) {
        EXPECT_LT((x.shapes[k].offset.apply(x.shapes[k].support(d)) -
                   y.shapes[k].offset.apply(y.shapes[k].support(d)))
                      .norm(),
                  1e-12);
      }
    }
  }
  ASSERT_EQ(b.world->joints().size(), 1u);
  EXPECT_DOUBLE_EQ(b.world->joints()[0].upper, a.world->joints()[0].upper);
  EXPECT_DOUBLE_EQ(b.settings.time_stepping.dt, 0.004);
  // the plane 0.1 below the origin in both: n·x − d in world of its offset half-space
  auto height_above = [](const Shape& p, const Vector3& x) {
    const Vector3 n = p.offset.orientation * p.normal;
    return n.dot(x) - (p.offset_distance + n.dot(p.offset.position));
  };
  for (const Scene* s : {&a, &b}) {
    const Shape& plane = s->world->body(0).shapes[0];
    ASSERT_EQ(plane.kind, ShapeKind::plane);
    EXPECT_NEAR(height_above(plane, Vector3(0.3, 0.2, -0.05)), 0.05, 1e-15);
    EXPECT_DOUBLE_EQ(plane.mu, 0.4);
  }
}

}  // namespace
}  // namespace moreau
