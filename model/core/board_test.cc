// Tile data and board mechanics. Expected numbers come from shared/base-tiles.md, by hand.
#include "model/core/board.h"

#include <gtest/gtest.h>

#include <random>

namespace carc::model {
namespace {

const TileCatalog& Cat() { return TileCatalog::Base(); }
TileType T(char c) { return *Cat().Find(std::string(1, c)); }

TEST(TileCatalog, CountsShieldsMonasteries) {
  EXPECT_EQ(Cat().size(), 24);
  EXPECT_EQ(Cat().total_count(), 72);  // BASE-SETUP
  int shields = 0, monasteries = 0;
  for (TileType t = 0; t < Cat().size(); ++t)
    for (const Segment& s : Cat().def(t).segments) {
      shields += s.shield ? Cat().def(t).count : 0;
      monasteries += s.kind == FeatureKind::kMonastery ? Cat().def(t).count : 0;
    }
  EXPECT_EQ(shields, 10);
  EXPECT_EQ(monasteries, 6);
  EXPECT_EQ(Cat().Name(Cat().start_tile()), "D");
}

TEST(TileCatalog, FieldHalvesCoverNonCityEdgesOnce) {
  for (TileType t = 0; t < Cat().size(); ++t) {
    const RotatedTile& rt = Cat().rotated(t, 0);
    for (int h = 0; h < 8; ++h) {
      bool city = rt.edges[h / 2] == EdgeType::kCity;
      EXPECT_EQ(rt.half_segment[h] < 0, city) << Cat().Name(t) << " half " << h;
    }
  }
}

TEST(TileCatalog, DistinctRotations) {
  EXPECT_EQ(Cat().distinct_rotations(T('B')).size(), 1u);
  EXPECT_EQ(Cat().distinct_rotations(T('C')).size(), 1u);
  EXPECT_EQ(Cat().distinct_rotations(T('X')).size(), 1u);
  EXPECT_EQ(Cat().distinct_rotations(T('U')).size(), 2u);
  EXPECT_EQ(Cat().distinct_rotations(T('F')).size(), 2u);
  EXPECT_EQ(Cat().distinct_rotations(T('H')).size(), 2u);
  EXPECT_EQ(Cat().distinct_rotations(T('D')).size(), 4u);
  EXPECT_EQ(Cat().distinct_rotations(T('A')).size(), 4u);
}

TEST(TileCatalog, RotationMovesSidesAndHalves) {
  // D rotated 90: city N -> E; road W-E -> N-S; field NL..: ENE(2)+WNW(7) -> SSE(4)+NNW(1)...
  const RotatedTile& d90 = Cat().rotated(T('D'), 1);
  EXPECT_EQ(d90.edges[1], EdgeType::kCity);
  EXPECT_EQ(d90.edges[0], EdgeType::kRoad);
  EXPECT_EQ(d90.edges[2], EdgeType::kRoad);
  EXPECT_EQ(d90.edges[3], EdgeType::kField);
  EXPECT_EQ(d90.segments[2].halves, ((0x84 << 2) & 0xFF) | (0x84 >> 6));  // 0x12: NR, SL
  EXPECT_EQ(HalvesName(d90.segments[2].halves), "NR.SL");
}

TEST(Board, PlacementChecks) {
  Board b;
  b.Place(T('D'), {0, 0}, 0);
  EXPECT_TRUE(b.Check(T('U'), {1, 0}, 0).ok());           // road meets road
  PlacementCheck mismatch = b.Check(T('E'), {0, -1}, 0);  // E's south is field, D's north city
  EXPECT_EQ(mismatch.problem, PlacementProblem::kEdgeMismatch);
  EXPECT_EQ(mismatch.side, 2);
  EXPECT_TRUE(b.Check(T('E'), {0, -1}, 2).ok());
  EXPECT_EQ(b.Check(T('U'), {0, 0}, 0).problem, PlacementProblem::kOccupied);
  EXPECT_EQ(b.Check(T('U'), {5, 5}, 0).problem, PlacementProblem::kNotAdjacent);
}

TEST(Board, FeaturesJoinAndComplete) {
  Board b;
  b.Place(T('D'), {0, 0}, 0);
  int e = b.Place(T('E'), {0, -1}, 2);  // caps D's city: a 2-tile city, complete
  int city = b.Find(Board::Node(0, 0));
  EXPECT_EQ(city, b.Find(Board::Node(e, 0)));
  EXPECT_TRUE(b.IsComplete(city));
  EXPECT_EQ(b.DistinctTiles(city), 2);
  int u = b.Place(T('U'), {1, 0}, 0);
  int road = b.Find(Board::Node(0, 1));
  EXPECT_EQ(road, b.Find(Board::Node(u, 0)));
  EXPECT_FALSE(b.IsComplete(road));
  EXPECT_EQ(b.Info(road).open_sides, 2);
  // D's north field (ENE+WNW) joins U's north field (NNW NNE ENE WNW) across D's east edge.
  EXPECT_EQ(b.Find(Board::Node(0, 2)), b.Find(Board::Node(u, 1)));
  // ... and touches the completed city.
  std::vector<int> cities = b.TouchedCityRoots(b.Find(Board::Node(u, 1)));
  ASSERT_EQ(cities.size(), 1u);
  EXPECT_EQ(cities[0], city);
}

TEST(Board, CityWithTwoSegmentsOfOneTileCountsTheTileOnce) {
  // A ring of city around one H tile: H at (0,0) with cities N and S; join them through
  // tiles to the east: (0,-1) and (0,1) caps would close them separately, so instead use
  // C tiles (all-city) to link: the count is by tiles, not segments (BASE-SCORE-CITY).
  Board b;
  b.Place(T('H'), {0, 0}, 0);   // city N, city S
  b.Place(T('C'), {0, -1}, 0);  // above
  b.Place(T('C'), {0, 1}, 0);   // below
  int root_n = b.Find(Board::Node(0, 0));
  int root_s = b.Find(Board::Node(0, 1));
  EXPECT_NE(root_n, root_s);
  EXPECT_EQ(b.DistinctTiles(root_n), 2);
}

// the frontier is kept in the order squares first become open, minus the occupied.
TEST(Board, FrontierInOrderFirstOpenedOccupiedLeaveIt) {
  Board b;
  b.Place(T('D'), {0, 0}, 0);
  EXPECT_EQ(b.Frontier(), (std::vector<Coord>{{0, -1}, {1, 0}, {0, 1}, {-1, 0}}));  // N E S W
  b.Place(T('U'), {1, 0}, 0);
  EXPECT_EQ(b.Frontier(),
            (std::vector<Coord>{{0, -1}, {0, 1}, {-1, 0}, {1, -1}, {2, 0}, {1, 1}}));
}

// a square next to D's city fits E only rotated 180 (its city to the south); a square
// with no neighbour or a tile fits nothing.
TEST(Board, FitMaskGivesEveryRotationThatFits) {
  Board b;
  b.Place(T('D'), {0, 0}, 0);
  EXPECT_EQ(b.FitMask(T('E'), {0, -1}), 1 << 2);
  EXPECT_EQ(b.FitMask(T('E'), {0, 0}), 0);
  EXPECT_EQ(b.FitMask(T('E'), {3, 3}), 0);
  // East of D (road on D's east edge): U fits rotated 0 and 180 (its road runs E-W then).
  EXPECT_EQ(b.FitMask(T('U'), {1, 0}), (1 << 0) | (1 << 2));
}

// The grid grows with the board (a 40-tile road) and a file's far-apart tiles (a hostile board)
// still answer: squares between them are empty, each tile's neighbours open.
TEST(Board, GridGrowsAndFarApartTilesStillAnswer) {
  Board b;
  b.Place(T('D'), {0, 0}, 0);
  for (int x = 1; x <= 40; ++x) b.Place(T('U'), {x, 0}, 0);
  for (int x = 0; x <= 40; ++x) EXPECT_EQ(b.At({x, 0}), std::optional<int>(x));
  EXPECT_FALSE(b.At({41, 0}));
  EXPECT_TRUE(b.Check(T('U'), {41, 0}, 0).ok());
  const int far = b.Place(T('U'), {1000000, -1000000}, 0);
  EXPECT_EQ(b.At({1000000, -1000000}), std::optional<int>(far));
  EXPECT_FALSE(b.At({500000, 0}));
  for (int x = 0; x <= 40; ++x) EXPECT_EQ(b.At({x, 0}), std::optional<int>(x));
  EXPECT_EQ(b.Check(T('U'), {1000001, -1000000}, 0).problem, PlacementProblem::kNone);
  EXPECT_EQ(b.Check(T('U'), {1000002, -1000000}, 0).problem, PlacementProblem::kNotAdjacent);
  EXPECT_EQ(b.Frontier().back(), (Coord{999999, -1000000}));  // its W square, opened last
}

// The grid's answers equal a direct look at the neighbours (the rule as written: every edge
// touching a placed tile matches it, at least one does), on random boards of 40 tiles (every
// square the board can reach is inside the box looked at).
TEST(Board, ChecksEqualTheNeighbourRuleOnRandomBoards) {
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    std::mt19937 rng(seed);
    Board b;
    b.Place(T('D'), {0, 0}, 0);
    for (int n = 0; n < 40; ++n) {
      const TileType t = static_cast<TileType>(rng() % Cat().size());
      std::vector<std::pair<Coord, Rotation>> fits;
      for (int y = -42; y <= 42; ++y)
        for (int x = -42; x <= 42; ++x)
          for (Rotation r = 0; r < 4; ++r) {
            bool adjacent = false, match = true;
            for (int side = 0; side < 4; ++side)
              if (auto nb = b.At(Neighbour({x, y}, side))) {
                adjacent = true;
                match &= b.rotated(*nb).edges[(side + 2) % 4] == Cat().rotated(t, r).edges[side];
              }
            const bool ok = !b.At({x, y}) && adjacent && match;
            ASSERT_EQ(b.Check(t, {x, y}, r).ok(), ok) << "seed " << seed << " at " << x << "," << y;
            ASSERT_EQ((b.FitMask(t, {x, y}) >> r) & 1, ok ? 1 : 0);
            if (ok) fits.push_back({{x, y}, r});
          }
      ASSERT_EQ(b.CanPlaceAnywhere(t), !fits.empty());
      if (fits.empty()) continue;
      const auto [c, r] = fits[rng() % fits.size()];
      b.Place(t, c, r);
    }
  }
}

}  // namespace
}  // namespace carc::model
