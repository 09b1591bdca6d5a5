#pragma once
// Test helper: runs a command line as a user would and captures its stdout (and stderr when
// asked) and exit code. Shared by the tests that drive the carc binary (cli, authoring, hostile).
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace carc::testing {

struct Result {
  int code = -1;
  std::string out;
};

// Runs `cmd` in the shell; stderr is merged into `out` when merge_stderr is set, else dropped.
inline Result Shell(const std::string& cmd, bool merge_stderr = false) {
  Result r;
  FILE* p = popen((cmd + (merge_stderr ? " 2>&1" : " 2>/dev/null")).c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Runs the carc binary under test with `args`.
inline Result Carc(const std::string& args, bool merge_stderr = false) {
  return Shell(std::string(CARC_BINARY) + " " + args, merge_stderr);
}

}  // namespace carc::testing
