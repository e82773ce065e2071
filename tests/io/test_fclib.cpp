// FCLIB HDF5 reading and writing. The reference reader is libfclib's own C reader
// (fclib_read_local/global), an implementation independent of ours; values are compared entry
// by entry. Error cases check that a bad file is an std::invalid_argument naming the file.
#include <gtest/gtest.h>
#include <hdf5.h>
extern "C" {
#include <fclib.h>  // C header without extern "C" of its own
}

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "moreau/io/problems/fclib.hpp"

namespace moreau {
namespace {

namespace fs = std::filesystem;

const fs::path kData = fs::path(MOREAU_DATA_DIR) / "fclib";

// A fresh empty folder under the system temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    path_ =
        fs::temp_directory_path() /
        ("moreau_fclib_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
         "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() { fs::remove_all(path_); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Dense copy of a libfclib matrix: nz = −1 CSC, −2 CSR, ≥ 0 triplet with i = row, p = column.
Matrix dense_from_fclib(const fclib_matrix* a) {
  Matrix d = Matrix::Zero(a->m, a->n);
  if (a->nz == -1) {
    for (int j = 0; j < a->n; ++j)
      for (int k = a->p[j]; k < a->p[j + 1]; ++k) d(a->i[k], j) += a->x[k];
  } else if (a->nz == -2) {
    for (int r = 0; r < a->m; ++r)
      for (int k = a->p[r]; k < a->p[r + 1]; ++k) d(r, a->i[k]) += a->x[k];
  } else {
    for (int k = 0; k < a->nz; ++k) d(a->i[k], a->p[k]) += a->x[k];
  }
  return d;
}

template <typename T>
bool contains(const std::string& text, const T& part) {
  return text.find(part) != std::string::npos;
}

// Expects `f()` to throw std::invalid_argument whose message contains each of `parts`.
template <typename F>
void expect_invalid(F&& f, std::initializer_list<std::string> parts) {
  try {
    f();
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    for (const auto& part : parts) EXPECT_TRUE(contains(e.what(), part)) << e.what();
  }
}

void expect_local_matches_libfclib(const fs::path& path) {
  const FrictionContactProblem p = read_fclib_local(path);
  fclib_local* ref = fclib_read_local(path.c_str());
  ASSERT_NE(ref, nullptr);
  const int m = ref->W->m;
  const int nc = m / ref->spacedim;
  EXPECT_EQ(p.dimension, ref->spacedim);
  ASSERT_EQ(p.contacts(), nc);
  EXPECT_EQ((Matrix(p.W) - dense_from_fclib(ref->W)).cwiseAbs().maxCoeff(), 0.0);
  for (int k = 0; k < m; ++k) EXPECT_EQ(p.q[k], ref->q[k]);
  for (int k = 0; k < nc; ++k) EXPECT_EQ(p.mu[k], ref->mu[k]);
  fclib_delete_local(ref);
  free(ref);
}

TEST(Fclib, LocalCscMatchesLibfclib) {
  expect_local_matches_libfclib(kData / "from-siconos-dat/Rover1039.hdf5");
}

TEST(Fclib, LocalCsrMatchesLibfclib) {
  expect_local_matches_libfclib(kData / "fclib-api-test/local_problem_test.hdf5");
}

TEST(Fclib, LocalFileCarriesInfoGuessAndSolution) {
  const FclibFile f = read_fclib(kData / "fclib-api-test/local_problem_test.hdf5");
  EXPECT_FALSE(f.is_global());
  EXPECT_EQ(f.contacts(), 48);  // data README table: 48 contacts, m = 144
  EXPECT_EQ(f.info.title, "Boxes Stack");
  EXPECT_TRUE(contains(f.info.description, "F3D_NSGS"));
  ASSERT_EQ(f.guesses.size(), 1u);
  EXPECT_EQ(f.guesses[0].r.size(), 144);
  ASSERT_TRUE(f.solution.has_value());
  EXPECT_EQ(f.solution->u.size(), 144);
  EXPECT_EQ(f.solution->v.size(), 0);
  // A Delassus operator H M⁻¹ Hᵀ is symmetric.
  const Matrix W(f.local.W);
  EXPECT_LT((W - W.transpose()).cwiseAbs().maxCoeff(), 1e-10 * W.cwiseAbs().maxCoeff());
}

TEST(Fclib, GlobalTripletMatchesLibfclib) {
  const fs::path path = kData / "faf/Box_Stacks-i0035-31-0.hdf5";
  const FclibFile f = read_fclib(path);
  ASSERT_TRUE(f.is_global());
  const GlobalFrictionContactProblem& p = f.global;
  EXPECT_EQ(p.dofs(), 450);
  EXPECT_EQ(p.contacts(), 31);
  fclib_global* ref = fclib_read_global(path.c_str());
  ASSERT_NE(ref, nullptr);
  EXPECT_EQ((Matrix(p.M) - dense_from_fclib(ref->M)).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ((Matrix(p.H) - dense_from_fclib(ref->H)).cwiseAbs().maxCoeff(), 0.0);
  for (int k = 0; k < 450; ++k) EXPECT_EQ(p.f[k], ref->f[k]);
  for (int k = 0; k < 93; ++k) EXPECT_EQ(p.w[k], ref->w[k]);
  fclib_delete_global(ref);
  free(ref);
  ASSERT_TRUE(f.solution.has_value());
  EXPECT_EQ(f.solution->v.size(), 450);
  ASSERT_EQ(f.guesses.size(), 1u);
  EXPECT_EQ(f.guesses[0].v.size(), 450);
  EXPECT_THROW(read_fclib_local(path), std::invalid_argument);
  EXPECT_NO_THROW(read_fclib_global(path));
}

FrictionContactProblem small_local_problem() {
  // Two contacts, W = diag(1..6) + a coupling, q normal-first, μ = (0.3, 0.5).
  FrictionContactProblem p;
  p.dimension = 3;
  Matrix W = Matrix::Zero(6, 6);
  for (int k = 0; k < 6; ++k) W(k, k) = 1.0 + k;
  W(0, 3) = W(3, 0) = 0.25;
  p.W = W.sparseView();
  p.q = (Vector(6) << -1.0, 0.5, -0.25, 2.0, 0.0, 1.0).finished();
  p.mu = (Vector(2) << 0.3, 0.5).finished();
  return p;
}

TEST(Fclib, LocalRoundTripAndLibfclibReadsOurFile) {
  TempDir dir;
  const fs::path path = dir.path() / "two.hdf5";
  const FrictionContactProblem p = small_local_problem();
  FclibSolution sol{Vector::LinSpaced(6, 1.0, 6.0), Vector::LinSpaced(6, -1.0, 4.0), Vector()};
  FclibSolution guess{Vector::Constant(6, 0.5), Vector::Constant(6, -0.5), Vector()};
  write_fclib_local(path, p, sol, guess, {"two contacts", "made by a test", "none"});

  const FclibFile back = read_fclib(path);
  EXPECT_FALSE(back.is_global());
  EXPECT_EQ(Matrix(back.local.W), Matrix(p.W));
  EXPECT_EQ(back.local.q, p.q);
  EXPECT_EQ(back.local.mu, p.mu);
  EXPECT_EQ(back.info.title, "two contacts");
  EXPECT_EQ(back.info.math_info, "none");
  ASSERT_TRUE(back.solution.has_value());
  EXPECT_EQ(back.solution->r, sol.r);
  EXPECT_EQ(back.solution->u, sol.u);
  ASSERT_EQ(back.guesses.size(), 1u);
  EXPECT_EQ(back.guesses[0].r, guess.r);

  // libfclib's reader sees the same problem and solution.
  fclib_local* ref = fclib_read_local(path.c_str());
  ASSERT_NE(ref, nullptr);
  EXPECT_EQ(dense_from_fclib(ref->W), Matrix(p.W));
  EXPECT_EQ(ref->spacedim, 3);
  EXPECT_EQ(ref->q[3], 2.0);
  EXPECT_EQ(ref->mu[1], 0.5);
  fclib_delete_local(ref);
  free(ref);
  fclib_solution* ref_sol = fclib_read_solution(path.c_str());
  ASSERT_NE(ref_sol, nullptr);
  EXPECT_EQ(ref_sol->r[5], 6.0);
  fclib_delete_solutions(ref_sol, 1);
}

TEST(Fclib, GlobalRoundTrip) {
  TempDir dir;
  const fs::path path = dir.path() / "global.hdf5";
  GlobalFrictionContactProblem p;
  p.dimension = 3;
  Matrix M = Matrix::Identity(4, 4) * 2.0;
  M(0, 1) = M(1, 0) = 0.5;
  Matrix H = Matrix::Zero(4, 3);
  H(0, 0) = 1.0;
  H(1, 1) = 1.0;
  H(3, 2) = -1.0;
  p.M = M.sparseView();
  p.H = H.sparseView();
  p.f = (Vector(4) << 1.0, -2.0, 3.0, 0.0).finished();
  p.w = (Vector(3) << 0.1, 0.2, 0.3).finished();
  p.mu = Vector::Constant(1, 0.4);
  FclibSolution sol{Vector::Ones(3), Vector::Zero(3), Vector::LinSpaced(4, 0.0, 3.0)};
  write_fclib_global(path, p, sol);
  const FclibFile back = read_fclib(path);
  ASSERT_TRUE(back.is_global());
  EXPECT_EQ(Matrix(back.global.M), M);
  EXPECT_EQ(Matrix(back.global.H), H);
  EXPECT_EQ(back.global.f, p.f);
  EXPECT_EQ(back.global.w, p.w);
  ASSERT_TRUE(back.solution.has_value());
  EXPECT_EQ(back.solution->v, sol.v);
  EXPECT_TRUE(back.guesses.empty());
}

TEST(Fclib, WriteIsAtomicAndLeavesNoTemporaryFile) {
  TempDir dir;
  const fs::path path = dir.path() / "p.hdf5";
  write_fclib_local(path, small_local_problem());
  FrictionContactProblem other = small_local_problem();
  other.q[0] = -7.0;
  write_fclib_local(path, other);  // replaces the file
  EXPECT_EQ(read_fclib_local(path).q[0], -7.0);
  // An invalid solution is rejected before anything is written: the old file stays intact.
  FclibSolution bad{Vector::Ones(5), Vector::Ones(6), Vector()};
  EXPECT_THROW(write_fclib_local(path, small_local_problem(), bad), std::invalid_argument);
  EXPECT_EQ(read_fclib_local(path).q[0], -7.0);
  int files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path())) ++files;
  EXPECT_EQ(files, 1);
  // A folder that does not exist: runtime_error naming the file, nothing created.
  EXPECT_THROW(write_fclib_local(dir.path() / "no/such/dir/p.hdf5", other), std::runtime_error);
}

TEST(Fclib, MissingFileNamesTheFile) {
  expect_invalid([] { read_fclib("/nonexistent/dir/problem.hdf5"); },
                 {"/nonexistent/dir/problem.hdf5", "no such file"});
}

TEST(Fclib, GarbageFileIsNotHdf5) {
  TempDir dir;
  const fs::path path = dir.path() / "garbage.hdf5";
  std::ofstream(path) << "this is not an HDF5 file\n";
  expect_invalid([&] { read_fclib(path); }, {path.string(), "not an HDF5 file"});
}

TEST(Fclib, TruncatedFileIsAnErrorNotACrash) {
  TempDir dir;
  const fs::path src = kData / "fclib-api-test/local_problem_test.hdf5";
  for (double fraction : {0.2, 0.5, 0.9}) {
    const fs::path path = dir.path() / "truncated.hdf5";
    fs::copy_file(src, path, fs::copy_options::overwrite_existing);
    fs::resize_file(path, static_cast<std::uintmax_t>(fraction * fs::file_size(src)));
    expect_invalid([&] { read_fclib(path); }, {path.string()});
  }
}

// Writes a valid file, then edits one dataset with raw HDF5 calls.
void replace_dataset(const fs::path& path, const std::string& name, const Vector& values) {
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  H5Ldelete(file, name.c_str(), H5P_DEFAULT);
  const hsize_t n = static_cast<hsize_t>(values.size());
  hid_t space = H5Screate_simple(1, &n, nullptr);
  hid_t set =
      H5Dcreate2(file, name.c_str(), H5T_IEEE_F64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data());
  H5Dclose(set);
  H5Sclose(space);
  H5Fclose(file);
}

// Same for an integer dataset (sizes, storage codes).
void replace_int_dataset(const fs::path& path, const std::string& name, long long value) {
  hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  H5Ldelete(file, name.c_str(), H5P_DEFAULT);
  const hsize_t n = 1;
  hid_t space = H5Screate_simple(1, &n, nullptr);
  hid_t set =
      H5Dcreate2(file, name.c_str(), H5T_STD_I64LE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  H5Dwrite(set, H5T_NATIVE_LLONG, H5S_ALL, H5S_ALL, H5P_DEFAULT, &value);
  H5Dclose(set);
  H5Sclose(space);
  H5Fclose(file);
}

TEST(Fclib, WrongSizesAndNanAreReported) {
  TempDir dir;
  const fs::path path = dir.path() / "p.hdf5";
  write_fclib_local(path, small_local_problem());
  replace_dataset(path, "/fclib_local/vectors/q", Vector::Ones(5));
  expect_invalid([&] { read_fclib(path); }, {path.string(), "q", "5 entries, expected 6"});

  write_fclib_local(path, small_local_problem());
  Vector q = small_local_problem().q;
  q[2] = std::numeric_limits<double>::quiet_NaN();
  replace_dataset(path, "/fclib_local/vectors/q", q);
  expect_invalid([&] { read_fclib(path); }, {path.string(), "NaN"});

  write_fclib_local(path, small_local_problem());
  replace_dataset(path, "/fclib_local/vectors/mu", Vector::Constant(2, -1.0));
  expect_invalid([&] { read_fclib(path); }, {path.string(), "mu"});

  write_fclib_local(path, small_local_problem());
  replace_dataset(path, "/fclib_local/W/x", Vector::Ones(3));
  expect_invalid([&] { read_fclib(path); }, {path.string(), "W/x"});

  // Found by fuzz_fclib (fuzz/corpus/fclib/regression-oom-huge-matrix.bin): a matrix declared
  // 2³⁰ columns wide was allocated (4 GB of column pointers) before its size was checked; the
  // size now has to match the problem's vectors (W is m×m, m = d·nc) before anything is built.
  write_fclib_local(path, small_local_problem());
  replace_int_dataset(path, "/fclib_local/W/n", 1LL << 30);
  expect_invalid([&] { read_fclib(path); },
                 {path.string(), "/fclib_local/W is 6×1073741824, expected 6×6"});
}

TEST(Fclib, HdfFileWithoutFclibGroup) {
  TempDir dir;
  const fs::path path = dir.path() / "empty.hdf5";
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  H5Gclose(H5Gcreate2(file, "/something_else", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
  H5Fclose(file);
  expect_invalid([&] { read_fclib(path); }, {path.string(), "/fclib_local", "/fclib_global"});
}

TEST(Fclib, RollingFrictionIsNotSupported) {
  const fs::path path = kData / "siconos-testdata/Chute-ndof-768-nc-4-3.hdf5";
  expect_invalid([&] { read_fclib(path); }, {path.string(), "rolling", "not supported"});
}

TEST(Fclib, WriteRejectsInvalidProblem) {
  TempDir dir;
  FrictionContactProblem p = small_local_problem();
  p.q.resize(5);
  EXPECT_THROW(write_fclib_local(dir.path() / "x.hdf5", p), std::invalid_argument);
  EXPECT_FALSE(fs::exists(dir.path() / "x.hdf5"));
}

}  // namespace
}  // namespace moreau
