// Perft golden numbers (cf. Stockfish tests/perft.sh): fixed draw orders from the start
// tile, action counts at depths 1-3 from `carc legal --depth` (adjudicator::RunJson), checked
// against property-tests/perft_golden.json (depths 1-2 worked out by hand there) and against a
// brute-force perft that does not use LegalActions. On a mismatch the divide is printed. Entries
// with a "guard" (The Messengers, The Gifts, Christmas Present) are engine-computed regression
// guards for the module refactor, not hand-worked rule expectations.
#include <gtest/gtest.h>

#include <filesystem>

#include "adjudicator/adjudicate.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "property-tests/checks.h"
#include "property-tests/gen_game.h"

#ifndef CARC_SOURCE_DIR
#define CARC_SOURCE_DIR "."
#endif

namespace carc::prop {
namespace {

using nlohmann::json;

json Golden() {
  auto j = model::ReadJsonFile(std::string(CARC_SOURCE_DIR) + "/property-tests/perft_golden.json");
  EXPECT_TRUE(j.ok()) << j.status().message();
  return j.ok() ? *j : json::object();
}

json PositionFor(const json& e) {
  json players = json::array();
  for (int p = 0; p < e.value("players", 2); ++p)
    players.push_back({{"name", "P" + std::to_string(p)}});
  json doc = {{"rules", {{"edition", "C3"}, {"expansions", e.value("expansions", json::array())}}},
              {"players", players},
              {"board", json::array({{{"tile", "D"}, {"x", 0}, {"y", 0}, {"rotation", 0}}})},
              {"supply", {{"draw_order", e["draw_order"]}}},
              {"turn", {{"player", 0}, {"step", "draw"}}}};
  // Guard entries patch in scores, figures and the expansion's section.
  if (e.contains("merge")) doc.merge_patch(e["merge"]);
  return doc;
}

uint64_t BrutePerft(const model::Position& pos, int depth) {
  if (depth == 0) return 1;
  std::vector<model::Action> as = BruteForceActions(pos);
  if (depth == 1) return as.size();
  uint64_t n = 0;
  for (const auto& a : as) {
    model::Position p = pos;
    model::Apply(p, a);
    n += BrutePerft(p, depth - 1);
  }
  return n;
}

class Perft : public ::testing::TestWithParam<json> {};

TEST_P(Perft, MatchesGoldenTable) {
  const json& e = GetParam();
  const json doc = PositionFor(e);
  auto parsed = ParseJson(doc, e["name"].get<std::string>());
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  model::ApplyResult pre;
  model::Advance(*parsed, pre);
  const json& counts = e["counts"];
  for (size_t d = 1; d <= counts.size(); ++d) {
    adjudicator::Outcome o = adjudicator::RunJson(doc, e["name"].get<std::string>(),
                                                  {adjudicator::Mode::kLegal, static_cast<int>(d)});
    ASSERT_EQ(o.exit_code, 0) << o.error;
    const uint64_t want = counts[d - 1].get<uint64_t>();
    EXPECT_EQ(o.ruling["count"].get<uint64_t>(), want)
        << e["name"] << " depth " << d << "; divide: " << o.ruling["divide"].dump();
    EXPECT_EQ(BrutePerft(*parsed, static_cast<int>(d)), want)
        << e["name"] << " depth " << d << " by brute force";
  }
}

std::vector<json> Entries() {
  std::vector<json> out;
  for (const json& e : Golden().value("entries", json::array())) out.push_back(e);
  return out;
}

INSTANTIATE_TEST_SUITE_P(Golden, Perft, ::testing::ValuesIn(Entries()),
                         [](const ::testing::TestParamInfo<json>& info) {
                           std::string n = info.param["name"].get<std::string>();
                           for (char& c : n)
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           return n;
                         });

}  // namespace
}  // namespace carc::prop
