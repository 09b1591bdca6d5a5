#include "model/expansions/christmas_present/logic.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include "model/core/core_steps.h"
#include "model/core/position_io.h"
#include "model/core/scoring.h"
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

namespace internal {

std::string At(model::Coord c) {
  return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")";
}

std::string Where(const Position& pos, int node) {
  int t = Board::TileOf(node);
  return model::FeatureName(pos.board.rotated(t), Board::SegmentOf(node)) + " of the tile at " +
         At(pos.board.tile(t).pos);
}

std::string KindName(FeatureKind k) { return std::string(model::FeatureKindName(k)); }

int Root(const Position& pos, int node) { return pos.board.Find(node); }

// A completed feature that was scored before this turn (only laid-down figures can remain).
bool CompletedEarlier(const Position& pos, int root) {
  return pos.board.IsComplete(root) && !PendingScoring(pos, root);
}

bool HasOpponentFigure(const Position& pos, int root, PlayerId p) {
  for (int f : pos.FiguresIn(root))
    if (pos.figures[f].owner != p) return true;
  return false;
}

std::vector<PlayerId> TurnOrderAfter(const Position& pos, PlayerId p) {
  std::vector<PlayerId> out;
  const int n = static_cast<int>(pos.players.size());
  for (int i = 1; i < n; ++i) out.push_back((p + i) % n);
  return out;
}

// XMAS-FN8: the opponents a road-deck card acts against.
std::vector<PlayerId> AttackTargets(const Position& pos, const Play& p) {
  if (!IsRoadDeckAttack(p.card)) return {};
  std::set<PlayerId> hit;
  switch (p.card) {
    case Card::kForcePlacement:
      hit.insert(p.opponent);
      break;
    case Card::kSwapMonastery:
    case Card::kSwapCity:
    case Card::kSwapRoad:
    case Card::kSwapField:
      for (const auto& f : pos.figures)
        if (f.node == p.other_node && f.owner != p.player &&
            (p.other_owner < 0 || f.owner == p.other_owner)) {
          hit.insert(f.owner);
          break;
        }
      break;
    default:
      for (int f : pos.FiguresIn(Root(pos, p.node)))
        if (pos.figures[f].owner != p.player) hit.insert(pos.figures[f].owner);
  }
  std::vector<PlayerId> out;
  for (PlayerId q : TurnOrderAfter(pos, p.player))
    if (hit.count(q)) out.push_back(q);
  return out;
}

int FindFigure(const Position& pos, int node, int owner) {
  for (size_t f = 0; f < pos.figures.size(); ++f)
    if (pos.figures[f].node == node && (owner < 0 || pos.figures[f].owner == owner))
      return static_cast<int>(f);
  return -1;
}

// XMAS-CARD-DOUBLE-ROAD, -CITY-PLUS-ONE, -MONASTERY-BONUS, XMAS-FN3..FN6: the card's value of an
// unfinished feature.
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
// (tied co-leaders), XMAS-FN12 (a laid-down feature).
void ScoreNow(Position& pos, const Play& p, ApplyResult& r) {
  State& s = *Slice(pos);
  const CardInfo& ci = Info(p.card);
  const int root = Root(pos, p.node);
  ScoreEvent v = model::FinalValue(pos, root);
  ScoreEvent ev = v;
  ev.cause = "xmas-card";
  ev.rulings = {ci.ruling,
                p.card == Card::kDoubleRoad    ? "XMAS-FN3"
                : p.card == Card::kCityPlusOne ? "XMAS-FN5"
                                               : "XMAS-FN6",
                "XMAS-FN4"};
  ev.points = CardValue(pos, s, p.card, v, ev.formula);
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
    o.cause = "xmas-card";
    o.winners = others;
    o.rulings.push_back("XMAS-Q-TIEDSCORING");
    o.formula += " (tied co-leaders at the normal end-game value)";
    events.push_back(o);
  }
  // XMAS-FN12: on a laid-down feature the value is fixed now and paid at game end
  // (fixed-now-paid-at-end), or paid at once (paid-now).
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
  // XMAS-FN4 (Q&A 1/2023): every figure of the scored feature returns to its owner.
  model::ReturnFigures(pos, pos.FiguresIn(root));
  r.notes.push_back(
      {"XMAS-FN4", "the figures on the scored " + KindName(v.kind) + " return to their owners"});
  for (size_t i = s.attached.size(); i-- > 0;)
    if (Root(pos, s.attached[i].node) == root) {
      s.discard.push_back(s.attached[i].card);
      s.attached.erase(s.attached.begin() + i);
    }
}

