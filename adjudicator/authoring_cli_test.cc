// The one-line notation, the tile sheet and step mode, run as a user would: stdout,
// stderr and exit codes. Every expectation is worked out by hand from the rules and the tile
// table (adjudicator/POSITION_FORMAT.md), not taken from the program's output.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "adjudicator/run_carc.h"
#include "adjudicator/test_scratch.h"

namespace {

const std::string kRoot = CARC_SOURCE_DIR;

using carc::testing::Carc;
using carc::testing::Result;
using carc::testing::Shell;

std::string Q(const std::string& s) { return "'" + s + "'"; }  // for the shell
bool Has(const std::string& hay, const std::string& needle) {
  return hay.find(needle) != std::string::npos;
}

const std::string kExampleLine = kRoot + "/fixtures/examples/who_scores_the_city.line";

// Ben places E rotated 180 at (0, -1): its city (now south) closes the start tile's city (north
// of D). Ben's meeple on it scores a 2-tile city: 2 x 2 = 4 (BASE-SCORE-CITY), 7 + 4 = 11.
TEST(Notation, LineFileIsAdjudicatedLikeTheJsonFile) {
  Result r = Carc("adjudicate " + kExampleLine + " --format text");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(Has(r.out, "Verdict:  upheld")) << r.out;
  EXPECT_TRUE(Has(r.out, "BASE-SCORE-CITY")) << r.out;
  EXPECT_TRUE(Has(r.out, "Scores:   [12,11]")) << r.out;
}

// Ten tiles, three figures, written from the tile sheet. Final scoring by hand: Anna's road
// A-V-D-U-U is open at (2, 0) east: 5 (BASE-END-ROAD); Ben's monastery at (0, 1) has 5 of its 8
// neighbours: 6 (BASE-END-MONASTERY); Anna's farmer's farm reaches every tile and touches the
// completed city D + E (3, BASE-END-FARM) and E's open city at (1, -1) (nothing). 10 + 5 + 3 =
// 18, 14 + 6 = 20.
TEST(Notation, TenTilesFromTheTileSheet) {
  Result r = Carc("adjudicate " + kRoot + "/fixtures/examples/ten_tiles_three_figures.line" +
                  " --format text");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(Has(r.out, "score road (final): 5 to [\"Anna\"]")) << r.out;
  EXPECT_TRUE(Has(r.out, "score monastery (final): 6 to [\"Ben\"]")) << r.out;
  EXPECT_TRUE(Has(r.out, "score field (final): 3 to [\"Anna\"]")) << r.out;
  EXPECT_TRUE(Has(r.out, "Scores:   [18,20]")) << r.out;
}

TEST(Notation, LineAsArgumentAndFromStdin) {
  const std::string line =
      "C3; players Anna 12 / Ben 7; board D 0,0 / U 1,0; figures Anna 1,0 road:EW; draw V E; "
      "turn Ben place_tile E; ask apply; actions place_tile 0,-1 180 / place_figure city; "
      "claim scores 12,11";
  Result arg = Carc("adjudicate " + Q(line) + " --format text");
  EXPECT_EQ(arg.code, 0) << arg.out;
  EXPECT_TRUE(Has(arg.out, "Scores:   [12,11]")) << arg.out;
  Result in = Carc("adjudicate - --format text < " + kExampleLine);
  EXPECT_EQ(in.code, 0) << in.out;
  EXPECT_TRUE(Has(in.out, "Scores:   [12,11]")) << in.out;
  // A wrong claim stated in the line is rejected: Ben has 11, not 10.
  std::string wrong = line.substr(0, line.size() - 5) + "12,10";
  EXPECT_EQ(Carc("adjudicate " + Q(wrong)).code, 1);
}

// Defaults left out: C3 options, Anna's 6 meeples in hand (7 minus the one on the board),
// rotation 0, kind meeple, posture.
TEST(Notation, ConvertJsonToTheShortLine) {
  Result r =
      Carc("convert " + kRoot + "/fixtures/examples/who_scores_the_city.position.json --to line");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
            "C3; players Anna 12 / Ben 7; board D 0,0 / U 1,0; figures Anna 1,0 road:EW; "
            "draw V E; turn Ben place_tile E; meta {\"id\":\"example-who-scores-the-city\","
            "\"source\":\"base rules C3: tile placement, meeple placement, city scoring\","
            "\"title\":\"Ben caps the start tile's city: is it legal, and what does it "
            "score?\"}; ask apply; actions place_tile 0,-1 180 / place_figure meeple city:S; "
            "claim legal scores 12,11\n");
}

