// The `system` scene kind (docs/scene-format.md §System): a valid file loads into a LinearSystem
// with its initial state; every fault is refused with the field path and the value.
#include <gtest/gtest.h>

#include <string>

#include "moreau/io/scene/scene.hpp"
#include "moreau/io/scene/simulation_setup.hpp"

using namespace moreau;

namespace {

const char* kBall = R"({
  "description": "ball",
  "system": {
    "coordinates": ["x", "y", "theta"],
    "mass": [[1, 0, 0], [0, 1, 0], [0, 0, 0.004]],
    "force": [-9.81, 0, 0],
    "q0": [1, 0, 0],
    "relations": [{"name": "floor", "normal": [1, 0, 0], "offset": 0.0,
                   "tangents": [[0, -1, 0.5]], "e": 0.9, "mu": 0.1, "e_t": 0.2}]},
  "integrator": {"scheme": "siconos", "dt": 0.005, "solver": "exact"},
  "t_end": 1.0})";

// The message load refuses `text` with (the test fails when it is accepted).
std::string error_of(const std::string& text) {
  try {
    parse_scene_text(text, "sys.json");
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "accepted: " << text;
  return "";
}

// kBall with `from` replaced by `to` (once).
std::string with(const std::string& from, const std::string& to) {
  std::string s = kBall;
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return s.replace(at, from.size(), to);
}

}  // namespace

TEST(SystemScene, LoadsTheLinearSystemAndItsState) {
  const Scene scene = parse_scene_text(kBall, "ball.json");
  ASSERT_TRUE(scene.is_system());
  const LinearSystem& sys = *scene.system;
  EXPECT_EQ(sys.dimension(), 2);
  EXPECT_EQ(sys.position_names(), (std::vector<std::string>{"x", "y", "theta"}));
  EXPECT_EQ(sys.initial_q, Vector3(1, 0, 0));
  EXPECT_EQ(sys.initial_v, Vector3::Zero());
  // g = n·q + b, ∇h = n, H_t = tᵀ, F = Cv + Kq − f (left side), μ, e, e_t
  const ContactState s = sys.contact_state(Vector3(0.5, 2.0, 0.1), Vector3(1, 2, 3), 0.0);
  ASSERT_EQ(s.size(), 1);
  EXPECT_EQ(s.constraints[0].gap, 0.5);
  EXPECT_EQ(s.constraints[0].tangent.col(0), Vector3(0, -1, 0.5));
  EXPECT_EQ(s.F, Vector3(9.81, 0, 0));
  EXPECT_EQ(s.constraints[0].tangential_restitution, 0.2);
  EXPECT_EQ(s.constraints[0].mu, 0.1);
  EXPECT_EQ(scene.settings.time_stepping.scheme, TimeSteppingScheme::siconos);
  // V = ½qᵀKq − fᵀq = 9.81·x
  EXPECT_DOUBLE_EQ(sys.potential_energy(Vector3(2, 0, 0)), 2 * 9.81);
  EXPECT_NE(prepare_scene_run(scene, "", NAN).system, nullptr);
}

TEST(SystemScene, FaultsNameTheFieldAndTheValue) {
  EXPECT_NE(error_of(with("[0, 0, 0.004]]", "[0, 0, -0.004]]"))
                .find("system.mass: not positive definite"),
            std::string::npos);
  EXPECT_NE(error_of(with("[[1, 0, 0], [0, 1, 0]", "[[1, 0.5, 0], [0, 1, 0]"))
                .find("system.mass: not symmetric"),
            std::string::npos);
  EXPECT_NE(error_of(with("\"normal\": [1, 0, 0]", "\"normal\": [1, 0]"))
                .find("system.relations[0].normal"),
            std::string::npos);
  EXPECT_NE(error_of(with("\"e\": 0.9", "\"e\": 1.5")).find("system.relations[0].e = 1.5"),
            std::string::npos);
  EXPECT_NE(error_of(with("\"force\": [-9.81, 0, 0]", "\"force\": [-9.81, 0, \"a\"]"))
                .find("system.force"),
            std::string::npos);
  EXPECT_NE(error_of(with("\"q0\": [1, 0, 0],", "")).find("system.q0: missing"), std::string::npos);
  EXPECT_NE(error_of(with("\"mu\": 0.1", "\"mu\": 0.1, \"colour\": 1")).find("colour"),
            std::string::npos);
  EXPECT_NE(error_of(with("\"tangents\": [[0, -1, 0.5]], ", "")).find("need tangent rows"),
            std::string::npos);
  EXPECT_NE(error_of(with("\"tangents\": [[0, -1, 0.5]]",
                          "\"tangents\": [[0, -1, 0.5], [0, 0, 1], [1, 0, 0]]"))
                .find("system.relations[0].tangents"),
            std::string::npos);
  EXPECT_NE(error_of(with("\"scheme\": \"siconos\"", "\"scheme\": \"sikonos\""))
                .find("integrator.scheme = \"sikonos\""),
            std::string::npos);
  EXPECT_NE(error_of(with("\"description\": \"ball\",",
                          "\"description\": \"ball\", \"gallery\": \"wheel\","))
                .find("either gallery or system"),
            std::string::npos);
  // every message starts with the source
  EXPECT_EQ(error_of(with("[0, 0, 0.004]]", "[0, 0, -0.004]]")).rfind("sys.json", 0), 0u);
}

// A relation set mixing 2D (one tangent row) and 3D (two rows) friction is refused; two rows
// make a 3D system whose frictionless relations get zero tangent columns.
TEST(SystemScene, TangentRowsDecideTheDimension) {
  EXPECT_NE(error_of(with("\"relations\": [",
                          "\"relations\": [{\"normal\": [0, 1, 0], \"tangents\": [[1, 0, 0], [0, "
                          "0, 1]], \"mu\": 0.2}, "))
                .find("either 2D (1 row) or 3D (2 rows)"),
            std::string::npos);
  const Scene s3 =
      parse_scene_text(with("\"tangents\": [[0, -1, 0.5]], \"e\": 0.9, \"mu\": 0.1, \"e_t\": 0.2",
                            "\"tangents\": [[0, 1, 0], [0, 0, 1]], \"mu\": 0.3}, {\"name\": "
                            "\"wall\", \"normal\": [0, 1, 0]"),
                       "s3");
  EXPECT_EQ(s3.system->dimension(), 3);
  const ContactState s = s3.system->contact_state(Vector3(1, 0, 0), Vector3::Zero(), 0.0);
  EXPECT_EQ(s.constraints[1].tangent, Matrix::Zero(3, 2));
}
