// Subcommand group registered by RegisterPropertyCommands (see commands.h): `carc fuzz`, the
// soak of the property tests (property-tests/README.md).
// The soak (its game generators, checks and brute force) is test code: it lives in the sibling
// binary carc-soak, built from this file with CARC_SOAK_IN_PROCESS and linked with
// property-tests/. In `carc` itself `fuzz` parses the same options and execs carc-soak with
// them, so the product links no test code.
#include <unistd.h>

#include <climits>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "adjudicator/commands.h"
#include "adjudicator/exit_codes.h"
#ifdef CARC_SOAK_IN_PROCESS
#include "adjudicator/shard.h"
#include "database/db.h"
#include "database/migrate.h"
#include "model/expansions/registry.h"
#include "property-tests/soak.h"
#endif

namespace carc::adjudicator {

namespace {

#ifdef CARC_SOAK_IN_PROCESS
namespace db = carc::database;
#endif

struct FuzzState {
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

#ifdef CARC_SOAK_IN_PROCESS
// The run a report belongs to: games of one run are merged, whichever shard played them.
std::string RunKey(const nlohmann::json& report) {
  std::string ex;
  for (const auto& e : report.at("expansions"))
    ex += (ex.empty() ? "" : ",") + e.get<std::string>();
  return "seed=" + std::to_string(report.at("seed").get<uint64_t>()) + " expansions=" + ex +
         (report.at("combinations").get<bool>() ? " combinations" : "");
}

void PrintSteps(std::ostream& os, const std::map<std::string, long>& visits,
                const std::map<std::string, long>& reaching, long games) {
  os << "decisions per step (games reaching it, of " << games << "):\n";
  for (const auto& [step, n] : visits) {
    const auto it = reaching.find(step);
    os << "  " << step << ": " << n << " (" << (it == reaching.end() ? 0 : it->second)
       << " games)\n";
  }
}

// 128 + SIGINT, as a shell reports a process stopped by Ctrl-C.
constexpr int kExitInterrupted = 130;

// "--jobs N": a whole number from 1 to kMaxSoakJobs; returns "" or the message (exit 64).
std::string ParseJobs(const std::string& s, int& jobs) {
  const std::string bad = "--jobs: expected a whole number of worker processes from 1 to " +
                          std::to_string(prop::kMaxSoakJobs) + ", got \"" + s + "\"";
  size_t used = 0;
  try {
    jobs = std::stoi(s, &used);
  } catch (const std::exception&) {
    return bad;
  }
  return used == s.size() && jobs >= 1 && jobs <= prop::kMaxSoakJobs ? "" : bad;
}

int RunFuzz(const FuzzState& st) {
  std::vector<std::string> expansions = st.expansions;
  if (expansions.size() == 1 && expansions[0] == "all") expansions = exp::Ids();
  for (const std::string& id : expansions)
    if (!exp::ByName(id)) {
      std::string known;
      for (const std::string& k : exp::Ids()) known += (known.empty() ? "" : ", ") + k;
      std::cerr << "carc: fuzz: unknown expansion \"" << id << "\" (known: " << known << ")\n";
      return kExitUnknownRules;
    }
  prop::SoakOptions opts;
  opts.games = st.games;
  opts.seconds = st.seconds;
  opts.seed = st.seed;
  opts.expansions = expansions;
  opts.combinations = st.combinations;
  opts.out = st.out;
  opts.policy.every_decision = st.every_decision;
  opts.rewrite_progress = isatty(STDERR_FILENO);  // a log file gets one line per report
  if (std::string e = ParseShard(st.shard, opts.shard, opts.shards); !e.empty()) {
    std::cerr << "carc: fuzz: " << e << "\n";
    return kExitUsage;
  }
  if (std::string e = ParseJobs(st.jobs, opts.jobs); !e.empty()) {
    std::cerr << "carc: fuzz: " << e << "\n";
    return kExitUsage;
  }
  prop::SoakResult r;
  try {
    r = prop::RunSoak(opts, std::cerr);
  } catch (const prop::SoakAborted& e) {
    std::cerr << "carc: fuzz: " << e.what() << "\n";
    return e.interrupted ? kExitInterrupted : kExitInternal;
  }
  std::cerr << "carc fuzz: seed " << st.seed << (opts.shards > 1 ? ", shard " + st.shard : "")
            << ", " << r.games << " games, " << r.decisions << " decisions in " << r.seconds
            << " s\n";
  PrintSteps(std::cerr, r.step_visits, r.games_reaching, r.games);
  std::cerr << "checks run (positions checked, or games for \"(game)\"; wall time)"
            << (st.every_decision ? ", every decision" : ", sampled (--every-decision: all)")
            << ":\n";
  for (const auto& [check, n] : r.checks.runs)
    std::cerr << "  " << check << ": " << n << " (" << std::fixed << std::setprecision(2)
              << r.checks.seconds.at(check) << " s)\n"
              << std::defaultfloat;
  if (!st.report.empty()) {
    std::ofstream out(st.report);
    out << prop::SoakReportJson(opts, r).dump() << "\n";
    if (!out) {
      std::cerr << "carc: fuzz: cannot write the report " << st.report << "\n";
      return kExitIo;
    }
  }
  if (!r.failure) {
    std::cout << "no counterexample in " << r.games << " games\n";
    return kExitUpheld;
  }
  std::cout << "counterexample (" << r.failure->property << "): " << r.failure->message << "\n"
            << "written to " << st.out << " and " << st.out << ".position.json\n";
  return kExitRejected;
}

// `carc fuzz merge --db FILE REPORT...`: the games of shard reports into the table soak_games
// (one row per run and game; merging a report again replaces its rows), then the summary of
// each run the reports name, read back from the database: games, decisions, failures, steps
// and each check's runs (column checks; NULL for a game of a report written before them, which
// the summary counts as games_without_check_runs).
int RunMerge(const FuzzState& st) {
  std::vector<nlohmann::json> reports;
  for (const std::string& file : st.reports) {
    std::ifstream in(file);
    if (!in) {
      std::cerr << "carc: fuzz merge: cannot read " << file << "\n";
      return kExitNoInput;
    }
    nlohmann::json j = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded() || !j.is_object() || !j.contains("games") || !j.contains("seed") ||
        !j.contains("expansions") || !j.contains("combinations")) {
      std::cerr << "carc: fuzz merge: " << file << ": not a report of carc fuzz --report\n";
      return kExitMalformed;
    }
    reports.push_back(std::move(j));
  }
  // A carc database (created and migrated when missing), so the rulings and games may share it.
  auto conn = db::OpenDatabase(st.db, {.mode = db::OpenMode::kCreate});
  auto fail = [&](const model::Status& s) {
    std::cerr << "carc: fuzz merge: " << st.db << ": " << s.message() << "\n";
    return kExitIo;
  };
  if (!conn.ok()) return fail(conn.status());
  if (auto s = conn->Exec(
          "CREATE TABLE IF NOT EXISTS soak_games (run TEXT NOT NULL, game INTEGER NOT NULL, "
          "expansions TEXT NOT NULL, players INTEGER NOT NULL, decisions INTEGER NOT NULL, "
          "scores TEXT NOT NULL, failure TEXT NOT NULL, steps TEXT NOT NULL, checks TEXT, "
          "PRIMARY KEY (run, game)) STRICT");
      !s.ok())
    return fail(s);
  // A table made before the per-check counts gets their column; its rows keep NULL.
  {
    auto cols = conn->Prepare(
        "SELECT count(*) FROM pragma_table_info('soak_games') "
        "WHERE name = 'checks'");
    if (!cols.ok()) return fail(cols.status());
    auto row = cols->Step();
    if (!row.ok()) return fail(row.status());
    if (*row && cols->Int(0) == 0)
      if (auto s = conn->Exec("ALTER TABLE soak_games ADD COLUMN checks TEXT"); !s.ok())
        return fail(s);
  }
  std::vector<std::string> runs;
  {
    auto tx = db::Transaction::Begin(*conn);
    if (!tx.ok()) return fail(tx.status());
    auto ins = conn->Prepare(
        "INSERT OR REPLACE INTO soak_games (run, game, expansions, players, decisions, scores, "
        "failure, steps, checks) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)");
    if (!ins.ok()) return fail(ins.status());
    try {
      for (const nlohmann::json& j : reports) {
        const std::string run = RunKey(j);
        if (std::find(runs.begin(), runs.end(), run) == runs.end()) runs.push_back(run);
        for (const auto& g : j.at("games")) {
          ins->Bind(1, run)
              .Bind(2, g.at("game").get<int64_t>())
              .Bind(3, g.at("expansions").dump())
              .Bind(4, g.at("players").get<int>())
              .Bind(5, g.at("decisions").get<int>())
              .Bind(6, g.at("scores").dump())
              .Bind(7, g.at("failure").get<std::string>())
              .Bind(8, g.at("steps").dump());
          // Each check's runs on the game; a report from before them (no "checks"): NULL.
          if (g.contains("checks")) {
            for (const auto& [check, n] : g.at("checks").items()) n.get<long>();  // numbers
            ins->Bind(9, g.at("checks").dump());
          } else {
            ins->BindNull(9);
          }
          if (auto s = ins->Run(); !s.ok()) return fail(s);
        }
      }
    } catch (const nlohmann::json::exception& e) {
      std::cerr << "carc: fuzz merge: a report's game is malformed: " << e.what() << "\n";
      return kExitMalformed;
    }
    if (auto s = tx->Commit(); !s.ok()) return fail(s);
  }
  // The summary of each run, from every row stored for it (all shards merged so far).
  nlohmann::json out = nlohmann::json::object();
  for (const std::string& run : runs) {
    auto q = conn->Prepare(
        "SELECT decisions, failure, steps, checks FROM soak_games WHERE run = ?1 ORDER BY game");
    if (!q.ok()) return fail(q.status());
    q->Bind(1, run);
    long games = 0, decisions = 0, failures = 0, uncounted = 0;
    std::map<std::string, long> visits, reaching, check_runs;
    for (;;) {
      auto row = q->Step();
      if (!row.ok()) return fail(row.status());
      if (!*row) break;
      ++games;
      decisions += q->Int(0);
      failures += q->Text(1).empty() ? 0 : 1;
      const nlohmann::json steps = nlohmann::json::parse(q->Text(2));
      for (const auto& [step, n] : steps.items()) {
        visits[step] += n.get<long>();
        ++reaching[step];
      }
      if (q->IsNull(3)) {
        ++uncounted;
        continue;
      }
      const nlohmann::json checks = nlohmann::json::parse(q->Text(3));
      for (const auto& [check, n] : checks.items()) check_runs[check] += n.get<long>();
    }
    out[run] = {{"games", games},        {"decisions", decisions},     {"failures", failures},
                {"step_visits", visits}, {"games_reaching", reaching}, {"check_runs", check_runs}};
    // Games merged from reports written before the per-check counts: not in check_runs.
    if (uncounted > 0) out[run]["games_without_check_runs"] = uncounted;
  }
  std::cout << out.dump(2) << "\n";
  return kExitUpheld;
}
#else
// The arguments of the parsed command line, for carc-soak: `fuzz [merge] OPTIONS`.
std::vector<std::string> SoakArgs(const FuzzState& st, bool merge) {
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
int RunInSoak(const FuzzState& st, bool merge) {
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

int RunFuzz(const FuzzState& st) { return RunInSoak(st, /*merge=*/false); }
int RunMerge(const FuzzState& st) { return RunInSoak(st, /*merge=*/true); }
#endif

}  // namespace

void RegisterPropertyCommands(Registry& reg) {
  if (!reg.Wants("fuzz")) return;  // start-up: another subcommand was named
  static FuzzState st;
  auto* fuzz = reg.root->add_subcommand(
      "fuzz", "Soak: random games through every property check; writes any counterexample");
  auto* games =
      fuzz->add_option("--games", st.games, "Number of games")->check(CLI::PositiveNumber);
  auto* seconds =
      fuzz->add_option("--seconds", st.seconds, "Run for this long")->check(CLI::PositiveNumber);
  games->excludes(seconds);
  fuzz->add_option("--seed", st.seed, "PRNG seed (same seed, same games)");
  fuzz->add_option("--expansions", st.expansions,
                   "Expansions enabled in every game (e.g. phantom,gifts; all: every one)")
      ->delimiter(',');
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
  reg.commands.push_back({fuzz, [] { return RunFuzz(st); }});
  reg.commands.push_back({merge, [] { return RunMerge(st); }});
}

}  // namespace carc::adjudicator
