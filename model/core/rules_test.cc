// Turn flow, legality and scoring on small hand-made positions; expectations worked out by hand.
#include "model/core/rules.h"

#include <algorithm>

#include <gtest/gtest.h>

#include "model/core/position_io.h"
#include "model/core/scoring.h"
#include "model/expansions/registry.h"

namespace carc::model {
namespace {

Position Parse(const std::string& text) {
  auto pos = ParsePosition(nlohmann::json::parse(text), exp::Context("test"));
  EXPECT_TRUE(pos.ok()) << (pos.ok() ? "" : pos.status().message());
  ApplyResult r;
  Advance(*pos, r);
  return *pos;
}

constexpr const char* kStart = R"({
  "rules": {"edition": "C3"},
  "players": [{"name": "A"}, {"name": "B"}],
  "board": [{"tile": "D", "x": 0, "y": 0, "rotation": 0}],
  "supply": {"draw_order": ["U", "V"]},
  "turn": {"player": 0, "step": "place_tile", "tile": "E"}
})";

TEST(Rules, CityCompletedScoresFourAndReturnsTheMeeple) {
  Position pos = Parse(kStart);
  ApplyResult r = Apply(pos, {.type = ActionType::kPlaceTile, .pos = {0, -1}, .rotation = 2});
  ASSERT_TRUE(r.verdict.legal);
  // Meeple on E's city (now its south side).
  r = Apply(pos, {.type = ActionType::kPlaceFigure,
                  .pos = {0, -1},
                  .has_pos = true,
                  .figure_kind = kMeeple,
                  .segment = 0});
  ASSERT_TRUE(r.verdict.legal);
  ASSERT_EQ(r.scores.size(), 1u);
  EXPECT_EQ(r.scores[0].points, 4);  // 2 tiles x 2, no coat of arms
  EXPECT_EQ(pos.players[0].score, 4);
  EXPECT_EQ(pos.players[0].supply[kMeeple], 7);
  EXPECT_TRUE(pos.figures.empty());
  // Next turn: player B with tile U drawn.
  EXPECT_EQ(pos.turn.player, 1);
  ASSERT_TRUE(pos.turn.drawn.has_value());
  EXPECT_EQ(pos.cfg().catalog->Name(*pos.turn.drawn), "U");
}

// BASE-MAJORITY with a value an expansion splits: Award pays each winner what the event states
// (receives, one entry per winner), else the whole value to each.
TEST(Award, PaysWhatTheEventStatesPerWinner) {
  Position pos = Parse(kStart);
  ScoreEvent ev;
  ev.winners = {0, 1};
  ev.points = 5;
  Award(pos, ev);  // a tie: 5 each
  EXPECT_EQ(pos.players[0].score, 5);
  EXPECT_EQ(pos.players[1].score, 5);
  ev.receives = {2, 3};
  Award(pos, ev);  // stated shares
  EXPECT_EQ(pos.players[0].score, 7);
  EXPECT_EQ(pos.players[1].score, 8);
  EXPECT_EQ(ev.Receives(1), 3);
  ev.receives = {2};  // not one per winner: not a statement of shares
  EXPECT_EQ(ev.Receives(0), 5);
}

TEST(Rules, IllegalPlacementLeavesThePositionUnchanged) {
  Position pos = Parse(kStart);
  ApplyResult r = Apply(pos, {.type = ActionType::kPlaceTile, .pos = {0, -1}, .rotation = 0});
  EXPECT_FALSE(r.verdict.legal);
  ASSERT_EQ(r.verdict.reasons.size(), 1u);
  EXPECT_EQ(r.verdict.reasons[0].ruling, "BASE-PLACE-EDGE");
  EXPECT_EQ(pos.board.size(), 1);
}

TEST(Rules, LegalPlacementsOfEAroundTheStartTile) {
  // E (city N) next to D at (0,0): north square needs city south -> rotation 180 only;
  // east square needs road on W: E has none; south square needs field north -> rotations with
  // field north: 90, 180, 270 (city E, S, W) = 3; west square needs road east: none. Total 4.
  Position pos = Parse(kStart);
  EXPECT_EQ(LegalActions(pos).size(), 4u);
}