void Resolve(Position& pos, const Play& p, ApplyResult& r) {
  State& s = *Slice(pos);
  const CardInfo& ci = Info(p.card);
  bool to_discard = true;
  switch (p.card) {
    case Card::k3Points: {
      ScoreEvent ev;
      ev.cause = "xmas-card";
      ev.winners = {p.player};
      ev.strength.assign(pos.players.size(), 0);
      ev.points = 3;
      ev.formula = "3 points for the card";
      ev.rulings = {ci.ruling};
      model::Award(pos, ev);
      r.scores.push_back(ev);
      break;
    }
    case Card::kDoubleRoad:
    case Card::kCityPlusOne:
    case Card::kMonasteryBonus:
      ScoreNow(pos, p, r);
      break;
    case Card::kFigureUnoccupiedField:
    case Card::kFigureUnoccupiedRoad:
    case Card::kFigureUnoccupiedCity:
    case Card::kFigureOccupiedField:
    case Card::kFigureOccupiedRoad:
    case Card::kFigureOccupiedCity:
    case Card::kFigureOccupiedMonastery:
      if (pos.players[p.player].supply[model::kMeeple] <= 0) break;  // BASE-MEEPLE-SUPPLY
      model::PlaceFigureAt(pos, p.player, model::kMeeple, p.node);
      s.card_figures_this_turn++;
      if (s.variants.extra() == Extra::kReplacesNormal && !model::Decided(pos, model::kPlaceFigure))
        model::MarkDecided(pos, model::kPlaceFigure);
      r.verdict.reasons.push_back(
          {ci.ruling, "a meeple from the supply goes on the " + Where(pos, p.node)});
      break;
    case Card::kDoubleLoopRoad:
    case Card::k3PerArms:
    case Card::k3PerTileNoArms:
    case Card::kAdvantageRoad:
    case Card::kAdvantageCity:
    case Card::kAdvantageMonastery:
      s.attached.push_back({p.player, p.card, p.node});
      to_discard = false;
      break;
    case Card::kReturnFigure: {
      int owner = s.variants.return_whose() == ReturnWhose::kOwnFigure ? p.player : p.owner;
      int f = FindFigure(pos, p.node, owner);
      if (f < 0) break;
      r.notes.push_back({ci.ruling, "the " + pos.cfg().figure_kinds[pos.figures[f].kind].name +
                                        " of " + pos.players[pos.figures[f].owner].name +
                                        " returns to its owner's supply"});
      model::ReturnFigures(pos, {f});
      break;
    }
    case Card::kLayDownRoad:
    case Card::kLayDownCity:
    case Card::kLayDownMonastery:
      s.laid_down.push_back(p.node);
      for (int f : pos.FiguresIn(pos.board.Find(p.node))) pos.figures[f].lying = true;
      r.verdict.reasons.push_back(
          {ci.ruling, "every figure on the " + KindName(pos.board.segment(p.node).kind) +
                          " is laid down, and so is every figure that joins it later"});
      break;
    case Card::kSwapMonastery:
    case Card::kSwapCity:
    case Card::kSwapRoad:
    case Card::kSwapField: {
      int a = FindFigure(pos, p.node, p.player);
      int b = -1;
      for (size_t f = 0; f < pos.figures.size(); ++f)
        if (pos.figures[f].node == p.other_node && pos.figures[f].owner != p.player &&
            (p.other_owner < 0 || pos.figures[f].owner == p.other_owner))
          b = static_cast<int>(f);
      if (a < 0 || b < 0) break;
      std::swap(pos.figures[a].node, pos.figures[b].node);
      // Each lies or stands as its new place demands (XMAS-FN11: a laid-down feature lays down
      // every figure that joins it; off one, a figure stands again unless in a field).
      for (int f : {a, b})
        pos.figures[f].lying =
            pos.board.segment(pos.figures[f].node).kind == FeatureKind::kField ||
            IsLaidDown(pos, s, pos.board.Find(pos.figures[f].node));
      r.verdict.reasons.push_back({ci.ruling, "the two figures trade places"});
      break;
    }
    case Card::kForcePlacement:
      s.forces.push_back({p.player, p.opponent, p.square});
      to_discard = false;
      break;
    default:
      break;
  }
  if (to_discard) s.discard.push_back(p.card);
}

}  // namespace internal

