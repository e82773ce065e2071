// URDF's schema as urdfdom reads it (urdf_schema.hpp).
#include "urdf_schema.hpp"

#include <map>
#include <set>

#include <fmt/format.h>
#include <tinyxml2.h>

namespace moreau::import {
namespace {

// Element → its attributes and child elements.
struct Rule {
  std::set<std::string> attributes, children;
};

const std::map<std::string, Rule>& rules() {
  static const std::map<std::string, Rule> r = {
      {"robot", {{"name", "version"}, {"link", "joint", "material", "gazebo", "transmission"}}},
      {"link", {{"name", "type"}, {"inertial", "visual", "collision"}}},
      {"inertial", {{}, {"origin", "mass", "inertia"}}},
      {"origin", {{"xyz", "rpy"}, {}}},
      {"mass", {{"value"}, {}}},
      {"inertia", {{"ixx", "ixy", "ixz", "iyy", "iyz", "izz"}, {}}},
      {"visual", {{"name"}, {"origin", "geometry", "material"}}},
      {"collision", {{"name"}, {"origin", "geometry"}}},
      {"geometry", {{}, {"box", "cylinder", "sphere", "mesh", "capsule"}}},
      {"box", {{"size"}, {}}},
      {"cylinder", {{"radius", "length"}, {}}},
      {"capsule", {{"radius", "length"}, {}}},
      {"sphere", {{"radius"}, {}}},
      {"mesh", {{"filename", "scale"}, {}}},
      {"material", {{"name"}, {"color", "texture"}}},
      {"color", {{"rgba"}, {}}},
      {"texture", {{"filename"}, {}}},
      {"joint",
       {{"name", "type"},
        {"origin", "parent", "child", "axis", "calibration", "dynamics", "limit", "mimic",
         "safety_controller"}}},
      {"parent", {{"link"}, {}}},
      {"child", {{"link"}, {}}},
      {"axis", {{"xyz"}, {}}},
      {"calibration", {{"rising", "falling", "reference_position"}, {}}},
      {"dynamics", {{"damping", "friction"}, {}}},
      {"limit", {{"lower", "upper", "effort", "velocity"}, {}}},
      {"mimic", {{"joint", "multiplier", "offset"}, {}}},
      {"safety_controller",
       {{"soft_lower_limit", "soft_upper_limit", "k_position", "k_velocity"}, {}}},
  };
  return r;
}

class Checker {
 public:
  explicit Checker(std::string path) : path_(std::move(path)) {}
  // Checks e (whose tag its parent accepts) and its subtree.
  void check(const tinyxml2::XMLElement& e) {
    const std::string tag = e.Name();
    const Rule& rule = rules().at(tag);
    for (const auto* a = e.FirstAttribute(); a; a = a->Next()) {
      const std::string name = a->Name();
      if (rule.attributes.contains(name) || name.starts_with("xmlns")) continue;
      warn(e, tag + " " + name, "not a URDF attribute (urdfdom reads past it)");
    }
    for (const auto* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string child = c->Name();
      if (child == "gazebo") {
        warn(*c, child, "Gazebo's plugins and settings have no meaning in moreau");
      } else if (child == "transmission") {
        warn(*c, child,
             "ros_control's wiring of actuators; moreau's motors act on the joints directly");
      } else if (!rule.children.contains(child) || !rules().contains(child)) {
        warn(*c, child, fmt::format("not an element of URDF's <{}> (urdfdom reads past it)", tag));
      } else {
        check(*c);
      }
    }
  }
  std::vector<std::string> warnings;

 private:
  void warn(const tinyxml2::XMLElement& e, const std::string& what, const std::string& reason) {
    if (seen_.insert(what).second)
      warnings.push_back(
          fmt::format("{}:{}: <{}> ignored: {}", path_, e.GetLineNum(), what, reason));
  }
  std::string path_;
  std::set<std::string> seen_;
};

}  // namespace

std::vector<std::string> urdf_schema_warnings(const std::string& text, const std::string& path) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(text.c_str(), text.size()) != tinyxml2::XML_SUCCESS) return {};
  const tinyxml2::XMLElement* robot = doc.RootElement();
  if (!robot || std::string(robot->Name()) != "robot") return {};
  Checker checker(path);
  checker.check(*robot);
  return checker.warnings;
}

}  // namespace moreau::import
