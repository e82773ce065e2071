// MJCF as MuJoCo 3 writes it (docs/mjcf.md): frame, replicate and include, each against the same
// model written out by hand, and the collision rules (contype/conaffinity, parent and child,
// welded bodies, exclude, pair, priority) against the contacts that appear.
#include <gtest/gtest.h>

#include "support/scratch_directory.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include <fmt/format.h>

#include "moreau/contact/collision/world_contacts.hpp"
#include "moreau/io/import/mjcf.hpp"

namespace moreau {
namespace {

Scene parse(const std::string& xml, const std::string& dir = ".") {
  return parse_mjcf_text(xml, "model.xml", dir);
}

std::string error_of(const std::string& xml, const std::string& dir = ".") {
  try {
    parse(xml, dir);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

// Same bodies (names, masses, poses, inertia, shapes in world) in both worlds.
void expect_same_world(const RigidWorld& a, const RigidWorld& b) {
  ASSERT_EQ(a.body_count(), b.body_count());
  for (Index i = 0; i < a.body_count(); ++i) {
    const RigidBody &x = a.body(i), &y = b.body(i);
    SCOPED_TRACE(x.name);
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.is_static, y.is_static);
    EXPECT_NEAR(x.mass, y.mass, 1e-12);
    EXPECT_LT((x.pose.position - y.pose.position).norm(), 1e-12);
    EXPECT_LT(x.pose.orientation.angularDistance(y.pose.orientation), 1e-12);
    EXPECT_LT((x.inertia - y.inertia).norm(), 1e-12);
    ASSERT_EQ(x.shapes.size(), y.shapes.size());
    for (size_t k = 0; k < x.shapes.size(); ++k) {
      EXPECT_EQ(x.shapes[k].name, y.shapes[k].name);
      EXPECT_DOUBLE_EQ(x.shapes[k].mu, y.shapes[k].mu);
      const Pose px = x.pose.compose(x.shapes[k].offset), py = y.pose.compose(y.shapes[k].offset);
      EXPECT_LT((px.position - py.position).norm(), 1e-12);
      EXPECT_LT(px.orientation.angularDistance(py.orientation), 1e-12);
    }
  }
  ASSERT_EQ(a.joints().size(), b.joints().size());
  for (size_t j = 0; j < a.joints().size(); ++j) EXPECT_EQ(a.joints()[j].name, b.joints()[j].name);
}

// Frames nest (pos, every orientation, childclass) and move only what they hold.
TEST(MjcfComposition, FramesAsWrittenByHand) {
  const std::string framed =
      "<mujoco><default><default class=\"slick\"><geom friction=\"0.1\"/></default></default>"
      "<worldbody><frame pos=\"1 0 0\" euler=\"0 0 90\"><frame pos=\"0 1 0\" childclass=\"slick\">"
      "<body name=\"b\" pos=\"0 0 1\"><freejoint/><geom size=\"0.1\"/>"
      "<frame pos=\"0.3 0 0\" axisangle=\"0 1 0 90\"><geom name=\"side\" type=\"capsule\" "
      "size=\"0.05 0.1\"/></frame></body></frame>"
      "<frame xyaxes=\"0 1 0 -1 0 0\"><frame zaxis=\"0 0 1\" pos=\"0 0 2\"><body name=\"c\">"
      "<freejoint/><geom type=\"box\" size=\"0.1 0.2 0.3\"/></body></frame></frame></frame>"
      "</worldbody></mujoco>";
  // by hand: b at (1,0,0) + Rz90 ((0,1,0) + (0,0,1)) = (0,0,1) turned Rz90, its side geom at
  // (0.3,0,0) turned Ry90 in b; c at (1,0,0) + Rz90 (0,0,2) = (1,0,2) turned Rz90 Rz90 = Rz180
  const std::string by_hand =
      "<mujoco><worldbody><body name=\"b\" pos=\"0 0 1\" euler=\"0 0 90\"><freejoint/>"
      "<geom size=\"0.1\" friction=\"0.1\"/><geom name=\"side\" type=\"capsule\" "
      "size=\"0.05 0.1\" pos=\"0.3 0 0\" euler=\"0 90 0\" friction=\"0.1\"/></body>"
      "<body name=\"c\" pos=\"1 0 2\" euler=\"0 0 180\"><freejoint/>"
      "<geom type=\"box\" size=\"0.1 0.2 0.3\"/></body></worldbody></mujoco>";
  expect_same_world(*parse(framed).world, *parse(by_hand).world);
  EXPECT_NE(error_of("<mujoco><worldbody><body><frame><joint/></frame><geom size=\"1\"/></body>"
                     "</worldbody></mujoco>")
                .find("not inside a frame"),
            std::string::npos);
}

// replicate: copy i at p_i = Σ_{k<i} R^k offset turned R^i, names + sep + index padded to the
// digits of count; nested replicates put the inner suffix first.
TEST(MjcfComposition, ReplicateAsWrittenByHand) {
  const std::string replicated =
      "<mujoco><worldbody><replicate count=\"3\" offset=\"0.5 0 0\" euler=\"0 0 30\" sep=\"-\">"
      "<body name=\"d\" pos=\"0 0 0.5\"><joint name=\"h\" axis=\"0 1 0\"/>"
      "<geom name=\"g\" size=\"0.1\"/></body></replicate></worldbody></mujoco>";
  // p_1 = (0.5, 0, 0), p_2 = p_1 + Rz30 (0.5, 0, 0)
  const double c = 0.5 * std::cos(M_PI / 6), s = 0.5 * std::sin(M_PI / 6);
  const std::string by_hand = fmt::format(
      "<mujoco><worldbody>"
      "<body name=\"d-0\" pos=\"0 0 0.5\"><joint name=\"h-0\" axis=\"0 1 0\"/>"
      "<geom name=\"g-0\" size=\"0.1\"/></body>"
      "<body name=\"d-1\" pos=\"0.5 0 0.5\" euler=\"0 0 30\"><joint name=\"h-1\" axis=\"0 1 0\"/>"
      "<geom name=\"g-1\" size=\"0.1\"/></body>"
      "<body name=\"d-2\" pos=\"{:.17g} {:.17g} 0.5\" euler=\"0 0 60\"><joint name=\"h-2\" "
      "axis=\"0 1 0\"/><geom name=\"g-2\" size=\"0.1\"/></body>"
      "</worldbody></mujoco>",
      0.5 + c, s);
  expect_same_world(*parse(replicated).world, *parse(by_hand).world);

  const Scene nested = parse(
      "<mujoco><worldbody><replicate count=\"2\" sep=\"a\" offset=\"0 1 0\">"
      "<replicate count=\"12\" sep=\"b\" offset=\"1 0 0\"><body name=\"x\" pos=\"0 0 1\">"
      "<freejoint/><geom size=\"0.1\"/></body></replicate></replicate></worldbody></mujoco>");
  std::set<std::string> names;
  for (const RigidBody& b : nested.world->bodies()) names.insert(b.name);
  EXPECT_EQ(names.size(), 25u);  // the world and 24 copies
  for (const char* n : {"xb00a0", "xb11a0", "xb00a1", "xb07a1"})
    EXPECT_TRUE(names.contains(n)) << n;
  const Index last = nested.world->find_body("xb11a1");
  ASSERT_GE(last, 0);
  EXPECT_LT((nested.world->body(last).pose.position - Vector3(11, 1, 1)).norm(), 1e-12);
}

// include: files relative to the including file, the included top element dropped, a file
// included twice (a cycle) refused, errors inside an included file named by it.
TEST(MjcfComposition, IncludeRelativeToTheIncludingFile) {
  const auto dir = moreau::testing::scratch_directory("moreau_test_mjcf_include");
  std::filesystem::create_directories(dir / "parts");
  std::ofstream(dir / "parts" / "arm.xml")
      << "<mujocoinclude><body name=\"arm\" pos=\"0 0 1\"><freejoint/><geom size=\"0.1\"/>"
         "</body><include file=\"hand.xml\"/></mujocoinclude>";
  std::ofstream(dir / "parts" / "hand.xml")
      << "<mujocoinclude>\n<body name=\"hand\" pos=\"1 0 1\"><freejoint/>\n<geom size=\"0.1\" "
         "bogus=\"1\"/></body></mujocoinclude>";
  std::ofstream(dir / "parts" / "a.xml") << "<x><include file=\"b.xml\"/></x>";
  std::ofstream(dir / "parts" / "b.xml") << "<x><include file=\"a.xml\"/></x>";
  const std::string main =
      "<mujoco><worldbody><include file=\"parts/arm.xml\"/></worldbody></mujoco>";
  const std::string message = error_of(main, dir.string());
  EXPECT_NE(message.find((dir / "parts" / "hand.xml").string() + ":3: <geom bogus=\"1\">"),
            std::string::npos)
      << message;
  std::ofstream(dir / "parts" / "hand.xml")
      << "<mujocoinclude><body name=\"hand\" pos=\"1 0 1\"><freejoint/><geom size=\"0.1\"/>"
         "</body></mujocoinclude>";
  const Scene s = parse(main, dir.string());
  EXPECT_GE(s.world->find_body("arm"), 0);
  EXPECT_GE(s.world->find_body("hand"), 0);
  EXPECT_NE(error_of("<mujoco><include file=\"parts/a.xml\"/></mujoco>", dir.string())
                .find("already included"),
            std::string::npos);
  std::filesystem::remove_all(dir);
}

// The pairs (body names, sorted) that detection reports at the model's pose.
std::set<std::pair<std::string, std::string>> touching(const Scene& s) {
  std::set<std::pair<std::string, std::string>> out;
  const RigidWorld& w = *s.world;
  for (const Contact& c : detect_contacts(w, w.initial_positions(), s.collision)) {
    std::string a = w.body(c.body_a).name, b = w.body(c.body_b).name;
    if (a > b) std::swap(a, b);
    out.insert({a, b});
  }
  return out;
}

using Pairs = std::set<std::pair<std::string, std::string>>;

// (contype₁ & conaffinity₂) ≠ 0 or (contype₂ & conaffinity₁) ≠ 0, over three spheres 1 mm apart.
TEST(MjcfComposition, ContypeConaffinityMasks) {
  const Scene s = parse(
      "<mujoco><worldbody>"
      "<body name=\"s1\" pos=\"0 0 1\"><freejoint/><geom size=\"0.1\" contype=\"1\" "
      "conaffinity=\"1\"/></body>"
      "<body name=\"s2\" pos=\"0.201 0 1\"><freejoint/><geom size=\"0.1\" contype=\"2\" "
      "conaffinity=\"2\"/></body>"
      "<body name=\"s3\" pos=\"0.1005 0.174 1\"><freejoint/><geom size=\"0.1\" contype=\"1\" "
      "conaffinity=\"2\"/></body></worldbody></mujoco>");
  // s1–s2: 1&2 = 0, 2&1 = 0: no; s1–s3: 1&2 = 0, 1&1 = 1: yes; s2–s3: 2&2 = 2: yes
  EXPECT_EQ(touching(s), (Pairs{{"s1", "s3"}, {"s2", "s3"}}));
}

// A child hinged to its parent never touches it; a body hinged to the world touches the world's
// geoms; a body welded to its parent is one body with it.
TEST(MjcfComposition, ParentChildAndWeldedBodies) {
  const Scene s = parse(
      "<mujoco><worldbody><geom name=\"post\" type=\"box\" pos=\"0 0 0.5\" size=\"0.05 0.05 0.5\"/>"
      "<body name=\"arm\" pos=\"0 0 1.051\"><joint axis=\"0 1 0\"/>"
      "<geom type=\"box\" pos=\"0.2 0 0\" size=\"0.25 0.05 0.05\"/>"
      "<body name=\"hand\" pos=\"0.5 0 0\"><joint axis=\"0 1 0\"/>"
      "<geom size=\"0.08\"/></body>"
      "<body name=\"glued\" pos=\"0 0.1 0.2\"><geom size=\"0.08\"/></body>"
      "</body></worldbody></mujoco>");
  EXPECT_LT(s.world->find_body("glued"), 0);  // welded into arm
  // the hand's sphere overlaps the arm's box (jointed: no contact); the arm rests 1 mm above the
  // post, a world geom: a contact
  EXPECT_EQ(touching(s), (Pairs{{"arm", "world"}}));
}

// <exclude> removes a pair of bodies; <pair> adds one with its own friction; priority picks
// the friction of the higher geom.
TEST(MjcfComposition, ExcludePairAndPriority) {
  const std::string boxes =
      "<body name=\"a\" pos=\"0 0 0.1\"><freejoint/><geom name=\"ga\" type=\"box\" "
      "size=\"0.1 0.1 0.1\" friction=\"0.2\" priority=\"{}\"/></body>"
      "<body name=\"b\" pos=\"0.2005 0 0.1\"><freejoint/><geom name=\"gb\" type=\"box\" "
      "size=\"0.1 0.1 0.1\" friction=\"0.9\"/></body>";
  auto model = [&](int priority, const std::string& contact) {
    return "<mujoco><worldbody>" + fmt::format(fmt::runtime(boxes), priority) + "</worldbody>" +
           contact + "</mujoco>";
  };
  auto mu_of = [](const Scene& s) {
    double mu = -1;
    for (const Contact& c : detect_contacts(*s.world, s.world->initial_positions(), s.collision))
      mu = c.material.mu;
    return mu;
  };
  const Scene plain = parse(model(0, ""));
  EXPECT_EQ(touching(plain), (Pairs{{"a", "b"}}));
  EXPECT_DOUBLE_EQ(mu_of(plain), 0.9);                // the larger
  EXPECT_DOUBLE_EQ(mu_of(parse(model(1, ""))), 0.2);  // a's priority is higher
  const Scene excluded = parse(model(0, "<contact><exclude body1=\"a\" body2=\"b\"/></contact>"));
  EXPECT_TRUE(touching(excluded).empty());
  const Scene paired = parse(
      model(0,
            "<contact><exclude body1=\"a\" body2=\"b\"/><pair name=\"p\" geom1=\"ga\" geom2=\"gb\" "
            "friction=\"0.35 0.35 0.005\" solref=\"0.01 1\"/></contact>"));
  const auto contacts =
      detect_contacts(*paired.world, paired.world->initial_positions(), paired.collision);
  ASSERT_FALSE(contacts.empty());
  for (const Contact& c : contacts) {
    EXPECT_EQ(c.name.substr(0, 1), "p");
    EXPECT_DOUBLE_EQ(c.material.mu, 0.35);
  }
  EXPECT_EQ(paired.warnings.size(), 1u);  // <pair solref>
  EXPECT_NE(error_of(model(0, "<contact><exclude body1=\"a\" body2=\"nobody\"/></contact>"))
                .find("<exclude body2=\"nobody\">: no body of that name"),
            std::string::npos);
}

// <flag sleep="enable"> turns on island sleeping; other flags are reported.
TEST(MjcfComposition, SleepFlag) {
  const Scene s = parse(
      "<mujoco><option><flag sleep=\"enable\" warmstart=\"disable\"/></option><worldbody><body>"
      "<freejoint/><geom size=\"0.1\"/></body></worldbody></mujoco>");
  EXPECT_TRUE(s.settings.time_stepping.contacts.sleep);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("<flag warmstart> ignored"), std::string::npos);
}

}  // namespace
}  // namespace moreau
