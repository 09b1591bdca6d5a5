// Database edges of driven through the carc binary as a user would: an empty --db is
// refused, a first build lands complete or not at all, a path starting with "//" works, a
// read-only folder holding a -wal without its -shm is refused, and a damaged file (its pages,
// a record, the search index) is refused before any write and reported by `db check`.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "adjudicator/run_carc.h"
#include "database/games_store.h"
#include "database/migrate.h"
#include "database/test_util.h"

namespace carc::database {
namespace {

using carc::testing::Carc;
using testing::QueryInt;
using testing::TempDir;
using testing::WriteFile;

const std::string kRoot = CARC_SOURCE_DIR;
const std::string kGame = kRoot + "/fixtures/games/g01_city_then_road.game.json";

std::string Q(const std::string& s) { return "'" + s + "'"; }  // test paths hold no quote

std::set<std::string> Entries(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.insert(e.path().filename().string());
  return names;
}

std::string Bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

int64_t Rulings(const std::string& path) {
  auto c = OpenDatabase(path, {.mode = OpenMode::kReadOnly});
  EXPECT_TRUE(c.ok()) << c.status().message();
  return c.ok() ? QueryInt(*c, "SELECT count(*) FROM rulings") : -1;
}

// Builds a database at `path` from this checkout; fails the test unless it exits 0.
void Build(const std::string& path) {
  auto r = Carc("db build --format json --root " + Q(kRoot) + " --db " + Q(path), true);
  ASSERT_EQ(r.code, 0) << r.out;
}

// "--db ''" would have opened a private in-memory database (builds and imports lost, searches
// empty): it is a usage error, 64, for readers and writers alike, and creates no file.
TEST(DbEdges, EmptyDbPathIsAUsageError) {
  TempDir dir;
  const std::string cd = "cd " + Q(dir.path()) + " && env CARC_DB=" + Q(dir.File("env.db")) + " ";
  for (const std::string& args :
       {"db build --root " + Q(kRoot), std::string("db check"), std::string("rulings search city"),
        "games import " + Q(kGame), std::string("games export 1"),
        std::string("games position 1 --turn 1"), "adjudicate " + Q(kGame)}) {
    auto r = carc::testing::Shell(cd + CARC_BINARY + " " + args + " --db ''", true);
    EXPECT_EQ(r.code, 64) << args << "\n" << r.out;
    EXPECT_NE(r.out.find("empty database path"), std::string::npos) << args << "\n" << r.out;
  }
  EXPECT_TRUE(Entries(dir.path()).empty());  // neither the CARC_DB fallback nor any other file
}

// A first build goes to a temporary file renamed into place: after success only the target is
// there, complete (integrity ok, every ruling the report counted); after a failure nothing is.
TEST(DbEdges, FirstBuildLeavesTheCompleteFileAndNoTemporary) {
  TempDir dir;
  const std::string db = dir.File("carc.db");
  auto r = Carc("db build --format json --root " + Q(kRoot) + " --db " + Q(db), true);
  ASSERT_EQ(r.code, 0) << r.out;
  const auto report = nlohmann::json::parse(r.out);
  EXPECT_EQ(Entries(dir.path()), std::set<std::string>{"carc.db"});
  auto check = Carc("db check --format json --db " + Q(db), true);
  ASSERT_EQ(check.code, 0) << check.out;
  EXPECT_EQ(nlohmann::json::parse(check.out).at("integrity"), "ok");
  const int64_t n = Rulings(db);
  EXPECT_GT(n, 0);
  EXPECT_EQ(n, report.at("rulings").get<int64_t>());
}

TEST(DbEdges, FailedFirstBuildLeavesNoFileAtAll) {
  TempDir dir;
  TempDir root;  // a checkout whose only rulings file is malformed JSON: the build fails, 65
  WriteFile(root.File("database/rulings/base.json"), "{bad");
  const std::string db = dir.File("carc.db");
  auto r = Carc("db build --root " + Q(root.path()) + " --db " + Q(db), true);
  EXPECT_EQ(r.code, 65) << r.out;
  EXPECT_TRUE(Entries(dir.path()).empty());  // no empty carc.db, no .building-* left
  // So a search then says there is no database (74) instead of answering from an empty one.
  auto s = Carc("rulings search city --db " + Q(db), true);
  EXPECT_EQ(s.code, 74) << s.out;
  EXPECT_NE(s.out.find("no such database file"), std::string::npos) << s.out;
}

// A misspelt key of a ruling file (a link kind) or of a fixture's ruling file (covers) was
// dropped and the build exited 0; it is 65 naming the file and the JSON pointer, and the
// database keeps what it held.
TEST(DbEdges, MisspeltKeyOfARulingOrFixtureFileFailsTheBuild) {
  namespace fs = std::filesystem;
  TempDir dir;
  const std::string db = dir.File("carc.db");
  Build(db);
  const int64_t before = Rulings(db);
  struct Case {
    std::string file, from, to, pointer;
  };
  for (const Case& c : {Case{"database/rulings/phantom.json", "\"see_also\"", "\"sea_also\"",
                             "/rulings/0/links/sea_also"},
                        Case{"fixtures/base/cities/c01_city_with_arms.ruling.json", "\"covers\"",
                             "\"cover\"", "/cover"}}) {
    TempDir root;
    fs::create_directories(root.File("database"));
    fs::copy(kRoot + "/database/rulings", root.File("database/rulings"),
             fs::copy_options::recursive);
    std::string text = Bytes(kRoot + "/" + c.file);
    const size_t at = text.find(c.from);
    ASSERT_NE(at, std::string::npos) << c.file;
    WriteFile(root.File(c.file), text.replace(at, c.from.size(), c.to));
    auto r = Carc("db build --root " + Q(root.path()) + " --db " + Q(db), true);
    EXPECT_EQ(r.code, 65) << r.out;
    EXPECT_NE(r.out.find(root.File(c.file) + ":" + c.pointer + ": unknown field"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(Rulings(db), before);
  }
}

// "file://tmp/x.db" names the host "tmp": leading slashes are folded, "//abs" is "/abs".
TEST(DbEdges, PathStartingWithTwoSlashesBuildsChecksAndSearches) {
  TempDir dir;
  ASSERT_EQ(dir.path().front(), '/');
  const std::string db = "/" + dir.File("x.db");  // "//tmp/carcdb-…/x.db"
  Build(db);
  EXPECT_EQ(Entries(dir.path()), std::set<std::string>{"x.db"});
  EXPECT_EQ(Carc("db check --db " + Q(db)).code, 0);
  auto s = Carc("rulings search city --format json --db " + Q(db), true);
  ASSERT_EQ(s.code, 0) << s.out;
  const auto hits = nlohmann::json::parse(s.out).at("hits");
  ASSERT_FALSE(hits.empty());
  EXPECT_GT(Rulings(dir.File("x.db")), 0);
}

// Read-only folder (an installed copy): without a -shm file SQLite opens the file only through
// a "file:" URI with immutable=1, the one place where "//" matters. As root permissions stop
// nothing, so the reads run in a child as user nobody.
TEST(DbEdges, TwoSlashPathInAReadOnlyFolderStillSearches) {
  TempDir dir;
  const std::string db = "/" + dir.File("ro.db");
  Build(db);
  ASSERT_EQ(Entries(dir.path()), std::set<std::string>{"ro.db"});  // no -wal, no -shm
  chmod(dir.File("ro.db").c_str(), 0444);
  chmod(dir.path().c_str(), 0555);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(99);
    if (access(dir.path().c_str(), W_OK) == 0) _exit(98);  // the folder must be unwritable
    auto s = Carc("rulings search city --format json --db " + Q(db), true);
    if (s.code != 0) {
      std::fprintf(stderr, "exit %d: %s\n", s.code, s.out.c_str());
      _exit(1);
    }
    _exit(nlohmann::json::parse(s.out).at("hits").empty() ? 2 : 0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "99/98: could not drop to an unprivileged user";
  chmod(dir.path().c_str(), 0755);
  EXPECT_EQ(Entries(dir.path()), std::set<std::string>{"ro.db"});
}

// Garbage over the cells of the rulings table's root page: `games import` must refuse the file
// (74, naming the damage) before writing anything, so its bytes are unchanged and no -wal appears.
TEST(DbEdges, PageCorruptedFileIsRefusedBeforeAnyWrite) {
  TempDir dir;
  const std::string db = dir.File("c.db");
  Build(db);
  int64_t page_size = 0, root_page = 0;
  {
    auto c = OpenDatabase(db, {.mode = OpenMode::kReadOnly});
    ASSERT_TRUE(c.ok()) << c.status().message();
    page_size = QueryInt(*c, "PRAGMA page_size");
    root_page = QueryInt(*c, "SELECT rootpage FROM sqlite_schema WHERE name = 'rulings'");
  }
  ASSERT_GT(root_page, 1);
  {
    std::fstream f(db, std::ios::in | std::ios::out | std::ios::binary);
    // From just past the page header (8 or 12 bytes) to beyond the middle of the page.
    f.seekp((root_page - 1) * page_size + 12);
    const std::string garbage(page_size / 2 + 256, static_cast<char>(0xA5));
    f.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
    ASSERT_TRUE(f.good());
  }
  const std::string before = Bytes(db);
  auto r = Carc("games import --format json --db " + Q(db) + " " + Q(kGame), true);
  EXPECT_EQ(r.code, 74) << r.out;
  EXPECT_NE(r.out.find("damaged"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"stored\""), std::string::npos) << r.out;
  EXPECT_TRUE(Bytes(db) == before) << "the damaged file was written to";
  EXPECT_EQ(Entries(dir.path()), std::set<std::string>{"c.db"});
}

// Read-only folder (an installed copy) holding a -wal with commits in it but no -shm: SQLite
// could open the file only as immutable, which ignores the -wal, so readers would see the file
// without the last import. Refused (74) naming the -wal; with write access the game is there.
TEST(DbEdges, ReadOnlyFolderWithWalButNoShmIsRefused) {
  TempDir src, dir;
  const std::string built = src.File("w.db");
  Build(built);
  {
    auto c = OpenDatabase(built, {.mode = OpenMode::kCreate});
    ASSERT_TRUE(c.ok()) << c.status().message();
    auto item = LoadGameFile(kGame);
    ASSERT_TRUE(item.ok()) << item.status().message();
    auto res = ImportGames(*c, {*item});
    ASSERT_TRUE(res.ok() && (*res)[0].stored) << (res.ok() ? "" : res.status().message());
    // The commit is in the -wal (far below the autocheckpoint): copy both files, not the -shm.
    ASSERT_GT(std::filesystem::file_size(built + "-wal"), 0u);
    std::filesystem::copy_file(built, dir.File("w.db"));
    std::filesystem::copy_file(built + "-wal", dir.File("w.db-wal"));
  }
  const std::string db = dir.File("w.db");
  ASSERT_EQ(Entries(dir.path()), (std::set<std::string>{"w.db", "w.db-wal"}));
  chmod(db.c_str(), 0444);
  chmod((db + "-wal").c_str(), 0444);
  chmod(dir.path().c_str(), 0555);
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(99);
    if (access(dir.path().c_str(), W_OK) == 0) _exit(98);  // the folder must be unwritable
    for (const std::string& args :
         {std::string("games list"), std::string("rulings search city")}) {
      auto r = Carc(args + " --format json --db " + Q(db), true);
      if (r.code != 74 || r.out.find(db + "-wal holds changes") == std::string::npos ||
          r.out.find("-shm is missing") == std::string::npos) {
        std::fprintf(stderr, "%s: exit %d: %s\n", args.c_str(), r.code, r.out.c_str());
        _exit(1);
      }
    }
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "99/98: could not drop to an unprivileged user";
  // Nothing was created beside it, and the -wal really held the import: with the folder
  // writable again the game is listed.
  EXPECT_EQ(Entries(dir.path()), (std::set<std::string>{"w.db", "w.db-wal"}));
  chmod(dir.path().c_str(), 0755);
  chmod(db.c_str(), 0644);
  chmod((db + "-wal").c_str(), 0644);
  auto list = Carc("games list --format json --db " + Q(db), true);
  ASSERT_EQ(list.code, 0) << list.out;
  EXPECT_EQ(nlohmann::json::parse(list.out).size(), 1u) << list.out;
}

// The page (1-based) of the first occurrence of `needle` in the file that belongs to `table`
// (the dbstat virtual table names each page's owner), and the byte offset of that occurrence.
std::pair<int64_t, size_t> FindInTable(const std::string& db, const std::string& table,
                                       const std::string& needle) {
  auto c = OpenDatabase(db, {.mode = OpenMode::kReadOnly});
  EXPECT_TRUE(c.ok()) << c.status().message();
  if (!c.ok()) return {0, std::string::npos};
  const int64_t page_size = QueryInt(*c, "PRAGMA page_size");
  const std::string bytes = Bytes(db);
  for (size_t at = bytes.find(needle); at != std::string::npos; at = bytes.find(needle, at + 1)) {
    const int64_t page = static_cast<int64_t>(at) / page_size + 1;
    auto st = c->Prepare("SELECT name FROM dbstat WHERE pageno = ?1");
    EXPECT_TRUE(st.ok()) << st.status().message();
    if (!st.ok()) break;
    st->Bind(1, page);
    auto row = st->Step();
    if (row.ok() && *row && st->Text(0) == table) return {page, at};
  }
  return {0, std::string::npos};
}

void Overwrite(const std::string& db, size_t at, const std::string& with) {
  std::fstream f(db, std::ios::in | std::ios::out | std::ios::binary);
  f.seekp(static_cast<std::streamoff>(at));
  f.write(with.data(), static_cast<std::streamsize>(with.size()));
  ASSERT_TRUE(f.good());
}

std::string QuickCheck(const std::string& db) {
  auto c = OpenDatabase(db, {.mode = OpenMode::kReadOnly});
  EXPECT_TRUE(c.ok()) << c.status().message();
  return c.ok() ? testing::QueryText(*c, "PRAGMA quick_check") : "";
}

// A write to a damaged file: 74, one message naming the file and the damage, no byte written,
// no -wal left, and what was stored still reads.
void ExpectWriteRefused(const std::string& dir, const std::string& db, const std::string& what) {
  const std::string before = Bytes(db);
  const std::string other = kRoot + "/fixtures/games/g03_small_city_claimed_c1.game.json";
  auto r = Carc("games import --format json --db " + Q(db) + " " + Q(other), true);
  EXPECT_EQ(r.code, 74) << r.out;
  EXPECT_EQ(r.out.rfind("carc: " + db + ": the database file is damaged (", 0), 0u) << r.out;
  EXPECT_NE(r.out.find(what), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("nothing was written"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\"stored\""), std::string::npos) << r.out;
  EXPECT_TRUE(Bytes(db) == before) << "the damaged file was written to";
  EXPECT_EQ(Entries(dir), std::set<std::string>{"c.db"});
  auto list = Carc("games list --format json --db " + Q(db), true);
  ASSERT_EQ(list.code, 0) << list.out;
  EXPECT_EQ(nlohmann::json::parse(list.out).size(), 1u) << list.out;
}

// A stored game whose record_sha256 changed by one hex digit in the games table's page: the
// b-tree is sound (quick_check says ok, which is all the old check ran), but the row no longer
// matches its UNIQUE index. Refused before the write; `db check` names the index.
TEST(DbEdges, DamagedRecordIsRefusedBeforeAnyWrite) {
  TempDir dir;
  const std::string db = dir.File("c.db");
  Build(db);
  ASSERT_EQ(Carc("games import --db " + Q(db) + " " + Q(kGame)).code, 0);
  std::string hash;
  {
    auto c = OpenDatabase(db, {.mode = OpenMode::kReadOnly});
    ASSERT_TRUE(c.ok()) << c.status().message();
    hash = testing::QueryText(*c, "SELECT record_sha256 FROM games");
  }
  ASSERT_EQ(hash.size(), 64u);
  const auto [page, at] = FindInTable(db, "games", hash);
  ASSERT_NE(at, std::string::npos) << "the hash is not in a page of the games table";
  Overwrite(db, at, hash[0] == '0' ? "1" : "0");
  ASSERT_EQ(QuickCheck(db), "ok");  // what the check before writes used to see
  ExpectWriteRefused(dir.path(), db, "sqlite_autoindex_games_1");
  auto check = Carc("db check --format json --db " + Q(db), true);
  EXPECT_EQ(check.code, 74) << check.out;
  EXPECT_NE(check.out.find("\"integrity\": \"damaged\""), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("sqlite_autoindex_games_1"), std::string::npos) << check.out;
}

// The search index's own copy of a ruling's ID changed in the file ("BASE-" to "BASX-"): the
// pages are sound, the full-text index no longer matches what it indexes. Refused; db check
// names the index.
TEST(DbEdges, DamagedSearchIndexIsRefusedBeforeAnyWrite) {
  TempDir dir;
  const std::string db = dir.File("c.db");
  Build(db);
  ASSERT_EQ(Carc("games import --db " + Q(db) + " " + Q(kGame)).code, 0);
  const auto [page, at] = FindInTable(db, "rulings_fts_content", "BASE-");
  ASSERT_NE(at, std::string::npos) << "no ruling ID in a page of rulings_fts_content";
  Overwrite(db, at + 3, "X");
  ASSERT_EQ(QuickCheck(db), "ok");
  ExpectWriteRefused(dir.path(), db, "search index rulings_fts does not match");
  auto check = Carc("db check --format json --db " + Q(db), true);
  EXPECT_EQ(check.code, 74) << check.out;
  EXPECT_NE(check.out.find("search index rulings_fts does not match"), std::string::npos)
      << check.out;
}

// A byte of a stored record changed where no index or constraint looks (a digit of the first
// rotation in the games table's pages: the start tile's or an action's, both JSON kept valid):
// the file is sound to SQLite, so writes go on, but `db check` rebuilds each record and finds
// that it no longer hashes to the record_sha256 stored at import.
TEST(DbEdges, DbCheckFindsARecordChangedWhereNoIndexLooks) {
  TempDir dir;
  const std::string db = dir.File("c.db");
  Build(db);
  ASSERT_EQ(Carc("games import --db " + Q(db) + " " + Q(kGame)).code, 0);
  auto sound = Carc("db check --format json --db " + Q(db), true);
  ASSERT_EQ(sound.code, 0) << sound.out;
  const auto j = nlohmann::json::parse(sound.out);
  EXPECT_EQ(j.at("integrity"), "ok");
  EXPECT_EQ(j.at("checked").at("game_records"), 1);
  EXPECT_EQ(j.at("checked").at("search_index"), true);
  const auto [page, at] = FindInTable(db, "games", "\"rotation\":");
  ASSERT_NE(at, std::string::npos) << "no rotation in a page of the games table";
  const std::string bytes = Bytes(db);
  const size_t digit = at + std::string("\"rotation\":").size();
  ASSERT_NE(std::string("0129").find(bytes[digit]), std::string::npos) << bytes.substr(at, 20);
  // Still a JSON number, another rotation: 0 -> 9, 90 -> 80, 180 -> 980, 270 -> 970.
  Overwrite(db, digit, bytes[digit] == '9' ? "8" : "9");
  auto c = OpenDatabase(db, {.mode = OpenMode::kReadOnly});
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(testing::QueryText(*c, "PRAGMA integrity_check"), "ok");
  auto check = Carc("db check --format json --db " + Q(db), true);
  EXPECT_EQ(check.code, 74) << check.out;
  EXPECT_NE(check.out.find("game 1 ("), std::string::npos) << check.out;
  EXPECT_NE(check.out.find("not to the " + testing::QueryText(*c,
                                                              "SELECT substr(record_sha256, "
                                                              "1, 12) FROM games")),
            std::string::npos)
      << check.out;
}

// --db naming a FIFO: SQLite would open it and wait for a writer for ever, so every read-only
// command hung. Refused before opening: 74, "not a regular file", for readers and writers.
TEST(DbEdges, AFifoAsTheDatabaseIsRefusedNotWaitedOn) {
  TempDir dir;
  const std::string fifo = dir.File("pipe.db");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& args : {std::string("rulings search city"), std::string("games list"),
                                  std::string("db check"), "games import " + Q(kGame)}) {
    auto r = Carc(args + " --db " + Q(fifo), true);
    EXPECT_EQ(r.code, 74) << args << "\n" << r.out;
    EXPECT_NE(r.out.find(fifo + ": not a regular file"), std::string::npos) << args << "\n"
                                                                            << r.out;
  }
}

// A database file without write permission (mode 0444; as root too), read by a read-only
// command: opened immutable, so no -shm or -wal is created next to it (a plain read-only open
// of the WAL file created both and left them behind), and the search still answers.
TEST(DbEdges, AReadOnlyDatabaseIsReadWithoutLeavingShmOrWal) {
  TempDir dir;
  const std::string db = dir.File("ro.db");
  Build(db);
  ASSERT_EQ(Entries(dir.path()), std::set<std::string>{"ro.db"});
  ASSERT_EQ(chmod(db.c_str(), 0444), 0);
  auto s = Carc("rulings search phantom --format json --db " + Q(db), true);
  ASSERT_EQ(s.code, 0) << s.out;
  EXPECT_FALSE(nlohmann::json::parse(s.out).at("hits").empty());
  EXPECT_EQ(Carc("games list --db " + Q(db)).code, 0);
  EXPECT_EQ(Entries(dir.path()), std::set<std::string>{"ro.db"});
}

// A writable database, read by read-only commands (`rulings search`, `games list`, `serve`'s
// connection): the writers (`db build`, `games import`) leave it in rollback-journal mode when
// they close, so a read-only open creates no -wal or -shm (in WAL mode it created both and,
// unable to remove them, left them behind).
TEST(DbEdges, ReadsAfterWritesLeaveNoShmOrWal) {
  TempDir dir;
  const std::string db = dir.File("rw.db");
  Build(db);
  EXPECT_EQ(Carc("games import --db " + Q(db) + " " + Q(kGame)).code, 0);
  ASSERT_EQ(Entries(dir.path()), std::set<std::string>{"rw.db"});
  auto s = Carc("rulings search phantom --format json --db " + Q(db), true);
  ASSERT_EQ(s.code, 0) << s.out;
  EXPECT_FALSE(nlohmann::json::parse(s.out).at("hits").empty());
  EXPECT_EQ(Carc("games list --db " + Q(db)).code, 0);
  {
    auto c = OpenDatabase(db, {.mode = OpenMode::kReadOnly});
    ASSERT_TRUE(c.ok()) << c.status().message();
  }
  EXPECT_EQ(Entries(dir.path()), std::set<std::string>{"rw.db"});
}

}  // namespace
}  // namespace carc::database
