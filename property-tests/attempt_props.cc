// every move a player can attempt gets a ruling. At positions of random games (a
// window of decisions from a random step, and the position after the end of the game), every
// action the model knows that was taken or listed anywhere in the same game is written out
// (DumpAction, at its own position) and read back at this position (ParseAction):
//  - either it is not a move here at all (a parse error: exit 65, e.g. a figure on a segment
//    the tile at that square lacks, a tile that is not on the board),
//  - or Apply rules on it (exit 0 legal / 1 illegal): no input error, and a refusal names a
//    ruling ID with a sentence.
// Out of step, out of turn, after the end of the turn or of the game, beyond a limit: all are
// rulings. Excluded, and only these: chance outcomes (a tile, message, gift or card drawn that
// the supply or deck does not hold: the question misstates the draw, not a player's move), and
// an action given while the position waits for a draw from a pile of unknown order that the
// question does not state (Step::ChanceToState: an incomplete question, exit 65 naming it), or
// a choice the action leaves unstated (a target, a tile, a figure's new feature: the guide's
// strictness rule, exit 65 naming the choice: the refusal says "state ...").
// Base game and all 16 expansion combinations, 2-6 players.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"
#include "property-tests/check_util.h"
#include "property-tests/rc_support.h"

namespace carc::prop {
namespace {

using model::Action;
using model::ActionType;
using model::ApplyResult;
using model::Position;
using nlohmann::json;

// Actions whose named outcome is chance (which tile, message, gift or card comes up).
bool IsChance(const json& j) {
  static const std::set<std::string> kChance = {"draw", "draw_message", "gift_draw",
                                                "xmas_draw_card"};
  return kChance.count(j.value("type", "")) > 0;
}

std::optional<Failure> CheckAttempts(const Position& pos,
                                     const std::map<std::string, json>& cands) {
  const auto ctx = exp::Context("attempt.json");
  for (const auto& [key, j] : cands) {
    auto parsed = model::ParseAction(j, pos, "/attempt", ctx);
    if (!parsed.ok()) continue;  // not a move in this position: exit 65 is right
    Position p = pos;
    ApplyResult r = model::Apply(p, *parsed, /*finish_turn=*/false);
    if (!r.input_error.empty()) {
      if (IsChance(j)) continue;
      if (r.input_error.find("does not state") != std::string::npos ||
          r.input_error.find("must state") != std::string::npos ||
          r.input_error.find("state ") != std::string::npos)
        continue;  // an unstated draw or choice
      return Fail("attempt-ruled",
                  "a well-formed action got no ruling (input error: " + r.input_error + ")", pos,
                  &*parsed);
    }
    if (r.verdict.legal) continue;
    if (r.verdict.reasons.empty() || r.verdict.reasons[0].ruling.empty() ||
        r.verdict.reasons[0].text.empty())
      return Fail("attempt-ruled", "an action was refused without a ruling ID and a sentence", pos,
                  &*parsed);
  }
  return std::nullopt;
}

RC_GTEST_PROP(Attempts, EveryWellFormedActionGetsARuling, ()) {
  const GameSpec spec = *GenAnySpec(/*max_tiles=*/30);
  const int step = *GenStep();
  const Game g = PlayOrFail(spec);
  if (g.decisions() == 0) return;
  const int from = step % g.decisions();
  const int to = std::min(g.decisions(), from + 5);
  // The candidates: every action taken in the game, and every action listed in the window.
  std::map<std::string, json> cands;
  for (int i = 0; i < g.decisions(); ++i) {
    json j = model::DumpAction(g.before[i], g.actions[i]);
    cands.emplace(j.dump(), j);
  }
  for (int i = from; i < to; ++i)
    for (const Action& a : model::LegalActions(g.before[i])) {
      json j = model::DumpAction(g.before[i], a);
      cands.emplace(j.dump(), j);
    }
  for (int i = from; i < to; ++i) Report(CheckAttempts(g.before[i], cands), spec);
  Report(CheckAttempts(g.final_pos, cands), spec);
}

}  // namespace
}  // namespace carc::prop
