// Database edges of issue 19, driven through the carc binary as a user would: an empty --db is
// refused, a first build lands complete or not at all, a path starting with "//" works, and a
// page-corrupted file is refused before any write.
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

}  // namespace
}  // namespace carc::database
