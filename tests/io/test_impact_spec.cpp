// The JSON front end (impact_spec.hpp) on the example SPECs of examples/impact.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "moreau/io/reports/impact_spec.hpp"

namespace moreau {
namespace {

using json = nlohmann::json;

std::string example(const std::string& name) {
  std::ifstream in(std::string(MOREAU_SOURCE_DIR) + "/examples/impact/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(ImpactSpec, BallExampleReproducesPublishedFigures) {
  json spec = json::parse(example("ball_004.json"));
  spec["step"] = 0.05;
  const json out = json::parse(run_impact_json(spec.dump()));
  EXPECT_EQ(out["status"], "resolved");
  EXPECT_EQ(out["variant"], "published");
  EXPECT_NEAR(out["bodies"][0]["velocity"][0].get<double>(), 0.570982, 2e-5);          // B1
  EXPECT_NEAR(out["bodies"][0]["angular_velocity"][1].get<double>(), -1.92746, 5e-5);  // B2
  EXPECT_NEAR(out["contacts"][0]["impulse"][2].get<double>(), 7.5, 1e-9);
  const json& ev = out["contacts"][0]["events"];
  ASSERT_EQ(ev.size(), 5u);
  EXPECT_EQ(ev[0]["kind"], "start_slip");
  EXPECT_NEAR(ev[1]["normal_impulse"].get<double>(), 0.625, 1e-9);
  EXPECT_NEAR(out["kinetic_energy"]["before"].get<double>(), 13.8, 1e-12);
  EXPECT_LT(out["kinetic_energy"]["after"].get<double>(), 13.8);
  EXPECT_GT(out["error_estimate"].get<double>(), 0.0);
  EXPECT_EQ(out["contacts"][0]["curve"]["normal_impulse"].size(),
            out["contacts"][0]["curve"]["impulse_u"].size());
}

// R1 through the rigid-body front end: unit masses on the x axis, Moreau e = 1.
TEST(ImpactSpec, ChainExampleMoreau) {
  const json out = json::parse(run_impact_json(example("chain3_moreau.json")));
  EXPECT_EQ(out["status"], "resolved");
  EXPECT_NEAR(out["bodies"][0]["velocity"][0].get<double>(), -1.0 / 3, 1e-12);
  EXPECT_NEAR(out["bodies"][1]["velocity"][0].get<double>(), 2.0 / 3, 1e-12);
  EXPECT_NEAR(out["bodies"][2]["velocity"][0].get<double>(), 2.0 / 3, 1e-12);
  EXPECT_NEAR(out["contacts"][0]["normal_impulse"].get<double>(), 4.0 / 3, 1e-12);
  EXPECT_NEAR(out["kinetic_energy"]["after"].get<double>(), 0.5, 1e-12);
  bool found = false;
  for (const json& c : out["consistency"])
    if (c["name"] == "P2") found = c["holds"].get<bool>();
  EXPECT_TRUE(found);
  // The other rigid laws run on the same description.
  for (const char* law : {"newton", "poisson", "restitution_matrix", "frictional"}) {
    json spec = json::parse(example("chain3_moreau.json"));
    spec["law"] = law;
    const json r = json::parse(run_impact_json(spec.dump()));
    EXPECT_LE(r["kinetic_energy"]["after"].get<double>(), 0.5 + 1e-12) << law;
  }
}

TEST(ImpactSpec, TwoContactExampleRuns) {
  const json out = json::parse(run_impact_json(example("masse_two_contacts.json")));
  EXPECT_EQ(out["status"], "resolved");
  EXPECT_EQ(out["contacts"][1]["events"][0]["kind"], "recontact");
  EXPECT_LE(out["kinetic_energy"]["after"].get<double>(),
            out["kinetic_energy"]["before"].get<double>());
}

TEST(ImpactSpec, BadInputNamesTheField) {
  auto error_of = [](const json& spec) -> std::string {
    try {
      run_impact_json(spec.dump());
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "";
  };
  const json ball = json::parse(example("ball_004.json"));
  json s = ball;
  s["bodies"][0]["mass"] = -1.0;
  EXPECT_NE(error_of(s).find("bodies[0].mass = -1"), std::string::npos) << error_of(s);
  s = ball;
  s["bodies"][0]["inertia"] = {{1, 0, 0}, {0, -1, 0}, {0, 0, 1}};
  EXPECT_NE(error_of(s).find("bodies[0].inertia"), std::string::npos) << error_of(s);
  EXPECT_NE(error_of(s).find("positive definite"), std::string::npos);
  s = ball;
  s["contacts"][0]["e"] = 1.2;
  EXPECT_NE(error_of(s).find("1.2"), std::string::npos);
  s = ball;
  s["contacts"][0]["normal"] = {0, 0, 0};
  EXPECT_NE(error_of(s).find("zero length"), std::string::npos);
  s = ball;
  s["law"] = "magic";
  EXPECT_NE(error_of(s).find("magic"), std::string::npos);
  s = ball;
  s["contacts"][0].erase("poisson_ratio");
  EXPECT_NE(error_of(s).find("eta0_squared"), std::string::npos);
  s = ball;
  s["bodies"][0]["velocity"] = {0, 0, 1};  // separating: documented 'no_impact' status
  EXPECT_EQ(json::parse(run_impact_json(s.dump()))["status"], "no_impact");
  EXPECT_THROW(run_impact_json("{not json"), std::invalid_argument);
}

}  // namespace
}  // namespace moreau
