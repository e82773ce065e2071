// Fuzz target: FCLIB HDF5 files (io/problems/fclib.hpp). The input bytes do not become the file
// itself (that would fuzz the HDF5 library, not our reader): they drive a generator that writes an
// HDF5 file in FCLIB's layout with the HDF5 C API — each group and dataset present or missing, of
// the right or a wrong type, with sizes, storage codes (nz), indices and values that are sometimes
// consistent and sometimes not (negative, out of range, huge, NaN). read_fclib must then either
// return a problem or refuse the file cleanly. Contract: fuzz/support/fuzz_contract.hpp.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <hdf5.h>

#include "../support/fuzz_contract.hpp"
#include "moreau/io/problems/fclib.hpp"

namespace {

// Reads the fuzzer's bytes as choices; past the end every choice is 0.
class Choices {
 public:
  Choices(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  std::uint8_t byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : byte() % n; }
  bool flag() { return (byte() & 1) != 0; }
  // Sizes and indices: mostly small, sometimes at the edges of what a reader must refuse.
  long long integer() {
    static constexpr long long kEdges[] = {-1,
                                           -2,
                                           -3,
                                           5,
                                           1LL << 30,
                                           (1LL << 30) + 1,
                                           1LL << 31,
                                           std::numeric_limits<long long>::max(),
                                           std::numeric_limits<long long>::min()};
    const std::uint8_t b = byte();
    if (b < 200) return b % 9;  // 0 … 8
    return kEdges[b % std::size(kEdges)];
  }
  double number() {
    const std::uint8_t b = byte();
    if (b < 220) return (static_cast<double>(b) - 110.0) / 10.0;
    static const double kEdges[] = {std::nan(""), INFINITY, -INFINITY, 1e308, -1e308, 5e-324, 0.0};
    return kEdges[b % std::size(kEdges)];
  }

 private:
  const std::uint8_t* data_;
  std::size_t size_;
  std::size_t at_ = 0;
};

// Writes datasets and groups into one HDF5 file, creating intermediate groups.
class Writer {
 public:
  explicit Writer(const std::string& path) {
    file_ = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    links_ = H5Pcreate(H5P_LINK_CREATE);
    H5Pset_create_intermediate_group(links_, 1);
  }
  ~Writer() {
    H5Pclose(links_);
    if (file_ >= 0) H5Fclose(file_);
  }
  bool ok() const { return file_ >= 0; }

  void group(const std::string& name) {
    const hid_t g = H5Gcreate2(file_, name.c_str(), links_, H5P_DEFAULT, H5P_DEFAULT);
    if (g >= 0) H5Gclose(g);
  }
  void ints(const std::string& name, const std::vector<long long>& values) {
    write(name, H5T_NATIVE_LLONG, values.size(), values.data());
  }
  void doubles(const std::string& name, const std::vector<double>& values) {
    write(name, H5T_NATIVE_DOUBLE, values.size(), values.data());
  }
  void text(const std::string& name, const std::string& value) {
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, value.size() + 1);
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t set =
        H5Dcreate2(file_, name.c_str(), type, space, links_, H5P_DEFAULT, H5P_DEFAULT);
    if (set >= 0) {
      H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, value.c_str());
      H5Dclose(set);
    }
    H5Sclose(space);
    H5Tclose(type);
  }

 private:
  void write(const std::string& name, hid_t type, std::size_t count, const void* data) {
    const hsize_t dims = count;
    const hid_t space = H5Screate_simple(1, &dims, nullptr);
    const hid_t set =
        H5Dcreate2(file_, name.c_str(), type, space, links_, H5P_DEFAULT, H5P_DEFAULT);
    if (set >= 0) {
      if (count > 0) H5Dwrite(set, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data);
      H5Dclose(set);
    }
    H5Sclose(space);
  }

  hid_t file_ = -1;
  hid_t links_ = -1;
};

// A numeric dataset that the reader expects: missing, a string, integers or numbers.
void scalar_or_wrong(Writer& out, Choices& in, const std::string& name, long long value) {
  switch (in.below(8)) {
    case 0:
      return;  // missing
    case 1:
      out.text(name, "3");
      return;
    case 2:
      out.doubles(name, {static_cast<double>(value) + 0.5});
      return;
    case 3:
      out.ints(name, {value, value});
      return;
    default:
      out.ints(name, {value});
      return;
  }
}

std::vector<double> numbers(Choices& in, long long count) {
  std::vector<double> v;
  for (long long k = 0; k < count && k < 64; ++k) v.push_back(in.number());
  return v;
}

// A vector of `size` entries (or of a wrong size, or missing).
void vector(Writer& out, Choices& in, const std::string& name, long long size) {
  switch (in.below(6)) {
    case 0:
      return;
    case 1:
      out.doubles(name, numbers(in, in.integer()));
      return;
    case 2:
      out.text(name, "vector");
      return;
    default:
      out.doubles(name, numbers(in, size));
      return;
  }
}

