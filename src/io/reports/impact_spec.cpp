// JSON front end of the impact laws (see impact_spec.hpp and docs/cli.md (moreau impact)).
#include "moreau/io/reports/impact_spec.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "moreau/analysis/kinetic_quasi_velocities.hpp"
#include "moreau/common/error.hpp"
#include "moreau/io/json/json_reader.hpp"
#include "moreau/io/json/json_result.hpp"
#include "moreau/model/contact_frame.hpp"
#include "moreau/impact/compliant_impact.hpp"
#include "moreau/impact/energetic_consistency.hpp"
#include "moreau/impact/impact_laws.hpp"

namespace moreau {

namespace {

using json = nlohmann::json;

using namespace json_io;

Vector3 vec3(const json& j, const std::string& where) { return Vector3(numbers(j, where, 3)); }

Vector3 vec3_or(const json& obj, const char* key, const Vector3& fallback,
                const std::string& where) {
  return obj.contains(key) ? vec3(obj.at(key), join(where, key)) : fallback;
}

json to_json(const Vector3& v) { return json::array({v.x(), v.y(), v.z()}); }

RigidBodyScene scene_from(const json& spec) {
  MOREAU_REQUIRE(spec.is_object(), "the impact SPEC must be a JSON object");
  check_keys(spec, "",
             {"description", "law", "variant", "step", "curve_samples", "error_estimate", "bodies",
              "contacts", "E", "E_nn", "with_friction", "solver"});
  MOREAU_REQUIRE(spec.contains("bodies") && spec["bodies"].is_array(),
                 "the impact SPEC needs an array 'bodies'");
  MOREAU_REQUIRE(spec.contains("contacts") && spec["contacts"].is_array(),
                 "the impact SPEC needs an array 'contacts'");
  RigidBodyScene s;
  for (size_t b = 0; b < spec["bodies"].size(); ++b) {
    const json& jb = spec["bodies"][b];
    const std::string w = fmt::format("bodies[{}]", b);
    check_keys(jb, w, {"name", "mass", "inertia", "com", "velocity", "angular_velocity"});
    RigidBody body;  // identity orientation: the SPEC's inertia is in world axes
    MOREAU_REQUIRE(jb.contains("name") && jb["name"].is_string(), "{}.name must be a string", w);
    body.name = jb["name"].get<std::string>();
    MOREAU_REQUIRE(jb.contains("mass"), "{}.mass is missing", w);
    body.mass = as_number(jb["mass"], w + ".mass");
    MOREAU_REQUIRE(jb.contains("inertia"), "{}.inertia (3×3, world axes) is missing", w);
    body.inertia = matrix(jb["inertia"], w + ".inertia", 3, 3);
    body.pose.position = vec3_or(jb, "com", Vector3::Zero(), w);
    body.linear_velocity = vec3_or(jb, "velocity", Vector3::Zero(), w);
    body.angular_velocity = vec3_or(jb, "angular_velocity", Vector3::Zero(), w);
    s.bodies.push_back(body);
  }
  for (size_t i = 0; i < spec["contacts"].size(); ++i) {
    const json& jc = spec["contacts"][i];
    const std::string w = fmt::format("contacts[{}]", i);
    check_keys(jc, w,
               {"bodies", "point", "normal", "mu", "e", "e_t", "stiffness", "poisson_ratio",
                "eta0_squared"});
    BodyContact c;
    MOREAU_REQUIRE(jc.contains("bodies") && jc["bodies"].is_array() && !jc["bodies"].empty() &&
                       jc["bodies"].size() <= 2,
                   "{}.bodies must list one or two body names (the second may be \"ground\")", w);
    for (const json& n : jc["bodies"])
      MOREAU_REQUIRE(n.is_string(), "{}.bodies must hold names, got {}", w, n.dump());
    c.body_a = jc["bodies"][0].get<std::string>();
    c.body_b = jc["bodies"].size() == 2 ? jc["bodies"][1].get<std::string>() : kGroundName;
    MOREAU_REQUIRE(jc.contains("point"), "{}.point is missing", w);
    MOREAU_REQUIRE(jc.contains("normal"), "{}.normal is missing", w);
    c.point = vec3(jc["point"], w + ".point");
    c.normal = vec3(jc["normal"], w + ".normal");
    c.mu = number(jc, w, "mu", 0.0);
    c.e = number(jc, w, "e", 0.0);
    c.e_t = number(jc, w, "e_t", 0.0);
    c.stiffness = number(jc, w, "stiffness", 1.0);
    MOREAU_REQUIRE(!(jc.contains("poisson_ratio") && jc.contains("eta0_squared")),
                   "{}: give either poisson_ratio or eta0_squared, not both", w);
    if (jc.contains("poisson_ratio")) {
      const double nu = as_number(jc["poisson_ratio"], w + ".poisson_ratio");
      MOREAU_REQUIRE(nu >= 0.0 && nu <= 0.5, "{}.poisson_ratio must lie in [0, 0.5], got {}", w,
                     nu);
      c.eta0_squared = eta0_squared_from_poisson(nu);
    } else if (jc.contains("eta0_squared")) {
      c.eta0_squared = as_number(jc["eta0_squared"], w + ".eta0_squared");
    } else {
      c.eta0_squared = std::nan("");  // required by the compliant law when μ > 0
    }
    s.contacts.push_back(c);
  }
  MOREAU_REQUIRE(!s.contacts.empty(), "the impact SPEC has no contacts");
  // validate_scene refuses NaN η0²: default it (unused by the rigid laws) and check later.
  RigidBodyScene checked = s;
  for (BodyContact& c : checked.contacts)
    if (std::isnan(c.eta0_squared)) c.eta0_squared = 1.0;
  checked = validate_scene(checked);
  for (size_t i = 0; i < s.contacts.size(); ++i)
    if (std::isnan(s.contacts[i].eta0_squared)) checked.contacts[i].eta0_squared = std::nan("");
  return checked;
}

json bodies_json(const RigidBodyScene& s) {
  json a = json::array();
  for (const RigidBody& b : s.bodies)
    a.push_back({{"name", b.name},
                 {"velocity", to_json(b.linear_velocity)},
                 {"angular_velocity", to_json(b.angular_velocity)}});
  return a;
}

json frame_json(const Matrix3& F) {
  return {{"normal", to_json(Vector3(F.col(0)))},
          {"u", to_json(Vector3(F.col(1)))},
          {"w", to_json(Vector3(F.col(2)))}};
}

json run_compliant(const json& spec, RigidBodyScene scene) {
  for (size_t i = 0; i < scene.contacts.size(); ++i) {
    BodyContact& c = scene.contacts[i];
    if (std::isnan(c.eta0_squared)) {
      MOREAU_REQUIRE(c.mu == 0.0,
                     "contacts[{}]: the compliant law needs poisson_ratio or eta0_squared", i);
      c.eta0_squared = 1.0;
    }
  }
  CompliantImpactSettings st;
  if (spec.contains("variant")) {
    st.variant = compliant_variant_from_string(string_field(spec, "", "variant", ""));
  }
  st.step = number(spec, "", "step", 0.0);
  MOREAU_REQUIRE(st.step >= 0.0, "step must be ≥ 0 (0 or absent = automatic), got {}", st.step);
  st.curve_samples = static_cast<int>(number(spec, "", "curve_samples", 200));
  st.estimate_error = bool_field(spec, "", "error_estimate", true);
  const CompliantImpactResult r = compliant_impact(scene, st);
  json out;
  out["law"] = "compliant";
  out["variant"] = std::string(to_string(r.variant));
  out["status"] = std::string(to_string(r.status));
  if (!r.message.empty()) out["message"] = r.message;
  out["bodies"] = bodies_json(r.post);
  json contacts = json::array();
  for (size_t i = 0; i < r.contacts.size(); ++i) {
    const CompliantContactResult& c = r.contacts[i];
    json jc;
    jc["bodies"] = {scene.contacts[i].body_a, scene.contacts[i].body_b};
    jc["impulse"] = to_json(c.impulse);
    jc["normal_impulse"] = c.impulse.dot(c.frame.col(0));
    jc["frame"] = frame_json(c.frame);
    json ev = json::array();
    for (const CompliantEvent& e : c.events)
      ev.push_back({{"kind", e.kind},
                    {"normal_impulse", e.normal_impulse},
                    {"tangential_impulse", {e.impulse[1], e.impulse[2]}},
                    {"velocity", to_json(e.velocity)}});
    jc["events"] = ev;
    json cv;
    std::vector<double> iu, iw, vn, vu, vw;
    for (size_t k = 0; k < c.curve.normal_impulse.size(); ++k) {
      iu.push_back(c.curve.impulse[k][1]);
      iw.push_back(c.curve.impulse[k][2]);
      vn.push_back(c.curve.velocity[k][0]);
      vu.push_back(c.curve.velocity[k][1]);
      vw.push_back(c.curve.velocity[k][2]);
    }
    cv["normal_impulse"] = c.curve.normal_impulse;
    cv["impulse_u"] = iu;
    cv["impulse_w"] = iw;
    cv["velocity_n"] = vn;
    cv["velocity_u"] = vu;
    cv["velocity_w"] = vw;
    jc["curve"] = cv;
    contacts.push_back(jc);
  }
  out["contacts"] = contacts;
  out["kinetic_energy"] = {{"before", r.kinetic_energy_before},
                           {"after", r.kinetic_energy_after},
                           {"change", r.kinetic_energy_after - r.kinetic_energy_before}};
  out["step"] = r.step;
  out["steps"] = r.steps;
  out["error_estimate"] = optional_number(r.error_estimate);
  return out;
}

json criteria_json(const ConsistencyReport& rep) {
  json a = json::array();
  for (const ConsistencyCriterion& c : rep.criteria)
    a.push_back({{"name", c.name},
                 {"statement", c.statement},
                 {"applicable", c.applicable},
                 {"exact", c.exact},
                 {"holds", c.holds},
                 {"value", optional_number(c.value)},
                 {"bound", optional_number(c.bound)},
                 {"margin", optional_number(c.margin)}});
  return a;
}

json run_rigid(const json& spec, const std::string& law, const RigidBodyScene& scene) {
  const ContactState state = scene_contact_state(scene);
  const Index m = state.size();
  ImpactResult r;
  Matrix Enn = Matrix::Zero(m, m);
  for (Index i = 0; i < m; ++i) Enn(i, i) = scene.contacts[static_cast<size_t>(i)].e;
  if (law == "newton") {
    r = newton_impact(state);
  } else if (law == "poisson") {
    r = poisson_impact(state);
  } else if (law == "moreau") {
    r = moreau_impact(state);
  } else if (law == "restitution_matrix" || law == "kinematic") {
    Matrix E;
    if (spec.contains("E")) {
      E = matrix(spec["E"], "E");
    } else {
      if (spec.contains("E_nn")) Enn = matrix(spec["E_nn"], "E_nn");
      MOREAU_REQUIRE(Enn.rows() == m && Enn.cols() == m, "E_nn must be {}×{}, got {}×{}", m, m,
                     Enn.rows(), Enn.cols());
      E = frictionless_restitution_matrix(Enn, state.dofs());
    }
    const bool friction = bool_field(spec, "", "with_friction", false);
    r = restitution_matrix_impact(state, E, friction);
  } else if (law == "frictional") {
    FrictionalImpactSettings fs;
    fs.e_t = Vector(m);
    for (Index i = 0; i < m; ++i) fs.e_t[i] = scene.contacts[static_cast<size_t>(i)].e_t;
    fs.solver = string_field(spec, "", "solver", fs.solver);
    r = frictional_impact(state, fs);
  } else {
    throw_invalid(
        "unknown law '{}' (expected compliant, newton, poisson, moreau, restitution_matrix or "
        "frictional)",
        law);
  }
  json out;
  out["law"] = law;
  out["status"] = std::string(to_string(r.status));
  if (!r.message.empty()) out["message"] = r.message;
  out["bodies"] = bodies_json(with_velocity(scene, r.v_post));
  json contacts = json::array();
  for (Index i = 0; i < m; ++i) {
    const Matrix3 F =
        contact_frame(scene.contacts[static_cast<size_t>(i)].normal, 3);  // as scene_contact_state
    Vector3 I = F.col(0) * r.normal_impulse[i];
    if (r.tangential_impulse.size() == 2 * m)
      I += F.col(1) * r.tangential_impulse[2 * i] + F.col(2) * r.tangential_impulse[2 * i + 1];
    json jc;
    jc["bodies"] = {scene.contacts[static_cast<size_t>(i)].body_a,
                    scene.contacts[static_cast<size_t>(i)].body_b};
    jc["impulse"] = to_json(I);
    jc["normal_impulse"] = r.normal_impulse[i];
    jc["frame"] = frame_json(F);
    jc["normal_velocity"] = {
        {"before", r.normal_velocity_before[i]},
        {"after", r.normal_velocity_after.size() ? r.normal_velocity_after[i] : 0.0}};
    jc["events"] = json::array();
    contacts.push_back(jc);
  }
  out["contacts"] = contacts;
  out["kinetic_energy"] = {{"before", r.kinetic_energy_before},
                           {"after", r.kinetic_energy_after},
                           {"change", r.kinetic_energy_after - r.kinetic_energy_before}};
  out["residual"] = optional_number(r.residual);
  if (law == "frictional") out["solutions"] = r.solutions;
  // Energetic consistency of the frictionless restitution E_nn at this configuration.
  if (law != "frictional" && m <= 16) {
    const KineticQuasiVelocities k = kinetic_quasi_velocities(state.M, state.normal_jacobian());
    out["consistency"] = criteria_json(frictionless_consistency(k.G, Enn));
  }
  return out;
}

}  // namespace

json run_impact(const json& spec, const std::string& source) {
  return with_source(source, [&] {
    const RigidBodyScene scene = scene_from(spec);
    const std::string law = string_field(spec, "", "law", "compliant");
    json out = law == "compliant" ? run_compliant(spec, scene) : run_rigid(spec, law, scene);
    // A NaN or an infinity would be written as null: refused here, with the field, rather than
    // by whoever reads the document back. A law that failed says why in its status and message.
    const std::string status = out.value("status", "");
    const std::string why = status == "numerical_failure" || status == "not_converged"
                                ? fmt::format("the law ended {}: {}", status,
                                              out.value("message", std::string("no message")))
                                : "the arithmetic overflowed";
    require_finite_result(
        out, source, "impact law's result",
        fmt::format("{} (the SPEC's largest number is {})", why, largest_number(spec)));
    return out;
  });
}

json run_impact_file(const std::string& path) { return run_impact(read_file(path), path); }

std::string run_impact_json(const std::string& spec_json, int indent, const std::string& source) {
  return with_source(source, [&] { return run_impact(parse_text(spec_json, source), source); })
      .dump(indent);
}

}  // namespace moreau