TEST(Notation, ConvertLineToJson) {
  Result r = Carc("convert " + kExampleLine + " --to json");
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(Has(r.out, "\"rotation\": 180")) << r.out;
  EXPECT_TRUE(Has(r.out, "\"draw_order\": [\n      \"V\",\n      \"E\"\n    ]")) << r.out;
  EXPECT_TRUE(Has(r.out, "\"owner\": 0")) << r.out;
}

// "U 1.0": the column of "1.0" counted by hand (C is column 1).
TEST(Notation, ErrorsNameTheColumnAndSection) {
  Result r = Carc("validate " + Q("C3; players Anna / Ben; board D 0,0 / U 1.0"), true);
  EXPECT_EQ(r.code, 65);
  EXPECT_TRUE(Has(r.out, "column 41 (board, item 2): expected X,Y (e.g. 1,-2), got \"1.0\""))
      << r.out;
  Result owner =
      Carc("validate " + Q("C3; players Anna / Ben; board D 0,0; figures Cleo 0,0 city"), true);
  EXPECT_EQ(owner.code, 65);
  EXPECT_TRUE(Has(owner.out, "no player named \"Cleo\" (players: Anna, Ben)")) << owner.out;
  // Not a line and no such file: still "no input".
  EXPECT_EQ(Carc("validate /nonexistent/C3.line").code, 66);
}

// A line given as the argument is "line" in later messages (those of the position reader),
// with the column of the item: "U 1,0 45" starts at column 39. The line is not echoed.
TEST(Notation, LineArgumentIsNamedLineWithTheColumn) {
  Result r = Carc("validate " + Q("C3; players Anna / Ben; board D 0,0 / U 1,0 45"), true);
  EXPECT_EQ(r.code, 65);
  EXPECT_TRUE(Has(r.out, "line: column 39 (/board/1/rotation): expected 0, 90, 180 or 270"))
      << r.out;
  EXPECT_FALSE(Has(r.out, "players Anna")) << r.out;
  // The same through play and convert.
  Result play = Carc("play " + Q("C3; players Anna / Ben; board D 0,0 / U 1,0 45") + " pass", true);
  EXPECT_EQ(play.code, 65);
  EXPECT_TRUE(Has(play.out, "line: column 39 (/board/1/rotation)")) << play.out;
  Result conv =
      Carc("convert " + Q("C3; players Anna / Ben; board D 0,0 / U 1,0 45") + " --to json", true);
  EXPECT_EQ(conv.code, 65);
  EXPECT_TRUE(Has(conv.out, "line: column 39 (/board/1/rotation)")) << conv.out;
}

// board_partial (POSITION_FORMAT.md "Only the part that matters"), the README's example: E at
// (0, 0) rotation 0 fills a hole whose four neighbours are stated (N: the city of E 180 at
// (0, -1); E, S, W: fields of E at (1, 0), B at (0, 1), U 90 at (-1, 0)) and closes Anna's
// 2-tile city: 2 x 2 = 4 (BASE-SCORE-CITY), 10 + 4 = 14.
const std::string kPartialLine =
    "C3; partial; players Anna 10 / Ben 5; board E 0,-1 180 / E 1,0 / B 0,1 / U -1,0 90; "
    "figures Anna 0,-1 city; draw V; turn Ben place_tile E; ask apply; "
    "actions place_tile 0,0 0 / pass; claim legal scores 14,5";

TEST(PartialBoard, TheReadmeExampleIsJudged) {
  Result r = Carc("adjudicate " + Q(kPartialLine) + " --format text");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(Has(r.out, "score city (completed): 4 to [\"Anna\"]")) << r.out;
  EXPECT_TRUE(Has(r.out, "Scores:   [14,5]")) << r.out;
  // Without "partial" the four tiles around the hole are not joined to the first one: the
  // position cannot arise (BASE-PLACE-ADJ).
  std::string whole = kPartialLine;
  whole.erase(whole.find(" partial;"), 9);
  Result w = Carc("validate " + Q(whole) + " --format text");
  EXPECT_EQ(w.code, 2) << w.out;
  EXPECT_TRUE(Has(w.out, "BASE-PLACE-ADJ")) << w.out;
}

