#include "model/core/board.h"

#include <algorithm>

namespace carc::model {

namespace {
// The half-edge of the neighbour that touches half h: even h <-> h+5, odd h <-> h+3 (mod 8).
int OppositeHalf(int h) { return (h % 2 == 0) ? (h + 5) % 8 : (h + 3) % 8; }
}  // namespace

std::optional<int> Board::At(Coord c) const {
  auto it = at_.find(c);
  if (it == at_.end()) return std::nullopt;
  return it->second;
}

PlacementCheck Board::Check(TileType type, Coord c, Rotation r) const {
  if (at_.count(c)) return {PlacementProblem::kOccupied, -1};
  if (tiles_.empty()) return {};
  const RotatedTile& rt = catalog_->rotated(type, r);
  bool adjacent = false;
  for (int side = 0; side < 4; ++side) {
    auto n = At(Neighbour(c, side));
    if (!n) continue;
    adjacent = true;
    if (rotated(*n).edges[(side + 2) % 4] != rt.edges[side])
      return {PlacementProblem::kEdgeMismatch, side};
  }
  if (!adjacent) return {PlacementProblem::kNotAdjacent, -1};
  return {};
}

bool Board::CanPlaceAnywhere(TileType type) const {
  if (tiles_.empty()) return true;
  for (Coord c : Frontier())
    for (Rotation r : catalog_->distinct_rotations(type))
      if (Check(type, c, r).ok()) return true;
  return false;
}

std::vector<Coord> Board::Frontier() const {
  std::vector<Coord> out;
  out.reserve(frontier_order_.size());
  for (Coord c : frontier_order_)
    if (!at_.count(c)) out.push_back(c);
  return out;
}

int Board::Find(int node) const {
  int root = node;
  while (parent_[root] != root) root = parent_[root];
  while (parent_[node] != root) {
    int next = parent_[node];
    parent_[node] = root;
    node = next;
  }
  return root;
}

void Board::Union(int a, int b) {
  a = Find(a);
  b = Find(b);
  if (a == b) return;
  if (info_[a].tiles.size() < info_[b].tiles.size()) std::swap(a, b);
  parent_[b] = a;
  FeatureInfo& ia = info_[a];
  FeatureInfo& ib = info_[b];
  ia.open_sides += ib.open_sides;
  ia.shields += ib.shields;
  ia.tiles.insert(ia.tiles.end(), ib.tiles.begin(), ib.tiles.end());
  ia.cities.insert(ia.cities.end(), ib.cities.begin(), ib.cities.end());
  ib = FeatureInfo{};
}

int Board::Place(TileType type, Coord c, Rotation r) {
  const int idx = size();
  tiles_.push_back({type, r & 3, c});
  at_[c] = idx;
  const RotatedTile& rt = catalog_->rotated(type, r & 3);
  parent_.resize((idx + 1) * kMaxSegments);
  info_.resize((idx + 1) * kMaxSegments);
  for (size_t i = 0; i < rt.segments.size(); ++i) {
    const Segment& s = rt.segments[i];
    int node = Node(idx, static_cast<int>(i));
    parent_[node] = node;
    FeatureInfo& fi = info_[node];
    fi.kind = s.kind;
    fi.open_sides = __builtin_popcount(s.sides);
    fi.shields = s.shield ? 1 : 0;
    fi.tiles = {idx};
    for (int city : s.adjacent_cities) fi.cities.push_back(Node(idx, city));
  }
  for (int side = 0; side < 4; ++side) {
    Coord nc = Neighbour(c, side);
    auto n = At(nc);
    if (!n) {
      if (frontier_seen_.insert(nc).second) frontier_order_.push_back(nc);
      continue;
    }
    const RotatedTile& nt = rotated(*n);
    int mine = rt.side_segment[side];
    int theirs = nt.side_segment[(side + 2) % 4];
    if (mine >= 0 && theirs >= 0) {
      Union(Node(idx, mine), Node(*n, theirs));
      info_[Find(Node(idx, mine))].open_sides -= 2;
    }
    for (int h = 2 * side; h < 2 * side + 2; ++h) {
      int fm = rt.half_segment[h];
      int ft = nt.half_segment[OppositeHalf(h)];
      if (fm >= 0 && ft >= 0) Union(Node(idx, fm), Node(*n, ft));
    }
  }
  return idx;
}

bool Board::IsComplete(int root) const {
  const FeatureInfo& fi = info_[root];
  switch (fi.kind) {
    case FeatureKind::kRoad:
    case FeatureKind::kCity:
      return fi.open_sides == 0;
    case FeatureKind::kMonastery:
      return MonasteryNeighbours(TileOf(root)) == 8;
    case FeatureKind::kField:
      return false;
  }
  return false;
}

int Board::DistinctTiles(int root) const {
  std::vector<int> t = info_[root].tiles;
  std::sort(t.begin(), t.end());
  return static_cast<int>(std::unique(t.begin(), t.end()) - t.begin());
}

int Board::MonasteryNeighbours(int tile) const {
  Coord c = tiles_[tile].pos;
  int n = 0;
  for (int dx = -1; dx <= 1; ++dx)
    for (int dy = -1; dy <= 1; ++dy)
      if ((dx || dy) && at_.count({c.x + dx, c.y + dy})) ++n;
  return n;
}

std::vector<int> Board::AllRoots() const {
  std::vector<int> out;
  for (int t = 0; t < size(); ++t)
    for (size_t i = 0; i < rotated(t).segments.size(); ++i) {
      int node = Node(t, static_cast<int>(i));
      if (Find(node) == node) out.push_back(node);
    }
  return out;
}

std::vector<int> Board::TouchedCityRoots(int field_root) const {
  std::vector<int> roots;
  for (int city : info_[field_root].cities) roots.push_back(Find(city));
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  return roots;
}

}  // namespace carc::model
