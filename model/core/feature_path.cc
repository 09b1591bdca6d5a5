#include "model/core/feature_path.h"

#include <algorithm>
#include <bit>
#include <map>
#include <set>

#include "model/core/json_reader.h"  // ListAnd
#include "model/core/scoring.h"

namespace carc::model {

namespace {

// The half-edge of the neighbour that touches half h (as board.cc joins fields).
int OppositeHalf(int h) { return (h % 2 == 0) ? (h + 5) % 8 : (h + 3) % 8; }

// The segments joined to `node` across its tile's edges, by side N E S W (halves in order).
std::vector<int> Joined(const Board& b, int node) {
  const int t = Board::TileOf(node);
  const Segment& sg = b.segment(node);
  const Coord at = b.tile(t).pos;
  std::vector<int> out;
  auto add = [&](int n, int seg) {
    if (seg < 0) return;
    const int other = Board::Node(n, seg);
    if (std::find(out.begin(), out.end(), other) == out.end()) out.push_back(other);
  };
  for (int d = 0; d < 4; ++d) {
    const auto n = b.At(Neighbour(at, d));
    if (!n) continue;
    const RotatedTile& nt = b.rotated(*n);
    if (sg.kind == FeatureKind::kField) {
      for (int h : {2 * d, 2 * d + 1})
        if (sg.halves & (1 << h)) add(*n, nt.half_segment[OppositeHalf(h)]);
    } else if (sg.kind != FeatureKind::kMonastery && (sg.sides & kSideBit[d])) {
      add(*n, nt.side_segment[(d + 2) % 4]);
    }
  }
  return out;
}

// Every segment of the feature, tile by tile in the order laid.
std::vector<int> Members(const Board& b, int root) {
  std::vector<int> tiles(b.Info(root).tiles.begin(), b.Info(root).tiles.end());
  std::sort(tiles.begin(), tiles.end());
  tiles.erase(std::unique(tiles.begin(), tiles.end()), tiles.end());
  std::vector<int> out;
  for (int t : tiles)
    for (size_t s = 0; s < b.rotated(t).segments.size(); ++s)
      if (b.Find(Board::Node(t, static_cast<int>(s))) == root)
        out.push_back(Board::Node(t, static_cast<int>(s)));
  return out;
}

// A road's end (it stops on its tile, or runs off an open edge); a city's open edge.
bool IsEnd(const Board& b, int node) {
  const Segment& sg = b.segment(node);
  if (sg.kind != FeatureKind::kRoad && sg.kind != FeatureKind::kCity) return false;
  if (sg.kind == FeatureKind::kRoad && std::popcount(sg.sides) == 1) return true;
  const Coord at = b.tile(Board::TileOf(node)).pos;
  for (int d = 0; d < 4; ++d)
    if ((sg.sides & kSideBit[d]) && !b.At(Neighbour(at, d))) return true;
  return false;
}

// The halves of field segment `node` that touch segment `other` on a neighbouring tile.
uint8_t HalvesToward(const Board& b, int node, int other) {
  const Coord at = b.tile(Board::TileOf(node)).pos;
  const Segment& sg = b.segment(node);
  uint8_t out = 0;
  for (int h = 0; h < 8; ++h) {
    if (!(sg.halves & (1 << h))) continue;
    const auto n = b.At(Neighbour(at, h / 2));
    if (n && *n == Board::TileOf(other) &&
        b.rotated(*n).half_segment[OppositeHalf(h)] == Board::SegmentOf(other))
      out |= 1 << h;
  }
  return out;
}

// The road ends a field's way crosses on the tile of `node`, entering by the halves `in` and
// leaving by `out`: a road stopping on side d cuts the tile along its line, halves 2d+1 ..
// 2d+4 on one side and 2d+5 .. 2d+8 on the other; entering wholly on one side and leaving
// wholly on the other is passing around the road's end.
void RoadEndsCrossed(const Position& pos, int node, uint8_t in, uint8_t out,
                     std::vector<std::string>& texts) {
  const Board& b = pos.board;
  const RotatedTile& rt = b.rotated(Board::TileOf(node));
  for (const Segment& road : rt.segments) {
    if (road.kind != FeatureKind::kRoad || std::popcount(road.sides) != 1) continue;
    const int d = std::countr_zero(road.sides);
    uint8_t one = 0;
    for (int k = 1; k <= 4; ++k) one |= 1 << ((2 * d + k) % 8);
    const uint8_t other = static_cast<uint8_t>(~one);
    const bool crosses =
        ((in & other) == 0 && (out & one) == 0) || ((in & one) == 0 && (out & other) == 0);
    if (!crosses) continue;
    const std::string text = "the end of the road at the " + RoadStopName(rt) + " " +
                             CoordText(b.tile(Board::TileOf(node)).pos);
    if (std::find(texts.begin(), texts.end(), text) == texts.end()) texts.push_back(text);
  }
}

}  // namespace

std::string RoadStopName(const RotatedTile& rt) {
  int roads = 0;
  bool monastery = false, city = false;
  for (const Segment& sg : rt.segments) {
    roads += sg.kind == FeatureKind::kRoad;
    monastery |= sg.kind == FeatureKind::kMonastery;
    city |= sg.kind == FeatureKind::kCity;
  }
  return monastery ? "monastery" : roads >= 3 ? "junction" : city ? "city" : "end";
}

std::vector<int> FeatureWalk(const Position& pos, int root) {
  const Board& b = pos.board;
  const std::vector<int> members = Members(b, root);
  if (members.empty()) return {};
  int start = members.front();
  for (int m : members)
    if (IsEnd(b, m)) {
      start = m;
      break;
    }
  std::vector<int> out, stack = {start};
  std::set<int> seen;
  while (!stack.empty()) {
    const int n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    out.push_back(n);
    const std::vector<int> next = Joined(b, n);
    for (auto it = next.rbegin(); it != next.rend(); ++it)
      if (!seen.count(*it)) stack.push_back(*it);
  }
  return out;
}

std::vector<Coord> FeatureTilesAlong(const Position& pos, int root) {
  std::vector<Coord> out;
  for (int n : FeatureWalk(pos, root)) {
    const Coord c = pos.board.tile(Board::TileOf(n)).pos;
    if (std::find(out.begin(), out.end(), c) == out.end()) out.push_back(c);
  }
  return out;
}

std::vector<int> FeaturePath(const Position& pos, int from, int to) {
  std::map<int, int> parent = {{from, from}};
  std::vector<int> queue = {from};
  for (size_t i = 0; i < queue.size() && !parent.count(to); ++i)
    for (int n : Joined(pos.board, queue[i]))
      if (parent.emplace(n, queue[i]).second) queue.push_back(n);
  if (!parent.count(to)) return {};
  std::vector<int> path = {to};
  while (path.back() != from) path.push_back(parent[path.back()]);
  std::reverse(path.begin(), path.end());
  return path;
}

namespace {
// " field:EL.NL.NR.WR" where the segment's tile holds another segment of its kind, else "".
std::string SegmentSuffix(const Position& pos, int node) {
  const Board& b = pos.board;
  const Segment& sg = b.segment(node);
  int same = 0;
  for (const Segment& s : b.rotated(Board::TileOf(node)).segments) same += s.kind == sg.kind;
  if (same < 2 || sg.kind == FeatureKind::kMonastery) return "";
  return " " + std::string(FeatureKindName(sg.kind)) + ":" +
         (sg.kind == FeatureKind::kField ? HalvesName(sg.halves) : SidesName(sg.sides));
}
}  // namespace

std::string SegmentPlaceText(const Position& pos, int node) {
  return CoordText(pos.board.tile(Board::TileOf(node)).pos) + SegmentSuffix(pos, node);
}

std::string FigurePlaceText(const Position& pos, int figure) {
  return FigurePlaceText(pos, FiguresSeen(pos, {figure}).front());
}

std::string FigurePlaceText(const Position& pos, const FigureSeen& f) {
  // The segment names the figure's role even after a completed feature sent it home.
  if (f.node < 0) return FigureText(pos, f);
  return FigureTextAs(pos, f, pos.board.segment(f.node).kind) + SegmentSuffix(pos, f.node);
}

std::string ConnectionText(const Position& pos, int from, int to, const std::string& from_text,
                           const std::string& to_text) {
  const Board& b = pos.board;
  const std::string kind(FeatureKindName(b.segment(to).kind));
  if (from == to) {
    const Segment& sg = b.segment(to);
    const std::string name =
        sg.kind == FeatureKind::kField ? HalvesName(sg.halves) : SidesName(sg.sides);
    return to_text + " stands on this very " + kind + " (" + kind + ":" + name + " of " +
           CoordText(b.tile(Board::TileOf(to)).pos) + ")";
  }
  const std::vector<int> path = FeaturePath(pos, from, to);
  if (path.empty()) return "";
  std::vector<std::string> via, around;
  for (size_t i = 1; i + 1 < path.size(); ++i) {
    via.push_back(SegmentPlaceText(pos, path[i]));
    if (b.segment(path[i]).kind == FeatureKind::kField)
      RoadEndsCrossed(pos, path[i], HalvesToward(b, path[i], path[i - 1]),
                      HalvesToward(b, path[i], path[i + 1]), around);
  }
  std::string out = "from " + from_text + " the " + kind + " runs " +
                    (via.empty() ? "" : "through " + ListAnd(via) + " ") + "to " + to_text;
  if (!around.empty()) out += ", passing around " + ListAnd(around);
  return out;
}

std::string ConnectionToNearestFigure(const Position& pos, int node, const std::string& from_text) {
  const std::vector<int> figs = pos.FiguresIn(pos.board.Find(node));
  std::vector<int> best;
  int nearest = -1;
  for (int f : figs) {
    std::vector<int> path = FeaturePath(pos, node, pos.figures[f].node);
    if (!path.empty() && (nearest < 0 || path.size() < best.size())) {
      best = std::move(path);
      nearest = f;
    }
  }
  if (nearest < 0) return "";
  return ConnectionText(pos, node, pos.figures[nearest].node, from_text,
                        FigurePlaceText(pos, nearest));
}

}  // namespace carc::model
