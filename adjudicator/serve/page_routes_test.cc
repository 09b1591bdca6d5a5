// The page's own routes (page_routes.h), called without HTTP: the one-line notation both ways
// and what the modules declare for the pickers. Expected values worked out by hand from
// POSITION_FORMAT.md ("One-line notation") and the expansions' rule pages.
#include "adjudicator/serve/page_routes.h"

#include <gtest/gtest.h>

#include "model/core/position_io.h"

namespace carc::serve {
namespace {

using nlohmann::json;

const std::string kRoot = CARC_SOURCE_DIR;

json Body(const std::optional<Response>& r, int status) {
  EXPECT_TRUE(r.has_value());
  if (!r) return json();
  EXPECT_EQ(r->status, status) << r->body;
  return json::parse(r->body);
}

// The complete example of POSITION_FORMAT.md: its line, as documented there (the short form:
// rotation 0 and the default options left out), but for the question, which the short form keeps
// as the file writes it (the file's figure action names its kind, meeple).
TEST(PageRoutes, LineOfThePositionFile) {
  auto doc = model::ReadJsonFile(kRoot + "/fixtures/examples/who_scores_the_city.position.json");
  ASSERT_TRUE(doc.ok());
  doc->erase("meta");  // the documented line is the position without its title
  json out = Body(NotationRoute("POST", "/api/line", doc->dump()), 200);
  EXPECT_EQ(out["line"],
            "C3; players Anna 12 / Ben 7; board D 0,0 / U 1,0; figures Anna 1,0 road:EW; "
            "draw V E; turn Ben place_tile E; ask apply; actions place_tile 0,-1 180 / "
            "place_figure meeple city:S; claim legal scores 12,11")
      << out.dump();
}

TEST(PageRoutes, PositionOfALine) {
  json out = Body(
      NotationRoute("POST", "/api/position", "C3; players Anna / Ben; board D 0,0 / E 0,-1 180"),
      200);
  const json& p = out["position"];
  EXPECT_EQ(p["rules"]["edition"], "C3");
  ASSERT_EQ(p["board"].size(), 2u);
  EXPECT_EQ(p["board"][1], json({{"tile", "E"}, {"x", 0}, {"y", -1}, {"rotation", 180}}));
  EXPECT_EQ(p["players"][1]["name"], "Ben");
}

// A mistake in a line is refused (exit 65) naming its column: "E 0;-1" is column 36.
TEST(PageRoutes, BadLineNamesTheColumn) {
  json out = Body(
      NotationRoute("POST", "/api/position", "C3; players Anna / Ben; board D 0,0 / E 0x-1"), 400);
  EXPECT_EQ(out["exit_code"], 65);
  EXPECT_NE(out["error"].get<std::string>().find("column"), std::string::npos) << out.dump();
}

// The position is read as the command line reads a file: a key given twice, nesting beyond 64
// levels, 1e400 and a byte that is not UTF-8 are each 400 with exit_code 65 and the CLI's
// message, never the last value of a key or a 500.
TEST(PageRoutes, LineReadsThePositionWithTheCliReader) {
  const std::string dup = R"({"rules": {"edition": "C3"}, "rules": {"edition": "C1"}})";
  json out = Body(NotationRoute("POST", "/api/line", dup), 400);
  EXPECT_EQ(out["exit_code"], 65);
  EXPECT_NE(out["error"].get<std::string>().find("duplicate key \"rules\""), std::string::npos)
      << out.dump();
  out = Body(NotationRoute("POST", "/api/line", std::string(100000, '[')), 400);
  EXPECT_EQ(out["exit_code"], 65);
  out = Body(NotationRoute("POST", "/api/line", R"({"players": [{"score": 1e400}]})"), 400);
  EXPECT_NE(out["error"].get<std::string>().find("number out of range"), std::string::npos)
      << out.dump();
  out = Body(NotationRoute("POST", "/api/line", "{\"players\": [{\"name\": \"\xff\"}]}"), 400);
  EXPECT_EQ(out["exit_code"], 65);
}

// Both ways the position is checked as `carc convert` checks it: a rotation of 45 (POSITION_FORMAT
// "Coordinates"), a seventh player and an owner with no seat are refused, the line's with its
// column, never handed to the page.
// The line box has the notation's own length limit (limits.md: 1,048,576 bytes), as the command
// line has: a line of 70,000 bytes (blanks between two sections) is read, one byte over the
// limit is refused naming the column past it.
TEST(PageRoutes, ALineIsReadUpToTheNotationsLimit) {
  const std::string head = "C3; players Anna / Ben;";
  const std::string tail = "board D 0,0";
  json out = Body(NotationRoute("POST", "/api/position",
                                head + std::string(70000 - head.size() - tail.size(), ' ') + tail),
                  200);
  EXPECT_EQ(out["position"]["board"][0]["tile"], "D") << out.dump().substr(0, 300);
  out =
      Body(NotationRoute("POST", "/api/position",
                         head + std::string((1 << 20) + 1 - head.size() - tail.size(), ' ') + tail),
           400);
  EXPECT_EQ(out["exit_code"], 65);
  EXPECT_NE(out["error"].get<std::string>().find("column 1048577"), std::string::npos)
      << out.dump().substr(0, 300);
  EXPECT_NE(out["error"].get<std::string>().find("longer than 1048576 bytes"), std::string::npos)
      << out.dump().substr(0, 300);
}

TEST(PageRoutes, ConversionsCheckThePositionAsTheCliDoes) {
  json out =
      Body(NotationRoute("POST", "/api/position", "C3; players Anna / Ben; board D 0,0 45"), 400);
  EXPECT_EQ(out["exit_code"], 65);
  EXPECT_NE(out["error"].get<std::string>().find("column 31"), std::string::npos) << out.dump();
  out = Body(NotationRoute("POST", "/api/position", "C3; players A / B / C / D / E / F / G"), 400);
  EXPECT_EQ(out["exit_code"], 65);
  out = Body(NotationRoute("POST", "/api/position",
                           "C3; players A / B; board D 0,0 / U 1,0; figures #5 1,0 road"),
             400);
  EXPECT_EQ(out["exit_code"], 65);
  const std::string r45 = R"({"rules": {"edition": "C3", "expansions": [],
      "options": {"farm_scoring": "per-farm"}}, "players": [{"name": "A"}, {"name": "B"}],
      "board": [{"tile": "D", "x": 0, "y": 0, "rotation": 45}]})";
  out = Body(NotationRoute("POST", "/api/line", r45), 400);
  EXPECT_NE(out["error"].get<std::string>().find("/board/0/rotation"), std::string::npos)
      << out.dump();
  const std::string twice = R"({"rules": {"edition": "C3", "expansions": ["phantom", "phantom"],
      "options": {"farm_scoring": "per-farm"}}, "players": [{"name": "A"}, {"name": "B"}],
      "board": [{"tile": "D", "x": 0, "y": 0}]})";
  out = Body(NotationRoute("POST", "/api/line", twice), 400);
  EXPECT_EQ(out["exit_code"], 65);
  EXPECT_NE(out["error"].get<std::string>().find("/rules/expansions/1"), std::string::npos)
      << out.dump();
}

