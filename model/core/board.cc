#include "model/core/board.h"

#include <algorithm>

namespace carc::model {

namespace {
// The half-edge of the neighbour that touches half h: even h <-> h+5, odd h <-> h+3 (mod 8).
int OppositeHalf(int h) { return (h % 2 == 0) ? (h + 5) % 8 : (h + 3) % 8; }
}  // namespace

namespace {
// A box larger than this many squares is kept in the hash map instead (8 bytes a square).
constexpr long kMaxDenseSquares = 1L << 18;
// The edges of a tile at one rotation, as a square's `need` byte would record them.
int EdgeKey(const RotatedTile& rt) {
  int key = 0;
  for (int s = 0; s < 4; ++s) key |= (static_cast<int>(rt.edges[s]) + 1) << (2 * s);
  return key;
}
}  // namespace

int Board::FitMask(TileType type, Coord c) const {
  const Cell* cell = Find(c);
  if (!cell || cell->tile >= 0 || cell->need == 0) return 0;
  const int need = cell->need;
  // The sides with a neighbour: both bits of each side whose need is non-zero.
  const int sides = (need | (need >> 1)) & 0x55;
  const int care = sides | (sides << 1);
  int mask = 0;
  for (int r = 0; r < 4; ++r)
    if ((EdgeKey(catalog_->rotated(type, r)) & care) == need) mask |= 1 << r;
  return mask;
}

PlacementCheck Board::Check(TileType type, Coord c, Rotation r) const {
  const Cell* cell = Find(c);
  if (cell && cell->tile >= 0) return {PlacementProblem::kOccupied, -1};
  if (tiles_.empty()) return {};
  if (!cell || cell->need == 0) return {PlacementProblem::kNotAdjacent, -1};
  const RotatedTile& rt = catalog_->rotated(type, r);
  for (int side = 0; side < 4; ++side) {
    const int n = (cell->need >> (2 * side)) & 3;
    if (n != 0 && n - 1 != static_cast<int>(rt.edges[side]))
      return {PlacementProblem::kEdgeMismatch, side};
  }
  return {};
}

bool Board::CanPlaceAnywhere(TileType type) const {
  if (tiles_.empty()) return true;
  for (Coord c : frontier_)
    if (FitMask(type, c)) return true;
  return false;
}

void Board::Reserve(Coord lo, Coord hi) {
  if (!sparse_.empty()) return;
  if (w_ > 0 && lo.x >= x0_ && lo.y >= y0_ && hi.x < x0_ + w_ && hi.y < y0_ + h_) return;
  // Grow by at least half the box on each side that needs room, so growth is rare.
  const int pad_x = std::max(4, w_ / 2), pad_y = std::max(4, h_ / 2);
  int nx0 = lo.x - pad_x, ny0 = lo.y - pad_y, nx1 = hi.x + pad_x, ny1 = hi.y + pad_y;
  if (w_ > 0) {
    nx0 = lo.x >= x0_ ? x0_ : nx0;
    ny0 = lo.y >= y0_ ? y0_ : ny0;
    nx1 = hi.x < x0_ + w_ ? x0_ + w_ - 1 : nx1;
    ny1 = hi.y < y0_ + h_ ? y0_ + h_ - 1 : ny1;
  }
  const long nw = static_cast<long>(nx1) - nx0 + 1, nh = static_cast<long>(ny1) - ny0 + 1;
  if (nw * nh > kMaxDenseSquares) {
    for (int y = 0; y < h_; ++y)
      for (int x = 0; x < w_; ++x) {
        const Cell& cell = cells_[y * w_ + x];
        if (cell.tile >= 0 || cell.need != 0) sparse_[{x0_ + x, y0_ + y}] = cell;
      }
    if (sparse_.empty()) sparse_[lo] = Cell{};  // marks the hash-map mode
    cells_.clear();
    cells_.shrink_to_fit();
    w_ = h_ = 0;
    return;
  }
  std::vector<Cell> grown(static_cast<size_t>(nw * nh));
  for (int y = 0; y < h_; ++y)
    for (int x = 0; x < w_; ++x)
      grown[(y0_ + y - ny0) * nw + (x0_ + x - nx0)] = cells_[y * w_ + x];
  cells_ = std::move(grown);
  x0_ = nx0;
  y0_ = ny0;
  w_ = static_cast<int>(nw);
  h_ = static_cast<int>(nh);
}

Board::Cell& Board::Touch(Coord c) {
  Reserve(c, c);
  if (!sparse_.empty()) return sparse_[c];
  return cells_[(c.y - y0_) * w_ + (c.x - x0_)];
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
  Reserve({c.x - 1, c.y - 1}, {c.x + 1, c.y + 1});
  Cell& here = Touch(c);
  here.tile = idx;
  if (here.frontier) {
    here.frontier = false;
    frontier_.erase(std::find(frontier_.begin(), frontier_.end(), c));
  }
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
    Cell& ncell = Touch(nc);
    if (ncell.tile < 0) {
      // The square now shows this tile's edge on its side facing us (BASE-PLACE-EDGE).
      const int facing = (side + 2) % 4;
      ncell.need = static_cast<uint8_t>((ncell.need & ~(3 << (2 * facing))) |
                                        ((static_cast<int>(rt.edges[side]) + 1) << (2 * facing)));
      if (!ncell.frontier) {
        ncell.frontier = true;
        frontier_.push_back(nc);
      }
      continue;
    }
    const int n = ncell.tile;
    const RotatedTile& nt = rotated(n);
    int mine = rt.side_segment[side];
    int theirs = nt.side_segment[(side + 2) % 4];
    if (mine >= 0 && theirs >= 0) {
      Union(Node(idx, mine), Node(n, theirs));
      info_[Find(Node(idx, mine))].open_sides -= 2;
    }
    for (int h = 2 * side; h < 2 * side + 2; ++h) {
      int fm = rt.half_segment[h];
      int ft = nt.half_segment[OppositeHalf(h)];
      if (fm >= 0 && ft >= 0) Union(Node(idx, fm), Node(n, ft));
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
  thread_local std::vector<int> t;  // reused: no allocation once large enough
  t.assign(info_[root].tiles.begin(), info_[root].tiles.end());
  std::sort(t.begin(), t.end());
  return static_cast<int>(std::unique(t.begin(), t.end()) - t.begin());
}

int Board::MonasteryNeighbours(int tile) const {
  Coord c = tiles_[tile].pos;
  int n = 0;
  for (int dx = -1; dx <= 1; ++dx)
    for (int dy = -1; dy <= 1; ++dy)
      if ((dx || dy) && At({c.x + dx, c.y + dy})) ++n;
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