// The flag survives line -> JSON -> line; "partial false" is kept as written.
TEST(PartialBoard, FlagTravelsThroughLineAndJson) {
  const std::string file =
      ::carc::testing_support::ScratchDir("authoring_cli_test") + "/partial.json";
  ASSERT_EQ(Carc("convert " + Q(kPartialLine) + " --to json -o " + file).code, 0);
  std::ifstream in(file);
  std::string json((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_TRUE(Has(json, "\"board_partial\": true")) << json;
  Result back = Carc("convert " + file + " --to line");
  EXPECT_EQ(back.code, 0);
  EXPECT_TRUE(Has(back.out, "; partial;")) << back.out;
  Result f = Carc("convert " + Q("C3; partial false; players Anna / Ben; board D 0,0") +
                  " --to json --exact");
  EXPECT_TRUE(Has(f.out, "\"board_partial\": false")) << f.out;
  Result bad = Carc("validate " + Q("C3; partial maybe; players Anna / Ben; board D 0,0"), true);
  EXPECT_EQ(bad.code, 65);
  EXPECT_TRUE(Has(bad.out, "expected partial, or partial true|false")) << bad.out;
}

// Tile U at rotation 0: road EW, the north field NL.NR.EL.WR and the south field ER.SL.SR.WL.
TEST(FeatureNames, ForgivingWhereUnambiguous) {
  const std::string base =
      "C3; players Anna / Ben; board D 0,0 / U 1,0; turn Anna draw; "
      "remaining rest; figures Anna 1,0 ";
  Result ok = Carc("validate " + Q(base + "FIELD:n"));
  EXPECT_EQ(ok.code, 0) << ok.out;
  EXPECT_EQ(Carc("validate " + Q(base + "Road")).code, 0);
  Result two = Carc("validate " + Q(base + "field:E"), true);
  EXPECT_EQ(two.code, 65);
  EXPECT_TRUE(Has(two.out, "/figures/0/feature")) << two.out;
  EXPECT_TRUE(Has(two.out, "names edges of more than one field")) << two.out;
  EXPECT_TRUE(Has(two.out, "field:NL.NR.EL.WR")) << two.out;
  EXPECT_TRUE(Has(two.out, "field:ER.SL.SR.WL")) << two.out;
  Result bare = Carc("validate " + Q(base + "field"), true);
  EXPECT_EQ(bare.code, 65);
  EXPECT_TRUE(Has(bare.out, "\"field\" is ambiguous: the tile has 2 of them")) << bare.out;
  Result none = Carc("validate " + Q(base + "city"), true);
  EXPECT_EQ(none.code, 65);
  EXPECT_TRUE(Has(none.out, "the tile has no city (names on this tile: ")) << none.out;
}

// D (city N, road EW) turned 90 clockwise: the city faces east, the road runs north-south.
TEST(Tiles, TextNamesEveryFeatureAtEachRotation) {
  Result r = Carc("tiles --format text");
  EXPECT_EQ(r.code, 0);
  size_t d = r.out.find("\nD  x4  (start tile)\n");
  ASSERT_NE(d, std::string::npos) << r.out;
  size_t rot90 = r.out.find("    90  R C R F ", d);
  ASSERT_NE(rot90, std::string::npos);
  std::string line = r.out.substr(rot90, r.out.find('\n', rot90) - rot90);
  EXPECT_TRUE(Has(line, " city:E")) << line;
  EXPECT_TRUE(Has(line, " road:NS")) << line;
  // X: four roads, the four corner fields.
  EXPECT_TRUE(Has(r.out, "\nX  x1\n")) << r.out;
  Result j = Carc("tiles");
  EXPECT_TRUE(Has(j.out, "\"edges\": \"RCRF\"")) << j.out.substr(0, 400);
}

TEST(Tiles, SvgSheetHasTheNamesOnIt) {
  Result r = Carc("tiles --svg");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out.rfind("<svg", 0), 0u);
  EXPECT_TRUE(Has(r.out, ">road:NS</text>"));
  EXPECT_TRUE(Has(r.out, ">monastery</text>"));
}

const std::string kStart = "C3; players Anna / Ben; board D 0,0; remaining rest; turn Anna draw";

TEST(StepMode, NewWritesTheStartPosition) {
  Result r = Carc("new --players Anna,Ben --to line");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out, kStart + "\n");
  EXPECT_EQ(Carc("new --players Anna,Ben --expansions phantom,gifts").code, 0);
  EXPECT_EQ(Carc("new --players Anna,Ben --expansions dragons").code, 69);
}

// Anna draws U, lays it east of the start tile (its road continues D's), puts a meeple on the
// road: nothing is complete, Ben's turn, 70 tiles left (72 minus D and U).
TEST(StepMode, PlayWritesTheNextPosition) {
  Result r = Carc("play " + Q(kStart) + " 'draw U' 'place_tile 1,0 0' 'place_figure road'");
  EXPECT_EQ(r.code, 0);
  EXPECT_EQ(r.out,
            "C3; players Anna 0 / Ben 0; board D 0,0 / U 1,0; figures Anna 1,0 road:EW; "
            "remaining A:2 B:4 C:1 D:3 E:5 F:2 G:1 H:3 I:2 J:3 K:3 L:3 M:2 N:3 O:2 P:3 Q:1 R:3 "
            "S:2 T:1 U:7 V:9 W:4 X:1; turn Ben draw\n");
}

