// The lean path and the explained path are one rules implementation: a position with
// Position::explain false (engines, perft, random games) builds no reason, note or score text,
// and must decide exactly as one with explain true (the adjudicator). Both play the same game in
// lockstep; at every decision the legal lists are equal, every action is legal on both or on
// neither, and the positions (board, figures, scores, supply, turn, every expansion's state, as
// the position file dumps them) stay equal up to final scoring. Base game and all 16 expansion
// combinations, 2-6 players; the seed is printed on failure (README.md: reproducing).
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "property-tests/rc_support.h"

namespace carc::prop {
namespace {

using model::Action;
using model::ApplyResult;
using model::Position;

// The first difference between the two paths playing `spec`, or "" when there is none.
std::string LockstepDifference(const GameSpec& spec) {
  auto parsed = ParseJson(StartJson(spec), "start.json");
  if (!parsed.ok()) return "start position does not parse: " + parsed.status().message();
  Position explained = std::move(*parsed);
  explained.explain = true;
  Position lean = explained;
  lean.explain = false;
  ApplyResult first_e, first_l;
  model::Advance(explained, first_e);
  model::Advance(lean, first_l);
  size_t k = 0;
  for (int n = 0; n < 1000 && !explained.turn.game_over; ++n) {
    const std::string where = "decision " + std::to_string(n) + " at step " +
                              std::string(explained.current_step().Name());
    if (model::DumpPosition(explained) != model::DumpPosition(lean))
      return where + ": the positions differ: explained " + model::DumpPosition(explained).dump() +
             " lean " + model::DumpPosition(lean).dump();
    const std::vector<Action> legal_e = model::LegalActions(explained);
    const std::vector<Action> legal_l = model::LegalActions(lean);
    if (legal_e != legal_l)
      return where + ": the legal lists differ (" + std::to_string(legal_e.size()) +
             " explained, " + std::to_string(legal_l.size()) + " lean)";
    if (legal_e.empty()) return where + ": no legal action in a game that is not over";
    size_t i = 0;
    if (legal_e.size() > 1) {
      const int c = k < spec.choices.size() ? spec.choices[k] : 0;
      ++k;
      i = static_cast<size_t>(c < 0 ? -static_cast<long>(c) : c) % legal_e.size();
    }
    const std::string what = model::Describe(explained, legal_e[i]);
    const ApplyResult re = model::Apply(explained, legal_e[i]);
    const ApplyResult rl = model::Apply(lean, legal_l[i]);
    if (re.verdict.legal != rl.verdict.legal || re.input_error != rl.input_error)
      return where + ": " + what + " is judged differently";
    if (!re.verdict.legal || !re.input_error.empty())
      return where + ": the listed action " + what + " was refused";
    // The base game's lean path builds no reason text (the expansions' steps may still).
    if (spec.expansions.empty() && !rl.verdict.reasons.empty())
      return where + ": the lean path built reasons for " + what;
  }
  if (!explained.turn.game_over) return "the game did not end after 1000 decisions";
  if (!lean.turn.game_over) return "the lean game did not end with the explained one";
  if (model::DumpPosition(explained) != model::DumpPosition(lean))
    return "after final scoring the positions differ: explained " +
           model::DumpPosition(explained).dump() + " lean " + model::DumpPosition(lean).dump();
  return "";
}

RC_GTEST_PROP(LeanExplained, SameLegalListsPositionsAndScores, ()) {
  const GameSpec spec = *GenAnySpec();
  RC_TAG(spec.expansions.empty() ? std::string("base") : SpecJson(spec)["expansions"].dump());
  const std::string diff = LockstepDifference(spec);
  if (!diff.empty()) RC_FAIL(diff + "\nspec: " + SpecJson(spec).dump());
}

// Every one of the 16 combinations at least once per run, with full-length uniformly random games
// (the RapidCheck property above draws combinations at random). Fixed seeds, printed on failure.
TEST(LeanExplained, EveryCombinationFullGames) {
  const auto combos = ExpansionCombinations();
  ASSERT_EQ(combos.size(), 16u);  // base + 4 expansions: 2^4 combinations
  for (size_t c = 0; c < combos.size(); ++c)
    for (uint64_t seed = 1; seed <= 2; ++seed) {
      std::mt19937_64 rng(1000 * c + seed);
      GameSpec spec = RandomSpec(rng, combos[c]);
      SCOPED_TRACE("combination " + std::to_string(c) + " seed " + std::to_string(1000 * c + seed) +
                   " spec " + SpecJson(spec).dump());
      EXPECT_EQ(LockstepDifference(spec), "");
    }
}

}  // namespace
}  // namespace carc::prop
