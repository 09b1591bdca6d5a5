// Hostile input: no crash, no hang, nothing silently misread. Each test states the
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
#include <functional>
#include <string>

#include "adjudicator/adjudicate.h"
#include "adjudicator/conform/process.h"
#include "adjudicator/jcz.h"
#include "adjudicator/run_carc.h"
#include "database/game_record.h"
#include "database/games_store.h"
#include "database/jcz_record.h"
#include "model/core/input_file.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/core/text_escape.h"
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

// What a terminal acts on is written out: ESC and the other C0 controls as \xNN; the C1 CSI
// (U+009B), NEL (U+0085) and a right-to-left override (U+202E) by their code points. Lines,
// carriage returns and tabs pass in whole texts (stderr, text output), not in names.
TEST(EscapeControls, WritesOutWhatATerminalWouldActOn) {
  EXPECT_EQ(model::EscapeControls("\x1b[31mAnna\x1b[0m"), "\\x1b[31mAnna\\x1b[0m");
  EXPECT_EQ(model::EscapeControls("\xc2\x9b"
                                  "2J \xc2\x85 \xe2\x80\xae"
                                  "x"),
            "\\u{009B}2J \\u{0085} \\u{202E}x");
  EXPECT_EQ(model::EscapeControls("a\tb\r\nc\x07", /*keep_lines=*/true), "a\tb\r\nc\\x07");
  EXPECT_EQ(model::EscapeControls("a\tb\n"), "a\\x09b\\x0a");
  const std::string renee =
      "Ren\xc3\xa9"
      "e \xe2\x86\x92";  // é and an arrow stay
  EXPECT_EQ(model::EscapeControls(renee), renee);
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

// ---- the board read as records (input_file.h CompactBoard): the same messages as the document

TEST(ParsePosition, ABoardReadAsRecordsGivesTheDocumentsMessages) {
  const std::string head =
      R"({"rules": {"edition": "C3", "expansions": []}, "players": [{"name": "Anna"},)"
      R"( {"name": "Ben"}], "turn": {"player": 0, "step": "place_tile", "tile": "U"},)"
      R"( "board": [{"tile": "D", "x": 0, "y": 0}, )";
  const std::pair<std::string, std::string> cases[] = {
      {R"({"tile": "D", "x": 0, "y": 0})",
       "p.json:/board/1: two tiles on one square (0, 0): /board/0 is already there"},
      {R"({"tile": "Z", "x": 1, "y": 0})",
       "p.json:/board/1/tile: unknown tile \"Z\" (base tiles are A to X)"},
      {R"({"tile": "U", "x": 1})", "p.json:/board/1/y: missing"},
      {R"({"tile": "U", "x": 1, "y": 0, "rotation": 45})",
       "p.json:/board/1/rotation: expected 0, 90, 180 or 270, got 45"},
      {R"({"tile": "U", "x": 1, "y": 0, "z": 0})", "p.json:/board/1/z: unknown field"},
      {R"({"tile": "U", "x": 2000000, "y": 0})",
       "p.json:/board/1/x: expected an integer from -1000000 to 1000000, got 2000000"},
  };
  for (const auto& [tile, says] : cases) {
    const std::string text = head + tile + "]}";
    model::CompactBoard board;
    auto doc = model::ParseJsonText(text, "p.json", &board);
    ASSERT_TRUE(doc.ok()) << doc.status().message();
    auto pos = model::ParsePosition(*doc, exp::Context("p.json"), &board);
    ASSERT_FALSE(pos.ok()) << tile;
    EXPECT_EQ(pos.status().message(), says);
    auto plain = model::ParsePosition(json::parse(text), exp::Context("p.json"));
    ASSERT_FALSE(plain.ok()) << tile;
    EXPECT_EQ(plain.status().message(), says);
  }
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
  // A duplicate key is named as such, not as "not a JSON object".
  r = ParseAnswer(R"({"id": 0, "ok": true, "ok": false})", req, "e");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), model::ErrorCode::kIo);
  EXPECT_EQ(r.status().message(),
            "engine \"e\" answered invalid JSON at /ok: duplicate key \"ok\": "
            R"({"id": 0, "ok": true, "ok": false})");
  r = ParseAnswer("[0]", req, "e");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "engine \"e\" answered something that is not a JSON object: [0]");
  EXPECT_TRUE(
      ParseAnswer(R"({"id": 0, "ok": true, "protocol": 1, "expansions": []})", req, "e").ok());
  // A number is not read as another: an id, protocol, score or score event written as a float
  // (1.0, 1e0) is the engine's fault, named by its pointer.
  const std::pair<const char*, const char*> floats[] = {
      {R"({"id": 0.0, "ok": true, "protocol": 1})", "/id: wrong type, received 0.0"},
      {R"({"id": 0e0, "ok": true, "protocol": 1})", "/id: wrong type, received 0.0"},
      {R"({"id": "0", "ok": true, "protocol": 1})", "/id: wrong type, received \"0\""},
      {R"({"id": 0, "ok": true, "protocol": 1e0})", "/protocol: wrong type, received 1.0"},
      {R"({"id": 0, "ok": true, "scores": [1, 2.0]})", "/scores: wrong type, received [1,2.0]"},
      {R"({"id": 0, "ok": true, "scores": [1], )"
       R"("score_events": [{"points": 1}, {"points": 4.0}]})",
       "/score_events/1/points: wrong type, received 4.0"},
      {R"({"id": 0, "ok": true, "score_events": [{"points": 4, "winners": [0, 1e0]}]})",
       "/score_events/0/winners/1: wrong type, received 1.0"},
      {R"({"id": 0, "ok": true, )"
       R"("score_events": [{"at": {"x": 1.0, "y": 0, "feature": "city:N"}}]})",
       "/score_events/0/at/x: wrong type, received 1.0"},
      {R"({"id": 0, "ok": true, "score_events": [{"at": {"x": 1, "y": 0, "feature": 7}}]})",
       "/score_events/0/at/feature: wrong type, received 7"},
  };
  for (const auto& [answer, says] : floats) {
    r = ParseAnswer(answer, req, "e");
    ASSERT_FALSE(r.ok()) << answer;
    EXPECT_EQ(r.status().code(), model::ErrorCode::kIo) << answer;
    EXPECT_EQ(r.status().message(), std::string("engine \"e\" answered ") + says) << answer;
  }
  EXPECT_TRUE(ParseAnswer(R"({"id": 0, "ok": true, "scores": [1, 2], "score_events": [{"points": )"
                          R"(4, "winners": [0], "at": {"x": 1, "y": 0, "feature": "city:N"}}]})",
                          req, "e")
                  .ok());

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

