// Golden verdicts on the point two players argue about when figures meet: how a shared feature
// connects (its tiles along it, the way from the new figure to the figure met), which figure a
// free feature is kept apart from, and figures named by their role. Worked out by hand from the
// tile table (model/core/tile_catalog.cc, /work/shared/base-tiles.md): x east, y south; a
// rotation turns the table orientation clockwise (a side s goes to s + rotation / 90); the
// halves NL NR EL ER SL SR WL WR run clockwise from the north-west corner.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "adjudicator/verdict_golden.h"

namespace carc::adjudicator {

// A farm joined around the end of a road (fixtures/base/disputes/d07). A(-1,0) turned 270: its road
// (table S) points E and stops at the monastery; its one field (all eight halves) wraps round the
// monastery. U(0,0): road W-E between the north field NL.NR.EL.WR (Anna's farmer) and the south
// field ER.SL.SR.WL. Ben's U at (1,0) continues the road; its south field meets (0,0)'s south field
// (WL - ER), which meets A's field (WL - ER, south of A's road), which reaches (0,0)'s north
// field (EL - WR, north of A's road): one farm, so Ben's farmer may not go there
// (BASE-MEEPLE-FREE). The way crosses A's road line from its south side (ER) to its north
// side (EL): it passes around the end of the road.
TEST(ConnectionVerdict, FarmJoinedAroundTheEndOfTheRoad) {
  ExpectLines(
      Verdict("base/disputes/d07_farm_around_the_road_end.position.json", 1),
      {
          "File:     base/disputes/d07_farm_around_the_road_end.position.json",
          "Rules:    C3",
          "Question: apply",
          "Verdict:  illegal",
          "  legal:   place tile U at (1, 0) rotated 0",
          "      [BASE-PLACE-EDGE] tile U at (1, 0) matches every neighbour",
          "  ILLEGAL: place a farmer on field:ER.SL.SR.WL of the tile at (1, 0)",
          // The farm's tiles by adjacency from A (a field has no end to start from); the way
          // from the new farmer: (1,0) south, (0,0) south, A, then (0,0) north.
          "      [BASE-MEEPLE-FREE] the field through (-1, 0), (0, 0), (1, 0) already holds "
          "Anna's farmer at (0, 0): from (1, 0) field:ER.SL.SR.WL the field runs through (0, 0) "
          "field:ER.SL.SR.WL and (-1, 0) to Anna's farmer at (0, 0) field:NL.NR.EL.WR, passing "
          "around the end of the road at the monastery (-1, 0); a figure may go only on a "
          "feature with no figure anywhere in it",
          "Scores:   [0,0]",
          "Cited:    [\"BASE-MEEPLE-FREE\",\"BASE-PLACE-EDGE\"]",
      });
}

// The same farm at the end of the game (fixtures/base/disputes/d08): Anna's farmer on (0,0)'s
// north field, Ben's on (1,0)'s south field. E(0,1) turned 180 (city S) and E(0,2) close a city
// of 2 tiles; E(0,1)'s field meets (0,0)'s south field. Ben says the road cuts Anna's farmer off
// the city. The way from Anna's farmer: A's field (entering north of A's road by EL, leaving
// south of it by ER: round the end of the road), (0,0)'s south field, (1,0)'s south field.
// BASE-END-FARM: 3 for the completed city; BASE-MAJORITY: 1-1, both score the full 3.
TEST(ConnectionVerdict, FarmAroundTheEndOfTheRoadAtFinalScoring) {
  ExpectLines(
      Verdict("base/disputes/d08_farm_around_the_road_end_final.position.json", 1),
      {
          "File:     base/disputes/d08_farm_around_the_road_end_final.position.json",
          "Rules:    C3",
          "Question: final_score",
          "Verdict:  rejected",
          "  [BASE-END] final scoring of every unfinished feature and farm",
          "  score field (final): 3 to [\"Anna\",\"Ben\"] = 3 x 1 completed city  "
          "[\"BASE-MAJORITY\",\"BASE-END-FARM\"]",
          // By adjacency from A: (0,0) north, (1,0) north, (0,0) south, (1,0) south, E(0,1).
          "      tiles: (-1, 0), (0, 0), (1, 0), (0, 1)",
          "      supplies the completed city on (0, 1), (0, 2)",
          "      figures: Anna's farmer at (0, 0) and Ben's farmer at (1, 0)",
          "      joined: from Anna's farmer at (0, 0) field:NL.NR.EL.WR the field runs through "
          "(-1, 0) and (0, 0) field:ER.SL.SR.WL to Ben's farmer at (1, 0) field:ER.SL.SR.WL, "
          "passing around the end of the road at the monastery (-1, 0)",
          "      majority: Anna 1 and Ben 1: a tie for the most figures, so Anna and Ben each "
          "score the full 3 points (the points are not shared out)",
          "Claim:    rejected",
          "  claim: claimed scores [0,3], but the rules give [3,3]",
          "Scores:   [3,3]",
          "Cited:    [\"BASE-END\",\"BASE-MAJORITY\",\"BASE-END-FARM\"]",
      });
}

// A thief beyond a crossroads. U(-1,0), U(0,0): a road W-E holding Anna's thief at (-1,0),
// which runs into the crossroads X(1,0) and stops there (X: four roads, each ending at the
// junction). Ben's U at (2,0) continues X's east road: that road holds no figure
// (BASE-MEEPLE-FREE); the verdict names Anna's thief and where her road ends.
TEST(ConnectionVerdict, ThiefBeyondTheCrossroads) {
  ExpectLines(
      Verdict("C3; players Anna / Ben; board U -1,0 / U 0,0 / X 1,0; figures Anna -1,0 road; "
              "draw U; turn Ben place_tile U; ask apply; actions place_tile 2,0 0 / place_figure "
              "road",
              0),
      {
          "File:     line",
          "Rules:    C3",
          "Question: apply",
          "Verdict:  legal",
          "  legal:   place tile U at (2, 0) rotated 0",
          "      [BASE-PLACE-EDGE] tile U at (2, 0) matches every neighbour",
          "  legal:   place a thief on road:EW of the tile at (2, 0)",
          // From the junction end to the open end; (3,0) is empty.
          "      [BASE-MEEPLE-FREE] the road through (1, 0), (2, 0) (it ends at the junction at "
          "(1, 0) and an open edge on the E side of (2, 0)) holds no figure anywhere; Anna's "
          "thief at (-1, 0) is on another road, which ends at the junction at (1, 0)",
          "      [BASE-MEEPLE-TILE] the thief goes on the tile just placed",
          "Scores:   [0,0]",
          "Cited:    [\"BASE-PLACE-EDGE\",\"BASE-MEEPLE-FREE\",\"BASE-MEEPLE-TILE\"]",
      });
}

// The phantom on the meeple's farm (PH-SECOND: a different feature). The board of the farm
// above; Alena places U at (1,0), her meeple on its north field and her phantom on its south
// field. The two fields of U meet through (0,0)'s south field, around the end of A's road and
// back through (0,0)'s north field: one farm, already Alena's.
TEST(ConnectionVerdict, PhantomOnTheMeeplesFarm) {
  ExpectLines(
      Verdict("C3 phantom; players Alena / Boris; board A -1,0 270 / U 0,0; draw U; turn Alena "
              "place_tile U; ask apply; actions place_tile 1,0 0 / place_figure field:NL.NR.EL.WR "
              "/ place_figure phantom field:ER.SL.SR.WL",
              1),
      {
          "File:     line",
          "Rules:    C3 + [\"phantom\"]",
          "Question: apply",
          "Verdict:  illegal",
          "  legal:   place tile U at (1, 0) rotated 0",
          "      [BASE-PLACE-EDGE] tile U at (1, 0) matches every neighbour",
          "  legal:   place a farmer on field:NL.NR.EL.WR of the tile at (1, 0)",
          "      [BASE-MEEPLE-FREE] the field through (-1, 0), (0, 0), (1, 0) holds no figure "
          "anywhere",
          "      [BASE-MEEPLE-TILE] the farmer goes on the tile just placed",
          "  ILLEGAL: place a phantom farmer on field:ER.SL.SR.WL of the tile at (1, 0)",
          "      [PH-SECOND] the field through (-1, 0), (0, 0), (1, 0) already holds Alena's "
          "farmer at (1, 0): from (1, 0) field:ER.SL.SR.WL the field runs through (0, 0) "
          "field:ER.SL.SR.WL, (-1, 0) and (0, 0) field:NL.NR.EL.WR to Alena's farmer at (1, 0) "
          "field:NL.NR.EL.WR, passing around the end of the road at the monastery (-1, 0); a "
          "figure may go only on a feature with no figure anywhere in it",
          "Scores:   [0,0]",
          "Cited:    [\"PH-SECOND\",\"BASE-PLACE-EDGE\",\"BASE-MEEPLE-FREE\","
          "\"BASE-MEEPLE-TILE\"]",
      });
}

// The phantom on the very road the meeple took: D(0,0)'s road W-E continued by U at (1,0),
// open at both ends.
TEST(ConnectionVerdict, PhantomOnTheMeeplesRoad) {
  ExpectLines(
      Verdict("C3 phantom; players Alena / Boris; board D 0,0; draw U; turn Alena place_tile U; "
              "ask apply; actions place_tile 1,0 0 / place_figure road / place_figure phantom road",
              1),
      {
          "File:     line",
          "Rules:    C3 + [\"phantom\"]",
          "Question: apply",
          "Verdict:  illegal",
          "  legal:   place tile U at (1, 0) rotated 0",
          "      [BASE-PLACE-EDGE] tile U at (1, 0) matches every neighbour",
          "  legal:   place a thief on road:EW of the tile at (1, 0)",
          "      [BASE-MEEPLE-FREE] the road through (0, 0), (1, 0) (it ends at an open edge on "
          "the W side of (0, 0) and an open edge on the E side of (1, 0)) holds no figure "
          "anywhere",
          "      [BASE-MEEPLE-TILE] the thief goes on the tile just placed",
          "  ILLEGAL: place a phantom thief on road:EW of the tile at (1, 0)",
          "      [PH-SECOND] the road through (0, 0), (1, 0) (it ends at an open edge on the W "
          "side of (0, 0) and an open edge on the E side of (1, 0)) already holds Alena's thief "
          "at (1, 0): Alena's thief at (1, 0) stands on this very road (road:EW of (1, 0)); a "
          "figure may go only on a feature with no figure anywhere in it",
          "Scores:   [0,0]",
          "Cited:    [\"PH-SECOND\",\"BASE-PLACE-EDGE\",\"BASE-MEEPLE-FREE\","
          "\"BASE-MEEPLE-TILE\"]",
      });
}

// Figures named by their role: a meeple on a city is a knight, on a road a thief, on a field a
// farmer, on a monastery a monk. D(0,0) was placed this turn (city N, road W-E, fields EL.WR
// and ER.SL.SR.WL); B(0,1) below it in a second position (monastery, one field).
TEST(ConnectionVerdict, PlacementsNamedByRole) {
  ExpectLines(
      Verdict("C3; players Anna / Ben; board D 0,0; turn Anna place_figure 0,0; ask legal", 0),
      {
          "File:     line",
          "Rules:    C3",
          "Question: legal",
          "Verdict:  listed",
          "  pass",
          "  place a knight on city:N of the tile at (0, 0)",
          "  place a thief on road:EW of the tile at (0, 0)",
          "  place a farmer on field:EL.WR of the tile at (0, 0)",
          "  place a farmer on field:ER.SL.SR.WL of the tile at (0, 0)",
          "Count:    5",
          "Cited:    []",
      });
  ExpectLines(
      Verdict("C3; players Anna / Ben; board D 0,0 / B 0,1; turn Anna place_figure 0,1; ask legal",
              0),
      {
          "File:     line",
          "Rules:    C3",
          "Question: legal",
          "Verdict:  listed",
          "  pass",
          "  place a monk on monastery of the tile at (0, 1)",
          "  place a farmer on field:NL.NR.EL.ER.SL.SR.WL.WR of the tile at (0, 1)",
          "Count:    3",
          "Cited:    []",
      });
}

}  // namespace carc::adjudicator
