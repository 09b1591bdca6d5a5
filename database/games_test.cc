// Game records: verdicts worked out by hand (fixtures/games/*.game.json, each with its "why"),
// the 40 JCloisterZone games, export round trips, adjudication log.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "database/adjudication_log.h"
#include "database/game_gen.h"
#include "database/games_store.h"
#include "database/jcz_record.h"
#include "database/migrate.h"
#include "database/test_util.h"
#include "model/core/position_io.h"

namespace carc::database {
namespace {

using nlohmann::json;
using testing::QueryInt;

std::string Games(const std::string& name) {
  return std::string(CARC_SOURCE_DIR) + "/fixtures/games/" + name;
}

Connection Memory() { return std::move(*OpenDatabase(":memory:", {.mode = OpenMode::kCreate})); }

ImportResult ImportOne(Connection& c, const std::string& path) {
  auto item = LoadGameFile(path);
  EXPECT_TRUE(item.ok()) << item.status().message();
  auto res = ImportGames(c, {*item});
  EXPECT_TRUE(res.ok()) << res.status().message();
  return res.ok() ? (*res)[0] : ImportResult();
}

TEST(GameVerdicts, CityThenRoadIsConsistent) {
  Connection c = Memory();
  ImportResult r = ImportOne(c, Games("g01_city_then_road.game.json"));
  ASSERT_TRUE(r.stored) << r.error.message();
  EXPECT_EQ(r.replay->verdict, GameVerdict::kConsistent);
  EXPECT_EQ(r.replay->model_scores, (std::vector<std::vector<int>>{{4, 0}, {4, 2}}));
  EXPECT_TRUE(r.replay->finished);
  EXPECT_EQ(r.replay->final_model, (std::vector<int>{4, 2}));
}

// `games position ID --turn N`. By hand from g01's "why": before turn 2 the board is D and E
// (Anna's city scored 4 and her knight returned), Ben holds U; before turn 1 only D, Anna holds E.
TEST(GamePosition, BeforeATurnIsTheReplayedBoardAndScores) {
  auto item = LoadGameFile(Games("g01_city_then_road.game.json"));
  ASSERT_TRUE(item.ok());
  auto before2 = ReplayToTurn(item->record, "g01", 2);
  ASSERT_TRUE(before2.ok()) << before2.status().message();
  const json& p = before2->position;
  ASSERT_EQ(p["board"].size(), 2u);
  EXPECT_EQ(p["board"][1], (json{{"tile", "E"}, {"x", 0}, {"y", -1}, {"rotation", 180}}));
  EXPECT_EQ(p["players"][0]["score"], 4);
  EXPECT_EQ(p["players"][0]["supply"]["meeple"], 7);
  EXPECT_EQ(p["players"][1]["score"], 0);
  EXPECT_EQ(p["turn"]["player"], 1);
  EXPECT_EQ(p["turn"]["tile"], "U");
  auto before1 = ReplayToTurn(item->record, "g01", 1);
  ASSERT_TRUE(before1.ok());
  EXPECT_EQ(before1->position["board"].size(), 1u);
  EXPECT_EQ(before1->position["turn"]["tile"], "E");
  auto outside = ReplayToTurn(item->record, "g01", 4);
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.status().code(), model::ErrorCode::kUsage);
  // g02's turn 2 is illegal: there is no position before its turn 3, and the verdict says why.
  auto bad = LoadGameFile(Games("g02_road_tile_turned_wrong.game.json"));
  ASSERT_TRUE(bad.ok());
  auto after_illegal = ReplayToTurn(bad->record, "g02", 3);
  ASSERT_TRUE(after_illegal.ok());
  EXPECT_TRUE(after_illegal->position.is_null());
  EXPECT_EQ(after_illegal->cited, std::vector<std::string>{"BASE-PLACE-EDGE"});
}

TEST(GameVerdicts, WrongEdgeIsTheFirstIllegalAction) {
  Connection c = Memory();
  ImportResult r = ImportOne(c, Games("g02_road_tile_turned_wrong.game.json"));
  ASSERT_TRUE(r.stored);
  EXPECT_EQ(r.replay->verdict, GameVerdict::kIllegal);
  EXPECT_EQ(r.replay->turn, 2);
  EXPECT_EQ(r.replay->action, 0);
  EXPECT_EQ(r.replay->cited, std::vector<std::string>{"BASE-PLACE-EDGE"});
  EXPECT_EQ(QueryInt(c, "SELECT verdict_turn FROM games"), 2);
  EXPECT_EQ(QueryInt(c, "SELECT count(*) FROM game_citations WHERE ruling_id = 'BASE-PLACE-EDGE'"),
            1);
}

TEST(GameVerdicts, C1ClaimUnderC3IsAScoreMismatchCitingCityScoring) {
  Connection c = Memory();
  ImportResult r = ImportOne(c, Games("g03_small_city_claimed_c1.game.json"));
  ASSERT_TRUE(r.stored);
  EXPECT_EQ(r.replay->verdict, GameVerdict::kScoreMismatch);
  EXPECT_EQ(r.replay->turn, 1);
  EXPECT_NE(std::find(r.replay->cited.begin(), r.replay->cited.end(), "BASE-SCORE-CITY"),
            r.replay->cited.end());
  EXPECT_NE(r.replay->text.find("claimed scores [2,0], the rules give [4,0]"), std::string::npos)
      << r.replay->text;
}

TEST(GameVerdicts, MeepleAndPhantomThenFinalScoring) {
  Connection c = Memory();
  ImportResult r = ImportOne(c, Games("g04_phantom_road.game.json"));
  ASSERT_TRUE(r.stored) << r.error.message();
  EXPECT_EQ(r.replay->verdict, GameVerdict::kConsistent) << r.replay->text;
  EXPECT_EQ(r.replay->final_model, (std::vector<int>{3, 0}));
}

TEST(GameVerdicts, TwoTurnsRunTogetherIsABadRecord) {
  auto item = LoadGameFile(Games("g01_city_then_road.game.json"));
  ASSERT_TRUE(item.ok());
  TurnRecord& t1 = item->record.turns[0];
  for (const json& a : item->record.turns[1].actions) t1.actions.push_back(a);
  t1.scores.reset();
  item->record.turns.pop_back();
  Connection c = Memory();
  auto res = ImportGames(c, {*item});
  ASSERT_TRUE(res.ok());
  EXPECT_FALSE((*res)[0].stored);
  EXPECT_EQ((*res)[0].error.code(), model::ErrorCode::kMalformed);
  EXPECT_NE((*res)[0].error.message().find("/turns/0/actions/2: the turn already ended"),
            std::string::npos)
      << (*res)[0].error.message();
  EXPECT_EQ(QueryInt(c, "SELECT count(*) FROM games"), 0);
}

TEST(GameVerdicts, UnknownTileIsReportedWithItsRecordPointer) {
  auto item = LoadGameFile(Games("x01_unknown_tile.game.json"));
  ASSERT_TRUE(item.ok());
  auto rr = Replay(item->record, "x01");
  ASSERT_FALSE(rr.ok());
  EXPECT_EQ(rr.status().code(), model::ErrorCode::kMalformed);
  EXPECT_NE(rr.status().message().find("x01:/draw_order/0: unknown tile"), std::string::npos)
      << rr.status().message();
}

// Records no game can produce (GAME_RECORD_FORMAT.md "Verdicts"), each worked out in its
// meta.why: refused where they first become impossible, citing the ruling; nothing stored.
TEST(ImpossibleRecords, AreBadInputNamingWhereTheyFirstBecomeImpossible) {
  const std::pair<const char*, const char*> cases[] = {
      {"x02_draw_six_X.game.json",
       ":/draw_order/1: tile X drawn, its 2nd in the game (start tiles and draws), but the set "
       "has 1 (BASE-SETUP)"},
      {"x03_start_six_D.game.json",
       ":/start/4: tile D on the table, its 5th in the game (start tiles and draws), but the set "
       "has 4 (BASE-SETUP)"},
      {"x04_start_disconnected.game.json",
       ":/start/1: the tile at (50, 50) is not connected to the start tile (BASE-PLACE-ADJ)"}};
  for (const auto& [file, says] : cases) {
    auto item = LoadGameFile(Games(file));
    ASSERT_TRUE(item.ok()) << file << ": " << item.status().message();
    Connection c = Memory();
    auto res = ImportGames(c, {*item});
    ASSERT_TRUE(res.ok());
    EXPECT_FALSE((*res)[0].stored) << file;
    EXPECT_EQ((*res)[0].error.code(), model::ErrorCode::kMalformed) << file;
    EXPECT_NE((*res)[0].error.message().find(says), std::string::npos)
        << file << ": " << (*res)[0].error.message();
    EXPECT_EQ(QueryInt(c, "SELECT count(*) FROM games"), 0);
    // `games position` replays the same way: no position of such a record is given.
    auto before1 = ReplayToTurn(item->record, file, 1);
    ASSERT_FALSE(before1.ok()) << file;
    EXPECT_EQ(before1.status().code(), model::ErrorCode::kMalformed);
  }
}

// A .jcz meeple id names one figure (JCloisterZone numbers each player's meeples 1 to 7): it
// may be deployed again once scoring has returned it (as in the peer games: 0.small.3 of
// base-2p-001 at /replay/55 and /replay/61), never while it stands. replay/7 deploys player 0's
// second meeple on W at (-1, 1) while 0.small.1 stands on U's road at (0, 1), which runs from
// the junction W at (-1, 1) to the open square (1, 1): not complete, so not scored.
TEST(PeerGames, AMeepleIdIsNotDeployedWhileItStands) {
  auto doc = json::parse(
      std::ifstream(std::string(CARC_SOURCE_DIR) + "/fixtures/peer-games/base-2p-000.jcz"));
  doc["replay"][7]["payload"]["meepleId"] = "0.small.1";
  auto game = ReadJcz(doc, "g.jcz");
  ASSERT_TRUE(game.ok()) << game.status().message();
  auto rr = Replay(game->record, "g.jcz", /*with_log=*/false, &game->from);
  ASSERT_FALSE(rr.ok());
  EXPECT_EQ(rr.status().code(), model::ErrorCode::kMalformed);
  EXPECT_NE(rr.status().message().find(
                "g.jcz:/replay/7/payload/meepleId: figure 0.small.1 is on the board: deployed at "
                "/replay/1/payload/meepleId, it still stands on the tile at (0, 1)"),
            std::string::npos)
      << rr.status().message();
  // The record alone (no ids) is a game the rules allow: player 0's second meeple.
  auto plain = Replay(game->record, "g.jcz");
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_EQ(plain->verdict, GameVerdict::kConsistent) << plain->text;
}

TEST(PeerGames, AllFortyImportConsistent) {
  Connection c = Memory();
  std::vector<ImportItem> items;
  for (const auto& e :
       std::filesystem::directory_iterator(std::string(CARC_SOURCE_DIR) + "/fixtures/peer-games"))
    if (e.path().extension() == ".jcz") {
      auto item = LoadGameFile(e.path().string());
      ASSERT_TRUE(item.ok()) << item.status().message();
      items.push_back(std::move(*item));
    }
  ASSERT_EQ(items.size(), 40u);
  auto res = ImportGames(c, items);
  ASSERT_TRUE(res.ok()) << res.status().message();
  for (const ImportResult& r : *res) {
    ASSERT_TRUE(r.stored) << r.source << ": " << r.error.message();
    EXPECT_EQ(r.replay->verdict, GameVerdict::kConsistent) << r.source << ": " << r.replay->text;
  }
  EXPECT_EQ(QueryInt(c, "SELECT count(*) FROM games WHERE origin = 'jcz'"), 40);
  // Importing them again stores nothing new.
  auto again = ImportGames(c, items);
  ASSERT_TRUE(again.ok());
  for (const ImportResult& r : *again) EXPECT_TRUE(r.duplicate);
  EXPECT_EQ(QueryInt(c, "SELECT count(*) FROM games"), 40);
}

// export(import(x)) is x in canonical form, and importing the export is the same game.
void ExpectRoundTrip(Connection& c, const ImportItem& item) {
  auto res = ImportGames(c, {item});
  ASSERT_TRUE(res.ok() && (*res)[0].error.ok()) << item.source;
  const int64_t id = (*res)[0].game_id;
  auto g = GetGame(c, id);
  ASSERT_TRUE(g.ok() && *g);
  const json exported = DumpGameRecord((*g)->record);
  EXPECT_EQ(exported, DumpGameRecord(item.record)) << item.source;
  auto reparsed = ParseGameRecord(json::parse(exported.dump()), "export");
  ASSERT_TRUE(reparsed.ok()) << reparsed.status().message();
  EXPECT_EQ(*reparsed, item.record);
  auto again = ImportGames(c, {{"export", item.origin, *reparsed}});
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE((*again)[0].duplicate);
  EXPECT_EQ((*again)[0].game_id, id);
  EXPECT_EQ((*g)->record_sha256, RecordHash(*reparsed));
}

TEST(RoundTrip, ExamplesJczAndGeneratedGames) {
  Connection c = Memory();
  for (const char* f : {"g01_city_then_road.game.json", "g02_road_tile_turned_wrong.game.json",
                        "g03_small_city_claimed_c1.game.json", "g04_phantom_road.game.json"}) {
    auto item = LoadGameFile(Games(f));
    ASSERT_TRUE(item.ok());
    ExpectRoundTrip(c, *item);
  }
  auto jcz = LoadGameFile(std::string(CARC_SOURCE_DIR) + "/fixtures/peer-games/ph-3p-002.jcz");
  ASSERT_TRUE(jcz.ok());
  ExpectRoundTrip(c, *jcz);
  for (uint32_t seed = 1; seed <= 5; ++seed)
    ExpectRoundTrip(c,
                    {"generated", "generated", GenerateRecord(seed, 2 + seed % 4, seed % 2 == 1)});
}

TEST(Generated, RandomPlayRecordsReplayConsistent) {
  for (uint32_t seed = 100; seed < 110; ++seed) {
    GameRecord r = GenerateRecord(seed, 2 + seed % 4, seed % 2 == 0);
    auto rr = Replay(r, "seed " + std::to_string(seed));
    ASSERT_TRUE(rr.ok()) << rr.status().message();
    EXPECT_EQ(rr->verdict, GameVerdict::kConsistent) << rr->text;
    EXPECT_TRUE(rr->finished);
  }
}

TEST(AdjudicationLog, RecordsAndFiltersByInputHash) {
  Connection c = Memory();
  json ruling = {{"verdict", "rejected"},
                 {"question", "apply"},
                 {"model", "m 1"},
                 {"cited", {"BASE-SCORE-CITY", "BASE-MAJORITY"}}};
  auto a = RecordAdjudication(c, {"a.json", "aaa", 1, ruling});
  auto b = RecordAdjudication(
      c, {"b.json", "bbb", 0, {{"verdict", "upheld"}, {"cited", json::array()}}});
  ASSERT_TRUE(a.ok() && b.ok());
  auto all = ListAdjudications(c, "", 10);
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0]["file"], "b.json");  // newest first
  auto only = ListAdjudications(c, "aaa", 10);
  ASSERT_EQ(only->size(), 1u);
  EXPECT_EQ((*only)[0]["cited"], json({"BASE-SCORE-CITY", "BASE-MAJORITY"}));
  EXPECT_EQ((*only)[0]["model_version"], "m 1");
  EXPECT_EQ((*only)[0]["exit_code"], 1);
}

}  // namespace
}  // namespace carc::database
