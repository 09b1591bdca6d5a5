// The JSON reader of every input (ParseJsonText): the document it builds is nlohmann's own, its
// checks name the JSON pointer, and long arrays of objects are read whole (the callback parser
// it replaced rescanned the enclosing array at each object's end: 10^6 board tiles took minutes).
// Expectations worked out by hand from the inputs.
#include "model/core/input_file.h"

#include <gtest/gtest.h>

#include <string>

namespace carc::model {
namespace {

using nlohmann::json;

std::string Error(const std::string& text) {
  auto r = ParseJsonText(text, "f.json");
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? std::string() : r.status().message();
}

TEST(JsonReader, BuildsTheDocumentNlohmannBuilds) {
  const std::string text =
      R"({"b": [1, -2, 3.5, "s", true, false, null, {}, [], {"x": [{"y": {}}]}],
          "a": {"k": 18446744073709551615, "e": "\u00e9"}, "": 0})";
  auto r = ParseJsonText(text, "f.json");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(*r, json::parse(text));
  EXPECT_TRUE((*r)["a"]["k"].is_number_unsigned());
  EXPECT_TRUE((*r)["b"][1].is_number_integer());
  auto scalar = ParseJsonText("  42 ", "f.json");
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(*scalar, json(42));
}

// 100,000 objects in one array, as a board of 100,000 tiles: every one read, in order.
TEST(JsonReader, AnArrayOf100000ObjectsIsReadWhole) {
  std::string text = "{\"board\": [";
  for (int i = 0; i < 100000; ++i)
    text += (i ? "," : "") + std::string("{\"tile\":\"A\",\"x\":") + std::to_string(i) + "}";
  text += "]}";
  auto r = ParseJsonText(text, "f.json");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ((*r)["board"].size(), 100000u);
  EXPECT_EQ((*r)["board"][0], json({{"tile", "A"}, {"x", 0}}));
  EXPECT_EQ((*r)["board"][99999]["x"], 99999);
}

// The pointer of a repeated key counts the array elements before it, and the objects inside them.
TEST(JsonReader, ADuplicateKeyDeepInAnArrayIsNamedByItsPointer) {
  EXPECT_EQ(Error(R"([{"a": 1}, [2, {"a": 1}], {"b": {"c": 1}, "a": 1, "a": 2}])"),
            "f.json:/2/a: duplicate key \"a\"");
  EXPECT_EQ(Error(R"({"p/q": {"m~n": 1, "m~n": 2}})"), "f.json:/p~1q/m~0n: duplicate key \"m~n\"");
  // The same key in two objects is no duplicate.
  EXPECT_TRUE(ParseJsonText(R"([{"a": 1}, {"a": 1}])", "f.json").ok());
}

// The root object and 63 arrays in it nest fine; the 64th array would be level 65, opened at
// /x then 63 times /0.
TEST(JsonReader, NestingIsCappedAt64LevelsNamingWhereLevel65Opens) {
  const std::string ok = "{\"x\": " + std::string(63, '[') + std::string(63, ']') + "}";
  EXPECT_TRUE(ParseJsonText(ok, "f.json").ok());
  const std::string deep = "{\"x\": " + std::string(64, '[') + std::string(64, ']') + "}";
  std::string where = "/x";
  for (int i = 0; i < 63; ++i) where += "/0";
  EXPECT_EQ(Error(deep), "f.json:" + where + ": JSON nested deeper than 64 levels");
}

TEST(JsonReader, ANumberBeyondADoubleAndASyntaxErrorAreNamed) {
  const std::string big = Error(R"({"players": [{"score": 1}, {"score": 1e400}]})");
  EXPECT_EQ(big.rfind("f.json:/players/1/score: number out of range (", 0), 0u) << big;
  const std::string cut = Error(R"({"a": [1, 2)");
  EXPECT_EQ(cut.rfind("f.json:/: malformed JSON: parse error at line 1, column ", 0), 0u) << cut;
  EXPECT_EQ(Error("").rfind("f.json:/: malformed JSON: parse error", 0), 0u);
  EXPECT_EQ(Error("[1] 2").rfind("f.json:/: malformed JSON: parse error", 0), 0u);
}

