// The one JSON reader (io/json/json_reader.hpp) and the one atomic writer (io/os/atomic_file.hpp):
// the rules every input file and every output file share.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "moreau/io/os/atomic_file.hpp"
#include "moreau/io/reports/impact_spec.hpp"
#include "moreau/io/json/json_reader.hpp"

namespace moreau {
namespace {

namespace fs = std::filesystem;

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no exception)";
}

TEST(JsonReader, DuplicateKeysAreRefusedWithTheirPath) {
  const std::string msg =
      message_of([] { json_io::parse_text(R"({"a": {"b": [{"c": 1, "c": 2}]}})", "f.json"); });
  EXPECT_EQ(msg.rfind("f.json: the key \"c\" is given twice", 0), 0u) << msg;
  EXPECT_NE(msg.find("a.b[0]"), std::string::npos) << msg;
  // the same key in two different objects is fine
  EXPECT_NO_THROW(json_io::parse_text(R"({"a": {"x": 1}, "b": {"x": 1}})", "f.json"));
}

TEST(JsonReader, NonFiniteLiteralsAndOverflowsAreRefused) {
  for (const char* text : {R"({"x": NaN})", R"({"x": Infinity})", R"({"x": 1e999})"}) {
    const std::string msg = message_of([&] { json_io::parse_text(text, "f.json"); });
    EXPECT_EQ(msg.rfind("f.json: ", 0), 0u) << msg;
    EXPECT_NE(msg.find("line 1"), std::string::npos) << msg;
  }
}

TEST(JsonReader, FieldHelpersNameThePathAndTheValue) {
  const json_io::json doc =
      json_io::parse_text(R"({"m": [[1, 2], [3]], "s": "x", "n": null})", "f.json");
  EXPECT_EQ(message_of([&] { json_io::matrix(doc["m"], "m"); }),
            "m[1] = [3]: must be an array of 2 numbers");
  EXPECT_EQ(message_of([&] { json_io::number(doc, "", "s", 0.0); }), "s = \"x\": must be a number");
  EXPECT_EQ(message_of([&] { json_io::number(doc, "", "n", 0.0); }), "n = null: must be a number");
  EXPECT_EQ(json_io::number(doc, "", "absent", 2.5), 2.5);
  EXPECT_NE(message_of([&] {
              json_io::check_keys(doc, "", {"m", "s"});
            }).find("n: unknown field"),
            std::string::npos);
  const Matrix A = json_io::matrix(json_io::parse_text("[[1, 2], [3, 4]]", "f"), "A", 2, 2);
  EXPECT_EQ(A(1, 0), 3.0);
}

// The impact SPEC now goes through the same reader: a non-finite number that the old reader
// accepted (1e999 read as +inf) is refused, with the source named.
// Found by fuzz_scene and fuzz_analysis_input (fuzz/corpus/*/regression-newline-in-message.json):
// messages quote keys and pieces of the text, which may hold control characters; the message is
// still one line, the characters escaped.
TEST(JsonReader, MessagesStayOneLineWhateverTheTextHolds) {
  // a key holding an escaped newline, then a syntax error: the message names the field
  const std::string syntax =
      message_of([] { json_io::parse_text("{\"de\\no\": 1,, }", "f.json"); });
  EXPECT_EQ(syntax.rfind("f.json: ", 0), 0u) << syntax;
  EXPECT_EQ(syntax.find('\n'), std::string::npos) << syntax;
  EXPECT_NE(syntax.find("field de\\no"), std::string::npos) << syntax;  // the key, escaped
  const std::string unknown = message_of([] {
    json_io::with_source("g.json", [] {
      const json_io::json doc = json_io::parse_text("{\"x\\u0007\\ny\": 1}", "g.json");
      json_io::check_keys(doc, "", {"description"});
      return 0;
    });
  });
  EXPECT_EQ(unknown, "g.json: x\\x07\\ny: unknown field (allowed: description)");
}

TEST(JsonReader, ImpactSpecSharesTheRules) {
  const std::string spec = R"({"law": "newton", "bodies": [{"name": "b", "mass": 1e999,
    "inertia": [[1,0,0],[0,1,0],[0,0,1]]}], "contacts": [{"bodies": ["b"], "point": [0,0,0], "normal": [0,0,1]}]})";
  const std::string msg = message_of([&] { run_impact_json(spec, 2, "ball.json"); });
  EXPECT_EQ(msg.rfind("ball.json: number out of range", 0), 0u) << msg;
  // a flag of the wrong type is named with its field (not nlohmann's bare type error)
  const std::string flag =
      R"({"law": "compliant", "error_estimate": 1, "bodies": [{"name": "b", "mass": 1,
    "inertia": [[1,0,0],[0,1,0],[0,0,1]]}], "contacts": [{"bodies": ["b"], "point": [0,0,0], "normal": [0,0,1]}]})";
  EXPECT_EQ(message_of([&] { run_impact_json(flag, 2, "f.json"); }),
            "f.json: error_estimate = 1: must be true or false");
  const std::string unknown = R"({"law": "newton", "bodys": []})";
  EXPECT_NE(message_of([&] {
              run_impact_json(unknown, 2, "x.json");
            }).find("x.json: bodys: unknown field"),
            std::string::npos);
}

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename());
  return out;
}

TEST(AtomicFile, ConcurrentWritersLeaveOneWholeFileAndNoTemporaries) {
  const fs::path dir =
      fs::temp_directory_path() / fs::path("moreau_atomic_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path target = dir / "out.csv";
  const std::string a(100000, 'a'), b(100000, 'b');
  std::thread t1([&] {
    for (int k = 0; k < 20; ++k) write_file_atomically(target.string(), a);
  });
  std::thread t2([&] {
    for (int k = 0; k < 20; ++k) write_file_atomically(target.string(), b);
  });
  t1.join();
  t2.join();
  std::ifstream in(target);
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_TRUE(ss.str() == a || ss.str() == b);  // never a mix of the two writers
  EXPECT_EQ(files_in(dir).size(), 1u);          // no temporary file left behind
  fs::remove_all(dir);
}

TEST(AtomicFile, AFailedWriteLeavesTheTargetUntouched) {
  const fs::path dir =
      fs::temp_directory_path() / fs::path("moreau_atomic_fail_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path target = dir / "summary.json";
  write_file_atomically(target.string(), "old");
  EXPECT_THROW(replace_file_atomically(target,
                                       [](const fs::path& tmp) {
                                         std::ofstream(tmp) << "half";
                                         throw std::runtime_error("disk full");
                                       }),
               std::runtime_error);
  std::ifstream in(target);
  std::string text;
  in >> text;
  EXPECT_EQ(text, "old");
  EXPECT_EQ(files_in(dir).size(), 1u);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace moreau
