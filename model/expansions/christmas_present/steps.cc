// The Christmas Present turn steps (this module's README, "Turn steps"):
//   xmas_turn_start  before draw        take-two-tiles; at game end, end cards needing a choice
//   place_tile       before place_tile  a forced placement (XMAS-Q-FORCE); shares the name of the
//                                       core step so that position files at "place_tile" reach it
//   xmas_draw_monastery, xmas_draw_road, xmas_cards_early   after place_tile
//   xmas_cards_late  before score       after every figure placement (phantom included)
//   xmas_end_cards, xmas_hand_limit     before end_turn
#include "model/expansions/christmas_present/steps.h"

#include <algorithm>
#include <array>
#include <set>

#include "model/core/core_steps.h"
#include "model/core/json_reader.h"
#include "model/core/module_loader.h"
#include "model/expansions/christmas_present/logic.h"
#include "model/expansions/christmas_present/steps_internal.h"

namespace carc::exp::christmas_present {

using model::Action;
using model::ActionType;
using model::ApplyResult;
using model::PlayerId;
using model::Position;
using model::Verdict;

namespace {

// Rules: XMAS-CARD-TAKE-TWO-TILES (before the draw), XMAS-END (end cards revealed in player
// order when no tile is left, before final scoring).
class TurnStartStep final : public model::Step {
 public:
  std::string_view Name() const override { return kStepTurnStart; }
  std::string Declines(const Position&) const override { return "plays no card before the draw"; }
  bool NeedsDecision(const Position& pos) const override {
    const State* s = Slice(pos);
    if (!s || pos.turn.placed >= 0 || pos.turn.drawn) return false;
    if (!s->two_tiles.empty()) return true;
    if (pos.supply.total() == 0) return GameEndDecider(pos) >= 0;
    return !model::Decided(pos, model::IndexOf(pos, *this)) &&
           AnyPlay(pos, Window::kTurnStart, pos.turn.player);
  }
  bool Handles(const Position&, const Action& a) const override {
    return a.type == ActionType::kPass || IsCode(a, {kPlay, kKeepTile});
  }
  bool CanPass(const Position& pos) const override { return Slice(pos)->two_tiles.empty(); }
  void Legal(const Position& pos, std::vector<Action>& out) const override {
    const State& s = *Slice(pos);
    if (!s.two_tiles.empty()) {
      // BASE-PLACE-UNPLACEABLE: a tile that fits nowhere is kept only if the other does not fit
      // either (Keep).
      const auto& b = pos.board;
      const bool any_fits =
          b.CanPlaceAnywhere(s.two_tiles[0]) || b.CanPlaceAnywhere(s.two_tiles[1]);
      for (model::TileType t : std::set<model::TileType>(s.two_tiles.begin(), s.two_tiles.end()))
        if (b.CanPlaceAnywhere(t) || !any_fits) out.push_back(MakeAction(kKeepTile, {t}));
      return;
    }
    out.push_back({.type = ActionType::kPass});
    if (pos.supply.total() == 0)
      ListPlays(pos, Window::kGameEnd, GameEndDecider(pos), out);
    else
      ListPlays(pos, Window::kTurnStart, pos.turn.player, out);
  }
  ApplyResult Apply(Position& pos, const Action& a) const override {
    State& s = *Slice(pos);
    const bool end = pos.supply.total() == 0 && s.two_tiles.empty();
    if (!s.two_tiles.empty() && !IsCode(a, {kKeepTile}))
      return Illegal("XMAS-CARD-TAKE-TWO-TILES",
                     "of the two tiles drawn, one is kept first: state which (xmas_keep_tile)");
    if (a.type == ActionType::kPass) {
      if (end) {
        PlayerId q = GameEndDecider(pos);
        if (q >= 0) s.field_choices.push_back({q, -1});
        ApplyResult r;
        r.verdict.reasons.push_back({"XMAS-END", "the end card is not used"});
        return r;
      }
      model::MarkDecided(pos, model::IndexOf(pos, *this));
      return {};
    }
    if (a.code == kKeepTile) return Keep(pos, kTileArg(a));
    if (end) {
      PlayerId q = GameEndDecider(pos);
      Play p = DecodePlay(a);
      if (q >= 0 && p.player != q) {
        p.player = q;  // the decider reveals; a file may omit "player"
        if (kPlayerArg.Has(a) && kPlayerArg(a) != pos.turn.player && kPlayerArg(a) != q)
          return Illegal("XMAS-END", "end cards are revealed in player order: it is " +
                                         pos.players[q].name + "'s turn to reveal");
      }
      ApplyResult r = PlayCard(pos, EncodePlay(p), Window::kGameEnd);
      if (r.verdict.legal) r.verdict.reasons.push_back({"XMAS-END", "revealed at game end"});
      return r;
    }
    ApplyResult r = PlayCard(pos, a, Window::kTurnStart);
    return r;
  }
  void Run(Position& pos, ApplyResult& r) const override {
    State* s = Slice(pos);
    if (!s) return;
    s->card_figures_this_turn = 0;
    if (!s->two_tiles.empty()) {
      r.notes.push_back({"BASE-PLACE-UNPLACEABLE", "neither tile drawn fits: both leave the game"});
      s->two_tiles.clear();
    }
  }
  // XMAS-CARD-TAKE-TWO-TILES: the two tiles wait for the choice of the one kept.
  model::Reason OutOfStep(const Position& pos, const Action&) const override {
    return {"XMAS-CARD-TAKE-TWO-TILES", pos.players[pos.turn.player].name +
                                            " drew two tiles with take-two-tiles: the one kept "
                                            "is chosen first (xmas_keep_tile)"};
  }

