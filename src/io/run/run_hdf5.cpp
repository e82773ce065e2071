// The HDF5 run file (run_hdf5.hpp, docs/run-format.md): 1-D and 2-D float64 datasets written
// row by row from the result's records (no copy of the whole trajectory), int64 indices, uint8
// contact modes with their names as an attribute, variable-length UTF-8 strings.
#include "moreau/io/run/run_hdf5.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "../problems/fclib_hdf5.hpp"
#include "moreau/io/os/atomic_file.hpp"
#include "moreau/io/os/input_file.hpp"
#include "moreau/io/json/vocabulary.hpp"

namespace moreau {
namespace {

using fclib_detail::H5Id;
using fclib_detail::SilenceHdf5Errors;

// Datasets of more numbers than this are compressed (deflate level kDeflateLevel after the
// shuffle filter), in chunks of at most kChunk values along a row.
constexpr hsize_t kCompressAbove = 4096;
constexpr unsigned kDeflateLevel = 4;
constexpr hsize_t kChunk = 1 << 16;

// The variable-length UTF-8 string type of run.h5's strings (file and memory alike).
H5Id utf8_variable_string() {
  H5Id type(H5Tcopy(H5T_C_S1), H5Tclose);
  H5Tset_size(type.get(), H5T_VARIABLE);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  return type;
}

class RunWriter {
 public:
  RunWriter(hid_t file, std::string target) : file_(file), target_(std::move(target)) {}

  template <typename... Args>
  [[noreturn]] void fail(fmt::format_string<Args...> format, Args&&... args) const {
    throw std::runtime_error(fmt::format("cannot write the run file '{}': {}", target_,
                                         fmt::format(format, std::forward<Args>(args)...)));
  }

