// Turn flow, legality and scoring on small hand-made positions; expectations worked out by hand.
#include "model/core/rules.h"

#include <gtest/gtest.h>

#include "model/core/position_io.h"
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

}  // namespace
}  // namespace carc::model
