// The example engine (adjudicator/conform/examples/base_engine.py) against `carc conform`: it
// agrees with the reference, and each mistake planted with --mistake is reported as ONE group,
// citing the ruling it breaks, with an example shrunk to at most 4 tiles (a completed monastery:
// 9) and 2 players, written with --out, rerunnable with --rerun and `carc adjudicate`.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "adjudicator/run_carc.h"
#include "adjudicator/test_scratch.h"

namespace {

using nlohmann::json;
const std::string kCarc = CARC_BINARY;
const std::string kRoot = CARC_SOURCE_DIR;
const std::string kEngine = "python3 " + kRoot + "/adjudicator/conform/examples/base_engine.py";

const std::string& Scratch() { return carc::testing_support::ScratchDir("conform_example_test"); }

using carc::testing::Result;

Result Sh(const std::string& cmd) { return carc::testing::Shell(cmd); }

// --timeout 120: these tests need the engine's answers eventually (the timeout is tested in
// conform_test.cc); a Python engine starved on a loaded machine must not turn a finding (exit 1)
// into an engine failure (74) by missing the default 10 s.
Result Conform(const std::string& engine_args, const std::string& extra = "") {
  return Sh(kCarc + " conform --root " + kRoot + " --jobs 2 --timeout 120 --engine '" + kEngine +
            " " + engine_args + "' " + extra);
}

TEST(ExampleEngine, AgreesWithTheReference) {
  Result r = Conform("", "--random 6 --seed 3");
  ASSERT_EQ(r.code, 0) << r.out.substr(0, 4000);
  json j = json::parse(r.out);
  EXPECT_EQ(j["summary"]["groups"], 0);
  EXPECT_GT(j["summary"]["checked"].get<int>(), 200);
  // It declares the base game, C2/C3, per-farm: C1 and expansion positions are skipped.
  EXPECT_GT(j["summary"]["skipped_because"].value("edition C1", 0), 0);
  EXPECT_GT(j["summary"]["skipped_because"].value("expansion gifts", 0), 0);
}

struct Planted {
  std::string mistake, category, ruling;
  int max_tiles;
};
void PrintTo(const Planted& p, std::ostream* os) { *os << p.mistake; }

// The expected category and ruling of each planted mistake, from the rules it breaks:
// - farms paid for incomplete cities: final farm scoring (BASE-END-FARM);
// - a meeple listed on an occupied road: the free-feature rule (BASE-MEEPLE-FREE);
// - a completed monastery worth 8: its scoring (BASE-SCORE-MONASTERY), 9 tiles by nature;
// - no meeple ever listed on a field: a legal placement on a free feature (BASE-MEEPLE-FREE).
class PlantedTest : public ::testing::TestWithParam<Planted> {};

TEST_P(PlantedTest, IsOneGroupWithASmallExampleWrittenWithOut) {
  const Planted& p = GetParam();
  const std::string dir = Scratch() + "/planted_" + p.mistake;
  std::filesystem::remove_all(dir);
  Result r = Conform("--mistake " + p.mistake, "--out " + dir);
  ASSERT_EQ(r.code, 1) << r.out.substr(0, 3000);
  json j = json::parse(r.out);
  ASSERT_EQ(j["groups"].size(), 1u) << r.out.substr(0, 6000);
  const json& g = j["groups"][0];
  EXPECT_EQ(g["category"], p.category);
  bool cited = false;
  for (const json& id : g["rulings"]) cited |= id == p.ruling;
  EXPECT_TRUE(cited) << g.dump();
  const json& size = g["example"]["size"];
  EXPECT_LE(size["tiles"].get<int>(), p.max_tiles) << g["example"]["position"].dump();
  EXPECT_LE(size["players"].get<int>(), 2) << g["example"]["position"].dump();
  EXPECT_TRUE(g["example"]["shrink"]["local_minimum"].get<bool>());
  EXPECT_FALSE(g["example"]["diff"].empty());

  // --out: one case, listed in the manifest with its rulings; the reference adjudicates it.
  json manifest = json::parse(std::ifstream(dir + "/manifest.json"));
  ASSERT_EQ(manifest["cases"].size(), 1u);
  const json& c = manifest["cases"][0];
  EXPECT_EQ(c["category"], p.category);
  const std::string file = dir + "/" + c["position"].get<std::string>();
  Result adj = Sh(kCarc + " adjudicate " + file);
  EXPECT_TRUE(adj.code == 0 || adj.code == 1) << adj.code << " " << adj.out.substr(0, 1000);

  // --rerun: only that case, and the same single group.
  Result again = Conform("--mistake " + p.mistake, "--rerun " + dir);
  ASSERT_EQ(again.code, 1) << again.out.substr(0, 2000);
  json ja = json::parse(again.out);
  EXPECT_EQ(ja["summary"]["queries"], 1);
  ASSERT_EQ(ja["groups"].size(), 1u);
  EXPECT_EQ(ja["groups"][0]["rulings"], g["rulings"]);
  // The faithful engine passes the same case; the reference script compares it without the
  // protocol, one file at a time.
  EXPECT_EQ(Conform("", "--rerun " + dir).code, 0);
  Result script = Sh("python3 " + dir + "/compare.py " + dir + " -- " + kEngine + " --mistake " +
                     p.mistake + " --answer");
  Result clean = Sh("python3 " + dir + "/compare.py " + dir + " -- " + kEngine + " --answer");
  EXPECT_EQ(clean.code, 0) << clean.out;
  EXPECT_NE(clean.out.find("1 cases checked, 0 differ"), std::string::npos) << clean.out;
  // The planted mistake shows in the script too (legal lists and scores).
  EXPECT_EQ(script.code, 1) << script.out;
  EXPECT_NE(script.out.find("1 cases checked, 1 differ"), std::string::npos) << script.out;
}

INSTANTIATE_TEST_SUITE_P(
    All, PlantedTest,
    ::testing::Values(Planted{"farm-counts-open-cities", "scores differ", "BASE-END-FARM", 4},
                      Planted{"meeple-joins-occupied", "accepts an illegal action",
                              "BASE-MEEPLE-FREE", 4},
                      Planted{"monastery-eight", "scores differ", "BASE-SCORE-MONASTERY", 9},
                      Planted{"no-farmers", "rejects a legal action", "BASE-MEEPLE-FREE", 4}),
    [](const auto& info) {
      std::string n = info.param.mistake;
      for (char& c : n)
        if (c == '-') c = '_';
      return n;
    });

// With random positions too (more features paying the same player), each planted mistake is
// still one group citing only the ruling it breaks: the farm, not the incomplete city that paid
// the same player at the end; the free-feature rule for a meeple on an occupied road.
TEST(ExampleEngine, PlantedMistakesAreOneGroupOnRandomPositionsToo) {
  for (const auto& [mistake, ruling] : std::vector<std::pair<std::string, std::string>>{
           {"farm-counts-open-cities", "BASE-END-FARM"},
           {"meeple-joins-occupied", "BASE-MEEPLE-FREE"},
           {"monastery-eight", "BASE-SCORE-MONASTERY"}}) {
    Result r = Conform("--mistake " + mistake, "--random 40 --seed 11");
    ASSERT_EQ(r.code, 1) << mistake << ": " << r.out.substr(0, 3000);
    json j = json::parse(r.out);
    std::string groups;
    for (const json& g : j["groups"]) groups += g["category"].dump() + g["rulings"].dump() + " ";
    ASSERT_EQ(j["groups"].size(), 1u) << mistake << ": " << groups;
    bool cited = false;
    for (const json& id : j["groups"][0]["rulings"]) {
      cited |= id == ruling;
      EXPECT_NE(id, "BASE-END-CITY") << mistake << ": " << groups;
    }
    EXPECT_TRUE(cited) << mistake << ": " << groups;
  }
}

// A declared deviation sets apart only the findings attributed to it (PROTOCOL.md): declaring
// BASE-END-CITY (incomplete cities at the end) leaves the monastery mistake's group whole, with
// the same count; declaring the monastery's own ruling sets all of them apart.
TEST(ExampleEngine, DeclaredDeviationLeavesOtherBugsGroupsWhole) {
  const std::string extra = "--random 40 --seed 11";
  Result plain = Conform("--mistake monastery-eight", extra);
  ASSERT_EQ(plain.code, 1) << plain.out.substr(0, 2000);
  json p = json::parse(plain.out);
  ASSERT_EQ(p["groups"].size(), 1u) << plain.out.substr(0, 3000);
  const int count = p["groups"][0]["count"].get<int>();

  Result other = Conform("--mistake monastery-eight --deviation BASE-END-CITY", extra);
  ASSERT_EQ(other.code, 1) << other.out.substr(0, 2000);
  json o = json::parse(other.out);
  ASSERT_EQ(o["groups"].size(), 1u) << other.out.substr(0, 3000);
  EXPECT_EQ(o["groups"][0]["count"].get<int>(), count);
  EXPECT_EQ(o["groups"][0]["rulings"], p["groups"][0]["rulings"]);
  EXPECT_TRUE(o["declared_deviations"].empty()) << o["declared_deviations"].dump();

  Result own = Conform("--mistake monastery-eight --deviation BASE-SCORE-MONASTERY", extra);
  ASSERT_EQ(own.code, 0) << own.out.substr(0, 2000);
  json w = json::parse(own.out);
  EXPECT_TRUE(w["groups"].empty());
  int set_apart = 0;
  for (const json& g : w["declared_deviations"]) set_apart += g["count"].get<int>();
  EXPECT_EQ(set_apart, count);
}

// The text report shows why: the reference's verdict on the disputed action, with the ruling's
// title; for a legal-list finding the case written with --out is that action's apply question,
// which `carc adjudicate` rules illegal (exit 1) with the same ruling.
TEST(ExampleEngine, TextReportAndCaseExplainTheVerdict) {
  const std::string dir = Scratch() + "/explain";
  std::filesystem::remove_all(dir);
  Result r = Conform("--mistake meeple-joins-occupied", "--format text --out " + dir);
  ASSERT_EQ(r.code, 1) << r.out.substr(0, 3000);
  EXPECT_NE(r.out.find("reference verdict: "), std::string::npos) << r.out.substr(0, 3000);
  EXPECT_NE(r.out.find("BASE-MEEPLE-FREE ("), std::string::npos) << r.out.substr(0, 3000);
  json manifest = json::parse(std::ifstream(dir + "/manifest.json"));
  ASSERT_EQ(manifest["cases"].size(), 1u);
  const json& c = manifest["cases"][0];
  EXPECT_EQ(c["kind"], "apply");
  json expected = json::parse(std::ifstream(dir + "/" + c["expected"].get<std::string>()));
  EXPECT_EQ(expected["legal"], false);
  EXPECT_TRUE(expected["rulings"].is_array());
  Result adj = Sh(kCarc + " adjudicate " + dir + "/" + c["position"].get<std::string>());
  EXPECT_EQ(adj.code, 1) << adj.out.substr(0, 2000);
  EXPECT_NE(adj.out.find("BASE-MEEPLE-FREE"), std::string::npos) << adj.out.substr(0, 2000);

  Result s = Conform("--mistake farm-counts-open-cities", "--format text");
  ASSERT_EQ(s.code, 1) << s.out.substr(0, 3000);
  EXPECT_NE(s.out.find("reference score: field"), std::string::npos) << s.out.substr(0, 3000);
  EXPECT_NE(s.out.find("BASE-END-FARM ("), std::string::npos) << s.out.substr(0, 3000);
}

// Which feature a score difference comes from: at the end of this game Red has a meeple in an
// incomplete city (1 point, BASE-END-CITY) and a farmer on the field beside it (0 points: the
// city is not completed, BASE-END-FARM). The engine's farm counts the incomplete city (3): Red
// 4 instead of 1. Both events paid Red; taking the city's meeple back leaves the difference,
// taking the farmer back removes it, so the finding cites the farm only.
TEST(ExampleEngine, ScoreDifferenceIsAttributedToTheFeatureWhoseValueDiffers) {
  const std::string dir = Scratch() + "/attribution";
  std::filesystem::create_directories(dir);
  std::ofstream(dir + "/farm.position.json") << R"({"rules": {"edition": "C3", "expansions": []},
 "players": [{"name": "Red"}, {"name": "Blue"}],
 "board": [{"tile": "D", "x": 0, "y": 0, "rotation": 0},
           {"tile": "U", "x": 1, "y": 0, "rotation": 0}],
 "figures": [{"owner": 0, "x": 0, "y": 0, "feature": "city:N"},
             {"owner": 0, "x": 1, "y": 0, "feature": "field:NL.NR.EL.WR"}],
 "supply": {"draw_order": []},
 "turn": {"player": 0, "step": "draw"},
 "question": {"ask": "final_score"}})";
  std::ofstream(dir + "/manifest.json")
      << R"({"cases": [{"case": "farm", "position": "farm.position.json"}]})";
  for (const std::string& engine :
       {kEngine + " --mistake farm-counts-open-cities",        // no score events: recomputed
        kCarc + " engine --mutant farm-incomplete-cities"}) {  // with its score events
    const std::string report = dir + "/report.json";
    Result r = Sh(kCarc + " conform --timeout 120 --engine '" + engine + "' --rerun " + dir +
                  " --report " + report);
    ASSERT_EQ(r.code, 1) << engine << ": " << r.out.substr(0, 3000);
    json rep = json::parse(std::ifstream(report));
    ASSERT_EQ(rep["cases"].size(), 1u);
    const json& findings = rep["cases"][0]["findings"];
    ASSERT_EQ(findings.size(), 1u) << findings.dump();
    EXPECT_EQ(findings[0]["category"], "scores differ");
    std::set<std::string> rulings;
    for (const json& id : findings[0]["rulings"]) rulings.insert(id.get<std::string>());
    EXPECT_TRUE(rulings.count("BASE-END-FARM")) << engine << ": " << findings.dump();
    EXPECT_FALSE(rulings.count("BASE-END-CITY")) << engine << ": " << findings.dump();
  }
  // Declaring BASE-END-CITY (the city that also paid Red) does not hide the farm's mistake.
  Result d = Sh(kCarc + " conform --timeout 120 --engine '" + kEngine +
                " --mistake farm-counts-open-cities --deviation BASE-END-CITY' --rerun " + dir);
  ASSERT_EQ(d.code, 1) << d.out.substr(0, 3000);
  json dj = json::parse(d.out);
  EXPECT_EQ(dj["groups"].size(), 1u);
  EXPECT_TRUE(dj["declared_deviations"].empty()) << dj["declared_deviations"].dump();
}

}  // namespace
