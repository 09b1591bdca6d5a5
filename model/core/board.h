#pragma once
// The board: placed tiles and the features they form, tracked incrementally by union-find
// over tile segments (a whole-board rescan per move would be too slow for perft and fuzzing).
// Rules (base): BASE-PLACE-EDGE, BASE-PLACE-ADJ, BASE-FEATURE-JOIN.

#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "model/core/tile.h"
#include "model/core/types.h"

namespace carc::model {

struct PlacedTile {
  TileType type = 0;
  Rotation rotation = 0;
  Coord pos;
};

// Aggregates kept at each union-find root.
struct FeatureInfo {
  FeatureKind kind = FeatureKind::kField;
  int open_sides = 0;       // road, city: sides not yet matched by a neighbour
  int shields = 0;          // city: coats of arms
  std::vector<int> tiles;   // tile indices of its segments (a tile may repeat)
  std::vector<int> cities;  // field: city nodes it touches (on its own tiles)
};

enum class PlacementProblem { kNone, kOccupied, kNotAdjacent, kEdgeMismatch };

struct PlacementCheck {
  PlacementProblem problem = PlacementProblem::kNone;
  int side = -1;  // kEdgeMismatch: the first side (N E S W) that does not match
  bool ok() const { return problem == PlacementProblem::kNone; }
};

class Board {
 public:
  explicit Board(const TileCatalog* catalog = &TileCatalog::Base()) : catalog_(catalog) {}

  const TileCatalog& catalog() const { return *catalog_; }
  int size() const { return static_cast<int>(tiles_.size()); }
  const PlacedTile& tile(int i) const { return tiles_[i]; }
  const RotatedTile& rotated(int i) const {
    return catalog_->rotated(tiles_[i].type, tiles_[i].rotation);
  }
  std::optional<int> At(Coord c) const;

  // BASE-PLACE-EDGE, BASE-PLACE-ADJ: where a tile may go. The first tile needs no neighbour.
  PlacementCheck Check(TileType type, Coord c, Rotation r) const;
  bool CanPlaceAnywhere(TileType type) const;
  // Places without checking (callers check first); joins features. Returns the tile index.
  int Place(TileType type, Coord c, Rotation r);

  // Empty squares next to a placed tile, in a deterministic order.
  std::vector<Coord> Frontier() const;

  static int Node(int tile, int segment) { return tile * kMaxSegments + segment; }
  static int TileOf(int node) { return node / kMaxSegments; }
  static int SegmentOf(int node) { return node % kMaxSegments; }
  int Find(int node) const;
  const FeatureInfo& Info(int root) const { return info_[root]; }
  const Segment& segment(int node) const { return rotated(TileOf(node)).segments[SegmentOf(node)]; }

  // Completed: road/city with no open side; monastery with all 8 neighbours (BASE-SCORE-*).
  bool IsComplete(int root) const;
  int DistinctTiles(int root) const;
  int MonasteryNeighbours(int tile) const;
  // Every feature root (one per road, city, field, monastery), in node order.
  std::vector<int> AllRoots() const;
  // Field: the distinct roots of the cities it touches.
  std::vector<int> TouchedCityRoots(int field_root) const;

 private:
  void Union(int a, int b);

  const TileCatalog* catalog_;
  std::vector<PlacedTile> tiles_;
  std::unordered_map<Coord, int> at_;
  std::vector<Coord> frontier_order_;  // insertion order, filtered on read
  std::unordered_set<Coord> frontier_seen_;
  mutable std::vector<int> parent_;
  std::vector<FeatureInfo> info_;
};

}  // namespace carc::model
