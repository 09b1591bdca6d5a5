#pragma once
// The soak behind `carc fuzz`: random full games (seeded PRNG, no RapidCheck) through every
// check of checks.h, with a progress line, until N games or S seconds; a failing game is shrunk
// greedily (shorter draw order, fewer and lower choices) and written out as a position file.

#include <cstdint>
#include <iosfwd>
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
};

struct SoakResult {
  long games = 0;
  long decisions = 0;
  double seconds = 0;
  std::optional<Failure> failure;  // shrunk
  GameSpec failing_spec;
};

// Runs the soak; progress goes to `progress` (a line rewritten with \r). On a failure writes
// {"failure", "spec", "position"} to opts.out and the position alone to <out>.position.json.
SoakResult RunSoak(const SoakOptions& opts, std::ostream& progress);

// Greedy shrinking of a failing spec under `fails` (true while it still fails).
GameSpec ShrinkSpec(GameSpec spec, const std::function<bool(const GameSpec&)>& fails);

}  // namespace carc::prop
