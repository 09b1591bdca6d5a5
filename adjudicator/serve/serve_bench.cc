// Google Benchmark: how fast the page gets its answer. POST /api/adjudicate (parse, validate,
// apply, the verdict, the picture) on a position with 70 or more tiles on the board, through
// Api::Handle as the server calls it. Run in Release: build/adjudicator/serve/serve_bench.
#include <benchmark/benchmark.h>

#include <random>

#include "adjudicator/serve/api.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"

namespace carc::serve {
namespace {

using nlohmann::json;

// A random base game played until 70 tiles lie on the board and a tile is in hand; the
// question is the first legal placement of it.
std::string LatePosition() {
  std::mt19937 rng(11);
  const model::TileCatalog& cat = model::TileCatalog::Base();
  std::vector<std::string> order;
  for (model::TileType t = 0; t < cat.size(); ++t)
    for (int i = 0; i < cat.def(t).count - (t == cat.start_tile() ? 1 : 0); ++i)
      order.push_back(cat.Name(t));
  std::shuffle(order.begin(), order.end(), rng);
  json j = {{"rules", {{"edition", "C3"}}},
            {"players", {{{"name", "Anna"}}, {{"name", "Ben"}}}},
            {"board", {{{"tile", "D"}, {"x", 0}, {"y", 0}, {"rotation", 0}}}},
            {"supply", {{"draw_order", order}}}};
  auto pos = model::ParsePosition(j, exp::Context("bench"));
  model::ApplyResult r;
  model::Advance(*pos, r);
  for (int n = 0; n < 1000 && !pos->turn.game_over; ++n) {
    std::vector<model::Action> legal = model::LegalActions(*pos);
    if (legal.empty()) break;
    json doc = model::DumpPosition(*pos);
    if (doc["board"].size() >= 70 && doc["turn"].value("step", "") == "place_tile") {
      doc["question"] = {{"ask", "apply"}, {"actions", {model::DumpAction(*pos, legal[0])}}};
      return doc.dump();
    }
    model::Apply(*pos, legal[std::uniform_int_distribution<size_t>(0, legal.size() - 1)(rng)]);
  }
  return "";
}

void BM_AdjudicateLatePosition(benchmark::State& state) {
  auto api = Api::Create({.run = adjudicator::RunJson, .db_path = "", .root = CARC_SOURCE_DIR});
  const std::string body = LatePosition();
  if (!api.ok() || body.empty()) {
    state.SkipWithError("no late position or no API");
    return;
  }
  for (auto _ : state) {
    Response r = (*api)->Handle("POST", "/api/adjudicate", {}, body);
    if (r.status != 200) state.SkipWithError(r.body.c_str());
    benchmark::DoNotOptimize(r.body);
  }
  state.counters["tiles"] = static_cast<double>(json::parse(body)["board"].size());
}
BENCHMARK(BM_AdjudicateLatePosition)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace carc::serve

BENCHMARK_MAIN();
