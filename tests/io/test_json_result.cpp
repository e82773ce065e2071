// Results that are not finite are refused where io makes them (io/json/json_result.hpp), naming
// the input, the field and the value, instead of being written as null (JSON has no NaN or
// infinity) and failing later in whoever reads the document back.
#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "moreau/io/json/json_result.hpp"
#include "moreau/io/reports/analysis_input.hpp"
#include "moreau/io/reports/analysis_report.hpp"
#include "moreau/io/reports/impact_spec.hpp"

namespace moreau {
namespace {

using json = nlohmann::json;
constexpr double kInf = std::numeric_limits<double>::infinity();

// The message of the std::invalid_argument that `run` throws ("" and a test failure if none).
std::string message_of(const std::function<void()>& run) {
  try {
    run();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "nothing thrown";
  return "";
}

TEST(JsonResult, NamesTheFirstNonFiniteNumberByItsPath) {
  // objects in key order ("a" before "b"), arrays in index order
  const json doc = {{"b", {1.0, 2.0, std::nan("")}}, {"a", {{"x", 1.0}, {"y", {0.0, -kInf}}}}};
  EXPECT_EQ(message_of([&] { json_io::require_finite_result(doc, "in.json", "report", "why"); }),
            "in.json: the report a.y[1] = -inf is not a finite number: why");
  const json nan_only = {{"list", {1.0, std::nan("")}}};
  EXPECT_EQ(message_of([&] { json_io::require_finite_result(nan_only, "s", "result", "c"); }),
            "s: the result list[1] = nan is not a finite number: c");
  const json fine = {{"a", {1.0, 2, "text", nullptr, true}}, {"b", {{"c", -3.5}}}};
  EXPECT_NO_THROW(json_io::require_finite_result(fine, "s", "result", "c"));
}

TEST(JsonResult, OptionalNumberAndLargestNumber) {
  EXPECT_TRUE(json_io::optional_number(kInf).is_null());
  EXPECT_TRUE(json_io::optional_number(std::nan("")).is_null());
  EXPECT_EQ(json_io::optional_number(2.5), json(2.5));
  const json doc = {{"m", 3.0}, {"v", {1.0, -1e300, 1e300}}, {"n", "text"}};
  EXPECT_EQ(json_io::largest_number(doc), "v[1] = -1e+300");  // the first of equal magnitude
  EXPECT_EQ(json_io::largest_number(json::object()), "");
}

// One ball falling on the ground at 1e308 m/s, Newton's law with e = 0: ½ m v² = 5e615 J
// overflows, so kinetic_energy.before is +∞; every number the document lists before it (in key
// order: bodies, consistency, contacts) is finite (v⁺ = 0, impulse 1e308 N·s).
TEST(JsonResult, ImpactOverflowNamesTheSpecAndTheField) {
  const std::string spec = R"({"law": "newton",
    "bodies": [{"name": "ball", "mass": 1, "inertia": [[0.4,0,0],[0,0.4,0],[0,0,0.4]],
                "velocity": [0, 0, -1e308]}],
    "contacts": [{"bodies": ["ball", "ground"], "point": [0,0,-1], "normal": [0,0,1]}]})";
  EXPECT_EQ(message_of([&] { run_impact_json(spec, 2, "spec.json"); }),
            "spec.json: the impact law's result kinetic_energy.before = inf is not a finite "
            "number: the arithmetic overflowed (the SPEC's largest number is "
            "bodies[0].velocity[2] = -1e+308)");
  EXPECT_EQ(message_of([&] { run_impact(json::parse(spec), "spec.json"); }),
            message_of([&] { run_impact_json(spec, -1, "spec.json"); }));
  // at 1e100 m/s the same SPEC is finite: the ball stops, ½·1e200 J are lost
  json slow = json::parse(spec);
  slow["bodies"][0]["velocity"][2] = -1e100;
  const json out = run_impact(slow, "slow.json");
  EXPECT_EQ(out["bodies"][0]["velocity"][2].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(out["kinetic_energy"]["before"].get<double>(), 0.5e200);
}

// Two balls meeting at ±1e308 m/s: the approach speed 2e308 overflows, the impulse is +∞, and the
// angular velocities are 0·∞ = NaN (the contact point lies on the line of centres, r × n = 0).
// The law marks its own failure; the message carries its status and message.
TEST(JsonResult, ImpactLawFailureComesWithItsStatus) {
  const std::string spec = R"({"law": "newton", "bodies": [
    {"name": "a", "mass": 1, "inertia": [[0.4,0,0],[0,0.4,0],[0,0,0.4]], "com": [-1,0,0],
     "velocity": [1e308, 0, 0]},
    {"name": "b", "mass": 1, "inertia": [[0.4,0,0],[0,0.4,0],[0,0,0.4]], "com": [1,0,0],
     "velocity": [-1e308, 0, 0]}],
    "contacts": [{"bodies": ["b", "a"], "point": [0,0,0], "normal": [1,0,0]}]})";
  EXPECT_EQ(message_of([&] { run_impact_json(spec, 2, "two.json"); }),
            "two.json: the impact law's result bodies[0].angular_velocity[0] = nan is not a "
            "finite number: the law ended numerical_failure: the post-impact velocity is not "
            "finite (the SPEC's largest number is bodies[0].velocity[0] = 1e+308)");
}

// A unit point mass, v = (1e308, 1e308), one constraint with ∇h = (1, 1): ∇hᵀv = 2e308
// overflows to +∞. In key order the report's "active" (indices) comes first, then
// contacts[0].{active, index, kind, mu, name, normal, normal_bias}, all finite, then
// normal_velocity.
TEST(JsonResult, AnalysisReportOverflowNamesTheInputAndTheField) {
  const AnalysisInput in = parse_analysis_input_text(
      R"({"M": [[1, 0], [0, 1]], "F": [0, 9.81], "v": [1e308, 1e308],
          "constraints": [{"normal": [1, 1], "tangent": [1, -1]}]})",
      "state.json");
  EXPECT_EQ(in.source, "state.json");
  EXPECT_EQ(message_of([&] { analysis_report(in.state, in.label, false, in.source); }),
            "state.json: the analysis report contacts[0].normal_velocity = inf is not a finite "
            "number: the arithmetic overflowed (the state's largest number is v[0] = 1e+308)");
  // μ_c = +∞ is documented as null, not refused: a frictionless contact at rest never has α = 0
  const AnalysisInput rest = parse_analysis_input_text(
      R"({"M": [[1, 0], [0, 1]], "F": [0, 9.81],
          "constraints": [{"normal": [0, 1], "tangent": [1, 0]}]})",
      "rest.json");
  const json report = analysis_report(rest.state, rest.label, false, rest.source);
  EXPECT_TRUE(report["mu_critical"].is_null());
  EXPECT_EQ(report["contacts"][0]["normal_velocity"].get<double>(), 0.0);
}

}  // namespace
}  // namespace moreau
