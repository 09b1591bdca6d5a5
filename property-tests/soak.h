#pragma once
// The soak behind `carc fuzz`: random full games (seeded PRNG, no RapidCheck; each game's spec
// from SeededSpec, gen_game.h: choices leaning toward the expansions' actions) through every
// check of checks.h, with a progress line, until N games or S seconds; a failing game is shrunk
// greedily (shorter draw order, fewer and lower choices) and written out as a position file.

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "property-tests/checks.h"

namespace carc::prop {

struct SoakOptions {
  long games = 0;      // stop after this many games (0: no limit)
  double seconds = 0;  // stop after this long (0: no limit)
  uint64_t seed = 1;
  std::vector<std::string> expansions;  // enabled in every game
  // Game n plays combination n (mod their number) of every subset of `expansions` (base game
  // included), instead of all of them in every game.
  bool combinations = false;
  std::string out = "carc-fuzz-counterexample.json";
  // Shard `shard` of `shards` (1-based): the run draws the same sequence of games as the
  // unsharded one (game n from the seed, in order) and plays those with n % shards == shard - 1,
  // so N shards together play exactly the unsharded run's games. `games` counts the whole run.
  int shard = 1;
  int shards = 1;
  // Progress rewrites one line with \r (a terminal); false: one line per report (a log file).
  bool rewrite_progress = true;
  SoakPolicy policy;  // which decisions get the costlier checks (checks.h; --every-decision)
  // Worker processes (`--jobs`, soak_jobs.cc): each takes the shard's next game when free; the
  // result is the one of jobs = 1.
  int jobs = 1;
  // The checks run on each game and on each shrinking candidate: CheckAll when empty. Tests
  // plant a failing property here.
  std::function<std::optional<Failure>(const Game&, uint64_t salt, const SoakPolicy&, CheckTally*)>
      check;
};

// What one played game gave (the soak report and the database rows merged from shards).
struct SoakGame {
  long index = 0;  // n: the game's place in the seed's sequence
  std::vector<std::string> expansions;
  int players = 0;
  int decisions = 0;
  std::vector<int> scores;           // final scores
  std::string failure;               // the property that failed, "" if none
  std::map<std::string, int> steps;  // decisions taken at each step (StepVisits: its name)
  CheckTally checks;  // each check's runs and time on this game (with seeding and playout)
};

struct SoakResult {
  long games = 0;  // played by this shard
  long decisions = 0;
  double seconds = 0;
  std::optional<Failure> failure;  // shrunk
  GameSpec failing_spec;
  std::vector<SoakGame> played;                // in order
  std::map<std::string, long> step_visits;     // decisions per step name, over all games
  std::map<std::string, long> games_reaching;  // games with at least one decision at the step
  CheckTally checks;  // how often each check ran, and its time (the games played, not shrinking)
};

// The report written by `carc fuzz --report FILE` and read by `carc fuzz merge`.
nlohmann::json SoakReportJson(const SoakOptions& opts, const SoakResult& r);
// One game as the report states it; with_seconds adds each check's time ("check_seconds", for
// the workers of --jobs, not in the report). SoakGameFromJson reads either form back.
nlohmann::json SoakGameJson(const SoakGame& g, bool with_seconds);
SoakGame SoakGameFromJson(const nlohmann::json& j);
// Empty when `j` is a report as SoakReportJson writes it, else "<JSON pointer>: what is wrong"
// (`carc fuzz merge` exits 65 with it). A report from before the per-check counts, with no
// "check_runs" and no game's "checks", is one too. Each field is known, of its type and range:
// seed 0 to 2^64 - 1, shard K/N as --shard takes it, expansions known and each once; per game:
// an index of the shard, the expansions the run enabled in it, 2 to 6 players and a score each.
std::string CheckSoakReport(const nlohmann::json& j);

// The pieces RunSoak is made of (soak_jobs.cc runs them in worker processes).
// The expansions, spec and checks' salt of game `index` of the run (as any shard draws it).
struct GameDraw {
  GameSpec spec;
  uint64_t salt = 0;
};
GameDraw GameAt(const SoakOptions& opts, long index);
// opts.check (or CheckAll) on a game.
std::optional<Failure> SoakCheck(const SoakOptions& opts, const Game& g, uint64_t salt,
                                 CheckTally* tally);
// Plays the games of the run for which mine(index) holds, in index order, until opts.games or
// opts.seconds (from the call) or until stop_before(index) holds; stops after the first failing
// game (unshrunk, in *failure). on_game sees each game played.
std::vector<SoakGame> PlayGames(const SoakOptions& opts, const std::function<bool(long)>& mine,
                                const std::function<bool(long)>& stop_before,
                                const std::function<void(const SoakGame&)>& on_game,
                                std::optional<Failure>* failure);
// The totals of games played (sorted by index here): counts, per-step visits, check tally.
SoakResult Summarize(std::vector<SoakGame> played);
// Writes the failure `f` of game `index` to opts.out at once, shrinks the game, rewrites the
// file with the shrunk failure and stores it (and its spec) in *res.
void ShrinkAndWrite(const SoakOptions& opts, long index, const Failure& f, SoakResult* res,
                    std::ostream& progress);
inline constexpr int kMaxSoakJobs = 256;  // --jobs at most
// The soak with opts.jobs >= 2 worker processes (soak_jobs.cc). Throws SoakAborted when a worker
// dies or the run is interrupted.
SoakResult RunSoakJobs(const SoakOptions& opts, std::ostream& progress);
struct SoakAborted : std::runtime_error {
  SoakAborted(const std::string& what, bool interrupted)
      : std::runtime_error(what), interrupted(interrupted) {}
  bool interrupted;  // SIGINT or SIGTERM (else a worker died or failed)
};

// Runs the soak (with opts.jobs >= 2: RunSoakJobs); progress goes to `progress` (a line
// rewritten with \r). On a failure writes {"failure", "spec", "position"} to opts.out and the
// position alone to <out>.position.json.
SoakResult RunSoak(const SoakOptions& opts, std::ostream& progress);

// Greedy shrinking of a failing spec under `fails` (true while it still fails).
GameSpec ShrinkSpec(GameSpec spec, const std::function<bool(const GameSpec&)>& fails);

}  // namespace carc::prop
