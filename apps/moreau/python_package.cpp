// Where the Python package is, for the commands that run Python (plots, sweeps); commands.hpp.
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "commands.hpp"

namespace moreau::cli {

std::string find_python_package() {
  namespace fs = std::filesystem;
  std::vector<fs::path> dirs;
  if (const char* env = std::getenv("MOREAU_PYTHON_DIR")) dirs.emplace_back(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    const fs::path prefix = exe.parent_path().parent_path();
    dirs.push_back(prefix / "python");
    dirs.push_back(prefix.parent_path() / "python");
    dirs.push_back(prefix / "lib" / "python3" / "dist-packages");
  }
  for (const auto& d : dirs)
    if (fs::exists(d / "moreau" / "_simulate.py")) return d.string();
  return "";
}

}  // namespace moreau::cli