 private:
  // XMAS-CARD-TAKE-TWO-TILES: one tile is kept, the other removed from the game.
  ApplyResult Keep(Position& pos, model::TileType t) const {
    State& s = *Slice(pos);
    auto it = std::find(s.two_tiles.begin(), s.two_tiles.end(), t);
    if (it == s.two_tiles.end())
      return Illegal("XMAS-CARD-TAKE-TWO-TILES",
                     "tile " + pos.cfg().catalog->Name(t) + " is not one of the two tiles drawn");
    model::TileType other = s.two_tiles[it == s.two_tiles.begin() ? 1 : 0];
    if (!pos.board.CanPlaceAnywhere(t) && pos.board.CanPlaceAnywhere(other))
      return Illegal("BASE-PLACE-UNPLACEABLE",
                     "tile " + pos.cfg().catalog->Name(t) + " fits nowhere; the other one fits");
    ApplyResult r;
    r.verdict.reasons.push_back({"XMAS-CARD-TAKE-TWO-TILES",
                                 "keeps " + pos.cfg().catalog->Name(t) + "; tile " +
                                     pos.cfg().catalog->Name(other) + " is removed from the game"});
    s.two_tiles.clear();
    pos.turn.drawn = t;
    model::MarkDecided(pos, model::IndexOf(pos, *this));
    return r;
  }
};

// XMAS-DRAW-MONASTERY / XMAS-DRAW-ROAD: the player may draw the top card (XMAS-FN2: an empty
// deck is never refilled).
class DrawCardStep final : public model::Step {
 public:
  DrawCardStep(Deck deck, std::string_view name) : deck_(deck), name_(name) {}
  std::string_view Name() const override { return name_; }
  std::string Declines(const Position&) const override {
    return deck_ == Deck::kMonastery ? "declines the monastery-deck card"
                                     : "declines the road-deck card";
  }
  bool NeedsDecision(const Position& pos) const override {
    const State* s = Slice(pos);
    return s && pos.turn.placed >= 0 && !model::Decided(pos, model::IndexOf(pos, *this)) &&
           !s->decks[static_cast<int>(deck_)].cards.empty() && QualifiesDraw(pos, deck_);
  }
  bool Handles(const Position&, const Action& a) const override {
    return a.type == ActionType::kPass || (IsCode(a, {kDrawCard}) && kDeckArg(a) == deck_);
  }
  bool CanPass(const Position&) const override { return true; }
  void Legal(const Position& pos, std::vector<Action>& out) const override {
    const DeckState& d = Slice(pos)->decks[static_cast<int>(deck_)];
    out.push_back({.type = ActionType::kPass});
    if (d.ordered) {
      out.push_back(MakeAction(kDrawCard, {static_cast<int>(deck_), -1}));
      return;
    }
    std::array<bool, kCardKinds> in_deck{};  // each card kind once, in card order
    for (Card c : d.cards) in_deck[static_cast<int>(c)] = true;
    for (int c = 0; c < kCardKinds; ++c)
      if (in_deck[c]) out.push_back(MakeAction(kDrawCard, {static_cast<int>(deck_), c}));
  }
  ApplyResult Apply(Position& pos, const Action& a) const override {
    ApplyResult r;
    State& s = *Slice(pos);
    if (a.type == ActionType::kPass) {
      model::MarkDecided(pos, model::IndexOf(pos, *this));
      return r;
    }
    DeckState& d = s.decks[static_cast<int>(deck_)];
    if (d.cards.empty())
      return Illegal("XMAS-FN2", "the deck is empty; the discard pile is never reshuffled");
    int named = kDrawnArg.Has(a) ? static_cast<int>(kDrawnArg(a)) : -1;
    size_t at = 0;
    if (d.ordered) {
      if (named >= 0 && named != static_cast<int>(d.cards.front())) {
        r.input_error = std::string("the top card of the ") + std::string(DeckName(deck_)) +
                        " deck is " + Info(d.cards.front()).name + ", not " +
                        Info(static_cast<Card>(named)).name;
        return r;
      }
    } else {
      if (named < 0) {
        r.input_error = std::string("the order of the ") + std::string(DeckName(deck_)) +
                        " deck is unknown: name the card drawn (\"card\")";
        return r;
      }
      auto it = std::find(d.cards.begin(), d.cards.end(), static_cast<Card>(named));
      if (it == d.cards.end()) {
        r.input_error = std::string("no ") + Info(static_cast<Card>(named)).name +
                        " card is left in the " + std::string(DeckName(deck_)) + " deck";
        return r;
      }
      at = it - d.cards.begin();
    }
    Card c = d.cards[at];
    d.cards.erase(d.cards.begin() + at);
    s.hands[pos.turn.player].push_back(c);
    model::MarkDecided(pos, model::IndexOf(pos, *this));
    if (!pos.explain) return r;  // the lean path keeps no reasons or notes
    r.verdict.reasons.push_back(
        {deck_ == Deck::kMonastery ? "XMAS-DRAW-MONASTERY" : "XMAS-DRAW-ROAD",
         deck_ == Deck::kMonastery
             ? "the tile is placed next to another player's monastery: a monastery card is drawn"
             : "the tile shows only road: a road card is drawn"});
    r.notes.push_back({"XMAS-USE", pos.players[pos.turn.player].name + " draws " + Info(c).name});
    return r;
  }

