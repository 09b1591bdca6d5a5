// Can the Christmas Present slice arise under the rules? Each violation names its ruling.
#include <algorithm>

#include "model/core/json_reader.h"  // TileAt
#include "model/expansions/christmas_present/christmas_present.h"
#include "model/expansions/christmas_present/hooks.h"
#include "model/expansions/christmas_present/logic.h"

namespace carc::exp::christmas_present {

using model::FeatureKind;
using model::Position;
using model::Violation;

void Validate(const Position& pos, std::vector<Violation>& out) {
  const State* s = Slice(pos);
  if (!s) return;
  const std::string w = "/expansions/christmas_present";
  // XMAS-SETUP: two copies of each of the 32 kinds, each in its own deck or in play.
  std::array<int, kCardKinds> n = CardCounts(*s);
  // A deck given as a list is the whole deck: copies missing from it are one misreading of the
  // format (a deck listed by its top cards only), said once per deck with how to state it, not
  // once per card kind.
  std::array<int, 2> missing = {0, 0};
  for (int k = 0; k < kCardKinds; ++k)
    if (n[k] < kCopies) missing[static_cast<int>(DeckOf(static_cast<Card>(k)))] += kCopies - n[k];
  for (Deck d : {Deck::kMonastery, Deck::kRoad}) {
    const int i = static_cast<int>(d);
    if (missing[i] == 0 || !s->decks[i].ordered) continue;
    const std::string deck(DeckName(d));
    out.push_back(
        {"XMAS-SETUP", w + "/decks/" + deck,
         "the " + deck + " deck is a list of " + std::to_string(s->decks[i].cards.size()) +
             " card(s) in a known order, and " + std::to_string(missing[i]) + " card(s) of the " +
             deck +
             " deck appear nowhere (decks, hands, discard, in play; the game has 2 of each of "
             "its 16 kinds): a list is the whole deck, top first. A deck known only at the top "
             "is stated as \"rest\" (order unknown; each xmas_draw_card then names the card "
             "drawn), and cards out of play as the discard pile (\"discard\": \"rest\" puts "
             "every copy not stated elsewhere there)"});
  }
  for (int k = 0; k < kCardKinds; ++k)
    if (n[k] != kCopies &&
        !(n[k] < kCopies && s->decks[static_cast<int>(DeckOf(static_cast<Card>(k)))].ordered))
      out.push_back({"XMAS-SETUP", w,
                     std::string(Info(static_cast<Card>(k)).name) + " appears " +
                         std::to_string(n[k]) +
                         " times (decks, hands, discard, in play); the game has 2"});
  const int np = static_cast<int>(pos.players.size());
  for (int p = np; p < static_cast<int>(s->hands.size()); ++p)
    if (!s->hands[p].empty()) out.push_back({"XMAS-HAND", w + "/hands", "a hand of no player"});
  // Cards are drawn after the tile placement, in this part of the turn or an earlier one (an
  // extra part with a draw of its own, TurnState::part).
  const bool turn_started = pos.turn.placed >= 0 || pos.turn.part > 1;
  for (int p = 0; p < np && p < static_cast<int>(s->hands.size()); ++p) {
    const auto& h = s->hands[p];
    const bool own_turn_cards = p == pos.turn.player && turn_started;
    // XMAS-HAND: at most 5 cards, except in the holder's turn before the end-of-turn discard.
    if (static_cast<int>(h.size()) > kHandLimit && !own_turn_cards)
      out.push_back({"XMAS-HAND", w + "/hands/" + std::to_string(p),
                     pos.players[p].name + " holds " + std::to_string(h.size()) +
                         " cards; excess cards are discarded at the end of the holder's turn"});
    // XMAS-Q-LIGHTNING (drawn-turn-only): a lightning card never stays in hand past its turn.
    if (s->variants.lightning() == Lightning::kDrawnTurnOnly && !own_turn_cards)
      for (Card c : h)
        if (TimingOf(c) == Timing::kImmediate) {
          out.push_back({"XMAS-Q-LIGHTNING", w + "/hands/" + std::to_string(p),
                         std::string(Info(c).name) +
                             " is a lightning card: used in the turn it is drawn or discarded"});
          break;
        }
  }
  // XMAS-CARD-LAY-DOWN-*: roads, cities and monasteries only.
  for (size_t i = 0; i < s->laid_down.size(); ++i)
    if (pos.board.segment(s->laid_down[i]).kind == FeatureKind::kField)
      out.push_back({"XMAS-CARD-LAY-DOWN-ROAD", w + "/laid_down/" + std::to_string(i),
                     "only a road, city or monastery is laid down"});
  // Cards attached to features: their kind.
  for (size_t i = 0; i < s->attached.size(); ++i) {
    const Attached& a = s->attached[i];
    const CardInfo& ci = Info(a.card);
    bool ok = ci.kind && pos.board.segment(a.node).kind == *ci.kind &&
              (IsScoringModifier(a.card) || a.card == Card::kAdvantageRoad ||
               a.card == Card::kAdvantageCity || a.card == Card::kAdvantageMonastery);
    if (IsScoringModifier(a.card) && !PendingScoring(pos, pos.board.Find(a.node))) ok = false;
    if (!ok) {
      out.push_back({ci.ruling, w + "/attached/" + std::to_string(i),
                     std::string(ci.name) + " cannot stay on this feature"});
      continue;
    }
    // XMAS-Q-ADVANTAGE: an advantage card counts until its feature is scored, and a completed
    // feature is scored (for nobody, if no figure is on it) in the scoring step of the turn that
    // completed it: after that turn the card is on the discard pile, not on the feature.
    const int root = pos.board.Find(a.node);
    if (!IsScoringModifier(a.card) && pos.board.IsComplete(root) && !PendingScoring(pos, root))
      out.push_back({"XMAS-Q-ADVANTAGE", w + "/attached/" + std::to_string(i),
                     pos.players[a.player].name + "'s " + ci.name + " lies on the " +
                         std::string(model::FeatureKindName(pos.board.Info(root).kind)) + " at " +
                         model::TileAt(pos, a.node) +
                         ", completed in an earlier turn: the card left it for the discard pile "
                         "when the feature was scored"});
  }
  // XMAS-FN12: deferred values belong to completed laid-down features, or (fixed-now-paid-at-end)
  // to a laid-down feature an immediate scoring card scored unfinished.
  const bool card_deferred = s->variants.laid_down_card() == LaidDownCard::kFixedNowPaidAtEnd;
  for (size_t i = 0; i < s->deferred.size(); ++i) {
    const int root = pos.board.Find(s->deferred[i].node);
    if (!pos.board.IsComplete(root) && !(card_deferred && IsLaidDown(pos, *s, root)))
      out.push_back({"XMAS-FN12", w + "/deferred/" + std::to_string(i),
                     "a deferred value belongs to a laid-down feature that was completed (or, "
                     "fixed-now-paid-at-end, scored by an immediate card)"});
  }
  // XMAS-Q-FORCE: an opponent, an empty square.
  for (size_t i = 0; i < s->forces.size(); ++i) {
    const Force& f = s->forces[i];
    if (f.holder == f.target || pos.board.At(f.square))
      out.push_back({"XMAS-Q-FORCE", w + "/forces/" + std::to_string(i),
                     "a forced placement names an opponent and an empty square"});
  }
  // XMAS-FN8: only opponents holding a cancel card wait to answer.
  if (s->pending)
    for (model::PlayerId q : s->pending->waiting)
      if (q == pos.turn.player || Copies(s->hands[q], Card::kCancelAttack) == 0)
        out.push_back({"XMAS-FN8", w + "/pending_attack/waiting",
                       pos.players[q].name + " cannot answer: no cancel card or not an opponent"});
}

// The core's figure checks, relaxed for what cards make possible; a card counts as played once
// a copy lies on the discard pile.
// - BASE-MEEPLE-TILE: a figure-unoccupied-*, figure-occupied-* or swap-* card puts a figure on
//   an earlier tile (XMAS-CARD-FIGURE-UNOCCUPIED-*, XMAS-CARD-FIGURE-OCCUPIED-*, XMAS-CARD-SWAP-*).
// - BASE-MEEPLE-FREE: a figure-occupied-* card puts a second figure on an occupied feature of
//   its kind, on the same segment too (XMAS-CARD-FIGURE-OCCUPIED-*, XMAS-FN6).
// - BASE-RETURN: figures on a laid-down feature stay on it when it is completed (XMAS-FN11,
//   XMAS-FN12).
bool Excused(const Position& pos, int figure, model::Excuse excuse) {
  const State* s = Slice(pos);
  if (!s || figure < 0 || figure >= static_cast<int>(pos.figures.size())) return false;
  auto played = [&](std::initializer_list<Card> cards) {
    for (Card c : cards)
      if (std::find(s->discard.begin(), s->discard.end(), c) != s->discard.end()) return true;
    return false;
  };
  const std::initializer_list<Card> occupied = {
      Card::kFigureOccupiedField, Card::kFigureOccupiedRoad, Card::kFigureOccupiedCity,
      Card::kFigureOccupiedMonastery};
  if (excuse == model::Excuse::kOccupiedFeature) {
    // Only the card of the feature's kind puts a second figure on it (a swap only trades places).
    switch (pos.board.Info(pos.board.Find(pos.figures[figure].node)).kind) {
      case model::FeatureKind::kField:
        return played({Card::kFigureOccupiedField});
      case model::FeatureKind::kRoad:
        return played({Card::kFigureOccupiedRoad});
      case model::FeatureKind::kCity:
        return played({Card::kFigureOccupiedCity});
      case model::FeatureKind::kMonastery:
        return played({Card::kFigureOccupiedMonastery});
    }
    return false;
  }
  if (excuse == model::Excuse::kNotOnPlacedTile)
    return played(occupied) || played({Card::kFigureUnoccupiedField, Card::kFigureUnoccupiedRoad,
                                       Card::kFigureUnoccupiedCity, Card::kSwapMonastery,
                                       Card::kSwapCity, Card::kSwapRoad, Card::kSwapField});
  // BASE-RETURN: a laid-down figure stays on its completed feature; BASE-MEEPLE-TILE: a figure
  // may lie on a road, city or monastery only where a lay-down card laid its feature down
  // (XMAS-FN11).
  if (excuse == model::Excuse::kStaysOnCompleted || excuse == model::Excuse::kLaidDown) {
    const int root = pos.board.Find(pos.figures[figure].node);
    for (int node : s->laid_down)
      if (pos.board.Find(node) == root) return true;
  }
  return false;
}

}  // namespace carc::exp::christmas_present
