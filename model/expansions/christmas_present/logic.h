#pragma once
// Christmas Present rules: when cards are drawn, when and how each card may be played, and what
// it does. The turn steps (steps.cc) and the scoring hooks (scoring_hooks.cc) call these.

#include <span>
#include <vector>

#include "model/core/action.h"
#include "model/core/position.h"
#include "model/expansions/christmas_present/actions.h"
#include "model/expansions/christmas_present/state.h"

namespace carc::exp::christmas_present {

// The moments of a turn at which cards are played (see this module's README, "Turn steps").
enum class Window {
  kTurnStart,  // before the draw: take-two-tiles (and any no-symbol card, if stated)
  kPlacement,  // after the tile is drawn, before it is placed: the active player's cards whose
               // effect does not need the placed tile (XMAS-USE, XMAS-Q-ANYTIME)
  kEarly,      // after the tile and the card draws, before the figure placement
  kLate,       // after every figure placement, before completed features are scored
  kForce,      // XMAS-Q-FORCE opponent-turn-on-draw: an opponent, after the active player drew
  kGameEnd,    // no tile left, before final scoring: end cards that need a choice
};

// XMAS-DRAW-MONASTERY / XMAS-DRAW-ROAD: may the active player draw from `deck` for the tile
// placed this turn?
bool QualifiesDraw(const model::Position& pos, Deck deck);

bool IsLaidDown(const model::Position& pos, const State& s, int root);
// XMAS-CARD-LAY-DOWN-*, XMAS-FN11: every figure on a laid-down feature lies (written
// "posture": "lying"); with `through_tile` >= 0 only the features running through that tile
// (a tile joining features, called right after the tile is placed).
// (A position file that leaves a posture out gets it from the core: Excuse::kLaidDown.)
// Returns how many figures it laid down.
int LayDownFigures(model::Position& pos, const State& s, int through_tile = -1);
// XMAS-FN12: a laid-down feature's value is fixed now and paid at game end: `ev` (its winners
// and points) is recorded as deferred on `root` and then shows 0 points.
void Defer(const model::Position& pos, State& s, int root, model::ScoreEvent& ev);
// A completed road, city or monastery that this turn's scoring step will score.
bool PendingScoring(const model::Position& pos, int root);
// Figures per player in a feature (figure strength), without cards.
std::vector<int> RawStrength(const model::Position& pos, int root);
// RawStrength into `st` (one entry per player, all written): no allocation.
void RawStrengthInto(const model::Position& pos, int root, std::span<int> st);
int Copies(const std::vector<Card>& hand, Card c);

// Checks a play; legal verdicts carry the reasons.
model::Verdict CheckPlay(const model::Position& pos, const Play& p, Window w);
// Every legal play of `player` at window `w` (one action per distinct card and target). Lean:
// no verdict text is built.
void ListPlays(const model::Position& pos, Window w, model::PlayerId player,
               std::vector<model::Action>& out);
// Whether `player` has a legal play at `w`: stops at the first one, builds no text.
bool AnyPlay(const model::Position& pos, Window w, model::PlayerId player);
// Checks and applies a play: the card leaves the hand; an attack waits for the opponents'
// answer (XMAS-FN8), anything else acts at once.
model::ApplyResult PlayCard(model::Position& pos, const model::Action& a, Window w);
// The cancel window: xmas_cancel / xmas_allow by the first waiting opponent.
model::ApplyResult AnswerAttack(model::Position& pos, const model::Action& a);
void ListAnswers(const model::Position& pos, std::vector<model::Action>& out);

// The player who decides at the game-end window, or -1.
model::PlayerId GameEndDecider(const model::Position& pos);

// Moves one copy of `c` from a hand to the discard pile (XMAS-FN2: never reshuffled).
void Discard(State& s, model::PlayerId p, Card c);

}  // namespace carc::exp::christmas_present
