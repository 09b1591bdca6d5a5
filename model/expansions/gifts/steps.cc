// The Gifts turn steps. Pipeline with the expansion: draw -> gift_hold -> open_gift -> take_2 ->
// place_tile -> draw_gift -> place_figure [-> the Phantom's steps] -> score ->
// gift_end_turn -> end_turn. Rules: GIFT-STEPS (only step 1 changes), GIFT-OPEN, GIFT-GET.
#include "model/expansions/gifts/steps.h"

#include <algorithm>

#include "model/core/core_steps.h"
#include "model/expansions/gifts/cards.h"
#include "model/expansions/gifts/state.h"

namespace carc::exp::gifts {

using model::Action;
using model::ActionType;
using model::ApplyResult;
using model::Position;
using model::Verdict;

namespace {

bool IsGift(const Action& a, int code) {
  return a.type == ActionType::kExpansion && a.expansion == &Get() && a.code == code;
}

// Delegates the placement of tile `a.tile`, taken from the tiles in hand, to the core step (the
// choice of this step is made with it; the core asks the modules' placement constraints).
// Illegal: pos is unchanged (the core step changes nothing when it refuses).
ApplyResult PlaceHeldTile(Position& pos, const Action& a) {
  Data& d = Slice(pos);
  const std::optional<model::TileType> drawn = pos.turn.drawn;
  std::vector<model::TileType> held;
  held.swap(d.held);
  pos.turn.drawn = a.tile;
  ApplyResult r = pos.cfg().pipeline[pos.cfg().core_step.place_tile]->Apply(pos, a);
  if (!r.verdict.legal || !r.input_error.empty()) {
    pos.turn.drawn = drawn;
    Slice(pos).held.swap(held);
  }
  return r;
}

// GIFT-OPEN: outside the window (after a gift was opened, or after the tile was placed) no gift
// may be opened.
std::optional<Verdict> LateGift(const Position& pos, const Action& a) {
  if (!IsGift(a, kOpen)) return std::nullopt;
  if (const auto& opened = Slice(pos).opened)
    return Verdict::Illegal("GIFT-OPEN", "a player opens at most one gift per turn; " +
                                             pos.players[pos.turn.player].name +
                                             " already opened " + std::string(CardTitle(*opened)));
  return Verdict::Illegal("GIFT-OPEN",
                          "a gift is opened after drawing the tile and before placing it, not "
                          "after the tile is placed");
}

// GIFT-Q-EXTRA-PART: gift_hold (below) runs once per tile drawn. Turn fields still set here were
// left by an earlier part of the same turn (a further tile another expansion gave, e.g. The
// Messengers' message 4; gift_end_turn clears them between turns). each-part (adopted): that part
// is a turn of its own for GIFT-GET-ONE and GIFT-OPEN, so they are cleared; whole-turn: they stay.
void NewPart(Position& pos, ApplyResult& r) {
  Data& d = Slice(pos);
  if (pos.turn.placed >= 0 || !d.held.empty() || d.change_figure >= 0 || d.take2_drawing) return;
  if (!d.opened && !d.received) return;
  if (d.variants.extra_part == ExtraPart::kWholeTurn) {
    d.earlier_part = true;
    if (pos.explain)
      r.notes.push_back(
          {"GIFT-Q-EXTRA-PART",
           "a further tile in the same turn (whole-turn): " +
               std::string(d.opened && d.received
                               ? "the gift opened and the gift received earlier this turn "
                                 "still count"
                           : d.opened ? "the gift opened earlier this turn still counts"
                                      : "the gift received earlier this turn still counts") +
               ", one of each per turn"});
    return;
  }
  d.opened.reset();
  d.received = false;
  if (pos.explain)
    r.notes.push_back({"GIFT-Q-EXTRA-PART",
                       "a further tile in the same turn is a turn part with all its phases "
                       "(each-part, MSG-FN6): one gift may be received and one opened again"});
}

// Puts the drawn tile aside while the player may open a gift (only if they hold one), so that
// the position at step open_gift names it in the gifts section (the core reads "turn.tile" only
// at place_tile). GIFT-FN3: the core draw step has already set unplaceable tiles aside.
class HoldStep final : public model::Step {
 public:
  std::string_view Name() const override { return kHoldStep; }
  bool NeedsDecision(const Position&) const override { return false; }
  bool Handles(const Position&, const Action&) const override { return false; }
  void Legal(const Position&, std::vector<Action>&) const override {}
  ApplyResult Apply(Position&, const Action&) const override { return {}; }
  void Run(Position& pos, ApplyResult& r) const override {
    Data& d = Slice(pos);
    NewPart(pos, r);
    if (!pos.turn.drawn || pos.turn.placed >= 0 || !d.held.empty() || d.opened) return;
    if (Total(d.hands[pos.turn.player]) == 0) return;
    d.held = {*pos.turn.drawn};
    pos.turn.drawn.reset();
  }
  // Never reached (no decision here).
  model::Reason OutOfStep(const Position&, const Action&) const override {
    return {"GIFT-STEPS", "the drawn tile is held while a gift may be opened"};
  }
};

// GIFT-OPEN, GIFT-FN2 (optional), GIFT-CHANGE (second choice: the new feature).
class OpenStep final : public model::Step {
 public:
  std::string_view Name() const override { return kOpenStep; }
  std::string Declines(const Position&) const override { return "opens no gift"; }
  bool NeedsDecision(const Position& pos) const override {
    const Data& d = Slice(pos);
    if (d.change_figure >= 0) return true;
    return d.held.size() == 1 && !d.opened && !d.take2_drawing;
  }
  bool Handles(const Position& pos, const Action& a) const override {
    // A tile placed at once passes this step implicitly (the core's rule for passable steps).
    // While Change Position waits for the new posture, every action reaches Apply: any other
    // action leaves that choice unstated (a missing choice, not a move out of turn).
    if (Slice(pos).change_figure >= 0) return true;
    return a.type == ActionType::kPass || IsGift(a, kOpen) || IsGift(a, kPositionTo);
  }
  bool CanPass(const Position& pos) const override { return Slice(pos).change_figure < 0; }
  void Legal(const Position& pos, std::vector<Action>& out) const override {
    if (Slice(pos).change_figure >= 0) {
      ListChangeTargets(pos, out);
      return;
    }
    out.push_back({.type = ActionType::kPass});
    ListOpenings(pos, out);
  }
  ApplyResult Apply(Position& pos, const Action& a) const override {
    ApplyResult r;
    Data& d = Slice(pos);
    if (d.change_figure >= 0) {
      if (IsGift(a, kPositionTo)) return ChangeTo(pos, a);
      r.input_error =
          "Change Position: state the figure's new feature first "
          "({\"type\": \"gift_position_to\", \"feature\": ...})";
      return r;
    }
    // GIFT-CHANGE: a new posture is chosen only for the figure Change Position was opened on.
    if (IsGift(a, kPositionTo)) {
      r.verdict = Verdict::Illegal(
          "GIFT-CHANGE", pos.players[pos.turn.player].name +
                             " has not opened Change Position on a figure: a new posture is "
                             "chosen only right after that");
      return r;
    }
    if (IsGift(a, kOpen)) return OpenGift(pos, a);
    // Pass (or the tile placed at once, an implicit pass): no gift this turn (GIFT-FN2:
    // opening is optional).
    ReleaseTile(pos);
    r.verdict.reasons.push_back({"GIFT-FN2", "opening a gift is optional: none is opened"});
    return r;
  }
  void Run(Position& pos, ApplyResult&) const override { ReleaseTile(pos); }
  std::optional<Verdict> AfterDecision(const Position& pos, const Action& a) const override {
    return LateGift(pos, a);
  }
  // GIFT-CHANGE: the step cannot pass only while Change Position waits for the new posture,
  // and then Handles takes every action (Apply names the missing choice); kept for the Step
  // contract.
  model::Reason OutOfStep(const Position& pos, const Action&) const override {
    return {"GIFT-CHANGE", pos.players[pos.turn.player].name +
                               " opened Change Position: the figure's new posture on its tile "
                               "(gift_position_to) comes first"};
  }
};

// GIFT-TAKE2, GIFT-FN8, GIFT-FN9: the second tile drawn (counts only: a stated draw) and the
// choice of the tile to place, made by placing it ("tile" names it).
class Take2Step final : public model::Step {
 public:
  std::string_view Name() const override { return kTake2Step; }
  bool NeedsDecision(const Position& pos) const override {
    const Data& d = Slice(pos);
    return (d.take2_drawing && pos.supply.total() > 0) || d.held.size() == 2;
  }
  bool Handles(const Position& pos, const Action& a) const override {
    return Slice(pos).take2_drawing ? a.type == ActionType::kDraw
                                    : a.type == ActionType::kPlaceTile;
  }
  void Legal(const Position& pos, std::vector<Action>& out) const override {
    const Data& d = Slice(pos);
    if (d.take2_drawing) {
      for (model::TileType t = 0; t < static_cast<int>(pos.supply.counts.size()); ++t)
        if (pos.supply.counts[t] > 0) out.push_back({.type = ActionType::kDraw, .tile = t});
      return;
    }
    std::vector<model::TileType> kinds = d.held;
    std::sort(kinds.begin(), kinds.end());
    kinds.erase(std::unique(kinds.begin(), kinds.end()), kinds.end());
    // The core's placements of each tile, under the modules' placement constraints (another
    // expansion may restrict the square: the placement constraint hook, model/core/hooks.h).
    for (model::TileType t : kinds) model::ListTilePlacements(pos, t, out);
  }
  ApplyResult Apply(Position& pos, const Action& a) const override {
    ApplyResult r;
    Data& d = Slice(pos);
    const model::TileCatalog& cat = *pos.cfg().catalog;
    if (d.take2_drawing) {
      if (a.tile < 0 || pos.supply.counts[a.tile] <= 0) {
        r.input_error = "no tile " + cat.Name(std::max(a.tile, 0)) + " is left in the supply";
        return r;
      }
      pos.supply.counts[a.tile]--;
      if (!pos.board.CanPlaceAnywhere(a.tile)) {
        r.notes.push_back({"GIFT-FN9", "tile " + cat.Name(a.tile) +
                                           " fits nowhere: it is set aside (removed) and the "
                                           "player draws again for Take 2 (4/2022)"});
        if (pos.supply.total() == 0) {
          d.take2_drawing = false;
          r.notes.push_back({"GIFT-FN8", "no tile is left: Take 2 has no effect"});
          ReleaseTile(pos);
        }
        return r;
      }
      d.take2_drawing = false;
      d.held.push_back(a.tile);
      r.verdict.reasons.push_back({"GIFT-TAKE2", "the second tile is " + cat.Name(a.tile)});
      return r;
    }
    if (a.tile < 0) {
      r.input_error = "Take 2: state which tile is placed (\"tile\": \"" + cat.Name(d.held[0]) +
                      "\" or \"" + cat.Name(d.held[1]) + "\")";
      return r;
    }
    auto it = std::find(d.held.begin(), d.held.end(), a.tile);
    // GIFT-TAKE2: one of the two tiles drawn is placed; another tile is a move one can attempt.
    if (it == d.held.end()) {
      r.verdict =
          Verdict::Illegal("GIFT-TAKE2", "Take 2: the tiles in hand are " + cat.Name(d.held[0]) +
                                             " and " + cat.Name(d.held[1]) + ", not " +
                                             cat.Name(a.tile) + ": one of them is placed");
      return r;
    }
    const model::TileType other = d.held[it == d.held.begin() ? 1 : 0];
    const OtherTile other_tile = d.variants.other_tile;
    r = PlaceHeldTile(pos, a);
    if (!r.verdict.legal || !r.input_error.empty()) return r;
    if (other_tile == OtherTile::kDiscardUnchosen) {
      r.notes.push_back({"GIFT-FN9", "the other tile, " + cat.Name(other) +
                                         ", is discarded from the game (discard-unchosen)"});
    } else {
      pos.supply.counts[other]++;
      std::string text = "the other tile, " + cat.Name(other) +
                         ", goes back into the supply (variant return-unchosen-to-supply)";
      if (pos.supply.ordered) {
        pos.supply.ordered = false;
        pos.supply.order.clear();
        text += "; it is shuffled in, so the draw order is no longer known: later draws are stated";
      }
      r.notes.push_back({"GIFT-FN9", text});
    }
    r.verdict.reasons.insert(
        r.verdict.reasons.begin(),
        {"GIFT-TAKE2", "of the two tiles, " + cat.Name(a.tile) + " is chosen and placed"});
    return r;
  }
  void Run(Position& pos, ApplyResult& r) const override {
    Data& d = Slice(pos);
    if (d.take2_drawing && pos.supply.total() == 0) {
      d.take2_drawing = false;
      r.notes.push_back({"GIFT-FN8", "no tile is left to draw: Take 2 has no effect"});
    }
    ReleaseTile(pos);
  }
  std::optional<Verdict> AfterDecision(const Position& pos, const Action& a) const override {
    return LateGift(pos, a);
  }
  std::optional<std::string> ChanceToState(const Position& pos) const override {
    if (!Slice(pos).take2_drawing) return std::nullopt;
    return "the second tile drawn for Take 2 ({\"type\": \"draw\", \"tile\": ...})";
  }
  // GIFT-TAKE2: the second tile is drawn, then one of the two placed, before anything else.
  model::Reason OutOfStep(const Position& pos, const Action&) const override {
    const std::string& who = pos.players[pos.turn.player].name;
    if (Slice(pos).take2_drawing)
      return {"GIFT-TAKE2", who + " opened Take 2: the second tile is drawn first"};
    return {"GIFT-TAKE2", who + " holds the two tiles of Take 2: one of them is placed first"};
  }
};

// GIFT-GET, GIFT-GET-ONE, GIFT-FN1, GIFT-DECK-EMPTY: at the end of step 1 (after the tile,
// before figures) the player draws one card if the tile extended someone else's road or city.
// From an unordered deck (or an empty deck whose discards are shuffled) the card drawn is stated.
class ReceiveStep final : public model::Step {
 public:
  std::string_view Name() const override { return kReceiveStep; }
  bool NeedsDecision(const Position& pos) const override {
    if (pos.turn.placed < 0 || model::Decided(pos, model::IndexOf(pos, *this)) ||
        Slice(pos).received)
      return false;
    return Chance(Slice(pos)) && Earned(pos, nullptr);
  }
  bool Handles(const Position&, const Action& a) const override { return IsGift(a, kDrawCard); }
  void Legal(const Position& pos, std::vector<Action>& out) const override {
    const Data& d = Slice(pos);
    const CardCounts& from = Total(d.deck) > 0 ? d.deck : d.discards;
    for (int c = 0; c < kCardTypes; ++c)
      if (from[c] > 0) {
        Action a;
        a.type = ActionType::kExpansion;
        a.expansion = &Get();
        a.code = kDrawCard;
        kCardArg.Set(a, static_cast<Card>(c));
        out.push_back(a);
      }
  }
  ApplyResult Apply(Position& pos, const Action& a) const override {
    ApplyResult r;
    Data& d = Slice(pos);
    const int c = static_cast<int>(kCardArg(a));
    if (Total(d.deck) == 0) {
      if (d.discards[c] <= 0) {
        r.input_error =
            "the shuffled discards hold no " + std::string(CardTitle(Card(c))) + " card";
        return r;
      }
      Shuffle(d, r);
    } else if (d.deck[c] <= 0) {
      r.input_error = "the gift deck holds no " + std::string(CardTitle(Card(c))) + " card";
      return r;
    }
    if (pos.explain) Earned(pos, &r.verdict.reasons);  // reasons only: lean keeps none
    Give(pos, static_cast<Card>(c), r);
    model::MarkDecided(pos, model::IndexOf(pos, *this));
    return r;
  }
  std::optional<std::string> ChanceToState(const Position&) const override {
    return "the gift card drawn ({\"type\": \"gift_draw\", \"card\": ...})";
  }
  // GIFT-GET: the gift earned by the tile is drawn at the end of step 1, before figures.
  model::Reason OutOfStep(const Position& pos, const Action&) const override {
    return {"GIFT-GET", pos.players[pos.turn.player].name +
                            "'s tile extended another player's road or city: the gift card "
                            "(gift_draw) is drawn first, at the end of step 1"};
  }
  void Run(Position& pos, ApplyResult& r) const override {
    if (pos.turn.placed < 0 || model::Decided(pos, model::IndexOf(pos, *this))) return;
    model::MarkDecided(pos, model::IndexOf(pos, *this));
    // Run follows NeedsDecision's no (Step::Run): where the card drawn is a chance, that no says
    // the gift was not earned, and the lean path (which keeps no notes) need not ask again.
    if (!pos.explain && Chance(Slice(pos))) return;
    if (Slice(pos).received) {  // GIFT-GET-ONE over the whole turn (GIFT-Q-EXTRA-PART)
      if (pos.explain && Earned(pos, nullptr))
        r.notes.push_back({"GIFT-GET-ONE", pos.players[pos.turn.player].name +
                                               " received a gift earlier this turn: one gift "
                                               "per turn (GIFT-Q-EXTRA-PART whole-turn)"});
      return;
    }
    std::vector<model::Reason> why;
    if (!Earned(pos, pos.explain ? &why : nullptr)) {  // the lean path keeps no notes
      r.notes.insert(r.notes.end(), why.begin(), why.end());
      return;
    }
    r.notes.insert(r.notes.end(), why.begin(), why.end());
    Data& d = Slice(pos);
    if (Total(d.deck) == 0) {
      r.notes.push_back({"GIFT-DECK-EMPTY",
                         "the deck and the discards are empty (every card lies unopened before "
                         "the players): no gift is received"});
      return;
    }
    const Card c = d.deck_order.front();  // ordered (an unordered deck is a decision)
    d.deck_order.erase(d.deck_order.begin());
    Give(pos, c, r);
  }

