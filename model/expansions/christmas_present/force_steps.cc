// Christmas Present's forced placement (XMAS-CARD-FORCE-PLACEMENT, XMAS-Q-FORCE): the step named
// place_tile before the core's, and the step right after the core's that spends a force whose
// square another player's tile has filled. Also the helpers the step files share.
#include <algorithm>

#include "model/core/core_steps.h"
#include "model/expansions/christmas_present/logic.h"
#include "model/expansions/christmas_present/steps.h"
#include "model/expansions/christmas_present/steps_internal.h"

namespace carc::exp::christmas_present {

using model::Action;
using model::ActionType;
using model::ApplyResult;
using model::PlayerId;
using model::Position;
using model::Verdict;

bool IsCode(const Action& a, std::initializer_list<int> codes) {
  if (a.type != ActionType::kExpansion || a.expansion != &Get()) return false;
  for (int c : codes)
    if (a.code == c) return true;
  return false;
}

bool HasPlays(const Position& pos, Window w, PlayerId p) {
  const State* s = Slice(pos);
  if (!s || s->hands[p].empty()) return false;
  std::vector<Action> out;
  ListPlays(pos, w, p, out);
  return !out.empty();
}

ApplyResult Illegal(std::string ruling, std::string text) {
  ApplyResult r;
  r.verdict = Verdict::Illegal(std::move(ruling), std::move(text));
  return r;
}

namespace {

// XMAS-Q-FORCE: a forced square another player's tile has filled before the target's turn
// can no longer take the target's tile: the card is spent at once.
void SpendFilledForces(Position& pos, ApplyResult& r) {
  State& s = *Slice(pos);
  for (size_t i = 0; i < s.forces.size();) {
    if (!pos.board.At(s.forces[i].square)) {
      ++i;
      continue;
    }
    r.notes.push_back({"XMAS-Q-FORCE", pos.players[s.forces[i].holder].name +
                                           "'s forced square is filled before " +
                                           pos.players[s.forces[i].target].name +
                                           "'s turn: the force-placement card is spent"});
    s.forces.erase(s.forces.begin() + i);
    s.discard.push_back(Card::kForcePlacement);
  }
}

// XMAS-Q-FORCE: right after the tile is placed, in every turn.
class ForceSpentStep final : public model::Step {
 public:
  std::string_view Name() const override { return kStepForceSpent; }
  bool NeedsDecision(const Position&) const override { return false; }
  bool Handles(const Position&, const Action&) const override { return false; }
  void Legal(const Position&, std::vector<Action>&) const override {}
  ApplyResult Apply(Position&, const Action&) const override { return {}; }
  void Run(Position& pos, ApplyResult& r) const override {
    if (Slice(pos) && pos.turn.placed >= 0) {
      SpendFilledForces(pos, r);
      // XMAS-FN11: the tile may have joined a feature to a laid-down one.
      if (LayDownFigures(pos, *Slice(pos), pos.turn.placed) > 0)
        r.notes.push_back({"XMAS-FN11",
                           "the tile joins a feature to a laid-down one: the figures on the "
                           "joined feature are laid down too"});
    }
  }
  // Never reached (no decision here).
  model::Reason OutOfStep(const Position&, const Action&) const override {
    return {"XMAS-Q-FORCE", "a force whose square was filled is spent"};
  }
};

// XMAS-CARD-FORCE-PLACEMENT, XMAS-Q-FORCE. Named like the core step it stands before.
// XMAS-USE, XMAS-Q-ANYTIME: also the active player's card window between drawing and placing
// the tile ("several cards one after another" in one's own turn; no-symbol cards "at any time"):
// the cards whose effect does not need the placed tile (CheckPlay, Window::kPlacement), listed
// with the tile placements (the core step's), which close the window.
class ForcedPlaceStep final : public model::Step {
 public:
  std::string_view Name() const override { return model::kPlaceTile; }
  bool NeedsDecision(const Position& pos) const override {
    const State* s = Slice(pos);
    if (!s || !pos.turn.drawn || pos.turn.placed >= 0) return false;
    if (s->pending) return true;
    if (ActiveForce(pos) >= 0) return Fits(pos) || OwnWindow(pos);
    return OpponentWindow(pos) || OwnWindow(pos);
  }
  bool Handles(const Position& pos, const Action& a) const override {
    if (a.type == ActionType::kPlaceTile) return ActiveForce(pos) >= 0 || OwnOnly(pos);
    if (a.type == ActionType::kPass) return !OwnOnly(pos);
    return IsCode(a, {kPlay, kCancel, kAllow});
  }
  // The own card window is closed by placing the tile, not by a pass.
  bool CanPass(const Position& pos) const override {
    const State& s = *Slice(pos);
    return !s.pending && !(ActiveForce(pos) >= 0 && Fits(pos)) && !OwnOnly(pos);
  }
  void Legal(const Position& pos, std::vector<Action>& out) const override {
    const State& s = *Slice(pos);
    if (s.pending) return ListAnswers(pos, out);
    if (ActiveForce(pos) >= 0) {
      if (Fits(pos)) {
        model::Coord sq = s.forces[ActiveForce(pos)].square;
        model::TileType t = *pos.turn.drawn;
        for (model::Rotation r : pos.cfg().catalog->distinct_rotations(t))
          if (pos.board.Check(t, sq, r).ok())
            out.push_back({.type = ActionType::kPlaceTile, .tile = t, .pos = sq, .rotation = r});
      } else {
        CorePlacements(pos, out);  // the force is spent when the tile is placed elsewhere
      }
      ListPlays(pos, Window::kPlacement, pos.turn.player, out);
      return;
    }
    if (OpponentWindow(pos)) {
      out.push_back({.type = ActionType::kPass});
      for (PlayerId q = 0; q < static_cast<int>(pos.players.size()); ++q)
        if (q != pos.turn.player) ListPlays(pos, Window::kForce, q, out);
      return;
    }
    CorePlacements(pos, out);
    ListPlays(pos, Window::kPlacement, pos.turn.player, out);
  }
  ApplyResult Apply(Position& pos, const Action& a) const override {
    State& s = *Slice(pos);
    if (IsCode(a, {kCancel, kAllow})) return AnswerAttack(pos, a);
    if (a.type == ActionType::kPass && s.pending)
      return Illegal("XMAS-FN8", "the attack waits for an answer: cancel or allow");
    if (a.type == ActionType::kPass && ActiveForce(pos) >= 0 && Fits(pos)) {
      const Force& f = s.forces[ActiveForce(pos)];
      return Illegal("XMAS-CARD-FORCE-PLACEMENT",
                     pos.players[f.holder].name + "'s force-placement card obliges " +
                         pos.players[f.target].name + " to place the tile on (" +
                         std::to_string(f.square.x) + ", " + std::to_string(f.square.y) +
                         "), where it fits: the step cannot be passed");
    }
    if (a.type == ActionType::kPass) {
      model::MarkDecided(pos, Name());
      return {};
    }
    if (a.type == ActionType::kExpansion) {
      // The active player's own card (the window between drawing and placing), or an
      // opponent's force-placement (opponent-turn-on-draw).
      const bool own = DecodePlay(a).player == pos.turn.player;
      return PlayCard(pos, a, own ? Window::kPlacement : Window::kForce);
    }
    const model::Step* core = nullptr;
    for (const model::Step* st : pos.cfg().pipeline)
      if (st->Name() == model::kPlaceTile && st != this) core = st;
    const int fi = ActiveForce(pos);
    // No forced placement waits for this tile (XMAS-Q-FORCE): the core step judges it. A step
    // that places the tile itself (Gifts' Take 2) reaches this one first by its name.
    if (fi < 0) return core->Apply(pos, a);
    const Force f = s.forces[fi];
    // The force acts on the tile placed: one that cannot go on the square (a tile chosen by a
    // step that places it itself, as Gifts' Take 2) is placed normally and the card is spent.
    const bool fits = FitsSquare(pos, a.tile >= 0 ? a.tile : *pos.turn.drawn, f.square);
    if (a.pos != f.square && fits)
      return Illegal("XMAS-CARD-FORCE-PLACEMENT",
                     pos.players[f.holder].name + "'s force-placement card obliges " +
                         pos.players[f.target].name + " to place the tile on (" +
                         std::to_string(f.square.x) + ", " + std::to_string(f.square.y) +
                         "), where it fits");
    ApplyResult r = core->Apply(pos, a);
    if (!r.verdict.legal || !r.input_error.empty()) return r;
    s.forces.erase(s.forces.begin() + fi);
    s.discard.push_back(Card::kForcePlacement);
    if (fits) {
      r.verdict.reasons.push_back({"XMAS-CARD-FORCE-PLACEMENT",
                                   "the tile goes on the square the "
                                   "card named; the card is spent"});
      r.verdict.reasons.push_back({"XMAS-Q-FORCE", "the forced square applies to this tile"});
    } else {
      r.notes.push_back({"XMAS-Q-FORCE",
                         "the tile placed cannot go on the forced square: it is placed normally "
                         "and the force-placement card is spent"});
    }
    return r;
  }
  // XMAS-FN8 (an attack waits for its answer), XMAS-CARD-FORCE-PLACEMENT (the forced tile
  // first), BASE-MEEPLE-TILE / BASE-PLACE-UNPLACEABLE (the own card window: the drawn tile is
  // placed next, after any cards).
  model::Reason OutOfStep(const Position& pos, const Action& a) const override {
    const State& s = *Slice(pos);
    if (s.pending)
      return {"XMAS-FN8", "a road-deck card waits for the opponents' answer (xmas_cancel or "
                          "xmas_allow) before anything else"};
    const std::string& who = pos.players[pos.turn.player].name;
    if (ActiveForce(pos) < 0 || !Fits(pos)) {
      if (a.type == ActionType::kPlaceFigure)
        return {"BASE-MEEPLE-TILE", "a figure goes only on the tile placed this turn, and " + who +
                                        " has not placed the drawn tile yet"};
      return {"BASE-PLACE-UNPLACEABLE", who + " must place the drawn tile, which fits on the "
                                              "board (cards may be played before it)"};
    }
    const Force& f = s.forces[ActiveForce(pos)];
    return {"XMAS-CARD-FORCE-PLACEMENT",
            pos.players[f.holder].name + "'s force-placement card obliges " +
                pos.players[f.target].name + " to place the tile on (" +
                std::to_string(f.square.x) + ", " + std::to_string(f.square.y) + ") first"};
  }
  void Run(Position& pos, ApplyResult& r) const override {
    State* s = Slice(pos);
    if (!s || !pos.turn.drawn || pos.turn.placed >= 0) return;
    int fi = ActiveForce(pos);
    if (fi < 0 || Fits(pos)) return;
    s->forces.erase(s->forces.begin() + fi);
    s->discard.push_back(Card::kForcePlacement);
    r.notes.push_back({"XMAS-Q-FORCE",
                       "the drawn tile cannot go on the forced square: it is "
                       "placed normally and the force-placement card is spent"});
  }

