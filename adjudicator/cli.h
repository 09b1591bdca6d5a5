#pragma once
// The `carc` command line: subcommands, flags and usage text.

namespace carc::adjudicator {

int Run(int argc, char** argv);
// Run as the whole process does it (main.cc): standard error with control characters escaped,
// an exception that escapes Run reported and exit 70.
int Main(int argc, char** argv);

}  // namespace carc::adjudicator
