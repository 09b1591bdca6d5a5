#include "model/core/board.h"

#include <algorithm>
#include <cstring>
#include <memory>
#include <mutex>

#include "model/core/check.h"

namespace carc::model {

namespace {
// The half-edge of the neighbour that touches half h: even h <-> h+5, odd h <-> h+3 (mod 8).
int OppositeHalf(int h) { return (h % 2 == 0) ? (h + 5) % 8 : (h + 3) % 8; }
}  // namespace

namespace {
// The number of sides in a 4-bit side mask (a table: no popcount instruction assumed, and
// libgcc's __popcountdi2 call costs more than the lookup).
constexpr int kMaxDeadSlots = 12;
constexpr int8_t kSidesCount[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
// A box larger than this many squares is kept in the hash map instead (12 bytes a square),
// unless the board has room reserved for so many tiles (ReserveTiles: a long board being
// read) that kDenseSquaresPerTile squares per tile allow it: a line of 10^6 tiles stays dense
// (the hash map cost it most of its reading time), while far-apart tiles, whose box outgrows
// that, still go to the hash map.
constexpr long kMaxDenseSquares = 1L << 18;
constexpr long kDenseSquaresPerTile = 16;
// The edges of a tile at one rotation, as a square's `need` byte would record them.
int EdgeKey(const RotatedTile& rt) {
  int key = 0;
  for (int s = 0; s < 4; ++s) key |= (static_cast<int>(rt.edges[s]) + 1) << (2 * s);
  return key;
}

// BASE-PLACE-EDGE for every tile type and every `need` byte: the rotations whose edges equal
// the neighbours' on every side that has a neighbour (none: not next to a tile, 0). Built once
// per catalog (catalogs live for the whole process).
const uint8_t* FitTable(const TileCatalog* cat) {
  static std::mutex mu;
  static std::vector<std::pair<const TileCatalog*, std::unique_ptr<uint8_t[]>>> tables;
  std::lock_guard<std::mutex> lock(mu);
  for (const auto& [c, t] : tables)
    if (c == cat) return t.get();
  auto table = std::make_unique<uint8_t[]>(static_cast<size_t>(cat->size()) * 256);
  for (TileType type = 0; type < cat->size(); ++type) {
    int keys[4];  // each rotation's edges, read once per type (not once per need byte)
    for (int r = 0; r < 4; ++r) keys[r] = EdgeKey(cat->rotated(type, r));
    int distinct = 0;
    for (Rotation r : cat->distinct_rotations(type)) distinct |= 1 << r;
    for (int need = 1; need < 256; ++need) {
      const int sides = (need | (need >> 1)) & 0x55;  // both bits of each side with a neighbour
      const int care = sides | (sides << 1);
      int mask = 0;
      for (int r = 0; r < 4; ++r)
        if ((keys[r] & care) == need) mask |= 1 << r;
      mask |= (mask & distinct) << 4;
      table[type * 256 + need] = static_cast<uint8_t>(mask);
    }
  }
  tables.emplace_back(cat, std::move(table));
  return tables.back().second.get();
}
}  // namespace

Board::Board(const TileCatalog* catalog) : catalog_(catalog), fit_(FitTable(catalog)) {}

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
  const uint8_t* fit = fit_ + type * 256;
  for (uint8_t need : slot_need_)
    if (fit[need]) return true;  // a dead slot's need is 0: fits nothing
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
  const long dense_limit =
      std::max(kMaxDenseSquares, kDenseSquaresPerTile * static_cast<long>(tiles_.capacity()));
  if (nw * nh > dense_limit) {
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
  // Grow in place (the vector's capacity is reused when a position is assigned over one that
  // grew before): rows move to their new places from the last one back, since every square's
  // new index is at least its old one; the squares left behind are cleared.
  // A row at a time: each row's cells move together (memmove: a row may overlap its old
  // place), then every square outside the moved rows' new places is cleared.
  const int ow = w_, oh = h_, ox = x0_ - nx0, oy = y0_ - ny0;
  cells_.resize(static_cast<size_t>(nw * nh));
  Cell* cells = cells_.data();
  for (int y = oh - 1; y >= 0; --y) {
    const size_t from = static_cast<size_t>(y) * ow;
    const size_t to = static_cast<size_t>(y + oy) * nw + ox;
    if (to != from) std::memmove(static_cast<void*>(cells + to), cells + from, ow * sizeof(Cell));
  }
  for (long y = 0; y < nh; ++y) {
    Cell* row = cells + y * nw;
    if (y < oy || y >= oy + oh) {
      std::fill(row, row + nw, Cell{});
    } else {
      std::fill(row, row + ox, Cell{});
      std::fill(row + ox + ow, row + nw, Cell{});
    }
  }
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

int Board::FindCompressing(int node) const {
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
  if (agg_[a].count < agg_[b].count) std::swap(a, b);
  parent_[b] = a;
  Agg& ia = agg_[a];
  Agg& ib = agg_[b];
  ia.open_sides += ib.open_sides;
  ia.shields += ib.shields;
  // b's members follow a's (the order the tile lists had when they were concatenated).
  next_[ia.last] = ib.first;
  ia.last = ib.last;
  ia.count += ib.count;
  ib = Agg{};
}

int Board::Place(TileType type, Coord c, Rotation r) {
  const int idx = size();
  tiles_.push_back({type, r & 3, c});
  monastery_.push_back(-1);
  Reserve({c.x - 1, c.y - 1}, {c.x + 1, c.y + 1});
  // The square and its neighbours, inside the box just reserved.
  auto cell_at = [this](Coord q) -> Cell& {
    return sparse_.empty() ? cells_[(q.y - y0_) * w_ + (q.x - x0_)] : sparse_[q];
  };
  Cell& here = cell_at(c);
  here.tile = idx;
  if (here.slot >= 0) {
    slot_need_[here.slot] = 0;
    here.slot = -1;
    ++dead_slots_;
  }
  const RotatedTile& rt = catalog_->rotated(type, r & 3);
  parent_.resize((idx + 1) * kMaxSegments);
  next_.resize((idx + 1) * kMaxSegments);
  agg_.resize((idx + 1) * kMaxSegments);
  for (int i = 0; i < kMaxSegments; ++i) {
    const int node = Node(idx, i);
    parent_[node] = node;
    next_[node] = -1;
    agg_[node] = Agg{};
  }
  for (size_t i = 0; i < rt.segments.size(); ++i) {
    const Segment& s = rt.segments[i];
    const int node = Node(idx, static_cast<int>(i));
    Agg& a = agg_[node];
    a.kind = s.kind;
    a.open_sides = kSidesCount[s.sides & 15];
    a.shields = s.shield ? 1 : 0;
    a.first = a.last = node;
    a.count = 1;
    if (s.kind == FeatureKind::kMonastery) {
      CARC_CHECK(monastery_[idx] < 0);  // one monastery per tile (MonasterySegment)
      monastery_[idx] = static_cast<int8_t>(i);
    }
  }
  for (int side = 0; side < 4; ++side) {
    Coord nc = Neighbour(c, side);
    Cell& ncell = cell_at(nc);
    if (ncell.tile < 0) {
      // The square now shows this tile's edge on its side facing us (BASE-PLACE-EDGE).
      const int facing = (side + 2) % 4;
      ncell.need = static_cast<uint8_t>((ncell.need & ~(3 << (2 * facing))) |
                                        ((static_cast<int>(rt.edges[side]) + 1) << (2 * facing)));
      if (ncell.slot < 0) {
        ncell.slot = static_cast<int32_t>(slot_need_.size());
        slot_need_.push_back(0);
        slot_coord_.push_back(nc);
      }
      slot_need_[ncell.slot] = ncell.need;
      continue;
    }
    const int n = ncell.tile;
    const RotatedTile& nt = rotated(n);
    int mine = rt.side_segment[side];
    int theirs = nt.side_segment[(side + 2) % 4];
    if (mine >= 0 && theirs >= 0) {
      Union(Node(idx, mine), Node(n, theirs));
      agg_[Find(Node(idx, mine))].open_sides -= 2;
    }
    for (int h = 2 * side; h < 2 * side + 2; ++h) {
      int fm = rt.half_segment[h];
      int ft = nt.half_segment[OppositeHalf(h)];
      if (fm >= 0 && ft >= 0) Union(Node(idx, fm), Node(n, ft));
    }
  }
  // Every listing reads the dead slots too: compact after a dozen (a compaction reads the
  // frontier once; a game places about 70 tiles), or on a long frontier (a board of 10^5
  // tiles) after an eighth of the slots, so that compacting stays linear in the tiles placed.
  if (dead_slots_ >= kMaxDeadSlots && dead_slots_ * 8 >= static_cast<int>(slot_need_.size()))
    CompactSlots();
  return idx;
}

void Board::ReserveBox(Coord lo, Coord hi) {
  if (!tiles_.empty() || w_ > 0 || !sparse_.empty() || lo.x > hi.x || lo.y > hi.y) return;
  const long nw = static_cast<long>(hi.x) - lo.x + 1, nh = static_cast<long>(hi.y) - lo.y + 1;
  const long dense_limit =
      std::max(kMaxDenseSquares, kDenseSquaresPerTile * static_cast<long>(tiles_.capacity()));
  if (nw * nh > dense_limit) return;
  cells_.assign(static_cast<size_t>(nw * nh), Cell{});
  x0_ = lo.x;
  y0_ = lo.y;
  w_ = static_cast<int>(nw);
  h_ = static_cast<int>(nh);
}

void Board::ReserveTiles(int n) {
  const size_t nodes = static_cast<size_t>(n) * kMaxSegments;
  tiles_.reserve(n);
  monastery_.reserve(n);
  parent_.reserve(nodes);
  next_.reserve(nodes);
  agg_.reserve(nodes);
}

void Board::CompactSlots() {
  size_t live = 0;
  for (size_t i = 0; i < slot_need_.size(); ++i) {
    if (slot_need_[i] == 0) continue;  // dead: the square has a tile now
    const Coord c = slot_coord_[i];
    Cell& cell = sparse_.empty() ? cells_[(c.y - y0_) * w_ + (c.x - x0_)] : sparse_[c];
    cell.slot = static_cast<int32_t>(live);
    slot_need_[live] = slot_need_[i];
    slot_coord_[live] = c;
    ++live;
  }
  slot_need_.resize(live);
  slot_coord_.resize(live);
  dead_slots_ = 0;
}

std::vector<Coord> Board::Frontier() const {
  std::vector<Coord> out;
  out.reserve(slot_coord_.size() - dead_slots_);
  for (size_t i = 0; i < slot_need_.size(); ++i)
    if (slot_need_[i] != 0) out.push_back(slot_coord_[i]);
  return out;
}

bool Board::IsComplete(int root) const {
  const Agg& fi = agg_[root];
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
  std::vector<int> t;
  for (int node = agg_[root].first; node >= 0; node = next_[node]) t.push_back(TileOf(node));
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
  TouchedCityRoots(field_root, roots);
  return roots;
}

void Board::TouchedCityRoots(int field_root, std::vector<int>& roots) const {
  // The city segments each of the field's segments touches on its own tile.
  roots.clear();
  for (int node = agg_[field_root].first; node >= 0; node = next_[node])
    for (int city : segment(node).adjacent_cities) roots.push_back(Find(Node(TileOf(node), city)));
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
}

}  // namespace carc::model
