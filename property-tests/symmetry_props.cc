// Symmetry and leak properties: translating the board, or turning it a quarter with
// every tile, changes no legal action and no score from a random step to the end of the game;
// enabling an expansion whose components never come into play changes nothing.
#include <gtest/gtest.h>

#include "model/expansions/registry.h"
#include "property-tests/board_transform.h"
#include "property-tests/rc_support.h"

namespace carc::prop {
namespace {

RC_GTEST_PROP(Symmetry, TranslatingTheBoardChangesNothing, ()) {
  const GameSpec spec = *GenAnySpec();
  const int step = *GenStep();
  const BoardTransform t{0, *rc::gen::inRange(-100, 101), *rc::gen::inRange(-100, 101)};
  Report(CheckTransformed(PlayOrFail(spec), step, t), spec);
}

RC_GTEST_PROP(Symmetry, RotatingTheBoardWithEveryTileChangesNothing, ()) {
  const GameSpec spec = *GenAnySpec();
  const int step = *GenStep();
  const BoardTransform t{*rc::gen::inRange(1, 4), *rc::gen::inRange(-5, 6),
                         *rc::gen::inRange(-5, 6)};
  Report(CheckTransformed(PlayOrFail(spec), step, t), spec);
}

// For every landed expansion: the same choices with the expansion enabled but never used (its
// figures never placed) give the same legal actions, score events and final scores.
RC_GTEST_PROP(Expansions, EnabledButUnusedChangesNothing, ()) {
  const std::string id = *rc::gen::elementOf(CoveredExpansions());
  std::vector<std::vector<std::string>> without;
  for (const auto& c : ExpansionCombinations())
    if (std::find(c.begin(), c.end(), id) == c.end()) without.push_back(c);
  const GameSpec spec = *GenSpec(without);
  RC_TAG(id);
  Report(CheckUnusedExpansion(spec, id), spec);
}

}  // namespace
}  // namespace carc::prop
