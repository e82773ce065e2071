// package:// and file:// URIs (io/import/package_uri.hpp).
#include "package_uri.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "moreau/common/error.hpp"

namespace moreau::import {
namespace fs = std::filesystem;
namespace {

// The <name> of a folder's package.xml, "" when it has none (or none readable).
std::string package_xml_name(const fs::path& dir) {
  std::ifstream in(dir / "package.xml");
  if (!in) return "";
  std::stringstream text;
  text << in.rdbuf();
  static const std::regex name(R"(<name>\s*([^<\s]+)\s*</name>)");
  std::smatch m;
  const std::string s = text.str();
  return std::regex_search(s, m, name) ? m[1].str() : "";
}

// True when `dir` is the package `name`: its package.xml says so, or it has none and is so called.
bool is_package(const fs::path& dir, const std::string& name) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return false;
  const std::string declared = package_xml_name(dir);
  return declared.empty() ? dir.filename() == name : declared == name;
}

// The package `name` at or below `dir`, as rospack crawls ROS_PACKAGE_PATH: `dir` itself, else
// its sub-folders in name order, depth first, never below a folder that holds a package.xml
// (a package) or a CATKIN_IGNORE or COLCON_IGNORE file, at most `depth` levels down; empty when
// none is.
fs::path package_in(const fs::path& dir, const std::string& name, int depth = 4) {
  if (is_package(dir, name)) return dir;
  std::error_code ec;
  if (depth == 0 || !fs::is_directory(dir, ec) || fs::exists(dir / "package.xml", ec) ||
      fs::exists(dir / "CATKIN_IGNORE", ec) || fs::exists(dir / "COLCON_IGNORE", ec))
    return {};
  if (is_package(dir / name, name)) return dir / name;  // the usual layout, without a scan
  std::vector<fs::path> children;
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec))
    if (e.is_directory(ec) && e.path().filename().string().front() != '.')
      children.push_back(e.path());
  std::sort(children.begin(), children.end());
  for (const fs::path& c : children)
    if (fs::path found = package_in(c, name, depth - 1); !found.empty()) return found;
  return {};
}

// The entries of a PATH-like environment variable (':'-separated), empty ones dropped.
std::vector<std::string> env_list(const char* variable) {
  std::vector<std::string> out;
  const char* v = std::getenv(variable);
  if (v == nullptr) return out;
  std::stringstream s(v);
  for (std::string item; std::getline(s, item, ':');)
    if (!item.empty()) out.push_back(item);
  return out;
}

}  // namespace

std::string resolve_resource_uri(const std::string& uri, const PackageSearch& search,
                                 const std::string& where) {
  std::error_code ec;
  // the file's folder, absolute and without "..": "r.urdf" alone is in the working folder
  fs::path base = fs::weakly_canonical(fs::absolute(search.file, ec), ec).parent_path();
  if (base.empty()) base = fs::current_path(ec);
  const bool file_uri = uri.rfind("file://", 0) == 0;
  if (file_uri || uri.rfind("package://", 0) != 0) {  // a path, absolute or from the file
    const fs::path p(file_uri ? uri.substr(7) : uri);
    return (p.is_absolute() ? p : base / p).string();
  }
  const std::string rest = uri.substr(10);
  const size_t slash = rest.find('/');
  MOREAU_REQUIRE(slash != std::string::npos && slash > 0,
                 "{}: '{}': a package URI is package://NAME/path", where, uri);
  const std::string name = rest.substr(0, slash), inside = rest.substr(slash + 1);
  std::vector<std::string> searched;
  const auto found = [&](const fs::path& root) { return (root / inside).string(); };
  for (const std::string& d : search.package_dirs) {
    if (const fs::path root = package_in(d, name); !root.empty()) return found(root);
    searched.push_back("--package-dir " + d);
  }
  for (const std::string& d : env_list("ROS_PACKAGE_PATH")) {
    if (const fs::path root = package_in(d, name); !root.empty()) return found(root);
    searched.push_back("ROS_PACKAGE_PATH " + d);
  }
  for (const std::string& prefix : env_list("AMENT_PREFIX_PATH")) {
    const fs::path share = fs::path(prefix) / "share" / name;
    if (is_package(share, name)) return found(share);
    searched.push_back("AMENT_PREFIX_PATH " + share.string());
  }
  fs::path dir = base;
  for (; !dir.empty(); dir = dir.parent_path()) {
    if (is_package(dir, name)) return found(dir);
    searched.push_back(dir.string());
    if (dir == dir.root_path()) break;
  }
  std::string list;
  for (const std::string& s : searched) list += (list.empty() ? "" : "; ") + s;
  throw_invalid(
      "{}: '{}': no package '{}' found (searched: {}); give its folder with "
      "--package-dir (Python package_dirs=[…])",
      where, uri, name, list);
}

}  // namespace moreau::import
