// The JSON API of `carc serve`, called without HTTP. Expectations are worked out by hand from
// the tile table (POSITION_FORMAT.md) and the rules; the adjudication must be the CLI's own.
#include "adjudicator/serve/api.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "adjudicator/serve/server.h"
#include "adjudicator/test_scratch.h"
#include "database/games_store.h"
#include "database/migrate.h"
#include "database/rulings_store.h"
#include "model/core/position_io.h"

namespace carc::serve {
namespace {

using nlohmann::json;

const std::string kRoot = CARC_SOURCE_DIR;
const std::string kExample = kRoot + "/fixtures/examples/who_scores_the_city.position.json";

Api& TheApi() {
  static std::unique_ptr<Api> api = [] {
    // No database file: the rulings are built into memory from the source tree.
    auto a = Api::Create({.run = adjudicator::RunJson, .db_path = "", .root = kRoot});
    EXPECT_TRUE(a.ok()) << a.status().message();
    return std::move(*a);
  }();
  return *api;
}

json Call(const std::string& method, const std::string& path, const std::string& body = "",
          std::map<std::string, std::string> query = {}, int* status = nullptr) {
  Response r = TheApi().Handle(method, path, query, body);
  if (status) *status = r.status;
  return json::parse(r.body);
}

json Rotation(const json& fit, int x, int y, int deg) {
  for (const json& q : fit["squares"])
    if (q["x"] == x && q["y"] == y)
      for (const json& r : q["rotations"])
        if (r["rotation"] == deg) return r;
  return json();
}

// Start tile D at (0, 0) unturned: city north, road east-west, field south.
TEST(ServeApi, FitAnswersWithTheClashingEdge) {
  int status = 0;
  json fit = Call("POST", "/api/fit",
                  R"({"tile": "E", "board": [{"tile": "D", "x": 0, "y": 0, "rotation": 0}]})", {},
                  &status);
  ASSERT_EQ(status, 200) << fit.dump();
  // North of D: E's city must face south, so only rotation 180 fits; unturned, E's field
  // (south edge) meets D's city.
  EXPECT_EQ(Rotation(fit, 0, -1, 180)["ok"], true);
  json bad = Rotation(fit, 0, -1, 0);
  EXPECT_EQ(bad["ok"], false);
  EXPECT_EQ(bad["ruling"], "BASE-PLACE-EDGE");
  EXPECT_EQ(bad["side"], "south");
  EXPECT_EQ(bad["reason"], "the south edge (field) meets a city edge of tile D");
  // East of D is a road end: E has no road, so no rotation fits.
  for (int deg : {0, 90, 180, 270}) EXPECT_EQ(Rotation(fit, 1, 0, deg)["ok"], false) << deg;
  // South of D is field: E fits wherever its city does not face north.
  EXPECT_EQ(Rotation(fit, 0, 1, 0)["ok"], false);
  EXPECT_EQ(Rotation(fit, 0, 1, 90)["ok"], true);
  EXPECT_EQ(Rotation(fit, 0, 1, 180)["ok"], true);
  EXPECT_EQ(Rotation(fit, 0, 1, 270)["ok"], true);
  EXPECT_EQ(fit["squares"].size(), 4u);  // the four neighbours of the only tile
}

TEST(ServeApi, FitRefusesABadBoardNamingTheEntry) {
  int status = 0;
  json e = Call("POST", "/api/fit",
                R"({"tile": "E", "board": [{"tile": "D", "x": 0, "y": 0, "rotation": 45}]})", {},
                &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(e["exit_code"], 65);
  EXPECT_EQ(e["error"], "request:/board/0/rotation: expected 0, 90, 180 or 270, got 45");
}

// Ben caps the start tile's city with E rotated 180 and a meeple on it: 2 tiles x 2 = 4
// points, 7 -> 11; Anna keeps 12. The claim [12, 11] is upheld (README's example).
TEST(ServeApi, AdjudicateIsTheCommandLinesAnswer) {
  auto doc = model::ReadJsonFile(kExample);
  ASSERT_TRUE(doc.ok());
  int status = 0;
  json out = Call("POST", "/api/adjudicate", doc->dump(), {}, &status);
  ASSERT_EQ(status, 200) << out.dump();
  EXPECT_EQ(out["exit_code"], 0);
  EXPECT_EQ(out["ruling"]["verdict"], "upheld");
  EXPECT_EQ(out["ruling"]["scores"], json::parse("[12, 11]"));
  EXPECT_NE(out["svg"].get<std::string>().find("<svg"), std::string::npos);
  adjudicator::Outcome cli = adjudicator::RunJson(*doc, "position.json", {});
  EXPECT_EQ(out["ruling"], cli.ruling);
}

TEST(ServeApi, AMalformedPositionGetsTheCommandLinesMessage) {
  auto doc = model::ReadJsonFile(kExample);
  ASSERT_TRUE(doc.ok());
  (*doc)["board"][1]["rotation"] = 45;
  int status = 0;
  json e = Call("POST", "/api/adjudicate", doc->dump(), {}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(e["exit_code"], 65);
  adjudicator::Outcome cli = adjudicator::RunJson(*doc, "position.json", {});
  EXPECT_EQ(e["error"], cli.error);
  EXPECT_NE(e["error"].get<std::string>().find("position.json:/board/1/rotation"),
            std::string::npos);
  json syntax = Call("POST", "/api/adjudicate", "{\"rules\": ", {}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(syntax["exit_code"], 65);
}

// The verdict's features as data for the page's board: the city Ben closes is D's city:N and
// E's city:S (turned 180), score event 1, with Ben's meeple on E's city.
TEST(ServeApi, HighlightsNameTheScoredFeatureTileByTile) {
  auto doc = model::ReadJsonFile(kExample);
  ASSERT_TRUE(doc.ok());
  int status = 0;
  json out = Call("POST", "/api/adjudicate", doc->dump(), {}, &status);
  ASSERT_EQ(status, 200) << out.dump();
  const json& h = out["highlights"];
  EXPECT_EQ(h["square"], (json{{"x", 0}, {"y", -1}, {"illegal", false}}));
  ASSERT_EQ(h["features"].size(), 1u) << h.dump();  // Anna's road is not completed
  const json& city = h["features"][0];
  EXPECT_EQ(city["mark"], "scored");
  EXPECT_EQ(city["kind"], "city");
  EXPECT_EQ(city["labels"], json::parse("[1]"));
  std::set<std::string> segs;
  for (const json& s : city["segments"])
    segs.insert(std::to_string(s["x"].get<int>()) + "," + std::to_string(s["y"].get<int>()) + " " +
                s["feature"].get<std::string>());
  EXPECT_EQ(segs, (std::set<std::string>{"0,0 city:N", "0,-1 city:S"}));
  ASSERT_EQ(city["figures"].size(), 1u);
  EXPECT_EQ(city["figures"][0]["owner_name"], "Ben");
  EXPECT_EQ(city["figures"][0]["x"], 0);
  EXPECT_EQ(city["figures"][0]["y"], -1);
}

// Anna's knight already holds D's city: Ben's meeple on E's city joins it (BASE-MEEPLE-FREE),
// so that city is the disputed feature, drawn red, Anna's knight on it.
TEST(ServeApi, HighlightsNameTheFeatureAnIllegalFigureIsRefusedOn) {
  auto doc = model::ReadJsonFile(kExample);
  ASSERT_TRUE(doc.ok());
  (*doc)["figures"].push_back(
      {{"owner", 0}, {"kind", "meeple"}, {"x", 0}, {"y", 0}, {"feature", "city:N"}});
  (*doc)["players"][0]["supply"]["meeple"] = 5;
  (*doc)["question"].erase("claim");
  int status = 0;
  json out = Call("POST", "/api/adjudicate", doc->dump(), {}, &status);
  ASSERT_EQ(status, 200) << out.dump();
  ASSERT_EQ(out["ruling"]["verdict"], "illegal") << out["ruling"].dump();
  const json& f = out["highlights"]["features"];
  ASSERT_EQ(f.size(), 1u) << f.dump();
  EXPECT_EQ(f[0]["mark"], "disputed");
  EXPECT_EQ(f[0]["segments"].size(), 2u);
  ASSERT_EQ(f[0]["figures"].size(), 1u);
  EXPECT_EQ(f[0]["figures"][0]["owner_name"], "Anna");
}

// A game's turn as a question (`games position ID --turn N` plus the turn's moves). By hand
// from g01's record: before turn 2 the board is D and E, Ben holds U; the turn's moves are U at
// (1, 0) and a meeple on its road, claimed [4, 2] (final scoring: Ben's road, 2 tiles).
TEST(ServeApi, AGameTurnOpensAsAPositionWithItsMoves) {
  const std::string path =
      ::carc::testing_support::ScratchDir("serve_api_test") + "/serve_api_games.db";
  std::filesystem::remove(path);
  {
    auto conn = database::OpenDatabase(path, {.mode = database::OpenMode::kCreate});
    ASSERT_TRUE(conn.ok()) << conn.status().message();
    std::vector<database::ImportItem> items;
    for (const char* g : {"g01_city_then_road", "g02_road_tile_turned_wrong"}) {
      auto item = database::LoadGameFile(kRoot + "/fixtures/games/" + g + ".game.json");
      ASSERT_TRUE(item.ok()) << item.status().message();
      items.push_back(*item);
    }
    ASSERT_TRUE(database::ImportGames(*conn, items).ok());
  }
  auto api = Api::Create({.run = adjudicator::RunJson, .db_path = path, .root = kRoot});
  ASSERT_TRUE(api.ok()) << api.status().message();
  auto call = [&](const std::string& p, int* status) {
    Response r = (*api)->Handle("GET", p, {}, "");
    *status = r.status;
    return json::parse(r.body);
  };
  int status = 0;
  json t2 = call("/api/games/1/turn/2", &status);
  ASSERT_EQ(status, 200) << t2.dump();
  const json& pos = t2["position"];
  ASSERT_EQ(pos["board"].size(), 2u);
  EXPECT_EQ(pos["board"][1], (json{{"tile", "E"}, {"x", 0}, {"y", -1}, {"rotation", 180}}));
  EXPECT_EQ(pos["turn"]["tile"], "U");
  EXPECT_EQ(pos["question"]["actions"][0],
            (json{{"type", "place_tile"}, {"tile", "U"}, {"x", 1}, {"y", 0}, {"rotation", 0}}));
  EXPECT_EQ(pos["question"]["claim"]["scores"], json::parse("[4, 2]"));
  EXPECT_EQ(t2["ruling"]["verdict"], "upheld") << t2["ruling"].dump();
  EXPECT_NE(t2["svg"].get<std::string>().find("<svg"), std::string::npos);
  // g01 turn 2 states every choice: no pass is added.
  EXPECT_EQ(pos["question"]["actions"].size(), 2u);
  // After the last turn: the final position, no question.
  json t3 = call("/api/games/1/turn/3", &status);
  ASSERT_EQ(status, 200) << t3.dump();
  EXPECT_EQ(t3["position"]["board"].size(), 3u);
  EXPECT_FALSE(t3["position"].contains("question"));
  // g02's turn 2 is illegal: there is no position before its turn 3.
  json bad = call("/api/games/2/turn/3", &status);
  ASSERT_EQ(status, 200) << bad.dump();
  EXPECT_TRUE(bad["position"].is_null());
  EXPECT_EQ(bad["cited"], json::parse(R"(["BASE-PLACE-EDGE"])"));
  json out = call("/api/games/1/turn/4", &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(out["exit_code"], 64);
  out = call("/api/games/x/turn/1", &status);
  EXPECT_EQ(status, 400);
  out = call("/api/games/9/turn/1", &status);
  EXPECT_EQ(status, 404);
  api->reset();
  std::filesystem::remove(path);
}

TEST(ServeApi, PerftDepthFromThePageIsCapped) {
  auto doc = model::ReadJsonFile(kExample);
  ASSERT_TRUE(doc.ok());
  int status = 0;
  json e = Call("POST", "/api/legal", doc->dump(), {{"depth", "3"}}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(e["exit_code"], 64);
  // At depth 0 the legal placements of E are listed: next to D (north: city must face it) and
  // around U; the example's move (0, -1) at 180 is among them.
  json l = Call("POST", "/api/legal", doc->dump(), {}, &status);
  ASSERT_EQ(status, 200) << l.dump();
  bool found = false;
  for (const json& a : l["ruling"]["actions"])
    found |= a["action"]["type"] == "place_tile" && a["action"]["x"] == 0 &&
             a["action"]["y"] == -1 && a["action"]["rotation"] == 180;
  EXPECT_TRUE(found) << l.dump();
}

TEST(ServeApi, RulingsSearchAndShow) {
  int status = 0;
  json hits = Call("GET", "/api/rulings/search", "", {{"q", "phantom"}}, &status);
  ASSERT_EQ(status, 200);
  bool phantom = false;
  for (const json& h : hits["hits"]) phantom |= h["expansion"] == "phantom";
  EXPECT_TRUE(phantom) << hits.dump();
  json r = Call("GET", "/api/rulings/PH-SETUP", "", {}, &status);
  EXPECT_EQ(status, 200);
  EXPECT_EQ(r["title"], "Each player gets one phantom");
  json none = Call("GET", "/api/rulings/NO-SUCH-ID", "", {}, &status);
  EXPECT_EQ(status, 404);
  EXPECT_EQ(none["exit_code"], 66);
}

TEST(ServeApi, FixturesAreReadOnlyWhenTheDatabaseListsThem) {
  int status = 0;
  json r = Call("GET", "/api/rulings/PH-SETUP", "", {}, &status);
  ASSERT_FALSE(r["fixtures"].empty());
  const std::string path = r["fixtures"][0]["path"];
  json f = Call("GET", "/api/fixture", "", {{"path", path}}, &status);
  EXPECT_EQ(status, 200) << f.dump();
  EXPECT_TRUE(f["position"].is_object());
  json e = Call("GET", "/api/fixture", "", {{"path", "../../etc/passwd.ruling.json"}}, &status);
  EXPECT_EQ(status, 404);
}

// The page's variant forms come from the modules' declarations: each disputed ruling with its
// readings, the adopted one first (the readings each module's README and POSITION_FORMAT.md give).
TEST(ServeApi, VariantsAreWhatTheModulesDeclareAdoptedFirst) {
  json v = Call("GET", "/api/tiles")["variants"];
  auto readings = [&](const std::string& module, const std::string& ruling) {
    for (const json& d : v[module])
      if (d["ruling"] == ruling) return d["readings"].get<std::vector<std::string>>();
    return std::vector<std::string>{};
  };
  using V = std::vector<std::string>;
  EXPECT_EQ(readings("gifts", "GIFT-FN9"), (V{"discard-unchosen", "return-unchosen-to-supply"}));
  // The reuse of a returned phantom is the Phantom's reading (whoever returned it), not a gift's.
  EXPECT_EQ(readings("phantom", "GIFT-Q-PHANTOM"), (V{"same-turn-reuse", "next-turn-only"}));
  EXPECT_TRUE(readings("gifts", "GIFT-Q-PHANTOM").empty());
  EXPECT_EQ(readings("gifts", "GIFT-CHANGE"), (V{"unfinished-only", "any-feature"}));
  EXPECT_EQ(readings("christmas_present", "XMAS-DRAW-ROAD"),
            (V{"road-without-city-or-monastery", "plain-road-tiles", "any-road-tile",
               "every-edge-road"}));
  EXPECT_EQ(readings("christmas_present", "XMAS-Q-TIEDSCORING"),
            (V{"card-player-only", "all-tied-leaders", "tied-leaders-normal-rate"}));
  EXPECT_EQ(readings("christmas_present", "XMAS-FN12"), (V{"fixed-now-paid-at-end", "paid-now"}));
  EXPECT_EQ(readings("messengers", "MSG-FN15"), (V{"second-message-cap", "c1-unbounded-chain"}));
  EXPECT_EQ(readings("messengers", "MSG-Q-8-TIED"),
            (V{"all-tied-leaders-score", "active-player-only"}));
  EXPECT_EQ(v["christmas_present"].size(), 18u) << v["christmas_present"].dump();
  EXPECT_EQ(v["messengers"].size(), 8u) << v["messengers"].dump();
  EXPECT_EQ(v["phantom"].size(), 1u) << v["phantom"].dump();
  EXPECT_EQ(v["gifts"].size(), 6u) << v["gifts"].dump();
}

TEST(ServeApi, TilesAreTheBaseSetWithFeatureNames) {
  json t = Call("GET", "/api/tiles");
  ASSERT_EQ(t["tiles"].size(), 24u);
  int total = 0;
  for (const json& tile : t["tiles"]) total += tile["count"].get<int>();
  EXPECT_EQ(total, 72);
  const json& d = t["tiles"][3];
  EXPECT_EQ(d["id"], "D");
  EXPECT_EQ(d["count"], 4);
  std::set<std::string> names;
  for (const json& f : d["rotations"][0]["features"]) names.insert(f["name"]);
  EXPECT_TRUE(names.count("city:N")) << d["rotations"][0]["features"].dump();
  EXPECT_TRUE(names.count("road:EW")) << d["rotations"][0]["features"].dump();
  // The city's dot is where `carc render` stands a figure on it: mid-north, 15 units in.
  for (const json& f : d["rotations"][0]["features"])
    if (f["name"] == "city:N") {
      EXPECT_EQ(f["x"], 50) << f.dump();
      EXPECT_EQ(f["y"], 15) << f.dump();
    }
  // Turned a quarter clockwise, D's city faces east and its road runs north-south.
  names.clear();
  for (const json& f : d["rotations"][1]["features"]) names.insert(f["name"]);
  EXPECT_TRUE(names.count("city:E"));
  EXPECT_TRUE(names.count("road:NS"));
}

TEST(ServeApi, ThePageIsEmbedded) {
  for (const char* p : {"/index.html", "/app.js", "/style.css"}) {
    const Asset* a = FindAsset(p);
    ASSERT_NE(a, nullptr) << p;
    EXPECT_GT(a->data.size(), 1000u) << p;
  }
  EXPECT_EQ(FindAsset("/nothing.js"), nullptr);
}

TEST(ServeApi, UnknownCallsAreRefused) {
  int status = 0;
  json e = Call("GET", "/api/nothing", "", {}, &status);
  EXPECT_EQ(status, 404);
  EXPECT_EQ(e["exit_code"], 66);
}

// ---- request bodies are read as `carc adjudicate` reads a file (model/core/input_file.h)

Response Raw(const std::string& method, const std::string& path, const std::string& body,
             std::map<std::string, std::string> query = {}) {
  return TheApi().Handle(method, path, query, body);
}

// The CLI refuses a key given twice; the page's body was read by a parser that kept the last.
TEST(ServeApi, ADuplicateKeyInABodyIsRefusedAsTheCommandLineRefusesIt) {
  auto doc = model::ReadJsonFile(kExample);
  ASSERT_TRUE(doc.ok());
  std::string text = doc->dump();
  ASSERT_EQ(text.front(), '{');
  text.insert(1, R"("board": [], )");  // "board" twice in the top object
  int status = 0;
  json e = Call("POST", "/api/adjudicate", text, {}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(e["exit_code"], 65);
  EXPECT_EQ(e["error"], "position.json:/board: duplicate key \"board\"");
  e = Call("POST", "/api/fit", R"({"tile": "E", "tile": "D"})", {}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(e["error"], "request:/tile: duplicate key \"tile\"");
}

// x = 2^32 was read as 0, and the answer was about (0, 0); INT_MAX and INT_MIN answered 500.
// The position reader's range, -1,000,000..1,000,000, with its message.
TEST(ServeApi, AFitTileAt2Pow32OrIntMaxIsRefusedNotReadAsAnotherSquare) {
  int status = 0;
  json e = Call("POST", "/api/fit",
                R"({"tile": "E", "board": [{"tile": "D", "x": 4294967296, "y": 0}]})", {}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(e["exit_code"], 65);
  EXPECT_EQ(e["error"],
            "request:/board/0/x: expected an integer from -1000000 to 1000000, got 4294967296");
  e = Call("POST", "/api/fit",
           R"({"tile": "E", "board": [{"tile": "D", "x": 0, "y": 0},
                                       {"tile": "E", "x": 2147483647, "y": -2147483648}]})",
           {}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(e["error"],
            "request:/board/1/x: expected an integer from -1000000 to 1000000, got 2147483647");
  e = Call("POST", "/api/fit", R"({"tile": "E", "board": [{"tile": "D", "x": 0, "y": 1.5}]})", {},
           &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(e["error"],
            "request:/board/0/y: expected an integer from -1000000 to 1000000, got 1.5");
  e = Call("POST", "/api/fit",
           R"({"tile": "E", "board": [{"tile": "D", "x": 0, "y": 0}, {"tile": "D", "x": 0,
               "y": 0}]})",
           {}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(e["error"],
            "request:/board/1: two tiles on one square (0, 0): /board/0 is already there");
  e = Call("POST", "/api/fit", R"({"tile": "E", "board": [], "extra": 1})", {}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(e["error"], "request:/extra: unknown field");
  // The same tile at INT_MAX in a position: the CLI's own message, 400 (was 500, exit 70).
  auto doc = model::ReadJsonFile(kExample);
  ASSERT_TRUE(doc.ok());
  (*doc)["board"][1]["x"] = 2147483647;
  e = Call("POST", "/api/adjudicate", doc->dump(), {}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(e["exit_code"], 65);
  EXPECT_EQ(e["error"],
            "position.json:/board/1/x: expected an integer from -1000000 to 1000000, got "
            "2147483647");
}

// 1e400 is beyond a double: nlohmann threw out_of_range, which the handler answered as 500.
TEST(ServeApi, ANumberBeyondADoubleIs400WithItsPointerNot500) {
  auto doc = model::ReadJsonFile(kExample);
  ASSERT_TRUE(doc.ok());
  std::string text = doc->dump();
  const std::string score = "\"score\":12";  // Anna's score, the first player's
  const auto at = text.find(score);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, score.size(), "\"score\":1e400");
  Response r = Raw("POST", "/api/score", text);
  EXPECT_EQ(r.status, 400);
  json e = json::parse(r.body);
  EXPECT_EQ(e["exit_code"], 65);
  EXPECT_EQ(e["error"].get<std::string>().rfind(
                "position.json:/players/0/score: number out of range (", 0),
            0u)
      << e.dump();
}

// A raw 0xFF byte in a player's name: the parse error quoted it, and the answer's JSON could not
// be written (500). Now 400, the byte written \xff, the body valid JSON.
TEST(ServeApi, AByteFFInANameIs400WithAPrintableMessageNot500) {
  const std::string text =
      "{\"players\": [{\"name\": \"An\xff"
      "a\"}]}";
  Response r = Raw("POST", "/api/adjudicate", text);
  EXPECT_EQ(r.status, 400);
  json e = json::parse(r.body);
  EXPECT_EQ(e["exit_code"], 65);
  const std::string m = e["error"];
  EXPECT_EQ(m.rfind("position.json:/: malformed JSON: parse error", 0), 0u) << m;
  EXPECT_NE(m.find("ill-formed UTF-8 byte"), std::string::npos) << m;
  EXPECT_NE(m.find("\\xff"), std::string::npos) << m;
}

// depth=1e9 was read as 1 and depth=2abc as 2 (std::stoi stops at the first non-digit).
TEST(ServeApi, QueryParametersAreReadWholeAndRangeChecked) {
  auto doc = model::ReadJsonFile(kExample);
  ASSERT_TRUE(doc.ok());
  const std::string depth_help =
      "depth: expected an integer from 0 to 2 on the page (use `carc legal --depth N` for "
      "deeper counts), got ";
  for (const char* bad :
       {"1e9", "2abc", " 1", "+1", "", "-1", "3", "99999999999999999999", "01", "00"}) {
    int status = 0;
    json e = Call("POST", "/api/legal", doc->dump(), {{"depth", bad}}, &status);
    EXPECT_EQ(status, 400) << bad;
    EXPECT_EQ(e["exit_code"], 64) << bad;
    EXPECT_EQ(e["error"], depth_help + "\"" + bad + "\"") << bad;
  }
  int status = 0;
  json l = Call("POST", "/api/legal", doc->dump(), {{"depth", "1"}}, &status);
  EXPECT_EQ(status, 200) << l.dump();
  // A body's own question is held to the same limit.
  json deep = *doc;
  deep["question"] = {{"ask", "legal"}, {"depth", 3}};
  json e3 = Call("POST", "/api/adjudicate", deep.dump(), {}, &status);
  EXPECT_EQ(status, 400) << e3.dump();
  EXPECT_EQ(e3["exit_code"], 64);
  EXPECT_EQ(e3["error"],
            "position.json:/question/depth: at most 2 on the page (use `carc legal --depth N` "
            "for deeper counts), got 3");
  deep["question"]["depth"] = 1;
  e3 = Call("POST", "/api/adjudicate", deep.dump(), {}, &status);
  EXPECT_EQ(status, 200) << e3.dump();
  for (const char* bad : {"0", "101", "30x", "1e2", "02", "010"}) {
    json e = Call("GET", "/api/rulings/search", "", {{"q", "phantom"}, {"limit", bad}}, &status);
    EXPECT_EQ(status, 400) << bad;
    EXPECT_EQ(e["error"],
              std::string("limit: expected an integer from 1 to 100, got \"") + bad + "\"")
        << bad;
  }
  json hits = Call("GET", "/api/rulings/search", "", {{"q", "phantom"}, {"limit", "2"}}, &status);
  EXPECT_EQ(status, 200);
  EXPECT_EQ(hits["hits"].size(), 2u) << hits.dump();
  // A question of more than 32 words to search for is refused, not cut (limits.md).
  std::string words;
  for (int i = 1; i <= 32; ++i) words += "q" + std::to_string(i) + " ";
  json at_limit = Call("GET", "/api/rulings/search", "", {{"q", words}}, &status);
  EXPECT_EQ(status, 200) << at_limit.dump();
  json cut = Call("GET", "/api/rulings/search", "", {{"q", words + "q33"}}, &status);
  EXPECT_EQ(status, 400) << cut.dump();
  EXPECT_EQ(cut["exit_code"], 64);
  EXPECT_EQ(cut["error"],
            "the question has more than 32 words to search for (the limit; stop words and "
            "repeated words not counted): ask it in fewer words");
  // A parameter the call does not read is refused, naming it.
  json e = Call("POST", "/api/legal", doc->dump(), {{"dpeth", "1"}}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(e["error"], "\"dpeth\": unknown query parameter (this call takes depth)");
  e = Call("GET", "/api/info", "", {{"x", "1"}}, &status);
  EXPECT_EQ(status, 400);
  EXPECT_EQ(e["error"], "\"x\": unknown query parameter (this call takes none)");
}

// GET /api/modules?x=1 answered 200: the calls that refused a parameter were listed by hand, and
// the list missed it (and the notation routes). One check now runs for every call.
TEST(ServeApi, AnUnknownQueryParameterIsRefusedByEveryCall) {
  const std::vector<std::pair<std::string, std::string>> calls = {{"GET", "/api/tiles"},
                                                                  {"GET", "/api/info"},
                                                                  {"GET", "/api/modules"},
                                                                  {"GET", "/api/rulings"},
                                                                  {"GET", "/api/rulings/PH-SETUP"},
                                                                  {"GET", "/api/rulings/search"},
                                                                  {"GET", "/api/fixture"},
                                                                  {"GET", "/api/games"},
                                                                  {"GET", "/api/games/1"},
                                                                  {"GET", "/api/games/1/turn/0"},
                                                                  {"POST", "/api/adjudicate"},
                                                                  {"POST", "/api/validate"},
                                                                  {"POST", "/api/score"},
                                                                  {"POST", "/api/legal"},
                                                                  {"POST", "/api/render"},
                                                                  {"POST", "/api/fit"},
                                                                  {"POST", "/api/line"},
                                                                  {"POST", "/api/position"}};
  const std::map<std::string, std::string> takes = {
      {"/api/legal", " (this call takes depth)"},
      {"/api/rulings/search", " (this call takes q, limit)"},
      {"/api/fixture", " (this call takes path)"}};
  for (const auto& [method, path] : calls) {
    int status = 0;
    json e = Call(method, path, "{}", {{"x", "1"}}, &status);
    EXPECT_EQ(status, 400) << method << " " << path;
    EXPECT_EQ(e["exit_code"], 64) << method << " " << path;
    const auto it = takes.find(path);
    EXPECT_EQ(e["error"],
              "\"x\": unknown query parameter" +
                  (it == takes.end() ? std::string(" (this call takes none)") : it->second))
        << method << " " << path;
  }
  // The parameters a call reads are still read: the search answers with a hit list.
  int status = 0;
  json hits = Call("GET", "/api/rulings/search", "", {{"q", "phantom"}}, &status);
  EXPECT_EQ(status, 200) << hits.dump();
  EXPECT_FALSE(hits["hits"].empty());
}

// The server opens the database read-only: a file without write permission (0444, as root too)
// gets no -shm or -wal next to it (a plain read-only open of the WAL file left both behind).
TEST(ServeApi, AReadOnlyDatabaseIsServedWithoutLeavingShmOrWal) {
  const std::string dir = ::carc::testing_support::ScratchDir("serve_api_test") + "/ro";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/ro.db";
  {
    auto conn = database::OpenDatabase(path, {.mode = database::OpenMode::kCreate});
    ASSERT_TRUE(conn.ok()) << conn.status().message();
    ASSERT_TRUE(database::BuildFromRepo(*conn, kRoot).ok());
  }
  std::filesystem::permissions(path, std::filesystem::perms::owner_read |
                                         std::filesystem::perms::group_read |
                                         std::filesystem::perms::others_read);
  auto files = [&] {
    std::set<std::string> names;
    for (const auto& f : std::filesystem::directory_iterator(dir))
      names.insert(f.path().filename().string());
    return names;
  };
  ASSERT_EQ(files(), std::set<std::string>{"ro.db"});
  {
    auto api = Api::Create({.run = adjudicator::RunJson, .db_path = path, .root = kRoot});
    ASSERT_TRUE(api.ok()) << api.status().message();
    Response r = (*api)->Handle("GET", "/api/rulings/PH-SETUP", {}, "");
    EXPECT_EQ(r.status, 200) << r.body;
    EXPECT_EQ(files(), std::set<std::string>{"ro.db"});
  }
  EXPECT_EQ(files(), std::set<std::string>{"ro.db"});
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace carc::serve
