// Google Benchmark: importing 10,000 generated game records (random legal play, full base
// games with 2-5 players, every other one with Phantom) and querying the database.
// Run in Release: build/database/database_bench (database/README.md "Speed").
#include <benchmark/benchmark.h>
#include <stdlib.h>

#include <filesystem>

#include "database/game_gen.h"
#include "database/games_store.h"
#include "database/integrity.h"
#include "database/migrate.h"
#include "database/rulings_store.h"

#ifndef CARC_SOURCE_DIR
#define CARC_SOURCE_DIR "."
#endif

namespace carc::database {
namespace {

constexpr int kGames = 10000;

const std::vector<ImportItem>& Records() {
  static const std::vector<ImportItem> items = [] {
    std::vector<ImportItem> v;
    v.reserve(kGames);
    for (int i = 0; i < kGames; ++i)
      v.push_back({"gen" + std::to_string(i), "generated",
                   GenerateRecord(static_cast<uint32_t>(i + 1), 2 + i % 4, i % 2 == 1)});
    return v;
  }();
  return items;
}

std::string TempPath(const char* name) {
  static const std::string dir = [] {
    std::string tmpl = (std::filesystem::temp_directory_path() / "carcbench-XXXXXX").string();
    return std::string(mkdtemp(tmpl.data()));
  }();
  return dir + "/" + name;
}

void Remove(const std::string& path) {
  for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path + suffix);
}

// The whole batch in one transaction into a fresh file: replay + store, per record.
void BM_Import10k(benchmark::State& state) {
  const auto& items = Records();
  int64_t actions = 0;
  for (const auto& it : items)
    for (const auto& t : it.record.turns) actions += static_cast<int64_t>(t.actions.size());
  for (auto _ : state) {
    state.PauseTiming();
    const std::string path = TempPath("import.db");
    Remove(path);
    auto conn = OpenDatabase(path, {.mode = OpenMode::kCreate});
    state.ResumeTiming();
    auto res = ImportGames(*conn, items);
    if (!res.ok()) state.SkipWithError(res.status().message().c_str());
    state.PauseTiming();
    state.counters["db_MB"] = static_cast<double>(std::filesystem::file_size(path) +
                                                  std::filesystem::file_size(path + "-wal")) /
                              1e6;
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * kGames);
  state.counters["records"] = kGames;
  state.counters["actions"] = static_cast<double>(actions);
  state.counters["us_per_record"] =
      benchmark::Counter(static_cast<double>(kGames) * state.iterations() / 1e6,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_Import10k)->Unit(benchmark::kSecond)->Iterations(1)->UseRealTime();

// The replay alone (the model's share of an import), per record.
void BM_ReplayRecord(benchmark::State& state) {
  const auto& items = Records();
  size_t i = 0;
  for (auto _ : state) {
    auto rr = Replay(items[i++ % items.size()].record, "bench");
    benchmark::DoNotOptimize(rr);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_ReplayRecord)->Unit(benchmark::kMicrosecond);

// A database with the rulings and the 10,000 games, for the queries.
Connection& QueryDb() {
  static Connection conn = [] {
    const std::string path = TempPath("query.db");
    Remove(path);
    auto c = OpenDatabase(path, {.mode = OpenMode::kCreate});
    (void)BuildFromRepo(*c, CARC_SOURCE_DIR);
    (void)ImportGames(*c, Records());
    return std::move(*c);
  }();
  return conn;
}

void BM_Search(benchmark::State& state) {
  Connection& c = QueryDb();
  const char* queries[] = {"phantom builder", "take 2 unplaceable", "GIFT-FN9",
                           "farmer field completed city", "messenger scoring track"};
  size_t i = 0, hits = 0;
  for (auto _ : state) {
    auto r = Search(c, queries[i++ % 5], 10);
    hits += r.ok() ? r->size() : 0;
  }
  state.counters["hits_per_query"] = static_cast<double>(hits) / state.iterations();
}
BENCHMARK(BM_Search)->Unit(benchmark::kMicrosecond);

void BM_ShowRuling(benchmark::State& state) {
  Connection& c = QueryDb();
  for (auto _ : state) benchmark::DoNotOptimize(ShowRuling(c, "GIFT-FN9"));
}
BENCHMARK(BM_ShowRuling)->Unit(benchmark::kMicrosecond);

void BM_ListDisputed(benchmark::State& state) {
  Connection& c = QueryDb();
  for (auto _ : state) benchmark::DoNotOptimize(ListRulings(c, "gifts", "disputed"));
}
BENCHMARK(BM_ListDisputed)->Unit(benchmark::kMicrosecond);

// Fetch one stored game and rebuild its record (games show / export).
void BM_GetGame(benchmark::State& state) {
  Connection& c = QueryDb();
  int64_t id = 1;
  for (auto _ : state) {
    auto g = GetGame(c, id);
    benchmark::DoNotOptimize(g);
    id = id % kGames + 1;
  }
}
BENCHMARK(BM_GetGame)->Unit(benchmark::kMicrosecond);

// Integrity checks on the database of the rulings and 10,000 games: what each costs,
// per run on the whole file. quick_check and integrity_check walk every page; the search index
// check re-tokenises the rulings; the record hashes rebuild every game (reported per game).
void BM_QuickCheck(benchmark::State& state) {
  Connection& c = QueryDb();
  for (auto _ : state) {
    auto st = c.Prepare("PRAGMA quick_check(1)");
    auto r = st->Step();
    if (!r.ok() || st->Text(0) != "ok") state.SkipWithError("quick_check failed");
  }
}
BENCHMARK(BM_QuickCheck)->Unit(benchmark::kMillisecond);

void BM_IntegrityCheck(benchmark::State& state) {
  Connection& c = QueryDb();
  for (auto _ : state) {
    auto p = IntegrityProblems(c, 1);
    if (!p.ok() || !p->empty()) state.SkipWithError("integrity_check failed");
  }
}
BENCHMARK(BM_IntegrityCheck)->Unit(benchmark::kMillisecond);

void BM_SearchIndexCheck(benchmark::State& state) {
  Connection& c = QueryDb();
  for (auto _ : state) {
    auto p = SearchIndexProblem(c);
    if (!p.ok() || !p->empty()) state.SkipWithError("search index check failed");
  }
}
BENCHMARK(BM_SearchIndexCheck)->Unit(benchmark::kMillisecond);

// What every write pays: integrity_check(1) + the search index check.
void BM_CheckBeforeWrite(benchmark::State& state) {
  Connection& c = QueryDb();
  for (auto _ : state)
    if (!CheckBeforeWrite(c).ok()) state.SkipWithError("check before write failed");
}
BENCHMARK(BM_CheckBeforeWrite)->Unit(benchmark::kMillisecond);

// The same checks on a database of the rulings and fixtures alone (no games): a fresh
// `db build`, the size most users have.
void BM_CheckBeforeWriteRulingsOnly(benchmark::State& state) {
  static Connection c = [] {
    const std::string path = TempPath("rulings.db");
    Remove(path);
    auto conn = OpenDatabase(path, {.mode = OpenMode::kCreate});
    (void)BuildFromRepo(*conn, CARC_SOURCE_DIR);
    return std::move(*conn);
  }();
  for (auto _ : state)
    if (!CheckBeforeWrite(c).ok()) state.SkipWithError("check before write failed");
}
BENCHMARK(BM_CheckBeforeWriteRulingsOnly)->Unit(benchmark::kMillisecond);

// `db check`'s record hashes: every stored game rebuilt and hashed; per game.
void BM_GameHashes(benchmark::State& state) {
  Connection& c = QueryDb();
  int64_t checked = 0;
  for (auto _ : state) {
    auto p = GameHashProblems(c, 1, &checked);
    if (!p.ok() || !p->empty()) state.SkipWithError("a record hash differs");
  }
  state.counters["ms_per_game"] =
      benchmark::Counter(static_cast<double>(checked) / 1e3,
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_GameHashes)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
}  // namespace carc::database

BENCHMARK_MAIN();
