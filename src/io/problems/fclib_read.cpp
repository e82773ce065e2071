// Reading FCLIB HDF5 files (layout: include/moreau/io/problems/fclib.hpp). Every dataset is checked
// (existence, type class, size, index ranges, finiteness) before its values are used, so that a
// malformed file raises std::invalid_argument naming the file.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "fclib_hdf5.hpp"
#include "moreau/common/error.hpp"
#include "moreau/io/os/input_file.hpp"
#include "moreau/io/problems/fclib.hpp"

namespace moreau {

namespace {

using fclib_detail::H5Id;
using fclib_detail::SilenceHdf5Errors;

// Largest dataset we accept (entries): guards against absurd declared sizes in broken files.
constexpr hsize_t kMaxEntries = hsize_t{1} << 31;

class Reader {
 public:
  explicit Reader(const std::filesystem::path& path) : path_(path) {
    require_readable_file(path_.string());  // the one wording of io/os/input_file.hpp
    const htri_t is_hdf5 = H5Fis_hdf5(path_.c_str());
    if (is_hdf5 <= 0) fail_plain("cannot read FCLIB file '{}': not an HDF5 file", path_.string());
    // CLOSE_STRONG: closing the file also closes any object left open by a failed read.
    H5Id access(H5Pcreate(H5P_FILE_ACCESS), H5Pclose);
    H5Pset_fclose_degree(access.get(), H5F_CLOSE_STRONG);
    file_ = H5Id(H5Fopen(path_.c_str(), H5F_ACC_RDONLY, access.get()), H5Fclose);
    if (!file_.valid())
      fail_plain("cannot read FCLIB file '{}': HDF5 could not open it (truncated or damaged?)",
                 path_.string());
  }

  template <typename... Args>
  [[noreturn]] void fail(fmt::format_string<Args...> format, Args&&... args) const {
    throw std::invalid_argument(one_line(fmt::format(
        "FCLIB file '{}': {}", path_.string(), fmt::format(format, std::forward<Args>(args)...))));
  }

  // True when every component of the absolute path `name` exists as a link.
  bool exists(const std::string& name) const {
    std::string prefix;
    std::size_t start = 1;
    while (start <= name.size()) {
      std::size_t end = name.find('/', start);
      if (end == std::string::npos) end = name.size();
      prefix = name.substr(0, end);
      if (H5Lexists(file_.get(), prefix.c_str(), H5P_DEFAULT) <= 0) return false;
      start = end + 1;
    }
    return true;
  }

  bool is_group(const std::string& name) const {
    if (!exists(name)) return false;
    H5O_info_t info;
    if (H5Oget_info_by_name(file_.get(), name.c_str(), &info, H5P_DEFAULT) < 0) return false;
    return info.type == H5O_TYPE_GROUP;
  }

  // Names of the members of the root group.
  std::vector<std::string> root_members() const {
    std::vector<std::string> names;
    H5G_info_t info;
    if (H5Gget_info(file_.get(), &info) < 0) fail("cannot list the root group");
    for (hsize_t k = 0; k < info.nlinks; ++k) {
      const ssize_t len = H5Lget_name_by_idx(file_.get(), "/", H5_INDEX_NAME, H5_ITER_INC, k,
                                             nullptr, 0, H5P_DEFAULT);
      if (len < 0) continue;
      std::string name(static_cast<std::size_t>(len) + 1, '\0');
      H5Lget_name_by_idx(file_.get(), "/", H5_INDEX_NAME, H5_ITER_INC, k, name.data(), name.size(),
                         H5P_DEFAULT);
      name.resize(static_cast<std::size_t>(len));
      names.push_back(name);
    }
    return names;
  }

  // Reads `count` entries of the numeric dataset `name` (all of them when count < 0).
  // exact: the dataset must have exactly `count` entries; otherwise at least `count`.
  std::vector<double> doubles(const std::string& name, long long count = -1,
                              bool exact = true) const {
    std::vector<double> out;
    read_numeric(name, count, exact, H5T_NATIVE_DOUBLE, out);
    for (std::size_t k = 0; k < out.size(); ++k)
      if (!std::isfinite(out[k])) fail("{}[{}] is {} (NaN or infinite)", name, k, out[k]);
    return out;
  }

  std::vector<long long> ints(const std::string& name, long long count = -1,
                              bool exact = true) const {
    std::vector<long long> out;
    read_numeric(name, count, exact, H5T_NATIVE_LLONG, out, /*integer_only=*/true);
    return out;
  }

