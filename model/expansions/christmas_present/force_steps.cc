// Christmas Present's forced placement (XMAS-CARD-FORCE-PLACEMENT, XMAS-Q-FORCE): a constraint
// the core's place_tile step asks (the forced square) and what the placement does to the card,
// the card window before the core's step (xmas_place_window, stated as place_tile in position
// files), and the step right after the core's that spends a force whose square another
// player's tile has filled. Also the helpers the step files share.
#include <algorithm>

#include "model/core/core_steps.h"
#include "model/expansions/christmas_present/christmas_present.h"
#include "model/expansions/christmas_present/hooks.h"
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
  return s && AnyPlay(pos, w, p);  // stops at the first legal play, builds no text
}

ApplyResult Illegal(std::string ruling, std::string text) {
  ApplyResult r;
  r.verdict = Verdict::Illegal(std::move(ruling), std::move(text));
  return r;
}

namespace {

// The force waiting for the active player's tile (XMAS-Q-FORCE: own-turn-next-tile), or -1.
int ActiveForce(const Position& pos) {
  const State* s = Slice(pos);
  if (!s) return -1;
  for (size_t i = 0; i < s->forces.size(); ++i)
    if (s->forces[i].target == pos.turn.player) return static_cast<int>(i);
  return -1;
}

// Whether tile t fits on square sq at some rotation (BASE-PLACE-EDGE, BASE-PLACE-ADJ).
bool FitsSquare(const Position& pos, model::TileType t, model::Coord sq) {
  for (int r = 0; r < 4; ++r)
    if (pos.board.Check(t, sq, r).ok()) return true;
  return false;
}

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

// XMAS-CARD-FORCE-PLACEMENT, XMAS-Q-FORCE: the forced tile is placed here first (the square
// itself is the constraint the core step asks, ForceAllows below). XMAS-USE,
// XMAS-Q-ANYTIME: also the active player's card window between drawing and placing the tile
// ("several cards one after another" in one's own turn; no-symbol cards "at any time"): the
// cards whose effect does not need the placed tile (CheckPlay, Window::kPlacement), listed with
// the core step's tile placements, which close the window. Stated as place_tile in files.
class ForcedPlaceStep final : public model::Step {
 public:
  std::string_view Name() const override { return "xmas_place_window"; }
  std::string_view StatedAs() const override { return model::kPlaceTile; }
  std::string Declines(const Position&) const override {
    return "plays no card before placing the tile";
  }
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
      // The forced square only, where the tile fits there (the core step's constraint); else
      // anywhere, and the force is spent when the tile is placed.
      model::ListTilePlacements(pos, *pos.turn.drawn, out);
      ListPlays(pos, Window::kPlacement, pos.turn.player, out);
      return;
    }
    if (OpponentWindow(pos)) {
      out.push_back({.type = ActionType::kPass});
      for (PlayerId q = 0; q < static_cast<int>(pos.players.size()); ++q)
        if (q != pos.turn.player) ListPlays(pos, Window::kForce, q, out);
      return;
    }
    model::ListTilePlacements(pos, *pos.turn.drawn, out);
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
      model::MarkDecided(pos, model::IndexOf(pos, *this));
      return {};
    }
    if (a.type == ActionType::kExpansion) {
      // The active player's own card (the window between drawing and placing), or an
      // opponent's force-placement (opponent-turn-on-draw).
      const bool own = DecodePlay(a).player == pos.turn.player;
      return PlayCard(pos, a, own ? Window::kPlacement : Window::kForce);
    }
    // The core step places the tile: it asks the forced square (ForceAllows) and
    // reports the placement (OnTilePlaced), which spends the card.
    return pos.cfg().pipeline[pos.cfg().core_step.place_tile]->Apply(pos, a);
  }
  // XMAS-FN8 (an attack waits for its answer), XMAS-CARD-FORCE-PLACEMENT (the forced tile
  // first), BASE-MEEPLE-TILE / BASE-PLACE-UNPLACEABLE (the own card window: the drawn tile is
  // placed next, after any cards).
  model::Reason OutOfStep(const Position& pos, const Action& a) const override {
    const State& s = *Slice(pos);
    if (s.pending)
      return {"XMAS-FN8",
              "a road-deck card waits for the opponents' answer (xmas_cancel or "
              "xmas_allow) before anything else"};
    const std::string& who = pos.players[pos.turn.player].name;
    if (ActiveForce(pos) < 0 || !Fits(pos)) {
      if (a.type == ActionType::kPlaceFigure)
        return {"BASE-MEEPLE-TILE", "a figure goes only on the tile placed this turn, and " + who +
                                        " has not placed the drawn tile yet"};
      return {"BASE-PLACE-UNPLACEABLE", who +
                                            " must place the drawn tile, which fits on the "
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
  static bool Fits(const Position& pos) {
    return FitsSquare(pos, *pos.turn.drawn, Slice(pos)->forces[ActiveForce(pos)].square);
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
  bool OpponentWindow(const Position& pos) const {
    const State& s = *Slice(pos);
    if (s.variants.force() != ForceTiming::kOpponentTurnOnDraw ||
        model::Decided(pos, model::IndexOf(pos, *this)))
      return false;
    for (PlayerId q = 0; q < static_cast<int>(pos.players.size()); ++q)
      if (q != pos.turn.player && HasPlays(pos, Window::kForce, q)) return true;
    return false;
  }
};

}  // namespace

// XMAS-CARD-FORCE-PLACEMENT, XMAS-Q-FORCE: while a force waits for the active player's tile, a
// tile that fits on the forced square goes there (any tile placed: the one drawn, or one a
// step chose, as Gifts' Take 2); one that does not fit there goes anywhere.
bool ForceAllows(const Position& pos, model::TileType t, model::Coord c, model::Rotation r,
                 Verdict* why) {
  (void)r;
  const int fi = ActiveForce(pos);
  if (fi < 0) return true;
  const Force& f = Slice(pos)->forces[fi];
  if (c == f.square || !FitsSquare(pos, t, f.square)) return true;
  if (why)
    *why = Verdict::Illegal("XMAS-CARD-FORCE-PLACEMENT",
                            pos.players[f.holder].name + "'s force-placement card obliges " +
                                pos.players[f.target].name + " to place the tile on (" +
                                std::to_string(f.square.x) + ", " + std::to_string(f.square.y) +
                                "), where it fits");
  return false;
}

// XMAS-CARD-FORCE-PLACEMENT, XMAS-Q-FORCE: the forced square constrains a listing only while a
// force waits for the active player's tile and tile `t` fits there (as ForceAllows).
bool ForceInForce(const Position& pos, model::TileType t) {
  const int fi = ActiveForce(pos);
  return fi >= 0 && FitsSquare(pos, t, Slice(pos)->forces[fi].square);
}

// XMAS-CARD-FORCE-PLACEMENT, XMAS-Q-FORCE: the tile placed spends the force waiting for it: on
// the square (it fitted there), or elsewhere (it did not fit there, ForceAllows).
void OnTilePlaced(Position& pos, const Action& a, ApplyResult& r) {
  (void)a;
  const int fi = ActiveForce(pos);
  if (fi < 0) return;
  State& s = *Slice(pos);
  const bool on_square = pos.board.tile(pos.turn.placed).pos == s.forces[fi].square;
  s.forces.erase(s.forces.begin() + fi);
  s.discard.push_back(Card::kForcePlacement);
  if (on_square) {
    if (!pos.explain) return;  // the lean path builds no reasons
    r.verdict.reasons.push_back({"XMAS-CARD-FORCE-PLACEMENT",
                                 "the tile goes on the square the "
                                 "card named; the card is spent"});
    r.verdict.reasons.push_back({"XMAS-Q-FORCE", "the forced square applies to this tile"});
  } else {
    r.notes.push_back({"XMAS-Q-FORCE",
                       "the tile placed cannot go on the forced square: it is placed normally "
                       "and the force-placement card is spent"});
  }
}

const model::Step& ForcedPlace() {
  static const ForcedPlaceStep step;
  return step;
}

const model::Step& ForceSpent() {
  static const ForceSpentStep step;
  return step;
}

}  // namespace carc::exp::christmas_present
