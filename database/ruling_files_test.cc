// db build reads the ruling files and the fixtures' ruling files as strictly as the model reads
// a position: on a copy of the shipped database/rulings and of one fixture with one value changed,
// an unknown key, a repeated value, a value out of range or of another type fails the build (65),
// naming the file and the JSON pointer, where it was dropped or stored as read before. The shipped
// tree builds, every entry a row.
#include "database/ruling_files.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "database/migrate.h"
#include "database/rulings_store.h"
#include "database/test_util.h"
#include "model/core/position_io.h"

namespace carc::database {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using testing::QueryInt;
using testing::TempDir;
using testing::WriteFile;

const fs::path kRoot = CARC_SOURCE_DIR;

json Read(const fs::path& path) {
  auto doc = model::ReadJsonFile(path.string());
  EXPECT_TRUE(doc.ok()) << doc.status().message();
  return doc.ok() ? *doc : json();
}

StatusOr<BuildReport> Build(const std::string& root) {
  auto c = OpenDatabase(":memory:", {.mode = OpenMode::kCreate});
  if (!c.ok()) return c.status();
  return BuildFromRepo(*c, root);
}

// A fixture covering BASE-SCORE-CITY and BASE-RETURN, expecting exit code 0, verdict legal,
// cites, scores and score events.
const std::string kFixture = "fixtures/base/cities/c01_city_with_arms";

// One change to one shipped file, and what the build must say: "<file>:<pointer>: ...<says>...".
struct BadValue {
  std::string name;     // the test's name
  std::string file;     // relative to the root
  std::string set;      // a JSON pointer ("-" appends to a list), set to `value`
  std::string value;    // JSON text
  std::string remove;   // a JSON pointer removed first ("" for none)
  std::string pointer;  // the pointer the message names
  std::string says;     // a part of the message
};

void PrintTo(const BadValue& b, std::ostream* os) { *os << b.name; }

// The shipped rulings and one fixture, copied into a new root, with one change.
class ShippedCopy : public ::testing::TestWithParam<BadValue> {
 protected:
  void SetUp() override {
    fs::create_directories(dir_.File("database"));
    fs::copy(kRoot / "database/rulings", dir_.File("database/rulings"),
             fs::copy_options::recursive);
    fs::create_directories(dir_.File("fixtures/base/cities"));
    for (const char* ext : {".position.json", ".ruling.json"})
      fs::copy(kRoot / (kFixture + ext), dir_.File(kFixture + ext));
  }
  void Change(const BadValue& b) {
    const std::string path = dir_.File(b.file);
    json doc = Read(path);
    if (!b.remove.empty()) {
      const json::json_pointer at(b.remove);
      doc.at(at.parent_pointer()).erase(at.back());
    }
    if (!b.set.empty()) doc[json::json_pointer(b.set)] = json::parse(b.value);
    WriteFile(path, doc.dump(1));
  }
  TempDir dir_;
};

TEST_P(ShippedCopy, IsRefusedNamingTheFileAndPointer) {
  const BadValue& b = GetParam();
  Change(b);
  auto rep = Build(dir_.path());
  ASSERT_FALSE(rep.ok()) << b.name << ": built";
  EXPECT_EQ(rep.status().code(), model::ErrorCode::kMalformed) << rep.status().message();
  const std::string& m = rep.status().message();
  const std::string named = dir_.File(b.file) + ":" + b.pointer + ": ";
  EXPECT_EQ(m.rfind(named, 0), 0u) << "expected " << named << "\ngot " << m;
  EXPECT_NE(m.find(b.says), std::string::npos) << m;
}

TEST_F(ShippedCopy, BuildsUnchanged) {
  auto rep = Build(dir_.path());
  ASSERT_TRUE(rep.ok()) << rep.status().message();
  EXPECT_GT(rep->rulings, 100);
  EXPECT_EQ(rep->fixtures, 1);
  EXPECT_EQ(rep->covers, 2);
}

const std::string kPh = "database/rulings/phantom.json";
const std::string kFx = kFixture + ".ruling.json";
const std::string kXmas = "database/rulings/christmas_present.json";
const std::string kCs = "database/rulings/questions_cs.json";

INSTANTIATE_TEST_SUITE_P(
    RulingFiles, ShippedCopy,
    ::testing::Values(
        // The audit's findings.
        BadValue{"UnknownKeyOfARuling", kPh, "/rulings/0/bogus", "1", "", "/rulings/0/bogus",
                 "unknown field"},
        BadValue{"UnknownKeyOfTheFile", kPh, "/bogus", "1", "", "/bogus", "unknown field"},
        BadValue{"MisspeltLinkKind", kPh, "/rulings/0/links/sea_also", R"(["BASE-END"])", "",
                 "/rulings/0/links/sea_also", "see_also"},
        BadValue{"UnknownEdition", kPh, "/rulings/0/edition", R"("C9")", "", "/rulings/0/edition",
                 "unknown edition \"C9\""},
        BadValue{"LinkNamedTwice", kPh, "/rulings/0/links/see_also/-", R"("BASE-SETUP")", "",
                 "/rulings/0/links/see_also/1", "\"BASE-SETUP\" given twice"},
        BadValue{"UnknownKeyOfTheSource", kPh, "/rulings/0/source/pgae", R"("x")", "",
                 "/rulings/0/source/pgae", "unknown field"},
        BadValue{"UnknownExpansion", kPh, "/expansion", R"("phantomx")", "", "/expansion",
                 "unknown expansion \"phantomx\""},
        // Values of the other fields.
        BadValue{"EditionGivenTwice", kPh, "/rulings/0/edition", R"("C2,C2")", "",
                 "/rulings/0/edition", "edition C2 given twice"},
        BadValue{"EditionWithASpace", kPh, "/rulings/0/edition", R"("C2, C3")", "",
                 "/rulings/0/edition", "unknown edition \" C3\""},
        BadValue{"IdInLowerCase", kPh, "/rulings/0/id", R"("ph-setup")", "", "/rulings/0/id",
                 "expected a ruling ID"},
        BadValue{"EmptyTitle", kPh, "/rulings/0/title", R"("")", "", "/rulings/0/title",
                 "an empty text"},
        BadValue{"StatusOfAnUnknownShape", kPh, "/rulings/0/status", R"("needs-expansion:Tower")",
                 "", "/rulings/0/status", "unknown status"},
        BadValue{"FootnoteZero", kPh, "/rulings/0/source/footnote", "0", "",
                 "/rulings/0/source/footnote", "expected an integer from 1"},
        BadValue{"FootnoteAsText", kPh, "/rulings/0/source/footnote", R"("3")", "",
                 "/rulings/0/source/footnote", "expected an integer"},
        BadValue{"AnswerDateNotAMonth", kPh, "/rulings/0/official_answer",
                 R"({"cited": "4/2022", "date": "April 2022"})", "",
                 "/rulings/0/official_answer/date", "YYYY-MM"},
        BadValue{"UnknownKeyOfTheAnswer", kPh, "/rulings/0/official_answer",
                 R"({"cited": "4/2022", "dated": "2022-04"})", "",
                 "/rulings/0/official_answer/dated", "unknown field"},
        BadValue{"QuestionAskedTwice", kPh, "/rulings/1/questions/-",
                 R"("Can I place a meeple and the phantom on the same turn?")", "",
                 "/rulings/1/questions/3", "given twice"},
        BadValue{"ExampleNotAText", kPh, "/rulings/0/examples", "[1]", "", "/rulings/0/examples/0",
                 "expected a text"},
        BadValue{"NeededExpansionTwice", kPh, "/rulings/6/needs_expansion/-", R"("abbot")", "",
                 "/rulings/6/needs_expansion/11", "\"abbot\" given twice"},
        BadValue{"LinkToItself", kPh, "/rulings/0/links/see_also/-", R"("PH-SETUP")", "",
                 "/rulings/0/links/see_also/1", "does not link to itself"},
        BadValue{"LinkToAnUnknownRuling", kPh, "/rulings/0/links/see_also/0", R"("BASE-NONE")", "",
                 "/rulings/0/links/see_also/0", "PH-SETUP links (see_also) to unknown ruling"},
        BadValue{"ReadingsOfARulingNotDisputed", kPh, "/rulings/0/readings",
                 R"([{"name": "a", "adopted": true, "summary": "s", "support": "t"}])", "",
                 "/rulings/0/readings", "only a dispute"},
        BadValue{"VariantNameOfARulingNotAVariant", kPh, "/rulings/0/variant_name", R"("v")", "",
                 "/rulings/0/variant_name", "only a variant"},
        BadValue{"CardOutsideChristmasPresent", kPh, "/rulings/0/card",
                 R"({"deck": "road", "timing": "end", "symbol": "none", "copies": 2})", "",
                 "/rulings/0/card", "christmas_present"},
        BadValue{"UnknownDeckOfACard", kXmas, "/rulings/8/card/deck", R"("roads")", "",
                 "/rulings/8/card/deck", "unknown deck \"roads\""},
        BadValue{"TwoAdoptedReadings", "database/rulings/gifts.json", "/rulings/13/readings/-",
                 R"({"name": "second", "adopted": true, "summary": "s", "support": "t"})", "",
                 "/rulings/13/readings/2/adopted", "a second adopted reading"},
        BadValue{"RulingsMissing", kPh, "", "", "/rulings", "/rulings", "missing"},
        // The Czech questions beside them.
        BadValue{"RulingInTheCzechQuestions", kCs, "/rulings/-", R"({"id": "X"})", "", "/rulings/0",
                 "holds no rulings"},
        BadValue{"UnknownKeyOfACzechQuestion", kCs, "/questions/PH-SETUP/answers", R"("x")", "",
                 "/questions/PH-SETUP/answers", "unknown field"},
        BadValue{"CzechQuestionOfNoRuling", kCs, "/questions/PH-NONE",
                 R"({"questions": ["Kolik?"]})", "", "/questions/PH-NONE",
                 "no ruling has this ID"}),
    [](const ::testing::TestParamInfo<BadValue>& i) { return i.param.name; });

INSTANTIATE_TEST_SUITE_P(
    FixtureRulingFiles, ShippedCopy,
    ::testing::Values(
        // The audit's findings.
        BadValue{"CoversMisspelt", kFx, "/cover", R"(["BASE-SCORE-CITY", "BASE-RETURN"])",
                 "/covers", "/cover", "unknown field"},
        BadValue{"UnknownKey", kFx, "/bogus", "1", "", "/bogus", "unknown field"},
        BadValue{"CoveredTwice", kFx, "/covers/-", R"("BASE-SCORE-CITY")", "", "/covers/2",
                 "\"BASE-SCORE-CITY\" given twice"},
        BadValue{"ExitCodeAsText", kFx, "/expect/exit_code", R"("0")", "", "/expect/exit_code",
                 "got \"0\""},
        BadValue{"ExitCodeNotOfCarc", kFx, "/expect/exit_code", "99", "", "/expect/exit_code",
                 "expected an exit code of carc"},
        BadValue{"UnknownVerdict", kFx, "/expect/verdict", R"("upheldd")", "", "/expect/verdict",
                 "unknown verdict \"upheldd\""},
        // Values of the other fields.
        BadValue{"CoversNothing", kFx, "/covers", "[]", "", "/covers", "no ruling covered"},
        BadValue{"CoversMissing", kFx, "", "", "/covers", "/covers", "missing"},
        BadValue{"CoversAnId", kFx, "/covers/0", R"("base-score-city")", "", "/covers/0",
                 "expected a ruling ID"},
        BadValue{"UnknownMode", kFx, "/mode", R"("adjudge")", "", "/mode",
                 "unknown mode \"adjudge\""},
        BadValue{"DepthOutsideModeLegal", kFx, "/depth", "2", "", "/depth", "mode legal only"},
        BadValue{"ExitCodeAsAFloat", kFx, "/expect/exit_code", "0.0", "", "/expect/exit_code",
                 "expected an exit code of carc"},
        BadValue{"UnknownExpectKey", kFx, "/expect/verdicts", R"("legal")", "", "/expect/verdicts",
                 "unknown field"},
        BadValue{"CitedTwice", kFx, "/expect/cites/-", R"("BASE-SCORE-CITY")", "",
                 "/expect/cites/1", "given twice"},
        BadValue{"ScoreNotAnInteger", kFx, "/expect/scores/0", "8.5", "", "/expect/scores/0",
                 "expected an integer"},
        BadValue{"NegativeCount", kFx, "/expect/count", "-1", "", "/expect/count",
                 "expected an integer from 0"},
        BadValue{"ScoreEventNotAnObject", kFx, "/expect/score_events/0", "8", "",
                 "/expect/score_events/0", "expected an object"},
        BadValue{"ErrorBesideAVerdict", kFx, "/expect",
                 R"({"error": {"exit_code": 65}, "verdict": "legal"})", "", "/expect/verdict",
                 "expected alone"},
        BadValue{"ErrorExitingZero", kFx, "/expect", R"({"error": {"exit_code": 0}})", "",
                 "/expect/error/exit_code", "expected an exit code of a failure"},
        BadValue{"UnknownKeyOfAnError", kFx, "/expect",
                 R"({"error": {"exit_code": 65, "message": "x"}})", "", "/expect/error/message",
                 "unknown field"}),
    [](const ::testing::TestParamInfo<BadValue>& i) { return i.param.name; });

// The shipped tree: every ruling, link and needed expansion of the files is a row, and every
// fixture and ID it covers.
TEST(ShippedTree, BuildsEveryEntry) {
  auto c = OpenDatabase(":memory:", {.mode = OpenMode::kCreate});
  ASSERT_TRUE(c.ok());
  auto rep = BuildFromRepo(*c, kRoot.string());
  ASSERT_TRUE(rep.ok()) << rep.status().message();
  int rulings = 0, links = 0, needs = 0;
  for (const auto& e : fs::directory_iterator(kRoot / "database/rulings")) {
    if (e.path().filename() == kCzechQuestionsFile) continue;
    const json doc = Read(e.path());
    ASSERT_TRUE(CheckRulingFile(doc, e.path().string()).ok()) << e.path();
    for (const json& r : doc["rulings"]) {
      ++rulings;
      const json by_kind = r.value("links", json::object());
      for (const auto& [kind, ids] : by_kind.items()) links += static_cast<int>(ids.size());
      needs += static_cast<int>(r.value("needs_expansion", json::array()).size());
    }
  }
  EXPECT_EQ(rep->rulings, rulings);
  EXPECT_EQ(rep->links, links);
  EXPECT_EQ(QueryInt(*c, "SELECT count(*) FROM ruling_links"), links);
  EXPECT_EQ(QueryInt(*c, "SELECT count(*) FROM ruling_needs"), needs);
  int fixtures = 0, covers = 0;
  for (const auto& e : fs::recursive_directory_iterator(kRoot / "fixtures")) {
    const std::string name = e.path().filename().string();
    if (!name.ends_with(".ruling.json")) continue;
    const json doc = Read(e.path());
    ASSERT_TRUE(CheckFixtureRulingFile(doc, e.path().string()).ok()) << e.path();
    ++fixtures;
    covers += static_cast<int>(doc["covers"].size());
  }
  EXPECT_GT(fixtures, 400);
  EXPECT_EQ(rep->fixtures, fixtures);
  EXPECT_EQ(rep->covers, covers);
  EXPECT_EQ(QueryInt(*c, "SELECT count(*) FROM fixture_covers"), covers);
}

}  // namespace
}  // namespace carc::database
