#pragma once
// Basic value types of the rules core. No logic beyond trivial helpers.

#include <cstdint>
#include <functional>

namespace carc::model {

using PlayerId = int;

// Board coordinates: x grows east, y grows south (the convention of JCloisterZone).
struct Coord {
  int x = 0;
  int y = 0;
  friend bool operator==(const Coord&, const Coord&) = default;
  friend auto operator<=>(const Coord&, const Coord&) = default;
};

// Whole edges of a tile, as bits of a 4-bit mask.
enum class Side : uint8_t { kN = 0, kE = 1, kS = 2, kW = 3 };
inline constexpr uint8_t kSideBit[4] = {1, 2, 4, 8};

// Clockwise quarter turns (0..3); rotation in degrees is 90 * quarter turns.
using Rotation = int;

enum class FeatureKind : uint8_t { kRoad, kCity, kField, kMonastery };

inline Coord Neighbour(Coord c, int side) {
  static constexpr int kDx[4] = {0, 1, 0, -1};
  static constexpr int kDy[4] = {-1, 0, 1, 0};
  return {c.x + kDx[side], c.y + kDy[side]};
}

}  // namespace carc::model

template <>
struct std::hash<carc::model::Coord> {
  size_t operator()(const carc::model::Coord& c) const noexcept {
    return std::hash<uint64_t>()((static_cast<uint64_t>(static_cast<uint32_t>(c.x)) << 32) ^
                                 static_cast<uint32_t>(c.y));
  }
};
