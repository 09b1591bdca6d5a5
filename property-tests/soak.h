#pragma once
// The soak behind `carc fuzz`: random full games (seeded PRNG, no RapidCheck; each game's spec
// from SeededSpec, gen_game.h: choices leaning toward the expansions' actions) through every
// check of checks.h, with a progress line, until N games or S seconds; a failing game is shrunk
// greedily (shorter draw order, fewer and lower choices) and written out as a position file.

#include <cstdint>
#include <iosfwd>
#include <map>
#include <optional>
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
};

// What one played game gave (the soak report and the database rows merged from shards).
struct SoakGame {
  long index = 0;  // n: the game's place in the seed's sequence
  std::vector<std::string> expansions;
  int players = 0;
  int decisions = 0;
  std::vector<int> scores;  // final scores
  std::string failure;      // the property that failed, "" if none
  std::map<std::string, int> steps;  // decisions taken at each step (StepVisits: its name)
};

struct SoakResult {
  long games = 0;  // played by this shard
  long decisions = 0;
  double seconds = 0;
  std::optional<Failure> failure;  // shrunk
  GameSpec failing_spec;
  std::vector<SoakGame> played;                 // in order
  std::map<std::string, long> step_visits;      // decisions per step name, over all games
  std::map<std::string, long> games_reaching;   // games with at least one decision at the step
  CheckTally checks;  // how often each check ran, and its time (the games played, not shrinking)
};

// The report written by `carc fuzz --report FILE` and read by `carc fuzz merge`.
nlohmann::json SoakReportJson(const SoakOptions& opts, const SoakResult& r);

// Runs the soak; progress goes to `progress` (a line rewritten with \r). On a failure writes
// {"failure", "spec", "position"} to opts.out and the position alone to <out>.position.json.
SoakResult RunSoak(const SoakOptions& opts, std::ostream& progress);

// Greedy shrinking of a failing spec under `fails` (true while it still fails).
GameSpec ShrinkSpec(GameSpec spec, const std::function<bool(const GameSpec&)>& fails);

}  // namespace carc::prop
