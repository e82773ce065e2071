// MJCF <actuator> (MuJoCo XML reference §actuator) as moreau actuators (model/rigid/actuator.hpp),
// joint transmissions only:
//   motor     gain 1, bias 0;
//   position  gain kp, bias (0, −kp, −kv)      (kp default 1; kv from MuJoCo 3.1, default 0);
//   velocity  gain kv, bias (0, 0, −kv)         (kv default 1);
//   general   gain gainprm[0] (gaintype fixed), bias biasprm[0..2] (biastype none or affine),
//             dyntype none.
// gear's first entry scales the joint; ctrlrange/ctrllimited clamp the control and
// forcerange/forcelimited the force, with compiler autolimits as for joint ranges. Activation
// dynamics and other transmissions are refused, naming the element.
#include <array>
#include <cmath>
#include <map>

#include "mjcf_constraints.hpp"
#include "moreau/common/error.hpp"

namespace moreau::mjcf {
namespace {

using tinyxml2::XMLElement;

// limited/range pair (`ctrl` or `force`) with autolimits: true and the bounds when limited.
bool read_range(Reader& r, const XMLElement& e, const Attributes& a, const std::string& what,
                double& lower, double& upper) {
  const std::string limited_key = what + "limited", range_key = what + "range";
  const std::string limited = a.contains(limited_key) ? a.at(limited_key).value : "auto";
  if (limited != "auto" && limited != "true" && limited != "false")
    r.fail(e, limited_key, "must be auto, true or false");
  const bool on =
      limited == "true" || (limited == "auto" && r.compiler.autolimits && a.contains(range_key));
  if (!on) return false;
  if (!a.contains(range_key)) r.fail(e, limited_key, "a limited actuator needs " + range_key);
  const auto range = r.numbers(e, a, range_key, 2, 2);
  if (!(range[0] <= range[1])) r.fail(e, range_key, "needs lower ≤ upper");
  lower = range[0];
  upper = range[1];
  return true;
}

void read_actuator(Reader& r, const XMLElement& e, const std::map<std::string, double>& qpos0,
                   RigidWorld& world) {
  const std::string tag = e.Name();
  ElementRules rules;
  rules.honoured = {"name",        "joint",      "gear",        "ctrlrange",
                    "ctrllimited", "forcerange", "forcelimited"};
  rules.visual = {"group", "user"};
  if (tag == "position") {
    rules.honoured.insert({"kp", "kv"});
  } else if (tag == "velocity") {
    rules.honoured.insert("kv");
  } else if (tag == "general") {
    rules.honoured.insert({"gaintype", "gainprm", "biastype", "biasprm", "dyntype", "dynprm"});
  } else if (tag != "motor") {
    r.fail_element(e, "moreau reads <motor>, <position>, <velocity> and <general> actuators");
  }
  for (const char* k :
       {"tendon", "site", "body", "jointinparent", "cranksite", "slidersite", "refsite"})
    if (e.Attribute(k))
      r.fail(e, k,
             "moreau's actuators drive a joint (joint=\"…\"); other transmissions are not "
             "supported");
  const Attributes a = r.attributes(e, "", rules);
  if (!a.contains("joint")) r.fail_element(e, fmt::format("<{}> needs joint", tag));
  Actuator act;
  if (a.contains("name")) act.name = a.at("name").value;
  const std::string& joint = a.at("joint").value;
  act.joint = -1;
  for (Index j = 0; j < static_cast<Index>(world.joints().size()); ++j)
    if (world.joints()[j].name == joint) act.joint = j;
  if (act.joint < 0) r.fail(e, "joint", "no joint of that name");
  act.gear = a.contains("gear") ? r.numbers(e, a, "gear", 1, 6)[0] : 1.0;
  if (tag == "motor") {
    act.gain = 1.0;
  } else if (tag == "position") {
    const double kp = r.number(e, a, "kp", 1.0), kv = r.number(e, a, "kv", 0.0);
    if (!(kp >= 0)) r.fail(e, "kp", "must be ≥ 0");
    if (!(kv >= 0)) r.fail(e, "kv", "must be ≥ 0");
    act.gain = kp;
    act.bias = {0.0, -kp, -kv};
  } else if (tag == "velocity") {
    const double kv = r.number(e, a, "kv", 1.0);
    if (!(kv >= 0)) r.fail(e, "kv", "must be ≥ 0");
    act.gain = kv;
    act.bias = {0.0, 0.0, -kv};
  } else {
    const std::string dyn = a.contains("dyntype") ? a.at("dyntype").value : "none";
    if (dyn != "none")
      r.fail(e, "dyntype", "activation dynamics are not simulated (dyntype \"none\" only)");
    const std::string gaintype = a.contains("gaintype") ? a.at("gaintype").value : "fixed";
    if (gaintype != "fixed") r.fail(e, "gaintype", "only \"fixed\" gains are simulated");
    const std::string biastype = a.contains("biastype") ? a.at("biastype").value : "none";
    if (biastype != "none" && biastype != "affine")
      r.fail(e, "biastype", "only \"none\" and \"affine\" biases are simulated");
    act.gain = a.contains("gainprm") ? r.numbers(e, a, "gainprm", 1, 10)[0] : 1.0;
    if (biastype == "affine" && a.contains("biasprm")) {
      const auto b = r.numbers(e, a, "biasprm", 1, 10);
      for (size_t k = 0; k < 3 && k < b.size(); ++k) act.bias[k] = b[k];
    }
  }
  // MuJoCo's length is gear·qpos with qpos = s + ref: b₁ gear ref moves into b₀
  if (const auto it = qpos0.find(joint); it != qpos0.end())
    act.bias[0] += act.bias[1] * act.gear * it->second;
  act.ctrl_limited = read_range(r, e, a, "ctrl", act.ctrl_lower, act.ctrl_upper);
  act.force_limited = read_range(r, e, a, "force", act.force_lower, act.force_upper);
  try {
    world.add_actuator(act);
  } catch (const std::invalid_argument& err) {
    r.fail_element(e, err.what());
  }
}

}  // namespace

void add_actuators(Reader& reader, const std::vector<import::TreeBody>& bodies,
                   const Constraints& model, RigidWorld& world) {
  std::map<std::string, double> qpos0;
  for (const import::TreeBody& b : bodies)
    for (const import::TreeJointSpec& j : b.joints)
      if (!j.name.empty()) qpos0[j.name] = j.qpos0;
  for (const XMLElement* section : model.actuator_sections)
    for (const XMLElement* c : reader.children(*section)) read_actuator(reader, *c, qpos0, world);
}

}  // namespace moreau::mjcf
