// Legality properties: what LegalActions lists applies and validates; what it does not
// list is refused; the list equals a brute-force enumeration. Base game and every expansion
// combination, 2-6 players.
#include <gtest/gtest.h>

#include "property-tests/rc_support.h"

namespace carc::prop {
namespace {

RC_GTEST_PROP(Legality, EveryListedActionAppliesAndValidates, ()) {
  const GameSpec spec = *GenAnySpec();
  const Game g = PlayOrFail(spec);
  for (const auto& pos : g.before) Report(CheckListedActionsApply(pos), spec);
  Report(CheckListedActionsApply(g.final_pos), spec);
}

RC_GTEST_PROP(Legality, ActionsOutsideTheListAreRefused, ()) {
  const GameSpec spec = *GenAnySpec();
  const auto raws = *GenRawActions();
  const Game g = PlayOrFail(spec);
  for (const auto& pos : g.before) Report(CheckOutsideRefused(pos, raws), spec);
}

// Brute force is costly (every square of the bounding box x 4 rotations, applied on a copy), so
// it runs on a window of 8 decisions starting at a random step of the game.
RC_GTEST_PROP(Legality, ListEqualsBruteForce, ()) {
  const GameSpec spec = *GenAnySpec();
  const int step = *GenStep();
  const Game g = PlayOrFail(spec);
  if (g.decisions() == 0) return;
  const int from = step % g.decisions();
  for (int i = from; i < std::min(g.decisions(), from + 8); ++i)
    Report(CheckBruteForce(g.before[i]), spec);
  Report(CheckBruteForce(g.final_pos), spec);
}

}  // namespace
}  // namespace carc::prop
