#pragma once
// URDF's elements and attributes (ROS wiki, "urdf/XML"), to warn about what urdfdom reads past
// without a word: <gazebo> and <transmission> (one warning each) and anything else it does not
// know (the Panda's <dynamics D K mu_coulomb>), once per element and attribute.
#include <string>
#include <vector>

namespace moreau::import {

// The warnings for the URDF text `text` of file `path` ("FILE:LINE: <tag attribute> ignored:
// reason"); none for a document tinyxml2 cannot parse (urdfdom reports that).
std::vector<std::string> urdf_schema_warnings(const std::string& text, const std::string& path);

}  // namespace moreau::import