// (2, 0) touches no tile (BASE-PLACE-ADJ): refused with the ruling, nothing written.
TEST(StepMode, IllegalActionIsRefusedWithItsRuling) {
  Result r = Carc("play " + Q(kStart) + " 'draw U / place_tile 2,0 0'", true);
  EXPECT_EQ(r.code, 1);
  EXPECT_TRUE(Has(r.out, "BASE-PLACE-ADJ")) << r.out;
  EXPECT_FALSE(Has(r.out, "turn Ben")) << r.out;
}

// An action in brackets is not split at its commas into other actions ("[place_tile 1,0 0]"
// would be "place_tile 1" and "0 0"). Brackets are no part of the notation: refused, naming
// the action, nothing written.
TEST(StepMode, BracketedActionIsRefusedWhole) {
  Result r = Carc("play " + Q(kStart) + " 'draw U' '[place_tile 1,0 0]'", true);
  EXPECT_EQ(r.code, 65);
  EXPECT_TRUE(Has(r.out,
                  "action 2 `[place_tile 1,0 0]`: an action in brackets is read as a "
                  "JSON array of action objects"))
      << r.out;
  EXPECT_FALSE(Has(r.out, "turn Ben")) << r.out;
}

// A JSON array of action objects (a question's "actions") is read as those actions, in order:
// the same three actions as PlayWritesTheNextPosition, the same next position.
TEST(StepMode, JsonArrayOfActionsIsReadInOrder) {
  Result r = Carc("play " + Q(kStart) +
                  " '[{\"type\": \"draw\", \"tile\": \"U\"}, {\"type\": \"place_tile\", "
                  "\"x\": 1, \"y\": 0, \"rotation\": 0}]' 'place_figure road'");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_EQ(r.out,
            "C3; players Anna 0 / Ben 0; board D 0,0 / U 1,0; figures Anna 1,0 road:EW; "
            "remaining A:2 B:4 C:1 D:3 E:5 F:2 G:1 H:3 I:2 J:3 K:3 L:3 M:2 N:3 O:2 P:3 Q:1 R:3 "
            "S:2 T:1 U:7 V:9 W:4 X:1; turn Ben draw\n");
}

// A file named like a bracketed list is still that file, and an output option's value is not an
// action: only the actions are guarded.
TEST(StepMode, FileAndOptionValuesInBracketsAreReadAsWritten) {
  const std::string dir = ::carc::testing_support::ScratchDir("authoring_cli_test");
  ASSERT_EQ(Carc("new --players Anna,Ben -o '" + dir + "/[a,b]'").code, 0);
  Result r = Shell("cd '" + dir + "' && " + CARC_BINARY + " play '[a,b]' -o '[next]' 'draw V'");
  EXPECT_EQ(r.code, 0) << r.out;
  std::ifstream next(dir + "/[next]");
  std::stringstream text;
  text << next.rdbuf();
  EXPECT_TRUE(Has(text.str(), "\"tile\": \"V\"")) << text.str();
}

// A file named like a bracketed list is that file, not the file the list's items name: with
// both "[g]" (a JCloisterZone game that agrees) and "g" (not a game) present, check-jcz '[g]'
// replays "[g]".
TEST(ListItems, AFileNamedInBracketsIsThatFile) {
  const std::string dir = ::carc::testing_support::ScratchDir("authoring_cli_test");
  std::ifstream game(kRoot + "/fixtures/peer-games/base-2p-000.jcz");
  std::ofstream(dir + "/[g]") << game.rdbuf();
  std::ofstream(dir + "/g") << "{}";
  Result r = Shell("cd '" + dir + "' && " + CARC_BINARY + " games check-jcz --format json '[g]'");
  EXPECT_EQ(r.code, 0) << r.out;
  EXPECT_TRUE(Has(r.out, "\"agree\": 1")) << r.out;
}

TEST(StepMode, JsonInJsonOut) {
  const std::string file =
      ::carc::testing_support::ScratchDir("authoring_cli_test") + "/authoring_start.json";
  ASSERT_EQ(Carc("new --players Anna,Ben -o " + file).code, 0);
  Result r = Carc("play " + file + " 'draw V'");
  EXPECT_EQ(r.code, 0);
  EXPECT_TRUE(Has(r.out, "\"step\": \"place_tile\"")) << r.out;
  EXPECT_TRUE(Has(r.out, "\"tile\": \"V\"")) << r.out;
}

}  // namespace
