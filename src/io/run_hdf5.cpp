// The HDF5 run file (run_hdf5.hpp, docs/run-format.md): 1-D and 2-D float64 datasets written
// row by row from the result's records (no copy of the whole trajectory), int64 indices, uint8
// contact modes with their names as an attribute, variable-length UTF-8 strings.
#include "moreau/io/run_hdf5.hpp"

#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "fclib_hdf5.hpp"
#include "moreau/io/atomic_file.hpp"

namespace moreau {
namespace {

using fclib_detail::H5Id;
using fclib_detail::SilenceHdf5Errors;

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

  // rows × cols (cols = 0: a 1-D dataset of `rows`), filled by row(k, buffer of cols doubles).
  template <typename Row>
  void matrix(const char* name, hsize_t rows, hsize_t cols, Row&& row) const {
    const hsize_t dims[2] = {rows, cols};
    const int rank = cols == 0 ? 1 : 2;
    H5Id space(H5Screate_simple(rank, dims, nullptr), H5Sclose);
    H5Id set = create(name, H5T_IEEE_F64LE, space.get());
    const hsize_t width = cols == 0 ? 1 : cols;
    std::vector<double> buffer(static_cast<size_t>(width));
    const hsize_t count[2] = {1, width};
    H5Id memory(H5Screate_simple(1, &width, nullptr), H5Sclose);
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
    matrix(name, v.size(), 0, [&](hsize_t k, double* out) { *out = v[k]; });
  }
  void integers(const char* name, const std::vector<long long>& v) const {
    whole(name, H5T_STD_I64LE, H5T_NATIVE_LLONG, v.data(), v.size());
  }
  void bytes(const char* name, const std::vector<unsigned char>& v) const {
    whole(name, H5T_STD_U8LE, H5T_NATIVE_UCHAR, v.data(), v.size());
  }
  void strings(const char* name, const std::vector<std::string>& v) const {
    std::vector<const char*> p;
    for (const auto& s : v) p.push_back(s.c_str());
    H5Id type = string_type();
    whole(name, type.get(), type.get(), p.data(), v.size());
  }
  void text(const char* name, const std::string& s) const {
    H5Id type = string_type();
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
    H5Id type = string_type();
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
  static H5Id string_type() {
    H5Id type(H5Tcopy(H5T_C_S1), H5Tclose);
    H5Tset_size(type.get(), H5T_VARIABLE);
    H5Tset_cset(type.get(), H5T_CSET_UTF8);
    return type;
  }
  H5Id create(const char* name, hid_t type, hid_t space) const {
    H5Id set(H5Dcreate2(file_, name, type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), H5Dclose);
    if (!set.valid()) fail("cannot create dataset {}", name);
    return set;
  }
  void whole(const char* name, hid_t file_type, hid_t mem_type, const void* data,
             hsize_t count) const {
    H5Id space(H5Screate_simple(1, &count, nullptr), H5Sclose);
    H5Id set = create(name, file_type, space.get());
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
    const Vector& rt = r.contacts[k].r_t;
    for (hsize_t j = 0; j < nt; ++j) out[j] = static_cast<Index>(j) < rt.size() ? rt[j] : 0.0;
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

}  // namespace

void write_run_hdf5(const SimulationResult& r, const std::string& summary_json,
                    const std::string& path) {
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
    if (H5Fflush(file.get(), H5F_SCOPE_GLOBAL) < 0 || !file.reset())
      throw std::runtime_error(fmt::format("cannot write the run file '{}': closing failed", path));
  });
}

}  // namespace moreau
