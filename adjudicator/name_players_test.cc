// NamePlayers (verdict_text.cc) scans for "player N" by hand (start-up: compiling
// a std::regex cost 5 % of an adjudication). It must replace exactly what the regex
// \bplayer ([0-9]+)\b replaced before: hand-worked cases, then random texts against the regex.
#include <gtest/gtest.h>

#include <random>
#include <regex>
#include <string>
#include <vector>

#include "adjudicator/verdict_text.h"

namespace carc::adjudicator {
namespace {

using nlohmann::json;

const std::vector<std::string> kNames = {"Anna", "Ben", "Cleo"};

std::string Named(const std::string& s) {
  json j = {{"reason", s}};
  NamePlayers(j, kNames);
  return j["reason"];
}

// The replacement as it was done before: std::regex.
std::string ByRegex(const std::string& s) {
  static const std::regex re("\\bplayer ([0-9]+)\\b");
  std::string out;
  size_t last = 0;
  for (auto it = std::sregex_iterator(s.begin(), s.end(), re); it != std::sregex_iterator(); ++it) {
    const std::smatch& m = *it;
    const size_t n = std::stoul(m[1].str());
    out += s.substr(last, m.position(0) - last);
    out += n < kNames.size() ? kNames[n] : m[0].str();
    last = m.position(0) + m.length(0);
  }
  return out + s.substr(last);
}

TEST(NamePlayers, HandWorkedCases) {
  EXPECT_EQ(Named("player 0 scores 4 for the road"), "Anna scores 4 for the road");
  EXPECT_EQ(Named("player 1 and player 2 tie"), "Ben and Cleo tie");
  EXPECT_EQ(Named("(player 1)."), "(Ben).");
  EXPECT_EQ(Named("player 01"), "Ben");                // decimal digits, leading zero
  EXPECT_EQ(Named("player 3 left"), "player 3 left");  // no such player: kept
  EXPECT_EQ(Named("multiplayer 1"), "multiplayer 1");  // not a whole word before
  EXPECT_EQ(Named("player_1 player 1x player 1_"), "player_1 player 1x player 1_");
  EXPECT_EQ(Named("player 12a player 2"), "player 12a Cleo");
  EXPECT_EQ(Named("player  1 player"), "player  1 player");
  EXPECT_EQ(Named("player 2\xc3\xa9"), "Cleo\xc3\xa9");  // a non-ASCII byte ends the word
  // Data keys are not texts: the position and the stated action keep "player 1".
  json j = {{"position", "player 1"}, {"text", {"player 1", {{"stated", "player 0"}}}}};
  NamePlayers(j, kNames);
  EXPECT_EQ(j, json({{"position", "player 1"}, {"text", {"Ben", {{"stated", "player 0"}}}}}));
}

TEST(NamePlayers, SameAsTheRegexOnRandomTexts) {
  const unsigned seed = 21;
  std::mt19937 rng(seed);
  const std::vector<std::string> parts = {"player ", "player",   " ",        "0", "1", "2",
                                          "7",       "a",        "_",        "x", "(", ".",
                                          "multi",   "\xc3\xa9", "player 1", "9"};
  for (int round = 0; round < 3000; ++round) {
    std::string s;
    const int n = std::uniform_int_distribution<int>(0, 12)(rng);
    for (int k = 0; k < n; ++k)
      s += parts[std::uniform_int_distribution<size_t>(0, parts.size() - 1)(rng)];
    ASSERT_EQ(Named(s), ByRegex(s)) << "seed " << seed << " round " << round << ": \"" << s << "\"";
  }
}

}  // namespace
}  // namespace carc::adjudicator