// ---- the one-line notation: every value once, text that is UTF-8 without controls, bounded

// Runs a line as `carc validate FILE` does (a file holding the line), in process.
adjudicator::Outcome ValidateText(const std::string& text) {
  TempDir dir;
  Write(dir / "p.line", text);
  return adjudicator::RunFile(dir / "p.line", {adjudicator::Mode::kValidate, 0});
}

struct LineCase {
  const char* finding;  // what the row checks
  std::string line;
  int exit_code;
  std::string message;  // a part of the message, with the column worked out by hand
};

// Each row's line through `carc validate`: its exit code, and its message part when it has one.
void ExpectEach(const std::vector<LineCase>& cases) {
  for (const LineCase& c : cases) {
    auto o = ValidateText(c.line);
    EXPECT_EQ(o.exit_code, c.exit_code) << c.finding << ": " << o.error;
    if (!c.message.empty()) {
      EXPECT_NE(o.error.find(c.message), std::string::npos) << c.finding << ": " << o.error;
    }
  }
}

// The value given second is the one refused, at its column, naming the first one's column. The
// columns are counted by hand in the lines below: "C3; players Anna / Ben; board D 0,0; " is 37
// bytes, so the next section's name starts at column 38.
TEST(Notation, RepeatedOrSurplusValuesAreRefusedWhereTheyAre) {
  const std::string head = "C3; players Anna / Ben; board D 0,0; ";
  const std::vector<LineCase> cases = {
      {"control: the base line is a valid position", head + "turn Ben place_tile E", 0, ""},
      {"surplus tile in turn", head + "turn Ben place_tile E V", 65,
       "column 60 (turn): the tile drawn given twice (first at column 58)"},
      {"claim legal then illegal", head + "turn Ben place_tile E; claim legal illegal", 65,
       "column 73 (claim): legal or illegal given twice (first at column 67)"},
      {"claim scores twice", head + "turn Ben place_tile E; claim scores 0,0 scores 12,11", 65,
       "column 78 (claim): scores given twice (first at column 67)"},
      {"a kind in hand twice", "C3; players Anna / Ben 7 meeple:1 meeple:7; board D 0,0", 65,
       "column 35 (players, item 2): figures in hand of kind meeple given twice (first at "
       "column 26)"},
      {"a tile's count twice", head + "remaining U:3 U:1", 65,
       "column 52 (remaining): the count of tile U given twice (first at column 48)"},
      {"an option twice (before its unknown value, 69, is read)",
       "C3 farm_scoring=a farm_scoring=b; players Anna / Ben; board D 0,0", 65,
       "column 19 (rules): option farm_scoring given twice (first at column 4)"},
      {"the placed square twice",
       "C3; players Anna / Ben; board D 0,0 / U 1,0; turn Anna place_figure 1,0 0,0", 65,
       "column 73 (turn): the square of the tile placed (X,Y) given twice (first at column 69)"},
      {"an expansion twice", "C3 phantom phantom; players Anna / Ben; board D 0,0", 65,
       "column 12 (rules): expansion phantom given twice (first at column 4)"},
      {"the step twice", head + "turn Ben place_tile draw", 65,
       "column 58 (turn): the step given twice (first at column 47)"},
      {"a state twice",
       "C3 phantom; players Anna / Ben; board D 0,0; state phantom {} ; state "
       "phantom {}",
       65, "(state): state phantom given twice (first at column 52)"},
      {"a section twice", head + "board U 1,0", 65, "column 38 (board): section board given twice"},
      {"an unknown edition is 69, not malformed JSON", "C4; players Anna / Ben; board D 0,0", 69,
       "column 1 (rules): unknown edition \"C4\" (known: C1, C2, C3)"},
  };
  ExpectEach(cases);
}

