#include "adjudicator/jcz.h"

#include "database/jcz_record.h"
#include "model/core/position_io.h"
#include "model/core/rules.h"
#include "model/expansions/registry.h"

namespace carc::adjudicator {

using model::Action;
using model::ActionType;
using model::Position;
using model::Status;
using nlohmann::json;

namespace {

Status Bad(const std::string& file, const std::string& where, const std::string& what) {
  return Status(model::ErrorCode::kMalformed, file + ":" + where + ": " + what);
}

json Scores(const Position& pos) {
  json out = json::array();
  for (const auto& p : pos.players) out.push_back(p.score);
  return out;
}

// Passes every remaining step of the current player's turn.
void FinishTurn(Position& pos, int player) {
  while (!pos.turn.game_over && pos.turn.player == player) {
    model::ApplyResult r = model::Apply(pos, {.type = ActionType::kPass});
    if (!r.input_error.empty() || !r.verdict.legal) return;
  }
}

}  // namespace

model::StatusOr<JczReport> CheckJcz(const std::string& path) {
  auto doc_or = model::ReadJsonFile(path);
  if (!doc_or.ok()) return doc_or.status();
  const json& d = *doc_or;
  try {
    JczReport rep;
    rep.file = path;
    json pos_json;
    json expansions = json::array();
    if (d.at("setup").at("elements").contains("phantom")) expansions.push_back("phantom");
    pos_json["rules"] = {{"edition", "C3"}, {"expansions", expansions}};
    pos_json["players"] = json::array();
    for (const json& p : d.at("players")) pos_json["players"].push_back({{"name", p.at("name")}});
    rep.players = static_cast<int>(d.at("players").size());
    pos_json["board"] = json::array();
    for (const json& s : d.at("setup").at("start")) {
      auto it = database::JczTileIds().find(s.at("tile").get<std::string>());
      if (it == database::JczTileIds().end())
        return Bad(path, "/setup/start", "unknown tile " + s.at("tile").dump());
      pos_json["board"].push_back({{"tile", it->second},
                                   {"x", s.at("x")},
                                   {"y", s.at("y")},
                                   {"rotation", s.value("rotation", 0)}});
    }
    json order = json::array();
    const json& replay = d.at("replay");
    for (size_t i = 0; i < replay.size(); ++i)
      if (replay[i].at("type") == "PLACE_TILE") {
        auto it =
            database::JczTileIds().find(replay[i].at("payload").at("tileId").get<std::string>());
        if (it == database::JczTileIds().end())
          return Bad(path, "/replay/" + std::to_string(i) + "/payload/tileId", "unknown tile");
        order.push_back(it->second);
      }
    pos_json["supply"] = {{"draw_order", order}};
    pos_json["turn"] = {{"player", 0}, {"step", "draw"}};
    auto ctx = exp::Context(path);
    auto parsed = model::ParsePosition(pos_json, ctx);
    if (!parsed.ok()) return parsed.status();
    Position pos = std::move(*parsed);
    model::ApplyResult pre;
    model::Advance(pos, pre);
    const json& expected = d.at("pointsAfterEachTurn");
    int player = pos.turn.player;
    for (size_t i = 0; i < replay.size(); ++i) {
      const json& m = replay[i];
      const std::string type = m.at("type");
      const std::string where = "/replay/" + std::to_string(i);
      json action;
      if (type == "PLACE_TILE") {
        const json& p = m.at("payload");
        auto xy = database::JczPosition(p.at("position"));
        if (!xy) return Bad(path, where + "/payload/position", "expected [x, y], two integers");
        action = {{"type", "place_tile"},
                  {"tile", database::JczTileIds().at(p.at("tileId"))},
                  {"x", xy->first},
                  {"y", xy->second},
                  {"rotation", database::JczRotation(p.at("rotation"))}};
      } else if (type == "DEPLOY_MEEPLE") {
        const json& p = m.at("payload");
        std::string id = p.at("meepleId");
        std::string kind = id.find(".phantom.") != std::string::npos ? "phantom" : "meeple";
        const json& ptr = p.at("pointer");
        auto xy = database::JczPosition(ptr.at("position"));
        if (!xy)
          return Bad(path, where + "/payload/pointer/position", "expected [x, y], two integers");
        action = {{"type", "place_figure"},
                  {"kind", kind},
                  {"x", xy->first},
                  {"y", xy->second},
                  {"feature", database::JczFeatureName(ptr.at("feature"), ptr.at("location"))}};
      } else if (type == "PASS") {
        action = {{"type", "pass"}};
      } else if (type == "COMMIT") {
        FinishTurn(pos, player);
        if (rep.turns >= static_cast<int>(expected.size()))
          return Bad(path, "/pointsAfterEachTurn", "fewer entries than turns");
        json want = expected[rep.turns];
        json got = Scores(pos);
        if (want != got && rep.agree) {
          rep.agree = false;
          rep.first_difference = "turn " + std::to_string(rep.turns + 1) + " (" + where +
                                 "): engine " + want.dump() + ", model " + got.dump();
        }
        ++rep.turns;
        player = pos.turn.player;
        continue;
      } else {
        return Bad(path, where + "/type", "unsupported message " + type);
      }
      auto a = model::ParseAction(action, pos, where, ctx);
      if (!a.ok()) return a.status();
      model::ApplyResult r = model::Apply(pos, *a);
      if (!r.input_error.empty()) return Bad(path, where, r.input_error);
      if (!r.verdict.legal) {
        std::string why = r.verdict.reasons.empty()
                              ? ""
                              : r.verdict.reasons[0].ruling + ": " + r.verdict.reasons[0].text;
        if (rep.agree) {
          rep.agree = false;
          rep.first_difference = "turn " + std::to_string(rep.turns + 1) + " (" + where +
                                 "): the model finds " + model::Describe(pos, *a) +
                                 " illegal: " + why;
        }
        return rep;
      }
    }
    if (!pos.turn.game_over && rep.agree) {
      rep.agree = false;
      rep.first_difference = "the model's game did not end after the last recorded turn";
    }
    for (const auto& p : pos.players) rep.final_model.push_back(p.score);
    auto final_engine = database::JczScores(d.at("finalPoints"));
    if (!final_engine) return Bad(path, "/finalPoints", "expected a list of integer scores");
    rep.final_engine = std::move(*final_engine);
    if (rep.final_model != rep.final_engine && rep.agree) {
      rep.agree = false;
      rep.first_difference = "final scores differ";
    }
    return rep;
  } catch (const json::exception& e) {
    return Bad(path, "/", std::string("not a .jcz game of the supported subset: ") + e.what());
  }
}

json JczReportJson(const JczReport& r) {
  return {{"file", r.file},
          {"players", r.players},
          {"turns", r.turns},
          {"agree", r.agree},
          {"first_difference", r.first_difference},
          {"final_model", r.final_model},
          {"final_engine", r.final_engine}};
}

}  // namespace carc::adjudicator
