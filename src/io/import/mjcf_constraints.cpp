// MJCF <tendon> and <equality> (mjcf_constraints.hpp).
//   <fixed>    L = Σ coef q_j with MuJoCo's q_j = s_j + ref_j (s_j moreau's coordinate, 0 at the
//              model's pose): offset Σ coef ref_j;
//   <spatial>  straight segments between its <site>s; wrapping <geom>s and <pulley>s are refused;
//   limited tendons bound L by their range (a rope: "0 L");
//   <connect>  a ball closure joint at `anchor` (body1's frame);
//   <weld>     a fixed closure joint holding the pose the two bodies have in the model;
//   <joint>    y − y₀ = Σ a_k (x − x₀)^k with y₀, x₀ the joints' ref: in moreau's coordinates
//              (0 at ref) y = Σ a_k x^k, a coupling;
//   <tendon>   the same on L − L₀ (L₀ the lengths at the model's pose).
// polycoef acts on MuJoCo's qpos, in radians whatever the compiler's angle unit.
// solref and solimp are soft-constraint parameters: moreau's rows are exact.
#include "mjcf_constraints.hpp"

#include <cmath>

#include "moreau/common/error.hpp"

namespace moreau::mjcf {
namespace {

using tinyxml2::XMLElement;

const char* const kSoftRow = "soft-constraint parameter: moreau's equality rows hold exactly";

class ConstraintReader {
 public:
  ConstraintReader(Reader& reader, const std::vector<import::TreeBody>& bodies,
                   const std::vector<Index>& moreau_body, const Constraints& model,
                   RigidWorld& world)
      : r_(reader), bodies_(bodies), moreau_body_(moreau_body), model_(model), world_(world) {
    for (const import::TreeBody& b : bodies)
      for (const import::TreeJointSpec& j : b.joints)
        if (!j.name.empty()) qpos0_[j.name] = j.qpos0;
  }

  void run() {
    for (const XMLElement* section : model_.tendon_sections)
      for (const XMLElement* c : r_.children(*section)) read_tendon(*c);
    for (const XMLElement* section : model_.equality_sections)
      for (const XMLElement* c : r_.children(*section)) read_equality(*c);
  }

 private:
  // The world joint of an MJCF joint name.
  Index joint(const XMLElement& e, const Attributes& a, const char* key) {
    const std::string& name = a.at(key).value;
    for (Index j = 0; j < static_cast<Index>(world_.joints().size()); ++j)
      if (world_.joints()[j].name == name) return j;
    r_.fail(e, key, "no joint of that name");
  }
  Index tendon(const XMLElement& e, const Attributes& a, const char* key) {
    const std::string& name = a.at(key).value;
    for (Index t = 0; t < static_cast<Index>(world_.tendons().size()); ++t)
      if (world_.tendons()[t].name == name) return t;
    r_.fail(e, key, "no tendon of that name");
  }
  // The moreau body of an MJCF body name ("world" is the world body).
  Index body(const XMLElement& e, const Attributes& a, const char* key) {
    const std::string& name = a.at(key).value;
    for (size_t i = 0; i < bodies_.size(); ++i)
      if (bodies_[i].name == name || (i == 0 && name == "world")) return moreau_body_[i];
    r_.fail(e, key, "no body of that name");
  }
  // A point x (world, model's pose) as a site of moreau body b.
  TendonSite site_on(Index b, const Vector3& x) const {
    if (b < 0) return TendonSite{-1, x};
    const Pose& p = world_.body(b).pose;
    return TendonSite{b, p.orientation.conjugate() * (x - p.position)};
  }
  // Turns the model layer's refusal into one naming the element.
  template <class F>
  void add(const XMLElement& e, F&& f) {
    try {
      f();
    } catch (const std::invalid_argument& err) {
      r_.fail_element(e, err.what());
    }
  }
  // limited/range of a tendon (autolimits as for joints).
  void read_limits(const XMLElement& e, const Attributes& a, Tendon& t) {
    const std::string limited = a.contains("limited") ? a.at("limited").value : "auto";
    if (limited != "auto" && limited != "true" && limited != "false")
      r_.fail(e, "limited", "must be auto, true or false");
    t.limited =
        limited == "true" || (limited == "auto" && r_.compiler.autolimits && a.contains("range"));
    if (!t.limited) return;
    if (!a.contains("range")) r_.fail(e, "limited", "a limited tendon needs a range");
    const auto range = r_.numbers(e, a, "range", 2, 2);
    if (!(range[0] <= range[1])) r_.fail(e, "range", "needs lower ≤ upper");
    t.lower = range[0];
    t.upper = range[1];
  }

