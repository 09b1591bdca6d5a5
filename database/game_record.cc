#include "database/game_record.h"

#include <algorithm>
#include <set>

#include "database/sha256.h"
#include "model/core/input_file.h"
#include "model/core/json_reader.h"
#include "model/core/notation_text.h"

namespace carc::database {

using model::ErrorCode;
using model::Status;
using nlohmann::json;

namespace {

// Unknown keys are an error, so a typo never passes silently.
Status OnlyKeys(const json& obj, const std::set<std::string>& allowed, const std::string& source,
                const std::string& where) {
  for (const auto& [k, v] : obj.items())
    if (!allowed.count(k)) return model::JsonError(source, where + "/" + k, "unknown field");
  return Status::Ok();
}

model::StatusOr<std::vector<int>> Scores(const json& j, size_t players, const std::string& source,
                                         const std::string& where) {
  if (!j.is_array() || j.size() != players)
    return model::JsonError(source, where,
                            "expected an array of " + std::to_string(players) + " integers");
  std::vector<int> out;
  for (const json& v : j) {
    // Range-checked (model/core/input_file.h): 2^64 - 1 is refused, never read as -1.
    if (!model::JsonInt(v)) return model::JsonError(source, where, model::JsonIntError(v));
    out.push_back(*model::JsonInt(v));
  }
  return out;
}

}  // namespace

model::StatusOr<GameRecord> ParseGameRecord(const json& j, const std::string& source) {
  if (!j.is_object()) return model::JsonError(source, "", "a game record is a JSON object");
  if (Status s = OnlyKeys(
          j, {"format", "meta", "rules", "players", "start", "draw_order", "turns", "final_scores"},
          source, "");
      !s.ok())
    return s;
  if (!j.contains("format") || j["format"] != kGameRecordFormat)
    return model::JsonError(source, "/format",
                            std::string("expected \"") + kGameRecordFormat + "\"");
  GameRecord r;
  if (j.contains("meta")) {
    if (!j["meta"].is_object()) return model::JsonError(source, "/meta", "expected an object");
    r.meta = j["meta"];
  }
  const json rules = j.value("rules", json::object());
  if (!rules.is_object()) return model::JsonError(source, "/rules", "expected an object");
  if (Status s = OnlyKeys(rules, {"edition", "expansions", "options"}, source, "/rules"); !s.ok())
    return s;
  if (rules.contains("edition")) {
    if (!rules["edition"].is_string())
      return model::JsonError(source, "/rules/edition", "expected a string");
    r.edition = rules["edition"];
  }
  const json exps = rules.value("expansions", json::array());
  if (!exps.is_array())
    return model::JsonError(source, "/rules/expansions", "expected an array of ids");
  for (size_t i = 0; i < exps.size(); ++i) {
    const std::string where = "/rules/expansions/" + std::to_string(i);
    if (!exps[i].is_string()) return model::JsonError(source, where, "expected an expansion id");
    if (std::find(r.expansions.begin(), r.expansions.end(), exps[i]) != r.expansions.end())
      return model::JsonError(source, where, "expansion " + exps[i].dump() + " given twice");
    r.expansions.push_back(exps[i]);
  }
  if (rules.contains("options")) {
    if (!rules["options"].is_object())
      return model::JsonError(source, "/rules/options", "expected an object");
    r.options = rules["options"];
  }
  // BASE-SETUP: 2 to 6 players (1 for a solo study, as a position file allows); checked here,
  // so that a seventh player is not blamed on the first turn's scores.
  if (!j.contains("players") || !j["players"].is_array() || j["players"].empty() ||
      j["players"].size() > 6)
    return model::JsonError(source, "/players", "expected 1 to 6 players, each {\"name\": ...}");
  for (size_t i = 0; i < j["players"].size(); ++i) {
    const json& p = j["players"][i];
    const std::string where = "/players/" + std::to_string(i);
    if (!p.is_object() || !p.contains("name") || !p["name"].is_string())
      return model::JsonError(source, where, "expected {\"name\": \"...\"}");
    if (Status s = OnlyKeys(p, {"name"}, source, where); !s.ok()) return s;
    if (std::string why = model::NameProblem(p["name"].get_ref<const std::string&>()); !why.empty())
      return model::JsonError(source, where + "/name", "a player's name: " + why);
    r.players.push_back(p["name"]);
  }
  if (j.contains("start")) {
    if (!j["start"].is_array() || j["start"].empty())
      return model::JsonError(source, "/start", "expected a non-empty array of board entries");
    for (size_t i = 0; i < j["start"].size(); ++i) {
      const json& t = j["start"][i];
      if (!t.is_object())
        return model::JsonError(source, "/start/" + std::to_string(i), "expected an object");
      if (Status s =
              OnlyKeys(t, {"tile", "x", "y", "rotation"}, source, "/start/" + std::to_string(i));
          !s.ok())
        return s;
      json e = t;
      if (!e.contains("rotation")) e["rotation"] = 0;
      r.start.push_back(e);
    }
  } else {
    r.start = json::array({{{"tile", "D"}, {"x", 0}, {"y", 0}, {"rotation", 0}}});
  }
  if (!j.contains("draw_order") || !j["draw_order"].is_array())
    return model::JsonError(source, "/draw_order", "expected an array of tile letters");
  for (const json& t : j["draw_order"]) {
    if (!t.is_string())
      return model::JsonError(source, "/draw_order", "expected tile letters, got " + t.dump());
    r.draw_order.push_back(t);
  }
  if (!j.contains("turns") || !j["turns"].is_array())
    return model::JsonError(source, "/turns", "expected an array of {\"actions\": [...]}");
  for (size_t i = 0; i < j["turns"].size(); ++i) {
    const json& t = j["turns"][i];
    const std::string where = "/turns/" + std::to_string(i);
    if (!t.is_object()) return model::JsonError(source, where, "expected an object");
    if (Status s = OnlyKeys(t, {"actions", "scores"}, source, where); !s.ok()) return s;
    if (!t.contains("actions") || !t["actions"].is_array() || t["actions"].empty())
      return model::JsonError(source, where + "/actions", "expected a non-empty array of actions");
    TurnRecord turn;
    for (size_t a = 0; a < t["actions"].size(); ++a) {
      if (!t["actions"][a].is_object() || !t["actions"][a].contains("type"))
        return model::JsonError(source, where + "/actions/" + std::to_string(a),
                                "expected an action object with a \"type\"");
      turn.actions.push_back(t["actions"][a]);
    }
    if (t.contains("scores")) {
      auto s = Scores(t["scores"], r.players.size(), source, where + "/scores");
      if (!s.ok()) return s.status();
      turn.scores = *s;
    }
    r.turns.push_back(std::move(turn));
  }
  if (j.contains("final_scores")) {
    auto s = Scores(j["final_scores"], r.players.size(), source, "/final_scores");
    if (!s.ok()) return s.status();
    r.final_scores = *s;
  }
  return r;
}

json DumpGameRecord(const GameRecord& r) {
  json j;
  j["format"] = kGameRecordFormat;
  if (!r.meta.is_null()) j["meta"] = r.meta;
  j["rules"] = {{"edition", r.edition}, {"expansions", r.expansions}};
  if (!r.options.is_null()) j["rules"]["options"] = r.options;
  j["players"] = json::array();
  for (const auto& p : r.players) j["players"].push_back({{"name", p}});
  j["start"] = r.start;
  j["draw_order"] = r.draw_order;
  j["turns"] = json::array();
  for (const TurnRecord& t : r.turns) {
    json jt = {{"actions", t.actions}};
    if (t.scores) jt["scores"] = *t.scores;
    j["turns"].push_back(jt);
  }
  if (r.final_scores) j["final_scores"] = *r.final_scores;
  return j;
}

std::string RecordHash(const GameRecord& r) { return Sha256Hex(DumpGameRecord(r).dump()); }

json StartPosition(const GameRecord& r) {
  json pos;
  pos["rules"] = {{"edition", r.edition}, {"expansions", r.expansions}};
  if (!r.options.is_null()) pos["rules"]["options"] = r.options;
  pos["players"] = json::array();
  for (const auto& p : r.players) pos["players"].push_back({{"name", p}});
  pos["board"] = r.start;
  pos["supply"] = {{"draw_order", r.draw_order}};
  pos["turn"] = {{"player", 0}, {"step", "draw"}};
  return pos;
}

}  // namespace carc::database
