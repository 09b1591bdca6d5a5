#pragma once
// The `carc` command line: subcommands, flags and usage text.

namespace carc::adjudicator {

int Run(int argc, char** argv);

}  // namespace carc::adjudicator
