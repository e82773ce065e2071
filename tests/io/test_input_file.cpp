// One wording for a file that cannot be opened (io/os/input_file.hpp), whatever reads it: the
// expected messages are written out here ("PATH: no such file"), not taken from the library.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>

#include "moreau/io/import/load_scene.hpp"
#include "moreau/io/mesh/mesh_file.hpp"
#include "moreau/io/import/mjcf.hpp"
#include "moreau/io/import/urdf.hpp"
#include "moreau/io/json/json_reader.hpp"
#include "moreau/io/os/input_file.hpp"
#include "moreau/io/problems/fclib.hpp"
#include "moreau/io/problems/siconos_text.hpp"
#include "moreau/io/reports/analysis_input.hpp"
#include "moreau/io/reports/impact_spec.hpp"
#include "moreau/io/run/run_hdf5.hpp"

namespace moreau {
namespace {

namespace fs = std::filesystem;

// A scratch folder for one test, removed at the end.
class Scratch {
 public:
  Scratch()
      : path_(fs::temp_directory_path() /
              ("moreau_input_file_" + std::to_string(::getpid()) + "_" +
               ::testing::UnitTest::GetInstance()->current_test_info()->name())) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~Scratch() { fs::remove_all(path_); }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

// The message of the std::invalid_argument that `read` throws ("" and a test failure if none).
std::string message_of(const std::function<void()>& read) {
  try {
    read();
  } catch (const std::invalid_argument& e) {
    return e.what();
  } catch (const std::exception& e) {
    ADD_FAILURE() << "not std::invalid_argument: " << e.what();
    return "";
  }
  ADD_FAILURE() << "nothing thrown";
  return "";
}

// Every reader of an input file, called on `path`.
struct Reader {
  const char* name;
  const char* extension;
  std::function<void(const std::string&)> read;
};

const std::vector<Reader>& readers() {
  static const std::vector<Reader> all = {
      {"json_io::read_file", ".json", [](const std::string& p) { json_io::read_file(p); }},
      {"load_scene (JSON)", ".json", [](const std::string& p) { load_scene(p); }},
      {"load_scene (MJCF)", ".xml", [](const std::string& p) { load_scene(p); }},
      {"load_mjcf", ".xml", [](const std::string& p) { load_mjcf(p); }},
      {"load_scene (URDF)", ".urdf", [](const std::string& p) { load_scene(p); }},
      {"load_urdf", ".urdf", [](const std::string& p) { load_urdf(p); }},
      {"read_fclib", ".hdf5", [](const std::string& p) { read_fclib(p); }},
      {"read_siconos_lcp", ".dat", [](const std::string& p) { read_siconos_lcp(p); }},
      {"load_analysis_input", ".json", [](const std::string& p) { load_analysis_input(p); }},
      {"run_impact_file", ".json", [](const std::string& p) { run_impact_file(p); }},
      {"load_mesh_file", ".stl", [](const std::string& p) { load_mesh_file(p); }},
      {"read_run_hdf5", ".h5",
       [](const std::string& p) {
         SimulationResult r;
         read_run_hdf5(p, r);
       }},
      {"read_text_file", ".txt", [](const std::string& p) { read_text_file(p); }},
  };
  return all;
}

TEST(InputFile, MissingFileReadsTheSameInEveryReader) {
  const Scratch dir;
  for (const Reader& r : readers()) {
    const std::string path = dir / (std::string("absent") + r.extension);
    EXPECT_EQ(message_of([&] { r.read(path); }), path + ": no such file") << r.name;
  }
}

TEST(InputFile, PathThroughAFileIsNoSuchFile) {
  const Scratch dir;
  std::ofstream(dir / "plain") << "x";
  // ENOTDIR from open(2): a component of the path is a file, so the path names nothing.
  for (const Reader& r : readers()) {
    const std::string path = dir / (std::string("plain/inside") + r.extension);
    EXPECT_EQ(message_of([&] { r.read(path); }), path + ": no such file") << r.name;
  }
}

TEST(InputFile, FolderIsNotAFile) {
  const Scratch dir;
  for (const Reader& r : readers()) {
    const std::string path = dir / (std::string("folder") + r.extension);
    fs::create_directories(path);
    EXPECT_EQ(message_of([&] { r.read(path); }), path + ": is a folder, not a file") << r.name;
  }
}

TEST(InputFile, UnreadableFileSaysPermissionDenied) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads any file";
  const Scratch dir;
  const std::string path = dir / "locked.json";
  std::ofstream(path) << "{}";
  ::chmod(path.c_str(), 0);
  EXPECT_EQ(message_of([&] { json_io::read_file(path); }),
            path + ": cannot be read (permission denied)");
  EXPECT_EQ(unreadable_reason(path), "cannot be read (permission denied)");
}

TEST(InputFile, ReadsEveryByte) {
  const Scratch dir;
  const std::string path = dir / "bytes.bin";
  std::string text = "line 1\nline 2\r\n";
  text += '\0';
  text += "after a NUL";
  text += std::string(200000, 'x');  // more than one buffer of the reader
  std::ofstream(path, std::ios::binary) << text;
  EXPECT_EQ(read_text_file(path), text);
  EXPECT_EQ(unreadable_reason(path), "");
  EXPECT_EQ(unreadable_reason(dir / "none"), "no such file");
  EXPECT_NO_THROW(require_readable_file(path));
}

// An MJCF <include> of a missing file: the element that names it, then the same wording.
TEST(InputFile, MissingMjcfIncludeUsesTheWording) {
  const Scratch dir;
  const std::string model = dir / "model.xml";
  std::ofstream(model) << "<mujoco>\n  <include file=\"parts.xml\"/>\n</mujoco>\n";
  const std::string msg = message_of([&] { load_mjcf(model); });
  EXPECT_EQ(msg,
            model + ":2: <include file=\"parts.xml\">: " + dir / "parts.xml" + ": no such file");
}

}  // namespace
}  // namespace moreau
