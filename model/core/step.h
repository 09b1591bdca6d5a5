#pragma once
// A turn step. The core pipeline is draw -> place_tile -> place_figure -> score -> end_turn;
// expansions insert their own steps before or after these named anchors.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/action.h"

namespace carc::model {

class Position;

inline constexpr std::string_view kDrawTile = "draw";
inline constexpr std::string_view kPlaceTile = "place_tile";
inline constexpr std::string_view kPlaceFigure = "place_figure";
inline constexpr std::string_view kScoreCompleted = "score";
inline constexpr std::string_view kEndTurn = "end_turn";

class Step {
 public:
  virtual ~Step() = default;
  virtual std::string_view Name() const = 0;
  // The step a position file names ("turn": {"step": ...}) when the turn stands here; unique
  // Name()s, but a module's step just before an anchor that works as part of it (a window of
  // cards before the tile is placed) is stated as the anchor, so files keep their meaning.
  virtual std::string_view StatedAs() const { return Name(); }
  // True when the step needs a decision in this position; false steps are run (Run) or
  // skipped by the pipeline without stopping.
  virtual bool NeedsDecision(const Position& pos) const = 0;
  virtual void Legal(const Position& pos, std::vector<Action>& out) const = 0;
  // Whether an action is this step's to judge. If not, and the step lets the player pass,
  // the pipeline passes implicitly and offers the action to the next step (an expansion figure
  // placed alone passes the meeple step).
  virtual bool Handles(const Position& pos, const Action& action) const = 0;
  virtual bool CanPass(const Position& pos) const {
    (void)pos;
    return false;
  }
  // Judges an action that arrives after this step was decided in the same turn (before the
  // turn moves on), e.g. a second meeple. nullopt: not this step's business.
  virtual std::optional<Verdict> AfterDecision(const Position& pos, const Action& action) const {
    (void)pos, (void)action;
    return std::nullopt;
  }
  // Applies a decision. An illegal action leaves pos unchanged and returns the verdict.
  virtual ApplyResult Apply(Position& pos, const Action& action) const = 0;
  // Work done when the step needs no decision (scoring, end of turn).
  virtual void Run(Position& pos, ApplyResult& result) const { (void)pos, (void)result; }
  // The rule that keeps this decision step from taking `action` (which it does not handle and
  // cannot pass), with a sentence saying what the step waits for. The core's ruling for an
  // action out of step when no expansion judges it (JudgeOutOfStep): a move a player can attempt
  // is ruled on, never refused as input.
  virtual Reason OutOfStep(const Position& pos, const Action& action) const = 0;
  // When this decision is a chance outcome the question must state (a tile, card or message
  // drawn from a pile of unknown order): what to state, e.g. "the tile drawn ({\"type\":
  // \"draw\", \"tile\": ...})". An action of a later step given without it is an incomplete
  // question (exit 65 naming the choice), not a move. nullopt: a player's decision.
  virtual std::optional<std::string> ChanceToState(const Position& pos) const {
    (void)pos;
    return std::nullopt;
  }
  // A preempting step decides before the next decision of the turn as soon as it needs one,
  // even while the turn stands at an earlier step of the pipeline (e.g. points a card scored
  // before the tile placement wait for the choice of the figure they move): it is then the
  // current step (Position::current_step), and once decided the turn goes on at the step where
  // it stood. It still has its own place in the pipeline, where it decides what arises there.
  virtual bool Preempts() const { return false; }
  // What a pass at this step declines, in words for a verdict ("declines the road-deck card").
  // Empty: not a choice a player passes, or a figure step that FigurePlaced names.
  virtual std::string Declines(const Position& pos) const {
    (void)pos;
    return "";
  }
  // The figure kind this step places, when it places one kind at a step of its own: a pass
  // there places none of it, and the step passes by itself when the player has none in
  // supply. -1: none.
  virtual int FigurePlaced(const Position& pos) const {
    (void)pos;
    return -1;
  }
};

}  // namespace carc::model
