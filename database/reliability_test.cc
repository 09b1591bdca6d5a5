// Reliability: a bad record rolls back alone, readers during an import, corrupt, read-only and
// locked files, and an import killed with SIGKILL midway.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <random>
#include <thread>

#include "database/game_gen.h"
#include "database/games_store.h"
#include "database/migrate.h"
#include "database/rulings_store.h"
#include "database/test_util.h"

namespace carc::database {
namespace {

using testing::QueryInt;
using testing::QueryText;
using testing::TempDir;

std::vector<ImportItem> Batch(int n, uint32_t first_seed, int max_turns = 12) {
  std::vector<ImportItem> items;
  for (int i = 0; i < n; ++i)
    items.push_back({"gen" + std::to_string(i), "generated",
                     GenerateRecord(first_seed + i, 2 + i % 3, i % 2 == 0, max_turns)});
  return items;
}

Connection Create(const std::string& path, int timeout_ms = 5000) {
  auto c = OpenDatabase(path, {.mode = OpenMode::kCreate, .busy_timeout_ms = timeout_ms});
  EXPECT_TRUE(c.ok()) << c.status().message();
  return std::move(*c);
}

int64_t OrphanRows(Connection& c) {
  return QueryInt(
      c,
      "SELECT (SELECT count(*) FROM game_players WHERE game_id NOT IN (SELECT game_id FROM games)) "
      "+ (SELECT count(*) FROM game_citations WHERE game_id NOT IN (SELECT game_id FROM games))");
}

// Actions stored, over every game (schema 3: each game's turns are one JSON array).
int64_t StoredActions(Connection& c) {
  return QueryInt(c,
                  "SELECT coalesce(sum(json_array_length(t.value, '$.actions')), 0) "
                  "FROM games, json_each(games.turns) t");
}

TEST(Rollback, ARecordRefusedMidwayLeavesNothingOfItself) {
  TempDir dir;
  Connection c = Create(dir.File("g.db"));
  // The schema refuses the third player of the middle record, after its game row (turns
  // included) and first two players were written (a trigger stands in for any constraint a
  // record can break). Batch(3) has games of 2, 3 and 4 players; the middle one is gen1.
  ASSERT_TRUE(c.Exec("CREATE TEMP TRIGGER refuse BEFORE INSERT ON game_players WHEN new.seat = 2 "
                     "AND (SELECT source FROM games g WHERE g.game_id = new.game_id) = 'gen1' "
                     "BEGIN SELECT RAISE(ABORT, 'refused by test'); END")
                  .ok());
  std::vector<ImportItem> items = Batch(3, 7);
  ASSERT_EQ(items[1].record.players.size(), 3u);
  ASSERT_GT(items[1].record.turns.size(), 5u);
  auto res = ImportGames(c, items);
  ASSERT_TRUE(res.ok()) << res.status().message();
  EXPECT_TRUE((*res)[0].stored);
  EXPECT_FALSE((*res)[1].stored);
  EXPECT_NE((*res)[1].error.message().find("refused by test"), std::string::npos)
      << (*res)[1].error.message();
  EXPECT_TRUE((*res)[2].stored);
  EXPECT_EQ(QueryInt(c, "SELECT count(*) FROM games"), 2);
  EXPECT_EQ(OrphanRows(c), 0);
  int64_t want_actions = 0;
  for (int i : {0, 2})
    for (const auto& t : items[i].record.turns) want_actions += t.actions.size();
  EXPECT_EQ(StoredActions(c), want_actions);
  EXPECT_EQ(QueryInt(c, "SELECT count(*) FROM game_players"), 2 + 4);
}

TEST(Concurrency, ReadersKeepReadingTheLastCommitDuringAnImport) {
  TempDir dir;
  const std::string path = dir.File("g.db");
  Connection writer = Create(path);
  ASSERT_TRUE(BuildFromRepo(writer, CARC_SOURCE_DIR).ok());
  auto reader = OpenDatabase(path, {.mode = OpenMode::kReadOnly, .busy_timeout_ms = 100});
  ASSERT_TRUE(reader.ok()) << reader.status().message();
  int checks = 0;
  ImportOptions opts;
  opts.after_each = [&](size_t i) {
    if (i != 3) return;
    // Mid-transaction: the reader sees no game yet and searches the rulings without waiting.
    const auto start = std::chrono::steady_clock::now();
    EXPECT_EQ(QueryInt(*reader, "SELECT count(*) FROM games"), 0);
    auto hits = Search(*reader, "phantom", 3);
    ASSERT_TRUE(hits.ok()) << hits.status().message();
    EXPECT_EQ(hits->size(), 3u);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(100));
    ++checks;
  };
  auto res = ImportGames(writer, Batch(6, 1), opts);
  ASSERT_TRUE(res.ok());
  EXPECT_EQ(checks, 1);
  EXPECT_EQ(QueryInt(*reader, "SELECT count(*) FROM games"), 6);
}

TEST(Concurrency, ALongLockFailsWithAMessageAShortOneWaits) {
  TempDir dir;
  const std::string path = dir.File("g.db");
  Connection holder = Create(path);
  // Opened before the lock is taken: opening for writing checks the search index, a statement
  // that takes the write lock itself (below).
  Connection blocked = Create(path, /*timeout_ms=*/200);
  Connection patient = Create(path, /*timeout_ms=*/5000);
  ASSERT_TRUE(holder.Exec("BEGIN IMMEDIATE").ok());  // another process's write transaction
  // Opening for writing now waits for the lock as a write would, and fails the same way.
  auto late = OpenDatabase(path, {.mode = OpenMode::kCreate, .busy_timeout_ms = 200});
  ASSERT_FALSE(late.ok());
  EXPECT_EQ(late.status().message().rfind(
                path + ": database is locked by another connection (waited 200 ms)", 0),
            0u)
      << late.status().message();
  const auto start = std::chrono::steady_clock::now();
  auto res = ImportGames(blocked, Batch(1, 3));
  const auto waited = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.status().code(), model::ErrorCode::kIo);
  EXPECT_EQ(res.status().message(),
            path +
                ": database is locked by another connection (waited 200 ms); try again when "
                "its write has finished");
  EXPECT_GE(waited, std::chrono::milliseconds(190));
  EXPECT_LT(waited, std::chrono::seconds(3));
  // Released after 100 ms: a 5 s timeout waits and succeeds.
  std::thread release([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    ASSERT_TRUE(holder.Exec("ROLLBACK").ok());
  });
  auto ok = ImportGames(patient, Batch(1, 3));
  release.join();
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_TRUE((*ok)[0].stored);
}

