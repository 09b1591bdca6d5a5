// Google Benchmark: legal-placement generation and random full games (base, base + Phantom).
// Run in Release: build/model/model_bench (README "Speed").
#include <benchmark/benchmark.h>

#include <random>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"

namespace carc::model {
namespace {

// A game start: the start tile and a shuffled draw order of the other 71 tiles.
Position Start(int players, bool phantom, uint32_t seed) {
  std::mt19937 rng(seed);
  const TileCatalog& cat = TileCatalog::Base();
  std::vector<std::string> order;
  for (TileType t = 0; t < cat.size(); ++t)
    for (int i = 0; i < cat.def(t).count - (t == cat.start_tile() ? 1 : 0); ++i)
      order.push_back(cat.Name(t));
  std::shuffle(order.begin(), order.end(), rng);
  nlohmann::json j;
  j["rules"] = {{"edition", "C3"},
                {"expansions", phantom ? nlohmann::json{"phantom"} : nlohmann::json::array()}};
  j["players"] = nlohmann::json::array();
  for (int p = 0; p < players; ++p) j["players"].push_back({{"name", "P" + std::to_string(p)}});
  j["board"] = {{{"tile", "D"}, {"x", 0}, {"y", 0}, {"rotation", 0}}};
  j["supply"] = {{"draw_order", order}};
  auto pos = ParsePosition(j, exp::Context("bench"));
  ApplyResult r;
  Advance(*pos, r);
  return std::move(*pos);
}

// Plays random legal actions until the game ends or `max_actions` were taken.
int Play(Position& pos, std::mt19937& rng, int max_actions) {
  int n = 0;
  while (!pos.turn.game_over && n < max_actions) {
    std::vector<Action> legal = LegalActions(pos);
    if (legal.empty()) break;
    Apply(pos, legal[std::uniform_int_distribution<size_t>(0, legal.size() - 1)(rng)]);
    ++n;
  }
  return n;
}

// Legal tile placements in a mid-game position (about 35 tiles on the board).
void BM_LegalPlacements(benchmark::State& state) {
  Position pos = Start(3, false, 7);
  std::mt19937 rng(7);
  while (pos.board.size() < 36) Play(pos, rng, 1);
  while (pos.current_step().Name() != kPlaceTile) Play(pos, rng, 1);
  size_t n = 0;
  for (auto _ : state) {
    auto legal = LegalActions(pos);
    n = legal.size();
    benchmark::DoNotOptimize(legal);
  }
  state.counters["placements"] = static_cast<double>(n);
  state.counters["tiles_on_board"] = pos.board.size();
}
BENCHMARK(BM_LegalPlacements);

// Whole random games: draw, place, figure or pass, score, final scoring.
void BM_RandomGame(benchmark::State& state) {
  const bool phantom = state.range(0) != 0;
  uint32_t seed = 1;
  int64_t actions = 0;
  for (auto _ : state) {
    state.PauseTiming();
    Position pos = Start(3, phantom, seed);
    std::mt19937 rng(seed++);
    state.ResumeTiming();
    actions += Play(pos, rng, 1 << 20);
    benchmark::DoNotOptimize(pos.players);
  }
  state.counters["actions_per_game"] =
      benchmark::Counter(static_cast<double>(actions) / state.iterations());
  state.SetItemsProcessed(actions);
}
BENCHMARK(BM_RandomGame)->Arg(0)->Arg(1)->ArgName("phantom")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace carc::model

BENCHMARK_MAIN();
