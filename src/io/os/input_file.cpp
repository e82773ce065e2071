// The one check behind every input file; see input_file.hpp.
#include "moreau/io/os/input_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "moreau/common/error.hpp"

namespace moreau {

namespace {

// The wording of an open(2) or read(2) failure: the common causes in words, others as the
// system says them.
std::string reason_of(int error) {
  switch (error) {
    case ENOENT:
    case ENOTDIR:  // a component of the path is a file, so the path names nothing
      return "no such file";
    case EISDIR:
      return "is a folder, not a file";
    case EACCES:
    case EPERM:
      return "cannot be read (permission denied)";
    default:
      return fmt::format("cannot be read ({})", std::strerror(error));
  }
}

using File = std::unique_ptr<std::FILE, int (*)(std::FILE*)>;

// `path` opened for reading, or null with `reason` set.
File open_for_reading(const std::string& path, std::string& reason) {
  std::error_code ec;
  // fopen opens a folder for reading without complaint (reads fail later): asked first.
  if (std::filesystem::is_directory(path, ec)) {
    reason = reason_of(EISDIR);
    return File(nullptr, &std::fclose);
  }
  errno = 0;
  File f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) reason = reason_of(errno != 0 ? errno : ENOENT);
  return f;
}

[[noreturn]] void fail(const std::string& path, const std::string& reason) {
  throw std::invalid_argument(one_line(path + ": " + reason));
}

}  // namespace

std::string unreadable_reason(const std::string& path) {
  std::string reason;
  open_for_reading(path, reason);
  return reason;
}

void require_readable_file(const std::string& path) {
  std::string reason;
  if (!open_for_reading(path, reason)) fail(path, reason);
}

std::string read_text_file(const std::string& path) {
  std::string reason;
  const File f = open_for_reading(path, reason);
  if (!f) fail(path, reason);
  std::string text;
  char buffer[1 << 16];
  std::size_t n = 0;
  errno = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f.get())) > 0) text.append(buffer, n);
  if (std::ferror(f.get())) fail(path, reason_of(errno != 0 ? errno : EIO));
  return text;
}

}  // namespace moreau
