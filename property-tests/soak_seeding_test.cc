// the soak's seeded games (SeededSpec) reach every expansion step at least once per 10
// games: over a fixed run of 40 games with all four expansions, each step below has a decision
// in at least 4 of them. "Reached" is a decision taken at the step (a step that needs none is
// passed through without one), as the soak counts them (StepVisits).
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <string>

#include "model/expansions/gifts/gifts.h"
#include "model/expansions/registry.h"
#include "property-tests/checks.h"
#include "property-tests/gen_game.h"

namespace carc::prop {
namespace {

constexpr int kGames = 40;

// Games (of kGames, seed 1 drawn as the soak draws game seeds) with a decision at each step.
const std::map<std::string, int>& GamesReaching() {
  static const std::map<std::string, int> reaching = [] {
    std::map<std::string, int> out;
    std::mt19937_64 rng(1);
    for (int n = 0; n < kGames; ++n) {
      const uint64_t game_seed = rng();
      rng();  // the soak's salt for the checks
      const Game g = Playout(SeededSpec(game_seed, exp::Ids()));
      EXPECT_EQ(g.error, "") << "game " << n;
      for (const auto& [step, visits] : StepVisits(g))
        if (visits > 0) ++out[step];
    }
    return out;
  }();
  return reaching;
}

int Reaching(const std::string& step) {
  const auto it = GamesReaching().find(step);
  return it == GamesReaching().end() ? 0 : it->second;
}

// The four expansions are registered (the test is about their steps).
TEST(SoakSeeding, AllFourExpansionsAreRegistered) { EXPECT_EQ(exp::Ids().size(), 4u); }

// The Messengers: a message (drawn, sealed or carried out at the message step) and the choice of
// the scoring figure for points.
TEST(SoakSeeding, MessagesAreReachedOncePer10Games) {
  EXPECT_GE(Reaching("message"), kGames / 10);
  EXPECT_GE(Reaching("assign_points"), kGames / 10);
}

// The Gifts: a gift opened (open_gift), a gift drawn (draw_gift: the card drawn from the
// unordered deck is a decision) and the two tiles of Take 2 (take_2).
TEST(SoakSeeding, GiftsAreReachedOncePer10Games) {
  EXPECT_GE(Reaching("open_gift"), kGames / 10);
  EXPECT_GE(Reaching("draw_gift"), kGames / 10);
  EXPECT_GE(Reaching("take_2"), kGames / 10);
}

// Christmas Present: the card windows of the turn (turn start, before the tile, after the tile,
// after the figure), the two card draws, the hand limit (xmas_hand_limit: more than five cards
// at the end of one's turn, reached by the hoarding players of SeededSpec) and the window at the
// game's end (kGameEndCardsKey: xmas_turn_start once no tile is left, where a held
// advantage-field card is revealed when its holder shares a field's lead). The step
// xmas_end_cards itself never takes a decision (it discards unused lightning cards and
// modifiers at the end of each turn), so it is not counted.
TEST(SoakSeeding, EveryChristmasCardWindowIsReachedOncePer10Games) {
  for (const char* step :
       {"xmas_turn_start", "xmas_place_window", "xmas_cards_early", "xmas_cards_late",
        "xmas_draw_road", "xmas_draw_monastery", "xmas_hand_limit"})
    EXPECT_GE(Reaching(step), kGames / 10) << step;
  EXPECT_GE(Reaching(std::string(kGameEndCardsKey)), kGames / 10);
}

TEST(SoakSeeding, TheForcedPlacementIsReachedOncePer10Games) {
  EXPECT_GE(Reaching(std::string(kForcedPlacementKey)), kGames / 10);
}

// The soak's sampling policy (SoakPolicy, checks.h): the costlier per-position checks run at
// every decision of a step the game takes at most rare_step_at_most times, and --every-decision
// runs every check at every decision. Counted with the soak's tally on seeded games.
TEST(SoakPolicy, RareStepsAreCheckedAtEveryDecision) {
  std::mt19937_64 rng(3);
  int total_rare = 0;
  for (int n = 0; n < 4; ++n) {
    const uint64_t game_seed = rng(), salt = rng();
    const Game g = Playout(SeededSpec(game_seed, {std::string(exp::gifts::kId)}));
    ASSERT_EQ(g.error, "");
    int rare = 0;  // decisions at a step taken at most 3 times in the game
    const std::map<std::string, int> visits = StepVisits(g);
    for (const model::Position& at : g.before)
      rare += visits.at(std::string(at.current_step().Name())) <= 3 ? 1 : 0;
    total_rare += rare;
    CheckTally tally;
    ASSERT_FALSE(CheckAll(g, salt, SoakPolicy{}, &tally).has_value());
    // Conservation at every decision and at the end; the round trip also at the end.
    EXPECT_EQ(tally.runs["conservation"], g.decisions() + 1);
    EXPECT_GE(tally.runs["round-trip"], rare + 1) << "game " << n;
    EXPECT_LT(tally.runs["round-trip"], g.decisions() + 1) << "game " << n << ": not sampled";
    EXPECT_EQ(tally.runs["unused-expansion (game)"], 1);
    // With (practically) no sampled decisions: exactly the rare ones and the end.
    CheckTally rare_only;
    ASSERT_FALSE(CheckAll(g, salt, SoakPolicy{.position_one_in = 1 << 30}, &rare_only).has_value());
    EXPECT_EQ(rare_only.runs["round-trip"], rare + 1) << "game " << n;
    EXPECT_EQ(rare_only.runs["features"], rare) << "game " << n;
  }
  EXPECT_GT(total_rare, 0) << "no rare step in the 4 games: the test tests nothing";
}

TEST(SoakPolicy, EveryDecisionChecksEveryDecision) {
  std::mt19937_64 rng(4);
  const uint64_t game_seed = rng(), salt = rng();
  const Game g = Playout(SeededSpec(game_seed, {}));  // the base game: a cheap brute force
  ASSERT_EQ(g.error, "");
  CheckTally tally;
  ASSERT_FALSE(CheckAll(g, salt, SoakPolicy{.every_decision = true}, &tally).has_value());
  for (const char* check : {"brute-force", "features", "outside-refused", "listed-actions-apply"})
    EXPECT_EQ(tally.runs[check], g.decisions()) << check;
  EXPECT_EQ(tally.runs["round-trip"], g.decisions() + 1);
}

}  // namespace
}  // namespace carc::prop
