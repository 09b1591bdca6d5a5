// Conformance checker end to end: the reference adapter agrees with itself, every mutant is
// caught with the ruling it breaks and a small position, and broken engines fail cleanly.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "adjudicator/conform/engine.h"

namespace {

using nlohmann::json;
const std::string kCarc = CARC_BINARY;
const std::string kRoot = CARC_SOURCE_DIR;

struct Result {
  int code = -1;
  std::string out;
};

Result Sh(const std::string& cmd) {
  Result r;
  FILE* p = popen((cmd + " 2>/dev/null").c_str(), "r");
  std::array<char, 65536> buf{};
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  int status = pclose(p);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

Result Conform(const std::string& engine_args, const std::string& extra = "") {
  return Sh(kCarc + " conform --root " + kRoot + " --engine \"" + kCarc + " engine " + engine_args +
            "\" " + extra);
}

TEST(Conform, ReferenceAgreesWithItself) {
  Result r = Conform("", "--random 20 --seed 7");
  ASSERT_EQ(r.code, 0) << r.out.substr(0, 3000);
  json j = json::parse(r.out);
  EXPECT_EQ(j["summary"]["disagreements"], 0);
  EXPECT_GT(j["summary"]["checked"].get<int>(), 200);
}

// Each mutant: caught (exit 1), with the ruling it breaks among the disagreements' rulings,
// and at least one disagreement shrunk to a few tiles (a completed monastery needs 9).
class MutantTest : public ::testing::TestWithParam<carc::adjudicator::conform::MutantInfo> {};

TEST_P(MutantTest, IsCaughtWithItsRulingOnASmallPosition) {
  const auto& m = GetParam();
  Result r = Conform("--mutant " + m.name);
  ASSERT_EQ(r.code, 1) << m.name << ": " << r.out.substr(0, 2000);
  json j = json::parse(r.out);
  size_t best = 1000;
  bool ruling_found = false;
  for (const json& d : j["disagreements"]) {
    bool has = false;
    for (const json& id : d["rulings"]) has |= id == m.ruling;
    if (!has) continue;
    ruling_found = true;
    best = std::min(best, d["tiles"].get<size_t>());
  }
  EXPECT_TRUE(ruling_found) << m.name << " not reported with " << m.ruling;
  EXPECT_LE(best, m.ruling == "BASE-SCORE-MONASTERY" ? 9u : 4u) << m.name;
}

INSTANTIATE_TEST_SUITE_P(All, MutantTest,
                         ::testing::ValuesIn(carc::adjudicator::conform::Mutants()),
                         [](const auto& info) {
                           std::string n = info.param.name;
                           for (char& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(Conform, AtLeastEightMutants) { EXPECT_GE(carc::adjudicator::conform::Mutants().size(), 8u); }

TEST(Conform, SilentEngineTimesOutWith74) {
  Result r = Sh(kCarc + " conform --root " + kRoot + " --engine 'sleep 30' --timeout 0.5");
  EXPECT_EQ(r.code, 74);
}

TEST(Conform, GarbageEngineFailsWith74) {
  Result r = Sh(kCarc + " conform --root " + kRoot + " --engine 'yes hello'");
  EXPECT_EQ(r.code, 74);
}

TEST(Conform, ExitingEngineFailsWith74) {
  Result r = Sh(kCarc + " conform --root " + kRoot + " --engine 'true'");
  EXPECT_EQ(r.code, 74);
}

TEST(Engine, AnswersUnknownCommandsWithAnError) {
  Result r =
      Sh("printf '%s\\n' '{\"id\": 3, \"cmd\": \"frobnicate\"}' 'not json' | " + kCarc + " engine");
  ASSERT_EQ(r.code, 0);
  std::istringstream lines(r.out);
  std::string a, b;
  std::getline(lines, a);
  std::getline(lines, b);
  json ja = json::parse(a), jb = json::parse(b);
  EXPECT_EQ(ja["id"], 3);
  EXPECT_EQ(ja["ok"], false);
  EXPECT_EQ(ja["error"], "unknown command");
  EXPECT_EQ(jb["ok"], false);
}

TEST(Export, WritesPositionsAndExpectedAnswers) {
  std::string dir = testing::TempDir() + "/suite";
  std::filesystem::remove_all(dir);
  Result r = Sh(kCarc + " conform export " + dir + " --root " + kRoot);
  ASSERT_EQ(r.code, 0) << r.out;
  int positions = 0, expected = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    std::string n = e.path().filename().string();
    positions += n.find(".position.json") != std::string::npos;
    expected += n.find(".expected.json") != std::string::npos;
  }
  EXPECT_GT(positions, 200);
  EXPECT_EQ(positions, expected);
  // An exported position answers its own question with the expected legality.
  EXPECT_TRUE(std::filesystem::exists(dir + "/README.md"));
}

}  // namespace