 private:
  static int ActiveForce(const Position& pos) {
    const State* s = Slice(pos);
    if (!s) return -1;
    for (size_t i = 0; i < s->forces.size(); ++i)
      if (s->forces[i].target == pos.turn.player) return static_cast<int>(i);
    return -1;
  }
  static bool FitsSquare(const Position& pos, model::TileType t, model::Coord sq) {
    for (int r = 0; r < 4; ++r)
      if (pos.board.Check(t, sq, r).ok()) return true;
    return false;
  }
  static bool Fits(const Position& pos) {
    const State& s = *Slice(pos);
    model::Coord sq = s.forces[ActiveForce(pos)].square;
    for (int r = 0; r < 4; ++r)
      if (pos.board.Check(*pos.turn.drawn, sq, r).ok()) return true;
    return false;
  }
  // The active player has a card to play before placing the tile (XMAS-USE).
  static bool OwnWindow(const Position& pos) {
    return HasPlays(pos, Window::kPlacement, pos.turn.player);
  }
  // Only the own window is open: no answer, no opponents' window, no forced square to fill.
  bool OwnOnly(const Position& pos) const {
    const State* s = Slice(pos);
    return s && pos.turn.drawn && pos.turn.placed < 0 && !s->pending &&
           !(ActiveForce(pos) >= 0 && Fits(pos)) && !OpponentWindow(pos) && OwnWindow(pos);
  }
  // The core step's placements of the drawn tile (BASE-PLACE-EDGE, BASE-PLACE-ADJ).
  void CorePlacements(const Position& pos, std::vector<Action>& out) const {
    for (const model::Step* st : pos.cfg().pipeline)
      if (st->Name() == model::kPlaceTile && st != this) st->Legal(pos, out);
  }
  bool OpponentWindow(const Position& pos) const {
    const State& s = *Slice(pos);
    if (s.variants.force() != ForceTiming::kOpponentTurnOnDraw || model::Decided(pos, Name()))
      return false;
    for (PlayerId q = 0; q < static_cast<int>(pos.players.size()); ++q)
      if (q != pos.turn.player && HasPlays(pos, Window::kForce, q)) return true;
    return false;
  }
};

}  // namespace

const model::Step& ForcedPlace() {
  static const ForcedPlaceStep step;
  return step;
}

const model::Step& ForceSpent() {
  static const ForceSpentStep step;
  return step;
}

}  // namespace carc::exp::christmas_present
