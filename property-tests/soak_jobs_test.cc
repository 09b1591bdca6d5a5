// `carc fuzz --jobs N` (soak_jobs.cc) gives exactly the result of --jobs 1: the same
// summary, report and counterexample; a dead worker or Ctrl-C is reported; and `carc fuzz merge`
// stores and sums each check's runs, merges a real report and refuses one not as carc fuzz
// writes it, or a game given twice (65, naming the pointer).
#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>

#include "adjudicator/run_carc.h"
#include "adjudicator/test_scratch.h"
#include "database/db.h"
#include "database/migrate.h"
#include "property-tests/soak.h"

namespace carc::prop {
namespace {

using carc::testing::Carc;
using carc::testing::Shell;

std::string Dir() { return carc::testing_support::ScratchDir("soak-jobs"); }

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A planted failure (the soak's check hook): a game of 3 players with at least 20 decisions
// fails "planted"; every game's run of it is counted. Base games of seed 1 have 2, 5, 3, 5, 3,
// 3, 4, 4, 5, 5, 5, 5 players (games 0-11, checked below), so game 2 is the first to fail.
std::optional<Failure> Planted(const Game& g, uint64_t, const SoakPolicy&, CheckTally* tally) {
  if (tally) ++tally->runs["planted (game)"];
  if (g.spec.players != 3 || g.decisions() < 20) return std::nullopt;
  // Found in the run (not while shrinking): slow, so that the other workers play past the
  // failing game before it is known, the case the merge must cut.
  if (tally) std::this_thread::sleep_for(std::chrono::milliseconds(100));
  return Failure{"planted", "3 players, " + std::to_string(g.decisions()) + " decisions",
                 g.start_json, nullptr};
}

SoakOptions PlantedRun(int jobs, const std::string& out) {
  SoakOptions o;
  o.games = 12;
  o.seed = 1;
  o.rewrite_progress = false;
  o.check = Planted;
  o.jobs = jobs;
  o.out = Dir() + "/" + out;
  return o;
}

TEST(SoakJobs, SeedOnePlayerCountsAsTheTestsAssume) {
  const int players[] = {2, 5, 3, 5, 3, 3, 4, 4, 5, 5, 5, 5};
  for (long n = 0; n < 12; ++n)
    EXPECT_EQ(GameAt(PlantedRun(1, "x"), n).spec.players, players[n]) << "game " << n;
}

// Game 2 fails (and 4 and 5); with 2 or 3 jobs the workers take games 0-2 and may take 3, 4, 5
// before game 2's failure is known (4 and 5 fail too). Each job count gives the games 0-2 and
// the counterexample of game 2, shrunk alike, in the same file.
TEST(SoakJobs, PlantedFailureGivesTheSameCounterexampleOnEveryJobCount) {
  std::stringstream progress;
  const SoakResult one = RunSoak(PlantedRun(1, "cex1.json"), progress);
  ASSERT_TRUE(one.failure.has_value());
  EXPECT_EQ(one.failure->property, "planted");
  EXPECT_EQ(one.games, 3);
  EXPECT_EQ(one.played.back().index, 2);
  EXPECT_EQ(one.checks.runs.at("planted (game)"), 3);
  EXPECT_EQ(one.failing_spec.players, 3);
  EXPECT_LT(one.failing_spec.picks.size(), 71u) << "not shrunk";
  const std::string cex = Slurp(Dir() + "/cex1.json");
  ASSERT_NE(cex.find("\"shrunk\": true"), std::string::npos) << cex.substr(0, 300);
  for (int jobs : {2, 3}) {
    const std::string out = "cex" + std::to_string(jobs) + ".json";
    const SoakResult r = RunSoak(PlantedRun(jobs, out), progress);
    EXPECT_EQ(Slurp(Dir() + "/" + out), cex) << jobs << " jobs";
    EXPECT_EQ(Slurp(Dir() + "/" + out + ".position.json"),
              Slurp(Dir() + "/cex1.json.position.json"));
    EXPECT_EQ(SoakReportJson(PlantedRun(jobs, out), r), SoakReportJson(PlantedRun(1, out), one))
        << jobs << " jobs";
    EXPECT_EQ(r.failure->message, one.failure->message);
  }
}

// A worker killed in a game (here: by the check itself, on the 5-player games 1 and 3 of seed 1)
// ends the run with a message naming the worker, the game it died in and how to replay that
// game alone. Games 0 and 2 are played; the worker taking game 1 dies there, the other one
// (taking games 2 and 3 once game 1 is taken) in game 3; which worker is which is timing.
TEST(SoakJobs, ADeadWorkerIsNamedWithItsGame) {
  SoakOptions o = PlantedRun(2, "dead.json");
  o.check = [](const Game& g, uint64_t, const SoakPolicy&, CheckTally*) {
    if (g.spec.players == 5) raise(SIGKILL);
    return std::optional<Failure>();
  };
  std::stringstream progress;
  try {
    RunSoak(o, progress);
    ADD_FAILURE() << "no worker died";
  } catch (const SoakAborted& e) {
    const std::string what = e.what();
    EXPECT_FALSE(e.interrupted);
    EXPECT_TRUE(std::regex_search(
        what, std::regex(R"(worker [12] of 2 \([0-2] games played\) in game 1 \(that game alone: )"
                         R"(--games 2 --shard 2/2\) was killed by signal 9 )")))
        << what;
    EXPECT_TRUE(std::regex_search(
        what, std::regex(R"(worker [12] of 2 \([0-2] games played\) in game 3 \(that game alone: )"
                         R"(--games 4 --shard 4/4\) was killed by signal 9 )")))
        << what;
  }
}

// An exception in a worker's game (the model's internal errors) is reported with its text and
// the game, as a dead worker; the worker taking game 1 (5 players) throws there.
TEST(SoakJobs, AnExceptionInAWorkerIsReportedWithItsGame) {
  SoakOptions o = PlantedRun(2, "throw.json");
  o.check = [](const Game& g, uint64_t, const SoakPolicy&, CheckTally*) {
    if (g.spec.players == 5) throw std::logic_error("planted exception");
    return std::optional<Failure>();
  };
  std::stringstream progress;
  try {
    RunSoak(o, progress);
    ADD_FAILURE() << "no exception reported";
  } catch (const SoakAborted& e) {
    EXPECT_FALSE(e.interrupted);
    EXPECT_TRUE(std::regex_search(
        std::string(e.what()),
        std::regex(R"(worker [12] of 2 \([0-2] games played\) in game 1 \(that game alone: )"
                   R"(--games 2 --shard 2/2\) failed: planted exception)")))
        << e.what();
  }
}

// Stderr without its timings: the progress lines, "in S s" and each check's "(S s)".
std::string Untimed(const std::string& err) {
  std::string out;
  std::istringstream in(err);
  const std::regex progress(R"(^carc fuzz: \d+ games, \d+ decisions, .*games/s.*$)");
  for (std::string line; std::getline(in, line);) {
    if (std::regex_match(line, progress)) continue;
    line = std::regex_replace(line, std::regex(R"( in [0-9.e+-]+ s$)"), " in S s");
    line = std::regex_replace(line, std::regex(R"( \([0-9.]+ s\)$)"), " (S s)");
    out += line + "\n";
  }
  return out;
}

// The command line: the same stdout, summary (timings aside) and report on 1, 2 and 3 jobs, with
// all expansions; and within a shard.
TEST(FuzzJobs, SameSummaryAndReportOnOneTwoAndThreeJobs) {
  for (const std::string run :
       {"--games 6 --seed 2 --expansions all", "--games 9 --seed 3 --expansions all --shard 2/3"}) {
    std::string out[4], err[4], report[4];
    for (int jobs = 1; jobs <= 3; ++jobs) {
      const std::string base = Dir() + "/run" + std::to_string(jobs);
      // In a subshell: Shell() sends the subshell's stderr to /dev/null, carc's goes to .err.
      const auto r = Shell("(" + std::string(CARC_BINARY) + " fuzz " + run + " --jobs " +
                           std::to_string(jobs) + " --report " + base + ".json --out " + base +
                           ".cex 2>" + base + ".err)");
      EXPECT_EQ(r.code, 0) << run << ", " << jobs << " jobs";
      out[jobs] = r.out;
      err[jobs] = Untimed(Slurp(base + ".err"));
      report[jobs] = Slurp(base + ".json");
    }
    EXPECT_EQ(out[1],
              run[8] == '6' ? "no counterexample in 6 games\n" : "no counterexample in 3 games\n");
    EXPECT_NE(err[1].find("checks run"), std::string::npos) << err[1];
    EXPECT_NE(report[1].find("\"check_runs\""), std::string::npos);
    for (int jobs : {2, 3}) {
      EXPECT_EQ(out[jobs], out[1]) << run << ", " << jobs << " jobs";
      EXPECT_EQ(err[jobs], err[1]) << run << ", " << jobs << " jobs";
      EXPECT_EQ(report[jobs], report[1]) << run << ", " << jobs << " jobs";
    }
  }
}

TEST(FuzzJobs, JobsNotAPositiveWholeNumberIsAUsageError) {
  for (const char* bad : {"0", "-1", "abc", "257", "2x"}) {
    const auto r = Carc(std::string("fuzz --games 1 --jobs ") + bad, /*merge_stderr=*/true);
    EXPECT_EQ(r.code, 64) << bad;
    EXPECT_NE(
        r.out.find("--jobs: expected a whole number of worker processes from 1 to 256, got \"" +
                   std::string(bad) + "\""),
        std::string::npos)
        << r.out;
  }
}

// SIGINT to carc (as Ctrl-C, or kill -INT) stops every worker: exit 130, no worker left.
TEST(FuzzJobs, InterruptStopsEveryWorker) {
  const std::string d = Dir();
  const auto r = Shell("sh -c '" + std::string(CARC_BINARY) +
                       " fuzz --games 100000 --seed 2 --jobs 2 --out " + d + "/int.cex 2>" + d +
                       "/int.err & p=$!; sleep 1; kids=$(for f in /proc/[0-9]*/stat; do "
                       "read -r pid comm state ppid rest <$f 2>/dev/null && [ $ppid = $p ] && "
                       "echo $pid; done); "
                       "kill -INT $p; wait $p; echo exit $?; echo kids $kids; sleep 0.5; "
                       "for k in $kids; do [ -e /proc/$k ] && "
                       "[ \"$(cut -d\" \" -f3 /proc/$k/stat)\" != Z ] && echo alive $k; done'");
  EXPECT_NE(r.out.find("exit 130\n"), std::string::npos) << r.out;
  EXPECT_TRUE(std::regex_search(r.out, std::regex("kids [0-9]+ [0-9]+\n"))) << r.out;
  EXPECT_EQ(r.out.find("alive"), std::string::npos) << r.out;
  EXPECT_NE(Slurp(d + "/int.err").find("carc: fuzz: interrupted (signal 2); stopped the 2 workers"),
            std::string::npos);
}

// fuzz merge stores each game's check runs and sums them: conservation runs at every decision
// and at the end (decisions + games), score events at every decision, the unused-expansion
// comparison once per enabled expansion and game (4 x games). A report from before the counts
// (games without "checks") still merges, counted as games_without_check_runs.
TEST(FuzzMerge, StoresAndSumsEachChecksRuns) {
  const std::string d = Dir();
  ASSERT_EQ(Carc("fuzz --games 3 --seed 4 --expansions all --report " + d + "/m.json --out " + d +
                 "/m.cex")
                .code,
            0);
  const auto r = Carc("fuzz merge --db " + d + "/m.db " + d + "/m.json");
  ASSERT_EQ(r.code, 0);
  const auto summary = nlohmann::json::parse(r.out).begin().value();
  const long decisions = summary.at("decisions").get<long>();
  const auto& runs = summary.at("check_runs");
  EXPECT_EQ(summary.at("games"), 3);
  EXPECT_EQ(runs.at("conservation").get<long>(), decisions + 3);
  EXPECT_EQ(runs.at("score-events").get<long>(), decisions);
  EXPECT_EQ(runs.at("unused-expansion (game)"), 12);
  EXPECT_EQ(runs.at("(seeding and playout, game)"), 3);
  EXPECT_FALSE(summary.contains("games_without_check_runs"));
  // The report's own totals are the same.
  const auto report = nlohmann::json::parse(Slurp(d + "/m.json"));
  EXPECT_EQ(report.at("check_runs"), runs);

  nlohmann::json old = report;
  old.erase("check_runs");
  for (auto& g : old.at("games")) g.erase("checks");
  std::ofstream(d + "/old.json") << old.dump();
  const auto o = Carc("fuzz merge --db " + d + "/old.db " + d + "/old.json");
  ASSERT_EQ(o.code, 0);
  const auto old_summary = nlohmann::json::parse(o.out).begin().value();
  EXPECT_EQ(old_summary.at("games_without_check_runs"), 3);
  EXPECT_EQ(old_summary.at("check_runs"), nlohmann::json::object());
  EXPECT_EQ(old_summary.at("decisions").get<long>(), decisions);

  // A database whose table predates the column gets it; the old rows keep no counts.
  {
    auto conn = database::OpenDatabase(d + "/alter.db", {.mode = database::OpenMode::kCreate});
    ASSERT_TRUE(conn.ok());
    ASSERT_TRUE(conn->Exec("CREATE TABLE soak_games (run TEXT NOT NULL, game INTEGER NOT NULL, "
                           "expansions TEXT NOT NULL, players INTEGER NOT NULL, decisions "
                           "INTEGER NOT NULL, scores TEXT NOT NULL, failure TEXT NOT NULL, steps "
                           "TEXT NOT NULL, PRIMARY KEY (run, game)) STRICT")
                    .ok());
  }
  ASSERT_EQ(Carc("fuzz merge --db " + d + "/alter.db " + d + "/old.json").code, 0);
  const auto a = Carc("fuzz merge --db " + d + "/alter.db " + d + "/m.json");
  ASSERT_EQ(a.code, 0);
  EXPECT_EQ(nlohmann::json::parse(a.out).begin().value(), summary);
}

// A real report of carc fuzz --report, written once: seed 3, games 0 and 1 (5 and 3 players).
const nlohmann::json& RealReport() {
  static const nlohmann::json report = [] {
    const std::string d = Dir();
    EXPECT_EQ(
        Carc("fuzz --games 2 --seed 3 --report " + d + "/real.json --out " + d + "/real.cex").code,
        0);
    return nlohmann::json::parse(Slurp(d + "/real.json"));
  }();
  return report;
}

// `fuzz merge` of the report text `text` (written to `name` in the scratch folder), into a
// database of its own: the exit code and stderr (stdout dropped).
carc::testing::Result MergeText(const std::string& name, const std::string& text) {
  const std::string d = Dir();
  std::ofstream(d + "/" + name) << text;
  std::remove((d + "/" + name + ".db").c_str());
  return Shell("(" + std::string(CARC_BINARY) + " fuzz merge --db " + d + "/" + name + ".db " + d +
                   "/" + name + " >/dev/null) 2>&1",
               /*merge_stderr=*/true);
}

// A real report merges (exit 0), read the way it is written.
TEST(FuzzMerge, ARealReportMerges) {
  const auto r = MergeText("real-copy.json", RealReport().dump());
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out, "");
}

// A key given twice is refused by the project's JSON reader (65, the file and the pointer), not
// read as its last value.
TEST(FuzzMerge, AKeyGivenTwiceIsRefused) {
  std::string text = RealReport().dump();
  const size_t at = text.find("\"seed\":3");
  ASSERT_NE(at, std::string::npos) << text;
  text.insert(at, "\"seed\":4,");
  const auto r = MergeText("dup-key.json", text);
  EXPECT_EQ(r.code, 65) << r.out;
  EXPECT_NE(r.out.find("dup-key.json:/seed: duplicate key \"seed\""), std::string::npos) << r.out;
}

// A report not as carc fuzz --report writes it is refused (65), naming the file and the pointer
// of the first value wrong; the database is not touched. Each case changes one value of a real
// report.
TEST(FuzzMerge, AValueNotAsTheReportWritesItIsRefusedNamingItsPointer) {
  using nlohmann::json;
  const struct {
    const char* name;
    std::function<void(json&)> change;
    std::string message;  // after "<file>: "
  } cases[] = {
      {"top-unknown.json", [](json& j) { j["bogus"] = 1; }, "/bogus: unknown field (seed, "},
      {"game-unknown.json", [](json& j) { j["games"][0]["bogus"] = 1; },
       "/games/0/bogus: unknown field (game, "},
      {"game-check-seconds.json",  // the workers' form of a game, not the report's
       [](json& j) { j["games"][1]["check_seconds"] = json::object(); },
       "/games/1/check_seconds: unknown field"},
      {"key-with-slash.json", [](json& j) { j["a/b~c"] = 1; }, "/a~1b~0c: unknown field"},
      {"no-seed.json", [](json& j) { j.erase("seed"); }, "/seed: missing"},
      {"no-game-steps.json", [](json& j) { j["games"][1].erase("steps"); },
       "/games/1/steps: missing"},
      {"shard-3-of-2.json", [](json& j) { j["shard"] = "3/2"; }, "/shard: expected K/N"},
      {"shard-01.json", [](json& j) { j["shard"] = "01/1"; }, "/shard: expected K/N"},
      {"shard-number.json", [](json& j) { j["shard"] = 1; }, "/shard: expected K/N"},
      {"expansion-bogus.json", [](json& j) { j["expansions"] = {"bogus"}; },
       "/expansions/0: unknown expansion \"bogus\""},
      {"expansion-twice.json",
       [](json& j) {
         j["expansions"] = {"phantom", "phantom"};
       },
       "/expansions/1: expansion \"phantom\" given twice (first at /expansions/0)"},
      {"combinations-string.json", [](json& j) { j["combinations"] = "false"; },
       "/combinations: expected true or false"},
      {"players-9.json", [](json& j) { j["games"][0]["players"] = 9; },
       "/games/0/players: expected a whole number from 2 to 6, found 9"},
      {"scores-2-of-5.json",
       [](json& j) {
         j["games"][0]["scores"] = {1, 2};
       },
       "/games/0/scores: 2 scores in a game of 5 players"},
      {"score-negative.json", [](json& j) { j["games"][1]["scores"][2] = -1; },
       "/games/1/scores/2: expected a whole number from 0 to"},
      {"score-float.json", [](json& j) { j["games"][1]["scores"][0] = 16.0; },
       "/games/1/scores/0: expected a whole number"},
      {"decisions-negative.json", [](json& j) { j["games"][0]["decisions"] = -5; },
       "/games/0/decisions: expected a whole number from 0 to 1000000, found -5"},
      {"seed-negative.json", [](json& j) { j["seed"] = -1; },
       "/seed: expected a whole number from 0 to 18446744073709551615, found -1"},
      {"seed-string.json", [](json& j) { j["seed"] = "3"; },
       "/seed: expected a whole number from 0 to 18446744073709551615, found the string \"3\""},
      {"failure-number.json", [](json& j) { j["games"][0]["failure"] = 5; },
       "/games/0/failure: expected a string (the property that failed, \"\" if none), found 5"},
      {"game-negative.json", [](json& j) { j["games"][0]["game"] = -1; },
       "/games/0/game: expected a whole number from 0 to"},
      {"game-not-in-shard.json", [](json& j) { j["shard"] = "1/2"; },
       "/games/1/game: game 1 is not played by shard 1/2"},
      {"game-expansions.json", [](json& j) { j["games"][1]["expansions"] = {"phantom"}; },
       "/games/1/expansions: expected [] (the expansions game 1 of the run enables), found "
       "[\"phantom\"]"},
      {"step-zero.json", [](json& j) { j["games"][0]["steps"]["place_tile"] = 0; },
       "/games/0/steps/place_tile: expected a whole number from 1 to 142, found 0"},
      {"step-past-decisions.json", [](json& j) { j["games"][0]["steps"]["place_tile"] = 143; },
       "/games/0/steps/place_tile: expected a whole number from 1 to 142, found 143"},
      {"check-string.json", [](json& j) { j["games"][0]["checks"]["features"] = "16"; },
       "/games/0/checks/features: expected a whole number from 1 to"},
      {"checks-without-totals.json", [](json& j) { j.erase("check_runs"); },
       "/games/0/checks: the report has no \"check_runs\""},
      {"totals-without-checks.json", [](json& j) { j["games"][1].erase("checks"); },
       "/games/1/checks: missing"},
      {"not-an-object.json", [](json& j) { j = json::array(); },
       "not a report of carc fuzz --report (expected an object, found [])"},
      // The totals are the games' (step_visits: 142 + 71 place_tile decisions).
      {"visits-off.json", [](json& j) { j["step_visits"]["place_tile"] = 141; },
       "/step_visits/place_tile: 141, but the report's games give 142 decisions at the step"},
      {"visits-string.json", [](json& j) { j["step_visits"]["place_tile"] = "142"; },
       "/step_visits/place_tile: expected a whole number from 1 to"},
      {"reaching-missing.json", [](json& j) { j["games_reaching"].erase("place_figure"); },
       "/games_reaching/place_figure: missing, but the report's games give 2 games reaching the "
       "step"},
      {"runs-surplus.json", [](json& j) { j["check_runs"]["bogus"] = 1; },
       "/check_runs/bogus: 1, but the report's games give 0 runs of the check"},
      {"runs-not-object.json", [](json& j) { j["check_runs"] = json::array(); },
       "/check_runs: expected an object, found []"},
  };
  for (const auto& c : cases) {
    json report = RealReport();
    c.change(report);
    const auto r = MergeText(c.name, report.dump());
    EXPECT_EQ(r.code, 65) << c.name << ": " << r.out;
    EXPECT_NE(
        r.out.find(std::string("carc: fuzz merge: ") + Dir() + "/" + c.name + ": " + c.message),
        std::string::npos)
        << c.name << ": " << r.out;
    EXPECT_EQ(r.out.find("json.exception"), std::string::npos) << r.out;
    std::ifstream db(Dir() + "/" + c.name + ".db");
    EXPECT_FALSE(db.good()) << c.name << ": the database was made";
  }
}

// A game given twice in one merge is refused naming both places (65), in one report (the second
// copy with a failure, which replaced the first) or in two (a report named twice under two
// names, as two shards claiming one game); nothing is stored.
TEST(FuzzMerge, AGameGivenTwiceIsRefusedNamingBothPlaces) {
  nlohmann::json twice = RealReport();
  nlohmann::json copy = twice["games"][0];
  copy["failure"] = "x";
  twice["games"].push_back(copy);
  const auto r = MergeText("game-twice.json", twice.dump());
  EXPECT_EQ(r.code, 65) << r.out;
  EXPECT_NE(r.out.find("carc: fuzz merge: " + Dir() +
                       "/game-twice.json: /games/2: game 0 is listed twice (first at /games/0)"),
            std::string::npos)
      << r.out;

  const std::string d = Dir();
  std::ofstream(d + "/first.json") << RealReport().dump();
  std::ofstream(d + "/second.json") << RealReport().dump();
  const auto two = Shell("(" + std::string(CARC_BINARY) + " fuzz merge --db " + d + "/two.db " + d +
                             "/first.json " + d + "/second.json >/dev/null) 2>&1",
                         /*merge_stderr=*/true);
  EXPECT_EQ(two.code, 65) << two.out;
  EXPECT_NE(two.out.find("carc: fuzz merge: " + d + "/second.json: /games/0: game 0 of this run " +
                         "is given twice (first at " + d + "/first.json: /games/0)"),
            std::string::npos)
      << two.out;
  EXPECT_FALSE(std::ifstream(d + "/two.db").good()) << "the database was made";
}

}  // namespace
}  // namespace carc::prop
