#pragma once
// The board: placed tiles and the features they form, tracked incrementally by union-find
// over tile segments (a whole-board rescan per move would be too slow for perft and fuzzing).
// Squares live in a dense grid over the bounding box (grown and re-centred as tiles arrive; a
// hash map only for a box too large to hold, e.g. a hostile file's far-apart tiles). Each empty
// square next to a tile keeps the edges its neighbours show (one byte), so whether a tile fits
// there, at all four rotations, is one read; the frontier is kept up to date on each placement.
// Rules (base): BASE-PLACE-EDGE, BASE-PLACE-ADJ, BASE-FEATURE-JOIN.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <optional>
#include <unordered_map>
#include <vector>

#include "model/core/tile.h"
#include "model/core/types.h"

namespace carc::model {

struct PlacedTile {
  TileType type = 0;
  Rotation rotation = 0;
  Coord pos;
};

// The tiles of a feature's segments, in the order they joined it (a tile repeats once per
// segment): a view of the board's member list, walked on demand, so a feature stores no list
// and placing a tile allocates nothing. Valid while the board is unchanged.
class FeatureTiles {
 public:
  class iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = int;
    using difference_type = std::ptrdiff_t;
    using pointer = const int*;
    using reference = int;
    iterator() = default;
    iterator(const int32_t* next, int node) : next_(next), node_(node) {}
    int operator*() const { return node_ / kMaxSegments; }
    iterator& operator++() {
      node_ = next_[node_];
      return *this;
    }
    iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    friend bool operator==(const iterator&, const iterator&) = default;

   private:
    const int32_t* next_ = nullptr;
    int node_ = -1;
  };
  FeatureTiles() = default;
  FeatureTiles(const int32_t* next, int first, int count)
      : next_(next), first_(first), count_(count) {}
  iterator begin() const { return {next_, count_ ? first_ : -1}; }
  iterator end() const { return {next_, -1}; }
  size_t size() const { return static_cast<size_t>(count_); }
  bool empty() const { return count_ == 0; }
  operator std::vector<int>() const { return {begin(), end()}; }  // NOLINT: a copy, as before

 private:
  const int32_t* next_ = nullptr;
  int first_ = -1;
  int count_ = 0;
};

// Aggregates kept at each union-find root (returned by value: a small view).
struct FeatureInfo {
  FeatureKind kind = FeatureKind::kField;
  int open_sides = 0;  // road, city: sides not yet matched by a neighbour
  int shields = 0;     // city: coats of arms
  FeatureTiles tiles;  // tile indices of its segments (a tile may repeat)
};

enum class PlacementProblem { kNone, kOccupied, kNotAdjacent, kEdgeMismatch };

struct PlacementCheck {
  PlacementProblem problem = PlacementProblem::kNone;
  int side = -1;  // kEdgeMismatch: the first side (N E S W) that does not match
  bool ok() const { return problem == PlacementProblem::kNone; }
};

class Board {
 public:
  explicit Board(const TileCatalog* catalog = &TileCatalog::Base());

  const TileCatalog& catalog() const { return *catalog_; }
  int size() const { return static_cast<int>(tiles_.size()); }
  const PlacedTile& tile(int i) const { return tiles_[i]; }
  const RotatedTile& rotated(int i) const {
    return catalog_->rotated(tiles_[i].type, tiles_[i].rotation);
  }
  std::optional<int> At(Coord c) const {
    const Cell* cell = Find(c);
    if (!cell || cell->tile < 0) return std::nullopt;
    return cell->tile;
  }

  // BASE-PLACE-EDGE, BASE-PLACE-ADJ: where a tile may go. The first tile needs no neighbour.
  PlacementCheck Check(TileType type, Coord c, Rotation r) const;
  // The rotations (bit r) at which the tile fits on an empty square next to a placed tile
  // (BASE-PLACE-EDGE); 0 on any other square. One read of the square and one of a table.
  int FitMask(TileType type, Coord c) const {
    const Cell* cell = Find(c);
    if (!cell || cell->tile >= 0) return 0;
    return fit_[type * 256 + cell->need] & 15;
  }
  // FitMask restricted to the rotations that give distinct pictures
  // (TileCatalog::distinct_rotations): the placements a legal list shows on the square.
  int DistinctFitMask(TileType type, Coord c) const {
    const Cell* cell = Find(c);
    if (!cell || cell->tile >= 0) return 0;
    return fit_[type * 256 + cell->need] >> 4;
  }
  // Calls f(c, mask) for every frontier square where the tile fits, in frontier order, with
  // mask = DistinctFitMask(type, c) (nonzero). One read of the square and one of the table each.
  template <typename F>
  void ForEachFit(TileType type, F&& f) const {
    const uint8_t* fit = fit_ + type * 256;
    const uint8_t* need = slot_need_.data();
    const size_t n = slot_need_.size();
    // In blocks: first the squares that fit, gathered without a branch per square (most
    // squares fit nothing, at random), then f on each of them in order.
    constexpr size_t kBlock = 256;
    uint16_t hit[kBlock];
    for (size_t lo = 0; lo < n; lo += kBlock) {
      const size_t hi = std::min(n, lo + kBlock);
      size_t k = 0;
      for (size_t i = lo; i < hi; ++i) {
        hit[k] = static_cast<uint16_t>(i - lo);
        k += fit[need[i]] >= 16;
      }
      for (size_t j = 0; j < k; ++j) {
        const size_t i = lo + hit[j];
        f(slot_coord_[i], fit[need[i]] >> 4);
      }
    }
  }
  bool CanPlaceAnywhere(TileType type) const;
  // Places without checking (callers check first); joins features. Returns the tile index.
  int Place(TileType type, Coord c, Rotation r);
  // Room for n tiles in all, so that reading a long board grows no per-tile array as it goes.
  void ReserveTiles(int n);
  // The grid made at once for the squares from lo to hi, on a board with no tile yet (a board
  // being read whose extent is known: growing it as the tiles arrive copied it each time). A box
  // too large for the grid is left to the hash map, as Place would.
  void ReserveBox(Coord lo, Coord hi);

