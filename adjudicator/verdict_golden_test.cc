// Golden verdicts: the whole text verdict of one dispute of each kind, worked out by
// hand from the rules (the comment after each line says which rule gives it; coordinates: x
// east, y south; a tile's features are listed in its table orientation, model/core/
// tile_catalog.cc, then turned clockwise by its rotation). The quoted rulings at the end come
// from database/rulings/*.json and are checked in verdict_test.cc, not here.
#include "adjudicator/verdict_golden.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "adjudicator/adjudicate.h"

namespace carc::adjudicator {

// Farm (fixtures/base/disputes/d01): Ben says his farmer south of the road touches the city too.
// D(0,0): city N, road E-W; its field north of the road (EL, WR) touches the city, the field
// south of the road (ER, SL, SR, WL) touches nothing. E(0,-1) turned 180 closes D's city;
// E(1,-1) turned 90 (city E) and E(2,-1) turned 270 (city W) make a second completed city;
// E(-1,-1) turned 270 (city W) is open to the west. Anna's farmer lies in U(1,0)'s north field,
// which runs through D's north strip and the E tiles' fields; Ben's lies south of the road.
TEST(GoldenVerdict, FarmAcrossTheRoad) {
  ExpectLines(
      Verdict("base/disputes/d01_farm_across_the_road.position.json", 1),
      {
          "File:     base/disputes/d01_farm_across_the_road.position.json",
          "Rules:    C3",
          "Question: final_score",
          "Verdict:  rejected",  // the claim [6, 3] is wrong
          "  [BASE-END] final scoring of every unfinished feature and farm",
          // BASE-END-FARM: 3 per completed city touching the farm.
          "  score field (final): 6 to [\"Anna\"] = 3 x 2 completed cities  "
          "[\"BASE-MAJORITY\",\"BASE-END-FARM\"]",
          // The farm's tiles by adjacency, from D's north strip: U's north field, the E at
          // (1,-1) above it, the E at (0,-1) to its west, the E at (-1,-1).
          "      tiles: (0, 0), (1, 0), (1, -1), (0, -1), (-1, -1)",
          "      supplies the completed city on (0, 0), (0, -1)",   // D + E: closed
          "      supplies the completed city on (1, -1), (2, -1)",  // E + E: closed
          // BASE-END-FARM: an incomplete city pays nothing; E(-1,-1) is open to the west.
          "      touches the city on (-1, -1), which is not completed: left out (BASE-END-FARM)",
          "      figures: Anna's farmer at (1, 0)",  // a meeple on a field is a farmer
          "      majority: only Anna has figures here: Anna scores 6",  // BASE-MAJORITY
          // Ben's farm: D's and U's strips south of the road; the road cuts it off the cities.
          "  score field (final): 0 to [\"Ben\"] = 3 x 0 completed cities  "
          "[\"BASE-MAJORITY\",\"BASE-END-FARM\"]",
          "      tiles: (0, 0), (1, 0)",
          "      touches no city: nothing to pay (BASE-END-FARM)",
          "      figures: Ben's farmer at (0, 0)",
          "      majority: only Ben has figures here: Ben scores 0",
          "Claim:    rejected",
          "  claim: claimed scores [6,3], but the rules give [6,0]",
          "Scores:   [6,0]",
          "Cited:    [\"BASE-END\",\"BASE-MAJORITY\",\"BASE-END-FARM\"]",
      });
}

// Junction (fixtures/base/disputes/d02): Anna's thief is on D's road at (0,0); W at (1,0)
// turned 180 is a junction (roads N, E, W); Ben's U at (2,0) continues the junction's east
// road. BASE-MEEPLE-FREE: that road holds no figure; the crux is where it ends.
TEST(GoldenVerdict, RoadBeyondTheJunction) {
  ExpectLines(
      Verdict("base/disputes/d02_road_claimed_beyond_junction.position.json", 0),
      {
          "File:     base/disputes/d02_road_claimed_beyond_junction.position.json",
          "Rules:    C3",
          "Question: apply",
          "Verdict:  upheld",  // Ben's claim: legal
          "  legal:   place tile U at (2, 0) rotated 0",
          "      [BASE-PLACE-EDGE] tile U at (2, 0) matches every neighbour",  // road W meets W's E
                                                                               // road
          "  legal:   place a thief on road:EW of the tile at (2, 0)",         // a meeple on a road
          // BASE-FEATURE-JOIN: the road stops at the junction drawn on (1,0); (3,0) is empty.
          "      [BASE-MEEPLE-FREE] the road through (1, 0), (2, 0) (it ends at the junction at "
          "(1, 0) and an open edge on the E side of (2, 0)) holds no figure anywhere; "
          // The thief nearby: D's road runs into the junction's W side and stops there.
          "Anna's thief at (0, 0) is on another road, which ends at the junction at (1, 0)",
          "      [BASE-MEEPLE-TILE] the thief goes on the tile just placed",
          "Claim:    upheld",
          "Scores:   [0,0]",  // nothing completed
          "Cited:    [\"BASE-PLACE-EDGE\",\"BASE-MEEPLE-FREE\",\"BASE-MEEPLE-TILE\"]",
      });
}

// Tie (fixtures/base/disputes/d04): W(-1,0) and W(2,0) are junctions; U at (1,0) joins D's road
// (Anna's thief) and W(2,0)'s west road (Ben's thief): 4 tiles. Anna claims half points each.
TEST(GoldenVerdict, TieScoresInFull) {
  ExpectLines(
      Verdict("base/disputes/d04_tie_half_points.position.json", 1),
      {
          "File:     base/disputes/d04_tie_half_points.position.json",
          "Rules:    C3",
          "Question: apply",
          "Verdict:  rejected",
          "  legal:   place tile U at (1, 0) rotated 0",
          // BASE-FEATURE-JOIN: joining occupied roads is legal; both thieves now share one road.
          "      [BASE-FEATURE-JOIN] the tile joins features that already hold figures into one, "
          // The road's tiles from end to end; how the two thieves meet: through the new tile.
          "so all their figures now share it: the road through (-1, 0), (0, 0), (1, 0), (2, 0) "
          "(it ends at the junction at (-1, 0) and the junction at (2, 0)) holds Anna's thief "
          "at (0, 0) and Ben's thief at (2, 0); from Ben's thief at (2, 0) road:W the road runs "
          "through (1, 0) to Anna's thief at (0, 0)",
          "      [BASE-PLACE-EDGE] tile U at (1, 0) matches every neighbour",
          "  legal:   pass: places no figure",
          // BASE-SCORE-ROAD: 1 per tile, scored when the turn's scoring comes (BASE-SCORE-TIMING).
          "      score road (completed): 4 to [\"Anna\",\"Ben\"] = 1 x 4 tiles  "
          "[\"BASE-SCORE-ROAD\",\"BASE-MAJORITY\",\"BASE-SCORE-TIMING\"]",
          "          tiles: (-1, 0), (0, 0), (1, 0), (2, 0)",  // from end to end
          "          ends at the junction at (-1, 0) and the junction at (2, 0)",
          "          figures: Anna's thief at (0, 0) and Ben's thief at (2, 0)",
          // BASE-FEATURE-JOIN: the thieves have gone home, the segments they stood on remain.
          // D and U have one road each; W turned 180 has three (W, N, E): Ben's is named.
          "          joined: from Anna's thief at (0, 0) the road runs through (1, 0) to Ben's "
          "thief at (2, 0) road:W",
          // BASE-MAJORITY: tied players each receive the full points.
          "          majority: Anna 1 and Ben 1: a tie for the most figures, so Anna and Ben each "
          "score the full 4 points (the points are not shared out)",
          "      note [BASE-RETURN] the figures on the completed road return to their owners",
          "Claim:    rejected",
          "  claim: claimed scores [12,12], but the rules give [14,14]",  // 10 + 4 each
          "Scores:   [14,14]",
          "Cited:    "
          "[\"BASE-FEATURE-JOIN\",\"BASE-PLACE-EDGE\",\"BASE-RETURN\",\"BASE-SCORE-ROAD\","
          "\"BASE-MAJORITY\",\"BASE-SCORE-TIMING\"]",
      });
}

// Phantom (fixtures/phantom/ph04): Boris's C at (0,-1) joins D's city and three E caps into one
// city of 5 tiles with C's coat of arms. Alena has a meeple and her phantom in it, Boris one
// meeple; Boris claims a share.
TEST(GoldenVerdict, PhantomCountsForTheMajority) {
  ExpectLines(
      Verdict("phantom/ph04_meeple_and_phantom_outnumber.position.json", 1),
      {
          "File:     phantom/ph04_meeple_and_phantom_outnumber.position.json",
          "Rules:    C3 + [\"phantom\"]",
          "Question: apply",
          "Verdict:  rejected",
          "  legal:   place tile C at (0, -1) rotated 0",
          "      [BASE-FEATURE-JOIN] the tile joins features that already hold figures into one, "
          // The city's tiles by adjacency from D; each figure reaches the others through C.
          "so all their figures now share it: the city through (0, 0), (0, -1), (0, -2), "
          "(1, -1), (-1, -1) (closed on every side) holds Alena's knight at (1, -1) and Alena's "
          "phantom knight at (0, -2) and Boris's knight at (-1, -1); from Alena's phantom knight "
          "at (0, -2) the city runs through (0, -1) to Alena's knight at (1, -1); from Alena's "
          "phantom knight at (0, -2) the city runs through (0, -1) to Boris's knight at (-1, -1)",
          "      [BASE-PLACE-EDGE] tile C at (0, -1) matches every neighbour",
          "  legal:   pass: places no meeple",
          "  legal:   pass: places no phantom",
          // BASE-SCORE-CITY: 2 per tile + 2 per coat of arms = 2 x 5 + 2 x 1.
          "      score city (completed): 12 to [\"Alena\"] = 2 x 5 tiles + 2 x 1 coat of arms  "
          "[\"BASE-SCORE-CITY\",\"BASE-MAJORITY\",\"BASE-SCORE-TIMING\"]",
          "          tiles: (0, 0), (0, -1), (0, -2), (1, -1), (-1, -1)",
          "          closed on every side",
          "          figures: Alena's knight at (1, -1), Alena's phantom knight at (0, -2) and "
          "Boris's "
          "knight at (-1, -1)",
          // BASE-FEATURE-JOIN: the first figure of each player; the E caps meet through C.
          "          joined: from Alena's knight at (1, -1) the city runs through (0, -1) to "
          "Boris's knight at (-1, -1)",
          // PH-SCORE: the phantom counts as a meeple for the majority (BASE-MAJORITY).
          "          majority: Alena 2 and Boris 1: Alena has the most figures and scores 12; "
          "Boris scores nothing",
          "      note [BASE-RETURN] the figures on the completed city return to their owners",
          "Claim:    rejected",
          "  claim: claimed scores [12,12], but the rules give [12,0]",
          "Scores:   [12,0]",
          "Cited:    "
          "[\"BASE-FEATURE-JOIN\",\"BASE-PLACE-EDGE\",\"BASE-RETURN\",\"BASE-SCORE-CITY\","
          "\"BASE-MAJORITY\",\"BASE-SCORE-TIMING\"]",
      });
}

// The Messengers (fixtures/messengers/d01): E at (0,-1) closes D's city (Anna's knight): 4 points,
// which Anna gives her dame, 6 -> 10, a dark space: message 1 (smallest road). Her roads are
// worth 2, 2 and 3 at final scoring; she names the 3 at (1,0). Anna had 10 points: 14.
TEST(GoldenVerdict, MessengersSmallestRoad) {
  ExpectLines(
      Verdict("messengers/d01_message1_longer_road_disputed.position.json", 1),
      {
          "File:     messengers/d01_message1_longer_road_disputed.position.json",
          "Rules:    C3 + [\"messengers\"]",
          "Question: apply",
          "Verdict:  rejected",
          "  legal:   place tile E at (0, -1) rotated 180",
          "      [BASE-PLACE-EDGE] tile E at (0, -1) matches every neighbour",
          "  legal:   pass: places no figure",
          // BASE-SCORE-CITY: 2 x 2 tiles.
          "      score city (completed): 4 to [\"Anna\"] = 2 x 2 tiles + 2 x 0 coats of arms  "
          "[\"BASE-SCORE-CITY\",\"BASE-MAJORITY\",\"BASE-SCORE-TIMING\"]",
          "          tiles: (0, 0), (0, -1)",
          "          closed on every side",
          "          figures: Anna's knight at (0, 0)",
          "          majority: only Anna has figures here: Anna scores 4",
          "      note [BASE-RETURN] the figures on the completed city return to their owners",
          // MSG-CHOOSE: the player picks which of her two figures moves.
          "  legal:   move Anna's dame by the 4 points of city (completed)",
          "      [MSG-CHOOSE] Anna's dame takes the 4 points of city (completed): 6 -> 10 "
          "(space 10)",
          // MSG-1, MSG-Q-SMALLEST: the road worth least at final scoring, 2 < 3.
          "  ILLEGAL: carry out message 1 (smallest road) on road:EW of the tile at (1, 0)",
          "      [MSG-1] message 1 (smallest road): the road named at (1, 0) is worth 3 at final "
          "scoring, but the player's smallest one is worth 2; the message must score the "
          "smallest",
          "      [MSG-Q-SMALLEST] features are ranked by the points they would give at final "
          "scoring",
          "Claim:    rejected",
          "  claim: claimed legal, but the actions are illegal",
          "Scores:   [14,0]",
          "Cited:    [\"MSG-1\",\"MSG-Q-SMALLEST\",\"BASE-PLACE-EDGE\",\"BASE-RETURN\","
          "\"BASE-SCORE-CITY\",\"BASE-MAJORITY\",\"BASE-SCORE-TIMING\",\"MSG-CHOOSE\"]",
      });
}

// The Gifts (fixtures/gifts/d01): Red's E at (0,-1) completes Blue's city on D. Completing counts
// as extending (GIFT-Q-EXTEND), the city is Blue's by majority (GIFT-FN1): Red receives the top
// gift, Synod (GIFT-GET). No tile is left: the game ends, Red's unopened gift scores 2 (GIFT-END).
TEST(GoldenVerdict, GiftsCompletingCountsAsExtending) {
  ExpectLines(
      Verdict("gifts/d01_completing_blue_city_earns_gift.position.json", 0),
      {
          "File:     gifts/d01_completing_blue_city_earns_gift.position.json",
          "Rules:    C3 + [\"gifts\"]",
          "Question: apply",
          "Verdict:  upheld",
          "  legal:   place tile E at (0, -1) rotated 180",
          "      [BASE-PLACE-EDGE] tile E at (0, -1) matches every neighbour",
          "      note [GIFT-Q-EXTEND] the city the tile extends (Blue 1 after placement): "
          "completing it counts as extending it (completion-counts)",
          "      note [GIFT-FN1] the city the tile extends (Blue 1 after placement): it belongs "
          "to someone else by majority after placement",
          "      note [GIFT-GET] Red receives a gift: draws Synod and keeps it face down",
          "  legal:   pass: places no figure",
          "      score city (completed): 4 to [\"Blue\"] = 2 x 2 tiles + 2 x 0 coats of arms  "
          "[\"BASE-SCORE-CITY\",\"BASE-MAJORITY\",\"BASE-SCORE-TIMING\"]",
          "          tiles: (0, 0), (0, -1)",
          "          closed on every side",
          "          figures: Blue's knight at (0, 0)",
          "          majority: only Blue has figures here: Blue scores 4",
          "      score final: 2 to [\"Red\"] = 2 x 1 unopened gift(s)  [\"GIFT-END\"]",
          "      note [BASE-RETURN] the figures on the completed city return to their owners",
          "      note [BASE-END] no tile is left: the game ends and final scoring is done",
          "Claim:    upheld",
          "Scores:   [2,4]",
          "Cited:    "
          "[\"BASE-PLACE-EDGE\",\"GIFT-Q-EXTEND\",\"GIFT-FN1\",\"GIFT-GET\",\"BASE-RETURN\","
          "\"BASE-END\",\"BASE-SCORE-CITY\",\"BASE-MAJORITY\",\"BASE-SCORE-TIMING\",\"GIFT-END\"]",
      });
}

// Christmas Present (fixtures/christmas_present/d01): Alena's E at (1,2) lies next to Boris's
// monastery (1,1): she draws monastery-bonus and plays it on her monastery at (0,1). Around it:
// D(0,0), B(1,1), E(1,2), E(0,2), B(-1,1); (1,0), (-1,2), (-1,0) are empty. The card counts the
// tiles around, not the monastery (XMAS-FN4 adopted reading, XMAS-FN6): 5, not 6.
TEST(GoldenVerdict, ChristmasMonasteryCardLeavesOutItsTile) {
  ExpectLines(
      Verdict("christmas_present/d01_monastery_card_counts_its_tile.position.json", 1),
      {
          "File:     christmas_present/d01_monastery_card_counts_its_tile.position.json",
          "Rules:    C3 + [\"christmas_present\"]",
          "Question: apply",
          "Verdict:  rejected",
          "  legal:   place tile E at (1, 2) rotated 180",
          "      [BASE-PLACE-EDGE] tile E at (1, 2) matches every neighbour",
          "  legal:   draw the top card of the monastery deck",
          "      [XMAS-DRAW-MONASTERY] the tile is placed next to another player's monastery: a "
          "monastery card is drawn",
          "      note [XMAS-USE] Alena draws monastery-bonus",
          "  legal:   Alena plays monastery-bonus on monastery of the tile at (0, 1)",
          "      [XMAS-CARD-MONASTERY-BONUS] Alena holds the majority in the unfinished monastery",
          "      [XMAS-Q-LIGHTNING] a lightning card, used in the turn it was drawn",
          "      score monastery (xmas-card): 5 to [\"Alena\"] = 5 tiles around, the monastery "
          "itself not counted (XMAS-FN6)  "
          "[\"XMAS-CARD-MONASTERY-BONUS\",\"XMAS-FN6\",\"XMAS-FN4\"]",
          // N, E, SE, S, W of (0,1) hold tiles (BASE-SCORE-MONASTERY counts the 8 squares).
          "          monastery at (0, 1); tiles around it: (0, 0), (1, 1), (1, 2), (0, 2), (-1, 1)",
          "          figures: Alena's monk at (0, 1)",
          "          majority: only Alena has figures here: Alena scores 5",
          "      note [XMAS-FN4] the figures on the scored monastery return to their owners",
          "  legal:   pass: places no figure",
          "Claim:    rejected",
          "  claim: claimed scores [6,0], but the rules give [5,0]",
          "Scores:   [5,0]",
          "Cited:    [\"BASE-PLACE-EDGE\",\"XMAS-DRAW-MONASTERY\",\"XMAS-USE\","
          "\"XMAS-CARD-MONASTERY-BONUS\",\"XMAS-Q-LIGHTNING\",\"XMAS-FN4\",\"XMAS-FN6\"]",
      });
}

// BASE-MEEPLE-FREE with a farmer nearby: D(0,0) has a road E-W with a field on each side; Anna's
// farmer lies in the north one (EL, WR). Ben's U at (1,0) (road W-E) continues D's south field
// through its own south field, which holds no figure: the road on D parts the two fields.
TEST(GoldenVerdict, FreeFieldNamesTheFarmerAcrossTheRoad) {
  ExpectLines(Verdict("C3; players Anna / Ben; board D 0,0; figures Anna 0,0 field:EL.WR; draw U; "
                      "turn Ben place_tile U; ask apply; actions place_tile 1,0 0 / place_figure "
                      "field:ER.SL.SR.WL",
                      0),
              {
                  "File:     line",
                  "Rules:    C3",
                  "Question: apply",
                  "Verdict:  legal",
                  "  legal:   place tile U at (1, 0) rotated 0",
                  "      [BASE-PLACE-EDGE] tile U at (1, 0) matches every neighbour",
                  "  legal:   place a farmer on field:ER.SL.SR.WL of the tile at (1, 0)",
                  "      [BASE-MEEPLE-FREE] the field through (0, 0), (1, 0) holds no figure "
                  "anywhere; Anna's farmer at (0, 0) is on another field, which the road on (0, 0) "
                  "separates from it",
                  "      [BASE-MEEPLE-TILE] the farmer goes on the tile just placed",
                  "Scores:   [0,0]",
                  "Cited:    [\"BASE-PLACE-EDGE\",\"BASE-MEEPLE-FREE\",\"BASE-MEEPLE-TILE\"]",
              });
}

// Christmas Present: a deck stated by its top cards only (XMAS-SETUP). A deck given as a list is
// the whole deck; x37's decks with the discard pile left empty instead of "rest" leave the
// monastery deck 0 of its 32 cards and the road deck 1 of 32 (one figure-occupied-city listed,
// its second copy and 2 x 15 other kinds missing). One message per deck says how to state it,
// not one line per card kind.
TEST(GoldenVerdict, ChristmasPartlyKnownDeckOneMessagePerDeck) {
  nlohmann::json doc;
  {
    std::ifstream in(kRoot + "/fixtures/christmas_present/x37_figure_occupied_city.position.json");
    doc = nlohmann::json::parse(in);
  }
  doc["expansions"]["christmas_present"]["discard"] = nlohmann::json::array();
  doc.erase("question");
  Outcome o = RunJson(doc, "deck.json", {.mode = Mode::kValidate});
  ASSERT_TRUE(o.error.empty()) << o.error;
  EXPECT_EQ(o.exit_code, 2);
  std::vector<std::string> setup;
  for (const auto& v : o.ruling["violations"])
    if (v["ruling"] == "XMAS-SETUP")
      setup.push_back(v["where"].get<std::string>() + ": " + v["text"].get<std::string>());
  const std::string how =
      " appear nowhere (decks, hands, discard, in play; the game has 2 of each of its 16 kinds): a "
      "list is the whole deck, top first. A deck known only at the top is stated as \"rest\" "
      "(order unknown; each xmas_draw_card then names the card drawn), and cards out of play as "
      "the discard pile (\"discard\": \"rest\" puts every copy not stated elsewhere there)";
  ExpectLines(setup, {
                         "/expansions/christmas_present/decks/monastery: the monastery deck is a "
                         "list of 0 card(s) in a known order, and 32 card(s) of the monastery "
                         "deck" +
                             how,
                         "/expansions/christmas_present/decks/road: the road deck is a list of 1 "
                         "card(s) in a known order, and 31 card(s) of the road deck" +
                             how,
                     });
}

// Say what a pass declined, and a pass for a step that passed by itself (fixtures/phantom/a06).
TEST(GoldenVerdict, PassForAStepThatPassedByItself) {
  Outcome o = RunFile(
      kRoot + "/fixtures/phantom/a06_pass_for_phantom_step_that_passed_itself.position.json", {});
  EXPECT_EQ(o.exit_code, 65);
  EXPECT_EQ(o.error.substr(o.error.find(":/question")),
            ":/question/actions/2: this pass has no step to decide: after the previous action the "
            "rest of Alena's turn needed no decision: step place_phantom passed by itself (Alena "
            "has no phantom in supply (it stands on the board at (1, 1))), and the turn ended "
            "(leave the pass out)");
}

// A pass says what it declined (Christmas Present, fixtures/christmas_present/x05): W at (1,0)
// shows roads and fields only, so the road-deck card may be drawn (XMAS-DRAW-ROAD, "may draw");
// Alena passes. Her hand is empty, so the card window after the draws passes by itself and the
// turn stops at her figure placement, which the question does not state.
TEST(GoldenVerdict, PassDeclinesTheRoadDeckCard) {
  nlohmann::json doc;
  {
    std::ifstream in(kRoot +
                     "/fixtures/christmas_present/x05_draw_road_junction_default.position.json");
    doc = nlohmann::json::parse(in);
  }
  doc["question"] = {{"ask", "apply"}, {"actions", {{{"type", "pass"}}}}};
  Outcome o = RunJson(doc, "pass.json", {});
  ASSERT_TRUE(o.error.empty()) << o.error;
  EXPECT_EQ(o.exit_code, 0);
  std::vector<std::string> got;
  std::istringstream in(RulingText(o.ruling));
  for (std::string line; std::getline(in, line) && line != "Rulings:";) got.push_back(line);
  ExpectLines(got, {
                       "File:     pass.json",
                       "Rules:    C3 + [\"christmas_present\"]",
                       "Question: apply",
                       "Verdict:  legal",
                       "  legal:   pass: declines the road-deck card",
                       "Pending:  the turn stops at step place_figure (the question states no "
                       "choice for it)",
                       "Scores:   [0,0]",
                       "Cited:    []",
                   });
}

// A tile placed while none is in hand yet is named by the tile drawn (fixtures/gifts/g12): Red
// holds a gift, so the step where a gift may be opened comes before the placement and the draw
// runs within the place_tile action; the draw order is U.
TEST(GoldenVerdict, TileDrawnWithinThePlacementIsNamed) {
  const std::vector<std::string> v = Verdict("gifts/g12_open_is_optional.position.json", 0);
  ASSERT_GE(v.size(), 5u);
  EXPECT_EQ(v[4], "  legal:   place tile U at (1, 0) rotated 0");
}

// Change Position names the figure by its role (fixtures/gifts/g19, the Gifts' example 5): Red's
// meeple on D's city is a knight; it lies down in D's field north of the road, where Green's
// farmer on U's north field already is (GIFT-FN7: same tile). E at (0,-1) turned 180 closes the
// city; no tile is left: final scoring, the farm (D, U) supplies the completed city: 3 each,
// tied (BASE-END-FARM, BASE-MAJORITY).
TEST(GoldenVerdict, ChangePositionNamesTheKnight) {
  ExpectLines(
      Verdict("gifts/g19_ex5_change_position.position.json", 0),
      {
          "File:     gifts/g19_ex5_change_position.position.json",
          "Rules:    C3 + [\"gifts\"]",
          "Question: apply",
          "Verdict:  upheld",
          "  legal:   open the gift Change Position: the knight on city:N of the tile at (0, 0)",
          "      [GIFT-OPEN] Red opens Change Position before placing the tile; it goes face up "
          "on the discard pile",
          "      [GIFT-CHANGE] Red changes the posture of the knight on city:N of the tile at "
          "(0, 0) (the new feature is the next choice)",
          "  legal:   Change Position: the figure goes to field:EL.WR of the tile at (0, 0)",
          "      [GIFT-CHANGE] the knight on city:N of the tile at (0, 0) now lies in field:EL.WR "
          "of the tile at (0, 0), which is already occupied (allowed)",
          "      [GIFT-FN7] a change of posture on the same tile",
          "  legal:   place tile E at (0, -1) rotated 180",
          "      [BASE-PLACE-EDGE] tile E at (0, -1) matches every neighbour",
          "  legal:   pass: places no figure",
          "      score field (final): 3 to [\"Red\",\"Green\"] = 3 x 1 completed city  "
          "[\"BASE-MAJORITY\",\"BASE-END-FARM\"]",
          "          tiles: (0, 0), (1, 0)",
          "          supplies the completed city on (0, 0), (0, -1)",
          "          figures: Red's farmer at (0, 0) and Green's farmer at (1, 0)",
          "          joined: from Red's farmer at (0, 0) field:EL.WR the field runs to Green's "
          "farmer at (1, 0) field:NL.NR.EL.WR",
          "          majority: Red 1 and Green 1: a tie for the most figures, so Red and Green "
          "each score the full 3 points (the points are not shared out)",
          "      note [BASE-END] no tile is left: the game ends and final scoring is done",
          "Claim:    upheld",
          "Scores:   [3,3]",
          "Cited:    [\"GIFT-OPEN\",\"GIFT-CHANGE\",\"GIFT-FN7\",\"BASE-PLACE-EDGE\",\"BASE-END\","
          "\"BASE-MAJORITY\",\"BASE-END-FARM\"]",
      });
}

// GIFT-Q-EXTRA-PART whole-turn (fixtures/combos/msg_gift06): Red opened Cash Out before his
// first tile; message 4 gives him a further tile, and the note says the gift opened still
// counts for the whole turn.
TEST(GoldenVerdict, WholeTurnNoteSaysTheOpenedGiftStillCounts) {
  const std::vector<std::string> v =
      Verdict("combos/msg_gift06_extra_part_second_gift_whole_turn.position.json", 1);
  EXPECT_NE(std::find(v.begin(), v.end(),
                      "      note [GIFT-Q-EXTRA-PART] a further tile in the same turn "
                      "(whole-turn): the gift opened earlier this turn still counts, one of each "
                      "per turn"),
            v.end());
}

}  // namespace carc::adjudicator
