// Christmas Present rules shared by the card families and the steps: when cards are drawn
// (XMAS-DRAW-MONASTERY, XMAS-DRAW-ROAD), hands and discards, and the helpers of family.h.
#include "model/expansions/christmas_present/logic.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "model/core/json_reader.h"
#include "model/core/position_io.h"
#include "model/expansions/christmas_present/family.h"

namespace carc::exp::christmas_present {

using model::Board;
using model::FeatureKind;
using model::PlayerId;
using model::Position;

namespace internal {

std::string KindName(FeatureKind k) { return std::string(model::FeatureKindName(k)); }

std::string SquareAt(model::Coord c) {
  return "(" + std::to_string(c.x) + ", " + std::to_string(c.y) + ")";
}

int Root(const Position& pos, int node) { return pos.board.Find(node); }

bool CompletedEarlier(const Position& pos, int root) {
  return pos.board.IsComplete(root) && !PendingScoring(pos, root);
}

bool HasOpponentFigure(const Position& pos, int root, PlayerId p) {
  for (const auto& f : pos.figures)
    if (f.owner != p && pos.board.Find(f.node) == root) return true;
  return false;
}

int FindFigure(const Position& pos, int node, int owner, int kind) {
  for (size_t f = 0; f < pos.figures.size(); ++f) {
    const model::Figure& g = pos.figures[f];
    if (g.node == node && (owner < 0 || g.owner == owner) && (kind < 0 || g.kind == kind))
      return static_cast<int>(f);
  }
  return -1;
}

// XMAS-CARD-*: a feature card names a feature of its kind.
bool CheckKind(const Position& pos, const Play& p, Judge& j) {
  const CardInfo& ci = Info(p.card);
  if (p.node < 0) return j.No(ci.ruling, [&] { return std::string(ci.name) + " names a feature"; });
  const FeatureKind k = pos.board.segment(p.node).kind;
  if (ci.kind && k != *ci.kind)
    return j.No(ci.ruling, [&] {
      return std::string(ci.name) + " acts on a " + KindName(*ci.kind) + ", not on the " +
             KindName(k) + " " + model::FeatureAt(pos, p.node);
    });
  return true;
}

namespace {

// The features a FeatureTargets listing has visited, marked by root node.
class SeenRoots {
 public:
  explicit SeenRoots(int nodes) : seen_(static_cast<size_t>(nodes), 0) {}
  // True the first time `root` is offered.
  bool Insert(int root) {
    char& mark = seen_[static_cast<size_t>(root)];
    if (mark) return false;
    mark = 1;
    return true;
  }

 private:
  std::vector<char> seen_;
};

}  // namespace

bool FeatureTargets(const Position& pos, const Play& card, bool per_segment, Visit visit) {
  const Board& b = pos.board;
  const CardInfo& ci = Info(card.card);
  Play p = card;
  if (per_segment) {
    for (int t = 0; t < b.size(); ++t) {
      const auto& rt = b.rotated(t);
      for (size_t i = 0; i < rt.segments.size(); ++i) {
        if (ci.kind && rt.segments[i].kind != *ci.kind) continue;
        p.node = Board::Node(t, static_cast<int>(i));
        if (visit(p)) return true;
      }
    }
    return false;
  }
  // One segment per feature: its first segment in board order.
  SeenRoots seen(b.size() * model::kMaxSegments);
  for (int t = 0; t < b.size(); ++t) {
    const auto& rt = b.rotated(t);
    for (size_t i = 0; i < rt.segments.size(); ++i) {
      if (ci.kind && rt.segments[i].kind != *ci.kind) continue;
      const int node = Board::Node(t, static_cast<int>(i));
      if (!seen.Insert(b.Find(node))) continue;
      p.node = node;
      if (visit(p)) return true;
    }
  }
  return false;
}

FigureRoots::FigureRoots(const Position& pos, FeatureKind kind, PlayerId p, bool own) {
  for (const auto& f : pos.figures) {
    if ((f.owner == p) != own || pos.board.segment(f.node).kind != kind) continue;
    const int root = pos.board.Find(f.node);
    if (Has(root)) continue;
    if (n_ == kFew) {
      all_ = true;
      return;
    }
    roots_[n_++] = root;
  }
}

bool FigureRoots::Has(int root) const {
  return all_ || std::find(roots_, roots_ + n_, root) != roots_ + n_;
}

bool FeatureTargetsIn(const Position& pos, const Play& card, const FigureRoots& roots,
                      Visit visit) {
  if (!roots.listed())
    return FeatureTargets(pos, card, /*per_segment=*/false,
                          [&](const Play& p) { return roots.Has(Root(pos, p.node)) && visit(p); });
  const Board& b = pos.board;
  const CardInfo& ci = Info(card.card);
  // A feature's first segment in board order is on its lowest tile: the first segment of that
  // tile (of the card's kind) whose root is the feature.
  int first[FigureRoots::kFew];
  int n = 0;
  for (int root : roots) {
    int low = b.size();
    for (int t : b.Info(root).tiles) low = std::min(low, t);
    const auto& rt = b.rotated(low);
    for (size_t i = 0; i < rt.segments.size(); ++i) {
      if (ci.kind && rt.segments[i].kind != *ci.kind) continue;
      const int node = Board::Node(low, static_cast<int>(i));
      if (b.Find(node) != root) continue;
      first[n++] = node;
      break;
    }
  }
  std::sort(first, first + n);
  Play p = card;
  for (int i = 0; i < n; ++i) {
    p.node = first[i];
    if (visit(p)) return true;
  }
  return false;
}

}  // namespace internal

int Copies(const std::vector<Card>& hand, Card c) {
  return static_cast<int>(std::count(hand.begin(), hand.end(), c));
}

// XMAS-FN2: the discard pile is never reshuffled.
void Discard(State& s, PlayerId p, Card c) {
  auto& h = s.hands[p];
  auto it = std::find(h.begin(), h.end(), c);
  if (it == h.end()) return;
  h.erase(it);
  s.discard.push_back(c);
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
  RawStrengthInto(pos, root, st);
  return st;
}

void RawStrengthInto(const Position& pos, int root, std::span<int> st) {
  std::fill(st.begin(), st.end(), 0);
  const auto& kinds = pos.cfg().figure_kinds;
  for (const auto& f : pos.figures)
    if (pos.board.Find(f.node) == root) st[f.owner] += kinds[f.kind].strength;
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
      const int seg = b.MonasterySegment(*t);  // a tile holds at most one monastery
      if (seg < 0) continue;
      const int root = b.Find(Board::Node(*t, seg));
      bool other = false, mine = false;
      for (const auto& f : pos.figures)
        if (b.Find(f.node) == root) (f.owner == me ? mine : other) = true;
      if (reading == DrawMonastery::kEightAroundNotOwn ? !mine : other) return true;
    }
  return false;
}

}  // namespace carc::exp::christmas_present