  long long scalar_int(const std::string& name) const { return ints(name, 1)[0]; }

  // A string dataset (fixed or variable length); empty when absent.
  std::string string_or_empty(const std::string& name) const {
    if (!exists(name)) return {};
    H5Id set(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
    if (!set.valid()) fail("cannot open dataset {}", name);
    H5Id type(H5Dget_type(set.get()), H5Tclose);
    if (H5Tget_class(type.get()) != H5T_STRING) fail("{} is not a string", name);
    H5Id space(H5Dget_space(set.get()), H5Sclose);
    if (H5Sget_simple_extent_npoints(space.get()) != 1) fail("{} is not a single string", name);
    if (H5Tis_variable_str(type.get()) > 0) {
      H5Id mem(H5Tcopy(H5T_C_S1), H5Tclose);
      H5Tset_size(mem.get(), H5T_VARIABLE);
      char* data = nullptr;
      if (H5Dread(set.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &data) < 0)
        fail("cannot read string {}", name);
      std::string s = data ? data : "";
      H5free_memory(data);
      return s;
    }
    const std::size_t size = H5Tget_size(type.get());
    if (size == 0 || size > (std::size_t{1} << 26)) fail("string {} has size {}", name, size);
    std::string s(size + 1, '\0');
    H5Id mem(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(mem.get(), size + 1);
    H5Tset_strpad(mem.get(), H5T_STR_NULLTERM);
    if (H5Dread(set.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, s.data()) < 0)
      fail("cannot read string {}", name);
    s.resize(std::strlen(s.c_str()));
    return s;
  }

  // Sparse matrix group {m, n, nz, nzmax, p, i, x} (see fclib.hpp), as a row-major matrix of
  // the size the problem's vectors give (rows × cols), checked before anything is allocated.
  SparseMatrix matrix(const std::string& group, long long rows, long long cols) const {
    if (!is_group(group)) fail("missing matrix group {}", group);
    const long long m = scalar_int(group + "/m"), n = scalar_int(group + "/n");
    const long long nz = scalar_int(group + "/nz");
    if (m != rows || n != cols)
      fail("matrix {} is {}×{}, expected {}×{} from the problem's vectors", group, m, n, rows,
           cols);
    std::vector<Triplet> triplets;
    if (nz == -1 || nz == -2) {  // compressed columns (−1) or rows (−2)
      const long long outer = nz == -1 ? n : m, inner = nz == -1 ? m : n;
      const std::vector<long long> p = ints(group + "/p", outer + 1, /*exact=*/false);
      if (p[0] != 0) fail("matrix {}: p[0] = {} (should be 0)", group, p[0]);
      for (long long k = 0; k < outer; ++k)
        if (p[k + 1] < p[k]) fail("matrix {}: pointers p decrease at {}", group, k);
      const long long nnz = p[outer];
      const std::vector<long long> idx = ints(group + "/i", nnz, false);
      const std::vector<double> x = doubles(group + "/x", nnz, false);
      triplets.reserve(static_cast<std::size_t>(nnz));
      for (long long k = 0; k < outer; ++k)
        for (long long e = p[k]; e < p[k + 1]; ++e) {
          if (idx[e] < 0 || idx[e] >= inner)
            fail("matrix {}: index i[{}] = {} out of range [0, {})", group, e, idx[e], inner);
          if (nz == -1)
            triplets.emplace_back(static_cast<int>(idx[e]), static_cast<int>(k), x[e]);
          else
            triplets.emplace_back(static_cast<int>(k), static_cast<int>(idx[e]), x[e]);
        }
    } else if (nz >= 0) {  // triplet: i = row, p = column (CSparse, as Siconos writes)
      const std::vector<long long> i = ints(group + "/i", nz, false);
      const std::vector<long long> p = ints(group + "/p", nz, false);
      const std::vector<double> x = doubles(group + "/x", nz, false);
      bool csparse = true, swapped = true;
      for (long long e = 0; e < nz; ++e) {
        csparse = csparse && i[e] >= 0 && i[e] < m && p[e] >= 0 && p[e] < n;
        swapped = swapped && p[e] >= 0 && p[e] < m && i[e] >= 0 && i[e] < n;
      }
      if (!csparse && !swapped)
        fail("matrix {}: triplet indices out of range for a {}×{} matrix", group, m, n);
      triplets.reserve(static_cast<std::size_t>(nz));
      for (long long e = 0; e < nz; ++e) {
        const long long row = csparse ? i[e] : p[e], col = csparse ? p[e] : i[e];
        triplets.emplace_back(static_cast<int>(row), static_cast<int>(col), x[e]);
      }
    } else {
      fail("matrix {}: nz = {} is not a known storage (−1 CSC, −2 CSR, ≥ 0 triplet)", group, nz);
    }
    SparseMatrix a(m, n);
    a.setFromTriplets(triplets.begin(), triplets.end());
    a.makeCompressed();
    return a;
  }

  Vector vector(const std::string& name, long long size) const {
    if (!exists(name)) fail("missing dataset {}", name);
    const std::vector<double> v = doubles(name, size);
    return Eigen::Map<const Vector>(v.data(), static_cast<Index>(v.size()));
  }

  Vector vector_any(const std::string& name) const {
    if (!exists(name)) fail("missing dataset {}", name);
    const std::vector<double> v = doubles(name);
    return Eigen::Map<const Vector>(v.data(), static_cast<Index>(v.size()));
  }

  const std::filesystem::path& path() const { return path_; }

 private:
  template <typename... Args>
  [[noreturn]] static void fail_plain(fmt::format_string<Args...> format, Args&&... args) {
    throw std::invalid_argument(one_line(fmt::format(format, std::forward<Args>(args)...)));
  }

  template <typename T>
  void read_numeric(const std::string& name, long long count, bool exact, hid_t memtype,
                    std::vector<T>& out, bool integer_only = false) const {
    if (!exists(name)) fail("missing dataset {}", name);
    H5Id set(H5Dopen2(file_.get(), name.c_str(), H5P_DEFAULT), H5Dclose);
    if (!set.valid()) fail("{} is not a dataset", name);
    H5Id type(H5Dget_type(set.get()), H5Tclose);
    const H5T_class_t cls = H5Tget_class(type.get());
    if (cls != H5T_INTEGER && (integer_only || cls != H5T_FLOAT))
      fail("{} has the wrong type (expected {})", name, integer_only ? "integers" : "numbers");
    H5Id space(H5Dget_space(set.get()), H5Sclose);
    const hssize_t npoints = H5Sget_simple_extent_npoints(space.get());
    if (npoints < 0) fail("cannot read the size of {}", name);
    const hsize_t have = static_cast<hsize_t>(npoints);
    if (count >= 0 && exact && have != static_cast<hsize_t>(count))
      fail("{} has {} entries, expected {}", name, have, count);
    if (count >= 0 && have < static_cast<hsize_t>(count))
      fail("{} has {} entries, expected at least {}", name, have, count);
    const hsize_t want = count >= 0 ? static_cast<hsize_t>(count) : have;
    if (want > kMaxEntries) fail("{} is too large ({} entries)", name, want);
    out.assign(static_cast<std::size_t>(want), T{});
    if (want == 0) return;
    herr_t status;
    if (want == have) {
      status = H5Dread(set.get(), memtype, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data());
    } else {  // the first `want` entries of a one-dimensional dataset
      if (H5Sget_simple_extent_ndims(space.get()) != 1) fail("{} is not one-dimensional", name);
      const hsize_t start = 0;
      H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, &start, nullptr, &want, nullptr);
      H5Id mem(H5Screate_simple(1, &want, nullptr), H5Sclose);
      status = H5Dread(set.get(), memtype, mem.get(), space.get(), H5P_DEFAULT, out.data());
    }
    if (status < 0) fail("cannot read {} (truncated or damaged file?)", name);
  }

  std::filesystem::path path_;
  H5Id file_;
};

// Rethrows a validation error of the problem with the file name in front.
template <typename Problem>
void validate_from(const Reader& reader, const Problem& problem) {
  try {
    problem.validate();
  } catch (const std::invalid_argument& e) {
    reader.fail("{}", e.what());
  }
}

int read_dimension(const Reader& reader, const std::string& group) {
  const long long d = reader.scalar_int(group + "/spacedim");
  if (d == 5) reader.fail("rolling-friction problems (spacedim 5) are not supported");
  if (d != 2 && d != 3) reader.fail("{}/spacedim = {} (expected 2 or 3)", group, d);
  return static_cast<int>(d);
}

std::optional<FclibSolution> read_solution_group(const Reader& reader, const std::string& group,
                                                 Index m, Index n, bool global) {
  if (!reader.is_group(group)) return std::nullopt;
  FclibSolution s;
  s.r = reader.vector(group + "/r", m);
  s.u = reader.vector(group + "/u", m);
  if (global && reader.exists(group + "/v")) s.v = reader.vector(group + "/v", n);
  return s;
}

// The file's contents; the file is closed when this returns.
FclibFile read_open_fclib(const std::filesystem::path& path) {
  SilenceHdf5Errors quiet;
  Reader reader(path);
  FclibFile out;
  std::string group;
  if (reader.is_group("/fclib_local")) {
    group = "/fclib_local";
    out.form = FclibForm::local;
  } else if (reader.is_group("/fclib_global")) {
    group = "/fclib_global";
    out.form = FclibForm::global;
  } else {
    for (const std::string& name : reader.root_members())
      if (name.rfind("fclib_", 0) == 0 && name.find("rolling") != std::string::npos)
        reader.fail("rolling-friction problems (/{}) are not supported", name);
    reader.fail("no group /fclib_local or /fclib_global: not an FCLIB problem");
  }

  const int d = read_dimension(reader, group);
  const Vector mu = reader.vector_any(group + "/vectors/mu");
  const Index nc = mu.size(), m = d * nc;
  Index n = 0;
  if (out.form == FclibForm::local) {
    for (const char* extra : {"/V", "/R", "/vectors/s"})
      if (reader.exists(group + extra))
        reader.fail("local problems with extra equality multipliers ({}{}) are not supported",
                    group, extra);
    FrictionContactProblem& p = out.local;
    p.dimension = d;
    p.mu = mu;
    p.W = reader.matrix(group + "/W", m, m);
    p.q = reader.vector(group + "/vectors/q", m);
    validate_from(reader, p);
  } else {
    for (const char* extra : {"/G", "/vectors/b"})
      if (reader.exists(group + extra))
        reader.fail("global problems with equality constraints ({}{}) are not supported", group,
                    extra);
    GlobalFrictionContactProblem& p = out.global;
    p.dimension = d;
    p.mu = mu;
    p.f = reader.vector_any(group + "/vectors/f");
    n = p.f.size();
    p.M = reader.matrix(group + "/M", n, n);
    p.H = reader.matrix(group + "/H", n, m);
    p.w = reader.vector(group + "/vectors/w", m);
    validate_from(reader, p);
  }

  out.info.title = reader.string_or_empty(group + "/info/title");
  out.info.description = reader.string_or_empty(group + "/info/description");
  out.info.math_info = reader.string_or_empty(group + "/info/math_info");

  const bool global = out.is_global();
  if (reader.is_group("/guesses")) {
    const long long count = reader.exists("/guesses/number_of_guesses")
                                ? reader.scalar_int("/guesses/number_of_guesses")
                                : 0;
    if (count < 0 || count > 100000) reader.fail("/guesses/number_of_guesses = {}", count);
    for (long long k = 1; k <= count; ++k) {
      auto guess = read_solution_group(reader, fmt::format("/guesses/{}", k), m, n, global);
      if (!guess) reader.fail("/guesses/{} is missing (number_of_guesses = {})", k, count);
      out.guesses.push_back(std::move(*guess));
    }
  }
  out.solution = read_solution_group(reader, "/solution", m, n, global);
  return out;
}

}  // namespace

// The file is read and closed, then HDF5's free lists are handed back to the allocator
// (H5garbage_collect): HDF5 keeps the blocks a read frees for its own later use, so a solve that
// follows (moreau solve) took fresh heap pages instead, a page fault each (about 10 µs on a
// virtual machine: 4 of NESpheres_30_1's first solve, 2 of Box_Stacks-i0035-31-0's), where it
// now reuses the pages the read already touched.
FclibFile read_fclib(const std::filesystem::path& path) {
  FclibFile out = read_open_fclib(path);
  H5garbage_collect();
  return out;
}

FrictionContactProblem read_fclib_local(const std::filesystem::path& path) {
  FclibFile file = read_fclib(path);
  if (file.is_global())
    throw std::invalid_argument(fmt::format(
        "FCLIB file '{}': holds a global problem (/fclib_global), not a local one; read it with "
        "read_fclib_global (or condense it)",
        path.string()));
  return std::move(file.local);
}

GlobalFrictionContactProblem read_fclib_global(const std::filesystem::path& path) {
  FclibFile file = read_fclib(path);
  if (!file.is_global())
    throw std::invalid_argument(fmt::format(
        "FCLIB file '{}': holds a local problem (/fclib_local), not a global one", path.string()));
  return std::move(file.global);
}

}  // namespace moreau
