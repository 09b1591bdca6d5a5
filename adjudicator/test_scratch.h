// Tests only: a scratch directory of this test process under testing::TempDir(), removed at
// exit. TempDir() is /tmp, shared by every build directory's ctest running at the same time
// (several developers, CI jobs): two runs writing a fixed name such as /tmp/exit.err at once
// read each other's half-written files.
#ifndef CARC_ADJUDICATOR_TEST_SCRATCH_H_
#define CARC_ADJUDICATOR_TEST_SCRATCH_H_

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace carc::testing_support {

// The directory testing::TempDir() + prefix + "-XXXXXX", made on the first call (the prefix of
// that call names it). The path is kept free of "carc": some tests count messages by that word.
inline const std::string& ScratchDir(const std::string& prefix) {
  static const struct Dir {
    std::string path;
    explicit Dir(const std::string& p) : path(::testing::TempDir() + p + "-XXXXXX") {
      if (mkdtemp(path.data()) == nullptr) throw std::runtime_error("mkdtemp " + path);
    }
    ~Dir() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  } dir(prefix);
  return dir.path;
}

}  // namespace carc::testing_support

#endif  // CARC_ADJUDICATOR_TEST_SCRATCH_H_