namespace {
using internal::At;
using internal::AttackTargets;
using internal::CardValue;
using internal::CompletedEarlier;
using internal::FindFigure;
using internal::HasOpponentFigure;
using internal::KindName;
using internal::Resolve;
using internal::Root;
using internal::ScoreNow;
using internal::TurnOrderAfter;
using internal::Where;
}  // namespace

int Copies(const std::vector<Card>& hand, Card c) {
  return static_cast<int>(std::count(hand.begin(), hand.end(), c));
}

void Discard(State& s, PlayerId p, Card c) {
  auto& h = s.hands[p];
  auto it = std::find(h.begin(), h.end(), c);
  if (it == h.end()) return;
  h.erase(it);
  s.discard.push_back(c);
}

bool IsLaidDown(const Position& pos, const State& s, int root) {
  for (int n : s.laid_down)
    if (pos.board.Find(n) == root) return true;
  return false;
}

int LayDownFigures(Position& pos, const State& s, int through_tile) {
  int n = 0;
  if (s.laid_down.empty()) return n;
  for (model::Figure& f : pos.figures) {
    if (pos.board.segment(f.node).kind == FeatureKind::kField) continue;
    const int root = pos.board.Find(f.node);
    if (!IsLaidDown(pos, s, root)) continue;
    if (through_tile >= 0) {
      const auto& tiles = pos.board.Info(root).tiles;
      if (std::find(tiles.begin(), tiles.end(), through_tile) == tiles.end()) continue;
    }
    n += !f.lying;
    f.lying = true;
  }
  return n;
}

bool PendingScoring(const Position& pos, int root) {
  const Board& b = pos.board;
  if (pos.turn.placed < 0 || !b.IsComplete(root)) return false;
  if (b.Info(root).kind == FeatureKind::kMonastery) {
    model::Coord m = b.tile(Board::TileOf(root)).pos, c = b.tile(pos.turn.placed).pos;
    return std::abs(m.x - c.x) <= 1 && std::abs(m.y - c.y) <= 1;
  }
  const auto& t = b.Info(root).tiles;
  return std::find(t.begin(), t.end(), pos.turn.placed) != t.end();
}

std::vector<int> RawStrength(const Position& pos, int root) {
  std::vector<int> st(pos.players.size(), 0);
  for (int f : pos.FiguresIn(root))
    st[pos.figures[f].owner] += pos.cfg().figure_kinds[pos.figures[f].kind].strength;
  return st;
}

// XMAS-DRAW-MONASTERY, XMAS-DRAW-ROAD (each with its readings).
bool QualifiesDraw(const Position& pos, Deck deck) {
  const State* s = Slice(pos);
  if (!s || pos.turn.placed < 0) return false;
  const Board& b = pos.board;
  const int placed = pos.turn.placed;
  const PlayerId me = pos.turn.player;
  if (deck == Deck::kRoad) {
    int roads = 0;
    bool other = false;
    for (const auto& seg : b.rotated(placed).segments) {
      if (seg.kind == FeatureKind::kRoad) ++roads;
      if (seg.kind == FeatureKind::kCity || seg.kind == FeatureKind::kMonastery) other = true;
    }
    switch (s->variants.draw_road()) {
      case DrawRoad::kRoadWithoutCityOrMonastery:
        return roads > 0 && !other;
      case DrawRoad::kPlainRoadTiles:
        return roads == 1 && !other;
      case DrawRoad::kAnyRoadTile:
        return roads > 0;
      case DrawRoad::kEveryEdgeRoad: {
        const auto& edges = b.rotated(placed).edges;
        return std::all_of(edges.begin(), edges.end(),
                           [](model::EdgeType e) { return e == model::EdgeType::kRoad; });
      }
    }
    return false;
  }
  const model::Coord c = b.tile(placed).pos;
  const DrawMonastery reading = s->variants.draw_monastery();
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      if (dx == 0 && dy == 0) continue;
      if (reading == DrawMonastery::kOrthogonalOpponentMonk && dx != 0 && dy != 0) continue;
      auto t = b.At({c.x + dx, c.y + dy});
      if (!t) continue;
      const auto& rt = b.rotated(*t);
      for (size_t i = 0; i < rt.segments.size(); ++i) {
        if (rt.segments[i].kind != FeatureKind::kMonastery) continue;
        int root = b.Find(Board::Node(*t, static_cast<int>(i)));
        bool other = false, mine = false;
        for (int f : pos.FiguresIn(root)) (pos.figures[f].owner == me ? mine : other) = true;
        if (reading == DrawMonastery::kEightAroundNotOwn ? !mine : other) return true;
      }
    }
  return false;
}

