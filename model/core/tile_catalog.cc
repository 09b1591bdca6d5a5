// The base tile set, transcribed from shared/base-tiles.md (checked against three tile lists).
// Rules (base): BASE-SETUP. Orientation is the table's canonical one (JCloisterZone's too).

#include "model/core/tile.h"

namespace carc::model {

namespace {

constexpr uint8_t N = 1, E = 2, S = 4, W = 8;

Segment Road(uint8_t sides) { return {FeatureKind::kRoad, sides, 0, false, {}}; }
Segment City(uint8_t sides, bool shield = false) {
  return {FeatureKind::kCity, sides, 0, shield, {}};
}
Segment Field(uint8_t halves, std::vector<int> cities = {}) {
  return {FeatureKind::kField, 0, halves, false, std::move(cities)};
}
Segment Monastery() { return {FeatureKind::kMonastery, 0, 0, false, {}}; }

std::vector<TileDef> BaseDefs() {
  // Segment indices matter for the field -> city links (the numbers in Field(..., {i})).
  return {
      {'A', 2, {Monastery(), Road(S), Field(0xFF)}},
      {'B', 4, {Monastery(), Field(0xFF)}},
      {'C', 1, {City(N | E | S | W, true)}},
      {'D', 4, {City(N), Road(E | W), Field(0x84, {0}), Field(0x78)}},
      {'E', 5, {City(N), Field(0xFC, {0})}},
      {'F', 2, {City(E | W, true), Field(0x03, {0}), Field(0x30, {0})}},
      {'G', 1, {City(E | W), Field(0x03, {0}), Field(0x30, {0})}},
      {'H', 3, {City(N), City(S), Field(0xCC, {0, 1})}},
      {'I', 2, {City(N), City(W), Field(0x3C, {0, 1})}},
      {'J', 3, {City(N), Road(E | S), Field(0xE4, {0}), Field(0x18)}},
      {'K', 3, {City(N), Road(S | W), Field(0x9C, {0}), Field(0x60)}},
      {'L', 3, {City(N), Road(E), Road(S), Road(W), Field(0x84, {0}), Field(0x60), Field(0x18)}},
      {'M', 2, {City(N | W, true), Field(0x3C, {0})}},
      {'N', 3, {City(N | W), Field(0x3C, {0})}},
      {'O', 2, {City(N | W, true), Road(E | S), Field(0x24, {0}), Field(0x18)}},
      {'P', 3, {City(N | W), Road(E | S), Field(0x24, {0}), Field(0x18)}},
      {'Q', 1, {City(N | E | W, true), Field(0x30, {0})}},
      {'R', 3, {City(N | E | W), Field(0x30, {0})}},
      {'S', 2, {City(N | E | W, true), Road(S), Field(0x10, {0}), Field(0x20, {0})}},
      {'T', 1, {City(N | E | W), Road(S), Field(0x10, {0}), Field(0x20, {0})}},
      {'U', 8, {Road(W | E), Field(0x87), Field(0x78)}},
      {'V', 9, {Road(W | S), Field(0x9F), Field(0x60)}},
      {'W', 4, {Road(E), Road(S), Road(W), Field(0x87), Field(0x18), Field(0x60)}},
      {'X',
       1,
       {Road(N), Road(E), Road(S), Road(W), Field(0x81), Field(0x06), Field(0x18), Field(0x60)}},
  };
}

}  // namespace

const TileCatalog& TileCatalog::Base() {
  static const TileCatalog* catalog = new TileCatalog(BaseDefs(), /*start=*/3);
  return *catalog;
}

}  // namespace carc::model