// A byte that is not UTF-8 inside a string is a syntax error whose message stays printable: the
// byte is written \xff, so the message can go into JSON (carc serve) without failing.
TEST(JsonReader, AByteThatIsNotUtf8IsWrittenEscapedInTheMessage) {
  const std::string m = Error("{\"name\": \"a\xff\"}");
  EXPECT_NE(m.find("ill-formed UTF-8 byte"), std::string::npos) << m;
  EXPECT_NE(m.find("\\xff"), std::string::npos) << m;
  EXPECT_EQ(m.find('\xff'), std::string::npos);
  EXPECT_NO_THROW((void)json(m).dump());
}

// A board read as records: plain elements are records (null in the document), every other
// element is the document's object exactly as written, and the checks of the parse are the same.
TEST(JsonReader, APlainBoardElementIsARecordAndAnyOtherIsTheDocuments) {
  const std::string text =
      R"({"board": [{"tile": "D", "x": 0, "y": 0}, {"y": -1, "rotation": 270, "x": 2, "tile": "U"},)"
      R"( {"tile": "U", "x": 1, "y": 0, "z": 1}, {"tile": "UU", "x": 1, "y": 0},)"
      R"( {"tile": "U", "x": 1, "y": 0, "rotation": 45}, {"tile": "U", "x": 1000001, "y": 0},)"
      R"( {"tile": "U", "y": 0}, {"tile": "U", "x": 0.5, "y": 0}, 7, [1]], "x": {"board": []}})";
  CompactBoard board;
  auto r = ParseJsonText(text, "f.json", &board);
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_TRUE(board.read);
  ASSERT_EQ(board.tiles.size(), 10u);
  ASSERT_EQ((*r)["board"].size(), 10u);
  EXPECT_FALSE(board.tiles[0].in_doc);
  EXPECT_EQ(board.tiles[0].tile, 'D');
  EXPECT_TRUE((*r)["board"][0].is_null());
  EXPECT_FALSE(board.tiles[1].in_doc);
  EXPECT_EQ(board.tiles[1].tile, 'U');
  EXPECT_EQ(board.tiles[1].x, 2);
  EXPECT_EQ(board.tiles[1].y, -1);
  EXPECT_EQ(board.tiles[1].rotation, 3);
  const json whole = json::parse(text);
  for (size_t i = 2; i < 10; ++i) {
    EXPECT_TRUE(board.tiles[i].in_doc) << i;
    EXPECT_EQ((*r)["board"][i], whole["board"][i]) << i;
  }
  EXPECT_TRUE((*r)["board"][2]["x"].is_number_unsigned());
  EXPECT_EQ((*r)["x"], whole["x"]);  // a "board" elsewhere is an ordinary array
}

TEST(JsonReader, ARecordsChecksAreTheDocuments) {
  auto error = [](const std::string& text) {
    CompactBoard board;
    auto r = ParseJsonText(text, "f.json", &board);
    EXPECT_FALSE(r.ok()) << text;
    return r.ok() ? std::string() : r.status().message();
  };
  EXPECT_EQ(error(R"({"board": [{"tile": "D", "x": 0, "y": 0}, {"x": 1, "tile": "U", "x": 2}]})"),
            "f.json:/board/1/x: duplicate key \"x\"");
  EXPECT_EQ(error(R"({"board": [{"tile": "D", "x": 0, "q": 1, "q": 2}]})"),
            "f.json:/board/0/q: duplicate key \"q\"");
  EXPECT_EQ(error(R"({"board": [{"tile": "D", "x": 1e400}]})").substr(0, 40),
            "f.json:/board/0/x: number out of range (");
  EXPECT_EQ(error(R"({"board": [], "board": []})"), "f.json:/board: duplicate key \"board\"");
}

}  // namespace
}  // namespace carc::model
