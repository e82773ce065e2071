// MJCF attributes, default classes, numbers and orientations (MuJoCo XML reference §default,
// §Frame orientations), with the file and line in every message.
#include "mjcf_reader.hpp"

#include "mjcf_schema.hpp"

#include <cctype>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "moreau/common/error.hpp"
#include "moreau/io/os/input_file.hpp"

namespace moreau::mjcf {

// An attribute's text for a one-line message: line breaks and tabs written as \n, \r, \t.
std::string one_line(const std::string& text) {
  std::string out;
  for (const char c : text)
    out += c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : std::string(1, c);
  return out;
}

void Reader::set_root(const tinyxml2::XMLDocument& doc, const std::string& directory) {
  files_[&doc] = source_;
  folders_[&doc] = directory;
}

const std::string& Reader::file_of(const tinyxml2::XMLElement& e) const {
  const auto it = files_.find(e.GetDocument());
  return it == files_.end() ? source_ : it->second;
}

std::string Reader::folder_of(const tinyxml2::XMLElement& e) const {
  const auto it = folders_.find(e.GetDocument());
  return it == folders_.end() ? std::string(".") : it->second;
}

std::vector<const tinyxml2::XMLElement*> Reader::children(const tinyxml2::XMLElement& e) {
  std::vector<const tinyxml2::XMLElement*> out;
  for (const auto* c = e.FirstChildElement(); c; c = c->NextSiblingElement()) {
    if (std::string(c->Name()) != "include") {
      out.push_back(c);
      continue;
    }
    const char* file = c->Attribute("file");
    if (!file) fail_element(*c, "an <include> needs a file");
    for (const tinyxml2::XMLAttribute* a = c->FirstAttribute(); a; a = a->Next())
      if (std::string(a->Name()) != "file") fail(*c, a->Name(), "unknown attribute of <include>");
    const std::filesystem::path path = std::filesystem::path(folder_of(*c)) / file;
    std::error_code ec;
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(path, ec);
    if (!included_paths_.insert(canonical.string()).second)
      fail(*c, "file",
           "this file is already included (a file is included once; a cycle of includes is "
           "refused)");
    if (const std::string why = unreadable_reason(path.string()); !why.empty())
      fail(*c, "file", path.string() + ": " + why);
    auto doc = std::make_unique<tinyxml2::XMLDocument>();
    if (doc->LoadFile(path.string().c_str()) != tinyxml2::XML_SUCCESS)
      fail(*c, "file",
           fmt::format("cannot read '{}': {} (line {})", path.string(), doc->ErrorStr(),
                       doc->ErrorLineNum()));
    if (!doc->RootElement()) fail(*c, "file", "the included file has no top element");
    files_[doc.get()] = path.string();
    folders_[doc.get()] = path.parent_path().string();
    const tinyxml2::XMLElement* top = doc->RootElement();
    included_.push_back(std::move(doc));
    for (const auto* x : children(*top)) out.push_back(x);
  }
  return out;
}

std::string Reader::where(const tinyxml2::XMLElement& e) const {
  return fmt::format("{}:{}: <{}>", file_of(e), e.GetLineNum(), e.Name());
}

void Reader::fail(const tinyxml2::XMLElement& e, const std::string& attribute,
                  const std::string& reason) const {
  const char* value = e.Attribute(attribute.c_str());
  throw_invalid("{}{}:{}: <{} {}{}>: {}", pending_refusals(), file_of(e), e.GetLineNum(), e.Name(),
                attribute, value ? fmt::format("=\"{}\"", one_line(value)) : std::string(), reason);
}

void Reader::fail_element(const tinyxml2::XMLElement& e, const std::string& reason) const {
  throw_invalid("{}{}: {}", pending_refusals(), where(e), reason);
}

std::string Reader::pending_refusals() const {
  std::string all;
  for (const std::string& r : refused_) all += r + "; ";
  return all;
}

void Reader::warn(const std::string& tag, const std::string& attribute, int line,
                  const std::string& reason, const std::string& file) {
  if (!warned_.insert(tag + " " + attribute).second) return;
  warnings_.push_back(fmt::format("{}:{}: <{} {}> ignored: {}", file.empty() ? source_ : file, line,
                                  tag, attribute, reason));
}

void Reader::refuse_element(const tinyxml2::XMLElement& e, const std::string& reason) {
  refuse(fmt::format("{}: {}", where(e), reason));
}

void Reader::throw_refusals() const {
  if (refused_.empty()) return;
  const std::string all = pending_refusals();
  throw_invalid("{}", all.substr(0, all.size() - 2));
}

void Reader::warn_element(const tinyxml2::XMLElement& e, const std::string& reason) {
  if (!warned_.insert(e.Name()).second) return;
  warnings_.push_back(fmt::format("{} ignored: {}", where(e), reason));
}

void Reader::read_defaults(const tinyxml2::XMLElement& e, const std::string& parent) {
  const char* cls = e.Attribute("class");
  const std::string name = cls ? cls : (parent.empty() ? "main" : "");
  if (name.empty()) fail_element(e, "a nested <default> needs a class name");
  if (defaults_.contains(name) && !parent.empty()) fail(e, "class", "class defined twice");
  defaults_[name] = parent.empty() ? std::map<std::string, Attributes>{} : defaults_[parent];
  for (const tinyxml2::XMLAttribute* a = e.FirstAttribute(); a; a = a->Next())
    if (std::string(a->Name()) != "class") fail(e, a->Name(), "unknown attribute of <default>");
  for (const auto* c : children(e)) {
    const std::string tag = c->Name();
    if (tag == "default") {
      read_defaults(*c, name);
      continue;
    }
    Attributes& slot = defaults_[name][tag];
    for (const tinyxml2::XMLAttribute* a = c->FirstAttribute(); a; a = a->Next())
      slot[a->Name()] = Attribute{a->Value(), c->GetLineNum(), file_of(*c)};
  }
}

Attributes Reader::attributes(const tinyxml2::XMLElement& e, const std::string& childclass,
                              const ElementRules& rules) {
  const char* own_class = e.Attribute("class");
  const std::string cls = own_class ? own_class : (childclass.empty() ? "main" : childclass);
  Attributes out;
  if (defaults_.contains(cls)) {
    const auto& by_tag = defaults_.at(cls);
    if (by_tag.contains(e.Name())) out = by_tag.at(e.Name());
  } else if (cls != "main") {
    fail(e, own_class ? "class" : "childclass", "no <default> class of that name");
  }
  for (const tinyxml2::XMLAttribute* a = e.FirstAttribute(); a; a = a->Next())
    out[a->Name()] = Attribute{a->Value(), e.GetLineNum(), file_of(e)};
  out.erase("class");
  for (const auto& [name, attribute] : out) {
    if (rules.honoured.contains(name) || rules.visual.contains(name)) continue;
    if (rules.warned.contains(name)) {
      warn(e.Name(), name, attribute.line, rules.warned.at(name), attribute.file);
    } else if (rules.warn_unknown) {
      warn(e.Name(), name, attribute.line, rules.unknown_reason, attribute.file);
    } else {
      refuse(fmt::format("{}:{}: <{} {}=\"{}\">: {}", attribute.file, attribute.line, e.Name(),
                         name, one_line(attribute.value),
                         mjcf::unknown_or_unsupported(e.Name(), name, rules)));
    }
  }
  return out;
}

std::vector<double> Reader::numbers(const tinyxml2::XMLElement& e, const Attributes& a,
                                    const std::string& name, size_t min_count,
                                    size_t max_count) const {
  const Attribute& at = a.at(name);
  std::istringstream in(at.value);
  std::vector<double> out;
  std::string word;
  while (in >> word) {
    char* end = nullptr;
    const double x = std::strtod(word.c_str(), &end);
    if (end == word.c_str() || *end != '\0' || !std::isfinite(x))
      throw_invalid("{}:{}: <{} {}=\"{}\">: '{}' is not a finite number", at.file, at.line,
                    e.Name(), name, one_line(at.value), word);
    out.push_back(x);
  }
  if (out.size() < min_count || out.size() > max_count)
    throw_invalid("{}:{}: <{} {}=\"{}\">: expected {} number{}, got {}", at.file, at.line, e.Name(),
                  name, one_line(at.value),
                  min_count == max_count ? std::to_string(min_count)
                                         : fmt::format("{} to {}", min_count, max_count),
                  max_count == 1 ? "" : "s", out.size());
  return out;
}

double Reader::number(const tinyxml2::XMLElement& e, const Attributes& a, const std::string& name,
                      double fallback) const {
  return a.contains(name) ? numbers(e, a, name, 1, 1)[0] : fallback;
}

Vector3 Reader::vector3(const tinyxml2::XMLElement& e, const Attributes& a, const std::string& name,
                        const Vector3& fallback) const {
  if (!a.contains(name)) return fallback;
  const auto x = numbers(e, a, name, 3, 3);
  return Vector3(x[0], x[1], x[2]);
}

// R = R₁ R₂ R₃ for axes that move with the frame (lowercase), R = R₃ R₂ R₁ for fixed ones.
Quaternion Reader::euler_rotation(const Vector3& written) const {
  Quaternion q = Quaternion::Identity();
  for (int k = 0; k < 3; ++k) {
    const char c = compiler.eulerseq[static_cast<size_t>(k)];
    const int axis = std::tolower(c) - 'x';
    const Quaternion r(Eigen::AngleAxisd(angle(written[k]), Vector3::Unit(axis)));
    q = std::islower(c) ? q * r : r * q;
  }
  return q.normalized();
}

double Reader::angle(double written) const {
  return compiler.degrees ? written * M_PI / 180.0 : written;
}

Quaternion Reader::orientation(const tinyxml2::XMLElement& e, const Attributes& a) const {
  const char* kinds[] = {"quat", "euler", "axisangle", "xyaxes", "zaxis"};
  const char* given = nullptr;
  for (const char* k : kinds) {
    if (!a.contains(k)) continue;
    if (given) fail_element(e, fmt::format("give one orientation, not both {} and {}", given, k));
    given = k;
  }
  if (!given) return Quaternion::Identity();
  const std::string kind = given;
  auto too_small = [&](double norm) {
    if (!(norm > 1e-12)) fail(e, kind, "the orientation must not be zero");
  };
  if (kind == "quat") {
    const auto w = numbers(e, a, kind, 4, 4);
    const Quaternion q(w[0], w[1], w[2], w[3]);
    too_small(q.norm());
    return q.normalized();
  }
  if (kind == "axisangle") {
    const auto w = numbers(e, a, kind, 4, 4);
    const Vector3 axis(w[0], w[1], w[2]);
    too_small(axis.norm());
    return Quaternion(Eigen::AngleAxisd(angle(w[3]), axis.normalized()));
  }
  if (kind == "euler") {
    const auto w = numbers(e, a, kind, 3, 3);
    return euler_rotation(Vector3(w[0], w[1], w[2]));
  }
  if (kind == "xyaxes") {
    const auto w = numbers(e, a, kind, 6, 6);
    Vector3 x(w[0], w[1], w[2]), y(w[3], w[4], w[5]);
    too_small(x.norm());
    x.normalize();
    y -= y.dot(x) * x;
    too_small(y.norm());
    y.normalize();
    Matrix3 R;
    R << x, y, x.cross(y);
    return Quaternion(R).normalized();
  }
  const Vector3 z = vector3(e, a, "zaxis", Vector3::UnitZ());  // zaxis
  too_small(z.norm());
  return Quaternion::FromTwoVectors(Vector3::UnitZ(), z.normalized());
}

}  // namespace moreau::mjcf
