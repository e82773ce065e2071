// Writing FCLIB HDF5 files, in the layout libfclib writes (int32 scalars as 1-element arrays,
// fixed-length null-terminated strings, matrices as CSC groups with nz = −1), so that libfclib,
// Siconos and h5py read them. Atomic: a temporary file in the target folder, renamed at the end.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fclib_hdf5.hpp"
#include "moreau/common/error.hpp"
#include "moreau/io/os/atomic_file.hpp"
#include "moreau/io/problems/fclib.hpp"

namespace moreau {

namespace {

using fclib_detail::H5Id;
using fclib_detail::SilenceHdf5Errors;

class Writer {
 public:
  Writer(hid_t file, std::string target) : file_(file), target_(std::move(target)) {}

  template <typename... Args>
  [[noreturn]] void fail(fmt::format_string<Args...> format, Args&&... args) const {
    throw std::runtime_error(fmt::format("cannot write FCLIB file '{}': {}", target_,
                                         fmt::format(format, std::forward<Args>(args)...)));
  }

  void group(const std::string& name) const {
    H5Id g(H5Gcreate2(file_, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!g.valid()) fail("cannot create group {}", name);
  }

  void ints(const std::string& name, const int* data, hsize_t count) const {
    write(name, H5T_STD_I32LE, H5T_NATIVE_INT, data, count);
  }
  void scalar_int(const std::string& name, int value) const { ints(name, &value, 1); }
  void doubles(const std::string& name, const double* data, hsize_t count) const {
    write(name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, data, count);
  }
  void vector(const std::string& name, const Vector& v) const {
    doubles(name, v.data(), static_cast<hsize_t>(v.size()));
  }

  // Scalar fixed-length string of strlen + 1 bytes, null terminated (as H5LTmake_dataset_string).
  void string(const std::string& name, const std::string& value) const {
    H5Id type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), value.size() + 1);
    H5Tset_strpad(type.get(), H5T_STR_NULLTERM);
    H5Id space(H5Screate(H5S_SCALAR), H5Sclose);
    H5Id set(H5Dcreate2(file_, name.c_str(), type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT,
                        H5P_DEFAULT),
             H5Dclose);
    if (!set.valid() ||
        H5Dwrite(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, value.c_str()) < 0)
      fail("cannot write string {}", name);
  }

  // CSC group {m, n, nz = −1, nzmax, p (n+1), i (nnz), x (nnz)}.
  void matrix(const std::string& name, const SparseMatrix& a) const {
    Eigen::SparseMatrix<double, Eigen::ColMajor, int> csc = a;
    csc.makeCompressed();
    const int nnz = static_cast<int>(csc.nonZeros());
    group(name);
    scalar_int(name + "/m", static_cast<int>(csc.rows()));
    scalar_int(name + "/n", static_cast<int>(csc.cols()));
    scalar_int(name + "/nz", -1);
    scalar_int(name + "/nzmax", nnz);
    ints(name + "/p", csc.outerIndexPtr(), static_cast<hsize_t>(csc.cols() + 1));
    ints(name + "/i", csc.innerIndexPtr(), static_cast<hsize_t>(nnz));
    doubles(name + "/x", csc.valuePtr(), static_cast<hsize_t>(nnz));
  }

  void info(const std::string& group_name, const FclibInfo& info) const {
    group(group_name + "/info");
    string(group_name + "/info/title", info.title);
    string(group_name + "/info/description", info.description);
    string(group_name + "/info/math_info", info.math_info);
  }

  void solution(const std::string& name, const FclibSolution& s) const {
    group(name);
    vector(name + "/r", s.r);
    vector(name + "/u", s.u);
    if (s.v.size() > 0) vector(name + "/v", s.v);
  }

