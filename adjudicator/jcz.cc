#include "adjudicator/jcz.h"

#include "database/game_record.h"
#include "database/jcz_record.h"
#include "model/core/json_reader.h"
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

// The one .jcz reader (database/jcz_record.h) gives the record; this replays it turn by turn,
// passing what JCZ leaves implicit at each COMMIT, and compares the scores after every turn.
model::StatusOr<JczReport> CheckJcz(const std::string& path) {
  auto doc_or = model::ReadJsonFile(path);
  if (!doc_or.ok()) return doc_or.status();
  auto game = database::ReadJcz(*doc_or, path);
  if (!game.ok()) return game.status();
  const database::GameRecord& rec = game->record;
  JczReport rep;
  rep.file = path;
  rep.players = static_cast<int>(rec.players.size());
  auto ctx = exp::Context(path);
  auto parsed = model::ParsePosition(database::StartPosition(rec), ctx);
  if (!parsed.ok()) return parsed.status();
  Position pos = std::move(*parsed);
  model::ApplyResult pre;
  model::Advance(pos, pre);
  for (size_t t = 0; t < rec.turns.size(); ++t) {
    const int player = pos.turn.player;
    for (size_t k = 0; k < rec.turns[t].actions.size(); ++k) {
      const std::string& where = game->action_where[t][k];
      auto a = model::ParseAction(rec.turns[t].actions[k], pos, where, ctx);
      if (!a.ok()) return a.status();
      model::ApplyResult r = model::Apply(pos, *a);
      if (!r.input_error.empty()) return model::JsonError(path, where, r.input_error);
      if (!r.verdict.legal) {
        std::string why = r.verdict.reasons.empty()
                              ? ""
                              : r.verdict.reasons[0].ruling + ": " + r.verdict.reasons[0].text;
        rep.agree = false;
        rep.first_difference = "turn " + std::to_string(rep.turns + 1) + " (" + where +
                               "): the model finds " + model::Describe(pos, *a) +
                               " illegal: " + why;
        return rep;
      }
    }
    FinishTurn(pos, player);
    json want = *rec.turns[t].scores;
    json got = Scores(pos);
    if (want != got && rep.agree) {
      rep.agree = false;
      rep.first_difference = "turn " + std::to_string(rep.turns + 1) + " (" +
                             game->commit_where[t] + "): engine " + want.dump() + ", model " +
                             got.dump();
    }
    ++rep.turns;
  }
  if (!pos.turn.game_over && rep.agree) {
    rep.agree = false;
    rep.first_difference = "the model's game did not end after the last recorded turn";
  }
  for (const auto& p : pos.players) rep.final_model.push_back(p.score);
  rep.final_engine = *rec.final_scores;
  if (rep.final_model != rep.final_engine && rep.agree) {
    rep.agree = false;
    rep.first_difference = "final scores differ";
  }
  return rep;
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
