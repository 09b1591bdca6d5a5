// State properties: position files round-trip, figures are conserved, score events
// add up and no score falls, incremental features equal a recomputation, and a game record
// replays to the same end. At every decision of games of every expansion combination.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "property-tests/brute_force.h"
#include "property-tests/rc_support.h"

namespace carc::prop {
namespace {

RC_GTEST_PROP(State, PositionFilesRoundTripAtEveryStep, ()) {
  const GameSpec spec = *GenAnySpec();
  const Game g = PlayOrFail(spec);
  for (const auto& pos : g.before) Report(CheckRoundTrip(pos), spec);
  Report(CheckRoundTrip(g.final_pos), spec);
}

RC_GTEST_PROP(State, FiguresAreConserved, ()) {
  const GameSpec spec = *GenAnySpec();
  const Game g = PlayOrFail(spec);
  for (const auto& pos : g.before) Report(CheckConservation(pos), spec);
  Report(CheckConservation(g.final_pos), spec);
}

RC_GTEST_PROP(State, ScoreEventsAddUpAndNoScoreFalls, ()) {
  const GameSpec spec = *GenAnySpec();
  const Game g = PlayOrFail(spec);
  for (int i = 0; i < g.decisions(); ++i) {
    const auto& next = i + 1 < g.decisions() ? g.before[i + 1] : g.final_pos;
    Report(CheckScoreEvents(g.before[i], g.actions[i], g.results[i], next), spec);
  }
}

RC_GTEST_PROP(State, IncrementalFeaturesEqualRecomputation, ()) {
  const GameSpec spec = *GenAnySpec();
  const int root = *rc::gen::inRange(0, 72);  // the tile the rebuild starts from
  const Game g = PlayOrFail(spec);
  for (const auto& pos : g.before) Report(CheckFeatures(pos, root), spec);
  Report(CheckFeatures(g.final_pos, root), spec);
}

RC_GTEST_PROP(State, ReplayingTheRecordReproducesTheGame, ()) {
  const GameSpec spec = *GenAnySpec();
  Report(CheckReplay(PlayOrFail(spec), /*full_dumps=*/true), spec);
}

// The soak compares positions by StatedHash (brute_force.cc), its own list of what the position
// file states. At a few decisions of each game, the positions every legal action leads to: two of
// them have the same hash exactly when their files are the same (a field the hash forgot shows as
// two files with one hash; one it should not read, as one file with two hashes).
RC_GTEST_PROP(State, StatedHashTellsPositionsApartAsTheirFilesDo, ()) {
  const GameSpec spec = *GenAnySpec();
  const Game g = PlayOrFail(spec);
  if (g.decisions() == 0) return;
  for (int probe = 0; probe < 3; ++probe) {
    const int k = *rc::gen::inRange(0, g.decisions());
    std::map<std::string, uint64_t> hash_of;
    std::map<uint64_t, std::string> file_of;
    int tried = 0;
    for (const model::Action& a : model::LegalActions(g.before[k])) {
      if (++tried > 40) break;
      model::Position after = g.before[k];
      model::Apply(after, a);
      const std::string file = model::DumpPosition(after).dump();
      const uint64_t hash = StatedHash(after, false);
      auto [fi, new_file] = hash_of.emplace(file, hash);
      auto [hi, new_hash] = file_of.emplace(hash, file);
      if (fi->second != hash || hi->second != file)
        Report(Failure{"stated-hash",
                       "decision " + std::to_string(k) + ": " +
                           (fi->second != hash ? "one position file, two hashes"
                                               : "two position files, one hash"),
                       model::DumpPosition(g.before[k]), model::DumpAction(g.before[k], a)},
               spec);
    }
  }
}

}  // namespace
}  // namespace carc::prop