 private:
  Deck deck_;
  std::string_view name_;

 public:
  // Never reached (the draw may be declined).
  model::Reason OutOfStep(const Position&, const Action&) const override {
    return {deck_ == Deck::kMonastery ? "XMAS-DRAW-MONASTERY" : "XMAS-DRAW-ROAD",
            "the card is drawn right after the tile"};
  }
};

// Rules: XMAS-USE (several cards per turn, own turn only), XMAS-FN8 (the cancel window),
// XMAS-Q-EXTRA (replaces-normal: no meeple after a card's figure).
class CardWindowStep final : public model::Step {
 public:
  CardWindowStep(Window w, std::string_view name) : w_(w), name_(name) {}
  std::string_view Name() const override { return name_; }
  std::string Declines(const Position&) const override {
    return w_ == Window::kEarly ? "plays no card before the figure placement"
                                : "plays no card before the scoring";
  }
  bool NeedsDecision(const Position& pos) const override {
    const State* s = Slice(pos);
    if (!s || pos.turn.placed < 0) return false;
    if (s->pending || model::Decided(pos, model::IndexOf(pos, *this)))
      return s->pending.has_value();
    return ForEachPlayer(pos, [&](PlayerId q) { return AnyPlay(pos, w_, q); });
  }
  bool Handles(const Position& pos, const Action& a) const override {
    if (a.type == ActionType::kPlaceFigure) return BlocksMeeple(pos, a);
    return (a.type == ActionType::kPass && !Slice(pos)->pending) ||
           IsCode(a, {kPlay, kCancel, kAllow});
  }
  bool CanPass(const Position& pos) const override { return !Slice(pos)->pending; }
  void Legal(const Position& pos, std::vector<Action>& out) const override {
    if (Slice(pos)->pending) return ListAnswers(pos, out);
    out.push_back({.type = ActionType::kPass});
    ForEachPlayer(pos, [&](PlayerId q) {
      ListPlays(pos, w_, q, out);
      return false;
    });
  }
  ApplyResult Apply(Position& pos, const Action& a) const override {
    if (a.type == ActionType::kPlaceFigure)
      return Illegal("XMAS-Q-EXTRA",
                     "replaces-normal: the card's figure was the turn's meeple "
                     "placement");
    if (a.type == ActionType::kPass) {
      model::MarkDecided(pos, model::IndexOf(pos, *this));
      return {};
    }
    if (a.code == kPlay) return PlayCard(pos, a, w_);
    return AnswerAttack(pos, a);
  }
  // XMAS-FN8: reached only while a road-deck card waits for the opponents' answer.
  model::Reason OutOfStep(const Position& pos, const Action&) const override {
    (void)pos;
    return {"XMAS-FN8",
            "a road-deck card waits for the opponents' answer (xmas_cancel or "
            "xmas_allow) before anything else"};
  }
  std::optional<Verdict> AfterDecision(const Position& pos, const Action& a) const override {
    if (a.type == ActionType::kPlaceFigure && BlocksMeeple(pos, a))
      return Verdict::Illegal("XMAS-Q-EXTRA",
                              "replaces-normal: the card's figure was the turn's meeple placement");
    return std::nullopt;
  }

