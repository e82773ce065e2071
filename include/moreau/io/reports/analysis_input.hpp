#pragma once
// Input files of `moreau analyze` (the JSON files of examples/scenes/analysis), read by
// io/json/json_reader.hpp with the same rules as scenes (unknown fields, non-finite numbers,
// duplicate keys, field paths):
//   {"gallery": NAME, "params": {key: value, …}, "q": [...]?, "v": [...]?}
// or an explicit state
//   {"name": "...", "dimension": 2, "M": [[…]], "F": […], "q": […]?, "v": […], "t": …?,
//    "constraints": [{"name", "kind": "unilateral"|"bilateral", "mu", "e", "gap", "normal": […],
//                     "tangent": […] (2D) or [[…], […]] (3D, the two columns),
//                     "normal_bias", "tangent_bias", "gamma", "baumgarte_alpha",
//                     "baumgarte_beta"}]}
#include <string>

#include "moreau/model/contact_state.hpp"
#include "moreau/contact/gallery.hpp"

namespace moreau {

// One state to analyse, its label and where it came from.
struct AnalysisInput {
  ContactState state;  // the state to analyse
  std::string label;   // the system's name in the report
  std::string source;  // the input file, or "--gallery NAME": starts the report's messages
};

// A gallery system's state: its initial (q, v) at t = 0.
AnalysisInput analysis_input_from_gallery(const std::string& name, const GalleryParams& params);
// Reads an analyze input file; errors start with the path and name the field and value.
AnalysisInput load_analysis_input(const std::string& path);
// Same from JSON text; `source` (a file name) starts every message.
AnalysisInput parse_analysis_input_text(const std::string& text, const std::string& source);

}  // namespace moreau
