// The points cards (family.h): 3-points, and the immediate scoring of an unfinished feature
// where the player leads: double-road, city-plus-one, monastery-bonus. Fixtures: x25-x31, x88, x91,
// d01.
#include <algorithm>

#include "model/core/core_steps.h"
#include "model/core/scoring.h"
#include "model/expansions/christmas_present/christmas_present.h"
#include "model/expansions/christmas_present/family.h"

namespace carc::exp::christmas_present {

using internal::KindName;
using internal::Root;
using model::ApplyResult;
using model::Board;
using model::PlayerId;
using model::Position;
using model::ScoreEvent;

namespace {

// XMAS-CARD-3-POINTS; XMAS-CARD-DOUBLE-ROAD, -CITY-PLUS-ONE, -MONASTERY-BONUS: an unfinished
// feature of the card's kind in which the player holds the majority (advantage cards count).
bool Check(const Position& pos, const Play& p, Window, Judge& j) {
  const CardInfo& ci = Info(p.card);
  if (p.card == Card::k3Points)
    return j.Yes(ci.ruling, [] { return "the player whose turn it is scores 3 points"; });
  if (!internal::CheckKind(pos, p, j)) return false;
  const int root = Root(pos, p.node);
  if (pos.board.IsComplete(root))
    return j.No(ci.ruling, [&] {
      return std::string(ci.name) + " scores an unfinished " + KindName(*ci.kind) +
             "; this one is completed";
    });
  ScoreEvent v = model::FinalValue(pos, root);
  if (std::find(v.winners.begin(), v.winners.end(), p.player) == v.winners.end())
    return j.No(ci.ruling, [&] {
      return pos.players[p.player].name + " does not hold the majority in the " +
             KindName(*ci.kind);
    });
  return j.Yes(ci.ruling, [&] {
    return pos.players[p.player].name + " holds the majority in the unfinished " +
           KindName(*ci.kind);
  });
}

bool Targets(const Position& pos, const Play& card, Visit visit) {
  if (card.card == Card::k3Points) return visit(card);
  return internal::FeatureTargets(pos, card, /*per_segment=*/false, visit);
}

// XMAS-CARD-DOUBLE-ROAD, -CITY-PLUS-ONE, -MONASTERY-BONUS, XMAS-FN3..FN6 (XMAS-FN4 with its
// reading): the card's value of an unfinished feature.
int CardValue(const Position& pos, const State& s, Card c, const ScoreEvent& v,
              std::string& formula) {
  int n = static_cast<int>(v.tiles.size());
  switch (c) {
    case Card::kDoubleRoad:
      formula = "2 x " + std::to_string(n) + " tiles (XMAS-FN3)";
      return 2 * n;
    case Card::kCityPlusOne:
      formula = "2 x " + std::to_string(n) + " tiles + 1 x " + std::to_string(v.shields) +
                " coats of arms (XMAS-FN5)";
      return 2 * n + v.shields;
    default: {
      int around = pos.board.MonasteryNeighbours(Board::TileOf(v.root));
      if (s.variants.monastery_count() == MonasteryCount::kIncludeMonasteryTile) {
        formula = "1 + " + std::to_string(around) + " tiles around (include-monastery-tile)";
        return 1 + around;
      }
      formula =
          std::to_string(around) + " tiles around, the monastery itself not counted (XMAS-FN6)";
      return around;
    }
  }
}

// XMAS-FN3..FN6 (scored as at game end, figures return: FN4 Q&A 1/2023), XMAS-Q-TIEDSCORING
// (tied co-leaders), XMAS-FN12 (a laid-down feature: fixed now and paid at game end, or paid
// now).
void ScoreNow(Position& pos, const Play& p, ApplyResult& r) {
  State& s = *Slice(pos);
  const CardInfo& ci = Info(p.card);
  const int root = Root(pos, p.node);
  ScoreEvent v = model::FinalValue(pos, root);
  ScoreEvent ev = v;
  ev.cause = MakeCause(Cause::kCard);
  ev.rulings = {ci.ruling,
                p.card == Card::kDoubleRoad    ? "XMAS-FN3"
                : p.card == Card::kCityPlusOne ? "XMAS-FN5"
                                               : "XMAS-FN6",
                "XMAS-FN4"};
  ev.points = CardValue(pos, s, p.card, v, ev.formula);
  ev.receives.clear();  // the card's value, whole to each winner (not the usual value's shares)
  std::vector<PlayerId> others;
  for (PlayerId w : v.winners)
    if (w != p.player) others.push_back(w);
  TiedScoring ts = s.variants.tied_scoring();
  if (!others.empty()) ev.rulings.push_back("XMAS-Q-TIEDSCORING");
  if (ts == TiedScoring::kAllTiedLeaders) {
    ev.winners = v.winners;
  } else {
    ev.winners = {p.player};
  }
  std::vector<ScoreEvent> events = {ev};
  if (ts == TiedScoring::kTiedLeadersNormalRate && !others.empty()) {
    ScoreEvent o = v;
    o.cause = MakeCause(Cause::kCard);
    o.winners = others;
    // What the usual value pays each of them (XMAS-Q-SHARE split-value: their share).
    if (v.StatesShares()) {
      o.receives.clear();
      for (size_t i = 0; i < v.winners.size(); ++i)
        if (v.winners[i] != p.player) o.receives.push_back(v.Receives(i));
    }
    o.rulings.push_back("XMAS-Q-TIEDSCORING");
    o.formula += " (tied co-leaders at the normal end-game value)";
    events.push_back(o);
  }
  const bool laid_down = IsLaidDown(pos, s, root);
  for (ScoreEvent& e : events) {
    if (laid_down && s.variants.laid_down_card() == LaidDownCard::kFixedNowPaidAtEnd)
      Defer(pos, s, root, e);
    else if (laid_down)
      e.rulings.push_back("XMAS-FN12");
    model::Award(pos, e);
    r.scores.push_back(e);
  }
  if (laid_down)
    r.notes.push_back({"XMAS-FN12", s.variants.laid_down_card() == LaidDownCard::kPaidNow
                                        ? "paid-now: the card's points on a laid-down " +
                                              KindName(v.kind) + " are paid at once"
                                        : "the " + KindName(v.kind) +
                                              " is laid down: the card's value is noted and "
                                              "paid at game end"});
  // XMAS-FN4 (Q&A 1/2023): every figure of the scored feature returns to its owner; the cards
  // on it leave with them (OnFeatureScored, through the core).
  model::ReturnFigures(pos, pos.FiguresIn(root));
  r.notes.push_back(
      {"XMAS-FN4", "the figures on the scored " + KindName(v.kind) + " return to their owners"});
  model::FeatureScored(pos, root, r);
}

// XMAS-CARD-3-POINTS: 3 points to the card player; the others: ScoreNow.
bool Resolve(Position& pos, const Play& p, ApplyResult& r) {
  if (p.card != Card::k3Points) {
    ScoreNow(pos, p, r);
    return true;
  }
  ScoreEvent ev;
  ev.cause = MakeCause(Cause::kCard);
  ev.winners = {p.player};
  ev.strength.assign(pos.players.size(), 0);
  ev.points = 3;
  ev.formula = "3 points for the card";
  ev.rulings = {Info(p.card).ruling};
  model::Award(pos, ev);
  r.scores.push_back(ev);
  return true;
}

}  // namespace

const Family& PointsCards() {
  static const Family kFamily{
      .name = "points",
      .cards = {Card::k3Points, Card::kDoubleRoad, Card::kCityPlusOne, Card::kMonasteryBonus},
      .untargeted = {Card::k3Points},
      .check = Check,
      .targets = Targets,
      .resolve = Resolve,
  };
  return kFamily;
}

}  // namespace carc::exp::christmas_present
