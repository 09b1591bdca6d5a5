// Google Benchmark: legal-placement generation and random full games (base, base + Phantom, all
// four expansions), with the heap allocations per action as a counter (a counting operator new,
// in this binary only). Run in Release: build/model/model_bench (model/bench/PERFORMANCE.md).
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <new>
#include <random>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"

// GCC sees malloc'd memory released by these operator delete (the pair is consistent).
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

namespace {
// Every heap allocation of the process counts; benchmarks read the difference around the work.
long g_allocations = 0;
}  // namespace

void* operator new(std::size_t n) {
  ++g_allocations;
  if (void* p = std::malloc(n ? n : 1)) return p;
  throw std::bad_alloc();
}
void* operator new[](std::size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

namespace carc::model {
namespace {

enum Expansions { kBase = 0, kPhantom = 1, kAll = 2 };

// A game start: the start tile and a shuffled draw order of the other 71 tiles.
Position Start(int players, int expansions, uint32_t seed) {
  std::mt19937 rng(seed);
  const TileCatalog& cat = TileCatalog::Base();
  std::vector<std::string> order;
  for (TileType t = 0; t < cat.size(); ++t)
    for (int i = 0; i < cat.def(t).count - (t == cat.start_tile() ? 1 : 0); ++i)
      order.push_back(cat.Name(t));
  std::shuffle(order.begin(), order.end(), rng);
  nlohmann::json ids = nlohmann::json::array();
  if (expansions == kPhantom) ids.push_back("phantom");
  if (expansions == kAll)
    for (const std::string& id : exp::Ids()) ids.push_back(id);
  nlohmann::json j;
  j["rules"] = {{"edition", "C3"}, {"expansions", ids}};
  j["players"] = nlohmann::json::array();
  for (int p = 0; p < players; ++p) j["players"].push_back({{"name", "P" + std::to_string(p)}});
  j["board"] = {{{"tile", "D"}, {"x", 0}, {"y", 0}, {"rotation", 0}}};
  j["supply"] = {{"draw_order", order}};
  auto pos = ParsePosition(j, exp::Context("bench"));
  ApplyResult r;
  Advance(*pos, r);
  return std::move(*pos);
}

// LegalActions into a buffer the caller reuses (the same list: the current step's Legal).
void ListLegal(const Position& pos, std::vector<Action>& out) {
  out.clear();
  if (pos.turn.game_over) return;
  const Step& s = pos.current_step();
  if (s.NeedsDecision(pos)) s.Legal(pos, out);
}

// Plays uniformly random legal actions until the game ends or `max_actions` were taken.
int Play(Position& pos, std::mt19937& rng, int max_actions) {
  static std::vector<Action> legal;  // reused: the list allocates only while it grows
  int n = 0;
  while (!pos.turn.game_over && n < max_actions) {
    ListLegal(pos, legal);
    if (legal.empty()) break;
    Apply(pos, legal[std::uniform_int_distribution<size_t>(0, legal.size() - 1)(rng)]);
    ++n;
  }
  return n;
}

// Legal tile placements in a mid-game position (about 35 tiles on the board).
void BM_LegalPlacements(benchmark::State& state) {
  Position pos = Start(3, kBase, 7);
  std::mt19937 rng(7);
  while (pos.board.size() < 36) Play(pos, rng, 1);
  while (pos.current_step().Name() != kPlaceTile) Play(pos, rng, 1);
  size_t n = 0;
  const long allocs0 = g_allocations;
  std::vector<Action> legal;
  for (auto _ : state) {
    ListLegal(pos, legal);
    n = legal.size();
    benchmark::DoNotOptimize(legal);
  }
  state.counters["placements"] = static_cast<double>(n);
  state.counters["tiles_on_board"] = pos.board.size();
  state.counters["allocs_per_list"] =
      static_cast<double>(g_allocations - allocs0) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_LegalPlacements);

// Whole random games: draw, place, figure or pass, score, final scoring. Args: players, the
// expansions (0 base, 1 Phantom, 2 all four), the path (1 lean: Position::explain false, as
// engines and perft play; 0 explained: every verdict's reasons and score breakdowns built, as
// the adjudicator does). The start positions are built before timing; each game assigns one to
// a position reused across games (counted in its time; its buffers are reused, so the steady
// state is what an engine playing many games sees) and plays it out.
void BM_RandomGame(benchmark::State& state) {
  const int players = static_cast<int>(state.range(0));
  const int expansions = static_cast<int>(state.range(1));
  const bool lean = state.range(2) != 0;
  std::vector<Position> starts;
  for (uint32_t s = 1; s <= 32; ++s) {
    starts.push_back(Start(players, expansions, s));
    starts.back().explain = !lean;
  }
  uint32_t seed = 1;
  int64_t actions = 0;
  long allocs = 0;
  Position pos;
  std::mt19937 rng(1);  // one engine for the run (seeding one per game cost about 1 us a game)
  for (auto _ : state) {
    const long before = g_allocations;
    pos = starts[seed++ % starts.size()];
    actions += Play(pos, rng, 20000);
    allocs += g_allocations - before;
    benchmark::DoNotOptimize(pos.players);
  }
  const double games = static_cast<double>(state.iterations());
  state.counters["actions_per_game"] = benchmark::Counter(static_cast<double>(actions) / games);
  state.counters["allocs_per_action"] = benchmark::Counter(
      static_cast<double>(allocs) / static_cast<double>(std::max<int64_t>(actions, 1)));
  state.counters["games_per_s"] = benchmark::Counter(games, benchmark::Counter::kIsRate);
  state.SetItemsProcessed(actions);
}
// A fixed amount of work for instruction counts (valgrind --tool=callgrind
// --toggle-collect='*PlayFixedGames*', repeatable on a loaded machine) and for checking that a
// change leaves the games as they were: 32 random games, each from its own start and its own
// seeded engine, one iteration. `checksum` sums every player's final score weighted by the
// game and the seat, and the actions taken: equal before and after a change that keeps the rules.
[[gnu::noinline]] int64_t PlayFixedGames(std::vector<Position>& starts, Position& pos,
                                         int64_t& actions) {
  int64_t checksum = 0;
  for (size_t g = 0; g < starts.size(); ++g) {
    std::mt19937 rng(static_cast<uint32_t>(1000 + g));
    pos = starts[g];
    const int n = Play(pos, rng, 20000);
    actions += n;
    checksum += n;
    for (size_t p = 0; p < pos.players.size(); ++p)
      checksum += static_cast<int64_t>(g + 1) * static_cast<int64_t>(p + 7) * pos.players[p].score;
  }
  return checksum;
}

void BM_FixedGames(benchmark::State& state) {
  const int expansions = static_cast<int>(state.range(0));
  std::vector<Position> starts;
  for (uint32_t s = 1; s <= 32; ++s) {
    starts.push_back(Start(2, expansions, s));
    starts.back().explain = state.range(1) == 0;
  }
  Position pos;
  int64_t actions = 0, checksum = 0;
  for (auto _ : state) checksum = PlayFixedGames(starts, pos, actions);
  state.counters["checksum"] = static_cast<double>(checksum);
  state.counters["actions"] = static_cast<double>(actions);
}
BENCHMARK(BM_FixedGames)
    ->ArgNames({"exp", "lean"})
    ->Args({kBase, 1})
    ->Args({kPhantom, 1})
    ->Args({kAll, 1})
    ->Args({kBase, 0})
    ->Args({kAll, 0})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

BENCHMARK(BM_RandomGame)
    ->ArgNames({"players", "exp", "lean"})
    ->Args({2, kBase, 1})
    ->Args({2, kPhantom, 1})
    ->Args({2, kAll, 1})
    ->Args({3, kBase, 1})
    ->Args({2, kBase, 0})
    ->Args({2, kAll, 0})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace carc::model

BENCHMARK_MAIN();
