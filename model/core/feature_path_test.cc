// The explanation helpers of feature_path.h on small boards worked out by hand from the tile
// table (model/core/tile_catalog.cc): x east, y south; a rotation turns the table orientation
// clockwise; halves NL NR EL ER SL SR WL WR run clockwise from the north-west corner.
#include "model/core/feature_path.h"

#include <gtest/gtest.h>

#include "model/core/notation.h"
#include "model/core/position_io.h"
#include "model/core/scoring.h"
#include "model/expansions/registry.h"

namespace carc::model {
namespace {

Position FromLine(const std::string& line) {
  auto doc = LineToJson(line, "test");
  EXPECT_TRUE(doc.ok()) << (doc.ok() ? "" : doc.status().message());
  auto pos = ParsePosition(*doc, exp::Context("test"));
  EXPECT_TRUE(pos.ok()) << (pos.ok() ? "" : pos.status().message());
  return *pos;
}

// The node of the `kind` segment of the tile at `c` that covers side (road, city) or half
// (field) `bit`.
int NodeAt(const Position& pos, Coord c, FeatureKind kind, int bit) {
  const int t = *pos.board.At(c);
  const RotatedTile& rt = pos.board.rotated(t);
  for (size_t s = 0; s < rt.segments.size(); ++s) {
    const Segment& sg = rt.segments[s];
    if (sg.kind == kind && ((kind == FeatureKind::kField ? sg.halves : sg.sides) & bit))
      return Board::Node(t, static_cast<int>(s));
  }
  return -1;
}

constexpr int kNL = 1, kEL = 4, kWL = 64;
constexpr int kE = 2;

// A road laid out of order: U(0,0), then U(2,0), then W(-1,0) (turned 180: roads N, E, W),
// then U(1,0) joining them. It runs from the junction on (-1,0) to the open east edge of (2,0);
// the walk starts at the end on the tile laid first, (2,0), and runs to the other end.
TEST(FeaturePath, RoadFromEndToEnd) {
  Position pos = FromLine("C3; players A / B; board U 0,0 / U 2,0 / W -1,0 180 / U 1,0");
  const int road = pos.board.Find(NodeAt(pos, {0, 0}, FeatureKind::kRoad, kE));
  const std::vector<Coord> along = FeatureTilesAlong(pos, road);
  ASSERT_EQ(along.size(), 4u);
  EXPECT_EQ(CoordsText(along), "(2, 0), (1, 0), (0, 0), (-1, 0)");
}

// A(0,0) unturned: road S, stopping at the monastery; one field around it. B(0,-1) north of it
// and B(-1,0) west of it (monastery, one field). From B(0,-1)'s field the way to B(-1,0)'s runs
// through A entering by A's north edge (both halves: on both sides of the road's line) and
// leaving by its west edge: it does not go round the road's end. U(0,1) below A (road N-S
// there: U turned 90) has an east and a west field; from the east one to the west one the way
// runs through A from its SL half to its SR half: round the road's end.
TEST(FeaturePath, AroundTheRoadsEndOnlyWhenTheWayCrossesItsLine) {
  Position pos = FromLine("C3; players A / B; board A 0,0 / B 0,-1 / B -1,0 / U 0,1 90");
  const int north = NodeAt(pos, {0, -1}, FeatureKind::kField, kNL);
  const int west = NodeAt(pos, {-1, 0}, FeatureKind::kField, kNL);
  EXPECT_EQ(ConnectionText(pos, north, west, "N", "W"),
            "from N the field runs through (0, 0) to W");
  // U turned 90: road N-S; its north field (NL NR EL WR) turns to the east one (NR EL ER SL),
  // its south field to the west one (SR WL WR NL).
  const int east_of_road = NodeAt(pos, {0, 1}, FeatureKind::kField, kEL);
  const int west_of_road = NodeAt(pos, {0, 1}, FeatureKind::kField, kWL);
  ASSERT_NE(east_of_road, west_of_road);
  EXPECT_EQ(ConnectionText(pos, east_of_road, west_of_road, "E", "W"),
            "from E the field runs through (0, 0) to W, passing around the end of the road at "
            "the monastery (0, 0)");
}

// The same segment: the figure stands on this very feature.
TEST(FeaturePath, SameSegment) {
  Position pos = FromLine("C3; players A / B; board U 0,0");
  const int road = NodeAt(pos, {0, 0}, FeatureKind::kRoad, kE);
  EXPECT_EQ(FeaturePath(pos, road, road), std::vector<int>{road});
  EXPECT_EQ(ConnectionText(pos, road, road, "X", "Anna's thief at (0, 0)"),
            "Anna's thief at (0, 0) stands on this very road (road:EW of (0, 0))");
}

}  // namespace
}  // namespace carc::model