  // XMAS-USE: the active player; XMAS-Q-ANYTIME any-players-turn: also, in turn order, every
  // opponent holding a no-symbol card.
  // Visits them in that order (no list built); stops when `visit` returns true.
  template <typename Fn>
  static bool ForEachPlayer(const Position& pos, Fn&& visit) {
    if (visit(pos.turn.player)) return true;
    const State& s = *Slice(pos);
    if (s.variants.any_time() != AnyTime::kAnyPlayersTurn) return false;
    const int n = static_cast<int>(pos.players.size());
    for (int i = 1; i < n; ++i) {
      PlayerId q = (pos.turn.player + i) % n;
      for (Card c : s.hands[q])
        if (TimingOf(c) == Timing::kAnyTime) {
          if (visit(q)) return true;
          break;
        }
    }
    return false;
  }

 private:
  bool BlocksMeeple(const Position& pos, const Action& a) const {
    const State* s = Slice(pos);
    return w_ == Window::kEarly && s && a.figure_kind == model::kMeeple &&
           s->variants.extra() == Extra::kReplacesNormal && s->card_figures_this_turn > 0;
  }
  Window w_;
  std::string_view name_;
};

// XMAS-Q-LIGHTNING (drawn-turn-only): lightning cards not used in the turn they were drawn are
// discarded at its end; unused modifiers too.
class EndCardsStep final : public model::Step {
 public:
  std::string_view Name() const override { return kStepEndCards; }
  bool NeedsDecision(const Position&) const override { return false; }
  bool Handles(const Position&, const Action&) const override { return false; }
  void Legal(const Position&, std::vector<Action>&) const override {}
  ApplyResult Apply(Position&, const Action&) const override { return {}; }
  void Run(Position& pos, ApplyResult& r) const override {
    State* s = Slice(pos);
    if (!s || pos.turn.placed < 0) return;
    if (s->variants.lightning() == Lightning::kDrawnTurnOnly) {
      auto& h = s->hands[pos.turn.player];
      for (size_t i = h.size(); i-- > 0;)
        if (TimingOf(h[i]) == Timing::kImmediate) {
          r.notes.push_back({"XMAS-Q-LIGHTNING", std::string(Info(h[i]).name) +
                                                     " was not used in the turn it was drawn: "
                                                     "discarded"});
          s->discard.push_back(h[i]);
          h.erase(h.begin() + i);
        }
    }
    for (size_t i = s->attached.size(); i-- > 0;)
      if (IsScoringModifier(s->attached[i].card)) {
        s->discard.push_back(s->attached[i].card);
        s->attached.erase(s->attached.begin() + i);
      }
  }
  // Never reached (no decision here).
  model::Reason OutOfStep(const Position&, const Action&) const override {
    return {"XMAS-Q-LIGHTNING", "unused lightning cards leave the hand at the end of the turn"};
  }
};

// XMAS-HAND, XMAS-Q-HANDLIMIT: at most 5 cards at the end of one's own turn.
class HandLimitStep final : public model::Step {
 public:
  std::string_view Name() const override { return kStepHandLimit; }
  bool NeedsDecision(const Position& pos) const override {
    const State* s = Slice(pos);
    return s && pos.turn.placed >= 0 &&
           static_cast<int>(s->hands[pos.turn.player].size()) > kHandLimit;
  }
  bool Handles(const Position&, const Action& a) const override { return IsCode(a, {kDiscard}); }
  void Legal(const Position& pos, std::vector<Action>& out) const override {
    const auto& h = Slice(pos)->hands[pos.turn.player];
    for (Card c : std::set<Card>(h.begin(), h.end()))
      out.push_back(MakeAction(kDiscard, {static_cast<int>(c), pos.turn.player}));
  }
  ApplyResult Apply(Position& pos, const Action& a) const override {
    State& s = *Slice(pos);
    Card c = kCardArg(a);
    if (kPlayerArg(a) != pos.turn.player)
      return Illegal("XMAS-HAND", "only the player whose turn ends discards down to 5 cards");
    if (Copies(s.hands[pos.turn.player], c) == 0)
      return Illegal("XMAS-HAND",
                     pos.players[pos.turn.player].name + " holds no " + Info(c).name + " card");
    Discard(s, pos.turn.player, c);
    ApplyResult r;
    r.verdict.reasons.push_back({"XMAS-HAND", "more than 5 cards at the end of the turn: " +
                                                  std::string(Info(c).name) + " is discarded"});
    r.verdict.reasons.push_back(
        {"XMAS-Q-HANDLIMIT", s.variants.hand_limit() == HandLimit::kHolderChooses
                                 ? "the holder chooses the card"
                                 : "random-discard: the card is drawn blind; the question states "
                                   "which"});
    return r;
  }
  // XMAS-HAND: more than 5 cards: the discard comes first.
  model::Reason OutOfStep(const Position& pos, const Action&) const override {
    return {"XMAS-HAND", pos.players[pos.turn.player].name + " holds " +
                             std::to_string(Slice(pos)->hands[pos.turn.player].size()) +
                             " cards at the end of the turn: they discard down to 5 first "
                             "(xmas_discard)"};
  }
};

// The step that draws a card of deck `d`.
const DrawCardStep& DrawStep(Deck d) {
  static const DrawCardStep draw_monastery(Deck::kMonastery, kStepDrawMonastery);
  static const DrawCardStep draw_road(Deck::kRoad, kStepDrawRoad);
  return d == Deck::kMonastery ? draw_monastery : draw_road;
}

}  // namespace

// xmas_play out of its window: another player's turn (XMAS-USE, XMAS-Q-ANYTIME) or a step
// where no card window is open.
static std::optional<Verdict> PlayOutOfStep(const Position& pos, const State* s, const Action& a,
                                            bool turn_ending) {
  const PlayerId active = pos.turn.player;
  const std::string& who = pos.players[active].name;
  const std::string step(pos.current_step().Name());
  const Play p = DecodePlay(a);
  if (p.player < 0 || p.player >= static_cast<int>(pos.players.size())) return std::nullopt;
  const CardInfo& ci = Info(p.card);
  const std::string& holder = pos.players[p.player].name;
  if (p.player != active) {
    // Right after the last decision of a turn, the next player's card may begin their
    // coming turn (take-two-tiles): the position moves on and judges it there.
    const int n = static_cast<int>(pos.players.size());
    if (turn_ending && p.player == (active + 1) % n) return std::nullopt;
    if (s->variants.any_time() == AnyTime::kAnyPlayersTurn && ci.timing == Timing::kAnyTime &&
        p.card != Card::kTakeTwoTiles && p.card != Card::kCancelAttack)
      return Verdict::Illegal(
          "XMAS-Q-ANYTIME",
          "any-players-turn: " + holder + " may play " + ci.name + " in " + who +
              "'s turn only at its card windows (after the card draws, after the figure "
              "placement), not at step " +
              step +
              (pos.turn.drawn && pos.turn.placed < 0
                   ? " while " + who +
                         " holds the drawn tile: drawing and placing it is one act of " + who +
                         " (only the forced-placement card is aimed at that moment, "
                         "XMAS-Q-FORCE)"
                   : std::string()));
    Verdict v = Verdict::Illegal(
        "XMAS-USE", holder + " plays " + ci.name + " in " + who +
                        "'s turn: cards in hand are played only in the holder's own turn; "
                        "the one exception, the cancel card, answers a road-deck card aimed "
                        "at its holder (xmas_cancel)");
    // XMAS-Q-ANYTIME: a no-symbol card's "at any time" is the disputed point; the adopted
    // reading decides it at every step of another player's turn, as at its card windows.
    if (ci.timing == Timing::kAnyTime && p.card != Card::kCancelAttack)
      v.reasons.push_back(
          {"XMAS-Q-ANYTIME", std::string(ci.name) +
                                 " has no symbol (\"at any time\"): read as any step of the "
                                 "holder's own turn (own-turn-any-step), so never in " +
                                 who + "'s turn, whatever its step (here " + step + ")"});
    return v;
  }
  if (turn_ending || pos.turn.placed >= 0) {
    // The card's own rule first: a card that could not be played at the turn's last window
    // either (e.g. figure-occupied-city on a city holding only the player's own knight) is
    // refused for that reason, not for the timing (a window with no playable card passes
    // by itself, so the turn may already stand past it).
    const int late = pos.cfg().StepIndex(kStepCardsLate);
    if (pos.turn.placed >= 0 && late >= pos.turn.step) {
      Verdict own = CheckPlay(pos, p, Window::kLate);
      if (!own.legal) return own;
    }
    return Verdict::Illegal(
        "XMAS-USE", who + "'s card windows of this turn are " +
                        (turn_ending ? "over: the last one comes after the figure placement, "
                                       "before the scoring"
                                     : "not open at step " + step +
                                           ", which waits for its "
                                           "own decision first"));
  }
  // The card's own window (CheckPlay) says why it cannot be played here, if it cannot.
  Verdict v = CheckPlay(pos, p, pos.turn.drawn ? Window::kPlacement : Window::kTurnStart);
  if (!v.legal) return v;
  if (!pos.turn.drawn)
    return Verdict::Illegal("XMAS-USE", who + " has passed the card window before the draw");
  return Verdict::Illegal(
      "XMAS-USE", who + " must first decide at step " + step + " before playing " + ci.name);
}

// xmas_draw_card when no card is drawn (XMAS-DRAW-MONASTERY, XMAS-DRAW-ROAD, XMAS-FN2).
static std::optional<Verdict> DrawOutOfStep(const Position& pos, const State* s, const Action& a) {
  const std::string& who = pos.players[pos.turn.player].name;
  const std::string step(pos.current_step().Name());
  const Deck deck = kDeckArg(a);
  const char* ruling = deck == Deck::kMonastery ? "XMAS-DRAW-MONASTERY" : "XMAS-DRAW-ROAD";
  const std::string name = std::string(DeckName(deck)) + " card";
  if (pos.turn.placed < 0)
    return Verdict::Illegal(ruling, "a " + name + " is drawn for the tile placed, and " + who +
                                        " has not placed this turn's tile yet");
  if (model::Decided(pos, model::IndexOf(pos, DrawStep(deck))))
    return Verdict::Illegal(ruling, who + " already drew or declined the " + name +
                                        " of this tile: one per deck per tile");
  if (s->decks[static_cast<int>(deck)].cards.empty())
    return Verdict::Illegal("XMAS-FN2", "the " + std::string(DeckName(deck)) +
                                            " deck is empty and the discards are never "
                                            "reshuffled");
  if (!QualifiesDraw(pos, deck)) {
    const Dispute d = deck == Deck::kMonastery ? Dispute::kDrawMonastery : Dispute::kDrawRoad;
    const std::string reading = Disputes(d).readings[s->variants.v[static_cast<int>(d)]];
    const std::string tile = "tile " +
                             pos.cfg().catalog->Name(pos.board.tile(pos.turn.placed).type) +
                             " at " + model::TileAt(pos, model::Board::Node(pos.turn.placed, 0));
    return Verdict::Illegal(
        ruling,
        tile + " does not qualify for a " + name + " under the reading " + reading +
            (deck == Deck::kMonastery ? ": it must be placed next to another player's monastery"
                                      : ": the tile must show only road"));
  }
  return Verdict::Illegal(ruling, "the " + name +
                                      " is drawn right after the tile, before "
                                      "anything else of the turn; " +
                                      who + " has moved on to step " + step);
}

// XMAS-USE (cards only in one's own turn, the cancel card excepted), XMAS-Q-ANYTIME, XMAS-END,
// XMAS-DRAW-MONASTERY / XMAS-DRAW-ROAD (when a card is drawn), XMAS-FN2, XMAS-FN8, XMAS-HAND,
// XMAS-CARD-TAKE-TWO-TILES: a Christmas Present action the turn cannot take where it stands.
std::optional<Verdict> OutOfStepRuling(const Position& pos, const Action& a) {
  if (!IsCode(a, {kDrawCard, kPlay, kCancel, kAllow, kDiscard, kKeepTile})) return std::nullopt;
  const State* s = Slice(pos);
  if (!s) return std::nullopt;
  const PlayerId active = pos.turn.player;
  const std::string& who = pos.players[active].name;
  if (pos.turn.game_over)
    return Verdict::Illegal("XMAS-END",
                            "the game is over: end cards were revealed before final "
                            "scoring, and cards for use during the game can no "
                            "longer be played, drawn or discarded");
  const bool turn_ending = !pos.current_step().NeedsDecision(pos);
  const std::string step(pos.current_step().Name());
  switch (a.code) {
    case kPlay:
      return PlayOutOfStep(pos, s, a, turn_ending);
    case kDrawCard:
      return DrawOutOfStep(pos, s, a);
    case kCancel:
    case kAllow:
      return Verdict::Illegal("XMAS-FN8",
                              "no road-deck card waits for an answer: the cancel "
                              "card answers an attack when it is played");
    case kDiscard:
      if (turn_ending && static_cast<int>(s->hands[active].size()) <= kHandLimit)
        return Verdict::Illegal("XMAS-HAND", who + " holds " +
                                                 std::to_string(s->hands[active].size()) +
                                                 " card(s): cards are discarded only down to 5, "
                                                 "at the end of one's own turn");
      return Verdict::Illegal("XMAS-HAND",
                              "cards are discarded only at the end of one's own "
                              "turn, down to 5; " +
                                  who + "'s turn is at step " + step);
    case kKeepTile:
      return Verdict::Illegal("XMAS-CARD-TAKE-TWO-TILES",
                              "no pair of tiles drawn with take-two-tiles waits for the choice");
  }
  return std::nullopt;
}

// The steps at their anchors (this module's README, "Turn steps"); the same pipeline as before the
// loader (model/expansions/pipeline_golden.txt).
void AddSteps(model::ModuleLoader& loader) {
  using model::Place;
  static const TurnStartStep turn_start;
  const DrawCardStep& draw_monastery = DrawStep(Deck::kMonastery);
  const DrawCardStep& draw_road = DrawStep(Deck::kRoad);
  static const CardWindowStep early(Window::kEarly, kStepCardsEarly);
  static const CardWindowStep late(Window::kLate, kStepCardsLate);
  static const EndCardsStep end_cards;
  static const HandLimitStep hand_limit;
  // kAfter goes right after the anchor: listed last-first.
  loader.AddStep(model::kPlaceTile, Place::kAfter, &early);
  loader.AddStep(model::kPlaceTile, Place::kAfter, &draw_road);
  loader.AddStep(model::kPlaceTile, Place::kAfter, &draw_monastery);
  loader.AddStep(model::kPlaceTile, Place::kAfter, &ForceSpent());
  loader.AddStep(model::kDrawTile, Place::kBefore, &turn_start);
  loader.AddStep(model::kScoreCompleted, Place::kBefore, &late);
  loader.AddStep(model::kEndTurn, Place::kBefore, &end_cards);
  loader.AddStep(model::kEndTurn, Place::kBefore, &hand_limit);
  // The card window before the tile and the forced placement's answers (force_steps.cc).
  loader.AddStep(model::kPlaceTile, Place::kBefore, &ForcedPlace());
}

}  // namespace carc::exp::christmas_present