 private:
  // The card drawn is a decision (a chance the file states): from an unordered deck, or from
  // the discards shuffled when the deck is empty.
  static bool Chance(const Data& d) {
    return (!d.deck_ordered && Total(d.deck) > 0) || (Total(d.deck) == 0 && Total(d.discards) > 0);
  }
  static void Shuffle(Data& d, ApplyResult& r) {
    d.deck = d.discards;
    d.discards = {};
    d.deck_ordered = false;
    d.deck_order.clear();
    r.notes.push_back(
        {"GIFT-DECK-EMPTY", "the gift deck is empty: the discards are shuffled into a new deck"});
  }
  static void Give(Position& pos, Card c, ApplyResult& r) {
    Data& d = Slice(pos);
    if (!d.deck_ordered) {
      auto it = std::find(d.deck_order.begin(), d.deck_order.end(), c);
      if (it != d.deck_order.end()) d.deck_order.erase(it);
    }
    d.deck[static_cast<int>(c)]--;
    d.hands[pos.turn.player][static_cast<int>(c)]++;
    d.received = true;
    r.notes.push_back({"GIFT-GET", pos.players[pos.turn.player].name + " receives a gift: draws " +
                                       std::string(CardTitle(c)) + " and keeps it face down"});
  }
};

// Clears what this turn did with gifts.
class EndStep final : public model::Step {
 public:
  std::string_view Name() const override { return kEndStep; }
  bool NeedsDecision(const Position&) const override { return false; }
  bool Handles(const Position&, const Action&) const override { return false; }
  void Legal(const Position&, std::vector<Action>&) const override {}
  ApplyResult Apply(Position&, const Action&) const override { return {}; }
  void Run(Position& pos, ApplyResult&) const override {
    Data& d = Slice(pos);
    d.opened.reset();
    d.take2_drawing = false;
    d.change_figure = -1;
    d.received = false;
    d.earlier_part = false;
  }
  // Never reached (no decision here).
  model::Reason OutOfStep(const Position&, const Action&) const override {
    return {"GIFT-STEPS", "the turn's gifts are cleared at its end"};
  }
};

}  // namespace

void AddSteps(model::ModuleLoader& loader) {
  static const HoldStep hold;
  static const OpenStep open;
  static const Take2Step take2;
  static const ReceiveStep receive;
  static const EndStep end;
  using model::Place;
  // "Before" inserts go right before the anchor, in this order.
  loader.AddStep(model::kPlaceTile, Place::kBefore, &hold);
  loader.AddStep(model::kPlaceTile, Place::kBefore, &open);
  loader.AddStep(model::kPlaceTile, Place::kBefore, &take2);
  loader.AddStep(model::kPlaceTile, Place::kAfter, &receive);
  loader.AddStep(model::kEndTurn, Place::kBefore, &end);
}

}  // namespace carc::exp::gifts
