// Unit tests of The Gifts' GIFT-Q-LYING, a figure lying on a road (a Christmas Present
// lay-down), and GIFT-Q-ADVANTAGE (advantage cards in the gift test, lean and explained).
// Written when the position format rejected "lying" off a field; it now accepts it when an
// expansion's state justifies it, and the fixtures state such positions too.
#include "model/expansions/gifts/gifts.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/gifts/cards.h"
#include "model/expansions/gifts/state.h"
#include "model/expansions/registry.h"

namespace carc::exp::gifts {
namespace {

using model::Action;
using model::FeatureKind;
using model::Position;
using nlohmann::json;

// D at (0,0) (city N, road EW, a north and a south field); Red's meeple on the road; Red holds
// Change Position and has drawn U.
Position Start(const char* lying_variant) {
  json j = {{"rules", {{"edition", "C3"}, {"expansions", {"gifts"}}}},
            {"players", {{{"name", "Red"}}, {{"name", "Blue"}}}},
            {"board", {{{"tile", "D"}, {"x", 0}, {"y", 0}, {"rotation", 0}}}},
            {"figures", {{{"owner", 0}, {"x", 0}, {"y", 0}, {"feature", "road:EW"}}}},
            {"supply", {{"draw_order", {"U"}}}},
            {"turn", {{"player", 0}, {"step", "draw"}}},
            {"expansions",
             {{"gifts",
               {{"hands", {{"change_position"}, json::array()}},
                {"variants", {{"GIFT-Q-LYING", lying_variant}}}}}}}};
  auto pos = model::ParsePosition(j, Context("test"));
  EXPECT_TRUE(pos.ok()) << pos.status().message();
  model::ApplyResult r;
  model::Advance(*pos, r);
  EXPECT_EQ(pos->current_step().Name(), kOpenStep);
  return std::move(*pos);
}

// The kinds of the features the figure may change to, after opening Change Position on it.
std::vector<FeatureKind> Targets(Position pos) {
  model::ApplyResult r =
      model::Apply(pos, OpenAction(Card::kChangePosition, pos.figures[0].node, model::kMeeple),
                   /*finish_turn=*/false);
  EXPECT_TRUE(r.verdict.legal && r.input_error.empty());
  std::vector<FeatureKind> out;
  for (const Action& a : model::LegalActions(pos)) out.push_back(pos.board.segment(kToArg(a)).kind);
  return out;
}

using K = std::vector<FeatureKind>;

// GIFT-FN7: a standing figure only lies down in a field of its tile (either reading).
TEST(GiftsChangePosition, StandingThiefLiesDownInEitherReading) {
  EXPECT_EQ(Targets(Start("feature-based")), (K{FeatureKind::kField, FeatureKind::kField}));
  EXPECT_EQ(Targets(Start("posture-literal")), (K{FeatureKind::kField, FeatureKind::kField}));
}

// GIFT-Q-LYING, adopted feature-based: a laid-down thief goes to a field, like a standing one.
TEST(GiftsChangePosition, LyingThiefFeatureBasedGoesToAField) {
  Position pos = Start("feature-based");
  pos.figures[0].lying = true;
  EXPECT_EQ(Targets(pos), (K{FeatureKind::kField, FeatureKind::kField}));
}

// GIFT-Q-LYING, variant posture-literal: a laid-down thief may only stand up, on a road, city or
// monastery of its tile, its own road included (undoing the lay-down): here the city and the
// road.
TEST(GiftsChangePosition, LyingThiefPostureLiteralStandsUp) {
  Position pos = Start("posture-literal");
  pos.figures[0].lying = true;
  EXPECT_EQ(Targets(pos), (K{FeatureKind::kCity, FeatureKind::kRoad}));
}

// GIFT-Q-ADVANTAGE on the combos fixtures, worked out by hand (their "why"): does Red's tile earn
// a gift? Both the lean path (explain off: the turn's step reads Earned without reasons) and the
// explained one give the hand answer, and the explained one names the crux.
TEST(GiftsAdvantage, LeanAndExplainedGiveTheHandAnswer) {
  const std::pair<const char*, bool> cases[] = {
      {"gift_xmas08_opponent_card_makes_city_blues_gift", true},      // Blue 1 + card vs Red 1
      {"gift_xmas09_opponent_card_figures_only_no_gift", false},      // figures-only: 1-1 tie
      {"gift_xmas10_own_card_ties_no_gift", false},                   // Red 1 + card vs Blue 2
      {"gift_xmas11_own_card_figures_only_gift", true},               // figures-only: Blue 2-1
      {"gift_xmas12_own_card_lost_majority_test_when_scored", true},  // card lapses: Blue 2-1
      // 3 and 4 players (XMAS-FN13: two cards on a tie of three or more)
      {"gift_xmas15_three_tied_two_opponent_cards_gift", true},               // R1 B1+c G1+c
      {"gift_xmas16_three_tied_two_cards_figures_only_no_gift", false},       // figures-only: 1-1-1
      {"gift_xmas17_opponents_tied_above_mover_card_gift", true},             // R1 B2+c G2
      {"gift_xmas18_mover_and_opponent_cards_three_way_tie_no_gift", false},  // R1+c B2 G1+c
      {"gift_xmas19_mover_and_opponent_cards_figures_only_gift", true},       // figures: B2
      {"gift_xmas20_mover_and_opponent_cards_test_when_scored_gift", true},   // cards lapse
      {"gift_xmas21_mover_card_without_figure_ties_no_gift", false},          // R0+c B1 G1
      {"gift_xmas22_mover_card_without_figure_test_when_scored_gift", true},
      {"gift_xmas23_mover_card_without_figure_figures_only_gift", true},
      {"gift_xmas24_four_tied_two_opponent_cards_gift", true},          // R1 B1+c G1+c Y1
      {"gift_xmas25_four_tied_two_cards_figures_only_no_gift", false},  // figures-only: 1-1-1-1
      {"gift_xmas26_four_opponent_card_breaks_tie_gift", true}};        // R1 B1+c G1 Y1
  for (const auto& [name, gift] : cases)
    for (bool explain : {true, false}) {
      std::ifstream in(std::string(CARC_SOURCE_DIR) + "/fixtures/combos/" + name +
                       ".position.json");
      json j = json::parse(in);
      const json action = j["question"]["actions"][0];
      j.erase("meta");
      j.erase("question");
      auto pos = model::ParsePosition(j, Context(name));
      ASSERT_TRUE(pos.ok()) << pos.status().message();
      pos->explain = explain;
      model::ApplyResult r;
      model::Advance(*pos, r);
      auto a = model::ParseAction(action, *pos, "/question/actions/0", Context(name));
      ASSERT_TRUE(a.ok()) << a.status().message();
      r = model::Apply(*pos, *a, /*finish_turn=*/false);
      ASSERT_TRUE(r.verdict.legal && r.input_error.empty()) << name;
      model::Advance(*pos, r);  // the automatic steps up to the next decision (draw_gift)
      EXPECT_EQ(pos->current_step().Name(), "place_figure") << name;
      EXPECT_EQ(Total(Slice(*pos).hands[0]), gift ? 1 : 0) << name << " explain " << explain;
      EXPECT_EQ(Earned(*pos, nullptr), gift) << name;
      std::vector<model::Reason> why;
      EXPECT_EQ(Earned(*pos, &why), gift) << name;
      bool crux = false;
      for (const model::Reason& w : why) crux |= w.ruling == "GIFT-Q-ADVANTAGE";
      EXPECT_TRUE(crux) << name << ": the verdict must name the advantage card";
    }
}

}  // namespace
}  // namespace carc::exp::gifts