  // Empty squares next to a placed tile, in the order they first became so.
  std::vector<Coord> Frontier() const;

  static int Node(int tile, int segment) { return tile * kMaxSegments + segment; }
  static int TileOf(int node) { return node / kMaxSegments; }
  static int SegmentOf(int node) { return node % kMaxSegments; }
  // The feature a segment belongs to (its root). Most nodes are a root or one step from it.
  int Find(int node) const {
    const int p = parent_[node];
    if (parent_[p] == p) return p;
    return FindCompressing(node);
  }
  FeatureInfo Info(int root) const {
    const Agg& a = agg_[root];
    return {a.kind, a.open_sides, a.shields, FeatureTiles(next_.data(), a.first, a.count)};
  }
  const Segment& segment(int node) const { return rotated(TileOf(node)).segments[SegmentOf(node)]; }

  // Completed: road/city with no open side; monastery with all 8 neighbours (BASE-SCORE-*).
  bool IsComplete(int root) const;
  int DistinctTiles(int root) const;
  int MonasteryNeighbours(int tile) const;
  // The tile's monastery segment, or -1 (none).
  int MonasterySegment(int tile) const { return monastery_[tile]; }
  // Every feature root (one per road, city, field, monastery), in node order.
  std::vector<int> AllRoots() const;
  // Field: the distinct roots of the cities it touches.
  std::vector<int> TouchedCityRoots(int field_root) const;
  void TouchedCityRoots(int field_root, std::vector<int>& out) const;  // into a reused buffer

 private:
  // One square: its tile, or (empty) the edges its neighbours show: bits 2s..2s+1 of `need`
  // hold 1 + the EdgeType of the neighbour on side s (0: no neighbour there).
  struct Cell {
    int32_t tile = -1;
    int32_t slot = -1;  // empty square on the frontier: its slot (slot_need_, slot_coord_)
    uint8_t need = 0;
  };
  const Cell* Find(Coord c) const {
    if (!sparse_.empty()) {
      auto it = sparse_.find(c);
      return it == sparse_.end() ? nullptr : &it->second;
    }
    const unsigned dx = static_cast<unsigned>(c.x - x0_), dy = static_cast<unsigned>(c.y - y0_);
    if (dx >= static_cast<unsigned>(w_) || dy >= static_cast<unsigned>(h_)) return nullptr;
    return &cells_[dy * w_ + dx];
  }
  Cell& Touch(Coord c);  // the square's cell, made (and the grid grown) when needed
  void Reserve(Coord lo, Coord hi);
  void Union(int a, int b);
  void CompactSlots();

  const TileCatalog* catalog_;
  std::vector<PlacedTile> tiles_;
  std::vector<int8_t> monastery_;  // per tile: MonasterySegment
  std::vector<Cell> cells_;  // dense grid, row-major, x in [x0_, x0_ + w_), y in [y0_, y0_ + h_)
  int x0_ = 0, y0_ = 0, w_ = 0, h_ = 0;
  std::unordered_map<Coord, Cell> sparse_;  // instead of cells_ when the box is too large
  // The frontier as slots in the order squares joined it, each with its `need` byte, so that a
  // listing reads one byte per square in sequence (ForEachFit, CanPlaceAnywhere). A square that
  // receives a tile leaves a dead slot (need 0: no tile fits there) until CompactSlots.
  std::vector<uint8_t> slot_need_;
  std::vector<Coord> slot_coord_;
  int dead_slots_ = 0;
  // Per node (Node(tile, segment)): union-find parent, the next node of its feature's member
  // list (-1 at the end), and at a root the feature's aggregates and list ends.
  struct Agg {
    FeatureKind kind = FeatureKind::kField;
    int open_sides = 0;
    int shields = 0;
    int first = -1, last = -1, count = 0;
  };
  // [type * 256 + need]: bits 0-3 the rotations that fit (FitMask), bits 4-7 those of them that
  // are distinct rotations (DistinctFitMask).
  const uint8_t* fit_;
  int FindCompressing(int node) const;  // Find's slow path: walks up and compresses the path
  mutable std::vector<int> parent_;
  std::vector<int32_t> next_;
  std::vector<Agg> agg_;
};

}  // namespace carc::model
