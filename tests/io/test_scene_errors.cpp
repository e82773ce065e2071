// Scene files that are not valid JSON, or hold numbers a double cannot: the message names the
// file, the line and column, the field being read and quotes the text before the error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "moreau/io/scene/scene.hpp"
#include "moreau/io/scene/simulation_setup.hpp"
#include "moreau/io/import/load_scene.hpp"

using namespace moreau;

namespace {

// Writes `text` to a temporary file and returns the message of the error load_scene throws.
std::string load_error(const std::string& text, const std::string& stem) {
  const auto path = std::filesystem::temp_directory_path() / (stem + "_moreau_scene_errors.json");
  {
    std::ofstream out(path);
    out << text;
  }
  std::string msg;
  try {
    load_scene(path.string());
    ADD_FAILURE() << "accepted: " << text;
  } catch (const std::invalid_argument& e) {
    msg = e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "threw something else than std::invalid_argument: " << e.what();
  }
  std::filesystem::remove(path);
  EXPECT_NE(msg.find(path.string()), std::string::npos) << "the file is not named: " << msg;
  return msg;
}

// "line L, column C" of the first occurrence of `needle`, counted independently: L = 1 + the
// newlines before it, C = 1-based position within its line.
std::string where(const std::string& text, const std::string& needle) {
  const size_t at = text.find(needle);
  size_t line = 1, start = 0;
  for (size_t i = 0; i < at; ++i)
    if (text[i] == '\n') ++line, start = i + 1;
  return "line " + std::to_string(line) + ", column " + std::to_string(at - start + 1);
}

void expect_has(const std::string& msg, const std::string& needle) {
  EXPECT_NE(msg.find(needle), std::string::npos) << "message: " << msg << "\nmissing: " << needle;
}

const std::string kNanScene = R"({
  "description": "ball",
  "dimension": 2,
  "bodies": [{"name": "ball", "mass": 1, "position": [0, NaN], "shapes": []}]
})";

}  // namespace

// A literal NaN: nlohmann stops at the 'N' (line 4); the field is bodies[0].position[1] and the
// quoted text shows the key before it.
TEST(SceneErrors, LiteralNaNNamesLineColumnAndField) {
  const std::string msg = load_error(kNanScene, "nan");
  expect_has(msg, where(kNanScene, "NaN"));
  expect_has(msg, "bodies[0].position[1]");
  expect_has(msg, "\"position\": [0, ");
  expect_has(msg, "NaN and Infinity are not JSON numbers");
}

// 1e999 overflows a double: nlohmann throws out_of_range.406 (not a parse_error) with neither
// position nor field; the message must still give the file, the field and the number.
TEST(SceneErrors, NumberOverflowNamesField) {
  const std::string text = R"({"description": "x", "dimension": 2,
    "bodies": [{"name": "a", "mass": 1, "shapes": [{"type": "disk", "radius": 0.1}]},
               {"name": "b", "mass": 1e999}]})";
  const std::string msg = load_error(text, "overflow");
  expect_has(msg, "bodies[1].mass");
  expect_has(msg, "1e999");
  expect_has(msg, "number out of range at " + where(text, "1e999"));
}

// Nested paths and arrays: −Infinity inside a shape, a NaN as the third gravity component, an
// unquoted value after a key, a doubled comma between keys (the object and the key before it
// are named), and a truncated file.
TEST(SceneErrors, FieldPathsAndPositions) {
  const std::string inf = R"({"description": "x", "dimension": 3,
 "bodies": [{"name": "a", "mass": 1},
            {"name": "b", "shapes": [{"type": "sphere", "radius": -Infinity}]}]})";
  const std::string m1 = load_error(inf, "inf");
  expect_has(m1, "bodies[1].shapes[0].radius");
  expect_has(m1, "line 3");
  expect_has(m1, "NaN and Infinity");
  const std::string grav =
      "{\"description\": \"x\",\n\"dimension\": 3,\n\"gravity\": [0, -9.81, NaN]}";
  const std::string m2 = load_error(grav, "grav");
  expect_has(m2, "gravity[2]");
  expect_has(m2, where(grav, "NaN"));
  const std::string word = "{\"description\": \"x\", \"t_end\": yes}";
  const std::string m3 = load_error(word, "word");
  expect_has(m3, "t_end");
  expect_has(m3, where(word, "yes"));
  const std::string comma =
      "{\"description\": \"x\",\n \"bodies\": [{\"mass\": 1,, \"name\": \"a\"}]}";
  const std::string m5 = load_error(comma, "comma");
  expect_has(m5, "(in bodies[0], after field mass)");
  expect_has(m5, where(comma, ", \"name\""));
  const std::string cut = "{\"description\": \"x\",\n \"dimension\": ";
  const std::string m4 = load_error(cut, "cut");
  expect_has(m4, "line 2");
  expect_has(m4, "dimension");
}

// From text (no file): the source given is named; an integer beyond int is refused by value.
TEST(SceneErrors, TextSourceAndIntegerRange) {
  try {
    parse_scene_text("{\"description\": [1, 2,, 3]}", "my scene");
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    const std::string msg = e.what();
    EXPECT_EQ(msg.rfind("my scene: not valid JSON at line 1, column 23", 0), 0u) << msg;
    expect_has(msg, "description[2]");
  }
  try {
    parse_scene_text(
        R"({"description": "x", "gallery": "two_ball_chain", "output": {"every": 10000000000}})");
    FAIL() << "accepted";
  } catch (const std::invalid_argument& e) {
    expect_has(e.what(), "output.every = 10000000000: integer out of range");
  }
}

// Found by fuzz_scene: what is checked when the scene's system is built (a gallery system's
// parameters, the settings as the run sees them) named no file. Every such message now starts
// with the scene's source, like the reader's own.
TEST(SceneErrors, BuildingTheSystemNamesTheSource) {
  const std::string source = "rod.json";
  for (const auto& [text, needle] : std::vector<std::pair<std::string, std::string>>{
           {R"({"description": "x", "gallery": "painleve_rod", "params": {"mu": "0.5"}})",
            "params.mu = \"0.5\" must be a number"},
           {R"({"description": "x", "gallery": "painleve_rod", "params": {"theta_do": 1}})",
            "unknown parameter 'theta_do'"},
           {R"({"description": "x", "gallery": "painleve_rod", "params": {"mu": -1}})", "mu"}}) {
    std::string msg = "(accepted)";
    try {
      prepare_scene_run(parse_scene_text(text, source), "", std::nan(""));
    } catch (const std::invalid_argument& e) {
      msg = e.what();
    }
    EXPECT_EQ(msg.rfind(source + ": ", 0), 0u) << msg;
    expect_has(msg, needle);
  }
}