  void group(const char* name) const {
    H5Id g(H5Gcreate2(file_, name, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Gclose);
    if (!g.valid()) fail("cannot create group {}", name);
  }

  // rows × cols (cols = 0: a 1-D dataset of `rows`), filled by row(k, buffer of cols doubles),
  // stored compressed (kCompressAbove).
  template <typename Row>
  void matrix(const char* name, hsize_t rows, hsize_t cols, Row&& row) const {
    if (cols == 0) {  // one write of the whole column
      std::vector<double> all(static_cast<size_t>(rows));
      for (hsize_t k = 0; k < rows; ++k) row(k, &all[static_cast<size_t>(k)]);
      whole(name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, all.data(), rows);
      return;
    }
    const hsize_t dims[2] = {rows, cols};
    H5Id space(H5Screate_simple(2, dims, nullptr), H5Sclose);
    const hsize_t chunk[2] = {1, std::min<hsize_t>(cols, kChunk)};
    H5Id set = create(name, H5T_IEEE_F64LE, space.get(), rows * cols, 2, chunk);
    std::vector<double> buffer(static_cast<size_t>(cols));
    const hsize_t count[2] = {1, cols};
    H5Id memory(H5Screate_simple(1, &cols, nullptr), H5Sclose);
    for (hsize_t k = 0; k < rows; ++k) {
      row(k, buffer.data());
      const hsize_t start[2] = {k, 0};
      if (H5Sselect_hyperslab(space.get(), H5S_SELECT_SET, start, nullptr, count, nullptr) < 0 ||
          H5Dwrite(set.get(), H5T_NATIVE_DOUBLE, memory.get(), space.get(), H5P_DEFAULT,
                   buffer.data()) < 0)
        fail("cannot write row {} of {}", k, name);
    }
  }
  void doubles(const char* name, const std::vector<double>& v) const {
    whole(name, H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, v.data(), v.size());
  }
  void integers(const char* name, const std::vector<long long>& v) const {
    whole(name, H5T_STD_I64LE, H5T_NATIVE_LLONG, v.data(), v.size());
  }
  void bytes(const char* name, const std::vector<unsigned char>& v) const {
    whole(name, H5T_STD_U8LE, H5T_NATIVE_UCHAR, v.data(), v.size());
  }
  // A 1-D string array: variable-length UTF-8, or, above kCompressAbove entries (the names of a
  // large world), fixed-length NUL-padded strings of the longest one's size, compressed.
  void strings(const char* name, const std::vector<std::string>& v) const {
    if (v.size() > kCompressAbove) {
      size_t width = 1;
      for (const auto& x : v) width = std::max(width, x.size());
      std::vector<char> packed(v.size() * width, '\0');
      for (size_t k = 0; k < v.size(); ++k)
        std::memcpy(&packed[k * width], v[k].data(), v[k].size());
      H5Id type(H5Tcopy(H5T_C_S1), H5Tclose);
      H5Tset_size(type.get(), width);
      H5Tset_strpad(type.get(), H5T_STR_NULLPAD);
      H5Tset_cset(type.get(), H5T_CSET_UTF8);
      const hsize_t n = v.size(), chunk = std::min<hsize_t>(n, kChunk);
      H5Id space(H5Screate_simple(1, &n, nullptr), H5Sclose);
      H5Id set = create(name, type.get(), space.get(), n, 1, &chunk);
      if (H5Dwrite(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()) < 0)
        fail("cannot write {}", name);
      return;
    }
    std::vector<const char*> p;
    for (const auto& s : v) p.push_back(s.c_str());
    H5Id type = utf8_variable_string();
    whole(name, type.get(), type.get(), p.data(), v.size());
  }
  void text(const char* name, const std::string& s) const {
    H5Id type = utf8_variable_string();
    H5Id space(H5Screate(H5S_SCALAR), H5Sclose);
    H5Id set = create(name, type.get(), space.get());
    const char* p = s.c_str();
    if (H5Dwrite(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &p) < 0)
      fail("cannot write {}", name);
  }
  // A string-array attribute of dataset `name`.
  void string_attribute(const char* name, const char* attribute,
                        const std::vector<std::string>& v) const {
    std::vector<const char*> p;
    for (const auto& s : v) p.push_back(s.c_str());
    H5Id type = utf8_variable_string();
    const hsize_t n = v.size();
    H5Id space(H5Screate_simple(1, &n, nullptr), H5Sclose);
    H5Id set(H5Dopen2(file_, name, H5P_DEFAULT), H5Dclose);
    H5Id attr(H5Acreate2(set.get(), attribute, type.get(), space.get(), H5P_DEFAULT, H5P_DEFAULT),
              H5Aclose);
    if (!attr.valid() || H5Awrite(attr.get(), type.get(), p.data()) < 0)
      fail("cannot write attribute {} of {}", attribute, name);
  }
  void int_attribute(const char* attribute, int value) const {
    H5Id space(H5Screate(H5S_SCALAR), H5Sclose);
    H5Id attr(H5Acreate2(file_, attribute, H5T_STD_I32LE, space.get(), H5P_DEFAULT, H5P_DEFAULT),
              H5Aclose);
    if (!attr.valid() || H5Awrite(attr.get(), H5T_NATIVE_INT, &value) < 0)
      fail("cannot write attribute {}", attribute);
  }

 private:
  // A dataset; numeric ones of more than kCompressAbove values are chunked (`chunk`, rank
  // dims) and stored with the shuffle and deflate filters (any HDF5 reader, h5py included,
  // decompresses them transparently).
  H5Id create(const char* name, hid_t type, hid_t space, hsize_t values = 0, int rank = 0,
              const hsize_t* chunk = nullptr) const {
    H5Id plist(H5Pcreate(H5P_DATASET_CREATE), H5Pclose);
    if (chunk && values > kCompressAbove && H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
      H5Pset_chunk(plist.get(), rank, chunk);
      H5Pset_shuffle(plist.get());
      H5Pset_deflate(plist.get(), kDeflateLevel);
    }
    H5Id set(H5Dcreate2(file_, name, type, space, H5P_DEFAULT, plist.get(), H5P_DEFAULT), H5Dclose);
    if (!set.valid()) fail("cannot create dataset {}", name);
    return set;
  }
  void whole(const char* name, hid_t file_type, hid_t mem_type, const void* data,
             hsize_t count) const {
    H5Id space(H5Screate_simple(1, &count, nullptr), H5Sclose);
    const bool numeric = H5Tget_class(file_type) != H5T_STRING;
    const hsize_t chunk = std::min<hsize_t>(std::max<hsize_t>(count, 1), kChunk);
    H5Id set = numeric ? create(name, file_type, space.get(), count, 1, &chunk)
                       : create(name, file_type, space.get());
    if (count > 0 && H5Dwrite(set.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) < 0)
      fail("cannot write {}", name);
  }

  hid_t file_;
  std::string target_;
};

void write_records(const RunWriter& w, const SimulationResult& r) {
  const hsize_t n = static_cast<hsize_t>(r.records());
  w.doubles("/t", r.t);
  const hsize_t nq = r.q.empty() ? r.position_names.size() : r.q.front().size();
  const hsize_t nv = r.v.empty() ? r.velocity_names.size() : r.v.front().size();
  w.matrix("/q", n, nq,
           [&](hsize_t k, double* out) { std::copy(r.q[k].data(), r.q[k].data() + nq, out); });
  w.matrix("/v", n, nv,
           [&](hsize_t k, double* out) { std::copy(r.v[k].data(), r.v[k].data() + nv, out); });
  w.doubles("/kinetic_energy", r.kinetic);
  w.doubles("/potential_energy", r.potential);
  w.strings("/position_names", r.position_names);
  w.strings("/velocity_names", r.velocity_names);
}

void write_contacts(const RunWriter& w, const SimulationResult& r) {
  w.group("/contacts");
  w.strings("/contacts/names", r.contact_names);
  const size_t m = r.contacts.size();
  std::vector<double> t(m), gap(m), rn(m);
  std::vector<long long> id(m);
  std::vector<unsigned char> mode(m);
  for (size_t k = 0; k < m; ++k) {
    const ContactRecord& c = r.contacts[k];
    t[k] = c.t, gap[k] = c.gap, rn[k] = c.r_n, id[k] = c.contact;
    mode[k] = static_cast<unsigned char>(c.mode);
  }
  w.doubles("/contacts/t", t);
  w.integers("/contacts/contact", id);
  w.doubles("/contacts/gap", gap);
  w.doubles("/contacts/r_n", rn);
  const hsize_t nt = r.dimension > 1 ? static_cast<hsize_t>(r.dimension - 1) : 1;
  w.matrix("/contacts/r_t", m, nt, [&](hsize_t k, double* out) {
    const TangentComponents& rt = r.contacts[k].r_t;
    for (hsize_t j = 0; j < nt; ++j) out[j] = static_cast<Index>(j) < rt.size() ? rt[j] : 0.0;
  });
  w.matrix("/contacts/point", m, 3, [&](hsize_t k, double* out) {
    for (int j = 0; j < 3; ++j) out[j] = r.contacts[k].point[j];
  });
  w.matrix("/contacts/normal", m, 3, [&](hsize_t k, double* out) {
    for (int j = 0; j < 3; ++j) out[j] = r.contacts[k].normal[j];
  });
  w.bytes("/contacts/mode", mode);
  w.string_attribute("/contacts/mode", "names",
                     {to_string(ContactMode::separate), to_string(ContactMode::stick),
                      to_string(ContactMode::slip)});
}

void write_events(const RunWriter& w, const SimulationResult& r) {
  w.group("/events");
  const size_t m = r.events.size();
  std::vector<double> t(m);
  std::vector<long long> id(m);
  std::vector<std::string> kind(m), detail(m);
  for (size_t k = 0; k < m; ++k) {
    const SimulationEvent& e = r.events[k];
    t[k] = e.t, id[k] = e.contact, kind[k] = to_string(e.kind), detail[k] = e.detail;
  }
  w.doubles("/events/t", t);
  w.strings("/events/kind", kind);
  w.integers("/events/contact", id);
  w.strings("/events/detail", detail);
}

// Reads the datasets of a run file, each checked for its class and shape; every failure is a
// std::invalid_argument naming the file and the dataset.
class RunReader {
 public:
  explicit RunReader(const std::string& path) : path_(path) {
    require_readable_file(path);  // the one wording of io/os/input_file.hpp
    if (H5Fis_hdf5(path.c_str()) <= 0)
      throw std::invalid_argument(fmt::format("{}: not an HDF5 file", path));
    file_ = H5Id(H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT), H5Fclose);
    if (!file_.valid())
      throw std::invalid_argument(
          fmt::format("{}: HDF5 could not open it (truncated or damaged?)", path));
  }

