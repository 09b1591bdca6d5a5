// Schema and migrations, connection pragmas, SHA-256.
#include <gtest/gtest.h>

#include "database/migrate.h"
#include "database/sha256.h"
#include "database/test_util.h"

namespace carc::database {
namespace {

using testing::QueryInt;
using testing::QueryText;
using testing::TempDir;

TEST(Schema, FreshFileIsMigratedToTheLatestVersion) {
  TempDir dir;
  auto c = OpenDatabase(dir.File("a.db"), {.mode = OpenMode::kCreate});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(QueryInt(*c, "PRAGMA user_version"), LatestVersion());
  EXPECT_EQ(LatestVersion(), 3);  // schema/0001_init.sql, 0002_search.sql, 0003_game_turns...
  EXPECT_EQ(QueryInt(*c, "PRAGMA application_id"), kApplicationId);
  EXPECT_EQ(QueryInt(*c, "PRAGMA foreign_keys"), 1);
  EXPECT_EQ(QueryText(*c, "PRAGMA journal_mode"), "wal");
  // Every ordinary table of ours is STRICT (virtual FTS tables and their shadows aside).
  EXPECT_EQ(QueryInt(*c,
                     "SELECT count(*) FROM pragma_table_list WHERE schema = 'main' AND "
                     "type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE "
                     "'rulings_fts%' AND strict = 0"),
            0);
  EXPECT_EQ(QueryInt(*c,
                     "SELECT count(*) FROM pragma_table_list WHERE schema = 'main' AND "
                     "type = 'table' AND strict = 1"),
            13);  // rulings(6) + fixtures(2) + games(3) + adjudications(2)
}

// Schema 3 moves a game's turns from game_turns/game_actions rows into two JSON arrays of its
// row; a game imported under schema 2 keeps its actions (in seq order), claims and model scores.
TEST(Schema, Migration3KeepsTheTurnsOfStoredGames) {
  Connection c = std::move(*Connection::Open(":memory:", {.mode = OpenMode::kCreate}));
  ASSERT_TRUE(c.Exec("PRAGMA foreign_keys = ON").ok());
  const auto& all = Migrations();
  ASSERT_EQ(all.size(), 3u);
  ASSERT_TRUE(Migrate(c, {all[0], all[1]}).ok());
  ASSERT_TRUE(c.Exec(R"sql(
    INSERT INTO games (game_id, record_sha256, origin, edition, expansions, start, draw_order,
                       verdict, verdict_text, finished, model_version, imported_at)
    VALUES (1, 'h1', 'record', 'C3', '[]', '[]', '["A","B"]', 'consistent', 'ok', 0, 'm', 't'),
           (2, 'h2', 'record', 'C3', '[]', '[]', '[]', 'consistent', 'ok', 0, 'm', 't');
    INSERT INTO game_turns VALUES (1, 2, NULL, NULL), (1, 1, '[3,0]', '[3,0]');
    INSERT INTO game_actions VALUES
      (1, 1, 1, 'pass', '{"type":"pass"}'),
      (1, 2, 0, 'place_tile', '{"type":"place_tile","x":2}'),
      (1, 1, 0, 'place_tile', '{"type":"place_tile","x":1}');
  )sql")
                  .ok());
  ASSERT_TRUE(Migrate(c).ok());
  EXPECT_EQ(QueryInt(c, "PRAGMA user_version"), 3);
  EXPECT_EQ(QueryText(c, "SELECT turns FROM games WHERE game_id = 1"),
            R"([{"actions":[{"type":"place_tile","x":1},{"type":"pass"}],"scores":[3,0]},)"
            R"({"actions":[{"type":"place_tile","x":2}]}])");
  EXPECT_EQ(QueryText(c, "SELECT model_scores FROM games WHERE game_id = 1"), "[[3,0],null]");
  EXPECT_EQ(QueryText(c, "SELECT turns || model_scores FROM games WHERE game_id = 2"), "[][]");
  EXPECT_EQ(QueryInt(c,
                     "SELECT count(*) FROM sqlite_schema WHERE name IN "
                     "('game_turns', 'game_actions')"),
            0);
}

TEST(Schema, MigratingTwiceIsANoOp) {
  TempDir dir;
  {
    auto c = OpenDatabase(dir.File("a.db"), {.mode = OpenMode::kCreate});
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE(c->Exec("INSERT INTO adjudications (file, input_sha256, verdict, exit_code, "
                        "model_version, at, ruling) VALUES ('f', 'h', 'upheld', 0, 'm', 't', '{}')")
                    .ok());
  }
  auto c = OpenDatabase(dir.File("a.db"), {.mode = OpenMode::kCreate});
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(QueryInt(*c, "SELECT count(*) FROM adjudications"), 1);
}

TEST(Schema, AFailingMigrationLeavesTheFileAsItWas) {
  Connection c = std::move(*Connection::Open(":memory:", {.mode = OpenMode::kCreate}));
  const std::vector<Migration> good = {{1, "0001_a.sql", "CREATE TABLE a (x INTEGER) STRICT;"}};
  ASSERT_TRUE(Migrate(c, good).ok());
  const std::vector<Migration> bad = {
      good[0],
      {2, "0002_b.sql", "CREATE TABLE b (x INTEGER) STRICT;"},
      {3, "0003_c.sql", "CREATE TABLE c (x INTEGER) STRICT; INSERT INTO nowhere VALUES (1);"}};
  model::Status s = Migrate(c, bad);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), model::ErrorCode::kIo);
  EXPECT_NE(s.message().find("0003_c.sql"), std::string::npos) << s.message();
  EXPECT_EQ(QueryInt(c, "PRAGMA user_version"), 1);
  EXPECT_EQ(QueryInt(c, "SELECT count(*) FROM sqlite_schema WHERE name IN ('b', 'c')"), 0);
}

