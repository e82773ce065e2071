// The one atomic writer; see atomic_file.hpp.
#include "moreau/io/os/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <random>
#include <stdexcept>

#include <fmt/format.h>

namespace moreau {

std::filesystem::path temporary_path_beside(const std::filesystem::path& target) {
  static std::atomic<unsigned> counter{0};
  std::random_device rd;
  const std::string name = fmt::format(".{}.tmp-{}-{}-{:08x}", target.filename().string(),
                                       static_cast<long>(getpid()), counter++, rd());
  return target.parent_path() / name;
}

void replace_file_atomically(const std::filesystem::path& path,
                             const std::function<void(const std::filesystem::path& tmp)>& write) {
  const std::filesystem::path tmp = temporary_path_beside(path);
  std::error_code ec;
  try {
    write(tmp);
    std::filesystem::rename(tmp, path, ec);
    if (ec)
      throw std::runtime_error(
          fmt::format("cannot rename '{}' to '{}': {}", tmp.string(), path.string(), ec.message()));
  } catch (...) {
    std::filesystem::remove(tmp, ec);
    throw;
  }
}

void write_file_atomically(const std::string& path, const std::string& text) {
  replace_file_atomically(path, [&](const std::filesystem::path& tmp) {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw std::runtime_error(fmt::format("cannot write '{}': cannot create a file there", path));
    out << text;
    out.flush();
    if (!out)
      throw std::runtime_error(
          fmt::format("cannot write '{}': the write failed (disk full?)", path));
  });
}

}  // namespace moreau