// A sparse matrix group {m, n, nz, nzmax, p, i, x}: a consistent CSC or triplet matrix of size
// m×n (the reader's sizes), or one with a size, code, pointer or index changed.
void matrix(Writer& out, Choices& in, const std::string& group, long long m, long long n) {
  if (in.below(10) == 0) return;  // missing group
  out.group(group);
  const long long rows = in.below(5) == 0 ? in.integer() : m;
  const long long cols = in.below(5) == 0 ? in.integer() : n;
  const int storage = static_cast<int>(in.below(4));  // 0,1: CSC; 2: CSR; 3: triplet
  const long long nz = storage <= 1 ? -1 : storage == 2 ? -2 : in.integer();
  scalar_or_wrong(out, in, group + "/m", rows);
  scalar_or_wrong(out, in, group + "/n", cols);
  scalar_or_wrong(out, in, group + "/nz", in.below(12) == 0 ? in.integer() : nz);
  std::vector<long long> p, i;
  if (nz < 0) {  // compressed: outer + 1 pointers
    const long long outer = nz == -1 ? cols : rows, inner = nz == -1 ? rows : cols;
    p.push_back(0);
    for (long long k = 0; k < outer && k < 16; ++k) {
      const long long count = static_cast<long long>(in.below(3));
      for (long long e = 0; e < count; ++e) i.push_back(inner > 0 ? e % inner : 0);
      p.push_back(p.back() + count);
    }
  } else {  // triplet: i rows, p columns
    for (long long e = 0; e < nz && e < 32; ++e) {
      i.push_back(rows > 0 ? static_cast<long long>(
                                 in.below(static_cast<std::size_t>(std::min(rows, 16LL))))
                           : 0);
      p.push_back(cols > 0 ? static_cast<long long>(
                                 in.below(static_cast<std::size_t>(std::min(cols, 16LL))))
                           : 0);
    }
  }
  if (!p.empty() && in.below(6) == 0) p[in.below(p.size())] = in.integer();
  if (!i.empty() && in.below(6) == 0) i[in.below(i.size())] = in.integer();
  out.ints(group + "/p", p);
  out.ints(group + "/i", i);
  out.doubles(group + "/x",
              numbers(in, static_cast<long long>(i.size()) + (in.below(4) == 0 ? -1 : 0)));
  if (in.flag()) out.ints(group + "/nzmax", {static_cast<long long>(i.size())});
}

void solution(Writer& out, Choices& in, const std::string& group, long long m, long long n) {
  vector(out, in, group + "/r", m);
  vector(out, in, group + "/u", m);
  if (in.flag()) vector(out, in, group + "/v", n);
}

void write_fclib_like(Writer& out, Choices& in) {
  const std::size_t form = in.below(8);
  if (form == 7) {  // no FCLIB group at all, or a rolling one
    if (in.flag()) out.group("/fclib_global_rolling");
    return;
  }
  const bool global = form >= 4;
  const std::string g = global ? "/fclib_global" : "/fclib_local";
  out.group(g);
  const long long d = in.below(4) == 0 ? in.integer() : 2 + static_cast<long long>(in.below(2));
  scalar_or_wrong(out, in, g + "/spacedim", d);
  const long long nc = static_cast<long long>(in.below(4));
  vector(out, in, g + "/vectors/mu", nc);
  // (d may be any 64-bit value: the sizes below use it only when it is a plausible dimension)
  const long long m = (d >= 0 && d <= 8) ? d * nc : nc, n = static_cast<long long>(in.below(5));
  if (!global) {
    matrix(out, in, g + "/W", m, m);
    vector(out, in, g + "/vectors/q", m);
    if (in.below(16) == 0) vector(out, in, g + "/vectors/s", 1);
  } else {
    matrix(out, in, g + "/M", n, n);
    matrix(out, in, g + "/H", n, m);
    vector(out, in, g + "/vectors/f", n);
    vector(out, in, g + "/vectors/w", m);
    if (in.below(16) == 0) vector(out, in, g + "/vectors/b", 1);
  }
  if (in.flag()) out.text(g + "/info/title", "fuzzed");
  if (in.below(4) == 0) out.ints(g + "/info/description", {1});
  if (in.flag()) {
    out.group("/guesses");
    const long long count = in.below(3) == 0 ? in.integer() : static_cast<long long>(in.below(3));
    scalar_or_wrong(out, in, "/guesses/number_of_guesses", count);
    for (long long k = 1; k <= count && k <= 3; ++k)
      if (in.below(8) != 0) solution(out, in, "/guesses/" + std::to_string(k), m, n);
  }
  if (in.flag()) solution(out, in, "/solution", m, n);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::string path = (std::filesystem::temp_directory_path() /
                                   ("moreau-fuzz-fclib-" + std::to_string(getpid()) + ".h5"))
                                      .string();
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // the generator's own HDF5 errors are expected
  {
    Writer out(path);
    if (!out.ok()) return 0;
    Choices in(data, size);
    write_fclib_like(out, in);
  }
  moreau::fuzz::expect_success_or_clean_refusal(path, "", [&] { moreau::read_fclib(path); });
  return 0;
}
