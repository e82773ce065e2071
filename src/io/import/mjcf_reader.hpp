#pragma once
// The reading half of the MJCF import (io/import/mjcf.hpp): attributes with their default classes
// resolved, checked against what each element supports, numbers and orientations parsed with the
// file and line in every message, and the warnings for what moreau ignores.
#include <tinyxml2.h>

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "moreau/model/rigid/pose.hpp"

namespace moreau::mjcf {

// An attribute's text for a one-line message: line breaks and tabs written as \n, \r, \t.
std::string one_line(const std::string& text);

// One attribute's text and where it was written (an element's own, or its default's).
struct Attribute {
  std::string value;  // the text
  int line = 0;       // line in the file
  std::string file;   // the file (the model or an included one)
};

// Attribute name → attribute, for one element after its default class was applied.
using Attributes = std::map<std::string, Attribute>;

// What an element accepts: attributes honoured, ignored with a warning (with the reason), and
// ignored silently because they only concern rendering.
struct ElementRules {
  std::set<std::string> honoured;             // read by the import
  std::map<std::string, std::string> warned;  // attribute → why it is ignored
  std::set<std::string> visual;               // rgba, material, group …: no physics
  bool warn_unknown = false;                  // true: anything else is warned, not refused
  std::string unknown_reason;                 // the reason given then
};

// The <compiler> settings that change how numbers are read (MuJoCo XML reference §compiler).
struct Compiler {
  bool degrees = true;           // angle="degree" (MuJoCo's default) or "radian"
  std::string eulerseq = "xyz";  // lowercase: axes that move with the frame; uppercase: fixed
  std::string meshdir;           // folder of mesh files (relative to the model's)
  bool autolimits = true;        // a range alone makes a joint limited
  std::string inertiafromgeom = "auto";  // "auto", "true" or "false"
};

// Reads elements of one MJCF model and the files it includes: sources messages, keeps the
// default classes and warnings.
class Reader {
 public:
  // `source` names the model's file in every message about it.
  explicit Reader(std::string source) : source_(std::move(source)) {}

  // Registers the model's own document (parsed from `source`, its includes resolved against
  // `directory`).
  void set_root(const tinyxml2::XMLDocument& doc, const std::string& directory);
  // The child elements of e with every <include file="…"/> replaced by the children of the
  // included file's top element (MuJoCo XML reference §include), recursively; the file is
  // resolved against the including file's folder, and a file included twice (a cycle among
  // them) is refused.
  std::vector<const tinyxml2::XMLElement*> children(const tinyxml2::XMLElement& e);
  // The file an element was read from.
  const std::string& file_of(const tinyxml2::XMLElement& e) const;
  // The folder of the file an element was read from (mesh files are found from the model's).
  std::string folder_of(const tinyxml2::XMLElement& e) const;

  // "FILE:LINE: <tag>" for messages.
  std::string where(const tinyxml2::XMLElement& e) const;
  // Throws std::invalid_argument "FILE:LINE: <tag attribute="value">: reason".
  [[noreturn]] void fail(const tinyxml2::XMLElement& e, const std::string& attribute,
                         const std::string& reason) const;
  // Throws std::invalid_argument "FILE:LINE: <tag>: reason" (no attribute).
  [[noreturn]] void fail_element(const tinyxml2::XMLElement& e, const std::string& reason) const;
  // Records a warning once per (tag, attribute): "FILE:LINE: <tag attribute> ignored: reason"
  // (FILE: `file`, or the model's when empty).
  void warn(const std::string& tag, const std::string& attribute, int line,
            const std::string& reason, const std::string& file = "");
  // Records a warning once per element tag: "FILE:LINE: <tag> ignored: reason".
  void warn_element(const tinyxml2::XMLElement& e, const std::string& reason);
  // The warnings so far, in order.
  const std::vector<std::string>& warnings() const { return warnings_; }
  // Records what the file uses that moreau refuses ("FILE:LINE: <tag …>: reason"), so that one
  // error lists them all (throw_refusals); the reading goes on without it.
  void refuse(const std::string& text) { refused_.push_back(text); }
  // Records an element moreau does not support.
  void refuse_element(const tinyxml2::XMLElement& e, const std::string& reason);
  // Throws std::invalid_argument listing every refusal ("; " between them), if any; fail() and
  // fail_element() list them before their own error.
  void throw_refusals() const;

  // Reads a <default> element (and its nested classes) under parent class `parent`.
  void read_defaults(const tinyxml2::XMLElement& e, const std::string& parent);
  // The element's attributes over its class's defaults for its tag (class = its `class`
  // attribute, else `childclass`, else "main"), checked against `rules`.
  Attributes attributes(const tinyxml2::XMLElement& e, const std::string& childclass,
                        const ElementRules& rules);

  // Parsers; `e` and the attribute name locate errors. Numbers must be finite.
  std::vector<double> numbers(const tinyxml2::XMLElement& e, const Attributes& a,
                              const std::string& name, size_t min_count, size_t max_count) const;
  // One number, or `fallback` when the attribute is absent.
  double number(const tinyxml2::XMLElement& e, const Attributes& a, const std::string& name,
                double fallback) const;
  // A 3-vector, or `fallback` when absent.
  Vector3 vector3(const tinyxml2::XMLElement& e, const Attributes& a, const std::string& name,
                  const Vector3& fallback) const;
  // The frame orientation from quat, euler, axisangle, xyaxes or zaxis (at most one), identity
  // when none (MuJoCo XML reference §Frame orientations).
  Quaternion orientation(const tinyxml2::XMLElement& e, const Attributes& a) const;
  // The rotation of Euler angles as written (compiler angle and eulerseq).
  Quaternion euler_rotation(const Vector3& written) const;
  // An angle as written (degrees or radians per compiler angle) in radians.
  double angle(double written) const;

  Compiler compiler;  // <compiler>, read by the import before the model

 private:
  std::string source_;
  std::map<const tinyxml2::XMLDocument*, std::string> files_;     // document → its file
  std::map<const tinyxml2::XMLDocument*, std::string> folders_;   // document → includes' folder
  std::vector<std::unique_ptr<tinyxml2::XMLDocument>> included_;  // kept alive while reading
  std::set<std::string> included_paths_;                          // every file included so far
  std::vector<std::string> warnings_;
  std::set<std::string> warned_;
  std::vector<std::string> refused_;  // refuse()
  // The refusals so far, each followed by "; " (empty when none).
  std::string pending_refusals() const;
  // class → tag → attributes (a nested class starts from a copy of its parent's)
  std::map<std::string, std::map<std::string, Attributes>> defaults_;
};

}  // namespace moreau::mjcf
