#pragma once
// Test helper: runs a command line as a user would and captures its stdout (and stderr when
// asked) and exit code. Shared by the tests that drive the carc binary (cli, authoring, hostile,
// conform).
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace carc::testing {

struct Result {
  int code = -1;
  std::string out;
  std::string err;  // ShellApart only
};

// Runs `cmd` in the shell with stderr sent to `stderr_to` (a shell redirection target).
inline Result ShellRedirected(const std::string& cmd, const std::string& stderr_to) {
  Result r;
  FILE* p = popen((cmd + " 2>" + stderr_to).c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

// Runs `cmd` in the shell; stderr is merged into `out` when merge_stderr is set, else dropped.
inline Result Shell(const std::string& cmd, bool merge_stderr = false) {
  return ShellRedirected(cmd, merge_stderr ? "&1" : "/dev/null");
}

// Runs `cmd` in the shell with stdout in `out` and stderr in `err`, kept apart (through the
// file `err_file`).
inline Result ShellApart(const std::string& cmd, const std::string& err_file) {
  Result r = ShellRedirected(cmd, err_file);
  std::ifstream in(err_file);
  std::stringstream ss;
  ss << in.rdbuf();
  r.err = ss.str();
  return r;
}

// Runs the carc binary under test with `args`.
inline Result Carc(const std::string& args, bool merge_stderr = false) {
  return Shell(std::string(CARC_BINARY) + " " + args, merge_stderr);
}

}  // namespace carc::testing