 private:
  void write(const std::string& name, hid_t file_type, hid_t mem_type, const void* data,
             hsize_t count) const {
    H5Id space(H5Screate_simple(1, &count, nullptr), H5Sclose);
    H5Id set(H5Dcreate2(file_, name.c_str(), file_type, space.get(), H5P_DEFAULT, H5P_DEFAULT,
                        H5P_DEFAULT),
             H5Dclose);
    if (!set.valid()) fail("cannot create dataset {}", name);
    if (count > 0 && H5Dwrite(set.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
      fail("cannot write dataset {}", name);
  }

  hid_t file_;
  std::string target_;
};

void check_solution(const FclibSolution& s, Index m, Index n, bool global, const char* what) {
  MOREAU_REQUIRE(s.r.size() == m && s.u.size() == m,
                 "FCLIB {}: r and u must have {} entries, got {} and {}", what, m, s.r.size(),
                 s.u.size());
  MOREAU_REQUIRE(global ? (s.v.size() == 0 || s.v.size() == n) : s.v.size() == 0,
                 "FCLIB {}: v must have {} entries, got {}", what, global ? n : 0, s.v.size());
  MOREAU_REQUIRE(all_finite(s.r) && all_finite(s.u) && all_finite(s.v),
                 "FCLIB {}: r, u or v has a NaN or infinite entry", what);
}

// Creates the temporary file, lets `body` fill it, closes it and renames it onto `path`.
template <typename Body>
void write_atomically(const std::filesystem::path& path, Body&& body) {
  MOREAU_REQUIRE(!path.empty() && path.has_filename(), "FCLIB output path '{}' names no file",
                 path.string());
  const std::string target = path.string();
  std::error_code ec;
  const std::filesystem::path dir = path.parent_path().empty() ? "." : path.parent_path();
  if (!std::filesystem::is_directory(dir, ec))
    throw std::runtime_error(fmt::format("cannot write FCLIB file '{}': folder '{}' does not exist",
                                         target, dir.string()));
  SilenceHdf5Errors quiet;
  replace_file_atomically(path, [&](const std::filesystem::path& tmp) {
    H5Id file(H5Fcreate(tmp.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    if (!file.valid())
      throw std::runtime_error(fmt::format(
          "cannot write FCLIB file '{}': cannot create a file in '{}'", target, dir.string()));
    body(Writer(file.get(), target));
    if (H5Fflush(file.get(), H5F_SCOPE_GLOBAL) < 0 || !file.reset())
      throw std::runtime_error(fmt::format("cannot write FCLIB file '{}': closing failed", target));
  });
}

void write_extras(const Writer& w, const std::optional<FclibSolution>& solution,
                  const std::vector<FclibSolution>& guesses) {
  if (!guesses.empty()) {
    w.group("/guesses");
    w.scalar_int("/guesses/number_of_guesses", static_cast<int>(guesses.size()));
    for (std::size_t k = 0; k < guesses.size(); ++k)
      w.solution(fmt::format("/guesses/{}", k + 1), guesses[k]);
  }
  if (solution) w.solution("/solution", *solution);
}

void write_local(const std::filesystem::path& path, const FrictionContactProblem& p,
                 const std::optional<FclibSolution>& solution,
                 const std::vector<FclibSolution>& guesses, const FclibInfo& info) {
  p.validate();
  const Index m = p.q.size();
  if (solution) check_solution(*solution, m, 0, false, "solution");
  for (const auto& g : guesses) check_solution(g, m, 0, false, "guess");
  write_atomically(path, [&](const Writer& w) {
    const std::string g = "/fclib_local";
    w.group(g);
    w.matrix(g + "/W", p.W);
    w.group(g + "/vectors");
    w.vector(g + "/vectors/q", p.q);
    w.vector(g + "/vectors/mu", p.mu);
    w.scalar_int(g + "/spacedim", p.dimension);
    w.info(g, info);
    write_extras(w, solution, guesses);
  });
}

void write_global(const std::filesystem::path& path, const GlobalFrictionContactProblem& p,
                  const std::optional<FclibSolution>& solution,
                  const std::vector<FclibSolution>& guesses, const FclibInfo& info) {
  p.validate();
  const Index m = p.w.size(), n = p.f.size();
  if (solution) check_solution(*solution, m, n, true, "solution");
  for (const auto& g : guesses) check_solution(g, m, n, true, "guess");
  write_atomically(path, [&](const Writer& w) {
    const std::string g = "/fclib_global";
    w.group(g);
    w.matrix(g + "/M", p.M);
    w.matrix(g + "/H", p.H);
    w.group(g + "/vectors");
    w.vector(g + "/vectors/f", p.f);
    w.vector(g + "/vectors/w", p.w);
    w.vector(g + "/vectors/mu", p.mu);
    w.scalar_int(g + "/spacedim", p.dimension);
    w.info(g, info);
    write_extras(w, solution, guesses);
  });
}

std::vector<FclibSolution> as_list(const std::optional<FclibSolution>& guess) {
  if (guess) return {*guess};
  return {};
}

}  // namespace

void write_fclib_local(const std::filesystem::path& path, const FrictionContactProblem& problem,
                       const std::optional<FclibSolution>& solution,
                       const std::optional<FclibSolution>& guess, const FclibInfo& info) {
  write_local(path, problem, solution, as_list(guess), info);
}

void write_fclib_global(const std::filesystem::path& path,
                        const GlobalFrictionContactProblem& problem,
                        const std::optional<FclibSolution>& solution,
                        const std::optional<FclibSolution>& guess, const FclibInfo& info) {
  write_global(path, problem, solution, as_list(guess), info);
}

void write_fclib(const std::filesystem::path& path, const FclibFile& file) {
  if (file.is_global())
    write_global(path, file.global, file.solution, file.guesses, file.info);
  else
    write_local(path, file.local, file.solution, file.guesses, file.info);
}

}  // namespace moreau