  template <typename... Args>
  [[noreturn]] void fail(fmt::format_string<Args...> format, Args&&... args) const {
    throw std::invalid_argument(
        fmt::format("{}: {}", path_, fmt::format(format, std::forward<Args>(args)...)));
  }

  // The dataset `name` with its dimensions (rank 1 or 2); cols = 0 for rank 1.
  H5Id open(const char* name, hsize_t& rows, hsize_t& cols) const {
    if (H5Lexists(file_.get(), name, H5P_DEFAULT) <= 0) fail("dataset {} is missing", name);
    H5Id set(H5Dopen2(file_.get(), name, H5P_DEFAULT), H5Dclose);
    if (!set.valid()) fail("cannot open dataset {}", name);
    H5Id space(H5Dget_space(set.get()), H5Sclose);
    const int rank = H5Sget_simple_extent_ndims(space.get());
    hsize_t dims[2] = {0, 0};
    if (rank < 1 || rank > 2 || H5Sget_simple_extent_dims(space.get(), dims, nullptr) < 0)
      fail("dataset {} has rank {} (expected 1 or 2)", name, rank);
    rows = dims[0];
    cols = rank == 2 ? dims[1] : 0;
    return set;
  }

  // A numeric dataset read as `mem_type` (rows × max(cols, 1) values); `expect_rows` ≥ 0 checks
  // the row count.
  template <typename T>
  std::vector<T> numeric(const char* name, hid_t mem_type, hsize_t& cols,
                         long long expect_rows = -1) const {
    hsize_t rows = 0;
    H5Id set = open(name, rows, cols);
    H5Id type(H5Dget_type(set.get()), H5Tclose);
    const H5T_class_t c = H5Tget_class(type.get());
    if (c != H5T_FLOAT && c != H5T_INTEGER) fail("dataset {} is not numeric", name);
    if (expect_rows >= 0 && rows != static_cast<hsize_t>(expect_rows))
      fail("dataset {} has {} rows, expected {}", name, rows, expect_rows);
    std::vector<T> out(static_cast<size_t>(rows * std::max<hsize_t>(cols, 1)));
    if (!out.empty() && H5Dread(set.get(), mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, out.data()) < 0)
      fail("cannot read dataset {}", name);
    return out;
  }
  std::vector<double> doubles(const char* name, long long expect_rows = -1) const {
    hsize_t cols = 0;
    std::vector<double> v = numeric<double>(name, H5T_NATIVE_DOUBLE, cols, expect_rows);
    if (cols != 0) fail("dataset {} is not one-dimensional", name);
    return v;
  }

