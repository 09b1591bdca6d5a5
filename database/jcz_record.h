#pragma once
// JCloisterZone saved games (.jcz, the subset of fixtures/peer-games/) -> game records, so that
// `carc games import` stores them like any record. Turns end at each COMMIT; the scores JCZ
// shows after each turn and at the end become the claimed scores.

#include <string>

#include <nlohmann/json.hpp>

#include "database/game_record.h"
#include "model/core/status.h"

namespace carc::database {

model::StatusOr<GameRecord> JczToRecord(const nlohmann::json& jcz, const std::string& source);

}  // namespace carc::database
