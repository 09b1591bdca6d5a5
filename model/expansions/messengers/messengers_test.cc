// Unit tests of the Messengers module: numbering tables (MSG-FN2, MSG-FN18), the section's
// round trip, and short playouts in which every listed action applies and keeps the position
// valid (MSG-CHOOSE: score = meeple + dame + waiting points).
#include "model/expansions/messengers/messengers.h"

#include <gtest/gtest.h>

#include <random>

#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"

namespace carc::exp::messengers {
namespace {

using nlohmann::json;

TEST(MessengersNumbering, TablesAreInverse) {
  for (Numbering n : {Numbering::kHig, Numbering::kMindokBb6})
    for (int i = 0; i < kMessages; ++i) {
      Message m = static_cast<Message>(i);
      EXPECT_EQ(MessageByNumber(n, MessageNumber(n, m)), m);
      EXPECT_EQ(ParseMessageName(MessageName(m)), m);
    }
  // MSG-FN2: Mindok Big Box 6 moved 4 to 7, 5 to 4, 6 to 5, 7 to 6.
  EXPECT_EQ(MessageNumber(Numbering::kMindokBb6, Message::kExtraTile), 7);
  EXPECT_EQ(MessageNumber(Numbering::kMindokBb6, Message::kCoatsOfArms), 4);
  // MSG-FN18: knights and farmers are 5 and 6 there.
  EXPECT_EQ(MessageNumber(Numbering::kMindokBb6, Message::kKnights), 5);
  EXPECT_EQ(MessageNumber(Numbering::kMindokBb6, Message::kFarmers), 6);
  EXPECT_EQ(MessageNumber(Numbering::kHig, Message::kKnights), 6);
}

json Start(int seed_tiles) {
  json order = json::array();
  const char* tiles = "UVEKJLWBAUVDHIEFUVKJAWNPRUVE";
  for (int i = 0; i < seed_tiles; ++i) order.push_back(std::string(1, tiles[i % 28]));
  return {{"rules", {{"edition", "C3"}, {"expansions", {"messengers"}}}},
          {"players", {{{"name", "A"}}, {{"name", "B"}}}},
          {"board", {{{"tile", "D"}, {"x", 0}, {"y", 0}}}},
          {"supply", {{"draw_order", order}}},
          {"turn", {{"player", 0}, {"step", "draw"}}}};
}

TEST(MessengersState, SectionRoundTrips) {
  json j = Start(3);
  j["players"][0]["score"] = 16;
  j["expansions"] = {{"messengers",
                      {{"variant", "revision-2025"},
                       {"variants", {{"MSG-Q-8-RETURN", "return-only-with-majority"}}},
                       {"numbering", "mindok-bb6"},
                       {"tracks", {{{"meeple", 12}, {"dame", 4}}, {{"meeple", 0}, {"dame", 0}}}},
                       {"stack",
                        {"knights", "smallest-road", "smallest-city", "monastery", "extra-tile",
                         "coats-of-arms", "farmers", "score-and-return"}}}}};
  auto pos = model::ParsePosition(j, Context("t.json"));
  ASSERT_TRUE(pos.ok()) << pos.status().message();
  json d = model::DumpPosition(*pos);
  auto again = model::ParsePosition(d, Context("t.json"));
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_EQ(model::DumpPosition(*again), d);
  EXPECT_EQ(d["expansions"]["messengers"]["variant"], "revision-2025");
  // The reading is written back by ruling ID under "variants"; "readings" is retired.
  EXPECT_EQ(d["expansions"]["messengers"]["variants"],
            json({{"MSG-Q-8-RETURN", "return-only-with-majority"}}));
  EXPECT_FALSE(d["expansions"]["messengers"].contains("readings"));
  EXPECT_TRUE(model::Validate(*again).empty());
}

TEST(MessengersPlayout, ListedActionsApplyAndValidate) {
  for (int seed = 0; seed < 20; ++seed) {
    auto parsed = model::ParsePosition(Start(24), Context("p.json"));
    ASSERT_TRUE(parsed.ok()) << parsed.status().message();
    model::Position pos = std::move(*parsed);
    model::ApplyResult first;
    model::Advance(pos, first);
    std::mt19937 rng(seed);
    for (int guard = 0; guard < 400 && !pos.turn.game_over; ++guard) {
      auto legal = model::LegalActions(pos);
      ASSERT_FALSE(legal.empty()) << model::DumpPosition(pos).dump();
      const auto& a = legal[rng() % legal.size()];
      // The dumped action reads back as the same action (replay).
      auto back = model::ParseAction(model::DumpAction(pos, a), pos, "/a", Context("p.json"));
      ASSERT_TRUE(back.ok()) << back.status().message();
      EXPECT_TRUE(*back == a) << model::DumpAction(pos, a).dump();
      auto r = model::Apply(pos, a);
      ASSERT_TRUE(r.verdict.legal && r.input_error.empty()) << r.input_error;
      auto vs = model::Validate(pos);
      ASSERT_TRUE(vs.empty()) << vs.front().ruling << " " << vs.front().text << "\n"
                              << model::DumpPosition(pos).dump();
      json d = model::DumpPosition(pos);
      auto rt = model::ParsePosition(d, Context("p.json"));
      ASSERT_TRUE(rt.ok()) << rt.status().message();
      EXPECT_EQ(model::DumpPosition(*rt), d);
    }
    EXPECT_TRUE(pos.turn.game_over);
    // MSG-FINAL: one figure holds the sum.
    const State& s = Slice(pos);
    for (size_t p = 0; p < pos.players.size() && p < s.tracks.size(); ++p)
      EXPECT_EQ(s.tracks[p].points[0], pos.players[p].score);
  }
}

}  // namespace
}  // namespace carc::exp::messengers