  // A 1-D dataset of strings: variable-length, or fixed-length NUL-padded (large name lists).
  std::vector<std::string> strings(const char* name, long long expect_rows = -1) const {
    hsize_t rows = 0, cols = 0;
    H5Id set = open(name, rows, cols);
    H5Id type(H5Dget_type(set.get()), H5Tclose);
    if (H5Tget_class(type.get()) != H5T_STRING || cols != 0)
      fail("dataset {} is not a list of strings", name);
    if (expect_rows >= 0 && rows != static_cast<hsize_t>(expect_rows))
      fail("dataset {} has {} entries, expected {}", name, rows, expect_rows);
    if (H5Tis_variable_str(type.get()) <= 0) {
      const size_t width = H5Tget_size(type.get());
      std::vector<char> packed(static_cast<size_t>(rows) * width);
      if (rows > 0 &&
          H5Dread(set.get(), type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, packed.data()) < 0)
        fail("cannot read dataset {}", name);
      std::vector<std::string> out;
      for (hsize_t k = 0; k < rows; ++k) {
        const char* begin = &packed[k * width];
        out.emplace_back(begin, strnlen(begin, width));
      }
      return out;
    }
    std::vector<char*> p(static_cast<size_t>(rows), nullptr);
    H5Id mem = utf8_variable_string();
    if (rows > 0 && H5Dread(set.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, p.data()) < 0)
      fail("cannot read dataset {}", name);
    std::vector<std::string> out;
    for (char* s : p) {
      out.emplace_back(s != nullptr ? s : "");
      H5free_memory(s);
    }
    return out;
  }

