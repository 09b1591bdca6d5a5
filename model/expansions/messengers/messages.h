#pragma once
// Carrying out the eight messages (MSG-1 .. MSG-8) and the 2-point seal (MSG-RESOLVE).
// Internal to the module.

#include <optional>
#include <string>
#include <vector>

#include "model/core/action.h"
#include "model/core/module_loader.h"
#include "model/core/position.h"
#include "model/expansions/messengers/state.h"

namespace carc::exp::messengers {

// The possible targets of message m for player p: for 1-3 the smallest features holding a
// figure of p (ties: several, MSG-Q-SMALLEST), for 8 every figure of p on the board (MSG-8);
// each named by a node (for 1-3 the node of p's first figure in it). Empty: nothing to score.
// Other messages have no target.
std::vector<int> Targets(const model::Position& pos, Message m, PlayerId p);
bool HasTarget(Message m);

// Checks the chosen target of message m (node, or -1 when the question named none; for 8 also
// the figure kind, or -1) and resolves it: a legal verdict with `node` (-1: nothing to score)
// and for 8 `figure` (the index of the figure that returns), an illegal verdict citing the
// message's ruling, or `input_error` naming the missing choice (the feature, or for 8 the figure
// kind when two of the player's kinds share the segment).
struct TargetCheck {
  model::Verdict verdict;
  std::string input_error;
  int node = -1;
  int figure = -1;
};
TargetCheck CheckTarget(const model::Position& pos, Message m, PlayerId p, int node,
                        int figure_kind = -1);

// The distinct figure kinds of player p standing on segment `node` (message 8's choice).
std::vector<int> OwnKindsAt(const model::Position& pos, int node, PlayerId p);

// Carries out message m (not 4, which the step handles) for the active player; points go
// through model::AwardPoints. For 8, `figure` is the figure that returns (CheckTarget). Events
// and notes go to `out`.
void CarryOut(model::Position& pos, Message m, int node, model::ApplyResult& out, int figure = -1);

// The 2-point seal (MSG-RESOLVE).
void TakeSeal(model::Position& pos, Message m, model::ApplyResult& out);

// "message 6 (2 points per knight)" in the position's printing (MSG-FN2).
std::string MessageLabel(const State& s, Message m);

// Is a message due for the active player now, ignoring a message in hand (steps.cc)? The reason
// names the ruling that gives it (MSG-DARK, MSG-SECOND, MSG-FN15).
std::optional<model::Reason> Due(const model::Position& pos, const State& s);

// The ruling on one of the module's actions that the turn cannot take where it stands (steps.cc;
// Messengers::JudgeOutOfStep): a message when none is due (MSG-ONE, MSG-SECOND, MSG-FN15,
// MSG-FN1, MSG-Q-MOVED, MSG-DARK, MSG-ACTIVE), points assigned when none wait (MSG-CHOOSE), a
// message while points wait for their figure (MSG-CHOOSE, MSG-FN13).
std::optional<model::Verdict> OutOfStepRuling(const model::Position& pos, const model::Action& a);

// The two steps (steps.cc): assign_points after the core scoring step, message before the end of
// the turn.
void DeclareSteps(model::ModuleLoader& loader);

}  // namespace carc::exp::messengers
