// MuJoCo's attribute names per element (mjcf_schema.hpp), from the XML reference.
#include "mjcf_schema.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

namespace moreau::mjcf {
namespace {

// The frame attributes every placed element takes.
const std::vector<std::string> kFrame = {"pos", "quat", "axisangle", "xyaxes", "zaxis", "euler"};

const std::map<std::string, std::vector<std::string>>& schema() {
  static const std::map<std::string, std::vector<std::string>> s = [] {
    std::map<std::string, std::vector<std::string>> m = {
        {"geom",
         {"name",    "class",        "type",   "group",    "priority",   "contype",  "conaffinity",
          "condim",  "friction",     "solmix", "solref",   "solimp",     "margin",   "gap",
          "fromto",  "hfield",       "mesh",   "fitscale", "rgba",       "size",     "material",
          "density", "shellinertia", "mass",   "user",     "fluidshape", "fluidcoef"}},
        {"body", {"name", "childclass", "mocap", "gravcomp", "user"}},
        {"joint",
         {"name",
          "class",
          "type",
          "group",
          "pos",
          "axis",
          "springdamper",
          "limited",
          "actuatorfrclimited",
          "actuatorgravcomp",
          "solreflimit",
          "solimplimit",
          "solreffriction",
          "solimpfriction",
          "stiffness",
          "range",
          "actuatorfrcrange",
          "margin",
          "ref",
          "springref",
          "armature",
          "damping",
          "frictionloss",
          "user"}},
        {"freejoint", {"name", "group", "align"}},
        {"site", {"name", "class", "type", "group", "material", "rgba", "size", "fromto", "user"}},
        {"inertial", {"mass", "diaginertia", "fullinertia"}},
        {"mesh",
         {"name", "class", "content_type", "file", "vertex", "normal", "texcoord", "face", "refpos",
          "refquat", "scale", "smoothnormal", "maxhullvert", "inertia", "builtin", "params",
          "material"}},
        {"option",
         {"timestep",
          "apirate",
          "impratio",
          "tolerance",
          "ls_tolerance",
          "noslip_tolerance",
          "ccd_tolerance",
          "gravity",
          "wind",
          "magnetic",
          "density",
          "viscosity",
          "o_margin",
          "o_solref",
          "o_solimp",
          "o_friction",
          "integrator",
          "cone",
          "jacobian",
          "solver",
          "iterations",
          "ls_iterations",
          "noslip_iterations",
          "ccd_iterations",
          "sdf_iterations",
          "sdf_initpoints",
          "actuatorgroupdisable",
          "sleep_tolerance"}},
        {"compiler", {"autolimits",      "boundmass",         "boundinertia",     "settotalmass",
                      "balanceinertia",  "strippath",         "coordinate",       "angle",
                      "fitaabb",         "eulerseq",          "meshdir",          "texturedir",
                      "discardvisual",   "convexhull",        "usethread",        "fusestatic",
                      "inertiafromgeom", "inertiagrouprange", "exactmeshinertia", "assetdir",
                      "alignfree",       "saveinertial"}},
        {"key", {"name", "time", "qpos", "qvel", "act", "mpos", "mquat", "ctrl"}},
        {"camera",
         {"name", "class", "mode", "target", "fovy", "ipd", "resolution", "focal", "focalpixel",
          "principal", "principalpixel", "sensorsize", "user", "orthographic"}},
        {"light",
         {"name", "class", "mode", "target", "directional", "castshadow", "active", "dir",
          "attenuation", "cutoff", "exponent", "ambient", "diffuse", "specular", "bulb", "type",
          "texture", "intensity", "range"}},
    };
    for (const char* tag : {"body", "geom", "site", "inertial", "camera", "light"})
      m[tag].insert(m[tag].end(), kFrame.begin(), kFrame.end());
    const std::vector<std::string> actuator = {
        "name",      "class",         "group",     "ctrllimited", "forcelimited", "actlimited",
        "ctrlrange", "forcerange",    "actrange",  "lengthrange", "gear",         "cranklength",
        "joint",     "jointinparent", "tendon",    "cranksite",   "slidersite",   "site",
        "refsite",   "body",          "user",      "actdim",      "dyntype",      "gaintype",
        "biastype",  "dynprm",        "gainprm",   "biasprm",     "actearly",     "kp",
        "kv",        "dampratio",     "timeconst", "inheritrange"};
    for (const char* tag : {"motor", "position", "velocity", "general", "intvelocity", "damper",
                            "cylinder", "muscle", "adhesion"})
      m[tag] = actuator;
    return m;
  }();
  return s;
}

}  // namespace

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string unknown_or_unsupported(const std::string& tag, const std::string& attribute,
                                   const ElementRules& rules) {
  const auto it = schema().find(tag);
  const bool known = it == schema().end() ||
                     std::find(it->second.begin(), it->second.end(), attribute) != it->second.end();
  if (known) return "attribute not supported by moreau's MJCF import (docs/mjcf.md)";
  std::set<std::string> names(it->second.begin(), it->second.end());
  names.insert(rules.honoured.begin(), rules.honoured.end());
  std::string best;
  size_t best_distance = 3;
  for (const std::string& n : names) {
    const size_t d = edit_distance(attribute, n);
    if (d < best_distance) best_distance = d, best = n;
  }
  return best.empty() ? "unknown attribute (MuJoCo's <" + tag + "> has no such attribute)"
                      : "unknown attribute: did you mean '" + best + "'?";
}

}  // namespace moreau::mjcf
