#pragma once
// package:// and file:// URIs of robot description files (URDF meshes), resolved as ROS tools do
// without ROS (docs/urdf.md §Packages). package://NAME/REST is REST inside the root folder of the
// package NAME, looked for, in order, in:
//   1. the folders given (--package-dir, Python package_dirs): each a package root or a folder
//      crawled for packages, as ROS_PACKAGE_PATH's entries;
//   2. ROS_PACKAGE_PATH (ROS 1): its entries, each a package root or a folder crawled for
//      packages (as rospack: sub-folders, never inside a package or a CATKIN_IGNORE folder);
//   3. AMENT_PREFIX_PATH (ROS 2): PREFIX/share/NAME of each prefix;
//   4. the folders above the file that names the URI, nearest first (a URDF inside its package).
// A folder is the package NAME when its package.xml's <name> is NAME, or, without a package.xml,
// when the folder itself is called NAME. file://path is the path (a relative one from the file's
// folder, as a plain path).
#include <string>
#include <vector>

namespace moreau::import {

// Where a file's package:// URIs are looked for.
struct PackageSearch {
  std::vector<std::string> package_dirs = {};  // the folders given, in order
  std::string file = {};                       // the description file (its folders above)
};

// The path of `uri` (package://, file:// or a plain path, relative to the file's folder).
// Throws std::invalid_argument naming `where`, the URI and every folder searched when a package
// is not found.
std::string resolve_resource_uri(const std::string& uri, const PackageSearch& search,
                                 const std::string& where);

}  // namespace moreau::import
