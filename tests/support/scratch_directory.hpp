#pragma once
// A temporary directory of the running test's own: ctest runs each test of a program as its own
// process, two at a time, so a fixed name under /tmp is written by one test while the other
// removes it. The name carries the stem, the process id and the test's name.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace moreau::testing {

// A fresh empty directory <temp>/<stem>_<pid>_<suite>_<test>; the caller removes it.
inline std::filesystem::path scratch_directory(const std::string& stem) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = stem + "_" + std::to_string(::getpid());
  if (info != nullptr) name += std::string("_") + info->test_suite_name() + "_" + info->name();
  for (char& c : name)
    if (c == '/') c = '_';
  const auto dir = std::filesystem::temp_directory_path() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace moreau::testing
