#include "model/expansions/phantom/phantom.h"

#include "model/core/core_steps.h"
#include "model/core/position.h"
#include "model/expansions/phantom/reuse.h"

namespace carc::exp::phantom {

int Kind(const model::Position& pos) { return pos.cfg().Module(&Get())->figure_kinds.front(); }

namespace {

using model::Action;
using model::ActionType;
using model::ApplyResult;
using model::Position;
using model::Verdict;

// PH-SETUP: a phantom placement by a player whose one phantom is on the board.
std::optional<Verdict> NoPhantom(const Position& pos, const Action& a) {
  if (a.type != ActionType::kPlaceFigure || a.figure_kind != Kind(pos) || pos.turn.game_over ||
      pos.players[pos.turn.player].supply[Kind(pos)] > 0 ||
      model::PlacedThisTurn(pos, Kind(pos)) > 0)
    return std::nullopt;
  return Verdict::Illegal("PH-SETUP", pos.players[pos.turn.player].name +
                                          " has no phantom in supply: each player has one, and "
                                          "theirs is on the board");
}

// The phantom's own placement step, right after the core figure step.
// Rules: PH-SECOND (second figure, different feature, same tile), PH-ALONE (alone, like a
// meeple: the core step is passed implicitly), PH-REUSE (any later turn once returned),
// PH-TB (the phantom is always the last figure of a turn).
class PlacePhantomStep final : public model::Step {
 public:
  std::string_view Name() const override { return kStep; }
  int FigurePlaced(const Position& pos) const override { return Kind(pos); }
  // No phantom in supply (PH-SETUP: one per player, now on the board): no decision, the step
  // passes by itself.
  bool NeedsDecision(const Position& pos) const override {
    const auto& cfg = pos.cfg();
    return pos.turn.placed >= 0 && model::Decided(pos, cfg.core_step.place_figure) &&
           !model::Decided(pos, model::IndexOf(pos, *this)) &&
           pos.players[pos.turn.player].supply[Kind(pos)] > 0;
  }
  bool Handles(const Position& pos, const Action& a) const override {
    return a.type == ActionType::kPass ||
           (a.type == ActionType::kPlaceFigure && a.figure_kind == Kind(pos));
  }
  bool CanPass(const Position&) const override { return true; }
  void Legal(const Position& pos, std::vector<Action>& out) const override {
    out.push_back({.type = ActionType::kPass});
    model::ListFigurePlacements(pos, Kind(pos), out);
  }
  ApplyResult Apply(Position& pos, const Action& a) const override {
    ApplyResult r;
    if (a.type == ActionType::kPlaceFigure) {
      // The feature the meeple just took is occupied, so "a different feature" and "no figure
      // anywhere in the feature" are one check; it cites PH-SECOND.
      r.verdict = model::CheckFigure(
          pos, a, Kind(pos), {.tile = "PH-SECOND", .free = "PH-SECOND", .supply = "PH-SETUP"});
      if (!r.verdict.legal) return r;
      r.verdict.reasons.push_back(
          model::PlacedThisTurn(pos, model::kMeeple) > 0
              ? model::Reason{"PH-SECOND", "the phantom is the second figure of the turn"}
              : model::Reason{"PH-ALONE", "the phantom is placed alone, like a meeple"});
      model::PlaceFigure(pos, a);
    }
    model::MarkDecided(pos, model::IndexOf(pos, *this));
    return r;
  }
  std::optional<Verdict> AfterDecision(const Position& pos, const Action& a) const override {
    if (a.type != ActionType::kPlaceFigure) return std::nullopt;
    if (auto v = NoPhantom(pos, a)) return v;
    if (model::PlacedThisTurn(pos, Kind(pos)) > 0) {
      if (a.figure_kind == Kind(pos))
        return Verdict::Illegal("PH-SETUP", "each player has one phantom; it is already placed");
      return Verdict::Illegal("PH-TB",
                              "the phantom is always the last figure placed in a turn: no figure "
                              "may follow it");
    }
    if (a.figure_kind == Kind(pos))
      return Verdict::Illegal("PH-SECOND", "the player already passed the phantom placement");
    return Verdict::Illegal("BASE-MEEPLE-SUPPLY", "the meeple placement of this turn is over");
  }
  // Never reached (the step may be passed). PH-TB: the phantom is the turn's last figure.
  model::Reason OutOfStep(const Position&, const Action&) const override {
    return {"PH-TB", "the phantom placement is the turn's last figure placement"};
  }
};

}  // namespace

void Phantom::Load(model::ModuleLoader& loader) const {
  // PH-SETUP: one phantom per player; PH-SCORE/PH-END: it counts as one figure, like a meeple
  // (a follower, counted for majority); PH-SECOND/PH-TB: placed at its own step.
  loader.AddFigure({std::string(kFigure),
                    /*per_player=*/1,
                    /*strength=*/1,
                    "PH-SETUP",
                    {.follower = true, .counts_for_majority = true, .own_step = kStep},
                    // Drawn as a meeple, pale and dashed, outlined in the owner's colour.
                    {.shape = model::FigureArt::Shape::kMeeple,
                     .look = kFigure,
                     .css = "fill-opacity:.5;stroke-width:2.2;stroke-dasharray:3 2",
                     .outline = true,
                     .key = "dashed, pale: a phantom"}});
  static const PlacePhantomStep step;
  loader.AddStep(model::kPlaceFigure, model::Place::kAfter, &step);
  // PH-REUSE, GIFT-Q-PHANTOM: the slice with the reuse reading, and its steps (reuse.cc).
  DeclareReuse(loader);
  // PH-SETUP: the phantom step passed by itself for want of a phantom.
  loader.OnJudgeOutOfStep(NoPhantom);
  // PH-SCORE, PH-END: the phantom is placed and scored like a meeple, on the features of the
  // tile just placed; nothing looks at features elsewhere on the table.
  loader.JudgesPartialBoard();
}

const Phantom& Get() {
  static const Phantom phantom;
  return phantom;
}

}  // namespace carc::exp::phantom
