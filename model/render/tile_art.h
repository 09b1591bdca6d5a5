#pragma once
// Tile pictures derived from the model's own tile data: one description per tile type and
// rotation, built from RotatedTile's segments (the model does the rotating). No per-tile code.
//
// Tile-local coordinates: the unit square, origin at the north-west corner, x east, y south
// (the board's orientation). Paths are written in units of kTileSize.

#include <string>
#include <vector>

#include "model/core/tile.h"

namespace carc::render {

inline constexpr double kTileSize = 100;

struct Point {
  double x = 0;
  double y = 0;
};

// The point of half-edge `half` (NL NR EL ER SL SR WL WR), `inset` inward from the edge.
Point HalfPoint(int half, double inset);

// Where a figure on the segment stands: inside the city cap, on the road, in the field away
// from roads and cities, on the monastery.
Point SegmentAnchor(const model::RotatedTile& rt, int segment);

enum class Role { kField, kRoad, kCity, kMonastery, kShield, kJunction };

struct Shape {
  int segment = -1;  // -1: decoration (junction)
  Role role = Role::kField;
  std::string path;  // SVG path data in tile units (0..kTileSize)
};

// In drawing order: fields, roads, cities, monastery, coats of arms, junction.
std::vector<Shape> DescribeTile(const model::RotatedTile& rt);

// Numbers in the SVG: one decimal, no trailing ".0".
std::string Num(double v);

}  // namespace carc::render
