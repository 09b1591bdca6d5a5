#include "adjudicator/jcz.h"

#include "database/game_record.h"
#include "database/jcz_record.h"
#include "database/replay.h"
#include "model/core/json_reader.h"
#include "model/core/position_io.h"

namespace carc::adjudicator {

using nlohmann::json;

// The one .jcz reader (database/jcz_record.h) gives the record and where each part of it came
// from; the one replay of game records (database/replay.h, as `carc games import` runs it)
// judges it: the same turn boundaries (each COMMIT ends a turn, what JCZ leaves implicit is
// passed), the same refusals of bad input, and the scores compared after every turn.
model::StatusOr<JczReport> CheckJcz(const std::string& path) {
  auto doc_or = model::ReadJsonFile(path);
  if (!doc_or.ok()) return doc_or.status();
  auto game = database::ReadJcz(*doc_or, path);
  if (!game.ok()) return game.status();
  const database::GameRecord& rec = game->record;
  auto rr = database::Replay(rec, path, /*with_log=*/false, &game->from);
  if (!rr.ok()) return rr.status();
  JczReport rep;
  rep.file = path;
  rep.players = static_cast<int>(rec.players.size());
  rep.turns = static_cast<int>(rr->model_scores.size());
  rep.final_model = rr->final_model;
  rep.final_engine = *rec.final_scores;
  rep.agree = rr->verdict == database::GameVerdict::kConsistent;
  if (rep.agree) return rep;
  const size_t t = rr->turn > 0 ? static_cast<size_t>(rr->turn - 1) : 0;
  const auto& from = game->from;
  if (rr->turn == 0) {
    // The final claim: the game did not end, or its final scores differ.
    rep.first_difference = rr->finished ? "final scores differ: " + rr->text
                                        : "the model's game did not end after the last recorded "
                                          "turn";
  } else if (rr->verdict == database::GameVerdict::kScoreMismatch) {
    rep.first_difference = "turn " + std::to_string(rr->turn) + " (" + from.turn_ends[t] +
                           "): engine " + json(*rec.turns[t].scores).dump() + ", model " +
                           json(rr->model_scores[t]).dump();
  } else {
    const std::string where = rr->action >= 0 ? from.actions[t][rr->action] : from.turn_ends[t];
    rep.first_difference = "turn " + std::to_string(rr->turn) + " (" + where + "): " + rr->text;
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
