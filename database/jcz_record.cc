#include "database/jcz_record.h"

#include <filesystem>
#include <map>

#include "model/core/input_file.h"

namespace carc::database {

using model::ErrorCode;
using model::Status;
using nlohmann::json;

const std::map<std::string, std::string>& JczTileIds() {
  static const std::map<std::string, std::string> ids = {
      {"BA/LR", "A"},   {"BA/L", "B"},     {"BA/Cccc+", "C"}, {"BA/RCr", "D"},   {"BA/C", "E"},
      {"BA/CFc+", "F"}, {"BA/CFc.1", "G"}, {"BA/CFC.2", "H"}, {"BA/CC.2", "I"},  {"BA/CRr", "J"},
      {"BA/RrC", "K"},  {"BA/CRRR", "L"},  {"BA/Cc+", "M"},   {"BA/Cc.1", "N"},  {"BA/CcRr+", "O"},
      {"BA/CcRr", "P"}, {"BA/Ccc+", "Q"},  {"BA/Ccc", "R"},   {"BA/CccR+", "S"}, {"BA/CccR", "T"},
      {"BA/RFr", "U"},  {"BA/Rr", "V"},    {"BA/RRR", "W"},   {"BA/RRRR", "X"}};
  return ids;
}

int JczRotation(const std::string& r) {
  if (r == "R0") return 0;
  if (r == "R90") return 90;
  if (r == "R180") return 180;
  if (r == "R270") return 270;
  return -1;
}

std::string JczFeatureName(const std::string& feature, std::string loc) {
  if (feature == "Monastery") return "monastery";
  if (feature == "Field") return "field:" + loc;
  if (loc.size() == 2 && loc[0] == '_') {
    std::string all = "NESW";
    if (auto at = all.find(loc[1]); at != std::string::npos) all.erase(at, 1);
    loc = all;
  }
  return (feature == "Road" ? "road:" : "city:") + loc;
}

std::optional<std::pair<int, int>> JczPosition(const json& p) {
  if (!p.is_array() || p.size() != 2) return std::nullopt;
  auto x = model::JsonInt(p[0]), y = model::JsonInt(p[1]);
  if (!x || !y) return std::nullopt;
  return std::make_pair(*x, *y);
}

std::optional<std::vector<int>> JczScores(const json& s) {
  if (!s.is_array() || s.size() > 6) return std::nullopt;
  std::vector<int> out;
  for (const json& v : s) {
    auto i = model::JsonInt(v);
    if (!i) return std::nullopt;
    out.push_back(*i);
  }
  return out;
}

namespace {

Status Bad(const std::string& source, const std::string& where, const std::string& what) {
  return Status(ErrorCode::kMalformed, source + ":" + where + ": " + what);
}

}  // namespace

model::StatusOr<GameRecord> JczToRecord(const json& d, const std::string& source) {
  try {
    GameRecord r;
    r.meta = {{"origin", "jcz"},
              {"file", std::filesystem::path(source).filename().string()},
              {"jcz_game_id", d.value("gameId", "")},
              {"jcz_app_version", d.value("appVersion", "")}};
    if (d.at("setup").at("elements").contains("phantom")) r.expansions.push_back("phantom");
    for (const json& p : d.at("players")) r.players.push_back(p.at("name").get<std::string>());
    r.start = json::array();
    for (const json& s : d.at("setup").at("start")) {
      auto it = JczTileIds().find(s.at("tile").get<std::string>());
      if (it == JczTileIds().end())
        return Bad(source, "/setup/start", "unknown tile " + s.at("tile").dump());
      r.start.push_back({{"tile", it->second},
                         {"x", s.at("x")},
                         {"y", s.at("y")},
                         {"rotation", s.value("rotation", 0)}});
    }
    const json& replay = d.at("replay");
    const json& points = d.at("pointsAfterEachTurn");
    TurnRecord turn;
    for (size_t i = 0; i < replay.size(); ++i) {
      const json& m = replay[i];
      const std::string type = m.at("type");
      const std::string where = "/replay/" + std::to_string(i);
      if (type == "PLACE_TILE") {
        const json& p = m.at("payload");
        auto it = JczTileIds().find(p.at("tileId").get<std::string>());
        if (it == JczTileIds().end()) return Bad(source, where + "/payload/tileId", "unknown tile");
        auto xy = JczPosition(p.at("position"));
        if (!xy) return Bad(source, where + "/payload/position", "expected [x, y], two integers");
        r.draw_order.push_back(it->second);
        turn.actions.push_back({{"type", "place_tile"},
                                {"tile", it->second},
                                {"x", xy->first},
                                {"y", xy->second},
                                {"rotation", JczRotation(p.at("rotation"))}});
      } else if (type == "DEPLOY_MEEPLE") {
        const json& p = m.at("payload");
        const std::string id = p.at("meepleId");
        const json& ptr = p.at("pointer");
        auto xy = JczPosition(ptr.at("position"));
        if (!xy)
          return Bad(source, where + "/payload/pointer/position", "expected [x, y], two integers");
        turn.actions.push_back(
            {{"type", "place_figure"},
             {"kind", id.find(".phantom.") != std::string::npos ? "phantom" : "meeple"},
             {"x", xy->first},
             {"y", xy->second},
             {"feature", JczFeatureName(ptr.at("feature"), ptr.at("location"))}});
      } else if (type == "PASS") {
        turn.actions.push_back({{"type", "pass"}});
      } else if (type == "COMMIT") {
        const size_t n = r.turns.size();
        if (n >= points.size())
          return Bad(source, "/pointsAfterEachTurn", "fewer entries than turns");
        if (turn.actions.empty()) return Bad(source, where, "a turn without actions");
        auto scores = JczScores(points[n]);
        if (!scores)
          return Bad(source, "/pointsAfterEachTurn/" + std::to_string(n),
                     "expected a list of integer scores");
        turn.scores = std::move(*scores);
        r.turns.push_back(std::move(turn));
        turn = TurnRecord();
      } else {
        return Bad(source, where + "/type", "unsupported message " + type);
      }
    }
    if (!turn.actions.empty()) return Bad(source, "/replay", "the last turn has no COMMIT");
    auto final_scores = JczScores(d.at("finalPoints"));
    if (!final_scores) return Bad(source, "/finalPoints", "expected a list of integer scores");
    r.final_scores = std::move(*final_scores);
    return r;
  } catch (const json::exception& e) {
    return Bad(source, "", std::string("not a .jcz game of the supported subset: ") + e.what());
  }
}

}  // namespace carc::database
