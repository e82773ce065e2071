// One contact-frame convention (model/contact_frame.hpp, docs/notation.md): the same physical
// contact built by a gallery system, by a scene (rigid world + collision) and by an impact SPEC
// has the same frame and the same impulse signs.
//
// The contact: a disk / sphere of radius R = 0.5 on the floor, sliding along +x. By the
// convention the floor's tangent is t₁ = +e_x (and t₂ = +e_y in 3D), so
//   u_t = H_tᵀ v = +ẋ for a pure translation, u_t = +R ω for a pure rotation ω about +z (2D: the
//   bottom point moves with ω ẑ × (−R e_y) = +R ω e_x), and
//   Coulomb friction opposes the slip: r_t < 0.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "moreau/contact/rigid_world_system.hpp"
#include "moreau/io/reports/impact_spec.hpp"
#include "moreau/io/scene/scene.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/contact/gallery.hpp"
#include "moreau/sim/simulation.hpp"

namespace moreau {
namespace {

constexpr double kR = 0.5;

// The unilateral constraint of a state (the test systems have exactly one).
const ContactConstraint& only_contact(const ContactState& s) {
  const ContactConstraint* found = nullptr;
  for (const auto& c : s.constraints)
    if (c.kind == ConstraintKind::unilateral) {
      EXPECT_EQ(found, nullptr) << "more than one contact";
      found = &c;
    }
  EXPECT_NE(found, nullptr);
  return *found;
}

std::string disk_scene(int d, const std::string& velocity) {
  const std::string normal = d == 2 ? "[0, 1]" : "[0, 0, 1]";
  const std::string position = d == 2 ? "[0, 0.5]" : "[0, 0, 0.5]";
  return R"({"description": "disk on the floor, sliding along +x", "dimension": )" +
         std::to_string(d) + R"(, "gravity": )" + (d == 2 ? "[0, -9.81]" : "[0, 0, -9.81]") +
         R"(, "static_shapes": [{"type": "plane", "name": "floor", "normal": )" + normal +
         R"(, "offset": 0}], "bodies": [{"name": "disk", "mass": 1, "position": )" + position +
         R"(, "velocity": )" + velocity + R"(, "shapes": [{"type": ")" +
         (d == 2 ? "disk" : "sphere") +
         R"(", "radius": 0.5}]}], "contact": {"default": {"mu": 0.3, "e": 0}},
         "integrator": {"kind": "timestepping", "dt": 0.001}, "t_end": 0.002})";
}

// First contact record's tangential impulse after a short time-stepping run.
double first_tangential_impulse(const LagrangianSystem& sys, const SimulationSettings& st) {
  const SimulationResult r = simulate(sys, st);
  EXPECT_FALSE(r.contacts.empty());
  return r.contacts.empty() ? 0.0 : r.contacts.front().r_t[0];
}

TEST(ContactFrameConvention, GalleryAndScene2DAgree) {
  // gallery: disk_on_plane (a rigid world with an explicit disk–floor pair), q = (x, y, θ)
  auto gallery =
      make_gallery_system("disk_on_plane", {{"radius", kR}, {"x_dot", 1.0}, {"mu", 0.3}});
  const ContactState gs = gallery->contact_state(gallery->initial_q, gallery->initial_v, 0.0);
  const ContactConstraint& gc = only_contact(gs);
  EXPECT_NEAR(gc.normal.dot(Vector3(0, 1, 0)), 1.0, 1e-12);          // ∇h = +e_y
  EXPECT_NEAR(gc.tangent.col(0).dot(Vector3(1, 0, 0)), 1.0, 1e-12);  // u_t = +ẋ
  EXPECT_NEAR(gc.tangent.col(0).dot(Vector3(0, 0, 1)), kR, 1e-12);   // u_t = +R ω

  // scene: the same disk in a rigid world (collision), v = (ẋ, ẏ, ω)
  const Scene scene = parse_scene_text(disk_scene(2, "[1, 0]"), "disk2d");
  const SceneRun run = prepare_scene_run(scene, "", 0.002);
  const Vector& q0 = run.system->initial_q;
  const ContactState ss = run.system->contact_state(q0, run.system->initial_v, 0.0);
  const ContactConstraint& sc = only_contact(ss);
  EXPECT_NEAR(sc.normal.dot(Vector3(0, 1, 0)), 1.0, 1e-12);
  EXPECT_NEAR(sc.tangent.col(0).dot(Vector3(1, 0, 0)), 1.0, 1e-12);
  EXPECT_NEAR(sc.tangent.col(0).dot(Vector3(0, 0, 1)), kR, 1e-12);

  // impulses: both slide along +x, friction points along −x
  SimulationSettings st;
  st.t_end = 0.002;
  st.time_stepping.dt = 0.001;
  EXPECT_LT(first_tangential_impulse(*gallery, st), 0.0);
  EXPECT_LT(first_tangential_impulse(*run.system, run.settings), 0.0);
}

TEST(ContactFrameConvention, SceneAndImpactSpec3DAgree) {
  // scene: sphere on the floor z = 0, v = (V, ω) per body
  const Scene scene = parse_scene_text(disk_scene(3, "[1, 0, 0]"), "sphere3d");
  const SceneRun run = prepare_scene_run(scene, "", 0.002);
  const ContactState ss =
      run.system->contact_state(run.system->initial_q, run.system->initial_v, 0.0);
  const ContactConstraint& sc = only_contact(ss);
  Vector vx = Vector::Zero(6), vy = Vector::Zero(6);
  vx[0] = 1.0;
  vy[1] = 1.0;
  EXPECT_NEAR(sc.tangent.col(0).dot(vx), 1.0, 1e-12);  // t₁ = +e_x
  EXPECT_NEAR(sc.tangent.col(1).dot(vy), 1.0, 1e-12);  // t₂ = +e_y
  EXPECT_LT(first_tangential_impulse(*run.system, run.settings), 0.0);

  // impact SPEC: the sphere hits the ground sliding along +x; the rigid frictional law reports
  // its frame and its impulse in world axes
  const std::string spec = R"({"law": "frictional", "bodies": [{"name": "ball", "mass": 1,
      "inertia": [[0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]], "velocity": [1, 0, -1]}],
      "contacts": [{"bodies": ["ball", "ground"], "point": [0, 0, -0.5], "normal": [0, 0, 1], "mu": 0.3,
      "e": 0.5}]})";
  const nlohmann::json out = nlohmann::json::parse(run_impact_json(spec));
  const auto& frame = out["contacts"][0]["frame"];
  EXPECT_NEAR(frame["u"][0].get<double>(), 1.0, 1e-12);  // t₁ = +e_x
  EXPECT_NEAR(frame["w"][1].get<double>(), 1.0, 1e-12);  // t₂ = +e_y
  const auto& impulse = out["contacts"][0]["impulse"];
  EXPECT_GT(impulse[2].get<double>(), 0.0);  // the normal impulse pushes the ball up
  EXPECT_LT(impulse[0].get<double>(), 0.0);  // friction opposes the slip along +x
}

}  // namespace
}  // namespace moreau