TEST(Notation, TextThatIsNotUtf8OrHoldsControlsIsRefusedAtItsColumn) {
  const std::vector<LineCase> cases = {
      // "C3; players An" is 14 bytes: the 0xFF byte is column 15.
      {"a raw 0xFF in a name",
       "C3; players An\xff"
       "na / Ben; board D 0,0",
       65, "column 15: invalid UTF-8"},
      {"a UTF-16 surrogate in a name",
       "C3; players An\xed\xa0\x80"
       "na / Ben; board D 0,0",
       65, "column 15: invalid UTF-8"},
      {"a raw ESC in a name", "C3; players \x1b[31mAnna / Ben; board D 0,0", 65,
       "column 13: control character U+001B"},
      {"a C1 CSI in a name",
       "C3; players \xc2\x9b"
       "31mAnna / Ben; board D 0,0",
       65, "column 13: control character U+009B"},
      {"ESC written as a JSON escape", "C3; players \"\\u001b[31mAnna\" / Ben; board D 0,0", 65,
       "column 13: control character U+001B in a string (character 1, byte 1)"},
      {"a right-to-left override", "C3; players \"\\u202eAnna\" / Ben; board D 0,0", 65,
       "column 13: control character U+202E in a string"},
      {"control: an accented name is UTF-8",
       "C3; players Ren\xc3\xa9"
       "e / Ben; board D 0,0",
       0, ""},
  };
  ExpectEach(cases);
}

