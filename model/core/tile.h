#pragma once
// Tile definitions: edges, segments (the parts of a tile a feature is made of) and rotation.
// Rules (base): BASE-SETUP, BASE-PLACE-EDGE. Data: model/core/tile_catalog.cc.

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/core/types.h"

namespace carc::model {

enum class EdgeType : uint8_t { kField, kRoad, kCity };

// One segment of a tile. Roads and cities name whole sides (bits of kSideBit); fields name
// half-edges (bit i = half i, clockwise from the north edge's west half: NL NR EL ER SL SR WL WR).
struct Segment {
  FeatureKind kind = FeatureKind::kField;
  uint8_t sides = 0;   // road, city
  uint8_t halves = 0;  // field
  bool shield = false;
  std::vector<int> adjacent_cities;  // field: indices of city segments it touches
};

inline constexpr int kMaxSegments = 8;

struct TileDef {
  char id = '?';
  int count = 0;
  std::vector<Segment> segments;  // canonical orientation (as in the tile table)
};

// A tile type at one rotation, precomputed: the data every placement query needs.
struct RotatedTile {
  std::array<EdgeType, 4> edges{};       // N E S W
  std::array<int8_t, 4> side_segment{};  // road/city segment on each side, or -1
  std::array<int8_t, 8> half_segment{};  // field segment on each half-edge, or -1
  std::vector<Segment> segments;         // rotated masks
};

using TileType = int;  // index into the catalog, 0 = 'A'

// Rotation helpers: a quarter turn clockwise moves side s to s+1 and half h to h+2.
uint8_t RotateSides(uint8_t sides, Rotation r);
uint8_t RotateHalves(uint8_t halves, Rotation r);

// Names used in position files, in board orientation: sides "NESW", halves "NL.NR.EL...".
std::string SidesName(uint8_t sides);
std::string HalvesName(uint8_t halves);
std::optional<uint8_t> ParseSides(std::string_view s);
std::optional<uint8_t> ParseHalves(std::string_view s);
std::string_view FeatureKindName(FeatureKind k);
std::optional<FeatureKind> ParseFeatureKind(std::string_view s);

class TileCatalog {
 public:
  // The 72-tile base set of shared/base-tiles.md (24 types, start tile = one of the four D).
  static const TileCatalog& Base();

  int size() const { return static_cast<int>(defs_.size()); }
  const TileDef& def(TileType t) const { return defs_[t]; }
  const RotatedTile& rotated(TileType t, Rotation r) const { return rotated_[t * 4 + r]; }
  std::optional<TileType> Find(std::string_view id) const;
  std::string Name(TileType t) const { return std::string(1, defs_[t].id); }
  TileType start_tile() const { return start_; }
  int total_count() const;
  // Rotations that give a different picture (e.g. B has one, U two, D four). Legal-move lists
  // show each distinct placement once; any equivalent rotation is accepted on input.
  const std::vector<Rotation>& distinct_rotations(TileType t) const { return distinct_[t]; }
  // The first rotation (in distinct_rotations) that gives the same picture as r.
  Rotation canonical_rotation(TileType t, Rotation r) const { return canonical_[t * 4 + (r & 3)]; }

 private:
  explicit TileCatalog(std::vector<TileDef> defs, TileType start);
  std::vector<TileDef> defs_;
  std::vector<RotatedTile> rotated_;
  std::vector<std::vector<Rotation>> distinct_;
  std::vector<Rotation> canonical_;
  TileType start_;
};

}  // namespace carc::model