void ListPlays(const Position& pos, Window w, PlayerId player, std::vector<Action>& out) {
  const State& s = *Slice(pos);
  if (s.pending) return;
  std::set<Card> kinds(s.hands[player].begin(), s.hands[player].end());
  const Board& b = pos.board;
  auto try_play = [&](const Play& p) {
    if (CheckPlay(pos, p, w).legal) out.push_back(EncodePlay(p));
  };
  for (Card c : kinds) {
    const CardInfo& ci = Info(c);
    if (c == Card::kCancelAttack) continue;
    if ((ci.timing == Timing::kEndOfGame) != (w == Window::kGameEnd)) continue;
    Play p;
    p.card = c;
    p.player = player;
    if (c == Card::k3Points || c == Card::kTakeTwoTiles) {
      if (c == Card::kTakeTwoTiles && !pos.supply.ordered) {
        for (int t1 = 0; t1 < b.catalog().size(); ++t1)
          for (int t2 = t1; t2 < b.catalog().size(); ++t2) {
            p.tile1 = t1;
            p.tile2 = t2;
            try_play(p);
          }
      } else {
        try_play(p);
      }
      continue;
    }
    if (c == Card::kForcePlacement) {
      for (PlayerId q = 0; q < static_cast<int>(pos.players.size()); ++q)
        for (model::Coord sq : b.Frontier()) {
          p.opponent = q;
          p.square = sq;
          try_play(p);
        }
      continue;
    }
    if (IsSwap(c)) {
      for (const auto& f : pos.figures) {
        if (f.owner != player) continue;
        for (const auto& g : pos.figures) {
          if (g.owner == player) continue;
          p.node = f.node;
          p.other_node = g.node;
          p.other_owner = g.owner;
          try_play(p);
        }
      }
      continue;
    }
    if (c == Card::kReturnFigure) {
      for (const auto& f : pos.figures) {
        p.node = f.node;
        p.owner = s.variants.return_whose() == ReturnWhose::kOwnFigure ? -1 : f.owner;
        if (s.variants.return_whose() == ReturnWhose::kOwnFigure && f.owner != player) continue;
        try_play(p);
      }
      continue;
    }
    // Feature cards: figure placements list every segment; the others one per feature.
    const bool per_segment = c <= Card::kFigureUnoccupiedCity && c >= Card::kFigureUnoccupiedField;
    const bool placement =
        per_segment || (c >= Card::kFigureOccupiedField && c <= Card::kFigureOccupiedMonastery);
    std::set<int> roots;
    for (int t = 0; t < b.size(); ++t) {
      const auto& rt = b.rotated(t);
      for (size_t i = 0; i < rt.segments.size(); ++i) {
        if (ci.kind && rt.segments[i].kind != *ci.kind) continue;
        int node = Board::Node(t, static_cast<int>(i));
        if (!placement && !roots.insert(b.Find(node)).second) continue;
        p.node = node;
        try_play(p);
      }
    }
  }
}

