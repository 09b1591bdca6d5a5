// Unit tests of the Christmas Present tables and position-file round trip. Rules are tested by
// the fixtures (fixtures/christmas_present/, fixtures/combos/xmas_*).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

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

// The card table: every kind belongs to exactly one family, which lists it.
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

// The Christmas Present fixture positions (fixtures/christmas_present, fixtures/combos) with
// a Christmas Present section, parsed without their question.
std::vector<std::pair<std::string, model::Position>> FixturePositions() {
  namespace fs = std::filesystem;
  std::vector<std::pair<std::string, model::Position>> out;
  for (const char* dir : {"fixtures/christmas_present", "fixtures/combos"})
    for (const auto& e : fs::directory_iterator(fs::path(CARC_SOURCE_DIR) / dir)) {
      const std::string name = e.path().filename().string();
      if (name.find(".position.json") == std::string::npos) continue;
      std::ifstream in(e.path());
      nlohmann::json j = nlohmann::json::parse(in);
      j.erase("meta");
      j.erase("question");
      auto pos = model::ParsePosition(j, Context(name));
      if (pos.ok() && Slice(*pos)) out.emplace_back(name, *std::move(pos));
    }
  return out;
}

// Lean card window: on every Christmas Present fixture position, at every window and
// for every player, "is there a play?" (AnyPlay, stops at the first) agrees with the list of
// plays, and each listed play is legal under the explained check the adjudicator uses.
TEST(Plays, LeanListAgreesWithExplainedCheckOnFixtures) {
  int positions = 0, plays = 0;
  for (const auto& [name, position] : FixturePositions()) {
    const model::Position* pos = &position;
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

// FeatureTargetsIn (the advantage cards' walk from the features holding the player's
// figures) visits what the board walk with that filter visits, in the same order.
TEST(Plays, FeatureTargetsInVisitsWhatTheFilteredBoardWalkVisits) {
  int visited = 0;
  std::vector<std::pair<std::string, model::Position>> positions = FixturePositions();
  // Each also with its figures listed in reverse: the features holding them are then found in
  // another order than the board's.
  const size_t n = positions.size();
  for (size_t i = 0; i < n; ++i) {
    model::Position reversed = positions[i].second;
    std::reverse(reversed.figures.begin(), reversed.figures.end());
    positions.emplace_back(positions[i].first + " (figures reversed)", std::move(reversed));
  }
  for (const auto& [name, pos] : positions)
    for (Card c : {Card::kAdvantageRoad, Card::kAdvantageCity, Card::kAdvantageMonastery,
                   Card::kAdvantageField})
      for (model::PlayerId p = 0; p < static_cast<int>(pos.players.size()); ++p)
        for (bool own : {true, false}) {
          Play card;
          card.card = c;
          card.player = p;
          const internal::FigureRoots roots(pos, *Info(c).kind, p, own);
          std::vector<int> walk, in;
          internal::FeatureTargets(pos, card, /*per_segment=*/false, [&](const Play& t) {
            if (roots.Has(pos.board.Find(t.node))) walk.push_back(t.node);
            return false;
          });
          internal::FeatureTargetsIn(pos, card, roots, [&](const Play& t) {
            in.push_back(t.node);
            return false;
          });
          EXPECT_EQ(in, walk) << name << " " << Info(c).name << " player " << p;
          visited += static_cast<int>(in.size());
        }
  EXPECT_GT(visited, 100);
}

// the swaps' candidates are every pair (the player's figure, an opponent's figure)
// on features of the card's kind, the player's figures in figure order, each with the
// opponents' in figure order; one per kind of an owner's figures on a segment, the kind named
// only where the owner has figures of several kinds there (a meeple and a phantom).
TEST(Plays, SwapTargetsAreEveryPairInFigureOrder) {
  int pairs = 0;
  std::vector<std::pair<std::string, model::Position>> positions = FixturePositions();
  EXPECT_TRUE(std::any_of(positions.begin(), positions.end(), [](const auto& np) {
    return np.first.find("xmas_ph_swap02") != std::string::npos;
  }));
  for (const auto& [name, pos] : positions)
    for (Card c : {Card::kSwapMonastery, Card::kSwapCity, Card::kSwapRoad, Card::kSwapField})
      for (model::PlayerId p = 0; p < static_cast<int>(pos.players.size()); ++p) {
        Play card;
        card.card = c;
        card.player = p;
        const model::FeatureKind kind = *Info(c).kind;
        // Figure i's kind as a play names it (-1: its owner has one kind there), or -2: an
        // earlier figure of the same owner and kind stands on its segment (no play of its own).
        const auto named = [&](size_t i) {
          const auto& f = pos.figures[i];
          int out = -1;
          for (size_t k = 0; k < pos.figures.size(); ++k) {
            const auto& g = pos.figures[k];
            if (g.node != f.node || g.owner != f.owner) continue;
            if (g.kind == f.kind && k < i) return -2;
            if (g.kind != f.kind) out = f.kind;
          }
          return out;
        };
        std::vector<std::array<int, 5>> expected, listed;
        for (size_t i = 0; i < pos.figures.size(); ++i)
          for (size_t k = 0; k < pos.figures.size(); ++k) {
            const auto& f = pos.figures[i];
            const auto& g = pos.figures[k];
            if (f.owner == p && g.owner != p && pos.board.segment(f.node).kind == kind &&
                pos.board.segment(g.node).kind == kind && named(i) != -2 && named(k) != -2)
              expected.push_back({f.node, named(i), g.node, g.owner, named(k)});
          }
        FamilyOf(c).targets(pos, card, [&](const Play& t) {
          listed.push_back({t.node, t.figure_kind, t.other_node, t.other_owner, t.other_kind});
          return false;
        });
        EXPECT_EQ(listed, expected) << name << " " << Info(c).name << " player " << p;
        pairs += static_cast<int>(listed.size());
      }
  EXPECT_GT(pairs, 10);
}

// XMAS-CARD-SWAP-CITY, XMAS-FN8: a swap aimed at an opponent holding a cancel card waits for the
// answer; the play it leaves waiting is the same whichever equivalent wording the file used.
// Alena's meeple alone on D's city:N at (0,0), Boris's meeple alone on E's city:S at (0,1)
// (turned 180); with the Phantom each could have two kinds, but each owner has one kind there,
// so a kind stated adds nothing, and Boris is the only owner on the other city, so naming him
// adds nothing: four wordings, one play. Worked out by hand: Alena's swap-city waits for Boris
// (waiting [1]), stored as the listed form: own and other, other_owner 1, no kind; her hand is
// empty.
TEST(Plays, EquivalentSwapWordingsLeaveTheSamePendingAttack) {
  const nlohmann::json own = {{"x", 0}, {"y", 0}, {"feature", "city:N"}};
  const nlohmann::json other = {{"x", 0}, {"y", 1}, {"feature", "city:S"}};
  nlohmann::json j = {
      {"rules",
       {{"edition", "C3"},
        {"expansions", {"phantom", "christmas_present"}},
        {"options", {{"farm_scoring", "per-farm"}}}}},
      {"players", {{{"name", "Alena"}}, {{"name", "Boris"}}}},
      {"board",
       {{{"tile", "D"}, {"x", 0}, {"y", 0}, {"rotation", 0}},
        {{"tile", "E"}, {"x", 0}, {"y", 1}, {"rotation", 180}}}},
      {"figures",
       {{{"owner", 0}, {"kind", "meeple"}, {"x", 0}, {"y", 0}, {"feature", "city:N"}},
        {{"owner", 1}, {"kind", "meeple"}, {"x", 0}, {"y", 1}, {"feature", "city:S"}}}},
      {"supply", {{"draw_order", {"U"}}}},
      {"turn", {{"player", 0}, {"step", "draw"}}},
      {"expansions",
       {{"christmas_present",
         {{"decks", {{"monastery", nlohmann::json::array()}, {"road", nlohmann::json::array()}}},
          {"hands", {{"swap-city"}, {"cancel-attack"}}},
          {"discard", "rest"}}}}}};
  const nlohmann::json base = {
      {"type", "xmas_play"}, {"card", "swap-city"}, {"own", own}, {"other", other}};
  std::vector<nlohmann::json> wordings(4, base);
  wordings[1]["other_owner"] = 1;
  wordings[2]["own_figure"] = "meeple";
  wordings[2]["other_figure"] = "meeple";
  wordings[3]["other_owner"] = 1;
  wordings[3]["own_figure"] = "meeple";
  const nlohmann::json expected_pending = {{"action",
                                            {{"type", "xmas_play"},
                                             {"card", "swap-city"},
                                             {"player", 0},
                                             {"own", own},
                                             {"other", other},
                                             {"other_owner", 1}}},
                                           {"waiting", {1}}};
  std::vector<nlohmann::json> dumps;
  for (const nlohmann::json& w : wordings) {
    auto pos = model::ParsePosition(j, Context("test"));
    ASSERT_TRUE(pos.ok()) << pos.status().message();
    auto a = model::ParseAction(w, *pos, "/action", Context("test"));
    ASSERT_TRUE(a.ok()) << a.status().message();
    model::ApplyResult r = model::Apply(*pos, *a, /*finish_turn=*/false);
    ASSERT_TRUE(r.verdict.legal && r.input_error.empty()) << w.dump() << " " << r.input_error;
    dumps.push_back(model::DumpPosition(*pos));
    const nlohmann::json& section = dumps.back()["expansions"]["christmas_present"];
    EXPECT_EQ(section["pending_attack"], expected_pending) << w.dump();
    EXPECT_EQ(section["hands"][0], nlohmann::json::array()) << w.dump();
  }
  for (size_t i = 1; i < dumps.size(); ++i)
    EXPECT_EQ(dumps[i], dumps[0]) << wordings[i].dump() << " vs " << wordings[0].dump();
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