  void read_tendon(const XMLElement& e) {
    const std::string tag = e.Name();
    if (tag != "fixed" && tag != "spatial")
      r_.fail_element(e, "a <tendon> holds <fixed> and <spatial> tendons");
    ElementRules rules;
    rules.honoured = {"name", "limited", "range"};
    rules.visual = {"rgba", "material", "group", "width", "user"};
    for (const char* k :
         {"solreflimit", "solimplimit", "solreffriction", "solimpfriction", "margin"})
      rules.warned[k] = kSoftRow;
    for (const char* k : {"stiffness", "damping", "frictionloss", "springlength"})
      rules.warned[k] = "tendon springs, dampers and friction are not simulated";
    const Attributes a = r_.attributes(e, "", rules);
    Tendon t;
    if (a.contains("name")) t.name = a.at("name").value;
    read_limits(e, a, t);
    for (const XMLElement* c : r_.children(e)) {
      const std::string child = c->Name();
      ElementRules cr;
      if (tag == "fixed" && child == "joint") {
        cr.honoured = {"joint", "coef"};
        const Attributes ca = r_.attributes(*c, "", cr);
        if (!ca.contains("joint")) r_.fail_element(*c, "<joint> needs joint");
        const Index j = joint(*c, ca, "joint");
        const double coef = r_.number(*c, ca, "coef", 1.0);
        t.joints.push_back(TendonJoint{j, coef});
        t.offset += coef * qpos0_[world_.joints()[j].name];
      } else if (tag == "spatial" && child == "site") {
        cr.honoured = {"site"};
        const Attributes ca = r_.attributes(*c, "", cr);
        if (!ca.contains("site")) r_.fail_element(*c, "<site> needs site");
        const auto it = model_.sites.find(ca.at("site").value);
        if (it == model_.sites.end()) r_.fail(*c, "site", "no site of that name");
        t.path.push_back(
            site_on(moreau_body_[static_cast<size_t>(it->second.body)], it->second.world));
      } else if (tag == "spatial" && (child == "geom" || child == "pulley")) {
        r_.fail_element(*c,
                        "moreau's spatial tendons run straight between their sites: "
                        "wrapping geoms and pulleys are not supported");
      } else {
        r_.fail_element(*c, tag == "fixed" ? "a fixed tendon holds <joint> elements"
                                           : "a spatial tendon holds <site> elements");
      }
    }
    add(e, [&] { world_.add_tendon(t); });
  }

  void read_equality(const XMLElement& e) {
    const std::string tag = e.Name();
    ElementRules rules;
    rules.honoured = {"name", "active"};
    for (const char* k : {"solref", "solimp"}) rules.warned[k] = kSoftRow;
    if (tag == "connect") {
      rules.honoured.insert({"body1", "body2", "anchor"});
    } else if (tag == "weld") {
      rules.honoured.insert({"body1", "body2", "relpose"});
    } else if (tag == "joint") {
      rules.honoured.insert({"joint1", "joint2", "polycoef"});
    } else if (tag == "tendon") {
      rules.honoured.insert({"tendon1", "tendon2", "polycoef"});
    } else {
      r_.fail_element(e, "an <equality> holds <connect>, <weld>, <joint> and <tendon>");
    }
    const Attributes a = r_.attributes(e, "", rules);
    if (a.contains("active") && a.at("active").value == "false") {
      r_.warn_element(e, "inactive (active=\"false\"): left out");
      return;
    }
    const std::string name = a.contains("name") ? a.at("name").value : "";
    if (tag == "connect" || tag == "weld") {
      if (!a.contains("body1")) r_.fail_element(e, fmt::format("<{}> needs body1", tag));
      Joint j;
      j.name = name.empty() ? fmt::format("{}{}", tag, world_.joints().size()) : name;
      j.closure = true;
      j.kind = tag == "connect" ? JointKind::ball : JointKind::fixed;
      j.body_a = body(e, a, "body1");
      j.body_b = a.contains("body2") ? body(e, a, "body2") : -1;
      auto fixed = [&](Index b) { return b < 0 || world_.body(b).is_static; };
      if (fixed(j.body_a) && fixed(j.body_b))
        r_.fail(e, "body1", "both bodies are fixed to the world");
      if (fixed(j.body_a)) std::swap(j.body_a, j.body_b);
      // the point held: the anchor (connect, body1's file frame) or body1's centre (weld)
      Vector3 x = world_.body(j.body_a).pose.position;
      if (tag == "connect") {
        if (!a.contains("anchor")) r_.fail_element(e, "<connect> needs anchor");
        for (size_t i = 0; i < bodies_.size(); ++i)
          if (bodies_[i].name == a.at("body1").value)
            x = bodies_[i].frame.apply(r_.vector3(e, a, "anchor", Vector3::Zero()));
      }
      if (tag == "weld" && a.contains("relpose")) {
        const auto p = r_.numbers(e, a, "relpose", 7, 7);
        if (p[3] != 0 || p[4] != 0 || p[5] != 0 || p[6] != 0)
          r_.fail(e, "relpose", "moreau's weld holds the pose of the model; give no relpose");
      }
      j.anchor_a = site_on(j.body_a, x).point;
      j.anchor_b = site_on(j.body_b, x).point;
      add(e, [&] { world_.add_joint(j); });
      return;
    }
    Coupling c;
    c.name = name.empty() ? fmt::format("{}{}", tag, world_.couplings().size()) : name;
    c.kind = tag == "joint" ? CouplingKind::joint : CouplingKind::tendon;
    const char* first = tag == "joint" ? "joint1" : "tendon1";
    const char* second = tag == "joint" ? "joint2" : "tendon2";
    if (!a.contains(first)) r_.fail_element(e, fmt::format("<{}> needs {}", tag, first));
    c.first = tag == "joint" ? joint(e, a, first) : tendon(e, a, first);
    if (a.contains(second)) c.second = tag == "joint" ? joint(e, a, second) : tendon(e, a, second);
    if (a.contains("polycoef")) {
      const auto p = r_.numbers(e, a, "polycoef", 5, 5);
      std::copy(p.begin(), p.end(), c.polycoef.begin());
    }
    add(e, [&] { world_.add_coupling(c); });
  }

  Reader& r_;
  const std::vector<import::TreeBody>& bodies_;
  const std::vector<Index>& moreau_body_;
  const Constraints& model_;
  RigidWorld& world_;
  std::map<std::string, double> qpos0_;  // MJCF joint name → ref
};

}  // namespace

void add_constraints(Reader& reader, const std::vector<import::TreeBody>& bodies,
                     const std::vector<Index>& moreau_body, const Constraints& model,
                     RigidWorld& world) {
  ConstraintReader(reader, bodies, moreau_body, model, world).run();
}

}  // namespace moreau::mjcf
