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
    if (Slice(pos) && pos.turn.placed >= 0) SpendFilledForces(pos, r);
  }
};

// XMAS-CARD-FORCE-PLACEMENT, XMAS-Q-FORCE. Named like the core step it stands before.
class ForcedPlaceStep final : public model::Step {
 public:
  std::string_view Name() const override { return model::kPlaceTile; }
  bool NeedsDecision(const Position& pos) const override {
    const State* s = Slice(pos);
    if (!s || !pos.turn.drawn || pos.turn.placed >= 0) return false;
    if (s->pending) return true;
    if (ActiveForce(pos) >= 0) return Fits(pos);
    return OpponentWindow(pos);
  }
  bool Handles(const Position& pos, const Action& a) const override {
    if (a.type == ActionType::kPlaceTile) return ActiveForce(pos) >= 0;
    return a.type == ActionType::kPass || IsCode(a, {kPlay, kCancel, kAllow});
  }
  bool CanPass(const Position& pos) const override {
    const State& s = *Slice(pos);
    return !s.pending && !(ActiveForce(pos) >= 0 && Fits(pos));
  }
  void Legal(const Position& pos, std::vector<Action>& out) const override {
    const State& s = *Slice(pos);
    if (s.pending) return ListAnswers(pos, out);
    if (ActiveForce(pos) >= 0) {
      model::Coord sq = s.forces[ActiveForce(pos)].square;
      model::TileType t = *pos.turn.drawn;
      for (model::Rotation r : pos.cfg().catalog->distinct_rotations(t))
        if (pos.board.Check(t, sq, r).ok())
          out.push_back({.type = ActionType::kPlaceTile, .tile = t, .pos = sq, .rotation = r});
      return;
    }
    out.push_back({.type = ActionType::kPass});
    for (PlayerId q = 0; q < static_cast<int>(pos.players.size()); ++q)
      if (q != pos.turn.player) ListPlays(pos, Window::kForce, q, out);
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
    if (a.type == ActionType::kExpansion) return PlayCard(pos, a, Window::kForce);
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
