// carc-soak: `carc fuzz` and `carc fuzz merge` with the soak linked in (property-tests/README.md).
// `carc` parses the same command line (adjudicator/cmd_property.cc) and execs this binary with
// it; here the soak's runner is installed first, so the same options run in process.
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <string>
#include <utility>

#include "adjudicator/cli.h"
#include "adjudicator/exit_codes.h"
#include "adjudicator/fuzz_command.h"
#include "adjudicator/shard.h"
#include "database/db.h"
#include "database/migrate.h"
#include "model/core/input_file.h"
#include "model/expansions/registry.h"
#include "property-tests/soak.h"

namespace carc::prop {

namespace {

namespace db = carc::database;
using adjudicator::kExitInternal;
using adjudicator::kExitIo;
using adjudicator::kExitMalformed;
using adjudicator::kExitRejected;
using adjudicator::kExitUnknownRules;
using adjudicator::kExitUpheld;
using adjudicator::kExitUsage;
using adjudicator::ParseShard;

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
  // Decimal as written: digits only, no sign, blank or leading zero ("01" is refused, as 010
  // is for --games and --seed).
  if (s.empty() || s[0] == '0' || s.find_first_not_of("0123456789") != std::string::npos)
    return bad;
  size_t used = 0;
  try {
    jobs = std::stoi(s, &used);
  } catch (const std::exception&) {
    return bad;
  }
  return used == s.size() && jobs >= 1 && jobs <= prop::kMaxSoakJobs ? "" : bad;
}

int RunFuzz(const adjudicator::FuzzOptions& st) {
  std::vector<std::string> expansions = st.expansions;
  if (expansions.size() == 1 && expansions[0] == "all") expansions = exp::Ids();
  // Each expansion once (a repeated one would be enabled twice in every game's position).
  for (size_t i = 0; i < expansions.size(); ++i)
    for (size_t k = 0; k < i; ++k)
      if (expansions[k] == expansions[i]) {
        std::cerr << "carc: fuzz: --expansions names \"" << expansions[i] << "\" twice (item "
                  << i + 1 << ")\n";
        return kExitMalformed;
      }
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
// the summary counts as games_without_check_runs). Every report is checked before the database
// is opened (CheckSoakReport, and no game given twice in the merge): 65 naming the pointer.
int RunMerge(const adjudicator::FuzzOptions& st) {
  std::vector<nlohmann::json> reports;
  // Where each game of each run is given: a game given twice in the reports of one merge (a
  // report named twice, two shards claiming one game) is refused rather than one of its copies
  // kept. Merging it again later replaces it, as documented.
  std::map<std::pair<std::string, int64_t>, std::string> given;
  for (const std::string& file : st.reports) {
    // The one JSON reader (model/core/input_file.h): bounded, each key once ("seed": 3 and
    // "seed": 4 is refused, not read as the last one), nesting capped; 65 naming the pointer.
    auto text = model::ReadInputFile(file);
    if (!text.ok()) {
      std::cerr << "carc: fuzz merge: " << text.status().message() << "\n";
      return static_cast<int>(text.status().code());
    }
    auto j = model::ParseJsonText(*text, model::DisplayName(file));
    if (!j.ok()) {
      std::cerr << "carc: fuzz merge: " << j.status().message() << "\n";
      return kExitMalformed;
    }
    // As carc fuzz --report writes it (CheckSoakReport), each value known and in its range.
    if (const std::string bad = prop::CheckSoakReport(*j); !bad.empty()) {
      std::cerr << "carc: fuzz merge: " << model::DisplayName(file) << ": " << bad << "\n";
      return kExitMalformed;
    }
    const std::string run = RunKey(*j);
    for (size_t i = 0; i < (*j)["games"].size(); ++i) {
      const int64_t game = (*j)["games"][i]["game"].get<int64_t>();
      const std::string at = model::DisplayName(file) + ": /games/" + std::to_string(i);
      if (auto [it, fresh] = given.emplace(std::make_pair(run, game), at); !fresh) {
        std::cerr << "carc: fuzz merge: " << at << ": game " << game
                  << " of this run is given twice (first at " << it->second << ")\n";
        return kExitMalformed;
      }
    }
    reports.push_back(std::move(*j));
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
    for (const nlohmann::json& j : reports) {  // checked by CheckSoakReport: no json exception
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
        if (g.contains("checks"))
          ins->Bind(9, g.at("checks").dump());
        else
          ins->BindNull(9);
        if (auto s = ins->Run(); !s.ok()) return fail(s);
      }
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

int RunCommand(const adjudicator::FuzzOptions& opts, bool merge) {
  return merge ? RunMerge(opts) : RunFuzz(opts);
}

}  // namespace

}  // namespace carc::prop

int main(int argc, char** argv) {
  carc::adjudicator::SetFuzzRunner(&carc::prop::RunCommand);
  return carc::adjudicator::Main(argc, argv);
}
