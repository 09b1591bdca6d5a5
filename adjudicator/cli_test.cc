// Runs the carc binary as a user would: stdout, stderr and exit codes (README "Exit codes").
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <fstream>
#include <string>

#include "adjudicator/run_carc.h"
#include "adjudicator/test_scratch.h"

namespace {

const std::string kRoot = CARC_SOURCE_DIR;

using carc::testing::Carc;
using carc::testing::Result;

std::string Fixture(const std::string& rel) { return kRoot + "/fixtures/" + rel; }

TEST(Cli, ExampleIsUpheldWithRulingIds) {
  Result r = Carc("adjudicate " + Fixture("examples/who_scores_the_city.position.json") +
                  " --format text");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("Verdict:  upheld"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"BASE-SCORE-CITY\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Scores:   [12,11]"), std::string::npos) << r.out;
}

TEST(Cli, JsonOutputParsesAndCites) {
  Result r = Carc("adjudicate " + Fixture("examples/who_scores_the_city.position.json"));
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("\"cited\""), std::string::npos);
  EXPECT_NE(r.out.find("\"edition\": \"C3\""), std::string::npos);
}

// `adjudicate --db` logs into a new file, which then holds no ruling: the rulings commands say
// so (74) instead of answering "0 rulings" as if none matched.
TEST(Cli, RulingsFromADatabaseWithNoRulingsIs74) {
  const std::string db = carc::testing_support::ScratchDir("cli") + "/log_only.db";
  std::remove(db.c_str());
  ASSERT_EQ(
      Carc("adjudicate " + Fixture("examples/who_scores_the_city.position.json") + " --db " + db)
          .code,
      0);
  for (const char* cmd : {"rulings search farmer", "rulings list", "rulings show BASE-END"}) {
    Result r = Carc(std::string(cmd) + " --db " + db, /*merge_stderr=*/true);
    EXPECT_EQ(r.code, 74) << cmd << ": " << r.out;
    EXPECT_NE(r.out.find(db + ": the database holds no rulings"), std::string::npos) << r.out;
  }
}

TEST(Cli, MissingFileIs66AndNamesTheFile) {
  Result r = Carc("adjudicate /nonexistent/dispute.json", /*merge_stderr=*/true);
  EXPECT_EQ(r.code, 66);
  EXPECT_NE(r.out.find("/nonexistent/dispute.json"), std::string::npos) << r.out;
}

TEST(Cli, UsageErrorsAre64) {
  EXPECT_EQ(Carc("").code, 64);
  EXPECT_EQ(Carc("frobnicate").code, 64);
  EXPECT_EQ(Carc("legal").code, 64);  // FILE missing
  EXPECT_EQ(Carc("adjudicate x.json --format yaml").code, 64);
}

TEST(Cli, MalformedJsonIs65WithOneLine) {
  std::string path = ::carc::testing_support::ScratchDir("cli_test") + "/broken.json";
  std::ofstream(path) << "{\"rules\": {\"edition\": \"C3\"},";
  Result r = Carc("validate " + path, /*merge_stderr=*/true);
  EXPECT_EQ(r.code, 65);
  EXPECT_NE(r.out.find(path + ":/: malformed JSON"), std::string::npos) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
}

TEST(Cli, DirectoryInsteadOfFileIsAnInputError) {
  Result r =
      Carc("validate " + ::carc::testing_support::ScratchDir("cli_test"), /*merge_stderr=*/true);
  EXPECT_EQ(r.code, 66) << r.out;
  EXPECT_NE(r.out.find("is a directory"), std::string::npos) << r.out;
}

TEST(Cli, IllegalMoveIsARulingExit1) {
  Result r =
      Carc("adjudicate " + Fixture("phantom/ph09_meeple_after_phantom_illegal.position.json"));
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.out.find("PH-TB"), std::string::npos);
}

TEST(Cli, LegalDepthGivesDivide) {
  // D at (0,0), E drawn: 4 placements (see model/core/rules_test.cc); depth 1 counts them.
  std::string path = ::carc::testing_support::ScratchDir("cli_test") + "/start.json";
  std::ofstream(path) << R"({"rules": {"edition": "C3"}, "players": [{}, {}],
    "board": [{"tile": "D", "x": 0, "y": 0}], "supply": {"draw_order": []},
    "turn": {"step": "place_tile", "tile": "E"}})";
  Result r = Carc("legal " + path + " --depth 1 --format text");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("Count:    4"), std::string::npos) << r.out;
}

TEST(Cli, PeerGamesAgree) {
  Result r = Carc("games check-jcz " + Fixture("peer-games/base-2p-000.jcz") + " " +
                  Fixture("peer-games/ph-3p-000.jcz") + " --format text");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("2 of 2 games agree"), std::string::npos) << r.out;
}

}  // namespace