TEST(PageRoutes, OtherRequestsAreNotTheirs) {
  EXPECT_FALSE(NotationRoute("GET", "/api/line", "").has_value());
  EXPECT_FALSE(ModulesRoute("POST", "/api/modules").has_value());
}

// The Messengers: 8 messages (seed 003); Christmas Present: 32 card kinds, 16 per deck
// (XMAS-SETUP); Phantom: one figure kind, the phantom (PH-SETUP).
TEST(PageRoutes, ModulesDeclareTheirNames) {
  json out = Body(ModulesRoute("GET", "/api/modules"), 200);
  const json& m = out["modules"];
  EXPECT_EQ(out["core"]["figure_kinds"][0]["name"], "meeple");
  std::vector<std::string> messages;
  for (const json& a : m["messengers"]["actions"])
    if (a["type"] == "draw_message")
      messages = a["args"][0]["names"].get<std::vector<std::string>>();
  EXPECT_EQ(messages.size(), 8u);
  size_t cards = 0;
  for (const json& a : m["christmas_present"]["actions"])
    if (a["type"] == "xmas_play") cards = a["args"][0]["names"].size();
  EXPECT_EQ(cards, 32u);
  EXPECT_EQ(m["christmas_present"]["decks"]["monastery"].size(), 16u);
  EXPECT_EQ(m["christmas_present"]["decks"]["road"].size(), 16u);
  ASSERT_EQ(m["phantom"]["figure_kinds"].size(), 1u);
  EXPECT_EQ(m["phantom"]["figure_kinds"][0]["name"], "phantom");
}

}  // namespace
}  // namespace carc::serve