TEST(Schema, NewerFileIsRefused) {
  TempDir dir;
  {
    auto c = OpenDatabase(dir.File("a.db"), {.mode = OpenMode::kCreate});
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE(c->Exec("PRAGMA user_version = 99").ok());
  }
  auto c = OpenDatabase(dir.File("a.db"), {.mode = OpenMode::kReadOnly});
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), model::ErrorCode::kIo);
  EXPECT_NE(c.status().message().find("newer"), std::string::npos) << c.status().message();
}

TEST(Schema, ForeignKeysAreEnforced) {
  auto c = OpenDatabase(":memory:", {.mode = OpenMode::kCreate});
  ASSERT_TRUE(c.ok());
  model::Status s =
      c->Exec("INSERT INTO game_players (game_id, seat, name) VALUES (12345, 0, 'nobody')");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("FOREIGN KEY"), std::string::npos) << s.message();
}

TEST(Open, MissingFileForReadingNamesTheFile) {
  TempDir dir;
  auto c = OpenDatabase(dir.File("none.db"), {.mode = OpenMode::kReadOnly});
  ASSERT_FALSE(c.ok());
  EXPECT_EQ(c.status().code(), model::ErrorCode::kIo);
  EXPECT_NE(c.status().message().find(dir.File("none.db") + ": no such database file"),
            std::string::npos)
      << c.status().message();
  EXPECT_FALSE(std::filesystem::exists(dir.File("none.db")));  // not created by a reader
}

TEST(Open, ForeignSqliteFileIsNotACarcDatabase) {
  TempDir dir;
  {
    auto c = Connection::Open(dir.File("other.db"), {.mode = OpenMode::kCreate});
    ASSERT_TRUE(c.ok());
    ASSERT_TRUE(c->Exec("CREATE TABLE t (x)").ok());
  }
  auto c = OpenDatabase(dir.File("other.db"), {.mode = OpenMode::kCreate});
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.status().message().find("not a carc database"), std::string::npos)
      << c.status().message();
}

TEST(Sha256, KnownVectors) {
  // FIPS 180-2 appendix B examples.
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(Sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

}  // namespace
}  // namespace carc::database
