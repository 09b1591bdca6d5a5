#pragma once
// `carc fuzz` and `carc fuzz merge`: the options cmd_property.cc reads from the command line, and
// who runs them. The soak (its game generators, checks and brute force) is test code
// (property-tests/): `carc` itself execs the sibling binary carc-soak with the same command
// line, so the product links no test code; carc-soak (property-tests/soak_main.cc) installs the
// soak's own runner before parsing it.

#include <cstdint>
#include <string>
#include <vector>

namespace carc::adjudicator {

struct FuzzOptions {
  long games = 0;
  double seconds = 0;
  uint64_t seed = 1;
  std::vector<std::string> expansions;
  bool combinations = false;
  std::string out = "carc-fuzz-counterexample.json";
  std::string shard = "1/1";    // K/N
  std::string report;           // --report FILE: every game played and the per-step visits
  bool every_decision = false;  // the costlier checks at every decision (not sampled)
  std::string jobs = "1";       // --jobs N: worker processes (property-tests/soak_jobs.cc)
  // fuzz merge
  std::string db;
  std::vector<std::string> reports;
};

// Runs `fuzz` (merge false) or `fuzz merge`; returns the exit code.
using FuzzRunner = int (*)(const FuzzOptions& opts, bool merge);
// The runner the fuzz commands call. Default: exec carc-soak next to this binary.
void SetFuzzRunner(FuzzRunner run);

}  // namespace carc::adjudicator
