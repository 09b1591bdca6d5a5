// The JSON API of `carc serve`, called without HTTP. Expectations are worked out by hand from
// the tile table (POSITION_FORMAT.md) and the rules; the adjudication must be the CLI's own.
#include "adjudicator/serve/api.h"

#include <gtest/gtest.h>

#include <set>

#include "adjudicator/serve/server.h"
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
  EXPECT_EQ(e["error"], "request:/board/0/rotation: expected 0, 90, 180 or 270");
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

}  // namespace
}  // namespace carc::serve