TEST(BadFiles, GarbageBytesAreNotADatabase) {
  TempDir dir;
  const std::string path = dir.File("garbage.db");
  std::string bytes(8192, '\0');
  std::mt19937 rng(1);
  for (char& b : bytes) b = static_cast<char>(rng());
  testing::WriteFile(path, bytes);
  for (OpenMode mode : {OpenMode::kReadOnly, OpenMode::kCreate}) {
    auto c = OpenDatabase(path, {.mode = mode});
    ASSERT_FALSE(c.ok());
    EXPECT_EQ(c.status().code(), model::ErrorCode::kIo);
    EXPECT_EQ(c.status().message().rfind(path + ": not a database file", 0), 0u)
        << c.status().message();
  }
}

TEST(BadFiles, GarbageOverTheTablesIsCorrupt) {
  TempDir dir;
  const std::string path = dir.File("c.db");
  {
    Connection c = Create(path);
    ASSERT_TRUE(BuildFromRepo(c, CARC_SOURCE_DIR).ok());
    ASSERT_TRUE(c.Exec("PRAGMA wal_checkpoint(TRUNCATE)").ok());
  }
  // Keep the 100-byte header and page 1 (the schema); overwrite every later page.
  const auto size = std::filesystem::file_size(path);
  ASSERT_GT(size, 8192u);
  {
    FILE* f = fopen(path.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    fseek(f, 4096, SEEK_SET);
    std::mt19937 rng(2);
    for (uintmax_t i = 4096; i < size; ++i) fputc(static_cast<int>(rng() & 0xff), f);
    fclose(f);
  }
  auto c = OpenDatabase(path, {.mode = OpenMode::kReadOnly});
  ASSERT_TRUE(c.ok()) << c.status().message();  // header and schema are intact
  auto hits = Search(*c, "phantom", 5);
  ASSERT_FALSE(hits.ok());
  EXPECT_EQ(hits.status().code(), model::ErrorCode::kIo);
  EXPECT_EQ(hits.status().message().rfind(path + ": ", 0), 0u);
  EXPECT_NE(hits.status().message().find("corrupt"), std::string::npos) << hits.status().message();
}

// As root, permissions do not stop writes: the check then runs in a child as user nobody.
template <typename F>
void AsUnprivileged(F body) {
  if (geteuid() != 0) return body();
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (setgid(65534) != 0 || setuid(65534) != 0) _exit(99);
    body();
    _exit(::testing::Test::HasFailure() ? 1 : 0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "see the child's failures above";
}

TEST(BadFiles, ReadOnlyFileRefusesWritesWithAMessageAndStillReads) {
  TempDir dir;
  const std::string path = dir.File("ro.db");
  {
    Connection c = Create(path);
    ASSERT_TRUE(BuildFromRepo(c, CARC_SOURCE_DIR).ok());
  }
  chmod(path.c_str(), 0444);
  chmod(dir.path().c_str(), 0755);  // the folder is not writable for the child either
  AsUnprivileged([&] {
    auto w = OpenDatabase(path, {.mode = OpenMode::kCreate});
    ASSERT_FALSE(w.ok());
    EXPECT_EQ(w.status().code(), model::ErrorCode::kIo);
    EXPECT_EQ(w.status().message(),
              path +
                  ": database is read-only (no write permission on the file or its folder) "
                  "(while opening for writing)");
    auto r = OpenDatabase(path, {.mode = OpenMode::kReadOnly});
    ASSERT_TRUE(r.ok()) << r.status().message();
    auto hits = Search(*r, "phantom builder", 3);
    ASSERT_TRUE(hits.ok()) << hits.status().message();
    EXPECT_EQ(hits->size(), 3u);
  });
}

// A child imports a batch in one transaction and is killed with SIGKILL in the middle of it.
TEST(Kill, ImportKilledMidwayLeavesAllOrNothing) {
  TempDir dir;
  const std::string path = dir.File("k.db");
  { Connection c = Create(path); }
  const std::vector<ImportItem> batch = Batch(60, 500);
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    close(fds[0]);
    auto c = OpenDatabase(path, {.mode = OpenMode::kCreate});
    ImportOptions opts;
    opts.after_each = [&](size_t i) {
      if (i == 30) {  // half the batch written, not committed
        char b = 'x';
        if (write(fds[1], &b, 1) != 1) _exit(3);
        sleep(30);
      }
    };
    if (c.ok()) (void)ImportGames(*c, batch, opts);
    _exit(0);
  }
  close(fds[1]);
  char b;
  ASSERT_EQ(read(fds[0], &b, 1), 1);
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  close(fds[0]);
  ASSERT_TRUE(WIFSIGNALED(status));
  Connection c = Create(path);
  EXPECT_EQ(QueryText(c, "PRAGMA integrity_check"), "ok");
  EXPECT_EQ(QueryInt(c, "SELECT count(*) FROM games"), 0);
  EXPECT_EQ(StoredActions(c), 0);
  // The same batch then imports whole.
  auto res = ImportGames(c, batch);
  ASSERT_TRUE(res.ok()) << res.status().message();
  EXPECT_EQ(QueryInt(c, "SELECT count(*) FROM games"), 60);
}

// Killed at arbitrary moments (before, during or after the commit): never part of a batch.
TEST(Kill, KilledAtRandomMomentsNeverLeavesPartOfABatch) {
  TempDir dir;
  const std::string path = dir.File("k.db");
  { Connection c = Create(path); }
  std::mt19937 rng(42);
  int64_t expected_lo = 0;
  for (int round = 0; round < 6; ++round) {
    const std::vector<ImportItem> batch = Batch(40, 1000 + 40 * round, 20);
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      auto c = OpenDatabase(path, {.mode = OpenMode::kCreate});
      if (c.ok()) (void)ImportGames(*c, batch);
      _exit(0);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 150));
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    Connection c = Create(path);
    ASSERT_EQ(QueryText(c, "PRAGMA integrity_check"), "ok");
    const int64_t n = QueryInt(c, "SELECT count(*) FROM games");
    EXPECT_TRUE(n == expected_lo || n == expected_lo + 40) << "round " << round << ": " << n;
    EXPECT_EQ(OrphanRows(c), 0);
    expected_lo = n;
  }
}

}  // namespace
}  // namespace carc::database
