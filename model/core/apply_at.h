#pragma once
// Apply (rules.h) of many actions tried one by one at one position: the property tests' brute
// force applies every candidate action to a copy of the position it checks (issue 21).

#include <cstdint>

#include "model/core/action.h"
#include "model/core/position.h"

namespace carc::model {

// What Apply asks of the position alone, whatever the action: whether each step the turn has
// gone through needs a decision (a card window's answer looks for a card that can be played),
// and, when the current step needs none, whether the rest of the turn, run on, ends the turn.
// Each is asked on first need.
struct PositionAnswers {
  uint64_t asked = 0;          // by step index (below 64; a later step is asked every time)
  uint64_t needs = 0;          // the steps asked that need a decision
  int8_t rest_ends_turn = -1;  // -1: not asked yet
};

// Apply of one action after another, each to a position equal to the first one given (a fresh
// copy of one position, its `explain` flag included, or the position a refusal left unchanged):
// the answers to what Apply asks of the position alone are kept from one action to the next.
// Apply is this with answers for one action: the same code, so the same verdicts, scores and
// positions as Apply for each action.
class ApplyAt {
 public:
  ApplyResult Apply(Position& pos, const Action& action, bool finish_turn = true);

 private:
  PositionAnswers answers_;
};

}  // namespace carc::model
