// An SRDF file's root (srdf_file.hpp).
#include "srdf_file.hpp"

#include "moreau/common/error.hpp"
#include "moreau/io/os/input_file.hpp"

namespace moreau::import {

const tinyxml2::XMLElement& read_srdf(const std::string& path, tinyxml2::XMLDocument& doc) {
  const std::string text = read_text_file(path);
  MOREAU_REQUIRE(doc.Parse(text.c_str(), text.size()) == tinyxml2::XML_SUCCESS,
                 "{}:{}: not well-formed XML: {}", path, doc.ErrorLineNum(), doc.ErrorStr());
  const tinyxml2::XMLElement* robot = doc.RootElement();
  MOREAU_REQUIRE(robot && std::string(robot->Name()) == "robot",
                 "{}: the root element must be <robot> (an SRDF file)", path);
  return *robot;
}

}  // namespace moreau::import
