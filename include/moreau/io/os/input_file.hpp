#pragma once
// The one check behind every input file (JSON scenes, SPECs and analyze inputs, MJCF and its
// includes, URDF, meshes, FCLIB HDF5, Siconos text, run folders): a file that cannot be opened
// reads the same whatever its format,
//   "PATH: no such file"
//   "PATH: is a folder, not a file"
//   "PATH: cannot be read (permission denied)"   (or the system's reason for another failure)
// thrown as std::invalid_argument (bad input: pybind11 ValueError, the program's exit status 2).
#include <string>

namespace moreau {

// Why `path` cannot be opened for reading ("no such file", "is a folder, not a file", "cannot be
// read (permission denied)", …), or "" when it can.
std::string unreadable_reason(const std::string& path);

// Throws std::invalid_argument "PATH: <reason>" when `path` cannot be opened for reading.
void require_readable_file(const std::string& path);

// The bytes of the file at `path`; require_readable_file first, and "PATH: cannot be read (…)"
// when reading fails part way.
std::string read_text_file(const std::string& path);

}  // namespace moreau
