// carc: the Carcassonne rules adjudicator. See README.md for the subcommands and exit codes.
#include <exception>
#include <iostream>

#include "adjudicator/cli.h"
#include "adjudicator/exit_codes.h"

#ifdef CARC_PNG_IN_SIBLING
#include <unistd.h>

#include <climits>
#include <cstring>
#include <string>

namespace {

// Start-up (issue 21): `carc` is a static executable (adjudicator/CMakeLists.txt), which cannot
// load librsvg. A command line asking for a PNG (`render`/`adjudicate --png`) runs in the
// sibling build/carc-serve instead: the same command line interface, linked dynamically, which
// opens librsvg on the first PNG. Same arguments (argv[0] too), so the same output and exit code.
bool AsksForPng(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "--png") == 0 || std::strncmp(argv[i], "--png=", 6) == 0) return true;
  return false;
}

int RunInSibling(char** argv) {
  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string exe = n > 0 ? std::string(self, static_cast<size_t>(n)) : std::string();
  exe = exe.substr(0, exe.find_last_of('/') + 1) + "carc-serve";
  execv(exe.c_str(), argv);
  std::cerr << "carc: --png needs the carc-serve binary next to carc (" << exe
            << "): build the carc-serve target\n";
  return carc::adjudicator::kExitUnknownRules;  // 69, sysexits' "unavailable"
}

}  // namespace
#endif

int main(int argc, char** argv) {
#ifdef CARC_PNG_IN_SIBLING
  if (AsksForPng(argc, argv)) return RunInSibling(argv);
#endif
  try {
    return carc::adjudicator::Run(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "carc: internal error: " << e.what() << "\n";
    return carc::adjudicator::kExitInternal;
  }
}
