#pragma once
// The numbers of the result documents io builds as JSON (the impact law's result, the analyze
// report, `moreau solve --json`). JSON has no NaN or infinity: nlohmann writes them as null, and
// whoever reads the document back fails later with a message that names neither the file nor the
// field ("type must be number, but is null"). So a result is checked where it is made:
//   - a number that a key documents as absent when it is not finite (μ_c = +∞, an error estimate
//     not made) goes in through optional_number, as null;
//   - any other number goes in as it is, and require_finite_result refuses the document when one
//     of them is NaN or ±∞, naming the input, the field and the value:
//       "spec.json: the impact law's result kinetic_energy.before = inf is not a finite number:
//        the arithmetic overflowed (the input's largest number is bodies[0].velocity[2] = 1e+308)"
// The failure is std::invalid_argument (bad input: pybind11 ValueError, the program's exit
// status 2).
#include <string>

#include <nlohmann/json.hpp>

namespace moreau::json_io {

// x, or null when x is NaN or ±∞ (only for keys documented so in docs/cli.md).
nlohmann::json optional_number(double x);

// "PATH = VALUE" of the number of `document` largest in magnitude (objects in key order, arrays
// in index order, the first of equals), for messages; "" when the document holds no number.
std::string largest_number(const nlohmann::json& document);

// Throws std::invalid_argument
//   "SOURCE: the WHAT PATH = VALUE is not a finite number: CAUSE"
// at the first NaN or ±∞ of `result` (objects in key order, arrays in index order); nothing when
// every number is finite. `what` names the document ("impact law's result"), `cause` says why the
// caller thinks it happened.
void require_finite_result(const nlohmann::json& result, const std::string& source,
                           const std::string& what, const std::string& cause);

}  // namespace moreau::json_io
