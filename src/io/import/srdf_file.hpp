#pragma once
// An SRDF file (MoveIt's semantic robot description) read as XML: its <robot> root, for the
// group_states (initial_state_options.cpp) and the disable_collisions pairs (urdf.cpp).
#include <string>

#include <tinyxml2.h>

namespace moreau::import {

// The root <robot> of the SRDF at `path`, parsed into `doc`; throws std::invalid_argument naming
// the file (and the line) when it cannot be read, is not XML or has another root.
const tinyxml2::XMLElement& read_srdf(const std::string& path, tinyxml2::XMLDocument& doc);

}  // namespace moreau::import
