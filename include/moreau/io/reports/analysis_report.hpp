#pragma once
// The report of `moreau analyze` as JSON, one dictionary for the command line and for Python's
// moreau.analyze (docs/cli.md (moreau analyze) lists every key).
//
// Sections: system/state, contacts (all constraints, with active/sliding flags), problem (the
// acceleration-level data of contact/acceleration_problem.hpp), modes (analysis/contact_modes.hpp),
// painleve + mu_critical (analysis/painleve.hpp, primary contact) and painleve_contacts (every
// active unilateral 2D contact), sliding_lcp (the D = G + P of Brogliato 2014 (26) and its
// classification when every active unilateral contact slides), matrix_tests
// (linalg/matrix_class.hpp on the Delassus and the sliding matrix), quasi_velocities
// (analysis/kinetic_quasi_velocities.hpp) and, on request, all_sticking
// (analysis/all_sticking.hpp). A section that cannot be computed for this state (e.g. M singular
// for the mode LCP) holds {"error": "<sentence>"} instead.
//
// The report holds finite numbers only (JSON has no NaN or infinity), except the keys documented
// as null when not finite.
#include <string>

#include <nlohmann/json.hpp>

#include "moreau/model/contact_state.hpp"

namespace moreau {

// The report of one state; `system` labels it, `source` (the input file, "--gallery NAME") starts
// the message of a report that is not finite. Throws std::invalid_argument when the state itself
// is invalid (ContactState::validate), and when a number of the report is NaN or ±∞ other than
// those docs/cli.md documents as null (μ_c = +∞, …): a state whose numbers overflow the
// arithmetic (io/json/json_result.hpp). Failures of single sections are reported inside.
nlohmann::json analysis_report(const ContactState& state, const std::string& system,
                               bool with_all_sticking, const std::string& source);

}  // namespace moreau
