// Christmas Present: may this card be played now, on this target? (logic.h CheckPlay)
#include <algorithm>
#include <cstdlib>
#include <set>

#include "model/core/core_steps.h"
#include "model/core/position_io.h"
#include "model/core/scoring.h"
#include "model/expansions/christmas_present/logic.h"
#include "model/expansions/christmas_present/logic_internal.h"

namespace carc::exp::christmas_present {

using model::Action;
using model::ApplyResult;
using model::Board;
using model::FeatureKind;
using model::PlayerId;
using model::Position;
using model::ScoreEvent;
using model::Verdict;

namespace {

using internal::At;
using internal::CompletedEarlier;
using internal::FindFigure;
using internal::HasOpponentFigure;
using internal::KindName;
using internal::Root;
using internal::Where;

bool HasMajority(const Position& pos, int root, PlayerId p) {
  std::vector<int> st = RawStrength(pos, root);
  return st[p] > 0 && st[p] == *std::max_element(st.begin(), st.end());
}

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

Verdict Ok(const char* ruling, std::string text) { return {true, {{ruling, std::move(text)}}}; }

// Target checks shared by the feature cards.
std::optional<Verdict> CheckKind(const Position& pos, const Play& p) {
  const CardInfo& ci = Info(p.card);
  if (p.node < 0) return Verdict::Illegal(ci.ruling, std::string(ci.name) + " names a feature");
  FeatureKind k = pos.board.segment(p.node).kind;
  if (ci.kind && k != *ci.kind)
    return Verdict::Illegal(ci.ruling, std::string(ci.name) + " acts on a " + KindName(*ci.kind) +
                                           ", not on the " + KindName(k) + " " +
                                           Where(pos, p.node));
  return std::nullopt;
}

bool FitsAnywhereAt(const Position& pos, model::TileType t, model::Coord c) {
  for (int r = 0; r < 4; ++r)
    if (pos.board.Check(t, c, r).ok()) return true;
  return false;
}

bool InFrontier(const Position& pos, model::Coord c) {
  if (pos.board.At(c)) return false;
  for (int side = 0; side < 4; ++side)
    if (pos.board.At(model::Neighbour(c, side))) return true;
  return false;
}

}  // namespace

// Rules: XMAS-USE (own turn only, one exception), XMAS-END (timing classes), XMAS-Q-ANYTIME,
// XMAS-Q-LIGHTNING, and each card's own conditions (XMAS-CARD-*).
Verdict CheckPlay(const Position& pos, const Play& p, Window w) {
  const State& s = *Slice(pos);
  const CardInfo& ci = Info(p.card);
  const std::string name = ci.name;
  const PlayerId active = pos.turn.player;
  if (p.player < 0 || p.player >= static_cast<int>(pos.players.size()))
    return Verdict::Illegal("XMAS-USE", "no such player");
  if (Copies(s.hands[p.player], p.card) == 0)
    return Verdict::Illegal(
        "XMAS-USE", pos.players[p.player].name + " holds no " + name +
                        " card (hand: " + std::to_string(s.hands[p.player].size()) + " cards)");
  if (s.pending)
    return Verdict::Illegal("XMAS-FN8",
                            "a road-deck card waits for the opponents' answer (cancel or allow)");
  // Timing classes (XMAS-END, XMAS-USE).
  if (ci.timing == Timing::kEndOfGame && w != Window::kGameEnd)
    return Verdict::Illegal("XMAS-END", name +
                                            " is an end-of-game card (Carcassonne symbol): it "
                                            "is revealed and used only when the game ends");
  if (ci.timing != Timing::kEndOfGame && w == Window::kGameEnd)
    return Verdict::Illegal("XMAS-END",
                            "the game is over: cards for use during the game "
                            "(lightning or no symbol) can no longer be played");
  if (p.card == Card::kCancelAttack)
    return Verdict::Illegal("XMAS-CARD-CANCEL-ATTACK",
                            "the cancel card is played only in answer to a road-deck card aimed "
                            "at its holder (xmas_cancel)");
  const bool force_variant = s.variants.force() == ForceTiming::kOpponentTurnOnDraw;
  if (w == Window::kForce) {
    if (p.card != Card::kForcePlacement || !force_variant || p.player == active)
      return Verdict::Illegal("XMAS-USE", "only an opponent's force-placement can be played now");
  } else if (w != Window::kGameEnd && p.player != active) {
    bool any = s.variants.any_time() == AnyTime::kAnyPlayersTurn && ci.timing == Timing::kAnyTime &&
               p.card != Card::kTakeTwoTiles;
    if (!any)
      return Verdict::Illegal(
          ci.timing == Timing::kAnyTime ? "XMAS-Q-ANYTIME" : "XMAS-USE",
          "cards in hand are played only in the holder's own turn (the only exception is the "
          "cancel card); it is " +
              pos.players[active].name + "'s turn");
  }
  if (p.card == Card::kTakeTwoTiles && w != Window::kTurnStart)
    return Verdict::Illegal(ci.ruling,
                            "take-two-tiles replaces the turn's draw: it is played "
                            "before the tile is drawn");
  if (IsScoringModifier(p.card) && w != Window::kLate)
    return Verdict::Illegal(ci.ruling, name +
                                           " is played when the completed feature is scored: "
                                           "after the figure placement of the turn");
  if (p.card == Card::kForcePlacement && force_variant && w != Window::kForce)
    return Verdict::Illegal("XMAS-Q-FORCE",
                            "opponent-turn-on-draw: force-placement is played in "
                            "the opponent's turn, after they draw their tile");
  if (p.card == Card::kForcePlacement && !force_variant && w == Window::kForce)
    return Verdict::Illegal("XMAS-Q-FORCE", "force-placement is played in the holder's own turn");
  // XMAS-Q-LIGHTNING drawn-turn-only: a lightning card is used in the turn it is drawn, and
  // cards are drawn after the tile is placed, so none can be played before that; under
  // keep-for-later-own-turn a kept card is played at any step of a later own turn.
  if (ci.timing == Timing::kImmediate &&
      (w == Window::kTurnStart || w == Window::kPlacement) &&
      s.variants.lightning() == Lightning::kDrawnTurnOnly)
    return Verdict::Illegal("XMAS-Q-LIGHTNING",
                            "drawn-turn-only: a lightning card is used in the turn it is drawn, "
                            "and cards are drawn only after the tile is placed");

  // Card conditions.
  switch (p.card) {
    case Card::k3Points:
      return Ok(ci.ruling, "the player whose turn it is scores 3 points");
    case Card::kDoubleRoad:
    case Card::kCityPlusOne:
    case Card::kMonasteryBonus: {
      if (auto v = CheckKind(pos, p)) return *v;
      int root = Root(pos, p.node);
      if (pos.board.IsComplete(root))
        return Verdict::Illegal(ci.ruling, name + " scores an unfinished " + KindName(*ci.kind) +
                                               "; this one is completed");
      ScoreEvent v = model::FinalValue(pos, root);
      if (std::find(v.winners.begin(), v.winners.end(), p.player) == v.winners.end())
        return Verdict::Illegal(ci.ruling, pos.players[p.player].name +
                                               " does not hold the majority in the " +
                                               KindName(*ci.kind));
      return Ok(ci.ruling, pos.players[p.player].name + " holds the majority in the unfinished " +
                               KindName(*ci.kind));
    }
    case Card::kFigureUnoccupiedField:
    case Card::kFigureUnoccupiedRoad:
    case Card::kFigureUnoccupiedCity:
    case Card::kFigureOccupiedField:
    case Card::kFigureOccupiedRoad:
    case Card::kFigureOccupiedCity:
    case Card::kFigureOccupiedMonastery: {
      if (auto v = CheckKind(pos, p)) return *v;
      int root = Root(pos, p.node);
      if (pos.players[p.player].supply[model::kMeeple] <= 0)
        return Verdict::Illegal("BASE-MEEPLE-SUPPLY", "the player has no meeple in their supply");
      if (CompletedEarlier(pos, root))
        return Verdict::Illegal(ci.ruling,
                                "the " + KindName(*ci.kind) + " was completed and scored earlier");
      if (s.variants.extra() == Extra::kReplacesNormal &&
          (s.card_figures_this_turn > 0 ||
           model::PlacedThisTurn(pos, model::kMeeple) > s.card_figures_this_turn))
        return Verdict::Illegal("XMAS-Q-EXTRA",
                                "replaces-normal: the card's figure is the turn's "
                                "one meeple placement, already made");
      bool occupied_card = p.card >= Card::kFigureOccupiedField;
      if (!occupied_card && !pos.FiguresIn(root).empty())
        return Verdict::Illegal(ci.ruling, "the " + KindName(*ci.kind) +
                                               " is occupied: this card needs one with no figure");
      if (occupied_card && !HasOpponentFigure(pos, root, p.player))
        return Verdict::Illegal(ci.ruling,
                                "the " + KindName(*ci.kind) + " holds no figure of another player");
      Verdict v = Ok(ci.ruling, occupied_card ? "the feature is occupied by another player; the "
                                                "card allows a figure there, on any tile"
                                              : "the feature holds no figure; the card allows a "
                                                "figure there, on any tile");
      v.reasons.push_back(
          {"XMAS-Q-EXTRA", s.variants.extra() == Extra::kExtraFigure
                               ? "the card's figure is additional to the turn's "
                                 "meeple placement"
                               : "the card's figure is the turn's meeple placement"});
      if (p.card == Card::kFigureOccupiedMonastery)
        v.reasons.push_back({"XMAS-FN6", "several monks on one monastery: majority decides"});
      return v;
    }
    case Card::kDoubleLoopRoad:
    case Card::k3PerArms:
    case Card::k3PerTileNoArms: {
      if (auto v = CheckKind(pos, p)) return *v;
      int root = Root(pos, p.node);
      if (!PendingScoring(pos, root))
        return Verdict::Illegal(
            ci.ruling, "the " + KindName(*ci.kind) + " is not completed by this turn's tile");
      if (p.card == Card::kDoubleLoopRoad && !IsLoop(pos, root, s.variants.loop()))
        return Verdict::Illegal("XMAS-Q-LOOP",
                                "the road is not a closed loop (" +
                                    std::string(s.variants.loop() == Loop::kEndlessLoopOnly
                                                    ? "it has ends"
                                                    : "its ends are on different tiles") +
                                    ")");
      int shields = pos.board.Info(root).shields;
      if (p.card == Card::k3PerArms && shields == 0)
        return Verdict::Illegal(ci.ruling, "the city has no coat of arms");
      if (p.card == Card::k3PerTileNoArms && shields > 0)
        return Verdict::Illegal(ci.ruling, "the city has a coat of arms");
      ScoreEvent ev;
      ev.kind = *ci.kind;
      ev.root = root;
      model::Majority(pos, pos.FiguresIn(root), ev);
      if (std::find(ev.winners.begin(), ev.winners.end(), p.player) == ev.winners.end())
        return Verdict::Illegal(ci.ruling, pos.players[p.player].name +
                                               " does not hold the majority in the " +
                                               KindName(*ci.kind));
      Verdict v = Ok(ci.ruling, "the completed " + KindName(*ci.kind) +
                                    " is scored at the card's "
                                    "rate");
      if (p.card == Card::kDoubleLoopRoad) v.reasons.push_back({"XMAS-Q-LOOP", "a closed loop"});
      return v;
    }
    case Card::kReturnFigure: {
      const bool own = s.variants.return_whose() == ReturnWhose::kOwnFigure;
      int owner = own ? p.player : p.owner;
      if (own && p.owner >= 0 && p.owner != p.player)
        return Verdict::Illegal("XMAS-Q-RETURN",
                                "own-figure: the card returns one of the "
                                "holder's own figures");
      if (p.node < 0 || FindFigure(pos, p.node, owner) < 0)
        return Verdict::Illegal(
            ci.ruling, "no figure of " + (owner >= 0 ? pos.players[owner].name : "any player") +
                           " stands on the feature named");
      return {true,
              {{ci.ruling, "one figure returns from the board to its owner's supply"},
               {"XMAS-Q-RETURN", own ? "the holder's own figure" : "any player's figure"}}};
    }
    case Card::kLayDownRoad:
    case Card::kLayDownCity:
    case Card::kLayDownMonastery: {
      if (auto v = CheckKind(pos, p)) return *v;
      int root = Root(pos, p.node);
      if (CompletedEarlier(pos, root))
        return Verdict::Illegal(ci.ruling, "the " + KindName(*ci.kind) + " was scored earlier");
      if (IsLaidDown(pos, s, root))
        return Verdict::Illegal(
            ci.ruling, "the figures on this " + KindName(*ci.kind) + " are already laid down");
      return Ok(ci.ruling, "lays down every figure on the " + KindName(*ci.kind));
    }
    case Card::kAdvantageRoad:
    case Card::kAdvantageCity:
    case Card::kAdvantageMonastery: {
      if (auto v = CheckKind(pos, p)) return *v;
      int root = Root(pos, p.node);
      if (CompletedEarlier(pos, root))
        return Verdict::Illegal(ci.ruling, "the " + KindName(*ci.kind) + " was scored earlier");
      if (!HasMajority(pos, root, p.player))
        return Verdict::Illegal("XMAS-Q-ADVANTAGE",
                                pos.players[p.player].name +
                                    " does not hold the majority (at least tied) in the " +
                                    KindName(*ci.kind) + " when playing the card");
      for (const Attached& a : s.attached)
        if (a.player == p.player && a.card == p.card && Root(pos, a.node) == root)
          return Verdict::Illegal(ci.ruling, "the player's advantage card is already on it");
      return {true,
              {{ci.ruling, "counts as one more figure of " + pos.players[p.player].name +
                               " in the " + KindName(*ci.kind) + " until it is scored"},
               {"XMAS-Q-ADVANTAGE", "the player holds the majority (at least tied) now"}}};
    }
    case Card::kSwapMonastery:
    case Card::kSwapCity:
    case Card::kSwapRoad:
    case Card::kSwapField: {
      if (p.node < 0 || p.other_node < 0) return Verdict::Illegal(ci.ruling, "names two figures");
      for (int n : {p.node, p.other_node})
        if (pos.board.segment(n).kind != *ci.kind)
          return Verdict::Illegal(ci.ruling, name + " swaps figures on two " + KindName(*ci.kind) +
                                                 "s; " + Where(pos, n) + " is not one");
      if (FindFigure(pos, p.node, p.player) < 0)
        return Verdict::Illegal(ci.ruling, "no figure of " + pos.players[p.player].name +
                                               " on the " + Where(pos, p.node));
      bool other = false;
      for (const auto& f : pos.figures)
        if (f.node == p.other_node && f.owner != p.player &&
            (p.other_owner < 0 || f.owner == p.other_owner))
          other = true;
      if (!other)
        return Verdict::Illegal(ci.ruling,
                                "no opponent's figure on the " + Where(pos, p.other_node));
      for (int n : {p.node, p.other_node})
        if (CompletedEarlier(pos, Root(pos, n)))
          return Verdict::Illegal(ci.ruling,
                                  "a figure on a feature scored earlier (laid down "
                                  "until the game ends) cannot move");
      return Ok(ci.ruling, "the player's figure and the opponent's figure trade places");
    }
    case Card::kForcePlacement: {
      if (p.opponent == p.player || p.opponent < 0)
        return Verdict::Illegal(ci.ruling, "force-placement acts on an opponent");
      if (w == Window::kForce) {
        if (p.opponent != active)
          return Verdict::Illegal("XMAS-Q-FORCE", "it acts on the player whose turn it is");
        if (!pos.turn.drawn || !FitsAnywhereAt(pos, *pos.turn.drawn, p.square))
          return Verdict::Illegal("XMAS-Q-FORCE",
                                  "the drawn tile cannot go on square " + At(p.square));
        return {true,
                {{ci.ruling, "the opponent must place the drawn tile on " + At(p.square)},
                 {"XMAS-Q-FORCE", "opponent-turn-on-draw"}}};
      }
      if (!InFrontier(pos, p.square))
        return Verdict::Illegal(
            ci.ruling, "square " + At(p.square) + " is not an empty square next to the board");
      for (const Force& f : s.forces)
        if (f.target == p.opponent)
          return Verdict::Illegal("XMAS-Q-FORCE", "a forced placement already waits for " +
                                                      pos.players[p.opponent].name);
      return {true,
              {{ci.ruling, pos.players[p.opponent].name + " must place their next tile on " +
                               At(p.square) + " if it fits there"},
               {"XMAS-Q-FORCE", "own-turn-next-tile"}}};
    }
    case Card::kTakeTwoTiles: {
      if (pos.supply.total() < 2)
        return Verdict::Illegal(ci.ruling, "fewer than two tiles are left to draw");
      if (pos.supply.ordered) {
        if (p.tile1 >= 0 && (p.tile1 != pos.supply.order[0] || p.tile2 != pos.supply.order[1]))
          return Verdict::Illegal(
              ci.ruling, "the next two tiles are " + pos.cfg().catalog->Name(pos.supply.order[0]) +
                             " and " + pos.cfg().catalog->Name(pos.supply.order[1]));
      } else {
        if (p.tile1 < 0) return Verdict::Illegal(ci.ruling, "name the two tiles drawn (tiles)");
        std::vector<int> c = pos.supply.counts;
        if (--c[p.tile1] < 0 || --c[p.tile2] < 0)
          return Verdict::Illegal(ci.ruling, "those tiles are not left in the supply");
      }
      return Ok(ci.ruling, "draws two tiles: one is placed, the other leaves the game");
    }
    case Card::kAdvantageField: {
      if (auto v = CheckKind(pos, p)) return *v;
      int used = 0;
      for (auto [pl, node] : s.field_choices) used += pl == p.player;
      if (used >= Copies(s.hands[p.player], p.card))
        return Verdict::Illegal(ci.ruling, "the player's advantage-field cards are already used");
      int root = Root(pos, p.node);
      std::vector<int> st = RawStrength(pos, root);
      int best = *std::max_element(st.begin(), st.end());
      bool ok;
      if (s.variants.advantage() == AdvantageTest::kFieldAnySharedPresence) {
        ok = st[p.player] > 0 && HasOpponentFigure(pos, root, p.player);
      } else {
        int at_top = 0;
        for (int x : st) at_top += x == best;
        ok = st[p.player] == best && best > 0 && at_top >= 2;
      }
      if (!ok)
        return Verdict::Illegal("XMAS-Q-ADVANTAGE", pos.players[p.player].name +
                                                        " does not share the field's lead "
                                                        "with an opponent");
      return {true,
              {{ci.ruling, "one more farmer in the field at final scoring"},
               {"XMAS-Q-ADVANTAGE", "the holder shares the lead of the field"}}};
    }
    default:
      return Verdict::Illegal(ci.ruling, "not playable now");
  }
}

}  // namespace carc::exp::christmas_present