// The CLI surfaces that used to exit 70 (type_error.316) on a 0xFF byte in a name.
TEST(Notation, CliRefusesInvalidUtf8InANameWith65) {
  TempDir dir;
  const std::string line =
      "'C3; players An\xff"
      "na / Ben; board D 0,0; turn Anna draw'";
  for (const std::string& cmd :
       {"convert " + line + " --to json", "play " + line + " 'draw U'",
        "adjudicate --db " + (dir / "log.db") + " " + line, "validate " + line}) {
    Result r = Carc(cmd, true);
    EXPECT_EQ(r.code, 65) << cmd << ": " << r.out;
    EXPECT_NE(r.out.find("column 15: invalid UTF-8"), std::string::npos) << cmd << ": " << r.out;
    EXPECT_EQ(r.out.find("type_error"), std::string::npos) << r.out;
  }
  Result n = Carc(
      "new --players 'An\xff"
      "na,Ben' --to json",
      true);
  EXPECT_EQ(n.code, 65) << n.out;
  EXPECT_NE(n.out.find("/players/0/name: a player's name: invalid UTF-8 at byte 3"),
            std::string::npos)
      << n.out;
  Result esc = Carc("new --players $(printf 'Anna\\033[2J,Ben') --to json", true);
  EXPECT_EQ(esc.code, 65) << esc.out;
  EXPECT_NE(esc.out.find("control character U+001B at character 5"), std::string::npos) << esc.out;
  EXPECT_EQ(esc.out.find('\x1b'), std::string::npos);
}

// Caps, checked by outcome: the child runs under 1 GB of address space and 10 s of CPU
// (ulimit), so a cap that does not hold ends in a signal or an allocation failure, not 65.
Result Bounded(const std::string& args) {
  return Shell("ulimit -v 1048576; ulimit -t 10; " + kCarc + " " + args, true);
}

TEST(Limits, LongLinesListsAndNamesAreRefusedWithinBounds) {
  TempDir dir;
  // 10^6 board items: 8 MB, beyond the 1 MiB of a line.
  std::string items = "C3; players Anna / Ben; board D 0,0";
  for (int i = 0; i < 1000000; ++i) items += " / U 1,0";
  Write(dir / "million.line", items);
  Result r = Bounded("validate " + (dir / "million.line"));
  EXPECT_EQ(r.code, 65) << r.out.substr(0, 300);
  EXPECT_NE(r.out.find("the line is longer than 1048576 bytes (8000035)"), std::string::npos)
      << r.out.substr(0, 300);
  // 4,097 items in a line under 1 MiB: the 4,096th "/", which would open item 4,097, is refused.
  std::string many = "C3; players Anna / Ben; board D 0,0";
  for (int i = 0; i < 4096; ++i) many += " / U " + std::to_string(i + 1) + ",0";
  Write(dir / "many.line", many);
  r = Bounded("validate " + (dir / "many.line"));
  EXPECT_EQ(r.code, 65) << r.out.substr(0, 300);
  EXPECT_NE(r.out.find("(board): more than 4096 items in one section"), std::string::npos)
      << r.out.substr(0, 300);
  // A 60 MB name in a JSON file (under the 64 MiB file cap).
  json doc = Small();
  doc["players"][0]["name"] = std::string(60 << 20, 'a');
  Write(dir / "name.json", doc.dump());
  doc = json();
  r = Bounded("validate " + (dir / "name.json"));
  EXPECT_EQ(r.code, 65) << r.out.substr(0, 300);
  EXPECT_NE(r.out.find("/players/0/name: a player's name: longer than 64 characters (62914560)"),
            std::string::npos)
      << r.out.substr(0, 300);
}

TEST(Limits, NameOf64CharactersIsTheLongest) {
  json doc = Small();
  doc["players"][1]["name"] = std::string(60, 'a') + "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9";  // 64
  auto ok = adjudicator::RunJson(doc, "p.json", {adjudicator::Mode::kValidate, 0});
  EXPECT_EQ(ok.exit_code, 0) << ok.error;
  doc["players"][1]["name"] = std::string(65, 'a');
  auto no = adjudicator::RunJson(doc, "p.json", {adjudicator::Mode::kValidate, 0});
  EXPECT_EQ(no.exit_code, 65);
  EXPECT_EQ(no.error, "p.json:/players/1/name: a player's name: longer than 64 characters (65)");
}

