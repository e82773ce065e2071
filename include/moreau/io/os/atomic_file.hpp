#pragma once
// The one atomic writer of every output file (trajectories, summaries, FCLIB HDF5): the content
// goes to a temporary file with a unique name beside the target (".NAME.tmp-PID-COUNTER-RANDOM",
// so that two writers, threads or processes, never share one), which is then renamed onto the
// target (rename(2) is atomic within a folder). A reader sees the old file or the new one, never
// half of one; on failure the temporary file is removed and the target is untouched.
#include <filesystem>
#include <functional>
#include <string>

namespace moreau {

// A unique temporary path in the folder of `target`.
std::filesystem::path temporary_path_beside(const std::filesystem::path& target);

// Calls write(tmp) with a fresh temporary path beside `path`, then renames it onto `path`.
// Any exception from `write` (or a failed rename, std::runtime_error naming both paths) removes
// the temporary file and passes on.
void replace_file_atomically(const std::filesystem::path& path,
                             const std::function<void(const std::filesystem::path& tmp)>& write);

// Writes `text` to `path` atomically; std::runtime_error naming the path when it cannot.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace moreau
