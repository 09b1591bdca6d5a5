// `games list / show / replay` name the players by the names the record gives, and `cited` is
// always a JSON array. Expected values worked out from fixtures/games/g01 and g02 by hand:
// g01 (Anna, Ben): Anna closes the start tile's city with her meeple (4), Ben's road later
// scores 2, so the scores are Anna 4 Ben 0, then Anna 4 Ben 2. g02: Ben's tile in turn 2 puts
// a field against a road, illegal by BASE-PLACE-EDGE.
#include <gtest/gtest.h>

#include "database/games_store.h"
#include "database/migrate.h"
#include "database/replay.h"
#include "database/text_out.h"

namespace carc::database {
namespace {

using nlohmann::json;

std::string Games(const std::string& name) {
  return std::string(CARC_SOURCE_DIR) + "/fixtures/games/" + name;
}

class TwoGames : public ::testing::Test {
 protected:
  void SetUp() override {
    conn_ = std::move(*OpenDatabase(":memory:", {.mode = OpenMode::kCreate}));
    std::vector<ImportItem> items;
    for (const char* f : {"g01_city_then_road.game.json", "g02_road_tile_turned_wrong.game.json"}) {
      auto item = LoadGameFile(Games(f));
      ASSERT_TRUE(item.ok()) << item.status().message();
      items.push_back(std::move(*item));
    }
    auto res = ImportGames(conn_, items);
    ASSERT_TRUE(res.ok()) << res.status().message();
  }
  StoredGame Get(int64_t id) {
    auto g = GetGame(conn_, id);
    EXPECT_TRUE(g.ok() && *g);
    return std::move(**g);
  }
  Connection conn_;
};

TEST_F(TwoGames, ListGivesCitedAsAnArray) {
  auto list = ListGames(conn_, "", -1);
  ASSERT_TRUE(list.ok()) << list.status().message();
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0]["cited"], json::array());
  EXPECT_EQ((*list)[1]["cited"], json({"BASE-PLACE-EDGE"}));
  EXPECT_EQ((*list)[1]["players"], json({"Anna", "Ben"}));
  const std::string text = GamesListText(*list);
  EXPECT_NE(text.find("final Anna 4, Ben 2"), std::string::npos) << text;
  EXPECT_NE(text.find("[BASE-PLACE-EDGE]"), std::string::npos) << text;
}

TEST_F(TwoGames, ReplayAndShowNameThePlayers) {
  StoredGame g = Get(1);
  auto rr = Replay(g.record, "game 1", /*with_log=*/true);
  ASSERT_TRUE(rr.ok()) << rr.status().message();
  ASSERT_EQ(rr->log.size(), 2u);
  EXPECT_EQ(rr->log[0]["player"], "Anna");
  EXPECT_EQ(rr->log[0]["seat"], 0);
  EXPECT_EQ(rr->log[1]["player"], "Ben");
  const json replay = {{"players", g.record.players}, {"turns", rr->log},
                       {"verdict", "consistent"},     {"verdict_text", rr->text},
                       {"cited", rr->cited},          {"same_as_stored", true}};
  const std::string text = ReplayText(replay);
  EXPECT_NE(text.find("turn 1 Anna:"), std::string::npos) << text;
  EXPECT_NE(text.find("to Anna}"), std::string::npos) << text;  // the city's winner by name
  EXPECT_NE(text.find("-> Anna 4, Ben 0"), std::string::npos) << text;
  EXPECT_NE(text.find("turn 2 Ben:"), std::string::npos) << text;
  EXPECT_NE(text.find("-> Anna 4, Ben 2"), std::string::npos) << text;
  EXPECT_EQ(text.find(" P0"), std::string::npos) << text;

  const std::string show = GameShowText(StoredGameJson(g));
  EXPECT_NE(show.find("players: Anna, Ben"), std::string::npos) << show;
  EXPECT_NE(show.find("model Anna 4, Ben 2"), std::string::npos) << show;
  EXPECT_TRUE(StoredGameJson(Get(2))["cited"].is_array());
}

// g03 (Anna, Ben) claims 2 for Anna's two-tile city in turn 1; the rules give 4 (BASE-SCORE-CITY):
// the verdict names Anna as the city's winner, not seat 0.
TEST(GameNames, ScoreMismatchNamesTheWinner) {
  auto item = LoadGameFile(Games("g03_small_city_claimed_c1.game.json"));
  ASSERT_TRUE(item.ok()) << item.status().message();
  auto rr = Replay(item->record, "g03", /*with_log=*/false);
  ASSERT_TRUE(rr.ok()) << rr.status().message();
  EXPECT_NE(rr->text.find("= 4 to [\"Anna\"]"), std::string::npos) << rr->text;
}

}  // namespace
}  // namespace carc::database