// The text verdict prints the names (its "figures:" line among others): a name with an escape
// never gets that far.
TEST(Names, ControlCharactersInAJsonNameAreRefused) {
  json doc = Small();
  doc["players"][0]["name"] = "\x1b[31mAnna";
  auto o = adjudicator::RunJson(doc, "p.json", {adjudicator::Mode::kValidate, 0});
  EXPECT_EQ(o.exit_code, 65);
  EXPECT_EQ(o.error,
            "p.json:/players/0/name: a player's name: control character U+001B at character 1");
  doc["players"][0]["name"] = "Anna\xc2\x85";  // NEL, a C1 control
  o = adjudicator::RunJson(doc, "p.json", {adjudicator::Mode::kValidate, 0});
  EXPECT_EQ(o.exit_code, 65);
  EXPECT_NE(o.error.find("control character U+0085 at character 5"), std::string::npos) << o.error;
}

// ---- position files: unknown keys and repeats inside objects and lists

TEST(PositionFile, UnknownKeysAndRepeatsAreRefusedWithTheirPointer) {
  struct Case {
    const char* finding;
    std::function<void(json&)> edit;
    int exit_code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"turn.placed with a third key",
       [](json& d) {
         d["board"].push_back({{"tile", "U"}, {"x", 1}, {"y", 0}});
         d["turn"] = {
             {"player", 0}, {"step", "place_figure"}, {"placed", {{"x", 1}, {"y", 0}, {"z", 0}}}};
       },
       65, "p.json:/turn/placed/z: unknown field"},
      {"an expansion listed twice",
       [](json& d) {
         d["rules"]["expansions"] = {"phantom", "phantom"};
       },
       65,
       "p.json:/rules/expansions/1: expansion \"phantom\" given twice (also /rules/expansions/0)"},
      {"pass with a square",
       [](json& d) {
         d["question"] = {{"ask", "apply"}, {"actions", {{{"type", "pass"}, {"x", 1}}}}};
       },
       65, "/question/actions/0/x: unknown field"},
      {"a tile placement with a feature",
       [](json& d) {
         d["question"] = {{"ask", "apply"},
                          {"actions",
                           {{{"type", "place_tile"},
                             {"x", 1},
                             {"y", 0},
                             {"rotation", 0},
                             {"feature", "city"}}}}};
       },
       65, "/question/actions/0/feature: unknown field"},
  };
  for (const Case& c : cases) {
    json doc = Small();
    c.edit(doc);
    auto o = adjudicator::RunJson(doc, "p.json", {adjudicator::Mode::kAdjudicate, 0});
    if (!doc.contains("question"))
      o = adjudicator::RunJson(doc, "p.json", {adjudicator::Mode::kValidate, 0});
    EXPECT_EQ(o.exit_code, c.exit_code) << c.finding << ": " << o.error;
    EXPECT_NE(o.error.find(c.message), std::string::npos) << c.finding << ": " << o.error;
  }
}

// ---- .jcz games: one reader for check-jcz and import, strict about what the model lacks

