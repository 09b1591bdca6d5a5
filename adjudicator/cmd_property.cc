// Subcommand group registered by RegisterPropertyCommands (see commands.h): `carc fuzz`, the
// soak of the property tests (property-tests/README.md). The soak is test code: here the options
// are parsed and carc-soak, built from property-tests/soak_main.cc, is exec'd with them
// (fuzz_command.h), so the product links no test code.
#include <unistd.h>

#include <climits>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "adjudicator/commands.h"
#include "adjudicator/exit_codes.h"
#include "adjudicator/fuzz_command.h"

namespace carc::adjudicator {

namespace {

// The arguments of the parsed command line, for carc-soak: `fuzz [merge] OPTIONS`.
std::vector<std::string> SoakArgs(const FuzzOptions& st, bool merge) {
  std::vector<std::string> args = {"fuzz"};
  if (merge) {
    args.insert(args.end(), {"merge", "--db", st.db});
    args.insert(args.end(), st.reports.begin(), st.reports.end());
    return args;
  }
  if (st.games > 0) args.insert(args.end(), {"--games", std::to_string(st.games)});
  if (st.seconds > 0) {
    std::ostringstream s;
    s << std::setprecision(17) << st.seconds;
    args.insert(args.end(), {"--seconds", s.str()});
  }
  args.insert(args.end(), {"--seed", std::to_string(st.seed)});
  if (!st.expansions.empty()) {
    std::string ex;
    for (const std::string& e : st.expansions) ex += (ex.empty() ? "" : ",") + e;
    args.insert(args.end(), {"--expansions", ex});
  }
  if (st.combinations) args.push_back("--combinations");
  args.insert(args.end(), {"--out", st.out, "--shard", st.shard, "--jobs", st.jobs});
  if (st.every_decision) args.push_back("--every-decision");
  if (!st.report.empty()) args.insert(args.end(), {"--report", st.report});
  return args;
}

// Runs carc-soak from the directory of this binary with the parsed options. The process is
// replaced: its output, signals and exit code are the soak's.
int RunInSoak(const FuzzOptions& st, bool merge) {
  char self[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  std::string dir = n > 0 ? std::string(self, static_cast<size_t>(n)) : std::string();
  dir = dir.substr(0, dir.find_last_of('/') + 1);
  const std::string exe = dir + "carc-soak";
  std::vector<std::string> args = {exe};
  for (std::string& a : SoakArgs(st, merge)) args.push_back(std::move(a));
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::cout.flush();
  execv(exe.c_str(), argv.data());
  std::cerr << "carc: fuzz needs the carc-soak binary next to carc (" << exe
            << "): build the carc-soak target\n";
  return kExitUnknownRules;  // 69, sysexits' "unavailable"
}

// What the fuzz commands run (SetFuzzRunner).
FuzzRunner runner = &RunInSoak;

// A count of games or seconds: 1 or more (CLI11's PositiveNumber prints its range as
// 0.000000 to 1.79e308 written out in full).
CLI::Validator AtLeastOne() {
  return CLI::Validator(
      [](std::string& s) -> std::string {
        return std::strtod(s.c_str(), nullptr) >= 1 ? "" : "expected 1 or more, got " + s;
      },
      "");
}

}  // namespace

void SetFuzzRunner(FuzzRunner run) { runner = run; }

void RegisterPropertyCommands(Registry& reg) {
  if (!reg.Wants("fuzz")) return;  // start-up: another subcommand was named
  static FuzzOptions st;
  auto* fuzz = reg.root->add_subcommand(
      "fuzz", "Soak: random games through every property check; writes any counterexample");
  auto* games = fuzz->add_option("--games", st.games, "Number of games")->check(AtLeastOne());
  auto* seconds =
      fuzz->add_option("--seconds", st.seconds, "Run for this long")->check(AtLeastOne());
  games->excludes(seconds);
  fuzz->add_option("--seed", st.seed, "PRNG seed (same seed, same games)");
  // Read as written and split here: CLI11's own split drops an empty item ("phantom,,gifts"),
  // which is refused instead, as for `new --expansions`.
  static std::string expansions_text;
  auto* expansions =
      fuzz->add_option("--expansions", expansions_text,
                       "Expansions enabled in every game (e.g. phantom,gifts; all: every one)");
  fuzz->parse_complete_callback([expansions] {
    st.expansions.clear();  // a second parse of the line (cli.cc) starts afresh
    if (expansions->count() == 0) return;
    for (size_t start = 0, item = 1;; ++item) {
      const size_t comma = expansions_text.find(',', start);
      const std::string id = expansions_text.substr(start, comma - start);
      if (id.empty())
        throw CLI::ValidationError("--expansions: item " + std::to_string(item) +
                                   " is empty; give expansion ids separated by commas "
                                   "(phantom,gifts)");
      st.expansions.push_back(id);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  });
  fuzz->add_flag("--combinations", st.combinations,
                 "Cycle through every subset of --expansions (base game included), one per game");
  fuzz->add_option("--out", st.out, "Counterexample file");
  fuzz->add_option("--shard", st.shard,
                   "K/N: play only games n with n % N == K - 1 of the run (--games counts the "
                   "whole run); N shards together play the unsharded run's games");
  fuzz->add_flag("--every-decision", st.every_decision,
                 "Run the costlier checks (round trip, brute force, outside the list, features) "
                 "at every decision instead of a seeded subset (property-tests/README.md)");
  fuzz->add_option("--jobs", st.jobs,
                   "Worker processes playing the run's (or shard's) games at once (default 1); "
                   "the result is the one of --jobs 1. With --seconds each worker stops after S "
                   "seconds; exit 70 if a worker dies, 130 if interrupted")
      ->type_name("N");
  fuzz->add_option("--report", st.report,
                   "Write every game played, its decisions per step and check runs as JSON (for "
                   "fuzz merge)");
  auto* merge = fuzz->add_subcommand(
      "merge",
      "Merge fuzz --report files (e.g. of shards) into the database; print each run's "
      "games, failures, decisions per step and runs of each check");
  merge->add_option("--db", st.db, "Database file (created if missing)")->required();
  merge->add_option("reports", st.reports, "Report files of carc fuzz --report")->required();
  fuzz->callback([games, seconds, merge] {
    if (merge->parsed()) return;
    if (games->count() == 0 && seconds->count() == 0)
      throw CLI::RequiredError("--games N or --seconds S");
  });
  reg.commands.push_back({fuzz, [] { return runner(st, /*merge=*/false); }});
  reg.commands.push_back({merge, [] { return runner(st, /*merge=*/true); }});
}

}  // namespace carc::adjudicator
