// The scoring modifiers (family.h): double-loop-road, 3-per-arms, 3-per-tile-no-arms, played on a
// feature this turn's tile completes, at xmas_cards_late, and paid when the scoring step scores
// it (ChristmasPresent::OnCompleted, scoring_hooks.cc). Fixtures: x53-x57, x83-x87, x92-x95.
#include <algorithm>
#include <set>

#include "model/core/scoring.h"
#include "model/expansions/christmas_present/family.h"

namespace carc::exp::christmas_present {

using internal::KindName;
using internal::Root;
using model::ApplyResult;
using model::Board;
using model::Position;
using model::ScoreEvent;

namespace {

// XMAS-Q-LOOP: endless-loop-only = every road segment of the road runs through its tile (two
// sides), so the road has no end; geometric-loop also accepts a road whose two ends stop on the
// same tile (a junction it leaves and re-enters).
bool IsLoop(const Position& pos, int root, Loop reading) {
  const Board& b = pos.board;
  if (!b.IsComplete(root)) return false;
  std::vector<int> end_tiles;
  std::set<int> tiles(b.Info(root).tiles.begin(), b.Info(root).tiles.end());
  for (int t : tiles) {
    const auto& rt = b.rotated(t);
    for (size_t i = 0; i < rt.segments.size(); ++i) {
      if (b.Find(Board::Node(t, static_cast<int>(i))) != root) continue;
      if (__builtin_popcount(rt.segments[i].sides) < 2) end_tiles.push_back(t);
    }
  }
  if (end_tiles.empty()) return true;
  return reading == Loop::kGeometricLoop && end_tiles.size() == 2 && end_tiles[0] == end_tiles[1];
}

// XMAS-CARD-DOUBLE-LOOP-ROAD (XMAS-Q-LOOP), XMAS-CARD-3-PER-ARMS, XMAS-CARD-3-PER-TILE-NO-ARMS:
// a feature of the card's kind that this turn's tile completes ("if the player completes"),
// in which the player holds the majority; the loop closed, the city with or without arms.
bool Check(const Position& pos, const Play& p, Window, Judge& j) {
  const State& s = *Slice(pos);
  const CardInfo& ci = Info(p.card);
  if (!internal::CheckKind(pos, p, j)) return false;
  const int root = Root(pos, p.node);
  if (!PendingScoring(pos, root))
    return j.No(ci.ruling, [&] {
      return "the " + KindName(*ci.kind) + " is not completed by this turn's tile";
    });
  if (p.card == Card::kDoubleLoopRoad && !IsLoop(pos, root, s.variants.loop()))
    return j.No("XMAS-Q-LOOP", [&] {
      return "the road is not a closed loop (" +
             std::string(s.variants.loop() == Loop::kEndlessLoopOnly
                             ? "it has ends"
                             : "its ends are on different tiles") +
             ")";
    });
  const int shields = pos.board.Info(root).shields;
  if (p.card == Card::k3PerArms && shields == 0)
    return j.No(ci.ruling, [] { return "the city has no coat of arms"; });
  if (p.card == Card::k3PerTileNoArms && shields > 0)
    return j.No(ci.ruling, [] { return "the city has a coat of arms"; });
  ScoreEvent ev;
  ev.kind = *ci.kind;
  ev.root = root;
  model::Majority(pos, pos.FiguresIn(root), ev);
  if (std::find(ev.winners.begin(), ev.winners.end(), p.player) == ev.winners.end())
    return j.No(ci.ruling, [&] {
      return pos.players[p.player].name + " does not hold the majority in the " +
             KindName(*ci.kind);
    });
  j.Yes(ci.ruling,
        [&] { return "the completed " + KindName(*ci.kind) + " is scored at the card's rate"; });
  if (p.card == Card::kDoubleLoopRoad) j.Yes("XMAS-Q-LOOP", [] { return "a closed loop"; });
  return true;
}

bool Targets(const Position& pos, const Play& card, Visit visit) {
  // Check needs a road or city this turn's tile completes (PendingScoring): a segment of the
  // card's kind on that tile whose feature is complete. Without one no target passes.
  const CardInfo& ci = Info(card.card);
  if (ci.kind && (*ci.kind == model::FeatureKind::kRoad || *ci.kind == model::FeatureKind::kCity)) {
    const int placed = pos.turn.placed;
    if (placed < 0) return false;
    const auto& rt = pos.board.rotated(placed);
    bool any = false;
    for (size_t i = 0; i < rt.segments.size() && !any; ++i)
      any = rt.segments[i].kind == *ci.kind &&
            pos.board.IsComplete(pos.board.Find(Board::Node(placed, static_cast<int>(i))));
    if (!any) return false;
  }
  return internal::FeatureTargets(pos, card, /*per_segment=*/false, visit);
}

// XMAS-FN7, XMAS-FN9, XMAS-FN10: the card stays on the feature until the scoring step scores it
// (OnCompleted) or the turn ends (xmas_end_cards discards it).
bool Resolve(Position& pos, const Play& p, ApplyResult&) {
  Slice(pos)->attached.push_back({p.player, p.card, p.node});
  return false;
}

}  // namespace

// XMAS-FN7, XMAS-FN9 / XMAS-FN10 (each with CardRate): the card's value of the completed
// feature whose usual value is `usual`.
int ModifierValue(const State& s, Card card, const ScoreEvent& usual, std::string& formula) {
  const int n = static_cast<int>(usual.tiles.size());
  const std::string tiles = std::to_string(n) + " tiles";
  switch (card) {
    case Card::kDoubleLoopRoad:
      formula = "2 x " + tiles + " (closed loop, card)";
      return 2 * n;
    case Card::k3PerArms:
      if (s.variants.arms_rate() == CardRate::kPlusOne) {
        formula = usual.formula + " + 1 x " + std::to_string(usual.shields) +
                  " coats of arms (card: +1 per arms, plus-one)";
        return usual.points + usual.shields;
      }
      formula =
          "2 x " + tiles + " + 3 x " + std::to_string(usual.shields) + " coats of arms (card)";
      return 2 * n + 3 * usual.shields;
    default:
      if (s.variants.no_arms_rate() == CardRate::kPlusOne) {
        formula = usual.formula + " + 1 x " + tiles + " (card: +1 per tile, plus-one)";
        return usual.points + n;
      }
      formula = "3 x " + tiles + " (city without arms, card)";
      return 3 * n;
  }
}

const Family& ModifierCards() {
  static const Family kFamily{
      .name = "modifier",
      .cards = {Card::kDoubleLoopRoad, Card::k3PerArms, Card::k3PerTileNoArms},
      .check = Check,
      .targets = Targets,
      .resolve = Resolve,
  };
  return kFamily;
}

}  // namespace carc::exp::christmas_present