// XMAS-FN8: a road-deck card aimed at opponents waits for their answer; the others act at once.
ApplyResult PlayCard(Position& pos, const Action& a, Window w) {
  ApplyResult r;
  Play p = DecodePlay(a);
  r.verdict = CheckPlay(pos, p, w);
  if (!r.verdict.legal) return r;
  // Whose figure a swap or return-figure takes when figures of several players share the
  // segment named: the file must say (no silent pick); once known it is part of the play.
  const bool swap = IsSwap(p.card);
  const bool any_return = p.card == Card::kReturnFigure &&
                          Slice(pos)->variants.return_whose() != ReturnWhose::kOwnFigure;
  if ((swap && p.other_owner < 0) || (any_return && p.owner < 0)) {
    const int node = swap ? p.other_node : p.node;
    std::set<PlayerId> owners;
    for (const auto& f : pos.figures)
      if (f.node == node && !(swap && f.owner == p.player)) owners.insert(f.owner);
    if (owners.size() > 1) {
      r.verdict = {};
      r.input_error = std::string(Info(p.card).name) + ": figures of " +
                      std::to_string(owners.size()) + " players stand on the " + Where(pos, node) +
                      "; state whose (\"" + (swap ? "other_owner" : "owner") + "\")";
      return r;
    }
    if (owners.size() == 1) (swap ? p.other_owner : p.owner) = *owners.begin();
  }
  State& s = *Slice(pos);
  auto& hand = s.hands[p.player];
  if (p.card == Card::kAdvantageField) {
    // Revealed at game end; the card stays with its holder until final scoring (XMAS-END).
    s.field_choices.push_back({p.player, p.node});
    return r;
  }
  hand.erase(std::find(hand.begin(), hand.end(), p.card));
  if (p.card == Card::kTakeTwoTiles) {
    model::TileType t1 = p.tile1, t2 = p.tile2;
    if (pos.supply.ordered) {
      t1 = pos.supply.order[0];
      t2 = pos.supply.order[1];
      pos.supply.order.erase(pos.supply.order.begin(), pos.supply.order.begin() + 2);
    }
    pos.supply.counts[t1]--;
    pos.supply.counts[t2]--;
    s.two_tiles = {t1, t2};
    s.discard.push_back(p.card);
    r.notes.push_back({"XMAS-CARD-TAKE-TWO-TILES", "drawn: " + pos.cfg().catalog->Name(t1) +
                                                       " and " + pos.cfg().catalog->Name(t2) +
                                                       "; one is kept, the other leaves the game"});
    return r;
  }
  if (TimingOf(p.card) == Timing::kImmediate)
    r.verdict.reasons.push_back(
        {"XMAS-Q-LIGHTNING", s.variants.lightning() == Lightning::kDrawnTurnOnly
                                 ? "a lightning card, used in the turn it was drawn"
                                 : "keep-for-later-own-turn: a lightning card kept in hand"});
  std::vector<PlayerId> waiting;
  for (PlayerId q : AttackTargets(pos, p))
    if (Copies(s.hands[q], Card::kCancelAttack) > 0) waiting.push_back(q);
  if (!waiting.empty()) {
    s.pending = PendingAttack{EncodePlay(p), waiting};
    r.verdict.reasons.push_back(
        {"XMAS-FN8",
         pos.players[waiting.front()].name +
             " holds a cancel card and may cancel this road-deck card now, out of turn"});
    return r;
  }
  Resolve(pos, p, r);
  return r;
}

void ListAnswers(const Position& pos, std::vector<Action>& out) {
  const State& s = *Slice(pos);
  if (!s.pending) return;
  PlayerId q = s.pending->waiting.front();
  out.push_back(MakeAction(kCancel, {q}));
  out.push_back(MakeAction(kAllow, {q}));
}

// XMAS-CARD-CANCEL-ATTACK, XMAS-FN8.
ApplyResult AnswerAttack(Position& pos, const Action& a) {
  ApplyResult r;
  State& s = *Slice(pos);
  if (!s.pending) {
    r.verdict =
        Verdict::Illegal("XMAS-CARD-CANCEL-ATTACK", "no road-deck card waits for an answer");
    return r;
  }
  PlayerId q = a.args[0];
  if (q != s.pending->waiting.front()) {
    r.verdict = Verdict::Illegal(
        "XMAS-FN8", "it is " + pos.players[s.pending->waiting.front()].name +
                        "'s answer: only an opponent the card is aimed at, holding a cancel card, "
                        "may answer");
    return r;
  }
  Play p = DecodePlay(s.pending->action);
  if (a.code == kCancel) {
    Discard(s, q, Card::kCancelAttack);
    s.discard.push_back(p.card);
    s.pending.reset();
    r.verdict.reasons.push_back(
        {"XMAS-CARD-CANCEL-ATTACK", pos.players[q].name + " discards the cancel card: " +
                                        Info(p.card).name + " is cancelled and discarded"});
    r.verdict.reasons.push_back({"XMAS-FN8", "the cancel card is played out of turn"});
    return r;
  }
  s.pending->waiting.erase(s.pending->waiting.begin());
  r.verdict.reasons.push_back({"XMAS-FN8", pos.players[q].name + " does not cancel"});
  if (!s.pending->waiting.empty()) return r;
  s.pending.reset();
  Resolve(pos, p, r);
  return r;
}

PlayerId GameEndDecider(const Position& pos) {
  const State* s = Slice(pos);
  if (!s) return -1;
  const int n = static_cast<int>(pos.players.size());
  for (int i = 0; i < n; ++i) {
    PlayerId q = (pos.turn.player + i) % n;
    int held = Copies(s->hands[q], Card::kAdvantageField);
    int used = 0;
    for (auto [pl, node] : s->field_choices) used += pl == q;
    if (held <= used) continue;
    std::vector<Action> plays;
    ListPlays(pos, Window::kGameEnd, q, plays);
    if (!plays.empty()) return q;
  }
  return -1;
}

}  // namespace carc::exp::christmas_present
