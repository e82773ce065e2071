#include "moreau/io/problems/siconos_text.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <vector>

#include "moreau/common/error.hpp"
#include "moreau/io/os/input_file.hpp"

namespace moreau {

namespace {

// Whitespace-separated tokens of a text file, each with its line number for the messages.
class TokenReader {
 public:
  explicit TokenReader(const std::string& path) : path_(path) {
    text_ = read_text_file(path);
    int line = 1;
    std::size_t i = 0;
    while (i < text_.size()) {
      const unsigned char c = static_cast<unsigned char>(text_[i]);
      if (c == '\n') {
        ++line;
        ++i;
      } else if (std::isspace(c)) {
        ++i;
      } else {
        const std::size_t start = i;
        while (i < text_.size() && !std::isspace(static_cast<unsigned char>(text_[i]))) ++i;
        tokens_.push_back({start, i - start, line});
      }
    }
  }

  std::size_t remaining() const { return tokens_.size() - next_; }

  [[noreturn]] void fail(const std::string& what) const {
    const int line = next_ == 0 ? 1 : tokens_[std::min(next_, tokens_.size()) - 1].line;
    throw_invalid("Siconos file '{}', line {}: {}", path_, line, what);
  }

  long long integer(const char* what, long long lo, long long hi) {
    const std::string_view t = take(what);
    long long value = 0;
    const auto [ptr, ec] = std::from_chars(t.data(), t.data() + t.size(), value);
    if (ec != std::errc() || ptr != t.data() + t.size())
      fail(fmt::format("expected an integer for {}, found '{}'", what, t));
    if (value < lo || value > hi)
      fail(fmt::format("{} = {} is outside [{}, {}]", what, value, lo, hi));
    return value;
  }

  double real(const char* what) {
    const std::string_view t = take(what);
    const std::string s(t);
    char* end = nullptr;
    const double value = std::strtod(s.c_str(), &end);
    if (end != s.c_str() + s.size())
      fail(fmt::format("expected a number for {}, found '{}'", what, t));
    if (!std::isfinite(value)) fail(fmt::format("{} is not finite ('{}')", what, t));
    return value;
  }

  // Refuse to allocate for more numbers than the file still holds (garbage sizes).
  void need(long long count, const char* what) const {
    if (count < 0 || static_cast<unsigned long long>(count) > remaining())
      fail(fmt::format("{} needs {} more numbers but the file has only {} tokens left (truncated?)",
                       what, count, remaining()));
  }

  const std::string& path() const { return path_; }

 private:
  struct Token {
    std::size_t start, size;
    int line;
  };
  std::string_view take(const char* what) {
    if (next_ >= tokens_.size()) {
      throw_invalid("Siconos file '{}': unexpected end of file while reading {}", path_, what);
    }
    const Token& t = tokens_[next_++];
    return std::string_view(text_).substr(t.start, t.size);
  }

