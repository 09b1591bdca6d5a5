// Hostile input (issue 19): no crash, no hang, nothing silently misread. Each test states the
// outcome worked out by hand; fixtures/malformed/h*.json hold the position-file cases.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "adjudicator/adjudicate.h"
#include "adjudicator/conform/process.h"
#include "adjudicator/jcz.h"
#include "adjudicator/run_carc.h"
#include "database/games_store.h"
#include "database/jcz_record.h"
#include "model/core/input_file.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"
#include "model/render/svg.h"

namespace carc {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kCarc = CARC_BINARY;
const std::string kRoot = CARC_SOURCE_DIR;

using carc::testing::Carc;
using carc::testing::Result;
using carc::testing::Shell;

// A fresh folder under the system temp folder, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "carc-hostile-XXXXXX").string();
    path_ = mkdtemp(tmpl.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

void Write(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}
std::string Read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

// The smallest base-game position: D at (0, 0), Anna to place U.
json Small() {
  return json::parse(R"({
    "rules": {"edition": "C3", "expansions": [], "options": {"farm_scoring": "per-farm"}},
    "players": [{"name": "Anna", "score": 0}, {"name": "Ben", "score": 0}],
    "board": [{"tile": "D", "x": 0, "y": 0, "rotation": 0}],
    "supply": {"draw_order": ["V"]},
    "turn": {"player": 0, "step": "place_tile", "tile": "U"}})");
}

std::string Nested(size_t levels) { return std::string(levels, '[') + std::string(levels, ']'); }

// ---- the one range-checked integer reader

TEST(JsonInt, RefusesWhatDoesNotFitInsteadOfWrapping) {
  using model::JsonInt;
  // 2^64 - 1 used to become -1, 2^32 + 5 used to become 5.
  EXPECT_FALSE(JsonInt(json::parse("18446744073709551615")));
  EXPECT_FALSE(JsonInt(json::parse("4294967301")));
  EXPECT_FALSE(JsonInt(json::parse("-9223372036854775808")));
  EXPECT_FALSE(JsonInt(json::parse("1000001")));
  EXPECT_FALSE(JsonInt(json::parse("5.0")));  // a float is not an integer
  EXPECT_FALSE(JsonInt(json("5")));
  EXPECT_EQ(JsonInt(json::parse("-1000000")), -1000000);
  EXPECT_EQ(JsonInt(json::parse("1000000")), 1000000);
  EXPECT_EQ(JsonInt(json::parse("3"), 0, 8), 3);
  EXPECT_FALSE(JsonInt(json::parse("9"), 0, 8));
  EXPECT_FALSE(JsonInt(json::parse("-1"), 0, 8));
  EXPECT_EQ(model::JsonIntError(json("x"), 0, 8), "expected an integer from 0 to 8, got string");
}

// ---- parsing: nesting, duplicates, huge numbers

TEST(ParseJsonText, DeepNestingIsMalformedNotAStackOverflow) {
  // 100,000 levels overflowed the stack; the 65th level is refused where it opens.
  auto r = model::ParseJsonText("{\"a\": " + Nested(100000) + "}", "deep.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), model::ErrorCode::kMalformed);
  // Levels: the object (1), then arrays 2..64 at /a, /a/0, ...; the 65th opens at /a + 63 x /0.
  std::string ptr = "/a";
  for (int i = 0; i < 63; ++i) ptr += "/0";
  EXPECT_EQ(r.status().message(), "deep.json:" + ptr + ": JSON nested deeper than 64 levels");
  EXPECT_TRUE(model::ParseJsonText(Nested(64), "ok.json").ok());
  EXPECT_FALSE(model::ParseJsonText(Nested(65), "no.json").ok());
}

TEST(ParseJsonText, DuplicateKeysAreMalformedAtEveryLevel) {
  auto r = model::ParseJsonText(R"({"a": 1, "b": [0, {"c": 1, "c": 2}]})", "dup.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "dup.json:/b/1/c: duplicate key \"c\"");
  // The same key in two objects is no duplicate.
  EXPECT_TRUE(model::ParseJsonText(R"([{"a": 1}, {"a": 2}])", "ok.json").ok());
}

TEST(ParseJsonText, NumbersBeyondDoubleAreMalformedWithTheirPointer) {
  auto r = model::ParseJsonText(R"([1, 2, {"x": 1e400}])", "big.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), model::ErrorCode::kMalformed);
  EXPECT_EQ(r.status().message().rfind("big.json:/2/x: number out of range", 0), 0u)
      << r.status().message();
  auto digits = model::ParseJsonText("{\"s\": " + std::string(100000, '7') + "}", "d.json");
  ASSERT_FALSE(digits.ok());
  EXPECT_EQ(digits.status().message().rfind("d.json:/s: number out of range", 0), 0u);
}

TEST(DisplayName, EscapesBytesThatAreNotUtf8) {
  EXPECT_EQ(model::DisplayName("a\xff"
                               "b.json"),
            "a\\xffb.json");
  EXPECT_EQ(model::DisplayName("caf\xc3\xa9.json"), "caf\xc3\xa9.json");  // é stays
  EXPECT_EQ(model::DisplayName("a\nb"), "a\\x0ab");
  EXPECT_EQ(model::DisplayName("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a UTF-16 surrogate
}

// ---- reading files: size cap, FIFOs and devices

TEST(ReadInputFile, RefusesFifoWithoutBlocking) {
  TempDir dir;
  const std::string fifo = dir / "pipe";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  auto r = model::ReadInputFile(fifo);  // no writer: a plain open would block for ever
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), model::ErrorCode::kNoInput);
  EXPECT_NE(r.status().message().find("not a regular file"), std::string::npos);
}

TEST(ReadInputFile, RefusesDevicesAndFoldersAndCapsTheSize) {
  auto zero = model::ReadInputFile("/dev/zero");  // used to grow for ever
  ASSERT_FALSE(zero.ok());
  EXPECT_EQ(zero.status().code(), model::ErrorCode::kNoInput);
  TempDir dir;
  auto folder = model::ReadInputFile(dir.path().string());
  ASSERT_FALSE(folder.ok());
  EXPECT_EQ(folder.status().code(), model::ErrorCode::kNoInput);
  Write(dir / "ten", "0123456789");
  EXPECT_TRUE(model::ReadInputFile(dir / "ten", 10).ok());
  auto big = model::ReadInputFile(dir / "ten", 9);
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().code(), model::ErrorCode::kMalformed);
}

TEST(ReadInputFile, CliRefusesDevZeroAndReadsStdin) {
  Result zero = Carc("validate /dev/zero", true);
  EXPECT_EQ(zero.code, 66) << zero.out;
  EXPECT_NE(zero.out.find("/dev/zero: not a regular file"), std::string::npos) << zero.out;
  TempDir dir;
  Write(dir / "p.json", Small().dump());
  Result in = Carc("validate - < " + (dir / "p.json"));
  EXPECT_EQ(in.code, 0) << in.out;
}

// ---- .jcz records with short position arrays (used to read out of bounds: SIGSEGV)

json PeerGame() { return json::parse(Read(kRoot + "/fixtures/peer-games/base-2p-000.jcz")); }

TEST(Jcz, ShortPositionArraysAreMalformed) {
  // replay/0 is PLACE_TILE, replay/1 DEPLOY_MEEPLE (fixtures/peer-games/base-2p-000.jcz).
  for (const json& bad : {json::array(), json::array({0}), json::array({0, 1, 2}),
                          json::array({json(18446744073709551615ull), 0})}) {
    json d = PeerGame();
    d["replay"][0]["payload"]["position"] = bad;
    auto rec = database::JczToRecord(d, "g.jcz");
    ASSERT_FALSE(rec.ok()) << bad;
    EXPECT_EQ(rec.status().message(),
              "g.jcz:/replay/0/payload/position: expected [x, y], two integers");
    TempDir dir;
    Write(dir / "g.jcz", d.dump());
    auto rep = adjudicator::CheckJcz(dir / "g.jcz");
    ASSERT_FALSE(rep.ok());
    EXPECT_EQ(rep.status().code(), model::ErrorCode::kMalformed);
    EXPECT_NE(rep.status().message().find("/replay/0/payload/position"), std::string::npos);
  }
  json d = PeerGame();
  d["replay"][1]["payload"]["pointer"]["position"] = json::array({0});
  auto rec = database::JczToRecord(d, "g.jcz");
  ASSERT_FALSE(rec.ok());
  EXPECT_EQ(rec.status().message(),
            "g.jcz:/replay/1/payload/pointer/position: expected [x, y], two integers");
  d = PeerGame();
  d["finalPoints"] = json::array({json(18446744073709551615ull), 0});  // used to read -1
  rec = database::JczToRecord(d, "g.jcz");
  ASSERT_FALSE(rec.ok());
  EXPECT_NE(rec.status().message().find("/finalPoints"), std::string::npos);
}

TEST(Jcz, CliExitsMalformedOnAnEmptyPosition) {
  json d = PeerGame();
  d["replay"][0]["payload"]["position"] = json::array();
  TempDir dir;
  Write(dir / "g.jcz", d.dump());
  Result r = Carc("games check-jcz " + (dir / "g.jcz"), true);
  EXPECT_EQ(r.code, 65) << r.out;
}

// ---- game records

TEST(GameRecord, DeeplyNestedMetaIsMalformed) {
  TempDir dir;
  Write(dir / "g.game.json", "{\"format\": 1, \"meta\": " + Nested(100000) + "}");
  auto item = database::LoadGameFile(dir / "g.game.json");
  ASSERT_FALSE(item.ok());
  EXPECT_EQ(item.status().code(), model::ErrorCode::kMalformed);
  EXPECT_NE(item.status().message().find("/meta/0/0/0"), std::string::npos);
  EXPECT_NE(item.status().message().find("nested deeper than 64 levels"), std::string::npos);
}

// ---- adjudicate: claims, nesting, unbounded work

TEST(Adjudicate, ClaimNested100000LevelsIsMalformed) {
  TempDir dir;
  std::string text = Small().dump();
  text.insert(text.size() - 1, ", \"question\": {\"ask\": \"validate\", \"claim\": {\"scores\": [" +
                                   Nested(100000) + ", 11]}}");
  Write(dir / "p.json", text);
  auto o = adjudicator::RunFile(dir / "p.json", {});
  EXPECT_EQ(o.exit_code, 65) << o.error;
  EXPECT_NE(o.error.find("nested deeper than 64 levels"), std::string::npos) << o.error;
}

TEST(Adjudicate, RulingEchoesTheParsedActionNotTheUsersJson) {
  // D rotated 0 has its road running north-south; the apply question places V (a curve) and
  // passes. The echo is DumpAction's form: the same keys, tile filled in from the drawn tile
  // only if the user named it.
  json doc = Small();
  doc["question"] = {{"ask", "legal"}};
  auto legal = adjudicator::RunJson(doc, "p.json", {});
  ASSERT_EQ(legal.exit_code, 0) << legal.error;
  ASSERT_FALSE(legal.ruling["actions"].empty());
  json first = legal.ruling["actions"][0]["action"];
  doc["question"] = {{"ask", "apply"}, {"actions", {first, {{"type", "pass"}}}}};
  // The same placement written with the rotation as an unsigned JSON number.
  doc["question"]["actions"][0]["rotation"] =
      json(static_cast<uint64_t>(first["rotation"].get<int>()));
  auto o = adjudicator::RunJson(doc, "p.json", {});
  ASSERT_TRUE(o.error.empty()) << o.error;
  EXPECT_EQ(o.ruling["actions"][0]["action"], first);
  EXPECT_EQ(o.ruling["actions"][1]["action"], json({{"type", "pass"}}));
}

TEST(Adjudicate, PerftDepthIsBoundedByItsEstimatedCost) {
  // From D alone with the 71 other tiles unknown ("rest"), every level multiplies the count
  // by the draws (up to 24 tile kinds) or the placements: depth 8 is far beyond 1e6 sequences
  // and is refused at once, naming a depth that fits; depth 2 is answered.
  json doc = Small();
  doc["supply"] = {{"remaining", "rest"}};
  doc["turn"] = {{"player", 0}, {"step", "draw"}};
  auto deep = adjudicator::RunJson(doc, "p.json", {adjudicator::Mode::kLegal, 8});
  EXPECT_EQ(deep.exit_code, 65);
  EXPECT_NE(deep.error.find("beyond the work bound"), std::string::npos) << deep.error;
  auto shallow = adjudicator::RunJson(doc, "p.json", {adjudicator::Mode::kLegal, 2});
  EXPECT_EQ(shallow.exit_code, 0) << shallow.error;
}

// ---- validate: one BASE-MEEPLE-FREE violation per feature

TEST(Validate, ThreeThousandFiguresOnOneFeatureGiveOneViolation) {
  json doc = Small();
  doc["figures"] = json::array();
  for (int i = 0; i < 3000; ++i)
    doc["figures"].push_back({{"owner", i % 2}, {"x", 0}, {"y", 0}, {"feature", "city:N"}});
  auto pos = model::ParsePosition(doc, exp::Context("p.json"));
  ASSERT_TRUE(pos.ok()) << pos.status().message();
  int free_violations = 0;
  for (const auto& v : model::Validate(*pos))
    if (v.ruling == "BASE-MEEPLE-FREE") {
      ++free_violations;
      EXPECT_EQ(v.where, "/figures/1");  // the second figure on the city
      EXPECT_EQ(v.text.rfind("3000 figures on the same feature of one tile: Anna's meeple, "
                             "Ben's meeple, ",
                             0),
                0u)
          << v.text.substr(0, 200);
    }
  EXPECT_EQ(free_violations, 1);  // was 4,498,500, one per pair
}

// ---- render: a far square in question is not drawn (the box used to be drawn square by square)

TEST(Render, FarSquareInQuestionDoesNotGrowThePicture) {
  json doc = Small();
  doc["question"] = {
      {"ask", "apply"},
      {"actions", {{{"type", "place_tile"}, {"x", 1000000}, {"y", -1000000}, {"rotation", 0}}}}};
  auto svg = render::RenderPositionFile(doc, "far.json");
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  // One tile: a 3 x 3 grid, no square in question drawn.
  EXPECT_LT(svg->size(), 100000u);
  EXPECT_EQ(svg->find("width=\"95\""), std::string::npos);  // the square's outline
  // Two tiles a million squares apart (an impossible position): the tiles, no empty grid.
  doc["board"].push_back({{"tile", "V"}, {"x", 1000000}, {"y", 0}, {"rotation", 0}});
  svg = render::RenderPositionFile(doc, "far.json");
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  EXPECT_LT(svg->size(), 200000u);
}

// ---- the CLI: full stdout, file names that are not UTF-8

TEST(Cli, FullStdoutIsAnIoError) {
  // stdout to /dev/full, stderr to the pipe.
  Result r = Shell("{ " + kCarc + " validate " + kRoot +
                   "/fixtures/examples/who_scores_the_city.position.json >/dev/full 2>&3; } 3>&1");
  EXPECT_EQ(r.code, 74) << r.out;  // was 0: the ruling was lost silently
  EXPECT_NE(r.out.find("cannot write the output"), std::string::npos) << r.out;
}

TEST(Cli, FileNameThatIsNotUtf8) {
  TempDir dir;
  const std::string name = dir / "pos\xff.json";
  Write(name, Read(kRoot + "/fixtures/examples/who_scores_the_city.position.json"));
  Result r = Carc("validate '" + name + "'");
  EXPECT_EQ(r.code, 0);  // was 70: the JSON dump threw on the file name
  EXPECT_TRUE(json::accept(r.out)) << r.out.substr(0, 300);
}

// The verdict, not 65: the name is escaped (\xff as the four characters "\xff") wherever it
// appears, so the output is valid UTF-8 JSON. The example's verdict is worked out in its
// ruling file: E completes D's city for Ben, 7 + 4 = 11, claim [12, 11] upheld.
TEST(Cli, AdjudicateFileNameThatIsNotUtf8GivesTheVerdict) {
  TempDir dir;
  const std::string name = dir / "pos\xff.json";
  Write(name, Read(kRoot + "/fixtures/examples/who_scores_the_city.position.json"));
  Result r = Carc("adjudicate --format json '" + name + "'");
  ASSERT_EQ(r.code, 0) << r.out.substr(0, 300);  // was 65: the ruling could not be serialised
  ASSERT_TRUE(json::accept(r.out)) << r.out.substr(0, 300);
  const json j = json::parse(r.out);
  EXPECT_EQ(j.at("verdict"), "upheld");
  EXPECT_EQ(j.at("scores"), json::array({12, 11}));
  EXPECT_EQ(r.out.find('\xff'), std::string::npos);

  // A malformed file of such a name: 65, the message names it escaped (valid UTF-8 on stderr).
  const std::string bad = dir / "bad\xfe.json";
  Write(bad, R"({"rules": )");
  Result m = Shell("{ " + kCarc + " adjudicate '" + bad + "' >/dev/null 2>&3; } 3>&1");
  EXPECT_EQ(m.code, 65) << m.out;
  EXPECT_NE(m.out.find("bad\\xfe.json"), std::string::npos) << m.out;
  EXPECT_EQ(m.out.find('\xfe'), std::string::npos) << m.out;

  // Logged with --db: the adjudication is stored under the escaped name and listed as JSON.
  const std::string db = dir / "log.db";
  Result logged = Carc("adjudicate --format json --db '" + db + "' '" + name + "'");
  EXPECT_EQ(logged.code, 0) << logged.out.substr(0, 300);
  Result list = Carc("db adjudications --format json --db '" + db + "'");
  ASSERT_EQ(list.code, 0) << list.out;
  const json rows = json::parse(list.out);
  ASSERT_EQ(rows.size(), 1u) << list.out;
  EXPECT_EQ(rows[0].at("file"), (dir / "pos\\xff.json")) << list.out;
  EXPECT_EQ(rows[0].at("verdict"), "upheld") << list.out;
}

// ---- conform: engine answers of the wrong type, hung engines

TEST(Conform, WrongTypedAnswerIsTheEnginesFault) {
  using adjudicator::conform::ParseAnswer;
  json req = {{"id", 0}, {"cmd", "hello"}};
  auto r = ParseAnswer(R"({"id": 0, "ok": true, "protocol": 1, "expansions": 5})", req, "e");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), model::ErrorCode::kIo);
  EXPECT_EQ(r.status().message(), "engine \"e\" answered /expansions: wrong type, received 5");
  r = ParseAnswer(R"({"id": 0, "ok": "yes"})", req, "e");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("/ok: wrong type, received \"yes\""), std::string::npos);
  r = ParseAnswer(R"({"id": 0, "ok": true, "ok": false})", req, "e");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("duplicate key"), std::string::npos);
  EXPECT_TRUE(
      ParseAnswer(R"({"id": 0, "ok": true, "protocol": 1, "expansions": []})", req, "e").ok());

  Result cli = Carc(
      "conform --timeout 5 --engine \"read l; echo '{\\\"id\\\": 0, \\\"ok\\\": "
      "true, \\\"protocol\\\": 1, \\\"rulings\\\": [7]}'\"",
      true);
  EXPECT_EQ(cli.code, 74) << cli.out;  // was 70, and the report was lost
  EXPECT_NE(cli.out.find("/rulings: wrong type, received [7]"), std::string::npos) << cli.out;
}

bool Alive(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  auto close = line.rfind(')');
  return close != std::string::npos && line.size() > close + 2 && line[close + 2] != 'Z';
}

TEST(Conform, EnginesProcessGroupEndsWithTheRun) {
  // The engine starts a background child, answers hello with a protocol we do not speak, and
  // waits for its input to close; the child must not outlive `carc conform`.
  TempDir dir;
  const std::string pidfile = dir / "child.pid";
  Result r = Carc("conform --timeout 5 --engine \"sleep 300 & echo \\$! > " + pidfile +
                      "; read l; echo '{\\\"id\\\": 0, \\\"ok\\\": true, \\\"protocol\\\": 99}'; "
                      "read l\"",
                  true);
  EXPECT_EQ(r.code, 74) << r.out;
  const pid_t child = static_cast<pid_t>(std::stol("0" + Read(pidfile)));
  ASSERT_GT(child, 0);
  for (int i = 0; i < 100 && Alive(child); ++i) usleep(20000);
  EXPECT_FALSE(Alive(child)) << "the engine's child " << child << " outlived carc conform";
  if (Alive(child)) kill(child, SIGKILL);  // the test's own child: do not leave it behind
}

}  // namespace
}  // namespace carc
