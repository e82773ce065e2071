// The driver of the fuzz targets in builds without libFuzzer (every `make test`): it runs the
// target's LLVMFuzzerTestOneInput on each file of the folders and files given (the seed corpus and
// the regression files of fuzz/corpus/<target>/), then on a fixed number of deterministic
// mutations of each. The work is counted, never timed, so a run gives the same result on an idle
// and on a busy machine; a broken contract aborts (fuzz/support/fuzz_contract.hpp).
//
//   fuzz_<target>_replay [--mutations=N] [--seed=S] FILE_OR_FOLDER...
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

// splitmix64: a small deterministic generator (Steele, Lea, Flood, "Fast splittable pseudorandom
// number generators", OOPSLA 2014).
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  std::size_t below(std::size_t n) { return n == 0 ? 0 : static_cast<std::size_t>(next() % n); }
};

// Tokens that readers of JSON scenes and specs trip on: numbers at the edges, wrong types,
// structure characters.
constexpr std::string_view kTokens[] = {
    "0",  "-1", "1e308", "-1e308", "1e-320", "NaN",        "Infinity",    "null",    "true",
    "[]", "{}", "\"\"",  "[[]]",   "\"x\"",  "2147483648", "-2147483649", "1e999",   "0.0",
    "{",  "}",  "[",     "]",      ",",      ":",          "\"",          "\\u0000", "1e9",
};

std::uint64_t hash_name(const std::string& name) {
  std::uint64_t h = 1469598103934665603ULL;  // FNV-1a
  for (const unsigned char c : name) h = (h ^ c) * 1099511628211ULL;
  return h;
}

// Replaces one JSON number or string literal (found by its first character) by a token, so that
// the document most often stays valid JSON and the mutation reaches the readers' checks.
void replace_literal(std::vector<std::uint8_t>& data, SplitMix64& rng) {
  std::vector<std::size_t> starts;
  for (std::size_t k = 0; k < data.size(); ++k) {
    const char c = static_cast<char>(data[k]);
    const char before = k > 0 ? static_cast<char>(data[k - 1]) : ' ';
    const bool number_start = (c == '-' || (c >= '0' && c <= '9')) &&
                              (before == ' ' || before == '[' || before == ':' || before == ',');
    if (number_start || (c == '"' && (before == ':' || before == ' ' || before == '[')))
      starts.push_back(k);
  }
  if (starts.empty()) return;
  const std::size_t at = starts[rng.below(starts.size())];
  std::size_t end = at + 1;
  if (data[at] == '"') {
    while (end < data.size() && data[end] != '"') ++end;
    end = std::min(end + 1, data.size());
  } else {
    while (end < data.size() &&
           std::string_view("0123456789.eE+-").find(static_cast<char>(data[end])) !=
               std::string_view::npos)
      ++end;
  }
  const std::string_view token = kTokens[rng.below(std::size(kTokens))];
  data.erase(data.begin() + static_cast<long>(at), data.begin() + static_cast<long>(end));
  data.insert(data.begin() + static_cast<long>(at), token.begin(), token.end());
}

// One random edit: replace a literal (half of the edits), flip a bit, overwrite a byte, delete or
// duplicate a range, insert a token, truncate.
void mutate(std::vector<std::uint8_t>& data, SplitMix64& rng) {
  const std::size_t n = data.size();
  if (rng.below(2) == 0) {
    replace_literal(data, rng);
    return;
  }
  switch (rng.below(6)) {
    case 0:
      if (n > 0) data[rng.below(n)] ^= static_cast<std::uint8_t>(1u << rng.below(8));
      break;
    case 1:
      if (n > 0) data[rng.below(n)] = static_cast<std::uint8_t>(rng.next());
      break;
    case 2:
      if (n > 0) {
        const std::size_t at = rng.below(n), len = 1 + rng.below(std::min<std::size_t>(n - at, 16));
        data.erase(data.begin() + static_cast<long>(at),
                   data.begin() + static_cast<long>(at + len));
      }
      break;
    case 3:
      if (n > 0) {
        const std::size_t at = rng.below(n), len = 1 + rng.below(std::min<std::size_t>(n - at, 64));
        const std::vector<std::uint8_t> copy(data.begin() + static_cast<long>(at),
                                             data.begin() + static_cast<long>(at + len));
        data.insert(data.begin() + static_cast<long>(rng.below(n + 1)), copy.begin(), copy.end());
      }
      break;
    case 4: {
      const std::string_view token = kTokens[rng.below(std::size(kTokens))];
      data.insert(data.begin() + static_cast<long>(rng.below(n + 1)), token.begin(), token.end());
      break;
    }
    default:
      data.resize(rng.below(n + 1));
      break;
  }
}

std::vector<std::uint8_t> read_bytes(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
  long mutations = 0;
  std::uint64_t seed = 1;
  std::vector<std::filesystem::path> files;
  for (int k = 1; k < argc; ++k) {
    const std::string arg = argv[k];
    if (arg.rfind("--mutations=", 0) == 0) {
      mutations = std::strtol(arg.c_str() + 12, nullptr, 10);
    } else if (arg.rfind("--seed=", 0) == 0) {
      seed = std::strtoull(arg.c_str() + 7, nullptr, 10);
    } else if (std::filesystem::is_directory(arg)) {
      for (const auto& entry : std::filesystem::recursive_directory_iterator(arg))
        if (entry.is_regular_file()) files.push_back(entry.path());
    } else if (std::filesystem::is_regular_file(arg)) {
      files.emplace_back(arg);
    } else {
      std::fprintf(stderr, "replay: '%s' is neither a file nor a folder\n", arg.c_str());
      return 2;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: %s [--mutations=N] [--seed=S] FILE_OR_FOLDER...\n", argv[0]);
    return 2;
  }
  std::sort(files.begin(), files.end());  // one order on every file system
  long runs = 0;
  for (const auto& file : files) {
    const std::vector<std::uint8_t> original = read_bytes(file);
    LLVMFuzzerTestOneInput(original.data(), original.size());
    ++runs;
    SplitMix64 rng{seed ^ hash_name(file.filename().string())};
    for (long m = 0; m < mutations; ++m) {
      std::vector<std::uint8_t> data = original;
      const std::size_t edits = 1 + rng.below(3);
      for (std::size_t e = 0; e < edits; ++e) mutate(data, rng);
      LLVMFuzzerTestOneInput(data.data(), data.size());
      ++runs;
    }
  }
  std::printf("replay: %zu files, %ld inputs run, contract kept\n", files.size(), runs);
  return 0;
}
