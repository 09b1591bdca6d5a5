// State properties (issue 7): position files round-trip, figures are conserved, score events
// add up and no score falls, incremental features equal a recomputation, and a game record
// replays to the same end. At every decision of games of every expansion combination.
#include <gtest/gtest.h>

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
  Report(CheckReplay(PlayOrFail(spec)), spec);
}

}  // namespace
}  // namespace carc::prop