TEST(Rules, TwoTileCityUnderC1ScoresTwo) {
  std::string text = kStart;
  text.replace(text.find(R"("edition": "C3")"), 15,
               R"("edition": "C1", "options": {"farm_scoring": "per-farm"})");
  Position pos = Parse(text);
  Apply(pos, {.type = ActionType::kPlaceTile, .pos = {0, -1}, .rotation = 2});
  ApplyResult r = Apply(pos, {.type = ActionType::kPlaceFigure,
                              .pos = {0, -1},
                              .has_pos = true,
                              .figure_kind = kMeeple,
                              .segment = 0});
  ASSERT_EQ(r.scores.size(), 1u);
  EXPECT_EQ(r.scores[0].points, 2);  // BASE-SCORE-CITY C1: 1 per tile
}

// Two E tiles close a 2-tile city between (0,0) and (0,-1); the city splits the fields: farm F1
// (E at (0,0), below the city) and farm F2 (E at (0,-1), above it) each touch only that city.
// A's farmer stands in F1, B's in F2. `second_tile` false leaves the city open (E alone).
Position Farms(const std::string& rules, bool second_tile = true) {
  return Parse(R"({"rules": )" + rules + R"(,
    "players": [{"name": "A"}, {"name": "B"}],
    "board": [{"tile": "E", "x": 0, "y": 0, "rotation": 0})" +
               (second_tile ? R"(, {"tile": "E", "x": 0, "y": -1, "rotation": 180})" : "") +
               R"(],
    "figures": [{"owner": 0, "x": 0, "y": 0, "feature": "field:SL", "kind": "meeple"})" +
               (second_tile
                    ? R"(, {"owner": 1, "x": 0, "y": -1, "feature": "field:NL", "kind": "meeple"})"
                    : "") +
               R"(],
    "supply": {"remaining": "rest"},
    "turn": {"player": 0, "step": "place_tile", "tile": "U"}})");
}

// BASE-END-FARM: F1 alone is worth 3 (one completed city) to its only farmer, A.
TEST(FarmFinalValues, PerFarmScoresTheFarmAlone) {
  Position pos = Farms(R"({"edition": "C3"})");
  const std::vector<ScoreEvent> v = FarmFinalValues(pos, pos.board.Find(pos.figures[0].node));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].points, 3);
  EXPECT_EQ(v[0].cities, 1);
  EXPECT_EQ(v[0].winners, std::vector<PlayerId>{0});
  EXPECT_NE(std::find(v[0].rulings.begin(), v[0].rulings.end(), "BASE-END-FARM"),
            v[0].rulings.end());
}

// BASE-END-FARM-C1-4PT: the city pays 4 to the majority of the farmers of F1 and F2 together:
// A 1, B 1, a tie, so both; the event is the city's (as final scoring states it).
TEST(FarmFinalValues, C1FourPerCityCountsEveryFarmTouchingTheCity) {
  Position pos = Farms(R"({"edition": "C1", "options": {"farm_scoring": "c1-four-per-city"}})");
  const std::vector<ScoreEvent> v = FarmFinalValues(pos, pos.board.Find(pos.figures[0].node));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].points, 4);
  EXPECT_EQ(v[0].winners, (std::vector<PlayerId>{0, 1}));
  EXPECT_EQ(v[0].strength, (std::vector<int>{1, 1}));
  EXPECT_EQ(v[0].tiles.size(), 2u);  // the city's two tiles
  EXPECT_EQ(v[0].rulings.front(), "BASE-END-FARM-C1-4PT");
  // The same event as final scoring gives: 4 each.
  std::vector<ScoreEvent> final;
  FinalScoring(pos, final);
  EXPECT_EQ(pos.players[0].score, 4);
  EXPECT_EQ(pos.players[1].score, 4);
}

// BASE-END-FARM-C1-4PT: a farm touching no completed city is worth 0, to its majority (A).
TEST(FarmFinalValues, C1FourPerCityWithoutCompletedCityIsWorthNothing) {
  Position pos = Farms(R"({"edition": "C1", "options": {"farm_scoring": "c1-four-per-city"}})",
                       /*second_tile=*/false);
  const std::vector<ScoreEvent> v = FarmFinalValues(pos, pos.board.Find(pos.figures[0].node));
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].points, 0);
  EXPECT_EQ(v[0].cities, 0);
  EXPECT_EQ(v[0].winners, std::vector<PlayerId>{0});
  EXPECT_EQ(v[0].rulings, std::vector<std::string>{"BASE-END-FARM-C1-4PT"});
}

}  // namespace
}  // namespace carc::model