  std::string path_;
  std::string text_;
  std::vector<Token> tokens_;
  std::size_t next_ = 0;
};

constexpr long long kMaxDim = 100000;  // sanity bound on any matrix dimension read

enum class Storage { column_major, row_major };

// rows·cols numbers, column by column (dense and SBM blocks) or row by row (MLCP storage 2).
Matrix read_dense(TokenReader& in, Index rows, Index cols, Storage storage, const char* what) {
  in.need(static_cast<long long>(rows) * cols, what);
  Matrix M(rows, cols);
  const bool by_column = storage == Storage::column_major;
  for (Index a = 0; a < (by_column ? cols : rows); ++a)
    for (Index b = 0; b < (by_column ? rows : cols); ++b)
      (by_column ? M(b, a) : M(a, b)) = in.real(what);
  return M;
}

Vector read_vector(TokenReader& in, Index n, const char* what) {
  in.need(n, what);
  Vector v(n);
  for (Index i = 0; i < n; ++i) v[i] = in.real(what);
  return v;
}

// Siconos SparseBlockStructuredMatrix (SBM_read_in_file): nbblocks, blocknumber0,
// blocknumber1, cumulative block sizes (rows, then columns), filled1, filled2, index1_data
// (block-row pointers), index2_data (block column of each block), then every block: its
// number and its entries column-major.
Matrix read_sbm(TokenReader& in, Index size0, Index size1) {
  const long long nbblocks = in.integer("SBM number of blocks", 0, kMaxDim * kMaxDim);
  const long long nb0 = in.integer("SBM number of block rows", 0, kMaxDim);
  const long long nb1 = in.integer("SBM number of block columns", 0, kMaxDim);
  std::vector<Index> rows_end(static_cast<std::size_t>(nb0)),
      cols_end(static_cast<std::size_t>(nb1));
  in.need(nb0 + nb1, "SBM block sizes");
  Index prev = 0;
  for (auto& r : rows_end) {
    r = in.integer("SBM cumulative block row size", prev + 1, size0);
    prev = r;
  }
  if (nb0 > 0 && rows_end.back() != size0)
    in.fail(fmt::format("SBM block rows end at {} instead of {}", rows_end.back(), size0));
  prev = 0;
  for (auto& c : cols_end) {
    c = in.integer("SBM cumulative block column size", prev + 1, size1);
    prev = c;
  }
  if (nb1 > 0 && cols_end.back() != size1)
    in.fail(fmt::format("SBM block columns end at {} instead of {}", cols_end.back(), size1));
  const long long filled1 = in.integer("SBM filled1", nb0 + 1, nb0 + 1);
  const long long filled2 = in.integer("SBM filled2", nbblocks, nbblocks);
  in.need(filled1 + filled2, "SBM block indices");
  std::vector<long long> index1(static_cast<std::size_t>(filled1)),
      index2(static_cast<std::size_t>(filled2));
  long long prev_ptr = 0;
  for (auto& p : index1) {
    p = in.integer("SBM block row pointer", prev_ptr, filled2);
    prev_ptr = p;
  }
  if (index1.front() != 0 || index1.back() != filled2)
    in.fail("SBM block row pointers must run from 0 to the number of blocks");
  for (auto& c : index2) c = in.integer("SBM block column index", 0, nb1 - 1);
  Matrix M = Matrix::Zero(size0, size1);
  for (long long br = 0; br < nb0; ++br) {
    const Index r0 = br == 0 ? 0 : rows_end[static_cast<std::size_t>(br - 1)];
    const Index nr = rows_end[static_cast<std::size_t>(br)] - r0;
    for (long long k = index1[static_cast<std::size_t>(br)];
         k < index1[static_cast<std::size_t>(br + 1)]; ++k) {
      in.integer("SBM block number", k, k);
      const long long bc = index2[static_cast<std::size_t>(k)];
      const Index c0 = bc == 0 ? 0 : cols_end[static_cast<std::size_t>(bc - 1)];
      const Index nc = cols_end[static_cast<std::size_t>(bc)] - c0;
      M.block(r0, c0, nr, nc) = read_dense(in, nr, nc, Storage::column_major, "SBM block entries");
    }
  }
  return M;
}

// NumericsMatrix (NM_read_in_file): storage type, size0, size1, then the storage.
Matrix read_numerics_matrix(TokenReader& in) {
  const long long storage = in.integer("matrix storage type", 0, 2);
  const Index size0 = in.integer("matrix row count", 0, kMaxDim);
  const Index size1 = in.integer("matrix column count", 0, kMaxDim);
  if (storage == 0) {
    const Index r = in.integer("dense matrix row count", size0, size0);
    const Index c = in.integer("dense matrix column count", size1, size1);
    return read_dense(in, r, c, Storage::column_major, "dense matrix entries");
  }
  if (storage == 1) return read_sbm(in, size0, size1);
  in.fail("matrix storage type 2 (CSparse) is not supported by this reader");
}

}  // namespace

// LCP(M, q) from a Siconos text file (see the header for the layout).
Lcp read_siconos_lcp(const std::string& path) {
  TokenReader in(path);
  const Index n = in.integer("LCP size n", 0, kMaxDim);
  Lcp lcp;
  lcp.M = read_numerics_matrix(in);
  if (lcp.M.rows() != n || lcp.M.cols() != n)
    in.fail(fmt::format("the LCP matrix is {}×{} but n = {}", lcp.M.rows(), lcp.M.cols(), n));
  lcp.q = read_vector(in, n, "LCP vector q");
  return lcp;
}

// MLCP (A, B, C, D, a, b) from a Siconos text file (see the header for the layout).
Mlcp read_siconos_mlcp(const std::string& path) {
  TokenReader in(path);
  const bool st1 = in.integer("MLCP isStorageType1", 0, 1) == 1;
  const bool st2 = in.integer("MLCP isStorageType2", 0, 1) == 1;
  const Index n = in.integer("MLCP equality count n", 0, kMaxDim);
  const Index m = in.integer("MLCP complementarity count m", 0, kMaxDim);
  if (!st1 && !st2) in.fail("neither storage type 1 nor 2 is present");
  Mlcp p;
  std::vector<long long> bounds;
  std::vector<long long> kinds;
  Matrix M;
  Vector q;
  if (st1) {
    bounds.push_back(in.integer("MLCP first block row", 0, 0));
    while (bounds.back() < n + m) {
      if (static_cast<Index>(bounds.size()) > n + m) in.fail("too many MLCP block row bounds");
      bounds.push_back(in.integer("MLCP block row bound", bounds.back() + 1, n + m));
    }
    for (std::size_t k = 0; k + 1 < bounds.size(); ++k)
      kinds.push_back(in.integer("MLCP block kind (0 equality, 1 complementarity)", 0, 1));
    M = read_numerics_matrix(in);
    q = read_vector(in, M.cols(), "MLCP vector q");
  }
  if (st2) {
    p.A = read_dense(in, n, n, Storage::row_major, "MLCP block A");
    p.B = read_dense(in, m, m, Storage::row_major, "MLCP block B");
    p.C = read_dense(in, n, m, Storage::row_major, "MLCP block C");
    p.D = read_dense(in, m, n, Storage::row_major, "MLCP block D");
    p.a = read_vector(in, n, "MLCP vector a");
    p.b = read_vector(in, m, "MLCP vector b");
  } else {
    const bool simple_layout = M.rows() == n + m && M.cols() == n + m && q.size() == n + m &&
                               ((n > 0 && m > 0 && bounds == std::vector<long long>{0, n, n + m} &&
                                 kinds == std::vector<long long>{0, 1}) ||
                                (n == 0 && kinds == std::vector<long long>{1}) ||
                                (m == 0 && kinds == std::vector<long long>{0}));
    if (!simple_layout)
      throw_invalid(
          "Siconos file '{}': MLCP given only as a {}×{} matrix M with {} blocks is not supported "
          "(only the layout [equalities 0..n) then complementarities [n, n+m) is)",
          path, M.rows(), M.cols(), kinds.size());
    p.A = M.topLeftCorner(n, n);
    p.C = M.topRightCorner(n, m);
    p.D = M.bottomLeftCorner(m, n);
    p.B = M.bottomRightCorner(m, m);
    p.a = q.head(n);
    p.b = q.tail(m);
  }
  try {
    p.validate();
  } catch (const std::invalid_argument& e) {
    throw_invalid("Siconos file '{}': {}", path, e.what());
  }
  return p;
}

}  // namespace moreau