  // True when the file has a link `name`.
  bool has(const char* name) const { return H5Lexists(file_.get(), name, H5P_DEFAULT) > 0; }

  // A scalar variable-length string.
  std::string text(const char* name) const {
    if (H5Lexists(file_.get(), name, H5P_DEFAULT) <= 0) fail("dataset {} is missing", name);
    H5Id set(H5Dopen2(file_.get(), name, H5P_DEFAULT), H5Dclose);
    H5Id type(H5Dget_type(set.get()), H5Tclose);
    H5Id space(H5Dget_space(set.get()), H5Sclose);
    if (!set.valid() || H5Tget_class(type.get()) != H5T_STRING ||
        H5Tis_variable_str(type.get()) <= 0 || H5Sget_simple_extent_npoints(space.get()) != 1)
      fail("dataset {} is not one variable-length string", name);
    H5Id mem = utf8_variable_string();
    char* data = nullptr;
    if (H5Dread(set.get(), mem.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, &data) < 0)
      fail("cannot read dataset {}", name);
    std::string s = data != nullptr ? data : "";
    H5free_memory(data);
    return s;
  }

 private:
  std::string path_;
  H5Id file_;
};

// The rows of a rows × cols matrix as vectors.
std::vector<Vector> rows_of(const std::vector<double>& data, hsize_t rows, hsize_t cols) {
  std::vector<Vector> out(static_cast<size_t>(rows));
  for (hsize_t k = 0; k < rows; ++k)
    out[k] = Eigen::Map<const Vector>(data.data() + k * cols, static_cast<Index>(cols));
  return out;
}

}  // namespace

std::string read_run_hdf5(const std::string& path, SimulationResult& r, std::string* geometry) {
  SilenceHdf5Errors quiet;
  const RunReader f(path);
  r.t = f.doubles("/t");
  const long long n = static_cast<long long>(r.t.size());
  hsize_t nq = 0, nv = 0;
  const std::vector<double> q = f.numeric<double>("/q", H5T_NATIVE_DOUBLE, nq, n);
  const std::vector<double> v = f.numeric<double>("/v", H5T_NATIVE_DOUBLE, nv, n);
  r.q = rows_of(q, static_cast<hsize_t>(n), nq);
  r.v = rows_of(v, static_cast<hsize_t>(n), nv);
  r.kinetic = f.doubles("/kinetic_energy", n);
  r.potential = f.doubles("/potential_energy", n);
  r.position_names = f.strings("/position_names", static_cast<long long>(nq));
  r.velocity_names = f.strings("/velocity_names", static_cast<long long>(nv));
  r.contact_names = f.strings("/contacts/names");
  const std::vector<double> ct = f.doubles("/contacts/t");
  const long long m = static_cast<long long>(ct.size());
  hsize_t one = 0, nt = 0;
  const std::vector<long long> cid =
      f.numeric<long long>("/contacts/contact", H5T_NATIVE_LLONG, one, m);
  const std::vector<double> gap = f.doubles("/contacts/gap", m);
  const std::vector<double> rn = f.doubles("/contacts/r_n", m);
  const std::vector<double> rt = f.numeric<double>("/contacts/r_t", H5T_NATIVE_DOUBLE, nt, m);
  if (nt > 2)
    f.fail("dataset /contacts/r_t has {} columns: a contact has at most 2 tangential components",
           nt);
  const std::vector<unsigned char> mode =
      f.numeric<unsigned char>("/contacts/mode", H5T_NATIVE_UCHAR, one, m);
  // point and normal, m × 3: files before 0.3 have none (NaN)
  const auto places = [&](const char* name) {
    if (!f.has(name)) return std::vector<double>();
    hsize_t cols = 0;
    std::vector<double> x = f.numeric<double>(name, H5T_NATIVE_DOUBLE, cols, m);
    if (cols != 3 || x.size() != static_cast<size_t>(3 * m))
      f.fail("dataset {} must be {} × 3, found {} values in {} columns", name, m, x.size(), cols);
    return x;
  };
  const std::vector<double> point = places("/contacts/point");
  const std::vector<double> normal = places("/contacts/normal");
  r.dimension = nt == 2 ? 3 : 2;
  const Index names = static_cast<Index>(r.contact_names.size());
  const size_t modes = enum_values<ContactMode>().size();
  r.contacts.resize(static_cast<size_t>(m));
  for (size_t k = 0; k < r.contacts.size(); ++k) {
    ContactRecord& c = r.contacts[k];
    c.t = ct[k], c.contact = cid[k], c.gap = gap[k], c.r_n = rn[k];
    if (c.contact < 0 || c.contact >= names)
      f.fail("/contacts/contact[{}] = {}: not an index into /contacts/names ({} names)", k,
             c.contact, names);
    if (mode[k] >= modes) f.fail("/contacts/mode[{}] = {}: not a mode code", k, mode[k]);
    c.mode = enum_values<ContactMode>()[mode[k]];
    const hsize_t w = std::max<hsize_t>(nt, 1);
    c.r_t = Eigen::Map<const Vector>(rt.data() + k * w, static_cast<Index>(w));
    if (!point.empty()) c.point = Eigen::Map<const Vector3>(point.data() + 3 * k);
    if (!normal.empty()) c.normal = Eigen::Map<const Vector3>(normal.data() + 3 * k);
  }
  const std::vector<double> et = f.doubles("/events/t");
  const long long e = static_cast<long long>(et.size());
  const std::vector<std::string> kind = f.strings("/events/kind", e);
  const std::vector<long long> eid =
      f.numeric<long long>("/events/contact", H5T_NATIVE_LLONG, one, e);
  const std::vector<std::string> detail = f.strings("/events/detail", e);
  for (size_t k = 0; k < et.size(); ++k)
    r.events.push_back(
        {et[k], enum_from_name<EventKind>(kind[k], fmt::format("{}: /events/kind[{}]", path, k)),
         eid[k], detail[k]});
  if (geometry != nullptr) *geometry = f.has("/geometry") ? f.text("/geometry") : "";
  return f.text("/summary");
}

void write_run_hdf5(const SimulationResult& r, const std::string& summary_json,
                    const std::string& path, const std::string& geometry_json) {
  SilenceHdf5Errors quiet;
  replace_file_atomically(path, [&](const std::filesystem::path& tmp) {
    H5Id file(H5Fcreate(tmp.c_str(), H5F_ACC_EXCL, H5P_DEFAULT, H5P_DEFAULT), H5Fclose);
    if (!file.valid())
      throw std::runtime_error(
          fmt::format("cannot write the run file '{}': cannot create '{}'", path, tmp.string()));
    const RunWriter w(file.get(), path);
    w.int_attribute("moreau_run_version", kRunHdf5Version);
    write_records(w, r);
    write_contacts(w, r);
    write_events(w, r);
    w.text("/summary", summary_json);
    if (!geometry_json.empty()) w.text("/geometry", geometry_json);
    if (H5Fflush(file.get(), H5F_SCOPE_GLOBAL) < 0 || !file.reset())
      throw std::runtime_error(fmt::format("cannot write the run file '{}': closing failed", path));
  });
}

}  // namespace moreau