TEST(Jcz, GamesOfExpansionsTheModelLacksAre69InBothCommands) {
  struct Case {
    const char* finding;
    std::function<void(json&)> edit;
    int exit_code;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"Inns & Cathedrals tiles", [](json& d) { d["setup"]["sets"]["inns-and-cathedrals:1"] = 1; },
       69,
       "g.jcz:/setup/sets/inns-and-cathedrals:1: tile set \"inns-and-cathedrals:1\", which the "
       "model does not have"},
      {"the River", [](json& d) { d["setup"]["sets"]["river:1"] = 1; }, 69,
       "/setup/sets/river:1: tile set \"river:1\""},
      {"the abbot", [](json& d) { d["setup"]["elements"]["abbot"] = true; }, 69,
       "g.jcz:/setup/elements/abbot: element \"abbot\", which the model does not have"},
      {"the big follower of Inns & Cathedrals",
       [](json& d) { d["setup"]["elements"]["big-follower"] = 1; }, 69,
       "/setup/elements/big-follower: element \"big-follower\""},
      {"no farmers", [](json& d) { d["setup"]["elements"]["farmers"] = false; }, 69,
       "/setup/elements/farmers: a game without farmers"},
      // replay/1 is player 0's DEPLOY_MEEPLE "0.small.1" (fixtures/peer-games/base-2p-000.jcz).
      {"player 1's meeple in player 0's turn",
       [](json& d) { d["replay"][1]["payload"]["meepleId"] = "1.small.1"; }, 65,
       "g.jcz:/replay/1/payload/meepleId: a figure of player 1, but it is player 0's turn"},
      {"an abbot's id without the abbot element",
       [](json& d) { d["replay"][1]["payload"]["meepleId"] = "0.abbot.1"; }, 65,
       "/replay/1/payload/meepleId: unknown figure \"abbot\" (small)"},
      {"rotation R45", [](json& d) { d["replay"][0]["payload"]["rotation"] = "R45"; }, 65,
       "g.jcz:/replay/0/payload/rotation: expected R0, R90, R180 or R270, got \"R45\""},
      {"an empty object", [](json& d) { d = json::object(); }, 65,
       "g.jcz:/: missing field \"setup\""},
      {"setup of the wrong type", [](json& d) { d["setup"] = 5; }, 65,
       "g.jcz:/setup: expected an object, got number"},
      {"a name with an escape", [](json& d) { d["players"][0]["name"] = "\x1b[2J"; }, 65,
       "g.jcz:/players/0/name: a player's name: control character U+001B at character 1"},
  };
  for (const Case& c : cases) {
    json d = PeerGame();
    c.edit(d);
    TempDir dir;
    Write(dir / "g.jcz", d.dump());
    for (const std::string& cmd : {"games check-jcz " + (dir / "g.jcz"),
                                   "games import --db " + (dir / "g.db") + " " + (dir / "g.jcz")}) {
      Result r = Carc(cmd, true);
      EXPECT_EQ(r.code, c.exit_code) << c.finding << " (" << cmd << "): " << r.out;
      EXPECT_NE(r.out.find(c.message.substr(c.message.find(':') + 1)), std::string::npos)
          << c.finding << " (" << cmd << "): " << r.out;
      EXPECT_EQ(r.out.find("json.exception"), std::string::npos) << r.out;
      EXPECT_EQ(r.out.find("type_error"), std::string::npos) << r.out;
    }
    auto rec = database::JczToRecord(d, "g.jcz");
    ASSERT_FALSE(rec.ok()) << c.finding;
    EXPECT_EQ(static_cast<int>(rec.status().code()), c.exit_code) << c.finding;
    EXPECT_NE(rec.status().message().find(c.message), std::string::npos)
        << c.finding << ": " << rec.status().message();
  }
}

// ---- game records and the games commands

TEST(GameRecord, SevenPlayersAreBlamedOnPlayers) {
  json rec = {{"format", "carc-game/1"},
              {"players", json::array()},
              {"draw_order", json::array()},
              {"turns", {{{"actions", {{{"type", "pass"}}}}, {"scores", {0, 0, 0, 0, 0, 0, 0}}}}}};
  for (int i = 0; i < 7; ++i) rec["players"].push_back({{"name", "P" + std::to_string(i)}});
  auto r = database::ParseGameRecord(rec, "g.game.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "g.game.json:/players: expected 1 to 6 players, each {\"name\": ...}");
  rec["players"].erase(6);
  rec["rules"] = {{"expansions", {"phantom", "phantom"}}};
  r = database::ParseGameRecord(rec, "g.game.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(),
            "g.game.json:/rules/expansions/1: expansion \"phantom\" given twice");
}

TEST(Cli, GameNumberBeyondInt64IsAUsageError) {
  TempDir dir;
  // 2^63 used to be read as 2^63 - 1: "no game 9223372036854775807".
  Result r = Carc("games show 9223372036854775808 --db " + (dir / "g.db"), true);
  EXPECT_EQ(r.code, 64) << r.out;
  EXPECT_NE(r.out.find("expected a game number from 1 to 9223372036854775807"), std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("no game"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace carc
