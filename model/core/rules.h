#pragma once
// The rules API (cf. OpenSpiel's State): legal actions, apply, validate, final scoring.

#include <optional>
#include <string>
#include <vector>

#include "model/core/action.h"
#include "model/core/position.h"

namespace carc::model {

// Every legal action at the current step, in a deterministic order.
std::vector<Action> LegalActions(const Position& pos);
// The same list into `out` (cleared first), whose buffer a caller listing decision after
// decision reuses (the soak's games).
void LegalActionsInto(const Position& pos, std::vector<Action>& out);

// Actions the current decision step does not take itself but accepts by passing itself
// implicitly: at the core figure step, the figures a later step of the same turn places alone
// (PH-ALONE: an expansion figure without a meeple). `carc legal` lists them with LegalActions,
// so that the list is the set of actions Apply accepts there; LegalActions, Perft and the
// generators leave them out (each is the sequence pass + that figure, counted once).
std::vector<Action> ShortcutActions(const Position& pos);

// Applies one action. Illegal: pos is left unchanged and the verdict says why, with rulings.
// Legal: the turn runs on through every step that needs no decision (scoring, end of turn,
// the next draw when the draw order is known, final scoring at the end of the game).
// With finish_turn false the position stays right after the action (a later action of the same
// turn can still be judged against it, e.g. a figure after the last one allowed); call Advance to
// finish.
ApplyResult Apply(Position& pos, const Action& action, bool finish_turn = true);

// An action arriving after the current step was decided, before the turn moved on, may be
// ruled on by that step (a second meeple, a figure after an expansion's last figure). nullopt: no
// objection.
std::optional<Verdict> JudgeAfterDecision(const Position& pos, const Action& action);

// Runs the steps that need no decision from the current one on. Used after parsing a file.
void Advance(Position& pos, ApplyResult& result);

// Can this position arise under the rules? Each violation names its ruling.
std::vector<Violation> Validate(const Position& pos);

// Final scoring of a copy of the position as it stands (BASE-END-*), for `carc score`.
std::vector<ScoreEvent> ScoreFinal(Position& pos);

// Perft: the number of action sequences of the given depth (chance draws count as actions).
uint64_t Perft(const Position& pos, int depth);

// Human-readable description of an action, in position-file terms.
std::string Describe(const Position& pos, const Action& a);

}  // namespace carc::model
