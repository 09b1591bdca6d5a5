// Unit tests of the Christmas Present tables and position-file round trip. Rules are tested by
// the fixtures (fixtures/christmas_present/, fixtures/combos/xmas_*).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/christmas_present/cards.h"
#include "model/expansions/christmas_present/family.h"
#include "model/expansions/christmas_present/logic.h"
#include "model/expansions/christmas_present/state.h"
#include "model/expansions/registry.h"

namespace carc::exp::christmas_present {
namespace {

TEST(Cards, SixteenKindsPerDeckWithUniqueNames) {
  int per_deck[2] = {0, 0};
  std::set<std::string> names, rulings;
  for (int k = 0; k < kCardKinds; ++k) {
    const CardInfo& ci = Info(static_cast<Card>(k));
    EXPECT_EQ(static_cast<int>(ci.card), k);
    per_deck[static_cast<int>(ci.deck)]++;
    EXPECT_TRUE(names.insert(ci.name).second) << ci.name;
    EXPECT_TRUE(rulings.insert(ci.ruling).second) << ci.ruling;
    EXPECT_EQ(ParseCard(ci.name), ci.card);
  }
  EXPECT_EQ(per_deck[0], 16);
  EXPECT_EQ(per_deck[1], 16);
}

// The card table (issue 20): every kind belongs to exactly one family, which lists it.
TEST(Cards, EveryKindInExactlyOneFamily) {
  std::vector<int> seen(kCardKinds, 0);
  for (const Family* f :
       {&PointsCards(), &FigureCards(), &ModifierCards(), &LayDownCards(), &AdvantageCards(),
        &MoveCards(), &ReturnCards(), &TakeTwoCards(), &ForceCards(), &OtherCards()})
    for (Card c : f->cards) {
      ++seen[static_cast<int>(c)];
      EXPECT_EQ(&FamilyOf(c), f) << Info(c).name;
    }
  for (int k = 0; k < kCardKinds; ++k) EXPECT_EQ(seen[k], 1) << Info(static_cast<Card>(k)).name;
  // The action layouts of the old per-card code: force-placement a square, take-two-tiles two
  // tiles, the swaps two figures; 3-points and the cards no xmas_play plays name no feature.
  EXPECT_EQ(FamilyOf(Card::kForcePlacement).shape, Shape::kSquare);
  EXPECT_EQ(FamilyOf(Card::kTakeTwoTiles).shape, Shape::kTiles);
  EXPECT_EQ(FamilyOf(Card::kSwapField).shape, Shape::kTwoFigures);
  EXPECT_FALSE(NamesFeature(Card::k3Points));
  EXPECT_FALSE(NamesFeature(Card::kFieldLeadBonus));
  EXPECT_TRUE(NamesFeature(Card::kAdvantageField));
  EXPECT_TRUE(NamesFeature(Card::kReturnFigure));
}

// Lean card window (issue 21): on every Christmas Present fixture position, at every window and
// for every player, "is there a play?" (AnyPlay, stops at the first) agrees with the list of
// plays, and each listed play is legal under the explained check the adjudicator uses.
TEST(Plays, LeanListAgreesWithExplainedCheckOnFixtures) {
  namespace fs = std::filesystem;
  int positions = 0, plays = 0;
  for (const char* dir : {"fixtures/christmas_present", "fixtures/combos"})
    for (const auto& e : fs::directory_iterator(fs::path(CARC_SOURCE_DIR) / dir)) {
      const std::string name = e.path().filename().string();
      if (name.find(".position.json") == std::string::npos) continue;
      std::ifstream in(e.path());
      nlohmann::json j = nlohmann::json::parse(in);
      j.erase("meta");
      j.erase("question");
      auto pos = model::ParsePosition(j, Context(name));
      if (!pos.ok() || !Slice(*pos)) continue;
      ++positions;
      for (Window w : {Window::kTurnStart, Window::kPlacement, Window::kEarly, Window::kLate,
                       Window::kForce, Window::kGameEnd})
        for (model::PlayerId p = 0; p < static_cast<int>(pos->players.size()); ++p) {
          std::vector<model::Action> list;
          ListPlays(*pos, w, p, list);
          EXPECT_EQ(AnyPlay(*pos, w, p), !list.empty()) << name << " window " << int(w);
          for (const model::Action& a : list) {
            ++plays;
            EXPECT_TRUE(CheckPlay(*pos, DecodePlay(a), w).legal) << name << " window " << int(w);
          }
        }
    }
  EXPECT_GT(positions, 100);
  EXPECT_GT(plays, 100);
}

TEST(Variants, EveryDisputeHasAnAdoptedReadingAndAVariant) {
  for (int d = 0; d < kDisputes; ++d)
    EXPECT_GE(Disputes(static_cast<Dispute>(d)).readings.size(), 2u);
}

TEST(Section, RoundTrips) {
  nlohmann::json j = {
      {"rules", {{"edition", "C3"}, {"expansions", {"christmas_present"}}}},
      {"players", {{{"name", "A"}}, {{"name", "B"}}}},
      {"board", {{{"tile", "D"}, {"x", 0}, {"y", 0}}, {{"tile", "U"}, {"x", 1}, {"y", 0}}}},
      {"figures", {{{"owner", 1}, {"x", 0}, {"y", 0}, {"feature", "road:EW"}}}},
      {"supply", {{"remaining", {{"U", 1}}}}},
      {"turn", {{"player", 0}, {"step", "draw"}}},
      {"expansions",
       {{"christmas_present",
         {{"variants", {{"XMAS-Q-LOOP", "geometric-loop"}}},
          {"decks", {{"monastery", {"3-points"}}, {"road", {"swap-city"}}}},
          {"hands", {{"cancel-attack"}, {"force-placement"}}},
          {"laid_down", {{{"x", 1}, {"y", 0}, {"feature", "road:E"}}}},
          {"forces", {{{"holder", 1}, {"target", 0}, {"x", 0}, {"y", -1}}}},
          {"attached",
           {{{"player", 1},
             {"card", "advantage-road"},
             {"x", 0},
             {"y", 0},
             {"feature", "road:W"}}}},
          {"discard", "rest"}}}}}};
  auto pos = model::ParsePosition(j, Context("test"));
  ASSERT_TRUE(pos.ok()) << pos.status().message();
  EXPECT_TRUE(model::Validate(*pos).empty()) << model::Validate(*pos).front().text;
  nlohmann::json dumped = model::DumpPosition(*pos);
  auto again = model::ParsePosition(dumped, Context("dump"));
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_TRUE(Slice(*again)->Same(*Slice(*pos))) << dumped.dump(1);
  EXPECT_EQ(model::DumpPosition(*again), dumped);
}

TEST(Section, UnknownReadingIsAnUnknownRule) {
  nlohmann::json j = {
      {"rules", {{"expansions", {"christmas_present"}}}},
      {"players", {{{"name", "A"}}, {{"name", "B"}}}},
      {"board", {{{"tile", "D"}, {"x", 0}, {"y", 0}}}},
      {"expansions", {{"christmas_present", {{"variants", {{"XMAS-Q-LOOP", "spiral"}}}}}}}};
  auto pos = model::ParsePosition(j, Context("test"));
  ASSERT_FALSE(pos.ok());
  EXPECT_EQ(pos.status().code(), model::ErrorCode::kUnknownRules);
  EXPECT_NE(pos.status().message().find("/expansions/christmas_present/variants/XMAS-Q-LOOP"),
            std::string::npos);
}

}  // namespace
}  // namespace carc::exp::christmas_present
